package deck

import "testing"

func BenchmarkDecode(b *testing.B) {
	for b.Loop() {
		if _, err := Decode(embedded); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDefault(b *testing.B) {
	for b.Loop() {
		_ = Default()
	}
}

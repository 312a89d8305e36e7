package deck

import (
	"reflect"
	"testing"
)

// FuzzDecode: Decode never panics, and a deck it accepts encodes and decodes back to itself.
func FuzzDecode(f *testing.F) {
	f.Add(embedded)
	f.Add([]byte(`{"version": "1", "sides": []}`))
	f.Add([]byte(`{"version": "1", "sides": [{"name": "A1", "shape": ["##", "##"], "tasks": [{"pieces": "A", "tilings": 1, "witness": ["AA", "A."]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Decode(data)
		if err != nil {
			return
		}
		enc, err := Encode(d)
		if err != nil {
			t.Fatalf("Encode of a decoded deck: %v", err)
		}
		back, err := Decode(enc)
		if err != nil {
			t.Fatalf("Decode of an encoded deck: %v", err)
		}
		if !reflect.DeepEqual(back, d) {
			t.Fatal("the deck changed on a round trip")
		}
	})
}

package exploze

import "testing"

// BenchmarkFromProto decodes and checks the message of each benchmark position, as every call of the service does
// with the state it receives; BenchmarkCloneBaseline is its baseline.
func BenchmarkFromProto(b *testing.B) {
	for _, p := range benchPositions(b) {
		m := p.s.Proto()
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := FromProto(m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package core

import "testing"

// The first draws from seeds 0 and 1: the reference values every engine's PRNG test uses.
func TestSplitMix64KnownValues(t *testing.T) {
	p := NewSplitMix64(0)
	want0 := []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}
	for i, w := range want0 {
		if got := p.Next(); got != w {
			t.Fatalf("seed 0 draw %d = %#x, want %#x", i, got, w)
		}
	}
	p = NewSplitMix64(1)
	if got := p.Next(); got != 0x910a2dec89025cc1 {
		t.Fatalf("seed 1 first draw = %#x", got)
	}
}

package core

// SplitMix64 is the only source of randomness in the core: every engine draws the same
// numbers from the same seed.
type SplitMix64 struct{ state uint64 }

func NewSplitMix64(seed uint64) SplitMix64 { return SplitMix64{state: seed} }

func (p *SplitMix64) Next() uint64 {
	p.state += 0x9e3779b97f4a7c15
	z := p.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

//! SplitMix64, the core's only source of randomness: every engine draws the same numbers from
//! the same seed.

#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Reference values from the Go core (engines/go-wasm/core/prng.go).
    #[test]
    fn matches_the_go_core() {
        let cases: [(u64, [u64; 3]); 4] = [
            (0, [16294208416658607535, 7960286522194355700, 487617019471545679]),
            (1, [10451216379200822465, 13757245211066428519, 17911839290282890590]),
            (2, [10905525725756348110, 13819372491320860226, 10987583248141275951]),
            ((1 << 53) - 1, [2646233860231550367, 3513919288614318488, 9765177950096426844]),
        ];
        for (seed, want) in cases {
            let mut p = SplitMix64::new(seed);
            let got = [p.next(), p.next(), p.next()];
            assert_eq!(got, want, "seed {seed}");
        }
    }
}

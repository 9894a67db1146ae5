//! Where the generator's choices come from.

/// A source of choices. Every decision of the generator is one call, so the
/// same answers give the same kernel: a seeded PRNG ([`SplitMix64`]) for
/// reproducible corpora, the fuzzer's bytes (`fuzz/src/gen.rs` implements it for
/// `arbitrary::Unstructured`) so that mutations of the input become changes to
/// the program. A source that runs dry may answer 0 to everything: the
/// generator still ends, with small kernels.
pub trait Choose {
    /// A number below `n` (0 when `n` is 0 or 1).
    fn below(&mut self, n: usize) -> usize;

    /// `true` about `p` times in a hundred.
    fn percent(&mut self, p: u32) -> bool {
        u32::try_from(self.below(100)).unwrap_or(0) < p
    }

    /// `true` or `false`, alike.
    fn bool(&mut self) -> bool {
        self.below(2) == 1
    }
}

/// SplitMix64 (Steele, Lea and Flood): a small, fast, seeded generator.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator whose sequence is a function of `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

impl Choose for SplitMix64 {
    fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let n = u64::try_from(n).unwrap_or(u64::MAX);
        usize::try_from(self.next_u64() % n).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_are_in_range_and_reproducible() {
        let mut a = SplitMix64::new(7);
        let mut b = SplitMix64::new(7);
        for n in 0..50 {
            let x = a.below(n);
            assert_eq!(x, b.below(n));
            assert!(x < n.max(1));
        }
        let heads = (0..1000).filter(|_| a.percent(30)).count();
        assert!((200..400).contains(&heads), "{heads}");
    }
}

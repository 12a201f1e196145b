//! The project's one pseudo-random number generator: SplitMix64 (Steele, Lea and Flood,
//! "Fast splittable pseudorandom number generators", OOPSLA 2014).
//!
//! Everything random in kshogi is reproducible from a seed: Zobrist keys, random openings,
//! self-play, tuning data, database samples, the choice of weakened play. One small generator
//! serves all of them, so that a seed means the same stream everywhere and no crate carries a
//! copy. It is not cryptographic.

/// The SplitMix64 generator: a 64-bit counter advanced by the golden-ratio increment and
/// passed through [`mix`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(u64);

/// The generator's increment: 2^64 divided by the golden ratio, odd.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: a bijective 64-bit mix (variant 13 of Stafford's
/// finaliser). Useful on its own as a hash of a number: `mix(seed ^ k)` is the `k`-th
/// value of a random function of `seed`.
pub const fn mix(x: u64) -> u64 {
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl SplitMix64 {
    /// A generator whose state is `seed`; its first output is `mix(seed + GOLDEN)`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN);
        mix(self.0)
    }

    /// The `n`-th output (from 0) of the generator seeded with `seed`, computed directly:
    /// the state after `n + 1` steps is `seed + (n + 1) * GOLDEN`. Usable in constants.
    pub const fn nth(seed: u64, n: u64) -> u64 {
        mix(seed.wrapping_add(GOLDEN.wrapping_mul(n.wrapping_add(1))))
    }

    /// A number in `0..n`, by reduction modulo `n` (the bias is below `n / 2^64`); 0 when
    /// `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        let n = u64::try_from(n).unwrap_or(u64::MAX).max(1);
        // The remainder is below `n`, which came from a `usize`.
        usize::try_from(self.next_u64() % n).unwrap_or(0)
    }

    /// A number in `[0, 1)` with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_of_seed_1234567_is_the_published_one() {
        // The first five outputs of SplitMix64 seeded with 1234567, the test vector of the
        // Rosetta Code task "Pseudo-random numbers/Splitmix64" (from Vigna's splitmix64.c).
        let mut r = SplitMix64::new(1_234_567);
        assert_eq!(r.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(r.next_u64(), 3_203_168_211_198_807_973);
        assert_eq!(r.next_u64(), 9_817_491_932_198_370_423);
        assert_eq!(r.next_u64(), 4_593_380_528_125_082_431);
        assert_eq!(r.next_u64(), 16_408_922_859_458_223_821);
    }

    #[test]
    fn nth_is_the_stream_read_directly() {
        let mut r = SplitMix64::new(99);
        for n in 0..10 {
            assert_eq!(SplitMix64::nth(99, n), r.next_u64());
        }
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut r = SplitMix64::new(7);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let k = r.below(5);
            assert!(k < 5);
            seen[k] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(r.below(0), 0);
    }

    #[test]
    fn unit_is_in_the_half_open_interval() {
        let mut r = SplitMix64::new(0);
        for _ in 0..1000 {
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}

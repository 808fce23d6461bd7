//! Seeded random numbers that stay the same across crate versions.
//!
//! Recorded seeds (benchmarks, tuned weights, level generators) must replay the
//! same way forever, so the generator is PCG64-MCG (`rand_pcg`, a fixed published
//! algorithm) and every sampling routine on top of it is written here rather than
//! taken from `rand`, whose distribution algorithms may change between versions.

use rand_core::{Rng as _, SeedableRng as _};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

/// One step of SplitMix64: a bijective 64-bit mixer, used to spread seeds.
#[inline]
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Seed of episode `index` under `master`: independent-looking streams that
/// do not depend on which thread runs the episode or in which order.
#[inline]
pub fn derive_seed(master: u64, index: u64) -> u64 {
    splitmix64(splitmix64(master) ^ splitmix64(index.wrapping_add(0x5851_F42D_4C95_7F2D)))
}

/// A small, fast, seedable generator (PCG64-MCG, 128-bit state).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(into = "RngState", from = "RngState")]
pub struct Rng {
    inner: Pcg64Mcg,
}

/// Serialised form of [`Rng`]: the 128-bit state as two words, since JSON
/// numbers cannot hold a `u128`.
#[derive(Serialize, Deserialize)]
struct RngState {
    hi: u64,
    lo: u64,
}

impl From<Rng> for RngState {
    fn from(rng: Rng) -> Self {
        let s = rng.inner.state();
        RngState {
            hi: (s >> 64) as u64,
            lo: s as u64,
        }
    }
}

impl From<RngState> for Rng {
    fn from(s: RngState) -> Self {
        Rng {
            inner: Pcg64Mcg::new((u128::from(s.hi) << 64) | u128::from(s.lo)),
        }
    }
}

impl Rng {
    /// A generator whose whole stream is determined by `seed`.
    pub fn new(seed: u64) -> Self {
        let hi = splitmix64(seed);
        let lo = splitmix64(hi ^ 0xD1B5_4A32_D192_ED03);
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&lo.to_le_bytes());
        bytes[8..].copy_from_slice(&hi.to_le_bytes());
        Rng {
            inner: Pcg64Mcg::from_seed(bytes),
        }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// Uniform integer in `0..n` (Lemire's multiply-shift with rejection, so
    /// exactly uniform). Panics if `n == 0`.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0)");
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// Uniform index in `0..n`.
    #[inline]
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// Uniform float in `[0, 1)` with 53 random bits.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform float in `[lo, hi)`.
    #[inline]
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// `true` with probability `p`.
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// Standard normal deviate (Marsaglia's polar method).
    pub fn normal(&mut self) -> f64 {
        loop {
            let u = 2.0 * self.unit() - 1.0;
            let v = 2.0 * self.unit() - 1.0;
            let s = u * u + v * v;
            if s > 0.0 && s < 1.0 {
                return u * (-2.0 * s.ln() / s).sqrt();
            }
        }
    }

    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_different_seeds_differ() {
        let a: Vec<u64> = (0..8)
            .map({
                let mut r = Rng::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let b: Vec<u64> = (0..8)
            .map({
                let mut r = Rng::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let c: Vec<u64> = (0..8)
            .map({
                let mut r = Rng::new(8);
                move |_| r.next_u64()
            })
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    /// Pins the stream: if this fails, every recorded seed in the project
    /// (benchmarks in notes, tuned weights) silently changed meaning.
    #[test]
    fn stream_is_stable_across_versions() {
        let mut r = Rng::new(42);
        let first: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        assert_eq!(first, PINNED_42);
        assert_eq!(derive_seed(1, 0), PINNED_DERIVE_1_0);
    }

    const PINNED_42: [u64; 3] = [
        15615991632085688458,
        6384352627827574426,
        2006027598653577135,
    ];
    const PINNED_DERIVE_1_0: u64 = 11527216909531037759;

    #[test]
    fn below_is_uniform_enough() {
        let mut r = Rng::new(1);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[r.index(7)] += 1;
        }
        // Expected 10,000 each; 5 sigma is about 460.
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn normal_has_unit_moments() {
        let mut r = Rng::new(3);
        let n = 200_000;
        let xs: Vec<f64> = (0..n).map(|_| r.normal()).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.01, "mean {mean}");
        assert!((var - 1.0).abs() < 0.02, "var {var}");
    }

    #[test]
    fn serde_round_trip_continues_the_stream() {
        let mut r = Rng::new(9);
        r.next_u64();
        let json = serde_json::to_string(&r).unwrap();
        let mut back: Rng = serde_json::from_str(&json).unwrap();
        assert_eq!(r.next_u64(), back.next_u64());
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut r = Rng::new(5);
        let mut v: Vec<u32> = (0..100).collect();
        r.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}

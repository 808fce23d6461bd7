//! Mid-sized windows on AVX2: the sorted window of [`crate::sorted`], held in
//! 256-bit vectors in *lane-major* order, so one slide is four vector
//! operations per four values and no shuffle inside the window.
//!
//! The window, sorted and padded with `+inf` to `4 * V` values `s`, is kept
//! as `V` vectors where lane `l` of vector `i` holds `s[l * V + i]`. The
//! value after `s[e]` is then the same lane of the next vector (only the
//! last vector's successor needs a lane shift of the first), so removing the
//! oldest value (`rest[e] = s[e] < old ? s[e] : s[e + 1]`) and merging the
//! newest in (`s'[e] = max(rest[e - 1], min(rest[e], new))`) are a compare,
//! a blend, a min and a max per vector, whatever the data: no branch to
//! mispredict, as in [`crate::sorted`], but four values per instruction.
//!
//! Values stay `f64` so `vminpd`/`vmaxpd` order them; a NaN enters the
//! window as `+inf` and is counted. The median is taken over the lowest
//! `window - nans` values: those are exactly the window's numbers, because
//! every NaN stand-in sorts at the top, tied only with real `+inf`s, which
//! are equal to it.

/// Whether this CPU can run [`rolling_median_lanes`] (checked once by the
/// standard library, then a load).
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Batch sliding median on AVX2 (see [`crate::Algorithm::Lanes`]); appends
/// to `out`. Falls back to [`crate::sorted`] where AVX2 is missing.
pub fn rolling_median_lanes(data: &[f64], window: usize, out: &mut Vec<f64>) {
    assert!(window > 0, "window must be at least 1");
    #[cfg(target_arch = "x86_64")]
    if available() {
        // SAFETY: AVX2 was detected on this CPU just above.
        unsafe { avx2::rolling_median(data, window, out) };
        return;
    }
    crate::sorted::rolling_median_sorted(data, window, out);
}

/// The value a number enters the window as: itself, or `+inf` for NaN.
#[inline(always)]
fn stand_in(x: f64) -> f64 {
    x.min(f64::INFINITY) // `min` returns the number when one side is NaN
}

/// For each rank `r` of the padded window, where it sits in the lane-major
/// layout (as an `f64` index into the vectors).
fn lane_positions(vectors: usize) -> Vec<u32> {
    (0..4 * vectors)
        .map(|r| ((r % vectors) * 4 + r / vectors) as u32)
        .collect()
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{lane_positions, stand_in};
    use crate::key::mean2;
    use std::arch::x86_64::*;

    /// `[x1, x2, x3, +inf]`: lane `l` takes lane `l + 1`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn lanes_down(x: __m256d) -> __m256d {
        let p = _mm256_permute4x64_pd::<0b11_11_10_01>(x);
        _mm256_blend_pd::<0b1000>(p, _mm256_set1_pd(f64::INFINITY))
    }

    /// `[-inf, x0, x1, x2]`: lane `l` takes lane `l - 1`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn lanes_up(x: __m256d) -> __m256d {
        let p = _mm256_permute4x64_pd::<0b10_01_00_00>(x);
        _mm256_blend_pd::<0b0001>(p, _mm256_set1_pd(f64::NEG_INFINITY))
    }

    /// `s[e] < old ? s[e] : next[e]`: the window without one `old`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn drop_old(cur: __m256d, next: __m256d, old: __m256d) -> __m256d {
        _mm256_blendv_pd(next, cur, _mm256_cmp_pd::<_CMP_LT_OQ>(cur, old))
    }

    /// Lane `l` of `x`, by a shuffle: reading one `f64` out of memory the
    /// slide has just stored as a whole vector would stall on the store.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn lane(x: __m256d, l: usize) -> f64 {
        let i = 2 * l as i32;
        let pick = _mm256_setr_epi32(i, i + 1, 0, 0, 0, 0, 0, 0);
        let moved = _mm256_permutevar8x32_ps(_mm256_castpd_ps(x), pick);
        _mm256_cvtsd_f64(_mm256_castps_pd(moved))
    }

    /// The median of the window `w` given its NaN count, where `at[r]` is
    /// the place of rank `r`. NaNs entering and leaving flip the parity of
    /// the count at random, so the even case is a blend, not a branch.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn median(w: &[__m256d], at: &[u32], window: usize, nans: usize) -> f64 {
        let valid = window - nans;
        if valid == 0 {
            return f64::NAN;
        }
        let r = (valid - 1) / 2;
        let even = valid.is_multiple_of(2);
        let read = |r: usize| lane(w[at[r] as usize / 4], at[r] as usize % 4);
        let (lo, hi) = (read(r), read(r + usize::from(even)));
        // A blend: LLVM turns a select of two `f64`s back into a branch.
        let mask = _mm_castsi128_pd(_mm_set1_epi64x(-i64::from(even)));
        _mm_cvtsd_f64(_mm_blendv_pd(
            _mm_set_sd(lo),
            _mm_set_sd(mean2(lo, hi)),
            mask,
        ))
    }

    /// One slide of the lane-major window `w`: `old` out, `new` in.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn slide(w: &mut [__m256d], old: f64, new: f64) {
        let (old, new) = (_mm256_set1_pd(old), _mm256_set1_pd(new));
        let v = w.len();
        // The last vector's successors are the first vector's next lanes;
        // its `rest` is the predecessor of the first vector's. That one is
        // `lanes_up(rest_last)`, computed from `lanes_up` of its inputs so
        // the two lane shifts run side by side, not one after the other.
        let rest_last = drop_old(w[v - 1], lanes_down(w[0]), old);
        let first_up = _mm256_blend_pd::<0b0001>(w[0], _mm256_set1_pd(f64::NEG_INFINITY));
        let mut before = drop_old(lanes_up(w[v - 1]), first_up, old);
        for i in 0..v - 1 {
            let rest = drop_old(w[i], w[i + 1], old);
            w[i] = _mm256_max_pd(before, _mm256_min_pd(rest, new));
            before = rest;
        }
        w[v - 1] = _mm256_max_pd(before, _mm256_min_pd(rest_last, new));
    }

    /// See [`super::rolling_median_lanes`]. Up to 32 vectors (k ≤ 128)
    /// the window is an array of known length (the slide unrolled, the
    /// vectors in registers), beyond in a `Vec`.
    #[target_feature(enable = "avx2")]
    pub(super) fn rolling_median(data: &[f64], window: usize, out: &mut Vec<f64>) {
        macro_rules! fixed {
            ($($v:literal)*) => {
                match window.div_ceil(4) {
                    $($v => run(data, window, out, [_mm256_setzero_pd(); $v]),)*
                    v => run(data, window, out, vec![_mm256_setzero_pd(); v]),
                }
            };
        }
        fixed!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32)
    }

    /// The slide over `data` with the window in `w` (`window.div_ceil(4)`
    /// vectors). The loop is written out here, not handed to `extend`, so
    /// the slide inlines into it with AVX2 enabled.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn run<W: AsMut<[__m256d]>>(data: &[f64], window: usize, out: &mut Vec<f64>, mut w: W) {
        if data.len() < window {
            return;
        }
        let w = w.as_mut();
        let v = w.len();
        let mut sorted: Vec<f64> = data[..window].iter().map(|&x| stand_in(x)).collect();
        sorted.sort_unstable_by(f64::total_cmp);
        sorted.resize(4 * v, f64::INFINITY);
        let at = lane_positions(v);
        let mut flat = vec![0.0; 4 * v];
        for (r, &x) in sorted.iter().enumerate() {
            flat[at[r] as usize] = x;
        }
        for (vector, c) in w.iter_mut().zip(flat.chunks_exact(4)) {
            *vector = _mm256_setr_pd(c[0], c[1], c[2], c[3]);
        }
        let mut nans = data[..window].iter().filter(|x| x.is_nan()).count();
        let count = data.len() - window + 1;
        out.reserve(count);
        let spare = &mut out.spare_capacity_mut()[..count];
        spare[0].write(median(w, &at, window, nans));
        for (slot, (&old, &new)) in spare[1..].iter_mut().zip(data.iter().zip(&data[window..])) {
            nans = nans + usize::from(new.is_nan()) - usize::from(old.is_nan());
            slide(w, stand_in(old), stand_in(new));
            slot.write(median(w, &at, window, nans));
        }
        // SAFETY: the `count` slots after the length were written just above.
        unsafe { out.set_len(out.len() + count) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive::rolling_median_naive;

    /// xorshift64: a test needs no RNG crate.
    fn next(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    /// Every window length that spans one to many vectors (with every
    /// padding), on numbers with ties, NaN runs, infinities and signed
    /// zeros, against sorting each window.
    #[test]
    fn matches_naive_on_every_vector_count() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for window in 1..=140 {
            for mix in 0..4 {
                let n = window + (next(&mut x) % 400) as usize;
                let data: Vec<f64> = (0..n)
                    .map(|_| {
                        let r = next(&mut x);
                        match (mix, r % 20) {
                            (1 | 3, 0) => f64::NAN,
                            (2 | 3, 1) => f64::INFINITY,
                            (2 | 3, 2) => f64::NEG_INFINITY,
                            (2, 3) => -0.0,
                            (0 | 3, _) => ((r >> 8) % 9) as f64 - 4.0,
                            _ => (r >> 11) as f64 / (1u64 << 53) as f64 - 0.5,
                        }
                    })
                    .collect();
                let mut got = Vec::new();
                rolling_median_lanes(&data, window, &mut got);
                let want = rolling_median_naive(&data, window);
                assert_eq!(got.len(), want.len());
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert!(
                        g == w || (g.is_nan() && w.is_nan()),
                        "k={window} i={i}: {g} vs {w}"
                    );
                }
            }
        }
    }

    #[test]
    fn long_nan_runs_empty_and_refill_the_window() {
        let mut data: Vec<f64> = (0..500).map(|i| f64::from(i % 37)).collect();
        data[100..260].fill(f64::NAN);
        for window in [5, 64, 150, 200] {
            let mut got = Vec::new();
            rolling_median_lanes(&data, window, &mut got);
            let want = rolling_median_naive(&data, window);
            assert!(
                got.iter()
                    .zip(&want)
                    .all(|(g, w)| g == w || (g.is_nan() && w.is_nan()))
            );
        }
    }
}

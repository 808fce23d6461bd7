//! [`rolling_median`]: the batch entry point, which picks an algorithm by
//! window length.

use crate::blocks::rolling_median_blocks;
use crate::lanes::rolling_median_lanes;
use crate::ranks::rolling_median_ranks;
use crate::sorted::rolling_median_sorted;
use crate::streaming::rolling_median_heap;

/// Which sliding-median algorithm to run. All give identical results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Pick by window length and input (see [`Algorithm::for_input`]).
    Auto,
    /// A sorted array of the window, updated by a fixed sequence of compares
    /// and selects per value: O(k) per value without a mispredicted branch,
    /// the fastest up to [`SORTED_MAX_WINDOW`].
    Sorted,
    /// The sorted window in AVX2 vectors, four values per instruction
    /// (`Sorted` on CPUs without AVX2).
    Lanes,
    /// The double heap of [`crate::RollingMedian`]: O(log k) per value. The
    /// only one that can stream; in batch it was never the fastest.
    Heap,
    /// Suomela's sort-based block algorithm: O(log k) per value, from one
    /// sort per block; the fastest above [`RANKS_MAX_WINDOW`]. Where two
    /// consecutive blocks form one monotone run, it takes each median from
    /// its position in the input instead (O(1) per value).
    Blocks,
    /// One sort per span of 16 windows, then the window a bitmap of ranks
    /// with one cursor on its median: the fastest from 129 to
    /// [`RANKS_MAX_WINDOW`] on random data.
    Ranks,
}

/// Windows up to this length may use [`Algorithm::Sorted`] under `Auto`: on
/// random input its branch-free network beats `Blocks` up to 32; on monotone
/// input `Blocks` reads medians off the input and wins from 17 (measured from
/// Python against bottleneck, docs/results/python.md).
pub const SORTED_MAX_WINDOW: usize = 32;

/// Windows up to this length use [`Algorithm::Sorted`] whatever the input
/// and CPU: a slide of a few values is shorter than the vector one.
pub const SORTED_ALWAYS_WINDOW: usize = 12;

/// Windows up to this length use [`Algorithm::Lanes`] under `Auto` where
/// AVX2 is present (and the input is not monotone above 16): its O(k) slide,
/// four values an instruction, beats the blocks' O(log k) up to about 200
/// on random data, and the ranks up to about 110 (docs/results/python.md).
/// Up to 128 its window is an array of known length.
pub const LANES_MAX_WINDOW: usize = 128;

/// Windows above [`LANES_MAX_WINDOW`] and up to this length use
/// [`Algorithm::Ranks`] under `Auto` on input that is not monotone: above
/// it a span's sort no longer fits in the cache and the blocks win
/// (measured: docs/results/python.md).
pub const RANKS_MAX_WINDOW: usize = 12_000;

/// Windows above this length use [`Algorithm::Blocks`] under `Auto` on
/// monotone input.
const MONOTONE_MIN_WINDOW: usize = 16;

/// Adjacent pairs sampled (one in this many) to tell monotone input.
const SAMPLE_STRIDE: usize = 64;

impl Algorithm {
    /// The algorithm `Auto` runs for `window` on `data`: `Sorted` up to 12;
    /// `Blocks` above 16 when the data look monotone (at least 95% of a
    /// sample of adjacent pairs rise, or as many fall); otherwise `Lanes` up
    /// to 128 on CPUs with AVX2, else `Sorted` up to 32 and `Blocks` to 128;
    /// `Ranks` to [`RANKS_MAX_WINDOW`]; `Blocks` above.
    pub fn for_input(data: &[f64], window: usize) -> Algorithm {
        if window <= SORTED_ALWAYS_WINDOW {
            Algorithm::Sorted
        } else if window > MONOTONE_MIN_WINDOW && looks_monotone(data) {
            Algorithm::Blocks
        } else if window <= LANES_MAX_WINDOW && crate::lanes::available() {
            Algorithm::Lanes
        } else if window <= SORTED_MAX_WINDOW {
            Algorithm::Sorted
        } else if window <= LANES_MAX_WINDOW || window > RANKS_MAX_WINDOW {
            Algorithm::Blocks
        } else {
            Algorithm::Ranks
        }
    }
}

/// Whether a sample of adjacent pairs of `data` mostly rise or mostly fall.
fn looks_monotone(data: &[f64]) -> bool {
    let (mut rises, mut falls, mut pairs) = (0usize, 0usize, 0usize);
    for i in (1..data.len()).step_by(SAMPLE_STRIDE) {
        rises += usize::from(data[i] > data[i - 1]);
        falls += usize::from(data[i] < data[i - 1]);
        pairs += 1;
    }
    pairs > 0 && 20 * rises.max(falls) >= 19 * pairs
}

/// The median of every full window of `window` consecutive values:
/// `data.len() - window + 1` outputs (none when `data` is shorter than the
/// window). NaNs are left out of each median as in [`crate::RollingMedian`].
///
/// ```
/// let m = arcade_signal::rolling_median(&[1.0, 3.0, -1.0, -3.0, 5.0, 3.0, 6.0, 7.0], 3);
/// assert_eq!(m, [1.0, -1.0, -1.0, 3.0, 5.0, 6.0]);
/// ```
///
/// # Panics
/// If `window` is 0.
pub fn rolling_median(data: &[f64], window: usize) -> Vec<f64> {
    rolling_median_with(data, window, Algorithm::Auto)
}

/// [`rolling_median`] with a chosen algorithm (for benchmarks and checks).
///
/// # Panics
/// If `window` is 0.
pub fn rolling_median_with(data: &[f64], window: usize, algorithm: Algorithm) -> Vec<f64> {
    let mut out = Vec::new();
    rolling_median_into(data, window, algorithm, &mut out);
    out
}

/// [`rolling_median_with`] into a caller's buffer (cleared first), so
/// repeated calls reuse one allocation.
///
/// # Panics
/// If `window` is 0.
pub fn rolling_median_into(data: &[f64], window: usize, algorithm: Algorithm, out: &mut Vec<f64>) {
    out.clear();
    rolling_median_append(data, window, algorithm, out);
}

/// [`rolling_median_with`] appended to `out` (kept as it is), so a caller
/// can put other values before the medians without copying them after.
///
/// # Panics
/// If `window` is 0.
pub fn rolling_median_append(
    data: &[f64],
    window: usize,
    algorithm: Algorithm,
    out: &mut Vec<f64>,
) {
    assert!(window > 0, "window must be at least 1");
    match algorithm {
        Algorithm::Auto => {
            rolling_median_append(data, window, Algorithm::for_input(data, window), out)
        }
        Algorithm::Sorted => rolling_median_sorted(data, window, out),
        Algorithm::Lanes => rolling_median_lanes(data, window, out),
        Algorithm::Heap => rolling_median_heap(data, window, out),
        Algorithm::Blocks => rolling_median_blocks(data, window, out),
        Algorithm::Ranks => rolling_median_ranks(data, window, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_picks_by_window_input_and_cpu() {
        let rising: Vec<f64> = (0..10_000).map(f64::from).collect();
        let falling: Vec<f64> = rising.iter().rev().copied().collect();
        let mut x = 88_172_645_463_325_252u64;
        let noisy: Vec<f64> = (0..10_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 11) as f64
            })
            .collect();
        let vector = if crate::lanes::available() {
            Algorithm::Lanes
        } else {
            Algorithm::Sorted
        };
        assert_eq!(Algorithm::for_input(&rising, 12), Algorithm::Sorted);
        assert_eq!(Algorithm::for_input(&rising, 16), vector);
        assert_eq!(Algorithm::for_input(&rising, 17), Algorithm::Blocks);
        assert_eq!(Algorithm::for_input(&falling, 32), Algorithm::Blocks);
        assert_eq!(Algorithm::for_input(&noisy, 32), vector);
        assert_eq!(Algorithm::for_input(&[], 20), vector);
        let mid = if vector == Algorithm::Lanes {
            Algorithm::Lanes
        } else {
            Algorithm::Blocks
        };
        assert_eq!(Algorithm::for_input(&noisy, 33), mid);
        assert_eq!(Algorithm::for_input(&noisy, 128), mid);
        assert_eq!(Algorithm::for_input(&noisy, 129), Algorithm::Ranks);
        assert_eq!(Algorithm::for_input(&noisy, 12_000), Algorithm::Ranks);
        assert_eq!(Algorithm::for_input(&noisy, 12_001), Algorithm::Blocks);
        assert_eq!(Algorithm::for_input(&rising, 300), Algorithm::Blocks);
    }
}

//! [`rolling_median`]: the batch entry point, which picks an algorithm by
//! window length.

use crate::blocks::rolling_median_blocks;
use crate::sorted::rolling_median_sorted;
use crate::streaming::rolling_median_heap;

/// Which sliding-median algorithm to run. All give identical results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Pick by window length (see [`Algorithm::for_window`]).
    Auto,
    /// A sorted array of the window, updated by a fixed sequence of compares
    /// and selects per value: O(k) per value without a mispredicted branch,
    /// the fastest up to [`SORTED_MAX_WINDOW`].
    Sorted,
    /// The double heap of [`crate::RollingMedian`]: O(log k) per value. The
    /// only one that can stream; in batch it was never the fastest.
    Heap,
    /// Suomela's sort-based block algorithm: O(log k) per value, from one
    /// sort per block; the fastest above [`SORTED_MAX_WINDOW`]. Where two
    /// consecutive blocks form one monotone run, it takes each median from
    /// its position in the input instead (O(1) per value).
    Blocks,
}

/// Windows up to this length use [`Algorithm::Sorted`] under `Auto`. At 16
/// the two are level on sorted input and `Sorted` is twice as fast on random
/// input; at 33 `Blocks` wins on both (`median_bench`, 2,000,000 values).
pub const SORTED_MAX_WINDOW: usize = 16;

impl Algorithm {
    /// The algorithm `Auto` runs for `window`.
    pub fn for_window(window: usize) -> Algorithm {
        if window <= SORTED_MAX_WINDOW {
            Algorithm::Sorted
        } else {
            Algorithm::Blocks
        }
    }
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
    assert!(window > 0, "window must be at least 1");
    out.clear();
    match algorithm {
        Algorithm::Auto => rolling_median_into(data, window, Algorithm::for_window(window), out),
        Algorithm::Sorted => rolling_median_sorted(data, window, out),
        Algorithm::Heap => rolling_median_heap(data, window, out),
        Algorithm::Blocks => rolling_median_blocks(data, window, out),
    }
}

//! Rolling (sliding-window) median.
//!
//! - [`RollingMedian`]: streaming, push a value and get the median of the last
//!   `k` once `k` values are in; O(k) memory.
//! - [`rolling_median`]: batch, one median per full window of a slice; picks
//!   by window length, input and CPU ([`Algorithm`]) between a branch-free
//!   sorted window (small k), the same held in AVX2 vectors (k ≤ 128), a
//!   bitmap of ranks from one sort per span of windows (k ≤ 12,000), and
//!   Suomela's sort-based block algorithm (larger k, or k > 16 on monotone
//!   input), which reads the medians of sorted or reverse-sorted stretches
//!   of the input straight off it. [`prefix_medians_append`]: the medians of
//!   every prefix (`move_median`'s outputs before the first full window).
//! - [`stream_medians`] / [`medians_of_text`]: numbers read from text (one a
//!   line, or a CSV column) with typed errors; [`move_median`]: bottleneck's
//!   `move_median(a, window, min_count)` over a slice.
//! - [`naive`]: the sort-every-window reference the fast ones are tested
//!   against.
//!
//! NaN policy (all entry points): a NaN occupies its place in the window but
//! is left out of the median, which is taken over the numbers in the window;
//! a window holding only NaNs gives NaN. This matches
//! `bottleneck.move_median(a, k, min_count=1)`. When the count of numbers is
//! even the median is the mean of the two middle ones.

mod batch;
mod blocks;
mod cursor;
mod heap;
pub mod key;
mod lanes;
pub mod naive;
mod prefix;
mod radix;
mod ranks;
mod sorted;
mod stream;
mod streaming;

pub use batch::{
    Algorithm, LANES_MAX_WINDOW, RANKS_MAX_WINDOW, SORTED_ALWAYS_WINDOW, SORTED_MAX_WINDOW,
    rolling_median, rolling_median_append, rolling_median_into, rolling_median_with,
};
pub use prefix::prefix_medians_append;
pub use stream::{
    Lines, MAX_LINE_BYTES, MedianError, Number, QUOTE_CHARS, ReadOptions, Sink, StreamSummary,
    medians_of_text, move_median, quote, stream_medians,
};
pub use streaming::RollingMedian;

/// Longest window: the streaming median indexes its slots with 31 bits.
pub const MAX_WINDOW: usize = (1 << 31) - 1;

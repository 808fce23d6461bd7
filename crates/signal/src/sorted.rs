//! Small windows: keep the window as a sorted array of keys and slide by
//! removing the oldest key and inserting the newest. For a window of at most
//! [`crate::SORTED_MAX_WINDOW`] values the array has a compile-time length and
//! every step is a fixed sequence of compares and selects, free of the
//! unpredictable branches that dominate heaps and lists on random data.

use crate::key::{NAN_KEY, key, mean2, value};

/// Batch sliding median for small windows (see [`crate::Algorithm::Sorted`]);
/// windows longer than [`crate::SORTED_MAX_WINDOW`] take a shifting loop.
/// Appends to `out`.
pub fn rolling_median_sorted(data: &[f64], window: usize, out: &mut Vec<f64>) {
    assert!(window > 0, "window must be at least 1");
    macro_rules! fixed {
        ($($k:literal)*) => {
            match window {
                $($k => fixed::<$k>(data, out),)*
                _ => shifting(data, window, out),
            }
        };
    }
    fixed!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32)
}

// The `fixed!` list above ends at the largest window `Auto` sends here.
const _: () = assert!(crate::SORTED_MAX_WINDOW == 32);

/// The window length `K` known at compile time: the slide is branch-free.
fn fixed<const K: usize>(data: &[f64], out: &mut Vec<f64>) {
    if data.len() < K {
        return;
    }
    out.reserve(data.len() - K + 1);
    let mut w = [0u64; K];
    for (slot, &x) in w.iter_mut().zip(data) {
        *slot = key(x);
    }
    w.sort_unstable();
    let mut nans = w.iter().filter(|&&k| k == NAN_KEY).count();
    out.push(median_of_sorted(&w, nans));
    // `extend` over a zip of slices knows its length: no capacity checks.
    out.extend(data.iter().zip(&data[K..]).map(|(&old, &new)| {
        let (old, new) = (key(old), key(new));
        nans = nans + usize::from(new == NAN_KEY) - usize::from(old == NAN_KEY);
        w = slide_fixed(&w, old, new);
        if nans == 0 {
            median_of_full(&w)
        } else {
            median_of_sorted(&w, nans)
        }
    }));
}

/// `w` with one `old` replaced by `new`, sorted, without branches: drop
/// `old` (every key from its place on moves down one), then insert `new`
/// as a merge step, `max(rest[p - 1], min(rest[p], new))` at each place.
#[inline(always)]
fn slide_fixed<const K: usize>(w: &[u64; K], old: u64, new: u64) -> [u64; K] {
    use std::hint::select_unpredictable;
    // `rest[..K - 1]` is `w` without one `old`.
    let rest: [u64; K] =
        std::array::from_fn(|p| select_unpredictable(w[p] < old, w[p], w[(p + 1).min(K - 1)]));
    std::array::from_fn(|p| {
        let below = if p == 0 { 0 } else { rest[p - 1] };
        let at = if p == K - 1 { u64::MAX } else { rest[p] };
        below.max(at.min(new))
    })
}

/// Longer windows: find the old key, shift neighbours one by one.
fn shifting(data: &[f64], window: usize, out: &mut Vec<f64>) {
    if data.len() < window {
        return;
    }
    out.reserve(data.len() - window + 1);
    let mut w: Vec<u64> = data[..window].iter().map(|&x| key(x)).collect();
    w.sort_unstable();
    let mut nans = w.iter().filter(|&&k| k == NAN_KEY).count();
    out.push(median_of_sorted(&w, nans));
    for (&old, &new) in data.iter().zip(&data[window..]) {
        let (old, new) = (key(old), key(new));
        nans = nans + usize::from(new == NAN_KEY) - usize::from(old == NAN_KEY);
        let mut i = count_below(&w, old);
        if new > old {
            while i + 1 < w.len() && w[i + 1] < new {
                w[i] = w[i + 1];
                i += 1;
            }
        } else {
            while i > 0 && w[i - 1] > new {
                w[i] = w[i - 1];
                i -= 1;
            }
        }
        w[i] = new;
        out.push(median_of_sorted(&w, nans));
    }
}

/// How many keys of `w` are below `x`.
#[inline(always)]
fn count_below(w: &[u64], x: u64) -> usize {
    w.iter().map(|&k| usize::from(k < x)).sum()
}

/// Median of a sorted key window without NaNs (the middle is a constant).
#[inline(always)]
fn median_of_full<const K: usize>(w: &[u64; K]) -> f64 {
    if K % 2 == 1 {
        value(w[K / 2])
    } else {
        mean2(value(w[K / 2 - 1]), value(w[K / 2]))
    }
}

/// Median of a sorted key window whose last `nans` keys are NaN.
#[inline(always)]
fn median_of_sorted(w: &[u64], nans: usize) -> f64 {
    let valid = w.len() - nans;
    if valid == 0 {
        return f64::NAN;
    }
    let r = (valid - 1) / 2;
    if valid % 2 == 1 {
        value(w[r])
    } else {
        mean2(value(w[r]), value(w[r + 1]))
    }
}

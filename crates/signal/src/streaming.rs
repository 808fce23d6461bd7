//! [`RollingMedian`]: push values one at a time, read the median of the last
//! `window` of them. O(window) memory, O(log window) per value.

use crate::heap::{ABSENT, Entry, Half, UPPER_BIT};
use crate::key::mean2;

/// Streaming sliding-window median.
///
/// Memory grows with the values pushed up to the window length, then stays:
/// O(min(pushed, window)). A double heap over a ring of `window` slots: the lower half of the window
/// in a max-heap, the upper half in a min-heap, and for every slot the index
/// of its entry. A new value overwrites the oldest one *in place* and is sifted
/// from there, which moves far fewer entries than a delete plus an insert.
///
/// NaN policy: NaNs take a slot in the window (they age out like any value)
/// but are left out of the median, which is taken over the numbers in the
/// window; a window of NaNs only gives NaN. This is
/// `bottleneck.move_median(a, window, min_count=1)`.
///
/// ```
/// use arcade_signal::RollingMedian;
/// let mut m = RollingMedian::new(3);
/// let out: Vec<Option<f64>> = [1.0, 3.0, -1.0, -3.0].iter().map(|&x| m.push(x)).collect();
/// assert_eq!(out, [None, None, Some(1.0), Some(-1.0)]);
/// ```
#[derive(Clone, Debug)]
pub struct RollingMedian {
    window: usize,
    /// Values pushed so far, capped at `window`.
    filled: usize,
    /// Ring slot the next value overwrites once the window is full.
    oldest: usize,
    /// Per slot: [`ABSENT`], or the heap (bit 31) and index of its entry.
    /// Slots are handed out in order while the window fills.
    loc: Vec<u32>,
    lower: Half<false>,
    upper: Half<true>,
}

impl RollingMedian {
    /// A median over the last `window` values.
    ///
    /// # Panics
    /// If `window` is 0 or at least 2³¹.
    pub fn new(window: usize) -> RollingMedian {
        assert!(window > 0, "window must be at least 1");
        assert!(window < UPPER_BIT as usize, "window must be below 2^31");
        RollingMedian {
            window,
            filled: 0,
            oldest: 0,
            // Grown while the window fills, so a huge window over a short
            // stream costs only what the stream holds.
            loc: Vec::new(),
            lower: Half::default(),
            upper: Half::default(),
        }
    }

    /// The window length.
    pub fn window(&self) -> usize {
        self.window
    }

    /// Whether `window` values have been pushed (so `push` returns medians).
    pub fn is_full(&self) -> bool {
        self.filled == self.window
    }

    /// Forgets every value, keeping the allocation.
    pub fn clear(&mut self) {
        self.filled = 0;
        self.oldest = 0;
        self.loc.clear();
        self.lower.e.clear();
        self.upper.e.clear();
    }

    /// Adds `x` (dropping the oldest value once the window is full) and
    /// returns the median of the window, or `None` until `window` values
    /// have been pushed.
    #[inline]
    pub fn push(&mut self, x: f64) -> Option<f64> {
        if self.filled < self.window {
            let slot = self.filled;
            self.filled += 1;
            self.loc.push(ABSENT);
            if !x.is_nan() {
                self.insert(slot, x);
            }
        } else {
            let slot = self.oldest;
            self.oldest = if slot + 1 == self.window { 0 } else { slot + 1 };
            self.replace(slot, x);
        }
        self.is_full().then(|| self.median())
    }

    /// Median of the numbers currently held (NaN when there are none).
    pub fn median(&self) -> f64 {
        match (self.lower.top(), self.upper.top()) {
            (None, _) => f64::NAN,
            (Some(lo), Some(hi)) if self.lower.len() == self.upper.len() => mean2(lo, hi),
            (Some(lo), _) => lo,
        }
    }

    #[inline]
    fn replace(&mut self, slot: usize, x: f64) {
        match (self.loc[slot] == ABSENT, x.is_nan()) {
            (true, true) => {}
            (true, false) => self.insert(slot, x),
            (false, true) => self.remove(slot),
            (false, false) => self.update(slot, x),
        }
    }

    fn insert(&mut self, slot: usize, x: f64) {
        let entry = Entry {
            v: x,
            slot: slot as u32,
        };
        match self.lower.top() {
            Some(top) if x > top => self.upper.push(&mut self.loc, entry),
            _ => self.lower.push(&mut self.loc, entry),
        }
        self.rebalance();
    }

    fn remove(&mut self, slot: usize) {
        let l = self.loc[slot];
        let i = (l & !UPPER_BIT) as usize;
        if l & UPPER_BIT == 0 {
            self.lower.remove_at(&mut self.loc, i);
        } else {
            self.upper.remove_at(&mut self.loc, i);
        }
        self.loc[slot] = ABSENT;
        self.rebalance();
    }

    /// Keeps `lower` equal to `upper` in size or one larger.
    fn rebalance(&mut self) {
        if self.lower.len() > self.upper.len() + 1 {
            let top = self.lower.remove_at(&mut self.loc, 0);
            self.upper.push(&mut self.loc, top);
        } else if self.upper.len() > self.lower.len() {
            let top = self.upper.remove_at(&mut self.loc, 0);
            self.lower.push(&mut self.loc, top);
        }
    }

    /// Overwrites the value of `slot` and sifts it; a value that crosses the
    /// median swaps with the other heap's root.
    #[inline]
    fn update(&mut self, slot: usize, x: f64) {
        let l = self.loc[slot];
        let i = (l & !UPPER_BIT) as usize;
        if l & UPPER_BIT == 0 {
            let old = std::mem::replace(&mut self.lower.e[i].v, x);
            if x > old {
                let at = self.lower.sift_up(&mut self.loc, i);
                if at == 0 && self.upper.top().is_some_and(|top| x > top) {
                    self.swap_roots();
                    self.upper.sift_down(&mut self.loc, 0);
                }
            } else if x < old {
                self.lower.sift_down(&mut self.loc, i);
            }
        } else {
            let old = std::mem::replace(&mut self.upper.e[i].v, x);
            if x < old {
                let at = self.upper.sift_up(&mut self.loc, i);
                if at == 0 && self.lower.top().is_some_and(|top| x < top) {
                    self.swap_roots();
                    self.lower.sift_down(&mut self.loc, 0);
                }
            } else if x > old {
                self.upper.sift_down(&mut self.loc, i);
            }
        }
    }

    fn swap_roots(&mut self) {
        std::mem::swap(&mut self.lower.e[0], &mut self.upper.e[0]);
        self.loc[self.lower.e[0].slot as usize] = 0;
        self.loc[self.upper.e[0].slot as usize] = UPPER_BIT;
    }
}

/// Batch median by feeding a [`RollingMedian`]: the double-heap candidate.
/// Appends to `out`.
pub fn rolling_median_heap(data: &[f64], window: usize, out: &mut Vec<f64>) {
    let mut m = RollingMedian::new(window);
    out.reserve((data.len() + 1).saturating_sub(window));
    out.extend(data.iter().filter_map(|&x| m.push(x)));
}

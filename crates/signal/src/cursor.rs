//! A set of ranks as a bitmap, with a [`Cursor`] on its lower median: what
//! the ranks' slide ([`crate::ranks`]) and the prefix medians
//! ([`crate::prefix`]) keep. Adding or removing one rank moves the cursor by
//! about one set bit, found by a zero count in the same word or a near one.

use crate::key::{mean2, value};
use std::hint::select_unpredictable;

/// The lower median's rank and how many of the window's ranks lie below it.
/// Meaningless while the window holds no number.
pub(crate) struct Cursor {
    pub rank: usize,
    pub below: usize,
}

impl Cursor {
    /// The cursor on the lower median of a window of `valid` numbers.
    pub fn at_rank(bits: &[u64], valid: usize) -> Cursor {
        let target = valid.saturating_sub(1) / 2;
        let mut seen = 0;
        for (w, &word) in bits.iter().enumerate() {
            let ones = word.count_ones() as usize;
            if seen + ones > target {
                let mut word = word;
                for _ in 0..target - seen {
                    word &= word - 1;
                }
                return Cursor {
                    rank: w * 64 + word.trailing_zeros() as usize,
                    below: target,
                };
            }
            seen += ones;
        }
        Cursor { rank: 0, below: 0 }
    }

    /// Rank `r` joined the window, which now holds `valid` numbers.
    #[inline(always)]
    pub fn inserted(&mut self, r: usize, valid: usize) {
        if valid == 1 {
            *self = Cursor { rank: r, below: 0 };
        } else {
            self.below += usize::from(r < self.rank);
        }
    }

    /// Rank `r` left the window (its bit already cleared), which now holds
    /// `valid` numbers.
    #[inline(always)]
    pub fn removed(&mut self, bits: &[u64], r: usize, valid: usize) {
        // Below or above the cursor is a coin toss: no branch on it.
        self.below -= usize::from(r < self.rank);
        if r == self.rank && valid > 0 {
            match next_set(bits, r) {
                Some(next) => self.rank = next,
                None => {
                    self.rank = prev_set(bits, r).expect("a number is left below");
                    self.below -= 1;
                }
            }
        }
    }

    /// Moves to the lower median of `valid` numbers.
    #[inline(always)]
    pub fn balance(&mut self, bits: &[u64], valid: usize) {
        let target = valid.saturating_sub(1) / 2;
        while self.below > target {
            self.rank = prev_set(bits, self.rank).expect("counted below");
            self.below -= 1;
        }
        while self.below < target {
            self.rank = next_set(bits, self.rank).expect("counted above");
            self.below += 1;
        }
    }

    /// The window's median (`sorted`: rank → key): the lower middle, or the mean of the two middles
    /// when the count is even; NaN for a window of NaNs. NaNs entering and
    /// leaving flip the parity at random, so both are computed and one kept.
    #[inline(always)]
    pub fn median(&self, sorted: &[u64], bits: &[u64], valid: usize) -> f64 {
        if valid == 0 {
            return f64::NAN;
        }
        let lo = value(sorted[self.rank]);
        let upper = next_set(bits, self.rank).unwrap_or(self.rank);
        let even = mean2(lo, value(sorted[upper]));
        select_unpredictable(valid % 2 == 1, lo, even)
    }
}

/// Puts rank `r` in the set.
#[inline(always)]
pub(crate) fn set(bits: &mut [u64], r: usize) {
    bits[r / 64] |= 1 << (r % 64);
}

/// Takes rank `r` out of the set.
#[inline(always)]
pub(crate) fn clear(bits: &mut [u64], r: usize) {
    bits[r / 64] &= !(1 << (r % 64));
}

/// The lowest set bit above `r`.
#[inline(always)]
pub(crate) fn next_set(bits: &[u64], r: usize) -> Option<usize> {
    let from = r + 1;
    let mut w = from / 64;
    let mut word = *bits.get(w)? & (u64::MAX << (from % 64));
    while word == 0 {
        w += 1;
        word = *bits.get(w)?;
    }
    Some(w * 64 + word.trailing_zeros() as usize)
}

/// The highest set bit below `r`.
#[inline(always)]
pub(crate) fn prev_set(bits: &[u64], r: usize) -> Option<usize> {
    let mut w = r / 64;
    let mut word = bits[w] & ((1u64 << (r % 64)) - 1);
    while word == 0 {
        w = w.checked_sub(1)?;
        word = bits[w];
    }
    Some(w * 64 + 63 - word.leading_zeros() as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_scans_find_neighbours_across_words() {
        let mut bits = vec![0u64; 4];
        for r in [3, 64, 190] {
            set(&mut bits, r);
        }
        assert_eq!(next_set(&bits, 3), Some(64));
        assert_eq!(next_set(&bits, 64), Some(190));
        assert_eq!(next_set(&bits, 190), None);
        assert_eq!(next_set(&bits, 255), None);
        assert_eq!(prev_set(&bits, 190), Some(64));
        assert_eq!(prev_set(&bits, 64), Some(3));
        assert_eq!(prev_set(&bits, 3), None);
        clear(&mut bits, 64);
        assert_eq!(next_set(&bits, 3), Some(190));
    }
}

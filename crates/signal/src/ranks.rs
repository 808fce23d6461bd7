//! Mid-sized windows: rank a span of input once, then slide a bitmap of
//! ranks.
//!
//! The outputs are cut into spans of [`SPAN_PER_WINDOW`] windows. The values
//! a span's windows cover are sorted once, which gives each value its rank
//! among them; a window is then the set of its values' ranks, held as a
//! bitmap, and its lower median is a cursor on one set bit with the count of
//! set bits below it. A slide sets one bit and clears one, so the cursor
//! moves by about one set bit, found by a zero count in the same word or a
//! near one (about one bit in [`SPAN_PER_WINDOW`] is set). NaNs get the top
//! ranks and never enter the bitmap.
//!
//! Against Suomela's blocks ([`crate::blocks`]) this sorts each value about
//! `1 + 1 / SPAN_PER_WINDOW` times instead of once, but the slide is a bit
//! flip each end and one cursor, where the blocks keep two cursors over two
//! linked lists and compare keys across them: 12–25% less time from k = 160 to
//! a few thousand. Beyond, a span's sort stops fitting in the cache and the
//! blocks win (docs/results/python.md).

use crate::cursor::{Cursor, clear, next_set, set};
use crate::key::{NAN_KEY, key, mean2, value};
use crate::radix::Sorter;

/// Outputs per span, in windows: more makes the bitmap sparser (longer
/// scans) and the sort bigger; fewer sorts the overlap of spans more often.
pub const SPAN_PER_WINDOW: usize = 16;

/// Fewest outputs per span, so small windows still sort big batches.
const MIN_SPAN: usize = 4096;

/// Batch sliding median (see [`crate::Algorithm::Ranks`]); appends to `out`.
pub fn rolling_median_ranks(data: &[f64], window: usize, out: &mut Vec<f64>) {
    assert!(window > 0, "window must be at least 1");
    let n = data.len();
    if n < window {
        return;
    }
    let outputs = n - window + 1;
    out.reserve(outputs);
    let span = window.saturating_mul(SPAN_PER_WINDOW).max(MIN_SPAN);
    let mut stretch = Stretch::default();
    let mut start = 0;
    while start < outputs {
        let count = span.min(outputs - start);
        stretch.medians(&data[start..start + count + window - 1], window, out);
        start += count;
    }
}

/// One span's buffers, reused from span to span.
#[derive(Default)]
struct Stretch {
    keys: Vec<u64>,
    sorter: Sorter,
    /// Position → rank.
    rank_of: Vec<u32>,
    /// Rank → key.
    sorted: Vec<u64>,
    /// Bit `r` set: the value of rank `r` is in the window. One spare word
    /// past the last rank keeps the scans in bounds.
    bits: Vec<u64>,
}

impl Stretch {
    /// Appends the median of every window of `values`.
    fn medians(&mut self, values: &[f64], window: usize, out: &mut Vec<f64>) {
        self.rank(values);
        let numbers = self.sorted.partition_point(|&k| k < NAN_KEY) as u32;
        self.bits.clear();
        self.bits.resize(values.len().div_ceil(64) + 1, 0);
        let mut valid = 0;
        for &r in &self.rank_of[..window] {
            if r < numbers {
                set(&mut self.bits, r as usize);
                valid += 1;
            }
        }
        let mut cursor = Cursor::at_rank(&self.bits, valid);
        out.push(cursor.median(&self.sorted, &self.bits, valid));
        if numbers as usize == values.len() {
            self.slide_numbers(window, cursor, out);
            return;
        }
        for j in window..values.len() {
            let (newest, oldest) = (self.rank_of[j], self.rank_of[j - window]);
            if newest < numbers {
                set(&mut self.bits, newest as usize);
                valid += 1;
                cursor.inserted(newest as usize, valid);
            }
            if oldest < numbers {
                clear(&mut self.bits, oldest as usize);
                valid -= 1;
                cursor.removed(&self.bits, oldest as usize, valid);
            }
            cursor.balance(&self.bits, valid);
            out.push(cursor.median(&self.sorted, &self.bits, valid));
        }
    }

    /// The slide when the span holds no NaN: every window holds `window`
    /// numbers, so no NaN test, and the even or odd median is known ahead.
    fn slide_numbers(&mut self, window: usize, mut c: Cursor, out: &mut Vec<f64>) {
        let even = window.is_multiple_of(2);
        let bits = &mut self.bits;
        let sorted = &self.sorted;
        let count = self.rank_of.len() - window;
        out.reserve(count);
        let spare = &mut out.spare_capacity_mut()[..count];
        for (j, slot) in (window..self.rank_of.len()).zip(spare) {
            let (newest, oldest) = (self.rank_of[j] as usize, self.rank_of[j - window] as usize);
            set(bits, newest);
            c.inserted(newest, window + 1);
            clear(bits, oldest);
            c.removed(bits, oldest, window);
            c.balance(bits, window);
            let lo = value(sorted[c.rank]);
            slot.write(if even {
                let hi = next_set(bits, c.rank).expect("an even window has an upper middle");
                mean2(lo, value(sorted[hi]))
            } else {
                lo
            });
        }
        // SAFETY: the loop wrote each of the `count` slots.
        unsafe { out.set_len(out.len() + count) };
    }

    /// Sorts `values`: fills `rank_of` and `sorted`.
    fn rank(&mut self, values: &[f64]) {
        self.keys.clear();
        self.keys.extend(values.iter().map(|&x| key(x)));
        let mask = self.sorter.sort_positions(&self.keys);
        self.rank_of.clear();
        self.rank_of.resize(values.len(), 0);
        self.sorted.clear();
        for (r, &word) in self.sorter.words.iter().enumerate() {
            let pos = (word & mask) as usize;
            self.rank_of[pos] = r as u32;
            self.sorted.push(self.keys[pos]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive::rolling_median_naive;

    /// A tiny mixer so the test needs no RNG crate.
    fn noise(i: u64) -> u64 {
        let mut x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^= x >> 31;
        x.wrapping_mul(0xBF58_476D_1CE4_E5B9) >> 11
    }

    fn same(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
    }

    /// Several spans, odd and even windows, with and without NaNs (the two
    /// slides), ties, and values that tie in the sort's kept key bits.
    #[test]
    fn matches_naive_across_spans() {
        let mut outputs = 0;
        for (case, window) in [1, 2, 3, 64, 129, 300, 1001, 1002].into_iter().enumerate() {
            for nans in [false, true] {
                let n = 3 * window.max(MIN_SPAN / SPAN_PER_WINDOW) * SPAN_PER_WINDOW + window + 17;
                let data: Vec<f64> = (0..n as u64)
                    .map(|i| {
                        let r = noise(i + 1_000_000 * case as u64);
                        match r % 16 {
                            0 if nans => f64::NAN,
                            1 => 0.5,                          // ties
                            2 => 1e9 + (r % 64) as f64 * 1e-6, // equal in 32 kept bits
                            _ => (r % 1000) as f64 - 500.0,
                        }
                    })
                    .collect();
                let mut out = vec![42.0];
                rolling_median_ranks(&data, window, &mut out);
                assert_eq!(out[0], 42.0, "appends after what was there");
                assert!(
                    same(&out[1..], &rolling_median_naive(&data, window)),
                    "k={window} nans={nans}"
                );
                outputs += out.len() - 1;
            }
        }
        assert!(outputs > 300_000, "{outputs} outputs checked");
    }

    #[test]
    fn windows_of_nans_give_nan_and_recover() {
        let mut data = vec![f64::NAN; 40];
        data.extend((0..40).map(f64::from));
        data.extend([f64::NAN; 40]);
        let mut out = Vec::new();
        rolling_median_ranks(&data, 10, &mut out);
        assert!(out[..31].iter().all(|x| x.is_nan()));
        assert_eq!(out[31], 0.0, "one number in the window");
        assert_eq!(out[70], 34.5, "a full window of numbers");
        assert!(out[111..].iter().all(|x| x.is_nan()));
        assert!(same(&out, &rolling_median_naive(&data, 10)));
    }
}

//! [`prefix_medians_append`]: the median of every prefix of a slice, which
//! is what `move_median` outputs before its first full window.
//!
//! Offline, so no heap: sort the values once, which gives each its rank,
//! then add them in input order to a bitmap of ranks with a cursor on the
//! lower median ([`crate::cursor`]). Each addition moves the cursor by at
//! most one set bit. The bitmap is an eighth of a byte per value and stays in
//! cache, which made it faster than unlinking nodes of a sorted linked list
//! (measured: docs/results/python.md).

use crate::cursor::{Cursor, set};
use crate::key::{NAN_KEY, key};
use crate::radix::Sorter;

/// Appends the median of `data[..1]`, `data[..2]`, … `data[..]` to `out`,
/// NaNs left out as in [`crate::RollingMedian`] (NaN while a prefix holds
/// no number).
pub fn prefix_medians_append(data: &[f64], out: &mut Vec<f64>) {
    let n = data.len();
    out.reserve(n);
    let keys: Vec<u64> = data.iter().map(|&x| key(x)).collect();
    let mut sorter = Sorter::default();
    let mask = sorter.sort_positions(&keys);
    let mut rank_of = vec![0u32; n];
    let mut sorted = Vec::with_capacity(n);
    for (r, &word) in sorter.words.iter().enumerate() {
        let pos = (word & mask) as usize;
        rank_of[pos] = r as u32;
        sorted.push(keys[pos]);
    }
    let mut bits = vec![0u64; n.div_ceil(64)];
    let (mut cursor, mut valid) = (Cursor { rank: 0, below: 0 }, 0);
    for (&r, &k) in rank_of.iter().zip(&keys) {
        if k != NAN_KEY {
            set(&mut bits, r as usize);
            valid += 1;
            cursor.inserted(r as usize, valid);
            cursor.balance(&bits, valid);
        }
        out.push(cursor.median(&sorted, &bits, valid));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive::median_of;

    #[test]
    fn matches_sorting_each_prefix() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for case in 0..300 {
            let n = if case % 50 == 49 {
                3_000 + case
            } else {
                case % 150
            };
            let data: Vec<f64> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    match x % 10 {
                        0 if case % 3 == 0 => f64::NAN,
                        1 if case % 5 == 0 => f64::INFINITY,
                        _ if case % 2 == 0 => (x >> 40) as f64,
                        _ => ((x >> 8) % 7) as f64 - 3.0,
                    }
                })
                .collect();
            let mut got = vec![42.0];
            prefix_medians_append(&data, &mut got);
            assert_eq!(got.len(), n + 1);
            assert_eq!(got[0], 42.0, "appends after what was there");
            for i in 0..n {
                let want = median_of(&data[..=i]);
                let g = got[i + 1];
                assert!(
                    g == want || (g.is_nan() && want.is_nan()),
                    "case {case} prefix {i}: {g} vs {want}"
                );
            }
        }
    }
}

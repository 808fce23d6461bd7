//! [`prefix_medians_append`]: the median of every prefix of a slice, which
//! is what `move_median` outputs before its first full window.
//!
//! Offline, so no heap: sort the values once into a linked list, then take
//! them out again from the last position to the first. Each removal shifts
//! the lower middle by at most one node, so after the sort it is O(1) per
//! value, the same "dancing links" walk as [`crate::blocks`].

use crate::key::{NAN_KEY, key, mean2, value};
use crate::radix::Sorter;

/// Appends the median of `data[..1]`, `data[..2]`, … `data[..]` to `out`,
/// NaNs left out as in [`crate::RollingMedian`] (NaN while a prefix holds
/// no number).
pub fn prefix_medians_append(data: &[f64], out: &mut Vec<f64>) {
    let n = data.len();
    let start = out.len();
    out.resize(start + n, f64::NAN);
    if n == 0 {
        return;
    }
    let out = &mut out[start..];
    let keys: Vec<u64> = data.iter().map(|&x| key(x)).collect();
    let mut sorter = Sorter::default();
    let mask = sorter.sort_positions(&keys);
    // Node r + 1 holds the r-th smallest value; 0 and n + 1 are sentinels.
    let mut next: Vec<u32> = (1..=n as u32 + 1).chain([n as u32 + 1]).collect();
    let mut prev: Vec<u32> = [0].into_iter().chain(0..=n as u32).collect();
    let mut node_key = vec![0u64; n + 2];
    node_key[n + 1] = u64::MAX;
    let mut node_of = vec![0u32; n];
    for (r, &word) in sorter.words.iter().enumerate() {
        let pos = (word & mask) as usize;
        node_of[pos] = r as u32 + 1;
        node_key[r + 1] = keys[pos];
    }
    let mut valid = keys.iter().filter(|&&k| k != NAN_KEY).count();
    // `cursor` is a present node with `below` present nodes before it.
    let (mut cursor, mut below) = (1u32, 0usize);
    for i in (0..n).rev() {
        if valid == 0 {
            break; // every shorter prefix holds no number either
        }
        let r = (valid - 1) / 2;
        while below < r {
            cursor = next[cursor as usize];
            below += 1;
        }
        while below > r {
            cursor = prev[cursor as usize];
            below -= 1;
        }
        let lo = value(node_key[cursor as usize]);
        out[i] = if valid % 2 == 1 {
            lo
        } else {
            mean2(lo, value(node_key[next[cursor as usize] as usize]))
        };
        // Drop position i: keep the cursor on a present node.
        let x = node_of[i];
        if x < cursor {
            below -= 1;
        } else if x == cursor {
            cursor = next[x as usize];
        }
        let (p, q) = (prev[x as usize], next[x as usize]);
        next[p as usize] = q;
        prev[q as usize] = p;
        valid -= usize::from(keys[i] != NAN_KEY);
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
            let n = case % 150;
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

//! Sorting one block: the positions of its values in key order.
//!
//! Each position is packed with its key into one `u64`: the 32 highest key
//! bits that vary among the keys above, the position in the low `pos_bits`
//! bits. Sorting these words is sorting by key (up to the dropped key bits),
//! with half the memory traffic of `(key, position)` pairs, and the radix
//! sort needs no pass over the position bits, already in order. Words whose
//! kept bits tie are then put in full-key order by a pass over the (rare,
//! short) runs of ties.

/// Key bits a sort word keeps above the position: the highest 32 of those
/// that vary among the keys, sorted in 3 radix passes. Keys that tie in all
/// 32 (for data spread over a range, equal values, or values closer than a
/// 2^-20 part of the block's spread) are put in order by `sort_tie_runs`.
/// Keeping every key bit above the position took 4 passes for a block of
/// 100,001 values and 5 for 10,001.
const KEPT_KEY_BITS: u32 = 32;

/// Blocks at least this long are radix sorted, shorter ones by comparisons.
pub(crate) const RADIX_MIN_LEN: usize = 1024;

/// Reusable buffers for [`sort_positions`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Sorter {
    /// After a sort: `(key high bits) | position`, in key order.
    pub words: Vec<u64>,
    scratch: Vec<u64>,
}

impl Sorter {
    /// Sorts positions `0..keys.len()` by `keys[pos]` (ties in any order);
    /// returns the mask that extracts a position from [`Sorter::words`].
    pub fn sort_positions(&mut self, keys: &[u64]) -> u64 {
        let len = keys.len();
        assert!(len <= 1 << 32, "at most 2^32 keys");
        let pos_bits = usize::BITS - len.max(2).saturating_sub(1).leading_zeros();
        let mask = (1u64 << pos_bits) - 1;
        self.words.clear();
        if keys.is_sorted() {
            // Sorted or constant input: the positions in order.
            self.words.extend(0..len as u64);
            return mask;
        }
        if keys.is_sorted_by(|a, b| a >= b) {
            // Reverse-sorted input: the positions backwards.
            self.words.extend((0..len as u64).rev());
            return mask;
        }
        // Bits that are the same in every key do not order them: keep the
        // `KEPT_KEY_BITS` highest of the rest.
        let (any, all) = keys
            .iter()
            .fold((0, u64::MAX), |(any, all), &k| (any | k, all & k));
        let shift = (u64::BITS - (any ^ all).leading_zeros()).saturating_sub(KEPT_KEY_BITS);
        let kept = u64::MAX >> (u64::BITS - KEPT_KEY_BITS);
        self.words.extend(
            keys.iter()
                .enumerate()
                .map(|(pos, &k)| (((k >> shift) & kept) << pos_bits) | pos as u64),
        );
        if len >= RADIX_MIN_LEN {
            radix_sort(
                &mut self.words,
                &mut self.scratch,
                pos_bits,
                pos_bits + KEPT_KEY_BITS,
            );
        } else {
            self.words.sort_unstable();
        }
        sort_tie_runs(&mut self.words, keys, mask);
        mask
    }
}

/// Puts every run of words with equal high bits in full-key order.
fn sort_tie_runs(words: &mut [u64], keys: &[u64], mask: u64) {
    let mut start = 0;
    while start < words.len() {
        let high = words[start] & !mask;
        let end = start
            + 1
            + words[start + 1..]
                .iter()
                .take_while(|&&w| w & !mask == high)
                .count();
        let run = &mut words[start..end];
        let full = |w: &u64| keys[(w & mask) as usize];
        if run.len() > 1 && !run.is_sorted_by_key(full) {
            run.sort_unstable_by_key(full);
        }
        start = end;
    }
}

/// Bits per radix digit: 11 sorts the 32 kept key bits in 3 passes, and
/// 2,048 counters a pass still fit in L1 (faster than byte digits, measured
/// in docs/results/python.md).
const DIGIT_BITS: u32 = 11;
const BUCKETS: usize = 1 << DIGIT_BITS;

/// LSD radix sort by the bits `first_bit..end_bit`, in digits of
/// [`DIGIT_BITS`], using `scratch` as the second buffer. Passes whose digit
/// is the same in every word are skipped.
fn radix_sort(words: &mut Vec<u64>, scratch: &mut Vec<u64>, first_bit: u32, end_bit: u32) {
    let shifts: Vec<u32> = (first_bit..end_bit).step_by(DIGIT_BITS as usize).collect();
    let mut counts = vec![[0u32; BUCKETS]; shifts.len()];
    for &w in words.iter() {
        for (&shift, count) in shifts.iter().zip(counts.iter_mut()) {
            count[digit(w, shift)] += 1;
        }
    }
    let n = words.len() as u32;
    scratch.clear();
    scratch.resize(words.len(), 0);
    for (&shift, total) in shifts.iter().zip(&counts) {
        if total.contains(&n) {
            continue;
        }
        scatter_halves(words, scratch, shift, total);
        std::mem::swap(words, scratch);
    }
}

/// One stable pass by the digit at `shift` (`total` counts each digit's
/// words) from `words` into `scratch`. The two halves of `words` go to the
/// two parts of each bucket, one word of each per step: two independent
/// chains of bucket counters, where one chain stalls on every repeated
/// digit (a counter written and read again at once), which the high digits
/// of real data repeat all the time.
fn scatter_halves(words: &[u64], scratch: &mut [u64], shift: u32, total: &[u32; BUCKETS]) {
    let (lo, hi) = words.split_at(words.len() / 2);
    let mut first = [0u32; BUCKETS];
    for &w in lo {
        first[digit(w, shift)] += 1;
    }
    let (mut next_lo, mut next_hi) = ([0u32; BUCKETS], [0u32; BUCKETS]);
    let mut offset = 0u32;
    for d in 0..BUCKETS {
        next_lo[d] = offset;
        next_hi[d] = offset + first[d];
        offset += total[d];
    }
    for (&x, &y) in lo.iter().zip(hi) {
        let (dx, dy) = (digit(x, shift), digit(y, shift));
        scratch[next_lo[dx] as usize] = x;
        next_lo[dx] += 1;
        scratch[next_hi[dy] as usize] = y;
        next_hi[dy] += 1;
    }
    if let Some(&y) = hi.get(lo.len()) {
        scratch[next_hi[digit(y, shift)] as usize] = y;
    }
}

#[inline(always)]
fn digit(word: u64, shift: u32) -> usize {
    ((word >> shift) as usize) & (BUCKETS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn check(keys: &[u64]) -> Result<(), TestCaseError> {
        let mut sorter = Sorter::default();
        let mask = sorter.sort_positions(keys);
        let mut positions: Vec<usize> = sorter.words.iter().map(|&w| (w & mask) as usize).collect();
        let got: Vec<u64> = positions.iter().map(|&p| keys[p]).collect();
        prop_assert!(got.is_sorted(), "keys out of order: {got:?}");
        positions.sort_unstable();
        prop_assert!(
            positions.iter().copied().eq(0..keys.len()),
            "not a permutation"
        );
        Ok(())
    }

    proptest! {
        #[test]
        fn small_blocks_sort_by_full_key(keys in prop::collection::vec(prop_oneof![any::<u64>(), 0u64..300, (0u64..4).prop_map(|k| k << 60)], 0..600)) {
            check(&keys)?;
        }

        #[test]
        fn monotone_blocks_sort_by_full_key(
            keys in prop::collection::vec(prop_oneof![any::<u64>(), 0u64..50], 0..3000),
            descending in any::<bool>(),
        ) {
            let mut keys = keys;
            keys.sort_unstable();
            if descending {
                keys.reverse();
            }
            check(&keys)?;
        }

        #[test]
        fn radix_blocks_sort_by_full_key(
            base in any::<u64>(),
            spread in prop_oneof![Just(u64::MAX), Just(1u64 << 20), Just(1000u64)],
            len in RADIX_MIN_LEN..3000,
            seed in any::<u64>(),
        ) {
            // Keys near `base` collide in their high bits: exercises tie runs.
            let keys: Vec<u64> = (0..len as u64)
                .map(|i| base.wrapping_add(arcade_core_free_hash(seed ^ i) % spread.max(1)))
                .collect();
            check(&keys)?;
        }
    }

    proptest! {
        /// Two far-apart clusters of close keys: the top key bit varies, so
        /// the words keep bits 32–63 and every key of a cluster ties in them;
        /// the tie runs must put each cluster in full-key order.
        #[test]
        fn clusters_tie_in_the_kept_bits_and_still_sort(
            len in 1usize..3000,
            seed in any::<u64>(),
            spread in prop_oneof![Just(1u64 << 20), Just(7u64)],
        ) {
            let keys: Vec<u64> = (0..len as u64)
                .map(|i| {
                    let h = arcade_core_free_hash(seed ^ i);
                    ((h & 1) << 63) | ((h >> 1) % spread)
                })
                .collect();
            check(&keys)?;
        }
    }

    /// A tiny mixer so the test needs no RNG crate.
    fn arcade_core_free_hash(mut x: u64) -> u64 {
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^ (x >> 31)
    }
}

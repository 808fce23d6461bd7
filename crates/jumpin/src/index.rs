//! Dense numbering of states, so a search can keep its marks in a flat array
//! instead of a hash table: the colex rank of the rabbit set among all sets of
//! that size, then two bits per fox offset.

use crate::geometry::CELLS;
use crate::rules::State;

/// `BINOMIAL[n][k]` = n choose k, for n, k ≤ 25.
static BINOMIAL: [[u32; CELLS as usize + 1]; CELLS as usize + 1] = binomials();

const fn binomials() -> [[u32; CELLS as usize + 1]; CELLS as usize + 1] {
    let mut t = [[0u32; CELLS as usize + 1]; CELLS as usize + 1];
    let mut n = 0;
    while n <= CELLS as usize {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
}

/// n choose k (0 when k > n).
#[inline]
pub fn binomial(n: usize, k: usize) -> u64 {
    if k > n { 0 } else { u64::from(BINOMIAL[n][k]) }
}

/// Colex rank of a set of cells among the sets of the same size:
/// the sum of `C(c_i, i + 1)` over its cells `c_0 < c_1 < …`.
#[inline]
pub fn rank(mut mask: u32) -> usize {
    let mut r = 0;
    let mut i = 1;
    while mask != 0 {
        let c = mask.trailing_zeros() as usize;
        r += BINOMIAL[c][i] as usize;
        mask &= mask - 1;
        i += 1;
    }
    r
}

/// Every `k`-element subset of the cells of `mask`, in increasing colex
/// order (Gosper's next-combination step on the compressed bits).
pub fn subsets(mask: u32, k: usize) -> impl Iterator<Item = u32> {
    let n = mask.count_ones() as usize;
    let mut next = (k <= n).then(|| if k == 0 { 0 } else { (1u64 << k) - 1 });
    std::iter::from_fn(move || {
        let current = next?;
        next = if current == 0 {
            None
        } else {
            let low = current & current.wrapping_neg();
            let ripple = current + low;
            let following = (((ripple ^ current) >> 2) / low) | ripple;
            (following < 1u64 << n).then_some(following)
        };
        Some(deposit(current as u32, mask))
    })
}

/// Spreads the low bits of `compact` onto the set bits of `mask`, in order.
fn deposit(mut compact: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    while compact != 0 && mask != 0 {
        let low = mask & mask.wrapping_neg();
        if compact & 1 != 0 {
            out |= low;
        }
        compact >>= 1;
        mask &= mask - 1;
    }
    out
}

/// Numbers the states with a fixed number of rabbits and foxes as
/// `0..len()`.
#[derive(Clone, Copy, Debug)]
pub struct StateIndex {
    fox_bits: u32,
    len: usize,
}

impl StateIndex {
    pub fn new(rabbits: usize, foxes: usize) -> StateIndex {
        let fox_bits = 2 * foxes as u32;
        let len = (binomial(CELLS as usize, rabbits) as usize)
            .checked_shl(fox_bits)
            .expect("index fits in usize");
        StateIndex { fox_bits, len }
    }

    /// Number of indices (some belong to overlapping, impossible states).
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn of(&self, s: State) -> usize {
        (rank(s.rabbits) << self.fox_bits) | s.foxes as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn binomials_match_the_formula() {
        assert_eq!(binomial(25, 3), 2300);
        assert_eq!(binomial(25, 12), 5_200_300);
        assert_eq!(binomial(3, 5), 0);
    }

    #[test]
    fn rank_numbers_the_subsets_in_order_from_zero() {
        for k in 0..=4usize {
            let all: Vec<u32> = subsets((1 << 25) - 1, k).collect();
            assert_eq!(all.len() as u64, binomial(25, k));
            for (i, &m) in all.iter().enumerate() {
                assert_eq!(m.count_ones() as usize, k);
                assert_eq!(rank(m), i);
            }
        }
    }

    #[test]
    fn subsets_of_a_sparse_mask_stay_inside_it() {
        let mask = 0b1_0010_0110_0001;
        let got: Vec<u32> = subsets(mask, 2).collect();
        let naive: Vec<u32> = (0..=mask)
            .filter(|m| m & !mask == 0 && m.count_ones() == 2)
            .collect();
        let (mut a, mut b) = (got.clone(), naive);
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert_eq!(subsets(mask, 6).count(), 0);
        assert_eq!(subsets(mask, 0).collect::<Vec<_>>(), vec![0]);
    }

    /// Two random sets of cells of the same size.
    fn same_size_sets() -> impl Strategy<Value = (u32, u32)> {
        let cells: Vec<u32> = (0..25).collect();
        let mask = |v: Vec<u32>| v.iter().fold(0, |m, c| m | 1 << c);
        (0usize..=6).prop_flat_map(move |k| {
            (
                proptest::sample::subsequence(cells.clone(), k).prop_map(mask),
                proptest::sample::subsequence(cells.clone(), k).prop_map(mask),
            )
        })
    }

    proptest! {
        #[test]
        fn rank_orders_sets_colexicographically((a, b) in same_size_sets()) {
            // Colex order: compare the largest differing cell.
            let diff = a ^ b;
            if diff != 0 {
                let top = 31 - diff.leading_zeros();
                prop_assert_eq!(rank(a) > rank(b), a & (1 << top) != 0);
            }
        }
    }
}

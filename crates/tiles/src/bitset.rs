//! A fixed-size set of tile indices, one bit per tile.
//!
//! Levels hold a few hundred tiles, so "which tiles are gone" and "which tiles
//! sit above this one" fit in a handful of `u64` words, and the greedy cost of
//! a tile is one AND-NOT and popcount per word.

/// A set of indices below a fixed bound.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits {
    words: Vec<u64>,
}

impl Bits {
    /// The empty set over `0..n`.
    pub fn new(n: usize) -> Bits {
        Bits {
            words: vec![0; n.div_ceil(64)],
        }
    }

    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.words[i / 64] &= !(1 << (i % 64));
    }

    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Size of `self \ other`.
    #[inline]
    pub fn count_without(&self, other: &Bits) -> usize {
        self.words
            .iter()
            .zip(&other.words)
            .map(|(a, b)| (a & !b).count_ones() as usize)
            .sum()
    }

    /// Adds every member of `other`.
    #[inline]
    pub fn union_with(&mut self, other: &Bits) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }

    /// Members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(w * 64 + bit)
            })
        })
    }

    pub fn clear(&mut self) {
        self.words.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    proptest! {
        #[test]
        fn behaves_like_a_btreeset(ops in prop::collection::vec((any::<bool>(), 0usize..200), 0..300),
                                   other in prop::collection::btree_set(0usize..200, 0..50)) {
            let mut bits = Bits::new(200);
            let mut naive = BTreeSet::new();
            for (add, i) in ops {
                if add { bits.insert(i); naive.insert(i); } else { bits.remove(i); naive.remove(&i); }
            }
            prop_assert_eq!(bits.iter().collect::<Vec<_>>(), naive.iter().copied().collect::<Vec<_>>());
            prop_assert_eq!(bits.count(), naive.len());
            prop_assert_eq!(bits.is_empty(), naive.is_empty());
            let mut o = Bits::new(200);
            for &i in &other { o.insert(i); }
            prop_assert_eq!(bits.count_without(&o), naive.difference(&other).count());
            let mut u = bits.clone();
            u.union_with(&o);
            prop_assert_eq!(u.iter().collect::<Vec<_>>(), naive.union(&other).copied().collect::<Vec<_>>());
            for i in 0..200 { prop_assert_eq!(bits.contains(i), naive.contains(&i)); }
        }
    }
}

//! The rules in motion: which tiles are free, what the tray holds, and what
//! a click does. Built for search: a click and its undo cost O(tiles touched).
//!
//! The tray is kept as a count per type. Three of a type vanish at once, so a
//! count never exceeds 2 between clicks, and the tray is a function of which
//! tiles are gone (each type's removed count modulo 3).

use crate::bitset::Bits;
use crate::level::Level;

/// What one click did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Click {
    /// The tile went into the tray.
    Kept,
    /// The tile completed a triple, which vanished.
    Matched,
    /// The tray is full: the game is lost.
    Overflow,
}

/// A position of the game: the tiles still on the board and the tray.
#[derive(Clone, Debug)]
pub struct Board<'a> {
    level: &'a Level,
    pos: Position,
}

/// A [`Board`] without its level: what a holder of the level keeps between
/// clicks ([`Board::into_position`], [`Board::at`]) instead of replaying them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    gone: Bits,
    free: Bits,
    /// Coverers of each tile still on the board.
    blockers: Vec<u32>,
    /// Tiles still on the board that each tile covers.
    beneath: Vec<u32>,
    tray: Vec<u8>,
    tray_len: usize,
    left: Vec<u32>,
    remaining: usize,
}

impl Position {
    /// True when the board and the tray are empty ([`Board::is_won`]).
    pub fn is_won(&self) -> bool {
        self.remaining == 0 && self.tray_len == 0
    }

    /// True when the board is empty but the tray is not: tiles of a type
    /// whose count is not a multiple of 3 can never match, so the game is
    /// over and lost.
    pub fn is_stranded(&self) -> bool {
        self.remaining == 0 && self.tray_len > 0
    }

    /// Tiles taken so far ([`Board::gone`]).
    pub fn gone(&self) -> &Bits {
        &self.gone
    }

    /// Tiles that can be clicked now ([`Board::free`]).
    pub fn free(&self) -> &Bits {
        &self.free
    }

    /// Tiles still on the board that cover tile `i`.
    #[inline]
    pub fn blockers(&self, i: usize) -> u32 {
        self.blockers[i]
    }
}

impl<'a> Board<'a> {
    /// The start of `level`: every tile on the board, an empty tray.
    pub fn new(level: &'a Level) -> Board<'a> {
        let n = level.len();
        let blockers: Vec<u32> = (0..n).map(|i| level.covered_by(i).len() as u32).collect();
        let mut free = Bits::new(n);
        for (i, &b) in blockers.iter().enumerate() {
            if b == 0 {
                free.insert(i);
            }
        }
        let left = level.kind_counts().into_iter().map(|c| c as u32).collect();
        let pos = Position {
            gone: Bits::new(n),
            free,
            blockers,
            beneath: (0..n).map(|i| level.covers(i).len() as u32).collect(),
            tray: vec![0; level.kinds()],
            tray_len: 0,
            left,
            remaining: n,
        };
        Board { level, pos }
    }

    /// The board of `level` at `pos`, a position of the same level.
    pub fn at(level: &'a Level, pos: Position) -> Board<'a> {
        debug_assert_eq!(
            pos.blockers.len(),
            level.len(),
            "a position of another level"
        );
        Board { level, pos }
    }

    /// The position alone, to keep beside the level.
    pub fn into_position(self) -> Position {
        self.pos
    }

    pub fn level(&self) -> &'a Level {
        self.level
    }

    /// Tiles taken so far (in the tray or vanished).
    pub fn gone(&self) -> &Bits {
        &self.pos.gone
    }

    /// Tiles that can be clicked now.
    pub fn free(&self) -> &Bits {
        &self.pos.free
    }

    #[inline]
    pub fn is_free(&self, i: usize) -> bool {
        self.pos.free.contains(i)
    }

    /// Tiles still on the board that tile `i` covers.
    #[inline]
    pub fn beneath(&self, i: usize) -> u32 {
        self.pos.beneath[i]
    }

    /// Tiles of dense type `k` in the tray (0, 1 or 2).
    #[inline]
    pub fn tray(&self, k: usize) -> usize {
        usize::from(self.pos.tray[k])
    }

    /// Tiles in the tray.
    #[inline]
    pub fn tray_len(&self) -> usize {
        self.pos.tray_len
    }

    /// Tiles of dense type `k` still on the board.
    #[inline]
    pub fn left(&self, k: usize) -> usize {
        self.pos.left[k] as usize
    }

    /// Tiles still on the board.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.pos.remaining
    }

    /// True when the board and the tray are empty (a board emptied with
    /// tiles left in the tray is lost: [`Position::is_stranded`]).
    pub fn is_won(&self) -> bool {
        self.pos.is_won()
    }

    /// What clicking free tile `i` would do, without doing it.
    #[inline]
    pub fn click_result(&self, i: usize) -> Click {
        let k = self.level.kind(i);
        if self.pos.tray[k] == 2 {
            Click::Matched
        } else if self.pos.tray_len + 1 >= self.level.capacity() {
            Click::Overflow
        } else {
            Click::Kept
        }
    }

    /// Clicks free tile `i`. After [`Click::Overflow`] the position is the
    /// lost one (a full tray); [`Board::undo`] still takes it back.
    ///
    /// # Panics
    /// In debug builds, if tile `i` is not free.
    pub fn take(&mut self, i: usize) -> Click {
        debug_assert!(self.is_free(i), "tile {i} is not free");
        let level = self.level;
        self.pos.gone.insert(i);
        self.pos.free.remove(i);
        self.pos.remaining -= 1;
        for &b in level.covers(i) {
            let b = b as usize;
            self.pos.blockers[b] -= 1;
            if self.pos.blockers[b] == 0 {
                self.pos.free.insert(b);
            }
        }
        for &c in level.covered_by(i) {
            self.pos.beneath[c as usize] -= 1;
        }
        let k = level.kind(i);
        self.pos.left[k] -= 1;
        if self.pos.tray[k] == 2 {
            self.pos.tray[k] = 0;
            self.pos.tray_len -= 2;
            Click::Matched
        } else {
            self.pos.tray[k] += 1;
            self.pos.tray_len += 1;
            if self.pos.tray_len >= level.capacity() {
                Click::Overflow
            } else {
                Click::Kept
            }
        }
    }

    /// Takes back the click of tile `i`, which must be the last one made.
    pub fn undo(&mut self, i: usize) {
        let level = self.level;
        debug_assert!(self.pos.gone.contains(i));
        let k = level.kind(i);
        self.pos.left[k] += 1;
        if self.pos.tray[k] == 0 {
            self.pos.tray[k] = 2;
            self.pos.tray_len += 2;
        } else {
            self.pos.tray[k] -= 1;
            self.pos.tray_len -= 1;
        }
        for &c in level.covered_by(i) {
            self.pos.beneath[c as usize] += 1;
        }
        for &b in level.covers(i) {
            let b = b as usize;
            if self.pos.blockers[b] == 0 {
                self.pos.free.remove(b);
            }
            self.pos.blockers[b] += 1;
        }
        self.pos.remaining += 1;
        self.pos.free.insert(i);
        self.pos.gone.remove(i);
    }

    /// Clicks needed to take tile `i`: itself and everything still above it.
    #[inline]
    pub fn dig_cost(&self, i: usize) -> usize {
        1 + self.level.above(i).count_without(&self.pos.gone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::tests::{arb_tiles, tile};
    use crate::rng_walk::random_walk;
    use proptest::prelude::*;

    #[test]
    fn a_triple_vanishes_and_a_full_tray_loses() {
        // Three 1s side by side, then four distinct types on a 4-slot tray.
        let tiles = vec![
            tile(1, 0, 0, 0),
            tile(1, 0, 3, 0),
            tile(1, 0, 6, 0),
            tile(2, 0, 9, 0),
            tile(3, 0, 12, 0),
            tile(4, 0, 15, 0),
            tile(5, 0, 18, 0),
        ];
        let level = Level::new(tiles, 4).unwrap();
        let mut b = Board::new(&level);
        assert_eq!(b.take(0), Click::Kept);
        assert_eq!(b.take(3), Click::Kept);
        assert_eq!(b.take(1), Click::Kept);
        assert_eq!(b.tray_len(), 3);
        assert_eq!(b.click_result(2), Click::Matched);
        assert_eq!(b.take(2), Click::Matched);
        assert_eq!(b.tray_len(), 1);
        assert_eq!(b.take(4), Click::Kept);
        assert_eq!(b.take(5), Click::Kept);
        assert_eq!(b.click_result(6), Click::Overflow);
        assert_eq!(b.take(6), Click::Overflow);
        b.undo(6);
        assert_eq!(b.tray_len(), 3);
    }

    #[test]
    fn covered_tiles_free_up_when_their_coverers_go() {
        let tiles = vec![tile(1, 0, 0, 0), tile(2, 1, 1, 0), tile(3, 2, 0, 1)];
        let level = Level::new(tiles, 7).unwrap();
        let mut b = Board::new(&level);
        assert_eq!(b.free().iter().collect::<Vec<_>>(), vec![2]);
        assert_eq!(b.dig_cost(0), 3);
        b.take(2);
        assert_eq!(b.free().iter().collect::<Vec<_>>(), vec![1]);
        b.take(1);
        assert_eq!(b.free().iter().collect::<Vec<_>>(), vec![0]);
        assert_eq!(b.dig_cost(0), 1);
    }

    proptest! {
        /// Every incremental field matches a recomputation from scratch, and
        /// undoing a walk restores the start exactly.
        #[test]
        fn incremental_state_matches_a_recount(tiles in arb_tiles(30, 4), seed in any::<u64>()) {
            let level = Level::new(tiles, 7).unwrap();
            let mut b = Board::new(&level);
            let start = format!("{b:?}");
            let walk = random_walk(&mut b, seed);
            let n = level.len();
            let gone: Vec<bool> = (0..n).map(|i| b.gone().contains(i)).collect();
            for i in 0..n {
                let free = !gone[i] && level.tiles().iter().enumerate().all(|(j, t)| gone[j] || !t.covers(&level.tiles()[i]));
                prop_assert_eq!(b.is_free(i), free);
                let beneath = (0..n).filter(|&j| !gone[j] && level.tiles()[i].covers(&level.tiles()[j])).count();
                if !gone[i] { prop_assert_eq!(b.beneath(i) as usize, beneath); }
            }
            for k in 0..level.kinds() {
                let taken = (0..n).filter(|&i| gone[i] && level.kind(i) == k).count();
                prop_assert_eq!(b.tray(k), taken % 3);
                prop_assert_eq!(b.left(k), (0..n).filter(|&i| !gone[i] && level.kind(i) == k).count());
            }
            prop_assert_eq!(b.tray_len(), (0..level.kinds()).map(|k| b.tray(k)).sum::<usize>());
            for &i in walk.iter().rev() { b.undo(i); }
            prop_assert_eq!(format!("{b:?}"), start);
        }
    }
}

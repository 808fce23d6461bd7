//! The greedy player everyone uses: for each type, count the clicks needed to
//! get three of it into the tray (the tiles themselves plus everything still
//! covering them), and work toward the cheapest type.

use crate::bitset::Bits;
use crate::board::{Board, Click};
use crate::level::Level;
use serde::Serialize;

/// A game played to its end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Playout {
    /// Every click, including the one that filled the tray if the game was lost.
    pub clicks: Vec<usize>,
    pub won: bool,
    /// Tiles taken off the board before the game ended.
    pub taken: usize,
}

/// Plays `level` with the greedy rule until it is won or lost.
pub fn play_greedy(level: &Level) -> Playout {
    let mut board = Board::new(level);
    let mut greedy = Greedy::new(level);
    let mut clicks = Vec::new();
    while let Some(i) = greedy.choose(&board) {
        clicks.push(i);
        if board.take(i) == Click::Overflow {
            return Playout {
                taken: clicks.len() - 1,
                clicks,
                won: false,
            };
        }
    }
    Playout {
        won: board.is_won(),
        taken: clicks.len(),
        clicks,
    }
}

/// The greedy rule with its scratch space.
pub struct Greedy {
    /// Per type, the three cheapest tiles still on the board: (clicks, tile).
    cheapest: Vec<[(usize, usize); 3]>,
    plan: Bits,
    best_plan: Bits,
}

impl Greedy {
    pub fn new(level: &Level) -> Greedy {
        Greedy {
            cheapest: vec![[(usize::MAX, usize::MAX); 3]; level.kinds()],
            plan: Bits::new(level.len()),
            best_plan: Bits::new(level.len()),
        }
    }

    /// The tile the greedy player clicks next; `None` when the board is empty
    /// (won, or stranded with tiles in the tray).
    ///
    /// For each type with `need` = 3 − (its tiles in the tray) tiles still to
    /// find, the plan is its `need` cheapest tiles to dig out and everything
    /// above them; the cheapest plan wins (ties: fuller tray, then lower
    /// type). The click is a free tile of the plan: one of the wanted tiles
    /// if free, else a free coverer, preferring a type that completes a
    /// triple, then a type with more in the tray, then the lower id.
    pub fn choose(&mut self, board: &Board) -> Option<usize> {
        let level = board.level();
        if board.remaining() == 0 {
            return None;
        }
        self.rank_tiles(board);
        let mut best: Option<(usize, usize, usize)> = None; // (cost, need, kind)
        for k in 0..level.kinds() {
            let need = 3 - board.tray(k);
            if board.left(k) < need {
                continue;
            }
            self.plan.clear();
            for &(_, t) in &self.cheapest[k][..need] {
                self.plan.insert(t);
                self.plan.union_with(level.above(t));
            }
            let cost = self.plan.count_without(board.gone());
            if best.is_none_or(|b| (cost, need) < (b.0, b.1)) {
                best = Some((cost, need, k));
                std::mem::swap(&mut self.plan, &mut self.best_plan);
            }
        }
        let Some((_, need, k)) = best else {
            // Tile counts that are not multiples of 3: take any free tile.
            return board.free().iter().next();
        };
        if let Some(&(_, t)) = self.cheapest[k][..need]
            .iter()
            .find(|&&(_, t)| board.is_free(t))
        {
            return Some(t);
        }
        self.best_plan
            .iter()
            .filter(|&t| board.is_free(t))
            .max_by_key(|&t| (board.tray(level.kind(t)), std::cmp::Reverse(t)))
    }

    /// Fills `cheapest` with each type's three cheapest tiles on the board.
    fn rank_tiles(&mut self, board: &Board) {
        let level = board.level();
        for c in &mut self.cheapest {
            *c = [(usize::MAX, usize::MAX); 3];
        }
        for t in 0..level.len() {
            if board.gone().contains(t) {
                continue;
            }
            let entry = (board.dig_cost(t), t);
            let slots = &mut self.cheapest[level.kind(t)];
            if entry < slots[2] {
                slots[2] = entry;
                slots.sort_unstable();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::replay;
    use crate::level::tests::{arb_tiles, tile};
    use crate::level::{Level, Tile};
    use proptest::prelude::*;

    #[test]
    fn takes_the_cheapest_triple_then_digs() {
        // Type 1: tiles 1, 4, 5 all free (3 clicks). Type 2: tiles 2 and 3
        // free, tile 0 under tile 1 (4 clicks); once 1 is gone, 0 is free.
        let tiles = vec![
            tile(2, 0, 0, 0),
            tile(1, 1, 0, 0),
            tile(2, 0, 4, 0),
            tile(2, 0, 8, 0),
            tile(1, 0, 12, 0),
            tile(1, 0, 16, 0),
        ];
        let level = Level::new(tiles, 7).unwrap();
        let p = play_greedy(&level);
        assert_eq!(p.clicks, vec![1, 4, 5, 0, 2, 3]);
        assert!(p.won);
        // Type 1 only: free tiles first, then dig out the buried one.
        let tiles = vec![
            tile(1, 0, 0, 0),
            tile(2, 1, 0, 0),
            tile(1, 0, 4, 0),
            tile(1, 0, 8, 0),
        ];
        let level = Level::new(tiles, 7).unwrap();
        assert_eq!(play_greedy(&level).clicks, vec![2, 3, 1, 0]);
    }

    #[test]
    fn loses_when_the_tray_fills() {
        // Four different types on a 3-slot tray.
        let tiles: Vec<Tile> = (0..4).map(|k| tile(k, 0, 4 * k as i32, 0)).collect();
        let level = Level::new(tiles, 3).unwrap();
        let p = play_greedy(&level);
        assert!(!p.won);
        assert_eq!((p.clicks.len(), p.taken), (3, 2));
    }

    /// Four tiles of one type: all can be taken, but the fourth stays in the
    /// tray for ever. Greedy, the replay and a played game all call it lost,
    /// as the exact solver's proof does; they called it won.
    #[test]
    fn an_emptied_board_with_tiles_in_the_tray_is_lost() {
        let tiles: Vec<Tile> = (0..4).map(|i| tile(1, 0, 8 * i, 0)).collect();
        let level = Level::new(tiles, 7).unwrap();
        let p = play_greedy(&level);
        assert_eq!((p.clicks.len(), p.won), (4, false));
        let r = replay(&level, &p.clicks);
        assert_eq!(
            (r.ending, r.tray),
            (crate::check::Ending::Stranded, vec![1])
        );
        let mut game = crate::play::TilesGame::new(level.clone());
        let statuses: Vec<_> = p.clicks.iter().map(|&t| game.click(t).unwrap()).collect();
        assert_eq!(statuses[3], crate::play::TilesStatus::Lost);
        assert!(
            statuses[..3]
                .iter()
                .all(|&s| s == crate::play::TilesStatus::Playing)
        );
        assert!(!Board::new(&level).is_won());
    }

    proptest! {
        /// Greedy's clicks are always legal, and it wins exactly when the
        /// independent replay says so.
        #[test]
        fn plays_legally(tiles in arb_tiles(30, 3)) {
            let level = Level::new(tiles, 5).unwrap();
            let p = play_greedy(&level);
            let r = replay(&level, &p.clicks);
            prop_assert_eq!(r.won(), p.won);
            if !p.won && level.uneven_kind().is_none() {
                prop_assert!(matches!(r.ending, crate::check::Ending::Lost { .. }), "{:?}", r.ending);
            }
        }
    }
}

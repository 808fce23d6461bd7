//! Replaying a click sequence, written independently of [`crate::board`]:
//! covering is tested from the geometry and the tray is a plain list, so a
//! solver's answer is checked by code that shares nothing with the solver.

use crate::level::Level;
use serde::{Deserialize, Serialize};

/// How a replay ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum Ending {
    /// Every tile was taken and the tray is empty.
    Won,
    /// The tray filled up at click `at` (0-based); later clicks are ignored.
    Lost { at: usize },
    /// Every tile was taken, but the tray still holds some: a type whose
    /// count is not a multiple of 3 can never match, so the game is lost.
    Stranded,
    /// All clicks were legal, the tray never filled, tiles remain.
    Unfinished { remaining: usize },
    /// Click `at` was not allowed.
    Illegal {
        at: usize,
        tile: usize,
        why: Illegal,
    },
}

/// Why a click was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum Illegal {
    /// No tile has this id.
    NoSuchTile,
    /// The tile was taken before.
    AlreadyTaken,
    /// A tile still on the board covers it.
    Covered { by: usize },
}

/// The result of a replay, with the tray as it was at the end (labels).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replay {
    pub ending: Ending,
    /// Legal clicks made.
    pub clicks: usize,
    /// Tiles taken (in the tray or vanished).
    pub taken: usize,
    /// The tray after the last legal click, in arrival order.
    pub tray: Vec<u32>,
}

impl Replay {
    pub fn won(&self) -> bool {
        self.ending == Ending::Won
    }
}

/// Replays `clicks` (tile ids) on `level`.
pub fn replay(level: &Level, clicks: &[usize]) -> Replay {
    let tiles = level.tiles();
    let mut taken = vec![false; tiles.len()];
    let mut tray: Vec<u32> = Vec::new();
    for (at, &tile) in clicks.iter().enumerate() {
        let refuse = |why| Ending::Illegal { at, tile, why };
        let ending = if tile >= tiles.len() {
            Some(refuse(Illegal::NoSuchTile))
        } else if taken[tile] {
            Some(refuse(Illegal::AlreadyTaken))
        } else {
            (0..tiles.len())
                .find(|&j| !taken[j] && tiles[j].covers(&tiles[tile]))
                .map(|by| refuse(Illegal::Covered { by }))
        };
        if let Some(ending) = ending {
            return finish(ending, at, &taken, tray);
        }
        taken[tile] = true;
        let kind = tiles[tile].kind;
        tray.push(kind);
        if tray.iter().filter(|&&k| k == kind).count() == 3 {
            tray.retain(|&k| k != kind);
        }
        if tray.len() >= level.capacity() {
            return finish(Ending::Lost { at }, at + 1, &taken, tray);
        }
    }
    let ending = if taken.iter().all(|&t| t) {
        if tray.is_empty() {
            Ending::Won
        } else {
            Ending::Stranded
        }
    } else {
        Ending::Unfinished {
            remaining: taken.iter().filter(|&&t| !t).count(),
        }
    };
    finish(ending, clicks.len(), &taken, tray)
}

fn finish(ending: Ending, clicks: usize, taken: &[bool], tray: Vec<u32>) -> Replay {
    Replay {
        ending,
        clicks,
        taken: taken.iter().filter(|&&t| t).count(),
        tray,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::tests::tile;

    fn level() -> Level {
        // A stack of three 1s (top to bottom: tiles 2, 1, 0) and three 2s beside it.
        Level::new(
            vec![
                tile(1, 0, 0, 0),
                tile(1, 1, 0, 0),
                tile(1, 2, 0, 0),
                tile(2, 0, 5, 0),
                tile(2, 0, 8, 0),
                tile(2, 0, 11, 0),
            ],
            3,
        )
        .unwrap()
    }

    #[test]
    fn a_winning_sequence_wins() {
        let r = replay(&level(), &[2, 1, 0, 3, 4, 5]);
        assert!(r.won());
        assert_eq!((r.clicks, r.taken), (6, 6));
        assert!(r.tray.is_empty());
    }

    #[test]
    fn illegal_clicks_are_named() {
        let l = level();
        let at = |clicks: &[usize]| replay(&l, clicks).ending;
        assert_eq!(
            at(&[0]),
            Ending::Illegal {
                at: 0,
                tile: 0,
                why: Illegal::Covered { by: 1 }
            }
        );
        assert_eq!(
            at(&[2, 2]),
            Ending::Illegal {
                at: 1,
                tile: 2,
                why: Illegal::AlreadyTaken
            }
        );
        assert_eq!(
            at(&[9]),
            Ending::Illegal {
                at: 0,
                tile: 9,
                why: Illegal::NoSuchTile
            }
        );
        assert_eq!(at(&[2, 1]), Ending::Unfinished { remaining: 4 });
    }

    #[test]
    fn a_full_tray_loses_and_ends_the_game() {
        let l = level();
        // Tray of 3: 1, 2, 2 -> 3 tiles that do not vanish.
        let r = replay(&l, &[2, 3, 4]);
        assert_eq!(r.ending, Ending::Lost { at: 2 });
        assert_eq!(r.tray, vec![1, 2, 2]);
        let after = replay(&l, &[2, 3, 4, 5]);
        assert_eq!(after.ending, Ending::Lost { at: 2 }, "later clicks ignored");
        assert_eq!(after.clicks, 3);
        // The third of a kind vanishes before the tray counts as full.
        assert!(replay(&l, &[3, 4, 5, 2, 1, 0]).won());
    }
}

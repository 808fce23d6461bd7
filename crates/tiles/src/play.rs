//! A level as a person plays it: clicks on free tiles, the tray in the
//! game's order, undo, and the exact solver's verdict on the position after
//! every click (still winnable or lost, with the proof's kind) and its hint.
//! The web arena and the Python environment hold a [`TilesGame`] per session.

use crate::board::{Board, Click};
use crate::exact::{Limit, Limits, Proof, Verdict, solve_from};
use crate::level::Level;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A click a person cannot make.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlayError {
    #[error("no tile {tile} (the level has {tiles})")]
    NoTile { tile: usize, tiles: usize },
    #[error("tile {0} is already gone")]
    Gone(usize),
    #[error("tile {0} is covered")]
    Covered(usize),
    #[error("the game is over")]
    Over,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TilesStatus {
    Playing,
    Won,
    /// The tray filled.
    Lost,
}

/// One tile still on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileView {
    pub id: usize,
    /// The tile's type (its label in the level).
    pub kind: u32,
    pub layer: i32,
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
    /// Nothing covers it: it can be clicked.
    pub free: bool,
}

/// What the player sees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TilesView {
    /// Tiles on the board, bottom layer first.
    pub tiles: Vec<TileView>,
    /// Types in the tray, in the game's order (a tile joins its kind).
    pub tray: Vec<u32>,
    pub capacity: usize,
    pub total: usize,
    pub clicks: usize,
    pub status: TilesStatus,
}

/// The exact solver's word on the current position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TilesVerdict {
    /// `winnable`, `lost`, `unknown` (the budget ran out) or `won`.
    pub verdict: String,
    /// For `lost`: `tray-full`, `search` (every line refuted) or
    /// `tile-counts` (a type's count is not a multiple of 3).
    pub proof: Option<String>,
    /// For `unknown`: `time` or `nodes`.
    pub limit: Option<Limit>,
    /// The next click of a winning line (the hint).
    pub hint: Option<usize>,
    /// The whole winning line from here.
    pub solution: Option<Vec<usize>>,
    pub nodes: u64,
    pub seconds: f64,
}

/// A level and the clicks made on it.
#[derive(Clone, Debug)]
pub struct TilesGame {
    level: Level,
    clicks: Vec<usize>,
    /// A winning line from here, last click first, when known: following
    /// a winning line keeps the rest of it winning, so a player who clicks
    /// the hint needs no new search.
    line: Option<Vec<usize>>,
}

impl TilesGame {
    pub fn new(level: Level) -> TilesGame {
        TilesGame {
            level,
            clicks: Vec::new(),
            line: None,
        }
    }

    pub fn level(&self) -> &Level {
        &self.level
    }

    pub fn clicks(&self) -> &[usize] {
        &self.clicks
    }

    /// The board after the clicks, and the last click's result.
    fn board(&self) -> (Board<'_>, Option<Click>) {
        let mut board = Board::new(&self.level);
        let mut last = None;
        for &c in &self.clicks {
            last = Some(board.take(c));
        }
        (board, last)
    }

    pub fn status(&self) -> TilesStatus {
        let (board, last) = self.board();
        status_of(&board, last)
    }

    /// Clicks tile `tile`, which must be free.
    pub fn click(&mut self, tile: usize) -> Result<TilesStatus, PlayError> {
        let (board, last) = self.board();
        if status_of(&board, last) != TilesStatus::Playing {
            return Err(PlayError::Over);
        }
        if tile >= self.level.len() {
            return Err(PlayError::NoTile {
                tile,
                tiles: self.level.len(),
            });
        }
        if board.gone().contains(tile) {
            return Err(PlayError::Gone(tile));
        }
        if !board.is_free(tile) {
            return Err(PlayError::Covered(tile));
        }
        self.clicks.push(tile);
        match &mut self.line {
            Some(line) if line.last() == Some(&tile) => {
                line.pop();
            }
            _ => self.line = None,
        }
        Ok(self.status())
    }

    /// Takes back the last click (a lost game too); `false` at the start.
    pub fn undo(&mut self) -> bool {
        self.line = None;
        self.clicks.pop().is_some()
    }

    /// Decides the current position within `limits` (at once when the
    /// clicks so far followed a winning line found earlier).
    pub fn verdict(&mut self, limits: &Limits) -> TilesVerdict {
        let mut v = TilesVerdict {
            verdict: String::new(),
            proof: None,
            limit: None,
            hint: None,
            solution: None,
            nodes: 0,
            seconds: 0.0,
        };
        match self.status() {
            TilesStatus::Won => {
                v.verdict = "won".into();
                return v;
            }
            TilesStatus::Lost => {
                v.verdict = "lost".into();
                v.proof = Some("tray-full".into());
                return v;
            }
            TilesStatus::Playing => {}
        }
        if let Some(line) = &self.line {
            v.verdict = "winnable".into();
            v.hint = line.last().copied();
            v.solution = Some(line.iter().rev().copied().collect());
            return v;
        }
        let out = solve_from(&self.level, &self.clicks, limits)
            .expect("a game's clicks are legal: click() checks each");
        v.nodes = out.nodes;
        v.seconds = out.seconds;
        match out.verdict {
            Verdict::Solved(line) => {
                v.verdict = "winnable".into();
                v.hint = line.first().copied();
                self.line = Some(line.iter().rev().copied().collect());
                v.solution = Some(line);
            }
            Verdict::Unsolvable(proof) => {
                v.verdict = "lost".into();
                v.proof = Some(
                    match proof {
                        Proof::TileCounts { .. } => "tile-counts",
                        Proof::Search => "search",
                    }
                    .into(),
                );
            }
            Verdict::Unknown(limit) => {
                v.verdict = "unknown".into();
                v.limit = Some(limit);
            }
        }
        v
    }

    pub fn view(&self) -> TilesView {
        let (board, last) = self.board();
        let mut tiles: Vec<TileView> = (0..self.level.len())
            .filter(|&i| !board.gone().contains(i))
            .map(|i| {
                let t = self.level.tiles()[i];
                TileView {
                    id: i,
                    kind: t.kind,
                    layer: t.layer,
                    x: t.rect.x,
                    y: t.rect.y,
                    w: t.rect.w,
                    h: t.rect.h,
                    free: board.is_free(i),
                }
            })
            .collect();
        tiles.sort_by_key(|t| (t.layer, t.id));
        TilesView {
            tiles,
            tray: self.tray(),
            capacity: self.level.capacity(),
            total: self.level.len(),
            clicks: self.clicks.len(),
            status: status_of(&board, last),
        }
    }

    /// The tray as the game shows it: a tile joins the last of its kind, and
    /// three of a kind vanish.
    fn tray(&self) -> Vec<u32> {
        let mut tray: Vec<u32> = Vec::new();
        for &c in &self.clicks {
            let kind = self.level.tiles()[c].kind;
            let at = tray
                .iter()
                .rposition(|&k| k == kind)
                .map_or(tray.len(), |p| p + 1);
            tray.insert(at, kind);
            if tray.iter().filter(|&&k| k == kind).count() == 3 {
                tray.retain(|&k| k != kind);
            }
        }
        tray
    }
}

fn status_of(board: &Board<'_>, last: Option<Click>) -> TilesStatus {
    if last == Some(Click::Overflow) {
        TilesStatus::Lost
    } else if board.is_won() {
        TilesStatus::Won
    } else {
        TilesStatus::Playing
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Rect, Tile};

    fn tile(kind: u32, layer: i32, x: i32) -> Tile {
        Tile {
            kind,
            layer,
            rect: Rect {
                x,
                y: 0,
                w: 8,
                h: 8,
            },
        }
    }

    #[test]
    fn the_tray_groups_kinds_and_triples_vanish() {
        let tiles = vec![
            tile(1, 0, 0),
            tile(2, 0, 10),
            tile(1, 0, 20),
            tile(1, 0, 30),
            tile(2, 0, 40),
            tile(2, 0, 50),
        ];
        let level = Level::new(tiles, 7).unwrap();
        let mut g = TilesGame::new(level);
        g.click(0).unwrap();
        g.click(1).unwrap();
        g.click(2).unwrap();
        assert_eq!(g.view().tray, vec![1, 1, 2]);
        g.click(3).unwrap();
        assert_eq!(g.view().tray, vec![2]);
        assert_eq!(g.click(3), Err(PlayError::Gone(3)));
        assert!(g.undo());
        assert_eq!(g.view().tray, vec![1, 1, 2]);
    }

    #[test]
    fn covered_and_missing_tiles_are_errors() {
        let tiles = vec![tile(1, 0, 0), tile(1, 1, 2), tile(1, 0, 20)];
        let mut g = TilesGame::new(Level::new(tiles, 7).unwrap());
        assert_eq!(g.click(0), Err(PlayError::Covered(0)));
        assert_eq!(g.click(9), Err(PlayError::NoTile { tile: 9, tiles: 3 }));
        assert!(!g.view().tiles[0].free);
    }
}

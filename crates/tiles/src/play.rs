//! A level as a person plays it: clicks on free tiles, the tray in the
//! game's order, undo, and the exact solver's verdict on the position after
//! every click (still winnable or lost, with the proof's kind) and its hint.
//! The web arena and the Python environment hold a [`TilesGame`] per session.

use crate::bitset::Bits;
use crate::board::{Board, Click, Position};
use crate::check::{Ending, replay};
use crate::exact::{Limit, Limits, Proof, Verdict, solve_from};
use crate::greedy::Greedy;
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
    #[error("the line given does not win the level: {0:?}")]
    NotALine(Ending),
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

/// What clicks or undos changed since a [`Snapshot`]: the small answer a
/// front end that keeps the view applies, instead of the whole view (360
/// tiles on a classic level) after every click.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TilesChange {
    /// Tiles that left the board.
    pub gone: Vec<usize>,
    /// Tiles that came back (by undo), as the view shows them.
    pub back: Vec<TileView>,
    /// Tiles still on the board whose `free` flag changed, with its new value.
    pub free: Vec<(usize, bool)>,
    pub tray: Vec<u32>,
    pub clicks: usize,
    pub status: TilesStatus,
}

/// Which tiles were on the board and free, to compute a [`TilesChange`].
#[derive(Clone, Debug)]
pub struct Snapshot {
    gone: Bits,
    free: Bits,
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
    /// The board after the clicks, kept so that looking at it or clicking
    /// costs no replay of the game.
    position: Position,
    /// The last click filled the tray (the game is lost).
    overflowed: bool,
    /// The tray's kinds in the game's order.
    tray: Vec<u32>,
    /// What the solver established about recent positions, as
    /// `(clicks made, fact)`, oldest first, at most [`MEMORY`] entries. A
    /// verdict found there needs no search: after undo, after a click on
    /// the winning line, after a click the line can absorb
    /// ([`TilesGame::repair`]), or after any click from a lost position.
    known: Vec<(usize, Known)>,
}

/// Positions whose verdict a game remembers (the undo depth served without
/// a search). Each holds at most one line of the level's length, as `u16`
/// tile ids (two bytes a tile: 16 lines of a 900-tile level are 29 KB).
const MEMORY: usize = 16;

const _: () = assert!(crate::level::MAX_TILES <= u16::MAX as usize + 1);

/// A fact about one position.
#[derive(Clone, Debug)]
enum Known {
    /// A winning line from there, last click first.
    Line(Vec<u16>),
    /// Proved lost, with the proof's kind; every later position is lost too.
    Lost(&'static str),
}

impl TilesGame {
    pub fn new(level: Level) -> TilesGame {
        TilesGame {
            position: Board::new(&level).into_position(),
            level,
            clicks: Vec::new(),
            overflowed: false,
            tray: Vec::new(),
            known: Vec::new(),
        }
    }

    /// A game whose level is known to be won by `line` (tile ids in click
    /// order), such as a generated level's intended clicks: the first
    /// verdict needs no search. The line is checked by replaying it.
    pub fn with_line(level: Level, line: &[usize]) -> Result<TilesGame, PlayError> {
        let ending = replay(&level, line).ending;
        if ending != Ending::Won {
            return Err(PlayError::NotALine(ending));
        }
        let mut game = TilesGame::new(level);
        game.remember(Known::Line(line.iter().rev().map(|&t| t as u16).collect()));
        Ok(game)
    }

    pub fn level(&self) -> &Level {
        &self.level
    }

    pub fn clicks(&self) -> &[usize] {
        &self.clicks
    }

    /// The tray's kinds (level labels) in the game's order.
    pub fn tray(&self) -> &[u32] {
        &self.tray
    }

    /// The board after the clicks: which tiles are gone, free, covered.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The board after the clicks (a copy of the kept position).
    fn board(&self) -> Board<'_> {
        Board::at(&self.level, self.position.clone())
    }

    pub fn status(&self) -> TilesStatus {
        if self.overflowed || self.position.is_stranded() {
            TilesStatus::Lost
        } else if self.position.is_won() {
            TilesStatus::Won
        } else {
            TilesStatus::Playing
        }
    }

    /// Clicks tile `tile`, which must be free.
    pub fn click(&mut self, tile: usize) -> Result<TilesStatus, PlayError> {
        if self.status() != TilesStatus::Playing {
            return Err(PlayError::Over);
        }
        if tile >= self.level.len() {
            return Err(PlayError::NoTile {
                tile,
                tiles: self.level.len(),
            });
        }
        let mut board = Board::at(&self.level, self.position.clone());
        if board.gone().contains(tile) {
            return Err(PlayError::Gone(tile));
        }
        if !board.is_free(tile) {
            return Err(PlayError::Covered(tile));
        }
        self.overflowed = board.take(tile) == Click::Overflow;
        self.position = board.into_position();
        put_in_tray(&mut self.tray, self.level.tiles()[tile].kind);
        let before = self.known_here().cloned();
        self.clicks.push(tile);
        let after = match before {
            Some(Known::Lost(proof)) => Some(Known::Lost(proof)),
            Some(Known::Line(mut line)) if line.last().map(|&t| usize::from(t)) == Some(tile) => {
                line.pop();
                Some(Known::Line(line))
            }
            Some(Known::Line(line)) => self.repair(&line, tile).map(Known::Line),
            None => None,
        };
        if let Some(fact) = after {
            self.remember(fact);
        }
        Ok(self.status())
    }

    /// Takes back the last click (a lost game too); `false` at the start.
    pub fn undo(&mut self) -> bool {
        let Some(tile) = self.clicks.pop() else {
            return false;
        };
        let mut board = self.board();
        board.undo(tile);
        self.position = board.into_position();
        // No click follows one that filled the tray.
        self.overflowed = false;
        self.tray.clear();
        for &c in &self.clicks {
            put_in_tray(&mut self.tray, self.level.tiles()[c].kind);
        }
        let made = self.clicks.len();
        self.known.retain(|(at, _)| *at <= made);
        true
    }

    /// The remembered fact about the current position, if any.
    fn known_here(&self) -> Option<&Known> {
        self.known
            .last()
            .filter(|(at, _)| *at == self.clicks.len())
            .map(|(_, fact)| fact)
    }

    fn remember(&mut self, fact: Known) {
        if self.known.len() == MEMORY {
            self.known.remove(0);
        }
        self.known.push((self.clicks.len(), fact));
    }

    /// After a click on `tile` off the winning `line` (last click first,
    /// from the position before it): the same line without `tile`, if it
    /// still wins from here. Checked by replaying it, so a repaired line is
    /// as much a proof as a searched one; a person who strays from the hint
    /// by a tile the line takes later often keeps a winning line this way,
    /// without a new search.
    fn repair(&self, line: &[u16], tile: usize) -> Option<Vec<u16>> {
        let rest: Vec<u16> = line
            .iter()
            .copied()
            .filter(|&t| usize::from(t) != tile)
            .collect();
        if self.overflowed {
            return None;
        }
        let mut board = self.board();
        for t in rest.iter().rev().map(|&t| usize::from(t)) {
            if !board.is_free(t) || board.take(t) == Click::Overflow {
                return None;
            }
        }
        board.is_won().then_some(rest)
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
        if self.known_here().is_none() {
            let out = solve_from(&self.level, &self.clicks, limits)
                .expect("a game's clicks are legal: click() checks each");
            v.nodes = out.nodes;
            v.seconds = out.seconds;
            match out.verdict {
                Verdict::Solved(line) => self.remember(Known::Line(
                    line.into_iter().rev().map(|t| t as u16).collect(),
                )),
                Verdict::Unsolvable(Proof::TileCounts { .. }) => {
                    self.remember(Known::Lost("tile-counts"))
                }
                Verdict::Unsolvable(Proof::Search) => self.remember(Known::Lost("search")),
                Verdict::Unknown(limit) => {
                    v.verdict = "unknown".into();
                    v.limit = Some(limit);
                    return v;
                }
            }
        }
        match self.known_here().expect("remembered above") {
            Known::Line(line) => {
                v.verdict = "winnable".into();
                v.hint = line.last().map(|&t| usize::from(t));
                v.solution = Some(line.iter().rev().map(|&t| usize::from(t)).collect());
            }
            Known::Lost(proof) => {
                v.verdict = "lost".into();
                v.proof = Some((*proof).into());
            }
        }
        v
    }

    /// The greedy player's next click ([`Greedy::choose`]): a move for
    /// positions the solver could not decide or proved lost. `None` once the
    /// game is over.
    pub fn greedy_hint(&self) -> Option<usize> {
        if self.status() != TilesStatus::Playing {
            return None;
        }
        let board = self.board();
        Greedy::new(&self.level).choose(&board)
    }

    /// The board's state, to diff against later ([`TilesGame::change_since`]).
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            gone: self.position.gone().clone(),
            free: self.position.free().clone(),
        }
    }

    /// What changed on the board since `before` (a snapshot of this game).
    pub fn change_since(&self, before: &Snapshot) -> TilesChange {
        let board = &self.position;
        let (mut gone, mut back, mut free) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..self.level.len() {
            let (was_gone, is_gone) = (before.gone.contains(i), board.gone().contains(i));
            let is_free = board.free().contains(i);
            match (was_gone, is_gone) {
                (false, true) => gone.push(i),
                (true, false) => back.push(self.tile_view(i, is_free)),
                (false, false) if before.free.contains(i) != is_free => free.push((i, is_free)),
                _ => {}
            }
        }
        TilesChange {
            gone,
            back,
            free,
            tray: self.tray.clone(),
            clicks: self.clicks.len(),
            status: self.status(),
        }
    }

    fn tile_view(&self, i: usize, free: bool) -> TileView {
        let t = self.level.tiles()[i];
        TileView {
            id: i,
            kind: t.kind,
            layer: t.layer,
            x: t.rect.x,
            y: t.rect.y,
            w: t.rect.w,
            h: t.rect.h,
            free,
        }
    }

    pub fn view(&self) -> TilesView {
        let board = &self.position;
        let mut tiles: Vec<TileView> = (0..self.level.len())
            .filter(|&i| !board.gone().contains(i))
            .map(|i| self.tile_view(i, board.free().contains(i)))
            .collect();
        tiles.sort_by_key(|t| (t.layer, t.id));
        TilesView {
            tiles,
            tray: self.tray.clone(),
            capacity: self.level.capacity(),
            total: self.level.len(),
            clicks: self.clicks.len(),
            status: self.status(),
        }
    }
}

/// Puts a tile of `kind` in the tray as the game shows it: it joins the
/// last of its kind, and three of a kind vanish.
fn put_in_tray(tray: &mut Vec<u32>, kind: u32) {
    let at = tray
        .iter()
        .rposition(|&k| k == kind)
        .map_or(tray.len(), |p| p + 1);
    tray.insert(at, kind);
    if tray.iter().filter(|&&k| k == kind).count() == 3 {
        tray.retain(|&k| k != kind);
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

    /// `n` tiles six to a layer, each layer shifted half a tile over the one
    /// below, of `kinds` types in turn, with a tray of `capacity`.
    fn stacked(n: usize, kinds: usize, capacity: usize) -> Level {
        let tiles = (0..n)
            .map(|i| tile((i % kinds) as u32 + 1, (i / 6) as i32, 4 * (i % 6) as i32))
            .collect();
        Level::new(tiles, capacity).unwrap()
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
    fn a_given_line_is_checked_and_answers_the_first_verdict() {
        let tiles = vec![tile(1, 0, 0), tile(1, 0, 10), tile(1, 0, 20)];
        let level = Level::new(tiles, 7).unwrap();
        assert!(matches!(
            TilesGame::with_line(level.clone(), &[0, 1]),
            Err(PlayError::NotALine(Ending::Unfinished { remaining: 1 }))
        ));
        assert!(TilesGame::with_line(level.clone(), &[0, 1, 1]).is_err());
        let mut g = TilesGame::with_line(level, &[2, 0, 1]).unwrap();
        let v = g.verdict(&Limits::nodes(0));
        assert_eq!(
            (v.verdict.as_str(), v.hint, v.nodes),
            ("winnable", Some(2), 0)
        );
    }

    /// Applying each change to the view before it gives the view after, for
    /// random clicks and undos.
    #[test]
    fn changes_applied_to_the_view_give_the_next_view() {
        let mut rng = arcade_core::Rng::new(5);
        let mut g = TilesGame::new(stacked(30, 5, 7));
        let (mut undos, mut freed) = (0, 0);
        for _ in 0..400 {
            let (before, snap) = (g.view(), g.snapshot());
            let free: Vec<usize> = before
                .tiles
                .iter()
                .filter(|t| t.free)
                .map(|t| t.id)
                .collect();
            if before.status != TilesStatus::Playing || free.is_empty() || rng.chance(0.3) {
                undos += usize::from(g.undo());
            } else {
                g.click(free[rng.index(free.len())]).unwrap();
            }
            let change = g.change_since(&snap);
            freed += change.free.len();
            let mut tiles: Vec<TileView> = before
                .tiles
                .into_iter()
                .filter(|t| !change.gone.contains(&t.id))
                .chain(change.back.iter().copied())
                .map(|mut t| {
                    if let Some(&(_, f)) = change.free.iter().find(|(id, _)| *id == t.id) {
                        t.free = f;
                    }
                    t
                })
                .collect();
            tiles.sort_by_key(|t| (t.layer, t.id));
            let after = g.view();
            assert_eq!(tiles, after.tiles);
            assert_eq!(
                (&change.tray, change.clicks, change.status),
                (&after.tray, after.clicks, after.status)
            );
        }
        assert!(
            undos > 50 && freed > 50,
            "{undos} undos, {freed} free flips"
        );
    }

    #[test]
    fn covered_and_missing_tiles_are_errors() {
        let tiles = vec![tile(1, 0, 0), tile(1, 1, 2), tile(1, 0, 20)];
        let mut g = TilesGame::new(Level::new(tiles, 7).unwrap());
        assert_eq!(g.click(0), Err(PlayError::Covered(0)));
        assert_eq!(g.click(9), Err(PlayError::NoTile { tile: 9, tiles: 3 }));
        assert!(!g.view().tiles[0].free);
    }

    /// Playing the greedy hints click by click is the greedy player's
    /// playout, won or lost, and there is no hint once the game is over.
    #[test]
    fn greedy_hints_replay_the_greedy_playout() {
        use crate::generate::construct;
        use crate::greedy::play_greedy;
        use crate::layout::Classic;
        let (mut won, mut lost) = (0, 0);
        for seed in 0..12 {
            let level = construct(&Classic::new(14), 7, 0.5, seed).unwrap().level;
            let mut g = TilesGame::new(level.clone());
            while let Some(t) = g.greedy_hint() {
                g.click(t).unwrap();
            }
            let playout = play_greedy(&level);
            assert_eq!(g.clicks(), playout.clicks, "seed {seed}");
            let want = [TilesStatus::Lost, TilesStatus::Won][usize::from(playout.won)];
            assert_eq!(g.status(), want, "seed {seed}");
            won += usize::from(playout.won);
            lost += usize::from(!playout.won);
        }
        assert!(
            won >= 2 && lost >= 2,
            "both endings exercised: {won} won, {lost} lost"
        );
    }

    /// The kept board and tray are always the clicks replayed from the start, through
    /// clicks (random or greedy), undos, lost games (a tray of 6) and undos
    /// of those.
    #[test]
    fn the_kept_board_is_the_clicks_replayed() {
        let mut rng = arcade_core::Rng::new(9);
        let mut g = TilesGame::new(stacked(36, 4, 6));
        let (mut clicks, mut undos, mut lost, mut won) = (0, 0, 0, 0);
        for _ in 0..4000 {
            let free: Vec<usize> = g.position().free().iter().collect();
            if g.status() != TilesStatus::Playing {
                // Back far enough that the tray is not one click from full.
                for _ in 0..1 + rng.index(8) {
                    undos += usize::from(g.undo());
                }
            } else if rng.chance(0.2) {
                undos += usize::from(g.undo());
            } else {
                // Greedy four clicks in five, so that some games are won.
                let greedy = g.greedy_hint().filter(|_| rng.chance(0.8));
                g.click(greedy.unwrap_or(free[rng.index(free.len())]))
                    .unwrap();
                clicks += 1;
            }
            let mut replayed = Board::new(&g.level);
            let last = g.clicks.iter().map(|&c| replayed.take(c)).last();
            assert_eq!(g.board().into_position(), replayed.into_position());
            let mut tray = Vec::new();
            for &c in &g.clicks {
                put_in_tray(&mut tray, g.level.tiles()[c].kind);
            }
            assert_eq!(g.tray(), tray);
            let want = match last {
                Some(Click::Overflow) => TilesStatus::Lost,
                _ if g.clicks.len() == 36 => TilesStatus::Won,
                _ => TilesStatus::Playing,
            };
            assert_eq!(g.status(), want);
            lost += usize::from(want == TilesStatus::Lost);
            won += usize::from(want == TilesStatus::Won);
        }
        assert!(
            clicks > 2000 && undos > 2000 && lost >= 20 && won >= 20,
            "{clicks} {undos} {lost} {won}"
        );
    }
}

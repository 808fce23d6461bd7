//! One game stepped from outside, one placement at a time: the loop of a
//! reinforcement-learning agent (the Python environments drive this).
//!
//! An action is a (rotation, column) pair, `rotation · width + column`, with
//! the piece hard-dropped there ([`MoveMode::Drop`]), so the action space has
//! a fixed size (`4 · width`) and [`Env::action_mask`] says which actions are
//! legal placements of the current piece. Two variants:
//! - [`Variant::Classic`]: classic rules, any board size, a seeded or explicit
//!   piece stream, reward = rows cleared (what `arcade tetris play` plays);
//! - [`Variant::Geek`]: the Geek Challenge (10×20, its 10,000-piece sequence,
//!   spawn rotations and scoring, [`crate::geek::lock`]), reward = points.

use crate::board::{Board, BoardError, MAX_HEIGHT, MAX_WIDTH};
use crate::features;
use crate::game::{End, spawn_fits};
use crate::geek;
use crate::movegen::{self, MoveMode, Placement};
use crate::piece::Piece;
use crate::rules::Rules;
use crate::source::{PieceSource, Randomizer};
use thiserror::Error;

/// Rotation states an action can name.
pub const ROTATIONS: usize = 4;

/// Which game is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Classic rules; pieces from `pieces` (seeded per episode) or a fixed
    /// sequence; reward = rows cleared.
    Classic { pieces: Pieces },
    /// The Geek Challenge; reward = its points.
    Geek,
}

/// Where a classic game's pieces come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pieces {
    Random(Randomizer),
    /// This sequence every episode; the game ends when it runs out.
    Sequence(Vec<Piece>),
}

/// What a game is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvConfig {
    pub width: usize,
    pub height: usize,
    pub variant: Variant,
    /// Ends the episode (truncation, not a loss) after this many pieces.
    pub max_pieces: Option<u64>,
}

impl Default for EnvConfig {
    fn default() -> EnvConfig {
        EnvConfig {
            width: 10,
            height: 20,
            variant: Variant::Classic {
                pieces: Pieces::Random(Randomizer::Uniform),
            },
            max_pieces: None,
        }
    }
}

/// Bad configurations and illegal actions.
#[derive(Debug, PartialEq, Eq, Error)]
pub enum EnvError {
    #[error(transparent)]
    Board(#[from] BoardError),
    #[error("the Geek Challenge is played on a 10x20 board, not {width}x{height}")]
    GeekSize { width: usize, height: usize },
    #[error("the piece sequence is empty")]
    EmptySequence,
    #[error("max_pieces must be at least 1")]
    NoPieces,
    #[error("action {action} is out of range (0 to {})", .actions - 1)]
    OutOfRange { action: usize, actions: usize },
    #[error("action {action} (rotation {rotation}, column {col}) is not a legal placement")]
    Illegal {
        action: usize,
        rotation: usize,
        col: usize,
    },
    #[error("the game is over: reset it first")]
    Over,
}

/// The eight 0/1 cells of each byte of a board row, lowest bit first.
const BYTE_CELLS: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut x = 0;
        while x < 8 {
            table[b][x] = ((b >> x) & 1) as u8;
            x += 1;
        }
        b += 1;
    }
    table
};

/// What one step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepOutcome {
    /// Rows cleared (classic) or points scored (Geek).
    pub reward: u64,
    pub lines: u32,
    /// Set once the game is over.
    pub end: Option<End>,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Env {
    config: EnvConfig,
    rules: Rules,
    board: Board,
    source: PieceSource,
    current: Option<Piece>,
    next: Option<Piece>,
    placements: Vec<Placement>,
    /// For each action, its index in `placements`, or `u16::MAX`.
    slot: Vec<u16>,
    lines: u64,
    pieces: u64,
    score: u64,
    end: Option<End>,
}

impl Env {
    /// A new game; `seed` seeds a random piece stream exactly as
    /// `arcade tetris play --seed` does.
    pub fn new(config: EnvConfig, seed: u64) -> Result<Env, EnvError> {
        let board = Board::new(config.width, config.height)?;
        if config.max_pieces == Some(0) {
            return Err(EnvError::NoPieces);
        }
        let (rules, source) = match &config.variant {
            Variant::Classic { pieces } => {
                let source = match pieces {
                    Pieces::Random(kind) => PieceSource::random(*kind, seed),
                    Pieces::Sequence(s) if s.is_empty() => return Err(EnvError::EmptySequence),
                    Pieces::Sequence(s) => PieceSource::sequence(s.clone()),
                };
                (Rules::classic(), source)
            }
            Variant::Geek => {
                if (config.width, config.height) != (geek::WIDTH, geek::HEIGHT) {
                    return Err(EnvError::GeekSize {
                        width: config.width,
                        height: config.height,
                    });
                }
                (
                    Rules::geek(),
                    PieceSource::sequence(geek::sequence(geek::PIECES)),
                )
            }
        };
        let mut env = Env {
            slot: vec![u16::MAX; ROTATIONS * config.width],
            config,
            rules,
            board,
            source,
            current: None,
            next: None,
            placements: Vec::new(),
            lines: 0,
            pieces: 0,
            score: 0,
            end: None,
        };
        env.current = env.source.next();
        env.next = env.source.next();
        env.prepare();
        Ok(env)
    }

    /// Starts the same kind of game again with a new seed.
    pub fn reset(&mut self, seed: u64) {
        *self = Env::new(self.config.clone(), seed).expect("the configuration was checked");
    }

    /// Size of the action space: `4 · width`.
    pub fn actions(&self) -> usize {
        self.slot.len()
    }

    /// Writes 1 for each legal action, 0 elsewhere (all 0 once over, unless
    /// truncated: a truncated game could go on).
    pub fn action_mask(&self, out: &mut [u8]) {
        for (o, &s) in out.iter_mut().zip(&self.slot) {
            *o = u8::from(s != u16::MAX);
        }
    }

    /// The legal placements of the current piece, in action order.
    pub fn legal_actions(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.slot.len()).filter(|&a| self.slot[a] != u16::MAX)
    }

    /// The features of the field each action leaves ([`features::Feature::ALL`]
    /// order, [`features::COUNT`] values an action): what the classic linear
    /// AIs value, so a Python agent can learn such a value. Illegal actions
    /// get zeros, as does every action once the game is over (unless it was
    /// truncated, which leaves the legal placements).
    pub fn afterstate_features(&self, out: &mut [f64]) {
        out.fill(0.0);
        let Some(piece) = self.current else {
            return;
        };
        let top = self.board.stack_height();
        for (a, &slot) in self.slot.iter().enumerate() {
            if slot == u16::MAX {
                continue;
            }
            let p = self.placements[slot as usize];
            let shape = self.rules.shape(piece, p.rotation as usize);
            let v = features::afterstate(&self.board, top, shape, p.col as usize, p.row as usize);
            out[a * features::COUNT..(a + 1) * features::COUNT].copy_from_slice(&v.0);
        }
    }

    /// The action that places the current piece at `p`, if `p` is legal.
    pub fn action_of(&self, p: Placement) -> Option<usize> {
        let a = p.rotation as usize * self.config.width + p.col as usize;
        (self.slot.get(a).is_some_and(|&s| s != u16::MAX)
            && self.placements[self.slot[a] as usize] == p)
            .then_some(a)
    }

    /// Locks the current piece where `action` says.
    pub fn step(&mut self, action: usize) -> Result<StepOutcome, EnvError> {
        if self.end.is_some() {
            return Err(EnvError::Over);
        }
        let slot = *self.slot.get(action).ok_or(EnvError::OutOfRange {
            action,
            actions: self.slot.len(),
        })?;
        if slot == u16::MAX {
            return Err(EnvError::Illegal {
                action,
                rotation: action / self.config.width,
                col: action % self.config.width,
            });
        }
        let p = self.placements[slot as usize];
        let piece = self.current.expect("a game that is not over has a piece");
        let (reward, lines) = match self.config.variant {
            Variant::Classic { .. } => {
                let shape = self.rules.shape(piece, p.rotation as usize);
                let lock = self.board.lock(shape, p.col as usize, p.row as usize);
                (u64::from(lock.lines), lock.lines)
            }
            Variant::Geek => {
                let last = self.pieces as usize + 1 == geek::PIECES;
                let locked = geek::lock(&self.rules, &self.board, piece, p, last);
                self.board = locked.board;
                if locked.topped_out {
                    self.end = Some(End::ToppedOut);
                }
                (locked.points, locked.lines)
            }
        };
        self.pieces += 1;
        self.lines += u64::from(lines);
        self.score += reward;
        self.current = self.next;
        self.next = self.source.next();
        self.prepare();
        Ok(StepOutcome {
            reward,
            lines,
            end: self.end,
        })
    }

    /// Finds the current piece's placements and decides whether the game is over.
    fn prepare(&mut self) {
        self.slot.fill(u16::MAX);
        self.placements.clear();
        if self.end.is_none() {
            self.end = self.ended();
        }
        // A truncated game could go on: its mask and features still show
        // the current piece's placements (a learner bootstraps from them).
        let Some(piece) = self
            .current
            .filter(|_| self.end.is_none() || self.is_truncated())
        else {
            return;
        };
        let spawn = match self.config.variant {
            Variant::Classic { .. } => 0,
            Variant::Geek => geek::spawn_rotation(self.pieces as usize),
        };
        movegen::placements(
            &self.rules,
            &self.board,
            piece,
            spawn,
            MoveMode::Drop,
            &mut self.placements,
        );
        for (i, p) in self.placements.iter().enumerate() {
            let a = p.rotation as usize * self.config.width + p.col as usize;
            // Drop mode lands each (rotation, column) at one row.
            if self.slot[a] == u16::MAX {
                self.slot[a] = i as u16;
            }
        }
        if self.placements.is_empty() && self.end.is_none() {
            self.end = Some(End::ToppedOut);
        }
    }

    fn ended(&self) -> Option<End> {
        if self.config.max_pieces.is_some_and(|m| self.pieces >= m) {
            return Some(End::PieceLimit);
        }
        let Some(piece) = self.current else {
            return Some(End::SequenceEnd);
        };
        let classic = matches!(self.config.variant, Variant::Classic { .. });
        (classic && !spawn_fits(&self.rules, &self.board, piece)).then_some(End::ToppedOut)
    }

    /// Why the game ended, once it has.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// True once the game can take no more actions.
    pub fn is_over(&self) -> bool {
        self.end().is_some()
    }

    /// Whether the game was cut short by the piece cap rather than ended by
    /// its rules (a top-out, or the end of the sequence: no piece is left).
    pub fn is_truncated(&self) -> bool {
        self.end == Some(End::PieceLimit)
    }

    /// Writes the visible field as 0/1 cells, top row first, `height × width`
    /// (as many whole rows as `out` holds).
    pub fn write_board(&self, out: &mut [u8]) {
        let (w, h) = (self.config.width, self.config.height);
        // The vector environments write every board after every step, so:
        // eight cells a table lookup, each row's 16 cells stored whole at
        // its offset (the next row overwrites the spare ones), and one copy
        // out at the end instead of a short variable-length copy a row.
        let mut cells = [0u8; MAX_WIDTH * MAX_HEIGHT + 16];
        for r in 0..h {
            let bits = self.board.row(h - 1 - r);
            let at = r * w;
            cells[at..at + 8].copy_from_slice(&BYTE_CELLS[usize::from(bits & 0xff)]);
            cells[at + 8..at + 16].copy_from_slice(&BYTE_CELLS[usize::from(bits >> 8)]);
        }
        let n = (w * h).min(out.len() / w * w);
        out[..n].copy_from_slice(&cells[..n]);
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn config(&self) -> &EnvConfig {
        &self.config
    }

    /// The piece to place now (`None` once the sequence ran out).
    pub fn current(&self) -> Option<Piece> {
        self.current
    }

    /// The preview piece.
    pub fn next_piece(&self) -> Option<Piece> {
        self.next
    }

    pub fn lines(&self) -> u64 {
        self.lines
    }

    pub fn pieces(&self) -> u64 {
        self.pieces
    }

    /// Rows (classic) or points (Geek) so far.
    pub fn score(&self) -> u64 {
        self.score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::{COUNT, Feature, FeatureSet};
    use proptest::prelude::*;

    /// Every action's afterstate features against the real step: the board
    /// features of the field the step leaves, its rows cleared, and the
    /// placement's landing height; zeros for illegal actions and ended games.
    /// Classic games on two boards and Geek games.
    #[test]
    fn afterstate_features_are_what_the_step_leaves() {
        let configs = [
            EnvConfig {
                width: 6,
                height: 8,
                ..EnvConfig::default()
            },
            EnvConfig::default(),
            EnvConfig {
                variant: Variant::Geek,
                ..EnvConfig::default()
            },
        ];
        let (mut checked, mut clearing, mut games) = (0, 0, 0);
        for (k, config) in configs.into_iter().enumerate() {
            let mut env = Env::new(config, 5 + k as u64).unwrap();
            let weights = crate::Weights::resolve("bcts").unwrap();
            let mut bcts = crate::Player::new(env.rules.clone(), weights, MoveMode::Drop, false);
            let mut f = vec![0.0; env.actions() * COUNT];
            for t in 0..600 {
                if env.is_over() {
                    env.afterstate_features(&mut f);
                    assert!(f.iter().all(|&x| x == 0.0));
                    env.reset(t as u64);
                    games += 1;
                }
                env.afterstate_features(&mut f);
                let legal: Vec<usize> = env.legal_actions().collect();
                for a in 0..env.actions() {
                    let row = &f[a * COUNT..(a + 1) * COUNT];
                    if !legal.contains(&a) {
                        assert!(row.iter().all(|&x| x == 0.0), "illegal action {a}");
                        continue;
                    }
                    let p = env.placements[env.slot[a] as usize];
                    let shape = env.rules.shape(env.current.unwrap(), p.rotation as usize);
                    let mut stepped = env.clone();
                    let out = stepped.step(a).unwrap();
                    let board = features::board_values(
                        stepped.board(),
                        stepped.board().height(),
                        FeatureSet::ALL,
                    );
                    for feature in Feature::ALL {
                        let got = row[feature.index()];
                        let want = match feature {
                            Feature::LinesCleared => f64::from(out.lines),
                            Feature::LandingHeight => {
                                p.row as f64 + f64::from(shape.height - 1) / 2.0
                            }
                            // Checked against a grid by `features`' own tests.
                            Feature::ErodedCells => got,
                            _ => board.get(feature),
                        };
                        assert_eq!(got, want, "{feature:?}, action {a}, step {t}, config {k}");
                    }
                    checked += 1;
                    clearing += usize::from(out.lines > 0);
                }
                // BCTS's move mostly (long games, rows cleared), a fixed
                // pattern one step in sixteen (other fields).
                let ai = bcts
                    .choose(env.board(), env.current.unwrap(), env.next)
                    .and_then(|p| env.action_of(p));
                let pattern = legal[(t * 7 + 3) % legal.len()];
                env.step(if t % 16 == 15 {
                    pattern
                } else {
                    ai.unwrap_or(pattern)
                })
                .unwrap();
            }
        }
        // Exercised: tens of thousands of placements, hundreds clearing rows,
        // and the zeros of games that ended.
        assert!(
            checked > 20_000 && clearing > 500 && games >= 3,
            "{checked} checked, {clearing} clearing, {games} games ended"
        );
    }

    proptest! {
        /// The table-driven board writer against a cell-by-cell one.
        #[test]
        fn write_board_matches_the_cells(
            width in 4usize..=16,
            height in 4usize..=32,
            rows in proptest::collection::vec(any::<u16>(), 32),
        ) {
            let config = EnvConfig { width, height, ..EnvConfig::default() };
            let mut env = Env::new(config, 0).unwrap();
            let mut board = Board::new(width, height).unwrap();
            for (y, bits) in rows.iter().take(height).enumerate() {
                for x in (0..width).filter(|x| bits >> x & 1 == 1) {
                    board.set(x, y);
                }
            }
            env.board = board;
            let mut fast = vec![9u8; width * height];
            env.write_board(&mut fast);
            let naive: Vec<u8> = (0..height)
                .flat_map(|r| (0..width).map(move |x| (r, x)))
                .map(|(r, x)| u8::from(board.row(height - 1 - r) >> x & 1 == 1))
                .collect();
            prop_assert_eq!(fast, naive);
        }
    }
}

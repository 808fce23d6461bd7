//! A game played in real time: a falling piece moved by key presses, gravity
//! counted in ticks (60 a second, like the NES), classic rules. The web
//! arena's `/tetris` page drives it, stamping every key press with the tick it
//! happened on, so the game depends only on the ticks and never on when the
//! requests arrive. An AI can play the same game a placement at a time
//! ([`LiveGame::place`]).
//!
//! Movement is that of [`crate::movegen::follow`]: a step that does not fit is
//! ignored, rotations have no kicks. A piece locks when gravity or a soft drop
//! cannot move it down (no lock delay, as on the NES), or at once on a hard
//! drop. Locking with a cell above the visible field ends the game, as does a
//! spawn that does not fit ([`crate::Rules::classic`]).

use crate::board::{Board, BoardError};
use crate::colours::ColouredBoard;
use crate::game::{End, spawn_fits};
use crate::movegen::{self, MoveMode, Op, Placement};
use crate::piece::Piece;
use crate::player::Player;
use crate::rules::Rules;
use crate::source::PieceSource;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Ticks per second of game time.
pub const TICKS_PER_SECOND: u64 = 60;

/// Most ticks one [`LiveGame::advance`] may cover (a minute): bounds the work
/// a single call can ask for.
pub const MAX_ADVANCE: u64 = 60 * TICKS_PER_SECOND;

/// Highest starting level (gravity is one row a tick from level 29 on).
pub const MAX_START_LEVEL: u32 = 29;

/// Ticks per row of gravity by level: the NES NTSC table (levels 0–29; one
/// tick a row beyond).
const GRAVITY: [u32; 30] = [
    48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    1,
];

/// Points for clearing 1–4 rows, times (level + 1): the NES scoring.
const LINE_POINTS: [u64; 4] = [40, 100, 300, 1200];

/// A key press.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Left,
    Right,
    /// Soft drop: one row down, locking if the piece cannot move.
    Down,
    /// A held ↓ repeating: a soft drop of the piece its `Down` press began
    /// on, nothing once that piece has locked, so a key still held never
    /// drops the next piece (as on the NES).
    #[serde(rename = "down_held")]
    DownHeld,
    /// Rotate clockwise.
    Cw,
    /// Rotate counter-clockwise.
    Ccw,
    /// Hard drop: straight down, then lock.
    Drop,
}

/// Inputs that cannot be applied.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum LiveError {
    #[error("tick {to} is before the game's tick {now}")]
    Past { to: u64, now: u64 },
    #[error("advancing {ticks} ticks at once is more than the limit of {MAX_ADVANCE}")]
    TooFar { ticks: u64 },
    #[error("input {index} is at tick {tick}, outside ticks {from} to {to} or out of order")]
    InputTick {
        index: usize,
        tick: u64,
        from: u64,
        to: u64,
    },
    #[error("start level {0} is above {MAX_START_LEVEL}")]
    Level(u32),
    #[error(transparent)]
    Board(#[from] BoardError),
}

/// Board cells `(x, y)`, `y = 0` at the bottom.
pub type Cells = Vec<(i32, i32)>;

/// The piece in the air: its rotation state and pivot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Falling {
    pub piece: Piece,
    pub rotation: usize,
    pub x: i32,
    pub y: i32,
}

/// The last piece locked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Locked {
    pub piece: Piece,
    pub placement: Placement,
    /// Its cells `(x, y)`, `y = 0` at the bottom, before rows cleared.
    pub cells: Vec<(i32, i32)>,
    pub lines: u32,
}

/// One game in progress.
#[derive(Clone, Debug)]
pub struct LiveGame {
    rules: Rules,
    board: Board,
    colours: ColouredBoard,
    source: PieceSource,
    falling: Option<Falling>,
    next: Option<Piece>,
    tick: u64,
    /// Ticks since the piece last moved down.
    fall_timer: u32,
    start_level: u32,
    lines: u64,
    pieces: u64,
    clears: [u64; 4],
    score: u64,
    end: Option<End>,
    last: Option<Locked>,
    /// The piece count when ↓ was last pressed: `DownHeld` acts only on it.
    down_pressed_on: Option<u64>,
}

impl LiveGame {
    /// A new game on an empty `width`×`height` board; the first piece is in
    /// the air at tick 0.
    pub fn new(
        width: usize,
        height: usize,
        mut source: PieceSource,
        start_level: u32,
    ) -> Result<LiveGame, LiveError> {
        if start_level > MAX_START_LEVEL {
            return Err(LiveError::Level(start_level));
        }
        let board = Board::new(width, height)?;
        let next = source.next();
        let mut game = LiveGame {
            rules: Rules::classic(),
            colours: ColouredBoard::new(width, height),
            board,
            source,
            falling: None,
            next,
            tick: 0,
            fall_timer: 0,
            start_level,
            lines: 0,
            pieces: 0,
            clears: [0; 4],
            score: 0,
            end: None,
            last: None,
            down_pressed_on: None,
        };
        game.spawn();
        Ok(game)
    }

    /// Takes the next piece; ends the game if there is none or it cannot appear.
    fn spawn(&mut self) {
        let Some(piece) = self.next else {
            self.falling = None;
            self.end = Some(End::SequenceEnd);
            return;
        };
        self.next = self.source.next();
        self.fall_timer = 0;
        if !spawn_fits(&self.rules, &self.board, piece) {
            self.falling = None;
            self.end = Some(End::ToppedOut);
            return;
        }
        let (x, y) = self
            .rules
            .spawn(piece, 0, self.board.width(), self.board.height());
        self.falling = Some(Falling {
            piece,
            rotation: 0,
            x,
            y,
        });
    }

    fn fits(&self, f: &Falling) -> bool {
        self.rules
            .shape(f.piece, f.rotation)
            .cells
            .iter()
            .all(|&(dx, dy)| !self.board.filled(f.x + i32::from(dx), f.y + i32::from(dy)))
    }

    /// Moves the falling piece if the result fits.
    fn try_move(&mut self, dr: usize, dx: i32, dy: i32) -> bool {
        let Some(f) = self.falling else {
            return false;
        };
        let moved = Falling {
            rotation: (f.rotation + dr) % 4,
            x: f.x + dx,
            y: f.y + dy,
            ..f
        };
        if self.fits(&moved) {
            self.falling = Some(moved);
            true
        } else {
            false
        }
    }

    /// Applies one key press now.
    pub fn act(&mut self, action: Action) {
        if self.end.is_some() {
            return;
        }
        match action {
            Action::Left => {
                self.try_move(0, -1, 0);
            }
            Action::Right => {
                self.try_move(0, 1, 0);
            }
            Action::Cw => {
                self.try_move(1, 0, 0);
            }
            Action::Ccw => {
                self.try_move(3, 0, 0);
            }
            Action::Down => {
                self.down_pressed_on = Some(self.pieces);
                self.soft_drop();
            }
            Action::DownHeld => {
                if self.down_pressed_on == Some(self.pieces) {
                    self.soft_drop();
                }
            }
            Action::Drop => {
                while self.try_move(0, 0, -1) {}
                self.lock_falling();
            }
        }
    }

    /// One row down, locking the piece if it cannot move.
    fn soft_drop(&mut self) {
        if self.try_move(0, 0, -1) {
            self.fall_timer = 0;
        } else {
            self.lock_falling();
        }
    }

    /// One tick of gravity.
    fn gravity(&mut self) {
        if self.end.is_some() {
            return;
        }
        self.fall_timer += 1;
        if self.fall_timer >= GRAVITY[self.level().min(29) as usize] {
            self.fall_timer = 0;
            if !self.try_move(0, 0, -1) {
                self.lock_falling();
            }
        }
    }

    /// Runs the game to tick `to`: at each tick, first the inputs stamped
    /// with it (in order), then gravity. Inputs must be sorted by tick and
    /// lie in `now + 1 ..= to`. Stops early when the game ends.
    pub fn advance(&mut self, to: u64, inputs: &[(u64, Action)]) -> Result<(), LiveError> {
        let now = self.tick;
        if to < now {
            return Err(LiveError::Past { to, now });
        }
        if to - now > MAX_ADVANCE {
            return Err(LiveError::TooFar { ticks: to - now });
        }
        let mut previous = now + 1;
        for (index, &(tick, _)) in inputs.iter().enumerate() {
            if tick < previous || tick > to {
                return Err(LiveError::InputTick {
                    index,
                    tick,
                    from: now + 1,
                    to,
                });
            }
            previous = tick;
        }
        let mut pending = inputs.iter().peekable();
        for t in now + 1..=to {
            if self.end.is_some() {
                break;
            }
            self.tick = t;
            while let Some(&(_, action)) = pending.next_if(|(tick, _)| *tick == t) {
                self.act(action);
            }
            self.gravity();
        }
        self.tick = self.tick.max(to);
        Ok(())
    }

    fn lock_falling(&mut self) {
        let Some(f) = self.falling.take() else {
            return;
        };
        let shape = self.rules.shape(f.piece, f.rotation);
        let placement = Placement {
            rotation: self.rules.canonical(f.piece, f.rotation) as u8,
            col: (f.x + i32::from(shape.min_dx)) as u8,
            row: (f.y + i32::from(shape.min_dy)) as u8,
        };
        self.lock_at(f.piece, placement);
    }

    /// Locks `piece` at `placement` (which must fit), scores it and spawns the
    /// next piece; a lock above the visible field ends the game.
    fn lock_at(&mut self, piece: Piece, placement: Placement) {
        let shape = self.rules.shape(piece, placement.rotation as usize);
        let (col, row) = (usize::from(placement.col), usize::from(placement.row));
        if row + shape.height as usize > self.board.height() {
            self.end = Some(End::ToppedOut);
            self.falling = None;
            return;
        }
        let cells: Vec<(i32, i32)> = shape.cells_at(col as i32, row as i32).collect();
        let level = self.level();
        let lock = self.board.lock(shape, col, row);
        self.colours.lock(&self.rules, piece, placement);
        self.pieces += 1;
        if lock.lines > 0 {
            self.lines += u64::from(lock.lines);
            self.clears[lock.lines as usize - 1] += 1;
            self.score += LINE_POINTS[lock.lines as usize - 1] * (u64::from(level) + 1);
        }
        self.last = Some(Locked {
            piece,
            placement,
            cells,
            lines: lock.lines,
        });
        self.spawn();
    }

    /// Locks the current piece at `placement`, as an AI does; `false` (and
    /// nothing changes) if it is not a resting placement the piece can reach
    /// in `mode`.
    pub fn place(&mut self, placement: Placement, mode: MoveMode) -> bool {
        let Some(f) = self.falling else {
            return false;
        };
        let mut legal = Vec::new();
        movegen::placements(&self.rules, &self.board, f.piece, 0, mode, &mut legal);
        if !legal.contains(&placement) {
            return false;
        }
        self.falling = None;
        self.lock_at(f.piece, placement);
        true
    }

    /// Lets `player` choose and lock the current piece (what `arcade tetris
    /// play` does with the same player); `None` when the game is over, the
    /// placement otherwise. A player with no legal placement ends the game.
    pub fn ai_step(&mut self, player: &mut Player) -> Option<Placement> {
        let f = self.falling?;
        match player.choose(&self.board, f.piece, self.next) {
            Some(p) => {
                self.falling = None;
                self.lock_at(f.piece, p);
                Some(p)
            }
            None => {
                self.falling = None;
                self.end = Some(End::ToppedOut);
                None
            }
        }
    }

    /// Where `player` would put the current piece on this board.
    pub fn suggest(&self, player: &mut Player) -> Option<Placement> {
        let f = self.falling?;
        player.choose(&self.board, f.piece, self.next)
    }

    /// Cells `(x, y)` of `piece` at `placement`.
    pub fn cells_of(&self, piece: Piece, placement: Placement) -> Vec<(i32, i32)> {
        self.rules
            .shape(piece, placement.rotation as usize)
            .cells_at(i32::from(placement.col), i32::from(placement.row))
            .collect()
    }

    /// Cells of the falling piece, and where a hard drop would put them.
    pub fn falling_cells(&self) -> Option<(Cells, Cells)> {
        let f = self.falling?;
        let cells = |g: &Falling| -> Vec<(i32, i32)> {
            self.rules
                .shape(g.piece, g.rotation)
                .cells
                .iter()
                .map(|&(dx, dy)| (g.x + i32::from(dx), g.y + i32::from(dy)))
                .collect()
        };
        let mut landing = f;
        while self.fits(&Falling {
            y: landing.y - 1,
            ..landing
        }) {
            landing.y -= 1;
        }
        Some((cells(&f), cells(&landing)))
    }

    pub fn level(&self) -> u32 {
        self.start_level + (self.lines / 10).min(u64::from(u32::MAX / 2)) as u32
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn colours(&self) -> &ColouredBoard {
        &self.colours
    }

    pub fn falling(&self) -> Option<Falling> {
        self.falling
    }

    pub fn next(&self) -> Option<Piece> {
        self.next
    }

    pub fn tick(&self) -> u64 {
        self.tick
    }

    pub fn lines(&self) -> u64 {
        self.lines
    }

    pub fn pieces(&self) -> u64 {
        self.pieces
    }

    pub fn clears(&self) -> [u64; 4] {
        self.clears
    }

    pub fn score(&self) -> u64 {
        self.score
    }

    pub fn end(&self) -> Option<End> {
        self.end
    }

    pub fn last(&self) -> Option<&Locked> {
        self.last.as_ref()
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

/// Whether `placement` of `piece` on `board` needs more than a turn, a shift
/// and a hard drop (a tuck or a slide under an overhang).
pub fn is_tuck(rules: &Rules, board: &Board, piece: Piece, placement: Placement) -> bool {
    let mut drops = Vec::new();
    movegen::placements(rules, board, piece, 0, MoveMode::Drop, &mut drops);
    !drops.contains(&placement)
}

/// The way a tucking piece goes: the centre of its cells after each step of
/// a shortest path from the spawn to `placement` (empty if unreachable).
pub fn route(rules: &Rules, board: &Board, piece: Piece, placement: Placement) -> Vec<(f32, f32)> {
    let Some(ops) = movegen::path(rules, board, piece, 0, MoveMode::Reach, placement) else {
        return Vec::new();
    };
    let (mut x, mut y) = rules.spawn(piece, 0, board.width(), board.height());
    let mut r = 0;
    let centre = |r: usize, x: i32, y: i32| {
        let cells = rules.shape(piece, r).cells;
        let sx: i32 = cells.iter().map(|c| i32::from(c.0)).sum();
        let sy: i32 = cells.iter().map(|c| i32::from(c.1)).sum();
        (x as f32 + sx as f32 / 4.0, y as f32 + sy as f32 / 4.0)
    };
    let mut out = vec![centre(r, x, y)];
    for op in ops {
        (r, x, y) = match op {
            Op::Left => (r, x - 1, y),
            Op::Right => (r, x + 1, y),
            Op::Down => (r, x, y - 1),
            Op::Clockwise => ((r + 1) % 4, x, y),
            Op::CounterClockwise => ((r + 3) % 4, x, y),
        };
        out.push(centre(r, x, y));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Weights;
    use crate::game::{self, Limits};
    use crate::source::Randomizer;

    fn sequence(letters: &str) -> PieceSource {
        PieceSource::sequence(PieceSource::parse_sequence(letters).unwrap())
    }

    #[test]
    fn four_flat_pieces_clear_a_row() {
        // I flat at the left, I flat next to it, O at the right: one row.
        let mut g = LiveGame::new(10, 20, sequence("IIOT"), 0).unwrap();
        let keys = [
            vec![Action::Left, Action::Left, Action::Left, Action::Drop],
            vec![Action::Right, Action::Drop],
            vec![
                Action::Right,
                Action::Right,
                Action::Right,
                Action::Right,
                Action::Drop,
            ],
        ];
        let mut tick = 0;
        for piece_keys in keys {
            let inputs: Vec<(u64, Action)> = piece_keys
                .iter()
                .enumerate()
                .map(|(i, &a)| (tick + 1 + i as u64, a))
                .collect();
            tick += piece_keys.len() as u64;
            g.advance(tick, &inputs).unwrap();
        }
        assert_eq!(g.pieces(), 3);
        assert_eq!(g.lines(), 1);
        assert_eq!(g.score(), 40);
        // The O's upper half is all that is left, at the right.
        assert_eq!(g.board().row(0), 0b11 << 8);
        assert_eq!(g.board().row(1), 0);
    }

    #[test]
    fn gravity_locks_a_piece_on_the_floor_in_level_time() {
        let mut g = LiveGame::new(10, 20, PieceSource::random(Randomizer::Uniform, 3), 0).unwrap();
        // From above the field to row 0: 21 rows at 48 ticks, then one more
        // gravity tick that finds the floor and locks.
        let rows = 20 + 1;
        g.advance(48 * rows - 1, &[]).unwrap();
        assert_eq!(g.pieces(), 0);
        g.advance(48 * rows + 48, &[]).unwrap();
        assert_eq!(g.pieces(), 1);
    }

    #[test]
    fn a_held_soft_drop_stops_with_its_piece() {
        let mut g = LiveGame::new(10, 20, sequence("IIOT"), 0).unwrap();
        // ↓ pressed at tick 1, then held: a repeat every 2 ticks for 2 seconds.
        let mut inputs = vec![(1, Action::Down)];
        inputs.extend((1..60).map(|i| (1 + 2 * i, Action::DownHeld)));
        g.advance(120, &inputs).unwrap();
        assert_eq!(g.pieces(), 1, "the held key locked its own piece only");
        let second = g.falling().unwrap();
        // The next piece fell by gravity alone since its spawn (48 ticks a row).
        assert!(
            second.y >= 20 - 2,
            "the next piece was dropped to {}",
            second.y
        );
        // A new press holds again.
        let inputs: Vec<(u64, Action)> = std::iter::once((121, Action::Down))
            .chain((1..60).map(|i| (121 + 2 * i, Action::DownHeld)))
            .collect();
        g.advance(240, &inputs).unwrap();
        assert_eq!(g.pieces(), 2);
        // Without a press first, a repeat does nothing.
        let mut fresh = LiveGame::new(10, 20, sequence("IIOT"), 0).unwrap();
        let start = fresh.falling().unwrap().y;
        fresh
            .advance(10, &[(1, Action::DownHeld), (3, Action::DownHeld)])
            .unwrap();
        assert_eq!(fresh.falling().unwrap().y, start);
    }

    #[test]
    fn bad_inputs_are_refused() {
        let mut g = LiveGame::new(10, 20, sequence("TTTT"), 0).unwrap();
        g.advance(10, &[]).unwrap();
        assert!(matches!(g.advance(5, &[]), Err(LiveError::Past { .. })));
        assert!(matches!(
            g.advance(10 + MAX_ADVANCE + 1, &[]),
            Err(LiveError::TooFar { .. })
        ));
        let late = [(12, Action::Left), (11, Action::Left)];
        assert!(matches!(
            g.advance(20, &late),
            Err(LiveError::InputTick { index: 1, .. })
        ));
        assert!(matches!(
            g.advance(20, &[(21, Action::Left)]),
            Err(LiveError::InputTick { .. })
        ));
        assert_eq!(g.tick(), 10, "a refused advance changes nothing");
        assert!(LiveGame::new(10, 20, sequence("T"), 30).is_err());
    }

    /// The AI playing the live game places every piece where `game::play`
    /// does with the same player and pieces, and the coloured board follows.
    #[test]
    fn ai_steps_match_the_game_loop() {
        for (ai, mode) in [("el-tetris", MoveMode::Drop), ("bcts", MoveMode::Reach)] {
            let weights = Weights::builtin(ai).unwrap();
            let mut a = Player::new(Rules::classic(), weights.clone(), mode, false);
            let mut b = Player::new(Rules::classic(), weights, mode, false);
            let mut expected = Vec::new();
            let limits = Limits {
                max_pieces: Some(500),
                max_lines: None,
            };
            let mut source = PieceSource::random(Randomizer::Uniform, 7);
            let result = game::play(
                &mut a,
                Board::new(10, 20).unwrap(),
                &mut source,
                limits,
                |s| expected.push(s.placement),
            );
            let mut g =
                LiveGame::new(10, 20, PieceSource::random(Randomizer::Uniform, 7), 0).unwrap();
            let mut got = Vec::new();
            while got.len() < 500 {
                let Some(p) = g.ai_step(&mut b) else { break };
                got.push(p);
                for y in 0..20 {
                    for x in 0..10 {
                        assert_eq!(
                            g.colours().get(x, y).is_some(),
                            g.board().filled(x as i32, y as i32)
                        );
                    }
                }
            }
            assert_eq!(got, expected, "{ai}");
            assert_eq!(g.lines(), result.lines);
        }
    }

    #[test]
    fn place_refuses_unreachable_placements() {
        let mut g = LiveGame::new(10, 20, sequence("OO"), 0).unwrap();
        let floating = Placement {
            rotation: 0,
            col: 0,
            row: 5,
        };
        assert!(!g.place(floating, MoveMode::Reach));
        assert!(g.place(
            Placement {
                rotation: 0,
                col: 0,
                row: 0
            },
            MoveMode::Drop
        ));
        assert_eq!(g.pieces(), 1);
    }

    #[test]
    fn a_slide_under_a_roof_is_a_tuck_with_its_route() {
        let rules = Rules::classic();
        let mut board = Board::new(10, 20).unwrap();
        for x in 0..4 {
            board.set(x, 2);
        }
        let under = Placement {
            rotation: 0,
            col: 0,
            row: 0,
        };
        assert!(is_tuck(&rules, &board, Piece::O, under));
        let way = route(&rules, &board, Piece::O, under);
        assert_eq!(way.last(), Some(&(0.5, 0.5)), "ends on the O's centre");
        assert!(way.windows(2).all(|w| {
            let d = (w[1].0 - w[0].0).abs() + (w[1].1 - w[0].1).abs();
            d <= 1.0
        }));
        let on_top = Placement {
            rotation: 0,
            col: 0,
            row: 3,
        };
        assert!(!is_tuck(&rules, &board, Piece::O, on_top));
    }

    #[test]
    fn a_stack_to_the_top_ends_the_game() {
        let mut g = LiveGame::new(10, 20, sequence(&"O".repeat(40)), 0).unwrap();
        for i in 0..40u64 {
            if g.end().is_some() {
                break;
            }
            g.advance(i + 1, &[(i + 1, Action::Drop)]).unwrap();
        }
        assert_eq!(g.end(), Some(End::ToppedOut));
        assert_eq!(g.pieces(), 10, "ten O pieces fill the middle two columns");
    }
}

//! Playing a whole game.

use crate::board::{Board, Lock};
use crate::movegen::Placement;
use crate::piece::Piece;
use crate::player::Player;
use crate::rules::Rules;
use crate::source::PieceSource;
use arcade_core::text::counted;
use serde::{Deserialize, Serialize};

/// Optional caps on a game's length.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    pub max_pieces: Option<u64>,
    pub max_lines: Option<u64>,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// No legal placement: the piece could not spawn or would lock above
    /// the visible field.
    ToppedOut,
    PieceLimit,
    LineLimit,
    /// An explicit piece sequence ran out.
    SequenceEnd,
    /// The caller stopped the game ([`play_while`]).
    Stopped,
}

impl End {
    /// The snake_case name used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            End::ToppedOut => "topped_out",
            End::PieceLimit => "piece_limit",
            End::LineLimit => "line_limit",
            End::SequenceEnd => "sequence_end",
            End::Stopped => "stopped",
        }
    }
}

/// The outcome of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    pub lines: u64,
    pub pieces: u64,
    /// Clears of 1, 2, 3 and 4 rows.
    pub clears: [u64; 4],
    pub end: End,
}

/// One locked piece, as seen by an observer (the terminal view, tests).
pub struct Step<'a> {
    /// The board after the lock and its line clears.
    pub board: &'a Board,
    pub piece: Piece,
    pub placement: Placement,
    pub lock: Lock,
    pub next: Option<Piece>,
    pub lines: u64,
    pub pieces: u64,
}

/// Plays from `board` until a limit, a top-out or the end of the pieces,
/// calling `observe` after every lock.
pub fn play(
    player: &mut Player,
    board: Board,
    source: &mut PieceSource,
    limits: Limits,
    mut observe: impl FnMut(&Step),
) -> GameResult {
    play_while(player, board, source, limits, |step| {
        observe(step);
        true
    })
}

/// As [`play`], and ends the game as [`End::Stopped`] when `observe`
/// returns false: a 10×20 game can run for many minutes, and a caller such
/// as Python's Ctrl-C must be able to stop it.
pub fn play_while(
    player: &mut Player,
    mut board: Board,
    source: &mut PieceSource,
    limits: Limits,
    mut observe: impl FnMut(&Step) -> bool,
) -> GameResult {
    let mut result = GameResult {
        lines: 0,
        pieces: 0,
        clears: [0; 4],
        end: End::SequenceEnd,
    };
    let mut current = source.next();
    let mut next = source.next();
    result.end = loop {
        if limits.max_pieces.is_some_and(|m| result.pieces >= m) {
            break End::PieceLimit;
        }
        if limits.max_lines.is_some_and(|m| result.lines >= m) {
            break End::LineLimit;
        }
        let Some(piece) = current else {
            break End::SequenceEnd;
        };
        if !spawn_fits(player.rules(), &board, piece) {
            break End::ToppedOut;
        }
        let Some(placement) = player.choose(&board, piece, next) else {
            break End::ToppedOut;
        };
        let shape = player.rules().shape(piece, placement.rotation as usize);
        let lock = board.lock(shape, placement.col as usize, placement.row as usize);
        result.pieces += 1;
        result.lines += u64::from(lock.lines);
        if lock.lines > 0 {
            result.clears[lock.lines as usize - 1] += 1;
        }
        let go_on = observe(&Step {
            board: &board,
            piece,
            placement,
            lock,
            next,
            lines: result.lines,
            pieces: result.pieces,
        });
        if !go_on {
            break End::Stopped;
        }
        current = next;
        next = source.next();
    };
    result
}

/// Whether `piece` can appear in its spawn position (classic rules end the
/// game when it cannot).
pub(crate) fn spawn_fits(rules: &Rules, board: &Board, piece: Piece) -> bool {
    let (px, py) = rules.spawn(piece, 0, board.width(), board.height());
    let shape = rules.shape(piece, 0);
    board.fits(
        shape,
        px + i32::from(shape.min_dx),
        py + i32::from(shape.min_dy),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Weights;
    use crate::movegen::MoveMode;
    use crate::source::Randomizer;

    fn bcts() -> Player {
        Player::new(
            Rules::classic(),
            Weights::builtin("bcts").unwrap(),
            MoveMode::Drop,
            false,
        )
    }

    #[test]
    fn counts_are_consistent_and_limits_stop_the_game() {
        let mut source = PieceSource::random(Randomizer::Uniform, 1);
        let board = Board::new(10, 10).unwrap();
        let limits = Limits {
            max_pieces: Some(500),
            max_lines: None,
        };
        let mut cells_locked = 0u64;
        let mut last_board = board;
        let r = play(&mut bcts(), board, &mut source, limits, |s| {
            cells_locked += 4;
            last_board = *s.board;
        });
        assert_eq!(r.end, End::PieceLimit);
        assert_eq!(r.pieces, 500);
        let from_clears: u64 = r
            .clears
            .iter()
            .enumerate()
            .map(|(i, c)| (i as u64 + 1) * c)
            .sum();
        assert_eq!(from_clears, r.lines);
        // Every locked cell is either still on the board or went with a line.
        let on_board: u64 = last_board
            .rows()
            .iter()
            .map(|r| u64::from(r.count_ones()))
            .sum();
        assert_eq!(cells_locked, on_board + 10 * r.lines);
    }

    #[test]
    fn a_stopped_game_ends_where_the_full_game_was() {
        let board = Board::new(10, 10).unwrap();
        let limits = Limits {
            max_pieces: Some(400),
            max_lines: None,
        };
        let mut boards = Vec::new();
        let mut source = PieceSource::random(Randomizer::Uniform, 3);
        let full = play(&mut bcts(), board, &mut source, limits, |s| {
            boards.push((*s.board, s.lines));
        });
        assert_eq!(full.end, End::PieceLimit);
        let mut last = None;
        let mut source = PieceSource::random(Randomizer::Uniform, 3);
        let stopped = play_while(&mut bcts(), board, &mut source, limits, |s| {
            last = Some((*s.board, s.lines));
            s.pieces < 137
        });
        assert_eq!((stopped.end, stopped.pieces), (End::Stopped, 137));
        assert_eq!(last, Some(boards[136]));
        assert_eq!(stopped.lines, boards[136].1);
        assert_eq!(End::Stopped.as_str(), "stopped");
    }

    #[test]
    fn a_game_on_a_tiny_board_tops_out() {
        let mut source = PieceSource::random(Randomizer::Uniform, 2);
        let r = play(
            &mut bcts(),
            Board::new(4, 4).unwrap(),
            &mut source,
            Limits::default(),
            |_| {},
        );
        assert_eq!(r.end, End::ToppedOut);
    }

    #[test]
    fn sequences_end_the_game_when_exhausted() {
        let mut source = PieceSource::sequence(vec![Piece::I, Piece::I, Piece::O]);
        let r = play(
            &mut bcts(),
            Board::new(10, 20).unwrap(),
            &mut source,
            Limits::default(),
            |_| {},
        );
        assert_eq!((r.end, r.pieces), (End::SequenceEnd, 3));
    }

    #[test]
    fn same_seed_same_game() {
        let run = |seed| {
            let mut source = PieceSource::random(Randomizer::Bag, seed);
            play(
                &mut bcts(),
                Board::new(8, 8).unwrap(),
                &mut source,
                Limits::default(),
                |_| {},
            )
        };
        assert_eq!(run(5), run(5));
    }
}

/// The result `arcade tetris play` prints: one game and its speed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayReport {
    pub ai: String,
    pub board: String,
    pub seed: u64,
    pub lines: u64,
    pub pieces: u64,
    pub clears: [u64; 4],
    pub end: End,
    pub seconds: f64,
    pub pieces_per_sec: f64,
    /// Every placement in order, when asked for (`--placements`): what the
    /// web arena's AI ghost is checked against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placements: Option<Vec<Placement>>,
}

impl PlayReport {
    pub fn new(ai: &str, board: &Board, seed: u64, r: &GameResult, seconds: f64) -> PlayReport {
        PlayReport {
            ai: ai.to_string(),
            board: format!("{}x{}", board.width(), board.height()),
            seed,
            lines: r.lines,
            pieces: r.pieces,
            clears: r.clears,
            end: r.end,
            seconds,
            pieces_per_sec: r.pieces as f64 / seconds,
            placements: None,
        }
    }
}

impl std::fmt::Display for PlayReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} on {}: {}, {} in {:.2} s ({:.0} pieces/s); clears 1/2/3/4: {:?}; ended: {}",
            self.ai,
            self.board,
            counted(self.lines, "line"),
            counted(self.pieces, "piece"),
            self.seconds,
            self.pieces_per_sec,
            self.clears,
            self.end.as_str()
        )
    }
}

//! What `solve`, `hardest`, `generate` and `bench` answer, as typed reports
//! (`--json` is their serialisation, text their `Display`) that a web
//! handler or a Python binding hands out unchanged.

use crate::bench::{BenchReport, bench};
use crate::challenges::Challenge;
use crate::generate::{GenerateError, generate};
use crate::hardest::{HardestReport, PieceSet, hardest};
use crate::position::Position;
use crate::solve::{Piece, Step, replay, solve};
use arcade_core::progress::Progress;
use arcade_core::stats::show_ci95;
use arcade_core::text::counted;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Instant;

/// A position as people read it: the five board lines and the challenge
/// code (none for four rabbits, which codes cannot name).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub board: Vec<String>,
    pub code: Option<String>,
}

impl Board {
    pub fn of(p: &Position) -> Board {
        Board {
            board: p.to_string().lines().map(str::to_string).collect(),
            code: p.to_code(),
        }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for line in &self.board {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// One move of a solution and the board after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepAfter {
    #[serde(flatten)]
    pub step: Step,
    /// The board after the move (text form only).
    #[serde(skip)]
    pub after: Vec<String>,
}

/// A shortest solution of a puzzle, or "no solution".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveReport {
    pub start: Board,
    pub solvable: bool,
    pub moves: Option<usize>,
    pub solution: Option<Vec<StepAfter>>,
    pub states_explored: usize,
    pub seconds: f64,
}

/// The solver's moves did not replay: a bug, never an answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("internal error: the solution does not replay")]
pub struct ReplayFailed;

/// Solves `start` and describes the solution move by move.
pub fn solve_report(start: &Position) -> Result<SolveReport, ReplayFailed> {
    let clock = Instant::now();
    let out = solve(start);
    let seconds = clock.elapsed().as_secs_f64();
    let solution = match &out.solution {
        Some(moves) => {
            let steps = replay(start, moves).ok_or(ReplayFailed)?;
            Some(
                steps
                    .into_iter()
                    .map(|(step, after)| StepAfter {
                        step,
                        after: Board::of(&after).board,
                    })
                    .collect::<Vec<_>>(),
            )
        }
        None => None,
    };
    Ok(SolveReport {
        start: Board::of(start),
        solvable: solution.is_some(),
        moves: solution.as_ref().map(Vec::len),
        solution,
        states_explored: out.states_explored,
        seconds,
    })
}

fn step_text(s: &Step) -> String {
    let piece = match s.piece {
        Piece::Rabbit => "rabbit",
        Piece::Fox => "fox",
    };
    format!(
        "{piece} ({},{}) -> ({},{})",
        s.from[0], s.from[1], s.to[0], s.to[1]
    )
}

impl fmt::Display for SolveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (states, seconds) = (self.states_explored, self.seconds);
        write!(f, "{}", self.start)?;
        let states = counted(states, "state");
        let Some(steps) = &self.solution else {
            return writeln!(f, "No solution ({states} explored, {seconds:.4} s).");
        };
        if steps.is_empty() {
            return writeln!(f, "Already solved: every rabbit is in a hole.");
        }
        writeln!(
            f,
            "Shortest solution: {} ({states} explored, {seconds:.4} s).",
            counted(steps.len(), "move")
        )?;
        for (i, s) in steps.iter().enumerate() {
            write!(f, "\n{}. {}\n", i + 1, step_text(&s.step))?;
            for line in &s.after {
                writeln!(f, "{line}")?;
            }
        }
        Ok(())
    }
}

/// "3 rabbits, 1 fox, 2 mushrooms".
fn describe_pieces(p: PieceSet) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{}, {}, {}",
        plural(p.rabbits, "rabbit", "rabbits"),
        plural(p.foxes, "fox", "foxes"),
        plural(p.mushrooms, "mushroom", "mushrooms")
    )
}

/// A ranked position: its board, code and optimal move count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankedBoard {
    #[serde(flatten)]
    pub board: Board,
    pub moves: u32,
}

/// The exhaustive search of a piece set, as reported.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HardestSummary {
    pub rabbits: usize,
    pub foxes: usize,
    pub mushrooms: usize,
    pub max_moves: Option<u32>,
    pub hardest: Vec<RankedBoard>,
    pub positions: u64,
    pub solvable: u64,
    pub unsolvable: u64,
    pub solved: u64,
    /// Positions by optimal move count.
    pub histogram: Vec<u64>,
    pub layouts: usize,
    pub components: usize,
    pub states_reached: u64,
    pub seconds: f64,
    pub threads: usize,
}

impl HardestSummary {
    pub fn new(r: &HardestReport, seconds: f64) -> HardestSummary {
        let c = &r.counts;
        HardestSummary {
            rabbits: r.pieces.rabbits,
            foxes: r.pieces.foxes,
            mushrooms: r.pieces.mushrooms,
            max_moves: r.max_moves(),
            hardest: r
                .hardest
                .iter()
                .map(|h| RankedBoard {
                    board: Board::of(&h.position),
                    moves: h.moves,
                })
                .collect(),
            positions: c.positions,
            solvable: c.solvable(),
            unsolvable: c.unsolvable(),
            solved: c.solved(),
            histogram: c.histogram.clone(),
            layouts: r.layouts,
            components: r.components,
            states_reached: r.states_reached,
            seconds,
            threads: r.threads,
        }
    }
}

/// Searches every position of `pieces` (on the current rayon pool) and
/// keeps the `top` hardest.
pub fn hardest_report(pieces: PieceSet, top: usize, progress: &Progress) -> HardestSummary {
    let start = Instant::now();
    let report = hardest(pieces, top, progress);
    HardestSummary::new(&report, start.elapsed().as_secs_f64())
}

impl fmt::Display for HardestSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pieces = PieceSet {
            rabbits: self.rabbits,
            foxes: self.foxes,
            mushrooms: self.mushrooms,
        };
        writeln!(
            f,
            "{}: {} mushroom layouts up to symmetry, {} components, {} states searched in {:.1} s on {} thread{}",
            describe_pieces(pieces),
            self.layouts,
            self.components,
            self.states_reached,
            self.seconds,
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )?;
        writeln!(
            f,
            "  positions {}: solvable {}, already solved {}, unsolvable {}",
            self.positions, self.solvable, self.solved, self.unsolvable
        )?;
        let Some(max) = self.max_moves else {
            return writeln!(
                f,
                "  no position needs a move: each is solved already or cannot be solved"
            );
        };
        writeln!(
            f,
            "  longest optimal solution: {max} moves ({} positions, symmetric images counted apart)",
            self.histogram.get(max as usize).copied().unwrap_or(0)
        )?;
        for (i, h) in self.hardest.iter().enumerate() {
            let code = h.board.code.as_deref().unwrap_or_default();
            write!(f, "\n#{} {} moves  {code}\n{}", i + 1, h.moves, h.board)?;
        }
        Ok(())
    }
}

/// A generated puzzle, as reported.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerateReport {
    #[serde(flatten)]
    pub board: Board,
    /// Its optimal solution length.
    pub moves: u32,
    pub requested: u32,
    /// False when no position needs exactly `requested` moves and this is
    /// one of the longest below.
    pub exact: bool,
    pub seed: u64,
    pub rabbits: usize,
    pub foxes: usize,
    pub mushrooms: usize,
    pub components_searched: usize,
    pub seconds: f64,
}

/// Generates a puzzle of `pieces` whose optimal solution takes `moves`
/// (or the longest below), on the current rayon pool.
pub fn generate_report(
    pieces: PieceSet,
    moves: u32,
    seed: u64,
    progress: &Progress,
) -> Result<GenerateReport, GenerateError> {
    let start = Instant::now();
    let g = generate(pieces, moves, seed, progress)?;
    Ok(GenerateReport {
        board: Board::of(&g.position),
        moves: g.moves,
        requested: moves,
        exact: g.exact,
        seed,
        rabbits: pieces.rabbits,
        foxes: pieces.foxes,
        mushrooms: pieces.mushrooms,
        components_searched: g.components_searched,
        seconds: start.elapsed().as_secs_f64(),
    })
}

impl fmt::Display for GenerateReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pieces = PieceSet {
            rabbits: self.rabbits,
            foxes: self.foxes,
            mushrooms: self.mushrooms,
        };
        if !self.exact {
            writeln!(
                f,
                "note: no position with {} needs exactly {} moves; this is one of the longest, {} moves",
                describe_pieces(pieces),
                self.requested,
                self.moves
            )?;
        }
        write!(f, "{}", self.board)?;
        writeln!(
            f,
            "code {}, optimal solution {} moves (seed {}, {} components searched, {:.2} s)",
            self.board.code.as_deref().unwrap_or_default(),
            self.moves,
            self.seed,
            self.components_searched,
            self.seconds
        )
    }
}

/// A challenge whose solution length differs from the listed minimum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MismatchView {
    pub number: u32,
    pub expected: u32,
    pub found: Option<u32>,
}

/// Timing the solver on a challenge list, as reported.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchSummary {
    pub challenges: usize,
    pub passes: u64,
    pub mean_seconds: f64,
    /// None for a single pass.
    pub ci95: Option<[f64; 2]>,
    pub min_seconds: f64,
    /// None beyond 2^20 passes (the pass times are then no longer kept).
    pub median_seconds: Option<f64>,
    pub states_explored: u64,
    pub total_moves: u64,
    pub mismatches: Vec<MismatchView>,
    /// The solver runs on one thread.
    pub threads: usize,
}

/// Solves `list` `passes` times on the calling thread and summarises.
pub fn bench_report(list: &[Challenge], passes: u64) -> BenchSummary {
    let r: BenchReport = bench(list, passes);
    let t = &r.pass_micros;
    BenchSummary {
        challenges: r.challenges,
        passes: t.n,
        mean_seconds: t.mean() / 1e6,
        ci95: t.ci95().map(|ci| [ci.low / 1e6, ci.high / 1e6]),
        min_seconds: t.min.unwrap_or(0) as f64 / 1e6,
        median_seconds: t.median().map(|m| m / 1e6),
        states_explored: r.states_explored,
        total_moves: r.total_moves,
        mismatches: r
            .mismatches
            .iter()
            .map(|m| MismatchView {
                number: m.number,
                expected: m.expected,
                found: m.found,
            })
            .collect(),
        threads: 1,
    }
}

impl fmt::Display for BenchSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} challenges, {} on one thread: {:.4} s per pass ({}, median {}, best {:.4})",
            self.challenges,
            counted(self.passes, "pass"),
            self.mean_seconds,
            show_ci95(self.ci95, 4),
            self.median_seconds
                .map_or("not kept".to_string(), |m| format!("{m:.4}")),
            self.min_seconds
        )?;
        writeln!(
            f,
            "  {} optimal moves in total, {} states explored per pass, {} mismatches with the listed minimums",
            self.total_moves,
            self.states_explored,
            self.mismatches.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_code;

    #[test]
    fn solve_reports_read_back_and_print_each_move() {
        let start = parse_code("C31B42G34M302203FE11").unwrap();
        let r = solve_report(&start).unwrap();
        assert!(r.solvable);
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["moves"], r.moves.unwrap());
        assert!(v["solution"][0]["piece"].is_string());
        let text = r.to_string();
        assert!(text.contains("Shortest solution"), "{text}");
        assert!(text.contains("1. "), "{text}");
        let back: SolveReport = serde_json::from_value(v).unwrap();
        assert_eq!(back.moves, r.moves);
    }

    #[test]
    fn generate_and_hardest_reports_have_their_keys() {
        let pieces = PieceSet {
            rabbits: 2,
            foxes: 1,
            mushrooms: 1,
        };
        let g = generate_report(pieces, 6, 7, &Progress::hidden()).unwrap();
        let v = serde_json::to_value(&g).unwrap();
        for key in ["board", "code", "moves", "requested", "exact", "seed"] {
            assert!(v.get(key).is_some(), "{key} in {v}");
        }
        let h = hardest_report(pieces, 2, &Progress::hidden());
        let v = serde_json::to_value(&h).unwrap();
        assert_eq!(v["hardest"][0]["moves"], h.max_moves.unwrap());
        assert!(v["hardest"][0]["board"].is_array());
        assert_eq!(serde_json::from_value::<HardestSummary>(v).unwrap(), h);
        // With no list (`--top 0`) the longest is still known from the counts.
        let bare = hardest_report(pieces, 0, &Progress::hidden());
        assert!(bare.hardest.is_empty());
        assert_eq!(bare.max_moves, h.max_moves);
        assert_eq!(bare.histogram.len() as u32, h.max_moves.unwrap() + 1);
        assert!(
            bare.to_string().contains("longest optimal solution"),
            "{bare}"
        );
        // Two rabbits alone: some positions are solved, none needs a move.
        let rabbits = PieceSet {
            rabbits: 2,
            foxes: 0,
            mushrooms: 0,
        };
        let alone = hardest_report(rabbits, 3, &Progress::hidden());
        assert!(alone.solved > 0 && alone.max_moves.is_none(), "{alone}");
        assert!(
            alone.to_string().contains("no position needs a move"),
            "{alone}"
        );
        let e = generate_report(rabbits, 3, 1, &Progress::hidden()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("no position with this piece set needs a move"),
            "{e}"
        );
    }
}

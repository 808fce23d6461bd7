//! Beam search over the known piece sequence.
//!
//! Every field in the beam is expanded by every placement of the next piece;
//! children are ranked by score so far plus the field's value
//! ([`GeekWeights`]); equal fields are merged (the future of a field does not
//! depend on how it was reached, so only the best score matters); the best
//! `beam` survive. Parent links are kept per level and pruned to the
//! ancestors of the live beam, so memory stays small and the whole state can
//! be checkpointed and resumed.

use super::record::Record;
use super::replay;
use super::select::{Candidate, Selector};
use super::value::{GeekWeights, Outlook};
use super::{HEIGHT, PIECES, WIDTH, empty_board, lock, sequence, spawn_rotation};
use crate::board::Board;
use crate::features::FeatureSet;
use crate::movegen::{self, MoveMode, Op, Placement};
use crate::piece::Piece;
use crate::rules::Rules;
use arcade_core::checkpoint::{self, CheckpointError};
use arcade_core::progress::Progress;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;
use thiserror::Error;

/// What to search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchConfig {
    /// Fields kept per piece.
    pub beam: usize,
    pub mode: MoveMode,
    /// Also allow placements that float in the air and complete a row.
    pub float: bool,
    /// Play the first `pieces` pieces of the sequence (10,000 for the game).
    pub pieces: usize,
    pub weights: GeekWeights,
    /// Fields kept beyond the beam each piece: those with the fewest filled
    /// cells. Tuned weights prize filled cells and lean on the beam to steer
    /// clear of topping out; a narrow beam can fill up everywhere at once and
    /// die, and these low fields give it a way back (0: none).
    #[serde(default)]
    pub reserve: usize,
}

impl SearchConfig {
    /// The reserve used unless one is asked for: an eighth of the beam, at
    /// least four fields: enough for every beam width tried to play all
    /// 10,000 pieces (measured in `docs/results/geek.md`).
    pub fn default_reserve(beam: usize) -> usize {
        (beam / 8).max(4)
    }
}

/// One field of the beam.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
struct Node {
    board: Board,
    score: u64,
}

/// How each field of one level was reached: its parent's index in the level
/// before and the placement made.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Level {
    parent: Vec<u32>,
    placement: Vec<Placement>,
}

/// What every field of the beam is expanded with at one depth.
#[derive(Clone, Copy)]
struct Turn {
    piece: Piece,
    rotation: usize,
    /// The final piece of the game (it scores nothing).
    last: bool,
    needs: FeatureSet,
    /// What follows the piece (the value looks ahead).
    outlook: Outlook,
    /// How much the value counts: 1 until the last [`END_FADE`] pieces.
    fade: f64,
}

/// Over the last pieces the value fades to 0: cells left on the field when
/// the game ends score nothing, so the end cashes them in. A fade over 10
/// pieces gained 420–520 points at every width measured, 800 to 16,000
/// (`docs/results/geek.md`, "The end of the game").
pub const END_FADE: usize = 10;

/// The value's weight when `left` pieces follow the one being placed.
fn fade(left: usize) -> f64 {
    (left as f64 / END_FADE as f64).min(1.0)
}

/// A finished search's best game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub score: u64,
    /// One placement per piece played.
    pub placements: Vec<Placement>,
}

/// A search in progress: everything needed to continue it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Search {
    pub config: SearchConfig,
    /// Pieces placed so far.
    depth: usize,
    beam: Vec<Node>,
    levels: Vec<Level>,
    /// Set when no field of the beam can take the next piece.
    stuck: bool,
    /// Placements fixed before the search began (an opening taken from a
    /// record); every new round starts after them.
    #[serde(default)]
    opening: Vec<Placement>,
    #[serde(skip)]
    scratch: Scratch,
}

#[derive(Debug, Error)]
pub enum SearchError {
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    #[error("the opening has {opening} pieces; it must leave some of the {pieces} to search")]
    OpeningTooLong { opening: usize, pieces: usize },
    #[error("piece {piece} of the opening does not fit on the field")]
    OpeningMisfit { piece: usize },
    #[error(
        "the record has {}, fewer than the {asked} asked for",
        arcade_core::text::counted(pieces, "piece")
    )]
    ShortRecord { pieces: usize, asked: usize },
    #[error("the game ends at piece {piece} of the opening")]
    OpeningEnds { piece: usize },
    #[error("internal error: the record of piece {piece} cannot reach its placement")]
    Unreachable { piece: usize },
    #[error("internal error: the record replays to {replayed}, the search claimed {claimed}")]
    Mismatch { claimed: u64, replayed: u64 },
    #[error("interrupted after piece {piece} of {pieces}")]
    Interrupted { piece: usize, pieces: usize },
}

impl Search {
    pub fn new(config: SearchConfig) -> Search {
        Search {
            config,
            depth: 0,
            beam: vec![Node {
                board: empty_board(),
                score: 0,
            }],
            levels: Vec::new(),
            stuck: false,
            opening: Vec::new(),
            scratch: Scratch::default(),
        }
    }

    /// A search that plays `opening` first and searches only the pieces
    /// after it: a wide beam spent on the end of a good game.
    pub fn after_opening(
        config: SearchConfig,
        opening: Vec<Placement>,
    ) -> Result<Search, SearchError> {
        if opening.len() >= config.pieces.min(PIECES) {
            return Err(SearchError::OpeningTooLong {
                opening: opening.len(),
                pieces: config.pieces.min(PIECES),
            });
        }
        let rules = Rules::geek();
        let pieces = sequence(PIECES);
        let mut node = Node {
            board: empty_board(),
            score: 0,
        };
        let mut levels = Vec::with_capacity(opening.len());
        for (i, &p) in opening.iter().enumerate() {
            if !fits(&rules, &node.board, pieces[i], p) {
                return Err(SearchError::OpeningMisfit { piece: i + 1 });
            }
            let locked = lock(&rules, &node.board, pieces[i], p, false);
            if locked.topped_out {
                return Err(SearchError::OpeningEnds { piece: i + 1 });
            }
            node = Node {
                board: locked.board,
                score: node.score + locked.points,
            };
            levels.push(Level {
                parent: vec![0],
                placement: vec![p],
            });
        }
        Ok(Search {
            depth: opening.len(),
            beam: vec![node],
            levels,
            opening,
            ..Search::new(config)
        })
    }

    /// A new search with `config` from the same opening.
    pub fn restart(&self, config: SearchConfig) -> Result<Search, SearchError> {
        if self.opening.is_empty() {
            Ok(Search::new(config))
        } else {
            Search::after_opening(config, self.opening.clone())
        }
    }

    pub fn depth(&self) -> usize {
        self.depth
    }

    pub fn is_done(&self) -> bool {
        self.stuck || self.depth >= self.config.pieces.min(PIECES)
    }

    /// The best score in the beam now.
    pub fn best_score(&self) -> u64 {
        self.beam.iter().map(|n| n.score).max().unwrap_or(0)
    }

    /// Places the next piece on every field of the beam and keeps the best.
    pub fn step(&mut self, rules: &Rules, pieces: &[Piece]) {
        let turn = Turn {
            piece: pieces[self.depth],
            rotation: spawn_rotation(self.depth),
            last: self.depth + 1 == PIECES,
            needs: self.config.weights.needs(),
            outlook: Outlook::after(pieces, self.depth + 1),
            fade: fade(PIECES - self.depth - 1),
        };
        let chunk = (self.beam.len() / (4 * rayon::current_num_threads())).max(1);
        // Buffers live across pieces: allocating them afresh every piece
        // cost a sixth of the run in page faults.
        let mut scratch = std::mem::take(&mut self.scratch);
        let parts = self.beam.len().div_ceil(chunk);
        scratch.parts.resize_with(parts, Vec::new);
        self.beam
            .par_chunks(chunk)
            .zip(scratch.parts.par_iter_mut())
            .enumerate()
            .for_each(|(c, (nodes, out))| {
                out.clear();
                let mut buf = Vec::new();
                for (i, node) in nodes.iter().enumerate() {
                    let parent = (c * chunk + i) as u32;
                    self.expand(rules, node, parent, &turn, &mut buf, out);
                }
            });
        if scratch.parts[..parts].iter().all(Vec::is_empty) {
            self.stuck = true;
            self.scratch = scratch;
            return;
        }
        let Scratch {
            parts: children,
            all,
            selector,
        } = &mut scratch;
        selector.select(
            &children[..parts],
            all,
            self.config.beam,
            self.config.reserve,
        );
        let mut level = Level::default();
        self.beam.clear();
        for c in &scratch.all {
            level.parent.push(c.parent);
            level.placement.push(c.placement);
            self.beam.push(Node {
                board: c.board,
                score: c.score,
            });
        }
        self.scratch = scratch;
        self.levels.push(level);
        self.depth += 1;
        if self.depth.is_multiple_of(256) {
            self.prune();
        }
    }

    /// Appends the children of `node` to `out`.
    fn expand(
        &self,
        rules: &Rules,
        node: &Node,
        parent: u32,
        turn: &Turn,
        buf: &mut Vec<Placement>,
        out: &mut Vec<Candidate>,
    ) {
        let Turn {
            piece,
            rotation,
            last,
            needs,
            outlook,
            fade,
        } = *turn;
        if self.config.float {
            movegen::placements_with_floats(
                rules,
                &node.board,
                piece,
                rotation,
                self.config.mode,
                buf,
            );
        } else {
            movegen::placements(rules, &node.board, piece, rotation, self.config.mode, buf);
        }
        let unmoved = spawn_placement(rules, &node.board, piece, rotation);
        for &p in buf.iter() {
            if Some(p) == unmoved && !expressible_unmoved(rules, &node.board, piece, rotation) {
                continue;
            }
            let locked = lock(rules, &node.board, piece, p, last);
            if locked.topped_out {
                continue;
            }
            let score = node.score + locked.points;
            out.push(Candidate {
                rank: score as f64
                    + fade * self.config.weights.value(&locked.board, needs, outlook),
                score,
                board: locked.board,
                cells: filled_cells(&locked.board),
                parent,
                placement: p,
            });
        }
    }

    /// Drops history that no live field descends from. Each level keeps the
    /// entries its successor refers to, renumbered in order.
    fn prune(&mut self) {
        let mut alive: Vec<u32> = (0..self.beam.len() as u32).collect();
        for level in self.levels.iter_mut().rev() {
            // `alive` indexes this level; keep those entries, renumbered.
            let mut keep: Vec<u32> = alive.iter().map(|&i| level.parent[i as usize]).collect();
            keep.sort_unstable();
            keep.dedup();
            let parents: Vec<u32> = alive.iter().map(|&i| level.parent[i as usize]).collect();
            let placements: Vec<Placement> =
                alive.iter().map(|&i| level.placement[i as usize]).collect();
            level.parent = parents
                .iter()
                .map(|p| keep.binary_search(p).expect("kept") as u32)
                .collect();
            level.placement = placements;
            alive = keep;
        }
        // The top level started from every live field in beam order, so the
        // beam's indices are unchanged.
    }

    /// The best game found so far (complete once [`Search::is_done`]).
    pub fn best(&self) -> Solution {
        let (mut i, best) = self
            .beam
            .iter()
            .enumerate()
            .max_by_key(|&(i, n)| (n.score, std::cmp::Reverse(i)))
            .map(|(i, n)| (i as u32, n.score))
            .expect("the beam is never empty");
        let mut placements = Vec::with_capacity(self.levels.len());
        for level in self.levels.iter().rev() {
            placements.push(level.placement[i as usize]);
            i = level.parent[i as usize];
        }
        placements.reverse();
        Solution {
            score: best,
            placements,
        }
    }

    /// Runs to the end, ticking `progress` per piece; `checkpoint` is called
    /// every `every` pieces (and may save the search). When `progress` is
    /// cancelled the search stops after the piece in hand, calls
    /// `checkpoint` there (so a resumed run loses nothing) and returns
    /// [`SearchError::Interrupted`].
    pub fn run(
        &mut self,
        rules: &Rules,
        progress: &Progress,
        every: usize,
        mut checkpoint: impl FnMut(&Search) -> Result<(), SearchError>,
    ) -> Result<(), SearchError> {
        let pieces = sequence(PIECES);
        progress.start_at(self.depth as u64);
        while !self.is_done() {
            if progress.is_cancelled() {
                self.prune();
                checkpoint(self)?;
                return Err(SearchError::Interrupted {
                    piece: self.depth,
                    pieces: self.config.pieces,
                });
            }
            self.step(rules, &pieces);
            progress.set_position(self.depth as u64);
            if self.depth.is_multiple_of(64) {
                progress.set_message(format!("best score {}", self.best_score()));
            }
            if every > 0 && self.depth.is_multiple_of(every) {
                self.prune();
                checkpoint(self)?;
            }
        }
        Ok(())
    }

    /// Writes atomically: a run killed mid-write keeps the previous file.
    pub fn save(&self, path: &Path) -> Result<(), SearchError> {
        Ok(checkpoint::save(self, path)?)
    }

    pub fn load(path: &Path) -> Result<Search, SearchError> {
        Ok(checkpoint::load(path)?)
    }
}

/// Whether `piece` at `p` lies within the walls over empty cells (cells
/// above the top vanish and always fit). A box's bottom row is always on the
/// field: pieces spawn with their centre on the top row and only move down.
fn fits(rules: &Rules, board: &Board, piece: Piece, p: Placement) -> bool {
    p.rotation < 4
        && usize::from(p.row) < HEIGHT
        && board.fits(
            rules.shape(piece, usize::from(p.rotation)),
            i32::from(p.col),
            i32::from(p.row),
        )
}

fn filled_cells(board: &Board) -> u32 {
    board.rows()[..board.height()]
        .iter()
        .map(|r| r.count_ones())
        .sum()
}

/// Buffers reused from piece to piece (not part of the saved state).
#[derive(Default)]
struct Scratch {
    parts: Vec<Vec<Candidate>>,
    all: Vec<Candidate>,
    selector: Selector,
}

impl Clone for Scratch {
    fn clone(&self) -> Self {
        Scratch::default()
    }
}

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Scratch")
    }
}

/// The placement of a piece left where it spawned.
fn spawn_placement(
    rules: &Rules,
    board: &Board,
    piece: Piece,
    rotation: usize,
) -> Option<Placement> {
    movegen::follow(rules, board, piece, rotation, std::iter::empty())
}

/// A piece left at its spawn needs one operation that does nothing; that
/// exists when some step from the spawn is illegal.
fn expressible_unmoved(rules: &Rules, board: &Board, piece: Piece, rotation: usize) -> bool {
    no_op(rules, board, piece, rotation).is_some()
}

fn no_op(rules: &Rules, board: &Board, piece: Piece, rotation: usize) -> Option<Op> {
    let here = spawn_placement(rules, board, piece, rotation)?;
    [Op::Down, Op::Left, Op::Right, Op::Clockwise]
        .into_iter()
        .find(|&op| movegen::follow(rules, board, piece, rotation, [op]) == Some(here))
}

/// The record of a solution: the operations of every piece, checked by the
/// reference replay to score what the search claimed.
pub fn record(solution: &Solution) -> Result<Record, SearchError> {
    let rules = Rules::geek();
    let pieces = sequence(PIECES);
    let mut board = empty_board();
    let mut record = Record::default();
    let mut score = 0;
    for (i, &p) in solution.placements.iter().enumerate() {
        let piece = pieces[i];
        let rotation = spawn_rotation(i);
        let mut ops = movegen::path(&rules, &board, piece, rotation, MoveMode::Reach, p)
            .ok_or(SearchError::Unreachable { piece: i })?;
        if ops.is_empty() {
            ops.push(
                no_op(&rules, &board, piece, rotation)
                    .ok_or(SearchError::Unreachable { piece: i })?,
            );
        }
        record.push_piece(&ops);
        let locked = lock(&rules, &board, piece, p, i + 1 == PIECES);
        score += locked.points;
        board = locked.board;
    }
    let replayed = replay::replay(&record, |_| {}).score;
    if replayed != solution.score || score != solution.score {
        return Err(SearchError::Mismatch {
            claimed: solution.score,
            replayed,
        });
    }
    Ok(record)
}

/// The placements of the first `n` pieces of `record` (an opening for
/// [`Search::after_opening`]), each where its operations end, as the game
/// moves a piece.
pub fn opening(record: &Record, n: usize) -> Result<Vec<Placement>, SearchError> {
    if n > record.pieces.len() {
        return Err(SearchError::ShortRecord {
            pieces: record.pieces.len(),
            asked: n,
        });
    }
    let rules = Rules::geek();
    let pieces = sequence(PIECES);
    let mut board = empty_board();
    let mut placements = Vec::with_capacity(n);
    for (i, &piece) in pieces.iter().enumerate().take(n) {
        let p = movegen::follow(&rules, &board, piece, spawn_rotation(i), record.ops(i))
            .ok_or(SearchError::OpeningEnds { piece: i + 1 })?;
        let locked = lock(&rules, &board, piece, p, i + 1 == PIECES);
        if locked.topped_out {
            return Err(SearchError::OpeningEnds { piece: i + 1 });
        }
        board = locked.board;
        placements.push(p);
    }
    Ok(placements)
}

/// Widest beam a search (or a checkpoint) may ask for: a beam of 10^7
/// fields already needs gigabytes per piece.
pub const MAX_BEAM: usize = 10_000_000;

/// Memory a search holds per field of its beam at its peak, in bytes: the
/// beam, its children and the parent links. Measured (resident memory over
/// the beam, reach + float moves): 9.4 KB at beam 240,000, 7.9–9.9 KB at
/// 524,288, 4.6–5.2 KB at 1,048,576 (docs/results/geek.md).
pub const BYTES_PER_FIELD: u64 = 8 * 1024;

/// The widest beam `available` bytes hold, by [`BYTES_PER_FIELD`].
pub fn widest_beam_for(available: u64) -> usize {
    (available / BYTES_PER_FIELD).clamp(1, MAX_BEAM as u64) as usize
}

/// Most points one game can score: every piece clearing four rows at the
/// highest multiplier is far below this, so a larger score is an edit.
const MAX_SCORE: u64 = 1 << 48;

impl SearchConfig {
    /// Checks that the settings describe a runnable search.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=MAX_BEAM).contains(&self.beam) {
            return Err(format!("beam {} is not from 1 to {MAX_BEAM}", self.beam));
        }
        if !(1..=PIECES).contains(&self.pieces) {
            return Err(format!("pieces {} is not from 1 to {PIECES}", self.pieces));
        }
        if self.reserve > MAX_BEAM {
            return Err(format!("reserve {} is above {MAX_BEAM}", self.reserve));
        }
        self.weights.check()
    }
}

/// A loaded search is checked in full: settings in range, a non-empty beam
/// of challenge-sized fields, one history level per piece placed, every
/// parent link pointing into the level before, and an opening that replays,
/// so resuming cannot panic.
impl arcade_core::checkpoint::Validate for Search {
    fn validate(&self) -> Result<(), String> {
        self.config.check()?;
        if self.depth > self.config.pieces {
            return Err(format!(
                "depth {} is beyond the {} pieces searched",
                self.depth, self.config.pieces
            ));
        }
        if self.beam.is_empty() {
            return Err("the beam is empty (it always holds at least one field)".into());
        }
        let most = self.config.beam + self.config.reserve;
        if self.depth > 0 && self.beam.len() > most {
            return Err(format!(
                "the beam holds {} fields, more than beam + reserve = {most}",
                self.beam.len()
            ));
        }
        for (i, node) in self.beam.iter().enumerate() {
            if (node.board.width(), node.board.height()) != (WIDTH, HEIGHT) {
                return Err(format!(
                    "field {i} of the beam is {}x{}, expected {WIDTH}x{HEIGHT}",
                    node.board.width(),
                    node.board.height()
                ));
            }
            if node.score > MAX_SCORE {
                return Err(format!("field {i} has an impossible score {}", node.score));
            }
        }
        if self.levels.len() != self.depth {
            return Err(format!(
                "{} history levels for {} pieces placed",
                self.levels.len(),
                self.depth
            ));
        }
        // Level 0 starts from the single empty field.
        let mut previous = 1;
        for (d, level) in self.levels.iter().enumerate() {
            check_level(d, level, previous)?;
            previous = level.parent.len();
        }
        if self.depth > 0 && previous != self.beam.len() {
            return Err(format!(
                "the last history level has {previous} entries for a beam of {} fields",
                self.beam.len()
            ));
        }
        if self.depth == 0 && self.beam.len() != 1 {
            return Err("before the first piece the beam must be the empty field alone".into());
        }
        if !self.opening.is_empty() {
            Search::after_opening(self.config.clone(), self.opening.clone())
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

/// Checks one level of parent links against the size of the level before.
fn check_level(depth: usize, level: &Level, previous: usize) -> Result<(), String> {
    if level.parent.len() != level.placement.len() {
        return Err(format!(
            "history level {depth}: {} parents but {} placements",
            level.parent.len(),
            level.placement.len()
        ));
    }
    if level.parent.is_empty() {
        return Err(format!("history level {depth} is empty"));
    }
    if let Some((i, p)) = level
        .parent
        .iter()
        .enumerate()
        .find(|&(_, &p)| p as usize >= previous)
    {
        return Err(format!(
            "history level {depth}: parent {p} of field {i} is out of range (the level before has {previous} fields)"
        ));
    }
    if let Some(p) = level
        .placement
        .iter()
        .find(|p| p.rotation >= 4 || usize::from(p.col) >= WIDTH || usize::from(p.row) >= HEIGHT)
    {
        return Err(format!(
            "history level {depth}: placement {p:?} is off the {WIDTH}x{HEIGHT} field"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(beam: usize, mode: MoveMode, float: bool, pieces: usize) -> SearchConfig {
        SearchConfig {
            beam,
            mode,
            float,
            pieces,
            weights: GeekWeights::builtin(),
            reserve: SearchConfig::default_reserve(beam),
        }
    }

    fn solve(cfg: SearchConfig) -> (Search, Solution) {
        let rules = Rules::geek();
        let mut s = Search::new(cfg);
        s.run(&rules, &Progress::hidden(), 0, |_| Ok(())).unwrap();
        let sol = s.best();
        (s, sol)
    }

    #[test]
    fn records_replay_to_the_claimed_score_in_every_mode() {
        for (mode, float) in [
            (MoveMode::Drop, false),
            (MoveMode::Reach, false),
            (MoveMode::Reach, true),
            (MoveMode::Drop, true),
        ] {
            let (_, sol) = solve(config(8, mode, float, 400));
            assert_eq!(sol.placements.len(), 400);
            assert!(sol.score > 0, "{mode:?} {float}");
            let rec = record(&sol).expect("record replays to the claim");
            assert_eq!(rec.pieces.len(), 400);
            let r = replay::replay(&rec, |_| {});
            assert_eq!(r.score, sol.score);
        }
    }

    #[test]
    fn pruning_keeps_the_paths_of_live_fields() {
        let (s, sol) = solve(config(64, MoveMode::Drop, false, 600));
        // Pruned history: far fewer entries than levels × beam.
        let entries: usize = s.levels.iter().map(|l| l.parent.len()).sum();
        assert!(entries < 600 * 64 / 4, "{entries}");
        record(&sol).unwrap();
    }

    #[test]
    fn a_search_after_an_opening_keeps_it_and_replays() {
        let (_, first) = solve(config(8, MoveMode::Reach, true, 200));
        let rec = record(&first).unwrap();
        let opening = super::opening(&rec, 150).unwrap();
        assert_eq!(opening, first.placements[..150]);
        let rules = Rules::geek();
        let mut s =
            Search::after_opening(config(8, MoveMode::Reach, true, 200), opening.clone()).unwrap();
        assert_eq!(s.depth(), 150);
        s.run(&rules, &Progress::hidden(), 0, |_| Ok(())).unwrap();
        let again = s.best();
        assert_eq!(again.placements.len(), 200);
        assert_eq!(again.placements[..150], opening[..]);
        assert_eq!(
            replay::replay(&record(&again).unwrap(), |_| {}).score,
            again.score
        );
        // A new round (a wider beam) starts after the same opening.
        let wider = s.restart(config(16, MoveMode::Reach, true, 200)).unwrap();
        assert_eq!((wider.depth(), wider.config.beam), (150, 16));
        assert_eq!(wider.best().placements, opening);
    }

    #[test]
    fn bad_openings_are_refused_with_the_reason() {
        let (_, first) = solve(config(8, MoveMode::Drop, false, 50));
        let rec = record(&first).unwrap();
        let err = |e: SearchError| e.to_string();
        assert_eq!(
            err(super::opening(&rec, 51).unwrap_err()),
            "the record has 50 pieces, fewer than the 51 asked for"
        );
        let opening = super::opening(&rec, 50).unwrap();
        let too_long = Search::after_opening(config(8, MoveMode::Drop, false, 50), opening.clone());
        assert!(err(too_long.unwrap_err()).contains("must leave some"));
        let mut off = opening.clone();
        off[3].col = 12;
        let misfit = Search::after_opening(config(8, MoveMode::Drop, false, 60), off);
        assert_eq!(
            err(misfit.unwrap_err()),
            "piece 4 of the opening does not fit on the field"
        );
        for (rotation, row) in [(9, 0), (0, 200)] {
            let mut odd = opening.clone();
            (odd[0].rotation, odd[0].row) = (rotation, row);
            assert!(Search::after_opening(config(8, MoveMode::Drop, false, 60), odd).is_err());
        }
        // A record whose game ends early: every piece left at the spawn.
        let stuck = Record::parse(&vec!["N,D19"; 200].join(",")).unwrap();
        let e = err(super::opening(&stuck, 200).unwrap_err());
        assert!(e.starts_with("the game ends at piece"), "{e}");
    }

    #[test]
    fn a_checkpoint_keeps_the_opening_and_refuses_a_bad_one() {
        let (_, first) = solve(config(8, MoveMode::Drop, false, 80));
        let opening = first.placements[..60].to_vec();
        let s =
            Search::after_opening(config(8, MoveMode::Drop, false, 80), opening.clone()).unwrap();
        let dir = std::env::temp_dir().join(format!("arcade-opening-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("search.json");
        s.save(&path).unwrap();
        let loaded = Search::load(&path).unwrap();
        assert_eq!(loaded.opening, opening);
        assert_eq!(
            loaded
                .restart(config(16, MoveMode::Drop, false, 80))
                .unwrap()
                .depth(),
            60
        );
        let mut json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        json["opening"][3]["col"] = 12.into();
        std::fs::write(&path, json.to_string()).unwrap();
        let e = Search::load(&path).unwrap_err().to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(e.contains("piece 4 of the opening does not fit"), "{e}");
    }

    #[test]
    fn the_value_fades_over_the_last_pieces() {
        assert_eq!(fade(0), 0.0);
        assert_eq!(fade(END_FADE / 2), 0.5);
        assert_eq!(fade(END_FADE), 1.0);
        assert_eq!(fade(5_000), 1.0);
    }

    #[test]
    fn checkpoint_resume_gives_the_same_result() {
        let rules = Rules::geek();
        let pieces = sequence(PIECES);
        let (_, straight) = solve(config(16, MoveMode::Reach, false, 300));
        let mut s = Search::new(config(16, MoveMode::Reach, false, 300));
        for _ in 0..130 {
            s.step(&rules, &pieces);
        }
        s.prune();
        let dir = std::env::temp_dir().join(format!("arcade-geek-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("search.json");
        s.save(&path).unwrap();
        let mut resumed = Search::load(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        resumed
            .run(&rules, &Progress::hidden(), 0, |_| Ok(()))
            .unwrap();
        assert_eq!(resumed.best(), straight);
    }
}

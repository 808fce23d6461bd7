//! Splicing records. The sequence is fixed, so two games that hold the same
//! field after the same piece can go on from there the same ways: the best
//! way to that field from either game, followed by the best way on from it,
//! is a legal game scoring at least as much as both. Each record is a chain
//! of fields; [`splice`] finds the highest-scoring game along the chains,
//! switching from one record to another wherever they meet.

use super::record::Record;
use super::replay::{End, replay};
use super::{HEIGHT, PIECES};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use thiserror::Error;

/// A record that cannot take part.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SpliceError {
    #[error("no records to splice")]
    Empty,
    /// `index` is the record's position in the input, for the caller to name it.
    #[error(
        "the game ends at piece {pieces} ({end}), not at the 10,000th: only whole games are spliced"
    )]
    Incomplete {
        index: usize,
        pieces: usize,
        end: &'static str,
    },
}

/// Which record a stretch of pieces comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stretch {
    /// The record's position in the input.
    pub record: usize,
    /// The stretch's first and last piece, 1-based.
    pub first: usize,
    pub last: usize,
}

/// The spliced game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spliced {
    pub record: Record,
    /// Its score, from the records' own per-piece points.
    pub score: u64,
    /// Each input record's own score.
    pub scores: Vec<u64>,
    /// Where each stretch of the spliced game comes from, in order.
    pub stretches: Vec<Stretch>,
}

/// What `arcade geek splice` prints: the spliced game, named by files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpliceReport {
    /// The spliced record's score.
    pub score: u64,
    /// Each input and its own score.
    pub inputs: Vec<SpliceInput>,
    /// Where each stretch of pieces (1-based, inclusive) comes from.
    pub stretches: Vec<SpliceStretch>,
    pub record: String,
}

/// An input record, by its file name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpliceInput {
    pub file: String,
    pub score: u64,
}

/// A stretch of pieces (1-based, inclusive) and the file it comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpliceStretch {
    pub file: String,
    pub first: usize,
    pub last: usize,
}

/// Stretches listed in the text report; `--json` has them all.
const STRETCHES_SHOWN: usize = 20;

impl fmt::Display for SpliceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let alone: Vec<String> = self
            .inputs
            .iter()
            .map(|i| format!("{} {}", i.file, i.score))
            .collect();
        writeln!(
            f,
            "score {} (replayed), spliced from {} records (alone: {})",
            self.score,
            self.inputs.len(),
            alone.join(", ")
        )?;
        for s in self.stretches.iter().take(STRETCHES_SHOWN) {
            writeln!(f, "  pieces {}–{}: {}", s.first, s.last, s.file)?;
        }
        if self.stretches.len() > STRETCHES_SHOWN {
            let more = self.stretches.len() - STRETCHES_SHOWN;
            writeln!(f, "  … and {more} more stretches (--json lists them all)")?;
        }
        writeln!(f, "record in {}", self.record)
    }
}

impl Spliced {
    /// The report of this splice, the inputs named `names` (in input order)
    /// and the record written to `record`.
    pub fn report(&self, names: &[String], record: &str) -> SpliceReport {
        SpliceReport {
            score: self.score,
            inputs: names
                .iter()
                .zip(&self.scores)
                .map(|(file, &score)| SpliceInput {
                    file: file.clone(),
                    score,
                })
                .collect(),
            stretches: self
                .stretches
                .iter()
                .map(|s| SpliceStretch {
                    file: names[s.record].clone(),
                    first: s.first,
                    last: s.last,
                })
                .collect(),
            record: record.to_string(),
        }
    }
}

/// One record replayed: the field after each piece (before its full rows
/// go, which fixes the field after them) and the points each piece scored.
struct Chain {
    fields: Vec<[u16; HEIGHT]>,
    points: Vec<u64>,
}

fn chain(index: usize, record: &Record) -> Result<Chain, SpliceError> {
    let mut fields = Vec::with_capacity(PIECES);
    let mut points = Vec::with_capacity(PIECES);
    let mut score = 0;
    let r = replay(record, |f| {
        fields.push(f.grid.map(|row| {
            row.iter()
                .enumerate()
                .fold(0u16, |bits, (x, &c)| bits | (u16::from(c) << x))
        }));
        points.push(f.score - score);
        score = f.score;
    });
    if r.end != End::PieceLimit {
        return Err(SpliceError::Incomplete {
            index,
            pieces: r.pieces,
            end: r.end.describe(),
        });
    }
    Ok(Chain { fields, points })
}

/// The best game along the records' chains of fields.
pub fn splice(records: &[Record]) -> Result<Spliced, SpliceError> {
    if records.is_empty() {
        return Err(SpliceError::Empty);
    }
    let chains = records
        .iter()
        .enumerate()
        .map(|(i, r)| chain(i, r))
        .collect::<Result<Vec<_>, _>>()?;
    let n = chains.len();
    // best[i]: the most points of a game reaching record i's field after the
    // current piece; from[k][i]: the record whose piece k that game plays.
    let mut best = vec![0u64; n];
    let mut from = vec![vec![0usize; n]; PIECES];
    for (k, from) in from.iter_mut().enumerate() {
        let reach: Vec<u64> = (0..n).map(|i| best[i] + chains[i].points[k]).collect();
        // The best way to each field the records hold after piece k.
        let mut meet: HashMap<&[u16; HEIGHT], usize> = HashMap::with_capacity(n);
        for (i, &points) in reach.iter().enumerate() {
            let j = meet.entry(&chains[i].fields[k]).or_insert(i);
            if points > reach[*j] {
                *j = i;
            }
        }
        for i in 0..n {
            let j = meet[&chains[i].fields[k]];
            // On a tie a record keeps its own way, so a lone record stays whole.
            from[i] = if reach[j] > reach[i] { j } else { i };
            best[i] = reach[from[i]];
        }
    }
    let end = (0..n).fold(0, |a, i| if best[i] > best[a] { i } else { a });
    let mut used = vec![0usize; PIECES];
    let mut at = end;
    for k in (0..PIECES).rev() {
        at = from[k][at];
        used[k] = at;
    }
    let mut record = Record::default();
    for (k, &i) in used.iter().enumerate() {
        record.pieces.push(records[i].pieces[k].clone());
    }
    Ok(Spliced {
        record,
        score: best[end],
        scores: chains.iter().map(|c| c.points.iter().sum()).collect(),
        stretches: stretches(&used),
    })
}

/// Runs of equal record indices, 1-based pieces.
fn stretches(used: &[usize]) -> Vec<Stretch> {
    let mut out: Vec<Stretch> = Vec::new();
    for (k, &record) in used.iter().enumerate() {
        match out.last_mut() {
            Some(s) if s.record == record => s.last = k + 1,
            _ => out.push(Stretch {
                record,
                first: k + 1,
                last: k + 1,
            }),
        }
    }
    out
}

//! `geek solve` as one library call: the beam search, repeated with a
//! doubled beam while a time budget allows, the best record checked by the
//! reference replay, saved (or saved somewhere else if the path fails), and
//! reported.

use super::record::Record;
use super::replay::{self, End};
use super::search::{self, Search, SearchConfig, SearchError, Solution};
use crate::movegen::MoveMode;
use crate::rules::Rules;
use arcade_core::progress::Progress;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How much longer the next round (at twice the beam) is expected to take
/// than the round just run. Twice the beam is twice the fields to expand,
/// and selecting among twice the candidates and merging equal fields costs a
/// little more than linear, so the next round is budgeted at 2.2× the last:
/// slightly pessimistic, so a round that would overrun is not started.
pub const NEXT_ROUND_FACTOR: f64 = 2.2;

/// The narrowest widening a round that fills the rest of the budget is run
/// for, when a doubled beam would not fit: a beam barely wider than the last
/// would spend the rest of the budget searching nearly the same fields.
pub const MIN_LAST_WIDENING: f64 = 1.25;

/// How much wider the next round's beam can be: twice as wide if that fits
/// in `left` seconds after a round of `seconds`, otherwise as wide as fits
/// (at least [`MIN_LAST_WIDENING`]), or `None`. Time is modelled as the
/// beam's width × [`NEXT_ROUND_FACTOR`] / 2 per unit of the last round.
pub fn next_widening(seconds: f64, left: f64) -> Option<f64> {
    let per_unit = seconds * NEXT_ROUND_FACTOR / 2.0;
    let widening = (left / per_unit).min(2.0);
    (widening >= MIN_LAST_WIDENING).then_some(widening)
}

/// One finished search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Round {
    pub beam: usize,
    pub score: u64,
    pub seconds: f64,
}

/// The best game of all rounds and what each round reached.
#[derive(Clone, Debug, PartialEq)]
pub struct TimedSolution {
    pub best: Solution,
    /// The beam that found `best`.
    pub beam: usize,
    /// The configuration of the last round (for its mode and piece count).
    pub config: SearchConfig,
    pub rounds: Vec<Round>,
    /// A round cut short by a cancel after others had finished.
    pub interrupted: Option<Interrupted>,
}

/// Where a cancelled round stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interrupted {
    pub beam: usize,
    /// Pieces the round had placed.
    pub piece: usize,
}

/// Runs `search` to the end, then, while `budget` seconds (from the first
/// `clock()` reading) leave room for a round at twice the beam
/// ([`NEXT_ROUND_FACTOR`]), starts again with the beam doubled (and, unless
/// `fixed_reserve`, the default reserve of that beam); when a doubled beam
/// no longer fits, a last round as wide as fits ([`next_widening`]). `run`
/// finishes one search; `clock` reads seconds (a fake clock in tests). No
/// round is wider than `max_beam` (what fits in memory).
/// A round interrupted after another finished ends the search with the best
/// finished game; one interrupted before is the error.
pub fn solve_within(
    mut search: Search,
    budget: Option<f64>,
    fixed_reserve: bool,
    max_beam: usize,
    mut clock: impl FnMut() -> f64,
    mut run: impl FnMut(&mut Search) -> Result<(), SearchError>,
) -> Result<TimedSolution, SearchError> {
    let start = clock();
    let mut best: Option<(Solution, usize)> = None;
    let mut rounds = Vec::new();
    let mut interrupted = None;
    loop {
        let round_start = clock();
        match run(&mut search) {
            Err(SearchError::Interrupted { piece, .. }) if best.is_some() => {
                let beam = search.config.beam;
                interrupted = Some(Interrupted { beam, piece });
                break;
            }
            outcome => outcome?,
        }
        let solution = search.best();
        let now = clock();
        let beam = search.config.beam;
        rounds.push(Round {
            beam,
            score: solution.score,
            seconds: now - round_start,
        });
        if best.as_ref().is_none_or(|(b, _)| solution.score > b.score) {
            best = Some((solution, beam));
        }
        let Some(budget) = budget else { break };
        let Some(widening) = next_widening(now - round_start, budget - (now - start)) else {
            break;
        };
        let wider = ((beam as f64 * widening) as usize).min(max_beam);
        if wider <= beam {
            break;
        }
        let mut config = search.config.clone();
        config.beam = wider;
        if !fixed_reserve {
            config.reserve = SearchConfig::default_reserve(config.beam);
        }
        search = search.restart(config)?;
    }
    let (best, beam) = best.expect("at least one round ran");
    Ok(TimedSolution {
        best,
        beam,
        config: search.config,
        rounds,
        interrupted,
    })
}

/// The widest beam the free memory holds beside `reserve` or a default
/// reserve (`None` where it cannot be read), or, when `beam` and its `reserve` do not fit,
/// why: a search past them would end in a failed allocation, an abort that
/// saves nothing.
pub fn memory_limit(beam: usize, reserve: usize) -> Result<Option<usize>, String> {
    let Some(free) = arcade_core::memory::available() else {
        return Ok(None);
    };
    let fits = search::widest_beam_for(free);
    let fields = beam.saturating_add(reserve);
    if fields > fits {
        let reserved = if reserve > 0 {
            format!(" (with a reserve of {reserve})")
        } else {
            String::new()
        };
        return Err(format!(
            "beam {beam}{reserved} needs about {:.1} GB at its peak (about {} KB a field), more \
             than the {:.1} GB free here; {fits} fields fit",
            (fields as u64).saturating_mul(search::BYTES_PER_FIELD) as f64 / 1e9,
            search::BYTES_PER_FIELD / 1024,
            free as f64 / 1e9,
        ));
    }
    // A widened round keeps this reserve, or a default one, an eighth of
    // its beam: the widest beam leaves room for either.
    Ok(Some((fits / 9 * 8).min(fits - reserve)))
}

/// What `geek solve` is asked to do besides the search itself.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Time budget in seconds: repeat with a doubled beam while it allows.
    pub seconds: Option<f64>,
    /// Keep the configured reserve when the beam doubles.
    pub fixed_reserve: bool,
    /// Widen no further than this (the CLI: what the free memory holds).
    pub max_beam: Option<usize>,
    /// Save the search here every `checkpoint_every` pieces.
    pub checkpoint: Option<PathBuf>,
    pub checkpoint_every: usize,
    /// Where the best record goes.
    pub out: PathBuf,
}

/// The result `arcade geek solve` prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveReport {
    /// The score of the saved record, replayed by the reference rules.
    pub score: u64,
    pub seconds: f64,
    pub beam: usize,
    pub moves: MoveMode,
    pub float: bool,
    /// Where the record was written.
    pub record: String,
    pub pieces: usize,
    /// Pieces the search was asked to play.
    pub pieces_asked: usize,
    pub end: End,
    pub clears: [u64; 4],
    pub rounds: Vec<Round>,
    /// The round a cancel cut short; the record is the best finished one's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<Interrupted>,
}

impl fmt::Display for SolveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mode = match self.moves {
            MoveMode::Drop => "drop",
            MoveMode::Reach => "reach",
        };
        writeln!(
            f,
            "score {} (replayed) with beam {}, {mode}{} moves, {} pieces, clears 1/2/3/4: {:?}; {:.1} s; record in {}",
            self.score,
            self.beam,
            if self.float { " + float" } else { "" },
            self.pieces,
            self.clears,
            self.seconds,
            self.record
        )?;
        if let Some(cut) = self.interrupted {
            writeln!(
                f,
                "note: interrupted after piece {} of the round at beam {}; the record is the best finished round's",
                cut.piece, cut.beam
            )?;
        }
        if self.pieces < self.pieces_asked {
            writeln!(
                f,
                "note: every field of the beam topped out after {} of {} pieces; a wider --beam or --reserve gets further",
                self.pieces, self.pieces_asked
            )?;
        }
        Ok(())
    }
}

/// Why a solve failed.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error(transparent)]
    Search(#[from] SearchError),
    #[error(
        "cannot write the record to {out}: {}; it was saved to {fallback} instead",
        arcade_core::text::io_reason(source)
    )]
    SavedElsewhere {
        out: String,
        fallback: String,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "cannot write the record to {out} ({}) nor to {fallback} ({})",
        arcade_core::text::io_reason(source),
        arcade_core::text::io_reason(second)
    )]
    NotSaved {
        out: String,
        fallback: String,
        #[source]
        source: std::io::Error,
        second: std::io::Error,
    },
}

/// Searches as `search` and `options` say, on the current rayon pool,
/// writes the best record to `options.out` and reports it.
pub fn solve(
    search: Search,
    options: &SolveOptions,
    progress: &Progress,
) -> Result<SolveReport, SolveError> {
    let rules = Rules::geek();
    let start = Instant::now();
    let mut saved = 0;
    let timed = solve_within(
        search,
        options.seconds,
        options.fixed_reserve,
        options.max_beam.unwrap_or(search::MAX_BEAM),
        || start.elapsed().as_secs_f64(),
        |s| {
            progress.reset(s.config.pieces as u64, &format!("beam {}", s.config.beam));
            let r = s.run(&rules, progress, options.checkpoint_every, |s| {
                options.checkpoint.as_ref().map_or(Ok(()), |p| s.save(p))
            });
            if r.is_ok() {
                // With rounds to come, the best so far goes to `out` now, so a
                // run that dies in a wider round (out of memory) keeps it. A
                // failed write is reported by the final save.
                if options.seconds.is_some() && s.best_score() > saved {
                    saved = s.best_score();
                    if let Ok(record) = search::record(&s.best()) {
                        let _ = std::fs::write(&options.out, record.to_string() + "\n");
                    }
                }
                progress.println(format!(
                    "beam {:>6}  score {:>9}  {:>8.1} s",
                    s.config.beam,
                    s.best_score(),
                    start.elapsed().as_secs_f64()
                ));
            }
            r
        },
    )?;
    let record = search::record(&timed.best)?;
    save_record(&record, &options.out)?;
    let replayed = replay::replay(&record, |_| {});
    Ok(SolveReport {
        score: replayed.score,
        seconds: start.elapsed().as_secs_f64(),
        beam: timed.beam,
        moves: timed.config.mode,
        float: timed.config.float,
        record: options.out.display().to_string(),
        pieces: replayed.pieces,
        pieces_asked: timed.config.pieces,
        end: replayed.end,
        clears: replayed.clears,
        rounds: timed.rounds,
        interrupted: timed.interrupted,
    })
}

/// Writes `record` to `out`; if that fails (after a long search), writes it
/// to a file in the temporary directory and says where in the error.
pub fn save_record(record: &Record, out: &Path) -> Result<(), SolveError> {
    let text = record.to_string() + "\n";
    let Err(source) = std::fs::write(out, &text) else {
        return Ok(());
    };
    let fallback = std::env::temp_dir().join(format!("geek-record-{}.txt", std::process::id()));
    let (out, shown) = (out.display().to_string(), fallback.display().to_string());
    match std::fs::write(&fallback, &text) {
        Ok(()) => Err(SolveError::SavedElsewhere {
            out,
            fallback: shown,
            source,
        }),
        Err(second) => Err(SolveError::NotSaved {
            out,
            fallback: shown,
            source,
            second,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geek::value::GeekWeights;

    fn search(beam: usize) -> Search {
        Search::new(SearchConfig {
            beam,
            mode: MoveMode::Drop,
            float: false,
            pieces: 30,
            weights: GeekWeights::builtin(),
            reserve: SearchConfig::default_reserve(beam),
        })
    }

    /// Solves from beam 1 within `budget` seconds of a fake clock where a
    /// round at beam b takes b seconds.
    fn within(budget: f64, fixed_reserve: bool) -> TimedSolution {
        within_beam(budget, fixed_reserve, search::MAX_BEAM)
    }

    fn within_beam(budget: f64, fixed_reserve: bool, max_beam: usize) -> TimedSolution {
        let rules = Rules::geek();
        let now = std::cell::Cell::new(0.0);
        solve_within(
            search(1),
            Some(budget),
            fixed_reserve,
            max_beam,
            || now.get(),
            |s| {
                now.set(now.get() + s.config.beam as f64);
                s.run(&rules, &Progress::hidden(), 0, |_| Ok(()))
            },
        )
        .unwrap()
    }

    fn beams(timed: &TimedSolution) -> Vec<usize> {
        timed.rounds.iter().map(|r| r.beam).collect()
    }

    /// With a budget of 20 s, rounds at 1, 2 and 4 run (1 + 2 + 4 = 7 s; the
    /// next, 8 s, is budgeted at 8.8 and 7 + 8.8 ≤ 20, so it runs: 15 s;
    /// 16 · 2.2 does not fit, nor does a 1.25× wider beam).
    #[test]
    fn the_beam_doubles_while_the_budget_allows_the_next_round() {
        let timed = within(20.0, false);
        assert_eq!(beams(&timed), [1, 2, 4, 8]);
        assert_eq!(timed.config.reserve, SearchConfig::default_reserve(8));
        let best = timed.rounds.iter().map(|r| r.score).max().unwrap();
        assert_eq!(timed.best.score, best);
        assert_eq!(timed.rounds[3].seconds, 8.0);
        // 4 s: after the 1 s round, 2.2 s fits (3.2 ≤ 4); after the 2 s round
        // (3 s spent) 4.4 s does not.
        let short = within(4.0, true);
        assert_eq!(short.rounds.len(), 2);
        assert_eq!(short.config.reserve, SearchConfig::default_reserve(1));
    }

    /// With 26 s, after the rounds at 1, 2, 4 and 8 (15 s) a doubled beam
    /// (16 · 1.1 = 17.6 s) does not fit in the 11 s left, but a beam of 10
    /// (11 s by the model) does; then nothing more fits.
    #[test]
    fn a_last_round_as_wide_as_fits_fills_the_budget() {
        let timed = within(26.0, false);
        assert_eq!(beams(&timed), [1, 2, 4, 8, 10]);
        assert_eq!(timed.config.reserve, SearchConfig::default_reserve(10));
        // Less than a quarter wider is not worth a round.
        assert_eq!(next_widening(8.0, 10.9), None);
        assert_eq!(next_widening(8.0, 100.0), Some(2.0));
    }

    /// A cancel stops the search after the piece in hand and saves it
    /// there; resumed, it finishes with the score of a run never stopped.
    #[test]
    fn a_cancelled_search_saves_where_it_stopped_and_resumes_to_the_same_game() {
        let rules = Rules::geek();
        let progress = Progress::hidden();
        let mut saved = Vec::new();
        let mut s = search(4);
        let outcome = s.run(&rules, &progress, 10, |s| {
            saved.push(s.depth());
            progress.cancel();
            Ok(())
        });
        assert!(
            matches!(
                outcome,
                Err(SearchError::Interrupted {
                    piece: 10,
                    pieces: 30
                })
            ),
            "{outcome:?}"
        );
        assert_eq!(
            saved,
            [10, 10],
            "the periodic save, then the one at the stop"
        );
        s.run(&rules, &Progress::hidden(), 0, |_| Ok(())).unwrap();
        let mut whole = search(4);
        whole
            .run(&rules, &Progress::hidden(), 0, |_| Ok(()))
            .unwrap();
        assert_eq!(s.best(), whole.best());
    }

    /// Rounds widen no further than the memory allows, then stop.
    #[test]
    fn widening_stops_at_the_largest_beam_that_fits() {
        assert_eq!(beams(&within_beam(1000.0, false, 5)), [1, 2, 4, 5]);
        assert_eq!(beams(&within_beam(1000.0, false, 1)), [1]);
    }

    /// Cancelled in its second round, a timed solve keeps the first round's
    /// game and says where the second stopped; cancelled in its first, it
    /// has no game and is the error.
    #[test]
    fn a_cancelled_round_keeps_the_best_finished_one() {
        let rules = Rules::geek();
        let progress = Progress::hidden();
        let now = std::cell::Cell::new(0.0);
        let timed = solve_within(
            search(1),
            Some(1000.0),
            false,
            search::MAX_BEAM,
            || now.get(),
            |s| {
                now.set(now.get() + 1.0);
                if s.config.beam > 1 {
                    progress.cancel();
                }
                s.run(&rules, &progress, 0, |_| Ok(()))
            },
        )
        .unwrap();
        assert_eq!(timed.rounds.len(), 1);
        assert_eq!(timed.best.score, timed.rounds[0].score);
        let cut = timed.interrupted.expect("the second round was cut");
        assert_eq!((cut.beam, cut.piece), (2, 0));

        let cancelled = Progress::hidden();
        cancelled.cancel();
        let first = solve_within(
            search(1),
            None,
            false,
            search::MAX_BEAM,
            || 0.0,
            |s| s.run(&rules, &cancelled, 0, |_| Ok(())),
        );
        assert!(matches!(
            first,
            Err(SearchError::Interrupted { piece: 0, .. })
        ));
    }

    #[test]
    fn without_a_budget_one_round_runs() {
        let rules = Rules::geek();
        let timed = solve_within(
            search(2),
            None,
            false,
            search::MAX_BEAM,
            || 0.0,
            |s| s.run(&rules, &Progress::hidden(), 0, |_| Ok(())),
        )
        .unwrap();
        assert_eq!(timed.rounds.len(), 1);
        assert_eq!(timed.beam, 2);
    }

    #[test]
    fn a_record_that_cannot_be_written_is_saved_elsewhere() {
        let record = Record::parse("N,D1").unwrap();
        let bad = Path::new("/nonexistent-dir-arcade/record.txt");
        let err = save_record(&record, bad).unwrap_err();
        let SolveError::SavedElsewhere { fallback, .. } = &err else {
            panic!("{err}");
        };
        assert_eq!(std::fs::read_to_string(fallback).unwrap(), "N,D1\n");
        assert!(err.to_string().contains(fallback.as_str()));
        std::fs::remove_file(fallback).unwrap();
    }
}

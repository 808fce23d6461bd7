//! What `solve` and `check` answer about a level, as typed reports that the
//! CLI prints (`--json` is their serialisation, text their `Display`) and a
//! web handler or a Python binding hands out unchanged.

use crate::check::{Ending, Illegal, replay};
use crate::exact::{Limit, Limits, Proof, Verdict, solve};
use crate::greedy::play_greedy;
use crate::level::Level;
use arcade_core::text::{self, counted};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Instant;

/// Which player answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Solver {
    /// The usual heuristic: dig for the cheapest triple. It cannot prove a
    /// level unsolvable.
    Greedy,
    /// The search that proves the answer.
    Exact,
}

/// The kind of answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum VerdictKind {
    Solved,
    Unsolvable,
    Unknown,
}

/// A solver's answer about a level: a winning click sequence, the kind of
/// proof that none exists, or which budget ran out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveReport {
    pub verdict: VerdictKind,
    /// A winning click sequence (tile ids) when solved; greedy's losing
    /// line when greedy lost (its last click filled the tray; `tiles check`
    /// replays it); else empty. The verdict says which.
    pub clicks: Vec<usize>,
    /// Positions the exact search visited (0 for greedy).
    pub nodes: u64,
    pub seconds: f64,
    pub solver: Solver,
    pub tiles: usize,
    pub types: usize,
    pub capacity: usize,
    /// Most tiles taken on any line played (all of them when solved).
    pub taken: usize,
    /// Unsolvable: why (`proof`: `tile-counts` with `type` and `count`, or `search`).
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<Proof>,
    /// Unknown after the exact search: the budget that ran out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<Limit>,
    /// Unknown after greedy: clicks made, the last of which filled the tray
    /// (so one more than `taken`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost_after: Option<usize>,
}

/// The solver's answer did not replay to a win: a bug, never an answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("internal error: the {solver:?} solution does not replay to a win")]
pub struct ReplayFailed {
    pub solver: Solver,
}

/// Answers `level` with `solver` (the exact one within `limits`); a
/// solution is confirmed by the independent replay before it is returned.
pub fn solve_level(
    level: &Level,
    solver: Solver,
    limits: &Limits,
) -> Result<SolveReport, ReplayFailed> {
    let mut report = SolveReport {
        verdict: VerdictKind::Unknown,
        clicks: Vec::new(),
        nodes: 0,
        seconds: 0.0,
        solver,
        tiles: level.len(),
        types: level.kinds(),
        capacity: level.capacity(),
        taken: 0,
        proof: None,
        limit: None,
        lost_after: None,
    };
    match solver {
        Solver::Greedy => {
            let start = Instant::now();
            let p = play_greedy(level);
            report.seconds = start.elapsed().as_secs_f64();
            report.taken = p.taken;
            if p.won {
                report.verdict = VerdictKind::Solved;
                report.clicks = p.clicks;
            } else {
                report.lost_after = Some(p.clicks.len());
                report.clicks = p.clicks;
            }
        }
        Solver::Exact => {
            let out = solve(level, limits);
            report.nodes = out.nodes;
            report.seconds = out.seconds;
            report.taken = out.best_taken;
            match out.verdict {
                Verdict::Solved(clicks) => {
                    report.verdict = VerdictKind::Solved;
                    report.clicks = clicks;
                }
                Verdict::Unsolvable(proof) => {
                    report.verdict = VerdictKind::Unsolvable;
                    report.proof = Some(proof);
                }
                Verdict::Unknown(limit) => report.limit = Some(limit),
            }
        }
    }
    if report.verdict == VerdictKind::Solved && !replay(level, &report.clicks).won() {
        return Err(ReplayFailed { solver });
    }
    Ok(report)
}

/// Tile ids, 20 to a line.
fn clicks_text(f: &mut fmt::Formatter<'_>, clicks: &[usize]) -> fmt::Result {
    for row in clicks.chunks(20) {
        let ids: Vec<String> = row.iter().map(usize::to_string).collect();
        writeln!(f, "  {}", ids.join(" "))?;
    }
    Ok(())
}

impl fmt::Display for SolveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (nodes, seconds) = (self.nodes, text::seconds(self.seconds));
        write!(
            f,
            "{}, {}, tray of {}: ",
            counted(self.tiles, "tile"),
            counted(self.types, "type"),
            self.capacity
        )?;
        let solver = match self.solver {
            Solver::Greedy => "greedy",
            Solver::Exact => "exact",
        };
        match self.verdict {
            VerdictKind::Solved => {
                writeln!(
                    f,
                    "solved by {solver} in {} clicks ({nodes} nodes, {seconds})\nclicks (tile ids):",
                    self.clicks.len()
                )?;
                clicks_text(f, &self.clicks)
            }
            VerdictKind::Unsolvable => {
                let why = match self.proof {
                    Some(Proof::TileCounts { label, count }) => {
                        format!("type {label} has {count} tiles, not a multiple of 3")
                    }
                    _ => "every line of play refuted".to_string(),
                };
                writeln!(f, "unsolvable ({why}; {nodes} nodes, {seconds})")
            }
            VerdictKind::Unknown => {
                let (taken, tiles) = (self.taken, self.tiles);
                let why = match self.limit {
                    Some(Limit::Nodes) => "the nodes limit ran out",
                    Some(Limit::Time) => "the time limit ran out",
                    None => "greedy lost",
                };
                let how_far = match self.limit {
                    Some(_) => format!("the deepest line searched took {taken} of {tiles} tiles"),
                    None => format!("after taking {taken} of {tiles} tiles"),
                };
                writeln!(f, "unknown: {why} ({how_far}; {nodes} nodes, {seconds})")?;
                if self.clicks.is_empty() {
                    return Ok(());
                }
                writeln!(f, "greedy's clicks (tile ids), the last filling the tray:")?;
                clicks_text(f, &self.clicks)
            }
        }
    }
}

/// What replaying a click sequence on a level showed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckReport {
    /// Every click was allowed.
    pub legal: bool,
    pub won: bool,
    pub ending: Ending,
    /// Clicks given.
    pub clicks: usize,
    /// Legal clicks made before the replay stopped.
    pub legal_clicks: usize,
    pub taken: usize,
    pub tiles: usize,
    /// The tray at the end (type labels, in arrival order).
    pub tray: Vec<u32>,
}

/// Replays `clicks` on `level` (independently of the solver).
pub fn check_clicks(level: &Level, clicks: &[usize]) -> CheckReport {
    let r = replay(level, clicks);
    CheckReport {
        legal: !matches!(r.ending, Ending::Illegal { .. }),
        won: r.won(),
        clicks: clicks.len(),
        legal_clicks: r.clicks,
        taken: r.taken,
        tiles: level.len(),
        tray: r.tray,
        ending: r.ending,
    }
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.tiles;
        match &self.ending {
            Ending::Won => writeln!(
                f,
                "legal, wins: all {n} tiles cleared in {} clicks",
                self.legal_clicks
            ),
            Ending::Lost { at } => {
                write!(
                    f,
                    "legal, loses: the tray fills at click {} ({} of {n} tiles taken), tray {:?}",
                    at + 1,
                    self.taken,
                    self.tray
                )?;
                match self.clicks - self.legal_clicks {
                    0 => writeln!(f),
                    more => writeln!(f, "; {more} later clicks ignored"),
                }
            }
            Ending::Stranded => writeln!(
                f,
                "legal, loses: all {n} tiles taken in {} clicks, but the tray still holds {:?} \
                 (a type's count is not a multiple of 3)",
                self.legal_clicks, self.tray
            ),
            Ending::Unfinished { remaining } => writeln!(
                f,
                "legal, unfinished: {remaining} of {n} tiles still on the board, tray {:?}",
                self.tray
            ),
            Ending::Illegal { at, tile, why } => {
                let why = match why {
                    Illegal::NoSuchTile => format!(
                        "there is no tile {tile} (ids are 0 to {})",
                        n.saturating_sub(1)
                    ),
                    Illegal::AlreadyTaken => format!("tile {tile} was already taken"),
                    Illegal::Covered { by } => format!("tile {tile} is covered by tile {by}"),
                };
                writeln!(f, "illegal: click {} — {why}", at + 1)
            }
        }
    }
}

/// A click file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ClicksError(String);

/// Tile ids from a JSON list, `solve`'s JSON output (its `clicks`), a level
/// written by `generate` (its `meta.intended`), or plain numbers separated
/// by spaces, commas or newlines.
pub fn parse_clicks(text: &str) -> Result<Vec<usize>, ClicksError> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') || trimmed.starts_with('{') {
        return parse_json_clicks(text).map_err(ClicksError);
    }
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .enumerate()
        .map(|(i, s)| {
            s.parse().map_err(|_| {
                ClicksError(format!(
                    "click {}: expected a tile id, got {:?}",
                    i + 1,
                    cut(s)
                ))
            })
        })
        .collect()
}

fn parse_json_clicks(text: &str) -> Result<Vec<usize>, String> {
    use serde_json::Value;
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let list = match &value {
        Value::Object(o) => o
            .get("clicks")
            .or_else(|| o.get("meta").and_then(|m| m.get("intended")))
            .ok_or(
                "expected \"clicks\" (solve's output) or \"meta.intended\" (a generated level)",
            )?,
        v => v,
    };
    let items = list.as_array().ok_or("\"clicks\" must be a list")?;
    items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or(format!(
                    "clicks[{i}]: expected a tile id, got {}",
                    cut(&v.to_string())
                ))
        })
        .collect()
}

/// The first 40 characters of `s`, with "…" when cut.
fn cut(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::tests::tile;

    #[test]
    fn clicks_come_as_lists_objects_or_plain_numbers() {
        assert_eq!(parse_clicks("[3, 1, 2]").unwrap(), vec![3, 1, 2]);
        assert_eq!(
            parse_clicks(r#"{"verdict":"solved","clicks":[5,0]}"#).unwrap(),
            vec![5, 0]
        );
        assert_eq!(parse_clicks("4 5,6\n7").unwrap(), vec![4, 5, 6, 7]);
        assert!(parse_clicks("[1, -2]").unwrap_err().0.contains("clicks[1]"));
        assert!(parse_clicks("1 x").unwrap_err().0.contains("click 2"));
        assert_eq!(
            parse_clicks(r#"{"meta":{"intended":[2,1]},"tiles":[]}"#).unwrap(),
            vec![2, 1]
        );
        assert!(parse_clicks(r#"{"moves":[]}"#).is_err());
        let long = format!("1 {}", "y".repeat(10_000));
        assert!(parse_clicks(&long).unwrap_err().0.len() < 100);
    }

    /// A column of three 1s over three 2s, top first.
    fn column() -> Level {
        let tiles = [1, 1, 1, 2, 2, 2]
            .iter()
            .enumerate()
            .map(|(i, &k)| tile(k, 5 - i as i32, 0, 0))
            .collect();
        Level::new(tiles, 7).unwrap()
    }

    #[test]
    fn reports_serialise_with_the_documented_keys_and_read_back() {
        let level = column();
        for solver in [Solver::Exact, Solver::Greedy] {
            let r = solve_level(&level, solver, &Limits::nodes(1000)).unwrap();
            assert_eq!(r.verdict, VerdictKind::Solved);
            assert_eq!(r.clicks, vec![0, 1, 2, 3, 4, 5]);
            let v = serde_json::to_value(&r).unwrap();
            for key in [
                "verdict", "clicks", "nodes", "seconds", "solver", "tiles", "taken",
            ] {
                assert!(v.get(key).is_some(), "{key} in {v}");
            }
            let back: SolveReport = serde_json::from_value(v).unwrap();
            assert_eq!(back, r);
        }
        let uneven = Level::new(vec![tile(4, 0, 0, 0)], 7).unwrap();
        let r = solve_level(&uneven, Solver::Exact, &Limits::nodes(10)).unwrap();
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["proof"], "tile-counts");
        assert_eq!(v["type"], 4);
        assert_eq!(v["count"], 1);
        assert_eq!(serde_json::from_value::<SolveReport>(v).unwrap(), r);
        assert!(r.to_string().contains("type 4 has 1 tiles"), "{r}");
    }

    #[test]
    fn check_reports_say_how_the_replay_ended() {
        let level = column();
        let won = check_clicks(&level, &[0, 1, 2, 3, 4, 5]);
        assert!(won.legal && won.won);
        let bad = check_clicks(&level, &[0, 2]);
        assert!(!bad.legal && !bad.won);
        assert!(
            bad.to_string().contains("tile 2 is covered by tile 1"),
            "{bad}"
        );
        let v = serde_json::to_value(&bad).unwrap();
        assert_eq!(serde_json::from_value::<CheckReport>(v).unwrap(), bad);
    }
}

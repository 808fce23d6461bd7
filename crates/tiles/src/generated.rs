//! Generate-then-verify: make a level with one of the methods, confirm it
//! with the independent replay and the exact solver, and describe it. The
//! level file's `meta` object ([`GenerateMeta`]) keeps the provenance and,
//! for constructed levels, the intended clicks (a certificate anyone can
//! replay).

use crate::check::replay;
use crate::evolve::{EvolveConfig, evolve};
use crate::exact::{Limits, Verdict, solve};
use crate::format::{parse_arcade, to_json};
use crate::generate::{GenerateError, construct, tray_profile};
use crate::greedy::play_greedy;
use crate::layout::Classic;
use crate::level::{Level, MAX_CAPACITY, MIN_CAPACITY};
use crate::load::LoadError;
use arcade_core::text::counted;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Instant;

/// How to make a level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Method {
    /// Built around a random legal removal order (solvable by construction);
    /// `difficulty` (0 to 1) is how long tiles wait in the tray.
    Construct { difficulty: f64 },
    /// The published approach: DE picks tile swaps on a random deal until the
    /// greedy player clears it.
    DeSwap(EvolveConfig),
}

impl Method {
    /// `construct` or `de-swap`, as the options and reports name it.
    pub fn name(&self) -> &'static str {
        match self {
            Method::Construct { .. } => "construct",
            Method::DeSwap(_) => "de-swap",
        }
    }
}

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GenerateConfig {
    pub shape: Classic,
    pub capacity: usize,
    pub method: Method,
    pub seed: u64,
}

/// How the level was made, by method.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "generator", rename_all = "kebab-case")]
pub enum Provenance {
    Construct {
        difficulty: f64,
        /// The winning clicks the level was built around.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        intended: Vec<usize>,
        /// Most tiles in the tray along the intended clicks (and the mean).
        peak_tray: usize,
        mean_tray: f64,
    },
    DeSwap {
        /// Whether greedy clears the best level found.
        greedy_clears: bool,
        /// Greedy's winning clicks, when it clears the level: a certificate
        /// `tiles check` replays, as a constructed level's.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        intended: Vec<usize>,
        /// The evolution's fitness: the share of the best level's tiles
        /// greedy removes (the report's `greedy_share` is measured on the
        /// level written; older files call this one `greedy_share` too).
        #[serde(alias = "greedy_share")]
        search_greedy_share: f64,
        generations: usize,
        evaluations: u64,
    },
}

/// The `meta` object of a generated level file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerateMeta {
    #[serde(flatten)]
    pub provenance: Provenance,
    pub layers: usize,
    pub types: usize,
    pub groups: usize,
    pub seed: u64,
}

/// A generated level and its provenance, as written to a file.
#[derive(Clone, Debug)]
pub struct GeneratedLevel {
    pub level: Level,
    pub meta: GenerateMeta,
}

impl GeneratedLevel {
    /// The level in arcade's format, `meta` included.
    pub fn to_json(&self) -> String {
        let meta = serde_json::to_value(&self.meta).expect("plain data");
        to_json(&self.level, &meta)
    }

    /// Reads a level written by [`GeneratedLevel::to_json`].
    pub fn parse(text: &str) -> Result<GeneratedLevel, LoadError> {
        let file = parse_arcade(text, None)?;
        let meta =
            serde_json::from_value(file.meta).map_err(|e| LoadError::new("meta", e.to_string()))?;
        Ok(GeneratedLevel {
            level: file.level,
            meta,
        })
    }
}

/// What generate-then-verify found: the provenance (without the intended
/// clicks) and what the exact solver and the greedy player make of the level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerateReport {
    #[serde(flatten)]
    pub meta: GenerateMeta,
    pub tiles: usize,
    pub capacity: usize,
    /// The exact solver's verdict: `solved`, `unsolvable` or `unknown`.
    pub verdict: String,
    pub verify_nodes: u64,
    pub verify_seconds: f64,
    /// Most tiles in the tray along the solver's solution, when solved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution_peak_tray: Option<usize>,
    pub greedy_wins: bool,
    pub greedy_share: f64,
    pub make_seconds: f64,
    pub seconds: f64,
    /// Where the level was written (set by whoever writes it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out: Option<String>,
}

/// Why generate-then-verify failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum VerifyError {
    #[error(transparent)]
    Generate(#[from] GenerateError),
    #[error("internal error: the intended clicks of a constructed level do not win")]
    IntendedLoses,
    #[error("internal error: a constructed level was refuted by the exact solver")]
    Refuted,
    /// De-swap's best level is not known to be solvable: greedy fails on it
    /// and the exact solver refuted it or ran out of its budget. Each front
    /// end adds which of its settings to raise.
    #[error("de-swap found no level the greedy player clears, and the exact solver {0}")]
    DeSwapUnproven(Unproven),
}

/// What the exact solver said of de-swap's best level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unproven {
    #[error("refuted the best one")]
    Refuted,
    #[error("could not decide the best one within its budget")]
    Undecided,
}

/// Checks the tray size a generator can fill: the range a level may ask
/// for ([`MIN_CAPACITY`] to [`MAX_CAPACITY`]).
pub fn check_capacity(capacity: usize) -> Result<(), GenerateError> {
    if (MIN_CAPACITY..=MAX_CAPACITY).contains(&capacity) {
        Ok(())
    } else {
        Err(GenerateError::Capacity(capacity))
    }
}

/// Makes a level by `config`'s method, with how it was made; a constructed
/// level's intended clicks must replay to a win.
fn make(config: &GenerateConfig) -> Result<(Level, Provenance), VerifyError> {
    let GenerateConfig {
        shape,
        capacity,
        seed,
        ..
    } = *config;
    match config.method {
        Method::Construct { difficulty } => {
            let g = construct(&shape, capacity, difficulty, seed)?;
            if !replay(&g.level, &g.intended).won() {
                return Err(VerifyError::IntendedLoses);
            }
            let provenance = Provenance::Construct {
                difficulty,
                intended: g.intended,
                peak_tray: g.peak_tray,
                mean_tray: g.mean_tray,
            };
            Ok((g.level, provenance))
        }
        Method::DeSwap(de) => {
            de.validate()?;
            check_capacity(capacity)?;
            let e = evolve(&shape, capacity, &de, seed).map_err(GenerateError::from)?;
            let provenance = Provenance::DeSwap {
                greedy_clears: e.won,
                intended: Vec::new(),
                search_greedy_share: e.best_share,
                generations: e.generations,
                evaluations: e.evaluations,
            };
            Ok((e.level, provenance))
        }
    }
}

/// A de-swap level that greedy loses is kept only if the exact solver
/// solved it.
fn de_swap_proven(verdict: &Verdict) -> Result<(), VerifyError> {
    match verdict {
        Verdict::Solved(_) => Ok(()),
        Verdict::Unsolvable(_) => Err(VerifyError::DeSwapUnproven(Unproven::Refuted)),
        Verdict::Unknown(_) => Err(VerifyError::DeSwapUnproven(Unproven::Undecided)),
    }
}

/// Makes a level with `config` and verifies it: the intended clicks of a
/// constructed level must replay to a win, and the exact solver (within
/// `verify`) must not refute it.
pub fn generate_verified(
    config: &GenerateConfig,
    verify: &Limits,
) -> Result<(GeneratedLevel, GenerateReport), VerifyError> {
    let start = Instant::now();
    let GenerateConfig { shape, seed, .. } = *config;
    let (level, mut provenance) = make(config)?;
    let make_seconds = start.elapsed().as_secs_f64();
    let verified = solve(&level, verify);
    if matches!(config.method, Method::Construct { .. })
        && matches!(verified.verdict, Verdict::Unsolvable(_))
    {
        return Err(VerifyError::Refuted);
    }
    let greedy = play_greedy(&level);
    if let Provenance::DeSwap { intended, .. } = &mut provenance {
        // A de-swap level's intended clicks are greedy's, when it wins.
        if greedy.won {
            *intended = greedy.clicks.clone();
        } else {
            de_swap_proven(&verified.verdict)?;
        }
    }
    let meta = GenerateMeta {
        provenance,
        layers: shape.layers,
        types: shape.types,
        groups: shape.groups,
        seed,
    };
    let mut summary = meta.clone();
    match &mut summary.provenance {
        Provenance::Construct { intended, .. } | Provenance::DeSwap { intended, .. } => {
            intended.clear()
        }
    }
    let report = GenerateReport {
        meta: summary,
        tiles: level.len(),
        capacity: level.capacity(),
        verdict: verified.verdict.name().to_string(),
        verify_nodes: verified.nodes,
        verify_seconds: verified.seconds,
        solution_peak_tray: match &verified.verdict {
            Verdict::Solved(clicks) => Some(tray_profile(&level, clicks).peak),
            _ => None,
        },
        greedy_wins: greedy.won,
        greedy_share: greedy.taken as f64 / level.len().max(1) as f64,
        make_seconds,
        seconds: start.elapsed().as_secs_f64(),
        out: None,
    };
    Ok((GeneratedLevel { level, meta }, report))
}

impl fmt::Display for GenerateReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = &self.meta;
        writeln!(
            f,
            "wrote {} ({} tiles, {}, {} × {}, tray {})",
            self.out.as_deref().unwrap_or("the level"),
            self.tiles,
            counted(m.layers, "layer"),
            counted(m.types, "type"),
            counted(m.groups, "group"),
            self.capacity
        )?;
        match &m.provenance {
            Provenance::Construct {
                difficulty,
                peak_tray,
                mean_tray,
                ..
            } => writeln!(
                f,
                "  construct, difficulty {difficulty}: intended path holds up to {peak_tray} tiles in the tray (mean {mean_tray:.2}); made in {:.4} s",
                self.make_seconds
            )?,
            Provenance::DeSwap {
                greedy_clears,
                generations,
                evaluations,
                ..
            } => writeln!(
                f,
                "  de-swap: greedy {} after {} ({evaluations} evaluations, {:.3} s)",
                if *greedy_clears {
                    "clears it"
                } else {
                    "still fails"
                },
                counted(*generations, "generation"),
                self.make_seconds
            )?,
        }
        writeln!(
            f,
            "  exact solver: {} ({} nodes, {:.4} s{}); greedy player: {} ({:.0}% of {} tiles)",
            self.verdict,
            self.verify_nodes,
            self.verify_seconds,
            self.solution_peak_tray.map_or(String::new(), |p| format!(
                ", its solution peaks at {p} in the tray"
            )),
            if self.greedy_wins { "wins" } else { "loses" },
            100.0 * self.greedy_share,
            self.tiles
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(method: Method) -> GenerateConfig {
        GenerateConfig {
            shape: Classic {
                layers: 10,
                types: 6,
                groups: 4,
            },
            capacity: 7,
            method,
            seed: 3,
        }
    }

    #[test]
    fn constructed_levels_verify_and_their_file_keeps_the_certificate() {
        let c = config(Method::Construct { difficulty: 0.6 });
        let (generated, report) = generate_verified(&c, &Limits::nodes(200_000)).unwrap();
        assert_eq!(report.verdict, "solved");
        assert_eq!(report.tiles, 72);
        let back = GeneratedLevel::parse(&generated.to_json()).unwrap();
        assert_eq!(back.meta, generated.meta);
        let Provenance::Construct { intended, .. } = &back.meta.provenance else {
            panic!("constructed");
        };
        assert!(replay(&back.level, intended).won());
        // The report leaves the certificate out.
        let v = serde_json::to_value(&report).unwrap();
        assert_eq!(v["generator"], "construct");
        assert!(v.get("intended").is_none());
        assert_eq!(serde_json::from_value::<GenerateReport>(v).unwrap(), report);
        let (again, _) = generate_verified(&c, &Limits::nodes(200_000)).unwrap();
        assert_eq!(again.to_json(), generated.to_json());
    }

    /// A de-swap level is written only when it is known solvable, and then
    /// holds greedy's winning clicks as its certificate.
    #[test]
    fn de_swap_levels_are_proven_solvable_or_refused() {
        let de = EvolveConfig {
            generations: 2,
            population: 4,
            swaps: 1,
            ..EvolveConfig::default()
        };
        let hard = GenerateConfig {
            shape: Classic {
                layers: 26,
                types: 12,
                groups: 10,
            },
            capacity: 4,
            method: Method::DeSwap(de),
            seed: 6,
        };
        let refused = generate_verified(&hard, &Limits::nodes(1_000_000)).unwrap_err();
        assert!(
            refused.to_string().contains("refuted the best one"),
            "{refused}"
        );
        let undecided = generate_verified(&hard, &Limits::nodes(10)).unwrap_err();
        assert!(
            undecided.to_string().contains("could not decide"),
            "{undecided}"
        );
        let easy = GenerateConfig {
            method: Method::DeSwap(EvolveConfig::default()),
            ..config(Method::Construct { difficulty: 0.0 })
        };
        let (generated, report) = generate_verified(&easy, &Limits::nodes(50_000)).unwrap();
        assert!(report.greedy_wins);
        let back = GeneratedLevel::parse(&generated.to_json()).unwrap();
        let Provenance::DeSwap { intended, .. } = &back.meta.provenance else {
            panic!("de-swap");
        };
        assert!(replay(&back.level, intended).won());
        assert!(
            serde_json::to_value(&report)
                .unwrap()
                .get("intended")
                .is_none()
        );
    }

    #[test]
    fn de_swap_levels_report_what_greedy_does() {
        let de = EvolveConfig {
            generations: 3,
            ..EvolveConfig::default()
        };
        let (_, report) =
            generate_verified(&config(Method::DeSwap(de)), &Limits::nodes(50_000)).unwrap();
        let Provenance::DeSwap { greedy_clears, .. } = report.meta.provenance else {
            panic!("de-swap");
        };
        assert_eq!(greedy_clears, report.greedy_wins);
        // Every key once (the fitness once shared the report's key), and
        // the JSON reads back.
        let json = serde_json::to_string(&report).unwrap();
        assert_eq!(json.matches("\"greedy_share\"").count(), 1, "{json}");
        assert_eq!(json.matches("\"search_greedy_share\"").count(), 1, "{json}");
        assert_eq!(
            serde_json::from_str::<GenerateReport>(&json).unwrap(),
            report
        );
        // Level files written before the rename still read.
        let old = serde_json::to_string(&report.meta)
            .unwrap()
            .replace("search_greedy_share", "greedy_share");
        assert_eq!(
            serde_json::from_str::<GenerateMeta>(&old).unwrap(),
            report.meta
        );
        let bad = EvolveConfig {
            population: 2,
            ..de
        };
        assert!(generate_verified(&config(Method::DeSwap(bad)), &Limits::nodes(10)).is_err());
    }
}

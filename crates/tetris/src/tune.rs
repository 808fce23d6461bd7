//! Weight tuning: the fitness of a weight vector is the mean number of lines
//! its one-piece player clears over a few seeded games, maximised by one of
//! arcade-core's optimizers. The whole run lives in a [`Checkpoint`] that is
//! saved after every generation, so an interrupted run resumes exactly.

use crate::bench::{self, BenchConfig};
use crate::board::Board;
use crate::eval::Weights;
use crate::features::{COUNT, Feature};
use crate::game::Limits;
use crate::movegen::MoveMode;
use crate::player::Player;
use crate::rules::Rules;
use crate::source::Randomizer;
use arcade_core::derive_seed;
use arcade_core::optim::{Generation, Run, Setup};
pub use arcade_core::optim::{Method, Start};
use arcade_core::progress::Progress;
use serde::{Deserialize, Serialize};

/// Feature presets for `--features`: the features a built-in weight set
/// uses (`dellacherie`, `bcts`, ...), or `all`.
pub fn feature_preset(name: &str) -> Option<Vec<Feature>> {
    if name == "all" {
        return Some(Feature::ALL.to_vec());
    }
    Weights::builtin(name).map(|w| w.used().map(|(f, _)| f).collect())
}

/// The features `--features` names: a preset ([`feature_preset`]) or names
/// separated by commas, each once (a repeated one would be tuned as two
/// weights but saved as one).
pub fn parse_features(spec: &str) -> Result<Vec<Feature>, String> {
    if let Some(preset) = feature_preset(spec) {
        return Ok(preset);
    }
    let mut features: Vec<Feature> = Vec::new();
    for name in spec.split(',') {
        let feature = Feature::from_name(name.trim()).ok_or_else(|| {
            let known = Feature::ALL.map(Feature::name).into_iter();
            let names = known.chain(crate::eval::BUILTINS.iter().copied()).chain(["all"]);
            let hint = arcade_core::text::did_you_mean(name.trim(), names);
            format!(
                "unknown feature {name:?}{hint}; expected a built-in AI's set ({}), all, or names among: {}",
                crate::eval::BUILTINS.join(", "),
                Feature::ALL.map(Feature::name).join(", ")
            )
        })?;
        if features.contains(&feature) {
            return Err(format!("{} is named twice", feature.name()));
        }
        features.push(feature);
    }
    Ok(features)
}

/// What is tuned and how each candidate is scored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneSetup {
    pub features: Vec<Feature>,
    pub width: usize,
    pub height: usize,
    pub games_per_eval: usize,
    /// Stop each game at this many lines (bounds the cost of good candidates).
    pub line_cap: Option<u64>,
    pub mode: MoveMode,
    pub randomizer: Randomizer,
}

impl TuneSetup {
    /// The weights a candidate vector stands for.
    pub fn weights(&self, name: &str, x: &[f64]) -> Weights {
        let mut values = [0.0; COUNT];
        for (f, &w) in self.features.iter().zip(x) {
            values[f.index()] = w;
        }
        Weights {
            name: name.to_string(),
            values,
            expect_from: None,
        }
    }

    /// The candidate vector of existing weights (for `--init`).
    pub fn vector(&self, weights: &Weights) -> Vec<f64> {
        self.features.iter().map(|&f| weights.get(f)).collect()
    }

    /// Mean lines over `games_per_eval` games; game `j` is seeded with
    /// `derive_seed(seed, j)`, so candidates sharing `seed` play the same games.
    pub fn fitness(&self, rules: &Rules, x: &[f64], seed: u64) -> f64 {
        let cfg = BenchConfig {
            width: self.width,
            height: self.height,
            games: self.games_per_eval as u64,
            seed,
            limits: Limits {
                max_pieces: None,
                max_lines: self.line_cap,
            },
            mode: self.mode,
            preview: false,
            expect_from: None,
            randomizer: self.randomizer,
        };
        let player = Player::new(
            rules.clone(),
            self.weights("candidate", x),
            self.mode,
            false,
        );
        let total: u64 = (0..self.games_per_eval)
            .map(|j| bench::play_one(&player, &cfg, derive_seed(seed, j as u64)).lines)
            .sum();
        total as f64 / self.games_per_eval as f64
    }
}

/// How a tuned weights file was made: its `about` object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneAbout {
    pub made_by: String,
    pub method: Method,
    pub board: String,
    pub generations: usize,
    pub games_per_eval: usize,
    pub line_cap: Option<u64>,
    pub moves: MoveMode,
    pub last_generation: Option<Generation>,
}

/// What a finished (or resumed and finished) tuning session reports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneReport {
    /// The weights file written.
    pub out: String,
    pub generations: usize,
    pub seconds: f64,
    pub weights: Weights,
    pub about: TuneAbout,
}

impl std::fmt::Display for TuneReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "wrote {} after {} generations ({:.1} s this session):",
            self.out, self.generations, self.seconds
        )?;
        write!(f, "{}", self.weights.describe())
    }
}

/// A tuning run of weights for the classic game, resumable.
pub type Checkpoint = Run<TuneSetup>;

impl TuneAbout {
    /// How `run`'s current recommendation was made (the weights file's `about`).
    pub fn of(run: &Checkpoint) -> TuneAbout {
        TuneAbout {
            made_by: "arcade tetris tune".into(),
            method: run.method,
            board: format!("{}x{}", run.setup.width, run.setup.height),
            generations: run.history.len(),
            games_per_eval: run.setup.games_per_eval,
            line_cap: run.setup.line_cap,
            moves: run.setup.mode,
            last_generation: run.history.last().cloned(),
        }
    }
}

/// The weights `run` recommends now, named `name`.
pub fn recommended(run: &Checkpoint, name: &str) -> Weights {
    run.setup.weights(name, &run.optimizer.recommendation())
}

/// The weights file of `run`'s current recommendation, named `name`.
pub fn weights_file(run: &Checkpoint, name: &str) -> String {
    let about = serde_json::to_value(TuneAbout::of(run)).expect("the about record serialises");
    recommended(run, name).to_json(about)
}

/// One generation of `run` on the current rayon pool.
pub fn step(run: &mut Checkpoint, rules: &Rules, progress: &Progress) -> Generation {
    run.step(|setup, x, seed| setup.fitness(rules, x, seed), progress)
}

/// Most games one fitness evaluation plays.
pub const MAX_GAMES_PER_EVAL: usize = 1_000_000;

impl TuneSetup {
    /// Checks that the setup describes runnable games.
    pub fn check(&self) -> Result<(), String> {
        Board::new(self.width, self.height).map_err(|e| e.to_string())?;
        if self.features.is_empty() {
            return Err("no features to tune".into());
        }
        if let Some(f) = self
            .features
            .iter()
            .enumerate()
            .find_map(|(i, f)| self.features[..i].contains(f).then_some(f))
        {
            return Err(format!("feature {:?} is listed twice", f.name()));
        }
        if !(1..=MAX_GAMES_PER_EVAL).contains(&self.games_per_eval) {
            return Err(format!(
                "games_per_eval must be from 1 to {MAX_GAMES_PER_EVAL}, found {}",
                self.games_per_eval
            ));
        }
        Ok(())
    }
}

impl Setup for TuneSetup {
    fn check(&self) -> Result<(), String> {
        TuneSetup::check(self)
    }
    fn dimension(&self) -> usize {
        self.features.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> TuneSetup {
        TuneSetup {
            features: feature_preset("dellacherie").unwrap(),
            width: 6,
            height: 6,
            games_per_eval: 3,
            line_cap: Some(200),
            mode: MoveMode::Drop,
            randomizer: Randomizer::Uniform,
        }
    }

    #[test]
    fn fitness_is_seeded_and_rewards_good_weights() {
        let rules = Rules::classic();
        let s = setup();
        let good = s.vector(&Weights::builtin("dellacherie").unwrap());
        let bad: Vec<f64> = good.iter().map(|w| -w).collect();
        assert_eq!(s.fitness(&rules, &good, 1), s.fitness(&rules, &good, 1));
        let sum = |x: &[f64]| (0..5).map(|k| s.fitness(&rules, x, k)).sum::<f64>();
        assert!(
            sum(&good) > sum(&bad) + 5.0,
            "{} vs {}",
            sum(&good),
            sum(&bad)
        );
    }

    #[test]
    fn checkpoint_resume_matches_an_uninterrupted_run() {
        let rules = Rules::classic();
        let start = Start {
            method: Method::Cem,
            init: vec![0.0; 6],
            spread: 5.0,
            population: Some(10),
            noise: None,
            seed: 4,
        };
        let mut straight = Checkpoint::new(setup(), &start, 4).unwrap();
        for _ in 0..4 {
            step(&mut straight, &rules, &Progress::hidden());
        }
        let dir = std::env::temp_dir().join(format!("arcade-tune-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ck.json");
        let mut first = Checkpoint::new(setup(), &start, 4).unwrap();
        for _ in 0..2 {
            step(&mut first, &rules, &Progress::hidden());
        }
        first.save(&path).unwrap();
        let mut resumed = Checkpoint::load(&path).unwrap();
        while !resumed.is_done() {
            step(&mut resumed, &rules, &Progress::hidden());
        }
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(resumed.history, straight.history);
        assert_eq!(recommended(&resumed, "x"), recommended(&straight, "x"));
    }
}

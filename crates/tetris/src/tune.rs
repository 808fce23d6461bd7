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
use arcade_core::checkpoint::{self, CheckpointError, Validate};
use arcade_core::derive_seed;
use arcade_core::optim::{
    Cem, CemConfig, ConfigError, De, DeConfig, Generation, Optimizer, Pso, PsoConfig,
};
use arcade_core::progress::Progress;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Feature presets for `--features`: the features a built-in weight set
/// uses (`dellacherie`, `bcts`, ...), or `all`.
pub fn feature_preset(name: &str) -> Option<Vec<Feature>> {
    if name == "all" {
        return Some(Feature::ALL.to_vec());
    }
    Weights::builtin(name).map(|w| w.used().map(|(f, _)| f).collect())
}

/// The optimisation method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    Cem,
    De,
    Pso,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Cem => "cem",
            Method::De => "de",
            Method::Pso => "pso",
        }
    }
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

/// How to start the optimizer.
#[derive(Clone, Debug)]
pub struct Start {
    pub method: Method,
    /// Centre of the initial distribution or box.
    pub init: Vec<f64>,
    /// Initial standard deviation (CEM) or box half-width (DE, PSO).
    pub spread: f64,
    /// Candidates per generation; `None` for the method's default.
    pub population: Option<usize>,
    /// CEM only: variance added after each generation, decreasing linearly
    /// to zero at `noise.1` generations. `None` keeps Szita & Lőrincz's
    /// max(5 − t/10, 0), which suits weights of order 10; searches over a
    /// smaller scale need it scaled down or the noise swamps the signal.
    pub noise: Option<(f64, usize)>,
    pub seed: u64,
}

/// The optimizer a run starts with; bad settings (a zero population, a
/// negative spread) are reported, not panicked on.
pub fn new_optimizer(start: &Start) -> Result<Optimizer, ConfigError> {
    let low: Vec<f64> = start.init.iter().map(|c| c - start.spread).collect();
    let high: Vec<f64> = start.init.iter().map(|c| c + start.spread).collect();
    Ok(match start.method {
        Method::Cem => {
            let mut cfg = CemConfig::new(start.init.clone(), start.seed);
            cfg.initial_std = start.spread;
            cfg.population = start.population.unwrap_or(cfg.population);
            if let Some((noise, generations)) = start.noise {
                cfg.noise_start = noise;
                cfg.noise_decay = noise / generations.max(1) as f64;
            }
            cfg.validate()?;
            Optimizer::Cem(Cem::new(cfg))
        }
        Method::De => {
            let mut cfg = DeConfig::new(low, high, start.seed);
            cfg.population = start.population.unwrap_or(cfg.population);
            cfg.validate()?;
            Optimizer::De(De::new(cfg))
        }
        Method::Pso => {
            let mut cfg = PsoConfig::new(low, high, start.seed);
            cfg.population = start.population.unwrap_or(cfg.population);
            cfg.validate()?;
            Optimizer::Pso(Pso::new(cfg))
        }
    })
}

/// A tuning run: setup, optimizer state and the history so far.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Checkpoint {
    pub setup: TuneSetup,
    pub method: Method,
    /// Generations the run is meant to reach.
    pub generations: usize,
    pub optimizer: Optimizer,
    pub history: Vec<Generation>,
}

impl Checkpoint {
    pub fn new(
        setup: TuneSetup,
        start: &Start,
        generations: usize,
    ) -> Result<Checkpoint, ConfigError> {
        Ok(Checkpoint {
            setup,
            method: start.method,
            generations,
            optimizer: new_optimizer(start)?,
            history: Vec::new(),
        })
    }

    pub fn is_done(&self) -> bool {
        self.history.len() >= self.generations
    }

    /// Runs one generation on the current rayon pool.
    pub fn step(&mut self, rules: &Rules, progress: &Progress) -> Generation {
        let setup = self.setup.clone();
        let fitness = move |x: &[f64], seed: u64| setup.fitness(rules, x, seed);
        let g = self.optimizer.step(&fitness, progress);
        self.history.push(g.clone());
        g
    }

    /// The weights the run recommends now.
    pub fn weights(&self, name: &str) -> Weights {
        self.setup.weights(name, &self.optimizer.recommendation())
    }

    /// How the current recommendation was made (the weights file's `about`).
    pub fn about(&self) -> TuneAbout {
        TuneAbout {
            made_by: "arcade tetris tune".into(),
            method: self.method,
            board: format!("{}x{}", self.setup.width, self.setup.height),
            generations: self.history.len(),
            games_per_eval: self.setup.games_per_eval,
            line_cap: self.setup.line_cap,
            moves: self.setup.mode,
            last_generation: self.history.last().cloned(),
        }
    }

    /// The weights file of the current recommendation, named `name`.
    pub fn weights_file(&self, name: &str) -> String {
        let about = serde_json::to_value(self.about()).expect("the about record serialises");
        self.weights(name).to_json(about)
    }

    /// Writes atomically: a run killed mid-write keeps the previous file.
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        checkpoint::save(self, path)
    }

    pub fn load(path: &Path) -> Result<Checkpoint, CheckpointError> {
        checkpoint::load(path)
    }
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
                "games_per_eval {} is not from 1 to {MAX_GAMES_PER_EVAL}",
                self.games_per_eval
            ));
        }
        Ok(())
    }
}

/// Checks what every tuning run holds: the optimizer's state validates, it
/// is of `method` and searches `dimension` numbers, and `history` has one
/// entry per generation it ran.
pub(crate) fn check_run(
    optimizer: &Optimizer,
    method: Method,
    dimension: usize,
    history: &[Generation],
) -> Result<(), String> {
    optimizer
        .validate()
        .map_err(|e| format!("optimizer: {e}"))?;
    let actual = match optimizer {
        Optimizer::Cem(_) => Method::Cem,
        Optimizer::De(_) => Method::De,
        Optimizer::Pso(_) => Method::Pso,
    };
    if actual != method {
        return Err(format!(
            "method is {} but the optimizer state is {}",
            method.as_str(),
            actual.as_str()
        ));
    }
    if optimizer.dimension() != dimension {
        return Err(format!(
            "the optimizer searches {} numbers, expected {dimension} (one per weight)",
            optimizer.dimension()
        ));
    }
    if history.len() != optimizer.generations_done() {
        return Err(format!(
            "history has {} generations, the optimizer ran {}",
            history.len(),
            optimizer.generations_done()
        ));
    }
    Ok(())
}

/// A loaded run is checked in full (setup, optimizer, history), so an edited
/// checkpoint is an error that says what is wrong, never a panic later.
impl Validate for Checkpoint {
    fn validate(&self) -> Result<(), String> {
        self.setup.check().map_err(|e| format!("setup: {e}"))?;
        check_run(
            &self.optimizer,
            self.method,
            self.setup.features.len(),
            &self.history,
        )
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
            straight.step(&rules, &Progress::hidden());
        }
        let dir = std::env::temp_dir().join(format!("arcade-tune-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ck.json");
        let mut first = Checkpoint::new(setup(), &start, 4).unwrap();
        for _ in 0..2 {
            first.step(&rules, &Progress::hidden());
        }
        first.save(&path).unwrap();
        let mut resumed = Checkpoint::load(&path).unwrap();
        while !resumed.is_done() {
            resumed.step(&rules, &Progress::hidden());
        }
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(resumed.history, straight.history);
        assert_eq!(resumed.weights("x"), straight.weights("x"));
    }
}

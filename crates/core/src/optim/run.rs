//! A resumable tuning run: what is tuned (the caller's setup), the
//! optimizer's state and the generations run so far. The whole run is one
//! serialisable value, saved after every generation, so an interrupted run
//! resumes exactly; a loaded run is checked in full before it is used.

use super::{Cem, CemConfig, ConfigError, De, DeConfig, Generation, Optimizer, Pso, PsoConfig};
use crate::checkpoint::{self, CheckpointError, Validate};
use crate::progress::Progress;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::Path;

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

    /// The fewest candidates a generation may hold: DE mixes three other
    /// members into each trial, so it needs four.
    pub fn min_population(self) -> usize {
        match self {
            Method::De => 4,
            Method::Cem | Method::Pso => 1,
        }
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
    /// Candidates per generation; `None`: the method's default.
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

/// What a run tunes: the caller's description of the candidates and how they
/// are scored, checked when a run is loaded.
pub trait Setup {
    /// Why the setup cannot be run, if it cannot.
    fn check(&self) -> Result<(), String>;
    /// Numbers in a candidate vector.
    fn dimension(&self) -> usize;
}

/// A tuning run: setup, optimizer state and the history so far.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Run<S> {
    pub setup: S,
    pub method: Method,
    /// Generations the run is meant to reach.
    pub generations: usize,
    pub optimizer: Optimizer,
    pub history: Vec<Generation>,
}

impl<S> Run<S> {
    pub fn new(setup: S, start: &Start, generations: usize) -> Result<Run<S>, ConfigError> {
        Ok(Run {
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

    /// Runs one generation on the current rayon pool; `fitness(setup,
    /// candidate, seed)` scores a candidate.
    pub fn step<F>(&mut self, fitness: F, progress: &Progress) -> Generation
    where
        S: Sync,
        F: Fn(&S, &[f64], u64) -> f64 + Sync,
    {
        let setup = &self.setup;
        let g = self
            .optimizer
            .step(&|x: &[f64], seed: u64| fitness(setup, x, seed), progress);
        self.history.push(g.clone());
        g
    }

    /// Writes atomically: a run killed mid-write keeps the previous file.
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError>
    where
        S: Serialize,
    {
        checkpoint::save(self, path)
    }

    /// Reads a run saved by [`Run::save`], checked in full.
    pub fn load(path: &Path) -> Result<Run<S>, CheckpointError>
    where
        S: DeserializeOwned + Setup,
    {
        checkpoint::load(path)
    }
}

/// A loaded run is checked in full: a runnable setup, an optimizer state that
/// validates, of the method named and of the setup's dimension, and a
/// history as long as the generations the optimizer ran. An edited
/// checkpoint is then an error that says what is wrong, never a panic later.
impl<S: Setup> Validate for Run<S> {
    fn validate(&self) -> Result<(), String> {
        self.setup.check().map_err(|e| format!("setup: {e}"))?;
        let optimizer = &self.optimizer;
        optimizer
            .validate()
            .map_err(|e| format!("optimizer: {e}"))?;
        let actual = match optimizer {
            Optimizer::Cem(_) => Method::Cem,
            Optimizer::De(_) => Method::De,
            Optimizer::Pso(_) => Method::Pso,
        };
        if actual != self.method {
            return Err(format!(
                "method is {} but the optimizer state is {}",
                self.method.as_str(),
                actual.as_str()
            ));
        }
        let dimension = self.setup.dimension();
        if optimizer.dimension() != dimension {
            return Err(format!(
                "the optimizer searches {} numbers, expected {dimension} (one per weight)",
                optimizer.dimension()
            ));
        }
        if self.history.len() != optimizer.generations_done() {
            return Err(format!(
                "history has {} generations, the optimizer ran {}",
                self.history.len(),
                optimizer.generations_done()
            ));
        }
        Ok(())
    }
}

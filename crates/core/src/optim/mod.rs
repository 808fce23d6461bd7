//! Black-box optimizers over real vectors, maximizing a noisy fitness.
//!
//! All three share one shape so the CLI can checkpoint and resume any of them:
//! an optimizer is a serialisable state; [`Optimizer::step`] runs one
//! generation, evaluating candidates in parallel (rayon) and returning a
//! [`Generation`] report. The fitness closure receives the candidate and an
//! evaluation seed; all candidates of one generation get the same seed
//! (common random numbers: candidates are ranked on the same games), derived
//! from the optimizer's master seed and the generation index. Results are
//! identical for a seed whatever the number of threads.

mod cem;
mod de;
mod pso;
mod run;

pub use cem::{Cem, CemConfig};
pub use de::{De, DeConfig};
pub use pso::{Pso, PsoConfig};
pub use run::{Method, Run, Setup, Start, new_optimizer};

use crate::progress::Progress;
use serde::{Deserialize, Serialize};

/// The fitness to maximize: `(candidate, evaluation seed) -> score`.
pub type Fitness<'a> = dyn Fn(&[f64], u64) -> f64 + Sync + 'a;

/// What one generation found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Generation {
    /// 0-based index of the generation just run.
    pub index: usize,
    /// Best fitness among this generation's evaluations.
    pub best: f64,
    /// Mean fitness of this generation's evaluations.
    pub mean: f64,
    /// Best fitness seen so far, over all generations.
    pub best_ever: f64,
    /// Fitness evaluations made in this generation.
    pub evaluations: usize,
}

/// Any of the optimizers, as one serialisable state (for checkpoints).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "lowercase")]
pub enum Optimizer {
    Cem(Cem),
    De(De),
    Pso(Pso),
}

impl Optimizer {
    /// Runs one generation; ticks `progress` once per fitness evaluation.
    pub fn step(&mut self, fitness: &Fitness, progress: &Progress) -> Generation {
        match self {
            Optimizer::Cem(o) => o.step(fitness, progress),
            Optimizer::De(o) => o.step(fitness, progress),
            Optimizer::Pso(o) => o.step(fitness, progress),
        }
    }

    /// Number of generations run so far.
    pub fn generations_done(&self) -> usize {
        match self {
            Optimizer::Cem(o) => o.generations_done(),
            Optimizer::De(o) => o.generations_done(),
            Optimizer::Pso(o) => o.generations_done(),
        }
    }

    /// Fitness evaluations per generation.
    pub fn evaluations_per_generation(&self) -> usize {
        match self {
            Optimizer::Cem(o) => o.evaluations_per_generation(),
            Optimizer::De(o) => o.evaluations_per_generation(),
            Optimizer::Pso(o) => o.evaluations_per_generation(),
        }
    }

    /// The optimizer's current recommendation: the CEM mean (robust to
    /// lucky evaluations), or the best individual for DE and PSO.
    pub fn recommendation(&self) -> Vec<f64> {
        match self {
            Optimizer::Cem(o) => o.mean().to_vec(),
            Optimizer::De(o) => o.best().0.to_vec(),
            Optimizer::Pso(o) => o.best().0.to_vec(),
        }
    }

    /// Best single evaluation seen so far: `(candidate, fitness)`.
    pub fn best(&self) -> (&[f64], f64) {
        match self {
            Optimizer::Cem(o) => o.best(),
            Optimizer::De(o) => o.best(),
            Optimizer::Pso(o) => o.best(),
        }
    }

    /// The dimension of the vectors searched.
    pub fn dimension(&self) -> usize {
        match self {
            Optimizer::Cem(o) => o.dimension(),
            Optimizer::De(o) => o.dimension(),
            Optimizer::Pso(o) => o.dimension(),
        }
    }
}

/// A loaded state is checked in full: its configuration is runnable, every
/// vector has the configuration's dimension, populations have the configured
/// size, indices are in range and the numbers a step computes with are
/// finite, so resuming an edited checkpoint cannot panic.
impl crate::checkpoint::Validate for Optimizer {
    fn validate(&self) -> Result<(), String> {
        match self {
            Optimizer::Cem(o) => o.check_state(),
            Optimizer::De(o) => o.check_state(),
            Optimizer::Pso(o) => o.check_state(),
        }
    }
}

/// Checks that `v` (named `what`) has `dim` entries, all finite.
fn check_vector(what: &str, v: &[f64], dim: usize) -> Result<(), String> {
    if v.len() != dim {
        return Err(format!(
            "{what} has {} entries, expected {dim} (the dimension)",
            v.len()
        ));
    }
    match v.iter().position(|x| !x.is_finite()) {
        Some(j) => Err(format!("{what}[{j}] is {}, expected a finite number", v[j])),
        None => Ok(()),
    }
}

/// Checks a population of `size` vectors of dimension `dim`.
fn check_population(what: &str, rows: &[Vec<f64>], size: usize, dim: usize) -> Result<(), String> {
    if rows.len() != size {
        return Err(format!(
            "{what} has {} members, expected {size} (the population)",
            rows.len()
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        check_vector(&format!("{what}[{i}]"), row, dim)?;
    }
    Ok(())
}

/// Checks scores: empty (not yet evaluated) or one per member, none NaN
/// (`-inf` stands for a failed evaluation and is allowed).
fn check_scores(what: &str, scores: &[f64], size: usize) -> Result<(), String> {
    if !scores.is_empty() && scores.len() != size {
        return Err(format!(
            "{what} has {} entries, expected 0 or {size} (the population)",
            scores.len()
        ));
    }
    match scores
        .iter()
        .position(|x| x.is_nan() || *x == f64::INFINITY)
    {
        Some(i) => Err(format!("{what}[{i}] is {}", scores[i])),
        None => Ok(()),
    }
}

/// Checks the best-so-far pair.
fn check_best(best_x: &[f64], best_f: f64, dim: usize) -> Result<(), String> {
    check_vector("best_x", best_x, dim)?;
    if best_f.is_nan() || best_f == f64::INFINITY {
        return Err(format!("best_f is {best_f}"));
    }
    Ok(())
}

/// Largest population (candidates per generation) any optimizer accepts: far
/// above any useful one, small enough that a generation's vectors fit in
/// memory (a checkpoint or option asking for more is an error, not an abort).
pub const MAX_POPULATION: usize = 100_000;

/// Most generations a run may be asked for.
pub const MAX_GENERATIONS: usize = 1_000_000;

/// Widest initial spread: far beyond any useful one, and small enough that
/// scaled weights stay finite numbers.
pub const MAX_SPREAD: f64 = 1e6;

/// An initial spread: above 0 (a spread of 0 searches nothing) and at most
/// [`MAX_SPREAD`].
pub fn check_spread(spread: f64) -> Result<f64, String> {
    match spread > 0.0 && spread <= MAX_SPREAD {
        true => Ok(spread),
        false => Err(format!(
            "expected a number above 0 and at most {MAX_SPREAD:e}, found {spread}"
        )),
    }
}

/// Checks a population size against `min..=MAX_POPULATION`.
fn check_population_size(method: &str, population: usize, min: usize) -> Result<(), ConfigError> {
    if population < min || population > MAX_POPULATION {
        return Err(ConfigError(format!(
            "{method} population must be from {min} to {MAX_POPULATION}, got {population}"
        )));
    }
    Ok(())
}

/// A configuration an optimizer cannot run with (checked by each config's
/// `validate`, so callers can report bad options instead of panicking).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("invalid optimizer configuration: {0}")]
pub struct ConfigError(pub String);

/// Checks an initial search box: non-empty, corners of equal dimension,
/// finite with `low <= high` in every dimension.
fn check_box(method: &str, low: &[f64], high: &[f64]) -> Result<(), ConfigError> {
    if low.is_empty() {
        return Err(ConfigError(format!(
            "{method} needs at least one dimension (init box is empty)"
        )));
    }
    if low.len() != high.len() {
        return Err(ConfigError(format!(
            "{method} init box corners differ in dimension: low has {}, high has {}",
            low.len(),
            high.len()
        )));
    }
    for (j, (&lo, &hi)) in low.iter().zip(high).enumerate() {
        if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
            return Err(ConfigError(format!(
                "{method} init box dimension {j}: need finite low <= high, got [{lo}, {hi}]"
            )));
        }
    }
    Ok(())
}

/// Evaluates `candidates` in parallel, all with the same evaluation `seed`,
/// returning scores in candidate order whatever the thread count. A NaN score
/// becomes `-inf` so that it ranks last instead of poisoning comparisons.
fn evaluate(
    candidates: &[Vec<f64>],
    seed: u64,
    fitness: &Fitness,
    progress: &Progress,
) -> Vec<f64> {
    use rayon::prelude::*;
    candidates
        .par_iter()
        // One candidate per task: a fitness is typically a batch of games
        // whose cost varies a lot, so fine-grained stealing balances better.
        .with_max_len(1)
        .map(|x| {
            let score = fitness(x, seed);
            progress.inc(1);
            if score.is_nan() {
                f64::NEG_INFINITY
            } else {
                score
            }
        })
        .collect()
}

/// Summarises one generation's evaluations and updates the best-ever pair
/// (the earliest evaluation reaching the highest score is kept).
fn record(
    index: usize,
    candidates: &[Vec<f64>],
    scores: &[f64],
    best_x: &mut Vec<f64>,
    best_f: &mut f64,
) -> Generation {
    let mut best = f64::NEG_INFINITY;
    for (x, &f) in candidates.iter().zip(scores) {
        best = best.max(f);
        if f > *best_f {
            *best_f = f;
            best_x.clone_from(x);
        }
    }
    Generation {
        index,
        best,
        mean: scores.iter().sum::<f64>() / scores.len() as f64,
        best_ever: *best_f,
        evaluations: scores.len(),
    }
}

/// Serde adapters that make checkpoints exact.
///
/// serde_json's default float parser is not correctly rounded (about 8% of
/// random `f64`s come back one ulp off), which would make a resumed run drift
/// from an uninterrupted one, and it writes infinities and NaN as `null`,
/// which cannot be read back. So in human-readable formats the optimizers'
/// floats are written as strings in Rust's shortest round-trip form
/// (`"0.1"`, `"-inf"`) and parsed with Rust's exact parser; plain JSON
/// numbers are accepted too, for hand-written configs. Binary formats get raw
/// `f64`s, which are exact already.
mod exact {
    use serde::de::{self, Deserialize, Deserializer, Visitor};
    use serde::ser::{Serialize, Serializer};
    use std::fmt;

    /// One float on the wire.
    struct Float(f64);

    impl Serialize for Float {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            if s.is_human_readable() {
                s.collect_str(&format_args!("{:?}", self.0))
            } else {
                s.serialize_f64(self.0)
            }
        }
    }

    impl<'de> Deserialize<'de> for Float {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            if d.is_human_readable() {
                d.deserialize_any(FloatVisitor)
            } else {
                d.deserialize_f64(FloatVisitor)
            }
        }
    }

    struct FloatVisitor;

    impl Visitor<'_> for FloatVisitor {
        type Value = Float;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a number, or a string holding one (\"1.5\", \"-inf\")")
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<Float, E> {
            v.trim()
                .parse()
                .map(Float)
                .map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
        }

        fn visit_f64<E>(self, v: f64) -> Result<Float, E> {
            Ok(Float(v))
        }

        fn visit_i64<E>(self, v: i64) -> Result<Float, E> {
            Ok(Float(v as f64))
        }

        fn visit_u64<E>(self, v: u64) -> Result<Float, E> {
            Ok(Float(v as f64))
        }
    }

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        Float(*v).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Float::deserialize(d).map(|f| f.0)
    }

    /// For `Vec<f64>` fields.
    pub mod vec {
        use super::Float;
        use serde::{Deserialize, Deserializer, Serializer};

        pub fn serialize<S: Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(v.iter().map(|&x| Float(x)))
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
            Vec::<Float>::deserialize(d).map(|v| v.into_iter().map(|f| f.0).collect())
        }
    }

    /// For `Vec<Vec<f64>>` fields.
    pub mod vecs {
        use super::Float;
        use serde::{Deserialize, Deserializer, Serialize, Serializer};

        struct Row<'a>(&'a [f64]);

        impl Serialize for Row<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq(self.0.iter().map(|&x| Float(x)))
            }
        }

        pub fn serialize<S: Serializer>(v: &[Vec<f64>], s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(v.iter().map(|row| Row(row)))
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<f64>>, D::Error> {
            Vec::<Vec<Float>>::deserialize(d).map(|v| {
                v.into_iter()
                    .map(|row| row.into_iter().map(|f| f.0).collect())
                    .collect()
            })
        }
    }
}

/// Shared fixtures and property checks for the optimizers' tests.
#[cfg(test)]
mod testing {
    use super::{Fitness, Generation, Optimizer};
    use crate::progress::Progress;
    use crate::rng::{Rng, derive_seed};
    use crate::runner::with_threads;
    use std::sync::Mutex;

    pub fn sphere(x: &[f64]) -> f64 {
        x.iter().map(|v| v * v).sum()
    }

    pub fn rosenbrock(x: &[f64]) -> f64 {
        x.windows(2)
            .map(|w| 100.0 * (w[1] - w[0] * w[0]).powi(2) + (1.0 - w[0]).powi(2))
            .sum()
    }

    /// −sphere around an optimum that moves a little with the evaluation
    /// seed, so results depend on seeds being passed correctly.
    pub fn seeded_sphere(x: &[f64], seed: u64) -> f64 {
        let mut rng = Rng::new(seed);
        -x.iter()
            .map(|v| (v - 0.1 * rng.normal()).powi(2))
            .sum::<f64>()
    }

    pub fn run(opt: &mut Optimizer, fitness: &Fitness, generations: usize) -> Vec<Generation> {
        let progress = Progress::hidden();
        (0..generations)
            .map(|_| opt.step(fitness, &progress))
            .collect()
    }

    /// Everything observable about a run: its reports and its final state.
    pub fn trace(mut opt: Optimizer, generations: usize) -> (Vec<Generation>, String) {
        let gens = run(&mut opt, &seeded_sphere, generations);
        (gens, serde_json::to_string(&opt).unwrap())
    }

    /// Same seed → same run, whatever the thread count; other seed → other run.
    pub fn check_determinism(make: impl Fn(u64) -> Optimizer + Send + Sync, generations: usize) {
        let a = with_threads(Some(1), || trace(make(7), generations));
        let b = with_threads(Some(3), || trace(make(7), generations));
        let c = with_threads(Some(3), || trace(make(7), generations));
        let other = with_threads(Some(3), || trace(make(8), generations));
        assert_eq!(a.0.len(), generations);
        assert_eq!(a, b, "1 thread vs 3 threads");
        assert_eq!(b, c, "two runs with 3 threads");
        assert_ne!(a.0, other.0, "different seeds");
        assert_ne!(a.1, other.1, "different seeds");
        let best = |json: &str| {
            serde_json::from_str::<Optimizer>(json)
                .unwrap()
                .best()
                .0
                .to_vec()
        };
        assert_eq!(best(&a.1), best(&b.1));
        assert_ne!(best(&a.1), best(&other.1));
    }

    /// Stopping after `k` generations, checkpointing through JSON and going
    /// on for `m` more is indistinguishable from running `k + m` straight.
    pub fn check_resume(make: impl Fn(u64) -> Optimizer, k: usize, m: usize) {
        let (straight, straight_state) = trace(make(3), k + m);

        let mut first = make(3);
        let mut gens = run(&mut first, &seeded_sphere, k);
        let json = serde_json::to_string(&first).unwrap();
        let mut resumed: Optimizer = serde_json::from_str(&json).unwrap();
        assert_eq!(resumed.generations_done(), k);
        assert_eq!(
            serde_json::to_string(&resumed).unwrap(),
            json,
            "lossless round trip"
        );
        gens.extend(run(&mut resumed, &seeded_sphere, m));

        assert_eq!(gens, straight);
        assert_eq!(serde_json::to_string(&resumed).unwrap(), straight_state);
        assert_eq!(
            resumed.best(),
            serde_json::from_str::<Optimizer>(&straight_state)
                .unwrap()
                .best()
        );
    }

    /// Every candidate of generation g is evaluated with
    /// `derive_seed(seed, g)`: one seed per generation, a new one each time.
    pub fn check_generation_seeds(make: impl Fn(u64) -> Optimizer, generations: usize) {
        let mut opt = make(11);
        let per_gen = opt.evaluations_per_generation();
        let seen = Mutex::new(Vec::new());
        let fitness = |x: &[f64], seed: u64| {
            seen.lock().unwrap().push(seed);
            -sphere(x)
        };
        let gens = run(&mut opt, &fitness, generations);
        let seen = seen.into_inner().unwrap();
        assert_eq!(seen.len(), per_gen * generations);
        let mut distinct = Vec::new();
        for (g, chunk) in seen.chunks(per_gen).enumerate() {
            assert_eq!(gens[g].index, g);
            assert_eq!(gens[g].evaluations, per_gen);
            assert!(
                chunk.iter().all(|&s| s == derive_seed(11, g as u64)),
                "generation {g}"
            );
            assert!(
                !distinct.contains(&chunk[0]),
                "seed reused in generation {g}"
            );
            distinct.push(chunk[0]);
        }
        assert_eq!(opt.generations_done(), generations);
    }
}

#[cfg(test)]
mod tests {
    use super::exact;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Floats {
        #[serde(with = "exact")]
        one: f64,
        #[serde(with = "exact::vec")]
        row: Vec<f64>,
        #[serde(with = "exact::vecs")]
        rows: Vec<Vec<f64>>,
    }

    #[test]
    fn exact_floats_round_trip_through_json_bit_for_bit() {
        let mut rng = crate::rng::Rng::new(1);
        let row: Vec<f64> = (0..2000)
            .map(|_| rng.normal() * 10f64.powi(rng.index(40) as i32 - 20))
            .collect();
        let mut specials = vec![
            f64::INFINITY,
            f64::NEG_INFINITY,
            -0.0,
            f64::MIN_POSITIVE,
            f64::MAX,
            5e-324,
        ];
        specials.extend_from_slice(&row[..10]);
        let value = Floats {
            one: 0.1 + 0.2,
            row,
            rows: vec![specials, vec![]],
        };
        let json = serde_json::to_string(&value).unwrap();
        let back: Floats = serde_json::from_str(&json).unwrap();
        let bits = |v: &Floats| {
            let mut b = vec![v.one.to_bits()];
            b.extend(
                v.row
                    .iter()
                    .chain(v.rows.iter().flatten())
                    .map(|x| x.to_bits()),
            );
            b
        };
        assert_eq!(bits(&back), bits(&value));
        let nan: Floats = serde_json::from_str(r#"{"one":"NaN","row":[],"rows":[]}"#).unwrap();
        assert!(nan.one.is_nan());
    }

    #[test]
    fn exact_floats_accept_plain_numbers_and_reject_garbage() {
        let v: Floats =
            serde_json::from_str(r#"{"one":2,"row":[-1,0.5,"3"],"rows":[[1e3]]}"#).unwrap();
        assert_eq!(
            v,
            Floats {
                one: 2.0,
                row: vec![-1.0, 0.5, 3.0],
                rows: vec![vec![1000.0]]
            }
        );
        let err = serde_json::from_str::<Floats>(r#"{"one":"x1","row":[],"rows":[]}"#).unwrap_err();
        assert!(err.to_string().contains("x1"), "{err}");
    }
}

/// Loaded states are checked in full (issue 30 item 6).
#[cfg(test)]
mod validation {
    use super::*;
    use crate::checkpoint::Validate;
    use serde_json::Value;

    fn states() -> Vec<Value> {
        let progress = Progress::hidden();
        let fitness = |x: &[f64], _: u64| -testing::sphere(x);
        let mut out = Vec::new();
        for mut opt in [
            Optimizer::Cem(Cem::new(CemConfig::new(vec![1.0, 2.0, 3.0], 1))),
            Optimizer::De(De::new(DeConfig::new(vec![0.0; 3], vec![1.0; 3], 1))),
            Optimizer::Pso(Pso::new(PsoConfig::new(vec![0.0; 3], vec![1.0; 3], 1))),
        ] {
            opt.step(&fitness, &progress);
            opt.step(&fitness, &progress);
            assert_eq!(opt.validate(), Ok(()));
            out.push(serde_json::to_value(&opt).unwrap());
        }
        out
    }

    fn check(mut state: Value, pointer: &str, value: Value, expect: &str) {
        *state
            .pointer_mut(pointer)
            .unwrap_or_else(|| panic!("{pointer}")) = value;
        let opt: Optimizer = serde_json::from_value(state).unwrap();
        let err = opt.validate().unwrap_err();
        assert!(err.contains(expect), "{pointer}: {err}");
    }

    #[test]
    fn tampered_states_say_what_is_wrong() {
        let [cem, de, pso] = <[Value; 3]>::try_from(states()).unwrap();
        check(
            cem.clone(),
            "/mean",
            serde_json::json!([1.0]),
            "mean has 1 entries, expected 3",
        );
        check(
            cem.clone(),
            "/std/1",
            serde_json::json!("NaN"),
            "std[1] is NaN",
        );
        check(
            cem.clone(),
            "/std/2",
            serde_json::json!(-1.0),
            "std[2] is -1",
        );
        check(
            cem.clone(),
            "/best_x",
            serde_json::json!([]),
            "best_x has 0",
        );
        check(
            cem,
            "/config/population",
            serde_json::json!(1u64 << 40),
            "population must be",
        );
        check(
            de.clone(),
            "/population/2",
            serde_json::json!([1.0]),
            "population[2] has 1",
        );
        check(
            de.clone(),
            "/scores",
            serde_json::json!([1.0]),
            "scores has 1 entries",
        );
        check(
            de.clone(),
            "/population",
            serde_json::json!([]),
            "population has 0 members",
        );
        check(de, "/best_f", serde_json::json!("NaN"), "best_f is NaN");
        check(
            pso.clone(),
            "/leader",
            serde_json::json!(30),
            "leader 30 is out of range",
        );
        check(
            pso.clone(),
            "/velocities/0/1",
            serde_json::json!("inf"),
            "velocities[0][1] is inf",
        );
        check(
            pso.clone(),
            "/personal_best",
            serde_json::json!([]),
            "personal_best has 0",
        );
        check(
            pso,
            "/config/init_low",
            serde_json::json!([0.0]),
            "differ in dimension",
        );
    }

    /// Random edits: whatever passes validation runs a generation without
    /// panicking; and the edits do make some states invalid.
    #[test]
    fn any_state_that_validates_can_step() {
        let mut rng = crate::rng::Rng::new(9);
        let (mut accepted, mut rejected) = (0, 0);
        for state in states() {
            let mut leaves = Vec::new();
            collect_leaves(&state, String::new(), &mut leaves);
            for _ in 0..150 {
                let mut edited = state.clone();
                let path = &leaves[rng.index(leaves.len())];
                let slot = edited.pointer_mut(path).unwrap();
                *slot = match rng.index(6) {
                    0 => serde_json::json!(rng.normal() * 1e6),
                    1 => serde_json::json!(rng.below(100)),
                    2 => serde_json::json!("-inf"),
                    3 => serde_json::json!("NaN"),
                    4 => serde_json::json!([]),
                    _ => serde_json::json!(u64::MAX),
                };
                let Ok(mut opt) = serde_json::from_value::<Optimizer>(edited) else {
                    rejected += 1;
                    continue;
                };
                if opt.validate().is_err() {
                    rejected += 1;
                    continue;
                }
                accepted += 1;
                opt.step(&|x, _| -testing::sphere(x), &Progress::hidden());
            }
        }
        assert!(accepted > 50 && rejected > 50, "{accepted} / {rejected}");
    }

    fn collect_leaves(v: &Value, path: String, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => m
                .iter()
                .for_each(|(k, v)| collect_leaves(v, format!("{path}/{k}"), out)),
            Value::Array(a) => a
                .iter()
                .enumerate()
                .for_each(|(i, v)| collect_leaves(v, format!("{path}/{i}"), out)),
            _ => out.push(path),
        }
    }
}

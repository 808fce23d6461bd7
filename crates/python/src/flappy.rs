//! Flappy Bird: the single-game core and the vector core.

use crate::value_error;
use crate::vector::{Game, Slots, StepOut};
use arcade_flappy::env::Status;
use arcade_flappy::episode::eval_seed;
use arcade_flappy::obs::{BASIC, EXTENDED, observe};
use arcade_flappy::policy::{Heuristic, Policy};
use arcade_flappy::render;
use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArray2,
};
use pyo3::prelude::*;

/// A game's settings: the pipe cap and the observation's length.
#[derive(Clone, Copy)]
struct Config {
    max_pipes: Option<u64>,
    features: usize,
}

fn features(extended: bool) -> usize {
    if extended { EXTENDED } else { BASIC }
}

/// The game `arcade flappy play --seed SEED` plays.
fn game(config: &Config, seed: u64) -> arcade_flappy::Env {
    arcade_flappy::Env::new(eval_seed(seed, 0), config.max_pipes)
}

fn play(env: &mut arcade_flappy::Env, action: i64) -> Result<(f64, bool, bool), String> {
    if env.is_over() {
        return Err("the game is over: reset it first".into());
    }
    let s = env.step(action == 1);
    Ok((
        s.reward,
        s.status == Status::Crashed,
        s.status == Status::Truncated,
    ))
}

fn check(action: i64) -> Result<(), String> {
    if action == 0 || action == 1 {
        Ok(())
    } else {
        Err(format!("action {action} is not 0 (no flap) or 1 (flap)"))
    }
}

/// One Flappy Bird game (the `Flappy-v0` environment's engine).
#[pyclass(module = "arcadekit._arcadekit")]
pub struct FlappyCore {
    config: Config,
    env: arcade_flappy::Env,
}

#[pymethods]
impl FlappyCore {
    #[new]
    #[pyo3(signature = (max_pipes=None, extended=false))]
    fn new(max_pipes: Option<u64>, extended: bool) -> PyResult<FlappyCore> {
        if max_pipes == Some(0) {
            return Err(value_error("max_pipes must be at least 1"));
        }
        let config = Config {
            max_pipes,
            features: features(extended),
        };
        Ok(FlappyCore {
            env: game(&config, 0),
            config,
        })
    }

    /// Starts game `seed`: the one `arcade flappy play --seed SEED` plays.
    fn reset(&mut self, seed: u64) {
        self.env = game(&self.config, seed);
    }

    /// 0 = no flap, 1 = flap: (reward, terminated, truncated).
    fn step(&mut self, action: i64) -> PyResult<(f64, bool, bool)> {
        check(action).map_err(value_error)?;
        play(&mut self.env, action).map_err(value_error)
    }

    /// The 5 (or 7) observation features, as `f32`.
    fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_slice(py, &observe(&self.env)[..self.config.features])
    }

    /// What the built-in heuristic controller would do (0 or 1).
    fn heuristic(&self) -> i64 {
        i64::from(Heuristic.flap(&self.env))
    }

    /// Bird's top edge (pixels from the top of the 288×512 screen).
    #[getter]
    fn bird_y(&self) -> i32 {
        self.env.bird_y()
    }

    /// Pipes on screen: (left edge x, gap top y) pairs.
    fn pipes_on_screen(&self) -> Vec<(i32, i32)> {
        self.env
            .visible_pipes()
            .iter()
            .map(|p| (p.x, p.gap_top))
            .collect()
    }

    #[getter]
    fn pipes(&self) -> u64 {
        self.env.pipes()
    }

    #[getter]
    fn frames(&self) -> u64 {
        self.env.frames()
    }

    fn text(&self) -> String {
        render::text(&self.env)
    }
}

struct FlappyGame(arcade_flappy::Env);

impl Game for FlappyGame {
    type Config = Config;
    /// A frame is a few nanoseconds: on the shared 2-core machine 8,192 games
    /// stepped slower on two threads than 1,024 on one (docs/results/python.md).
    const PARALLEL_MIN: usize = 1 << 16;

    fn start(config: &Config, seed: u64) -> FlappyGame {
        FlappyGame(game(config, seed))
    }

    fn check(_: &Config, action: i64) -> Result<(), String> {
        check(action)
    }

    fn play(&mut self, action: i64) -> Result<(f64, bool, bool), String> {
        play(&mut self.0, action)
    }
}

/// N Flappy Bird games stepped together.
#[pyclass(module = "arcadekit._arcadekit")]
pub struct FlappyVectorCore {
    config: Config,
    slots: Slots<FlappyGame>,
}

type StepArrays<'py> = (
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
);

#[pymethods]
impl FlappyVectorCore {
    #[new]
    #[pyo3(signature = (num_envs, seed, max_pipes=None, extended=false))]
    fn new(
        num_envs: usize,
        seed: u64,
        max_pipes: Option<u64>,
        extended: bool,
    ) -> PyResult<FlappyVectorCore> {
        if num_envs == 0 {
            return Err(value_error("num_envs must be at least 1"));
        }
        if max_pipes == Some(0) {
            return Err(value_error("max_pipes must be at least 1"));
        }
        let config = Config {
            max_pipes,
            features: features(extended),
        };
        Ok(FlappyVectorCore {
            slots: Slots::new(&config, num_envs, seed),
            config,
        })
    }

    fn reset(&mut self, py: Python<'_>, seed: u64) {
        let (config, slots) = (&self.config, &mut self.slots);
        py.detach(|| slots.reset(config, seed));
    }

    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<StepArrays<'py>> {
        let actions = actions.as_slice().map_err(value_error)?.to_vec();
        let (config, slots) = (&self.config, &mut self.slots);
        let out = py
            .detach(|| slots.step(config, &actions))
            .map_err(value_error)?;
        Ok((
            PyArray1::from_vec(py, out.reward),
            PyArray1::from_vec(py, out.terminated),
            PyArray1::from_vec(py, out.truncated),
        ))
    }

    /// Steps every game and writes the observations `(num_envs, features)`,
    /// rewards, terminations and truncations into the caller's arrays, in
    /// one pass over the games (the vector environment's `step`).
    fn step_into(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
        mut obs: PyReadwriteArray2<'_, f32>,
        mut reward: PyReadwriteArray1<'_, f64>,
        mut terminated: PyReadwriteArray1<'_, bool>,
        mut truncated: PyReadwriteArray1<'_, bool>,
    ) -> PyResult<()> {
        let actions = actions.as_slice().map_err(value_error)?;
        let out = StepOut {
            reward: reward.as_slice_mut().map_err(value_error)?,
            terminated: terminated.as_slice_mut().map_err(value_error)?,
            truncated: truncated.as_slice_mut().map_err(value_error)?,
            obs: obs.as_slice_mut().map_err(value_error)?,
            obs_len: self.config.features,
        };
        let (config, slots) = (&self.config, &mut self.slots);
        py.detach(|| slots.step_into(config, actions, out, observe_into))
            .map_err(value_error)
    }

    /// Observations, `(num_envs, features)` `f32`.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let f = self.config.features;
        let n = self.slots.slots.len();
        let mut out = Vec::with_capacity(n * f);
        for s in &self.slots.slots {
            out.extend_from_slice(&observe(&s.game.0)[..f]);
        }
        PyArray1::from_vec(py, out).reshape([n, f])
    }

    /// Pipes cleared in each sub-environment's episode.
    fn scores<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        PyArray1::from_vec(
            py,
            self.slots.slots.iter().map(|s| s.game.0.pipes()).collect(),
        )
    }
}

/// Writes a game's observation (its first `out.len()` features).
fn observe_into(g: &FlappyGame, out: &mut [f32]) {
    out.copy_from_slice(&observe(&g.0)[..out.len()]);
}

/// The Rust engine's own speed at the vector environment's work, for
/// benchmarks: `num_envs` games stepped `steps` times in lock step, each step
/// playing a frame (a flap with chance 1/10, from a seeded generator),
/// computing the observation into one buffer and resetting ended games, all
/// without Python. Returns the seconds it took.
#[pyfunction]
#[pyo3(signature = (num_envs, steps, extended=false, seed=0))]
fn flappy_engine_seconds(
    py: Python<'_>,
    num_envs: usize,
    steps: u64,
    extended: bool,
    seed: u64,
) -> PyResult<f64> {
    if num_envs == 0 {
        return Err(value_error("num_envs must be at least 1"));
    }
    let config = Config {
        max_pipes: None,
        features: features(extended),
    };
    Ok(py.detach(|| {
        let mut slots: Slots<FlappyGame> = Slots::new(&config, num_envs, seed);
        let mut rng = arcade_core::Rng::new(seed);
        let mut actions = vec![0i64; num_envs];
        let mut reward = vec![0.0; num_envs];
        let mut terminated = vec![false; num_envs];
        let mut truncated = vec![false; num_envs];
        let mut obs = vec![0f32; num_envs * config.features];
        let start = std::time::Instant::now();
        for _ in 0..steps {
            for a in &mut actions {
                *a = i64::from(rng.below(10) == 0);
            }
            let out = StepOut {
                reward: &mut reward,
                terminated: &mut terminated,
                truncated: &mut truncated,
                obs: &mut obs,
                obs_len: config.features,
            };
            slots
                .step_into(&config, &actions, out, observe_into)
                .expect("actions are 0 or 1");
            std::hint::black_box(&obs);
        }
        start.elapsed().as_secs_f64()
    }))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(flappy_engine_seconds, m)?)?;
    m.add_class::<FlappyCore>()?;
    m.add_class::<FlappyVectorCore>()?;
    m.add(
        "FLAPPY_SCREEN",
        (arcade_flappy::env::SCREEN_W, arcade_flappy::env::SCREEN_H),
    )?;
    m.add(
        "FLAPPY_GEOMETRY",
        (
            arcade_flappy::env::BIRD_X,
            arcade_flappy::env::BIRD_W,
            arcade_flappy::env::BIRD_H,
            arcade_flappy::env::PIPE_W,
            arcade_flappy::env::GAP,
            arcade_flappy::env::GROUND_Y,
        ),
    )?;
    Ok(())
}

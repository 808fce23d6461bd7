//! Flappy Bird: the single-game core and the vector core.

use crate::flappy_in_place::InPlace;
use crate::replay::{self, Reduced, Replay, Saved};
use crate::value_error;
use crate::vector::{Game, Outputs, Slots, StepArrays, check_num_envs};
use arcade_flappy::env::Status;
use arcade_flappy::episode::eval_seed;
use arcade_flappy::obs::{BASIC, EXTENDED, observe};
use arcade_flappy::policy::{Heuristic, Policy};
use arcade_flappy::render;
use arcade_flappy::viability::{Depths, Judge};
use numpy::{
    Element, PyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

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
        Err(format!(
            "action {action} is out of range (0 to {})",
            ACTIONS - 1
        ))
    }
}

/// The viability analysis of the real game, computed once per process (a
/// few seconds, with the GIL released) on the first call.
fn depths(py: Python<'_>) -> &'static Depths {
    crate::pool::detach(py, Depths::shared)
}

/// Most bytes the vector environment's judges may hold. Each game's judge
/// keeps its pipe's analysis between calls (about 0.1 ms to make, half a
/// megabyte to keep); past this budget, or half the memory available, each
/// thread has one judge that analyses its games' pipes on every call, so
/// that `oracle_actions` on 65,536 games does not ask for 30 GB.
const JUDGES_BUDGET: u64 = 1 << 30;

/// Whether `n` games may keep a judge each.
fn judges_fit(n: usize, depths: &Depths) -> bool {
    let budget =
        arcade_core::memory::available().map_or(JUDGES_BUDGET, |a| (a / 2).min(JUDGES_BUDGET));
    (n as u64).saturating_mul(Judge::max_bytes(depths) as u64) <= budget
}

/// A game's viability margins after not flapping and after flapping: the
/// largest distance (px) the bird can then keep from every wall forever,
/// whatever the gaps, or −1 when some sequence of gaps forces a crash
/// (both −1 once the game is over). Flapping is perfect play when its
/// margin is larger (`arcade flappy play --policy oracle`).
fn margins(judge: &mut Judge<'static>, env: &arcade_flappy::Env) -> [i32; 2] {
    if env.is_over() {
        [-1, -1]
    } else {
        judge.action_depths(env)
    }
}

/// A game's pipes on screen: (left edge x, gap top y) pairs.
fn pipes_on_screen(env: &arcade_flappy::Env) -> Vec<(i32, i32)> {
    let pipes = env.visible_pipes();
    pipes.iter().map(|p| (p.x, p.gap_top)).collect()
}

/// One Flappy Bird game (the `Flappy-v0` environment's engine).
#[pyclass(module = "arcadekit._arcadekit")]
#[derive(Clone)]
pub struct FlappyCore {
    config: Config,
    env: arcade_flappy::Env,
    /// The constructor's arguments `(max_pipes, extended)`, for pickling.
    args: (Option<u64>, bool),
    replay: Replay<u64>,
    /// The oracle's cache of the pipe ahead's depth map (made on the first
    /// [`FlappyCore::margins`]).
    judge: Option<Judge<'static>>,
}

#[pymethods]
impl FlappyCore {
    /// A copy of the game as it stands (`copy.deepcopy(env)`), which a search
    /// can play on without touching the original.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

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
            args: (max_pipes, extended),
            replay: Replay::new(0),
            judge: None,
        })
    }

    /// Pickles the game as its arguments, start and moves (`replay`).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, (Option<u64>, bool), u64>> {
        let this = slf.borrow();
        this.replay.reduce(slf, this.args)
    }

    /// Unpickles: the same game, replayed.
    fn __setstate__(&mut self, state: Saved<'_, u64>) -> PyResult<()> {
        let (start, moves) = state;
        self.reset(start);
        replay::play_back(&moves, |mv| self.step(mv.into()).map(drop))
    }

    /// Starts game `seed`: the one `arcade flappy play --seed SEED` plays.
    fn reset(&mut self, seed: u64) {
        self.env = game(&self.config, seed);
        self.replay.restart(seed);
    }

    /// 0 = no flap, 1 = flap: (reward, terminated, truncated).
    fn step(&mut self, action: i64) -> PyResult<(f64, bool, bool)> {
        check(action).map_err(value_error)?;
        let out = play(&mut self.env, action).map_err(value_error)?;
        self.replay.record(u32::from(action == 1));
        Ok(out)
    }

    /// The 5 (or 7) observation features, as `f32`.
    fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_slice(py, &observe(&self.env)[..self.config.features])
    }

    /// What the built-in heuristic controller would do (0 or 1).
    fn heuristic(&self) -> i64 {
        i64::from(Heuristic.flap(&self.env))
    }

    /// The viability margins `(no flap, flap)` ([`margins`]).
    fn margins(&mut self, py: Python<'_>) -> (i32, i32) {
        let judge = self.judge.get_or_insert_with(|| Judge::new(depths(py)));
        let [stay, flap] = margins(judge, &self.env);
        (stay, flap)
    }

    /// Bird's top edge (pixels from the top of the 288×512 screen).
    #[getter]
    fn bird_y(&self) -> i32 {
        self.env.bird_y()
    }

    /// Pipes on screen: (left edge x, gap top y) pairs.
    fn pipes_on_screen(&self) -> Vec<(i32, i32)> {
        pipes_on_screen(&self.env)
    }

    #[getter]
    fn pipes(&self) -> u64 {
        self.env.pipes()
    }

    #[getter]
    fn frames(&self) -> u64 {
        self.env.frames()
    }

    /// Crashed or truncated.
    #[getter]
    fn is_over(&self) -> bool {
        self.env.is_over()
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
    /// The arrays `step_in_place` writes (made on its first call).
    in_place: Option<InPlace>,
    /// The last step's actions (kept to reuse the allocation).
    actions: Vec<i64>,
    /// One oracle cache per game (made on the first [`FlappyVectorCore::margins`]).
    judges: Vec<Judge<'static>>,
}

/// Fewest games per rayon task of [`FlappyVectorCore::margins`]: a game's
/// margins take about a microsecond, and tens of microseconds on a new pipe.
const CHUNK_MARGINS: usize = 16;

/// Sub-environments from which a step releases the GIL: below, releasing
/// and retaking it costs more than other Python threads would gain.
const DETACH_MIN: usize = 256;

/// Gymnasium's step result: observations, rewards, terminations,
/// truncations and the info dict.
type StepResult<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyDict>,
);

/// A game's actions: 0 (no flap) and 1 (flap).
const ACTIONS: u32 = 2;

/// The actions as `i64`s in `into`: a contiguous 1-D int64 array is read
/// as it is, anything else goes through `arcadekit._action.action_array`,
/// the checks and conversion every vector environment shares. Read
/// untracked (a tracked borrow costs more than the copy) and copied, so
/// nothing can change them while the step runs.
fn read_actions(actions: &Bound<'_, PyAny>, n: usize, into: &mut Vec<i64>) -> PyResult<()> {
    let converted;
    let array = match actions.cast::<PyArray1<i64>>() {
        Ok(a) if a.is_c_contiguous() && a.len() == n => a,
        _ => {
            let py = actions.py();
            converted = py
                .import(pyo3::intern!(py, "arcadekit._action"))?
                .call_method1(pyo3::intern!(py, "action_array"), (actions, n, ACTIONS))?
                .cast_into::<PyArray1<i64>>()?;
            &converted
        }
    };
    // SAFETY: read while holding the GIL, and copied at once.
    let values = unsafe { array.as_slice() }.map_err(value_error)?;
    into.clear();
    into.extend_from_slice(values);
    Ok(())
}

/// Steps every game into `out`, releasing the GIL from [`DETACH_MIN`] games.
fn run_step(
    py: Python<'_>,
    config: &Config,
    slots: &mut Slots<FlappyGame>,
    actions: &[i64],
    out: Outputs<'_, FlappyPlace<'_>>,
) -> PyResult<()> {
    if actions.len() >= DETACH_MIN {
        crate::pool::detach(py, || slots.step_each(config, actions, out, observe_place))
    } else {
        slots.step_each(config, actions, out, observe_place)
    }
    .map_err(value_error)
}

/// Gymnasium's `(obs, reward, terminated, truncated, {"pipes": pipes})`,
/// built here rather than in Python (cheaper).
fn step_result<'py>(
    obs: Bound<'py, PyArray2<f32>>,
    reward: Bound<'py, PyArray1<f64>>,
    terminated: Bound<'py, PyArray1<bool>>,
    truncated: Bound<'py, PyArray1<bool>>,
    pipes: Bound<'py, PyArray1<u64>>,
) -> PyResult<StepResult<'py>> {
    let info = PyDict::new(obs.py());
    info.set_item(pyo3::intern!(obs.py(), "pipes"), pipes)?;
    Ok((obs, reward, terminated, truncated, info))
}

/// A fresh C-ordered array of zero bytes (valid values of every `T` used
/// here), skipping `PyArray_Zeros`'s second dtype resolution (2 % of a
/// 64-game step in the profile).
fn zeroed<T: Element, D: numpy::ndarray::Dimension>(
    py: Python<'_>,
    dims: impl numpy::ndarray::IntoDimension<Dim = D>,
) -> Bound<'_, PyArray<T, D>> {
    // SAFETY: the bytes are zeroed before anything reads them.
    unsafe {
        let a = PyArray::<T, D>::new(py, dims, false);
        std::ptr::write_bytes(a.data(), 0, a.len());
        a
    }
}

/// A game's output places: its observation row and its pipes cleared.
type FlappyPlace<'a> = (&'a mut [f32], &'a mut u64);

/// The step's output places from the arrays' slices.
fn outputs<'a>(
    features: usize,
    obs: &'a mut [f32],
    reward: &'a mut [f64],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
    pipes: &'a mut [u64],
) -> Outputs<'a, FlappyPlace<'a>> {
    Outputs {
        reward,
        terminated,
        truncated,
        places: obs.chunks_mut(features).zip(pipes.iter_mut()).collect(),
    }
}

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
        check_num_envs(num_envs, 1).map_err(value_error)?;
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
            in_place: None,
            actions: Vec::with_capacity(num_envs),
            judges: Vec::new(),
        })
    }

    fn reset(&mut self, py: Python<'_>, seed: u64) {
        self.slots.reset_py(py, &self.config, seed);
    }

    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<StepArrays<'py>> {
        self.slots.step_arrays(py, &self.config, actions)
    }

    /// Steps every game and writes its observation, reward, flags and pipes
    /// cleared into fresh arrays in one pass; returns Gymnasium's `(obs,
    /// reward, terminated, truncated, {"pipes": …})`, built here (cheaper
    /// than in Python).
    fn step_observe<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<StepResult<'py>> {
        let (n, f) = (self.slots.slots.len(), self.config.features);
        read_actions(actions, n, &mut self.actions)?;
        let obs = zeroed::<f32, _>(py, [n, f]);
        let reward = zeroed::<f64, _>(py, n);
        let terminated = zeroed::<bool, _>(py, n);
        let truncated = zeroed::<bool, _>(py, n);
        let pipes = zeroed::<u64, _>(py, n);
        // SAFETY: the arrays were just made here and nothing else holds them
        // (an untracked borrow: tracking costs as much as making the array).
        let out = unsafe {
            outputs(
                f,
                obs.as_slice_mut().map_err(value_error)?,
                reward.as_slice_mut().map_err(value_error)?,
                terminated.as_slice_mut().map_err(value_error)?,
                truncated.as_slice_mut().map_err(value_error)?,
                pipes.as_slice_mut().map_err(value_error)?,
            )
        };
        run_step(py, &self.config, &mut self.slots, &self.actions, out)?;
        step_result(obs, reward, terminated, truncated, pipes)
    }

    /// [`Self::step_observe`] into the same arrays every call (views of
    /// one byte array, made on the first call): a later step overwrites what
    /// an earlier one returned (`FlappyVectorEnv(copy=False)`).
    fn step_in_place<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<StepResult<'py>> {
        let (n, f) = (self.slots.slots.len(), self.config.features);
        read_actions(actions, n, &mut self.actions)?;
        if self.in_place.is_none() {
            self.in_place = Some(InPlace::new(py, n, f)?);
        }
        let Some(arrays) = &self.in_place else {
            unreachable!("made above")
        };
        let (config, slots, actions) = (&self.config, &mut self.slots, &self.actions);
        arrays.write(py, n, f, |r| {
            let out = outputs(f, r.obs, r.reward, r.terminated, r.truncated, r.pipes);
            run_step(py, config, slots, actions, out)
        })??;
        step_result(
            arrays.obs.bind(py).clone(),
            arrays.reward.bind(py).clone(),
            arrays.terminated.bind(py).clone(),
            arrays.truncated.bind(py).clone(),
            arrays.pipes.bind(py).clone(),
        )
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

    /// Every game's viability margins, `(num_envs, 2)` `i32` (no flap, flap:
    /// [`margins`]), on Rust threads with the GIL released.
    fn margins<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i32>>> {
        let n = self.slots.slots.len();
        // The analysis is read only to make judges (once) or when there are
        // none: not on every step of the common case.
        let shared = self.judges.is_empty().then(|| depths(py));
        if let Some(depths) = shared
            && judges_fit(n, depths)
        {
            self.judges = vec![Judge::new(depths); n];
        }
        let (slots, judges) = (&self.slots.slots, &mut self.judges);
        let flat: Vec<i32> = crate::pool::detach(py, || {
            if let (true, Some(depths)) = (judges.is_empty(), shared) {
                // Too many games to keep a judge each: one a thread.
                return slots
                    .par_iter()
                    .with_min_len(CHUNK_MARGINS)
                    .map_init(|| Judge::new(depths), |judge, s| margins(judge, &s.game.0))
                    .flatten_iter()
                    .collect();
            }
            slots
                .par_iter()
                .zip(judges)
                .with_min_len(CHUNK_MARGINS)
                .flat_map_iter(|(s, judge)| margins(judge, &s.game.0))
                .collect()
        });
        PyArray1::from_vec(py, flat).reshape([n, 2])
    }

    /// Each game's bird top edge and pipes on screen, to draw it.
    fn scenes(&self) -> Vec<(i32, Vec<(i32, i32)>)> {
        let games = self.slots.slots.iter().map(|s| &s.game.0);
        games.map(|g| (g.bird_y(), pipes_on_screen(g))).collect()
    }
}

/// Writes a game's observation and pipes cleared into its places.
fn observe_place(g: &FlappyGame, (obs, pipes): (&mut [f32], &mut u64)) {
    let all = observe(&g.0);
    // Copies of a known length: a copy of the slice's run-time length was a
    // call to libc's memmove per game, a quarter of the engine's time.
    match obs.len() {
        BASIC => obs.copy_from_slice(&all[..BASIC]),
        _ => obs.copy_from_slice(&all),
    }
    *pipes = g.0.pipes();
}

/// The Rust engine's own speed at the vector environment's work, for
/// benchmarks: `num_envs` games stepped `steps` times in lock step, each step
/// playing a frame, computing the observation into one buffer and the pipes
/// cleared into another, and resetting ended games, all without Python. The
/// actions cycle through 16 vectors drawn beforehand (a flap with chance
/// 1/10, from a seeded generator), as the Python benchmark's do, so both
/// sides do the same work. Returns the seconds it took.
#[pyfunction]
#[pyo3(signature = (num_envs, steps, extended=false, seed=0))]
fn flappy_engine_seconds(
    py: Python<'_>,
    num_envs: usize,
    steps: u64,
    extended: bool,
    seed: u64,
) -> PyResult<f64> {
    check_num_envs(num_envs, 1).map_err(value_error)?;
    let config = Config {
        max_pipes: None,
        features: features(extended),
    };
    crate::pool::detach(py, || {
        let mut slots: Slots<FlappyGame> = Slots::new(&config, num_envs, seed);
        let mut rng = arcade_core::Rng::new(seed);
        let actions: Vec<Vec<i64>> = (0..16)
            .map(|_| {
                (0..num_envs)
                    .map(|_| i64::from(rng.below(10) == 0))
                    .collect()
            })
            .collect();
        let mut reward = vec![0.0; num_envs];
        let mut terminated = vec![false; num_envs];
        let mut truncated = vec![false; num_envs];
        let mut obs = vec![0f32; num_envs * config.features];
        let mut pipes = vec![0u64; num_envs];
        let start = std::time::Instant::now();
        for (_, actions) in (0..steps).zip(actions.iter().cycle()) {
            let out = outputs(
                config.features,
                &mut obs,
                &mut reward,
                &mut terminated,
                &mut truncated,
                &mut pipes,
            );
            slots
                .step_each(&config, actions, out, observe_place)
                .map_err(value_error)?;
            std::hint::black_box((&obs, &pipes));
        }
        Ok(start.elapsed().as_secs_f64())
    })
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

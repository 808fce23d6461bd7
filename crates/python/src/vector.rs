//! The stepping loop shared by the vector environments: Gymnasium's
//! next-step autoreset (a sub-environment that ended is reset by the next
//! `step`, which ignores its action and returns reward 0), run over the
//! sub-environments in parallel with the GIL released.

use crate::seeds::episode_seed;
use crate::value_error;
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use rayon::prelude::*;

/// Most sub-environments one vector environment holds.
const MAX_ENVS: usize = 1 << 20;

/// Most board cells the games of one vector environment hold together: a
/// game keeps a few bytes a cell, so this bounds the memory (a few GiB) and
/// a mistyped `num_envs` is an error instead of an aborted allocation.
const MAX_CELLS: usize = 1 << 28;

/// Checks `num_envs` for games of `cells` board cells each.
pub(crate) fn check_num_envs(num_envs: usize, cells: usize) -> Result<(), String> {
    if !(1..=MAX_ENVS).contains(&num_envs) {
        return Err(format!(
            "num_envs {num_envs} is out of range (1 to {MAX_ENVS})"
        ));
    }
    let most = MAX_CELLS / cells.max(1);
    if num_envs > most {
        return Err(format!(
            "num_envs {num_envs} is too many for boards of {cells} cells: at most {most} \
             (2^28 cells in all)"
        ));
    }
    Ok(())
}

/// One game a vector environment can hold.
pub(crate) trait Game: Send + Sized {
    type Config: Sync;
    /// Sub-environments from which a step runs on several threads: waking
    /// rayon's workers costs microseconds, as much as thousands of cheap steps.
    const PARALLEL_MIN: usize;
    fn start(config: &Self::Config, seed: u64) -> Self;
    /// Checks that `action` is in the action space (before anything moves).
    fn check(config: &Self::Config, action: i64) -> Result<(), String>;
    /// Plays `action`: (reward, terminated, truncated) or a one-line error.
    fn play(&mut self, action: i64) -> Result<(f64, bool, bool), String>;
}

/// A sub-environment and where it is in its sequence of episodes.
pub(crate) struct Slot<G> {
    pub game: G,
    index: u64,
    episode: u64,
    ended: bool,
}

impl<G: Game> Slot<G> {
    /// Plays `action`, or starts the next episode when the last one ended
    /// (reward 0, not ended: the action is ignored).
    fn advance(
        &mut self,
        config: &G::Config,
        master: u64,
        action: i64,
    ) -> Result<(f64, bool, bool), String> {
        if self.ended {
            self.episode += 1;
            self.ended = false;
            self.game = G::start(config, episode_seed(master, self.index, self.episode));
            return Ok((0.0, false, false));
        }
        let r = self
            .game
            .play(action)
            .map_err(|e| format!("sub-environment {}: {e}", self.index))?;
        self.ended = r.1 || r.2;
        Ok(r)
    }
}

/// The caller's arrays a [`Slots::step_each`] writes into: one entry per
/// sub-environment, and one output place (whatever the game writes its
/// observation into) per sub-environment.
pub(crate) struct Outputs<'a, T> {
    pub reward: &'a mut [f64],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    pub places: Vec<T>,
}

/// One sub-environment's slot, action and output places, as the zipped
/// iterators of [`Slots::step_each`] hand them over.
type StepItem<'a, G, T> = (
    (((&'a mut Slot<G>, &'a i64), &'a mut f64), &'a mut bool),
    (&'a mut bool, T),
);

/// Fewest sub-environments per rayon task.
const CHUNK: usize = 16;

/// What one `step` of all sub-environments produced.
pub(crate) struct Outcomes {
    pub reward: Vec<f64>,
    pub terminated: Vec<bool>,
    pub truncated: Vec<bool>,
}

pub(crate) struct Slots<G: Game> {
    pub slots: Vec<Slot<G>>,
    master: u64,
}

impl<G: Game> Slots<G> {
    /// Starts `n` sub-environments' episode 0 of `master`, on several
    /// threads from [`Game::PARALLEL_MIN`] games, as [`Slots::reset`] does.
    pub fn new(config: &G::Config, n: usize, master: u64) -> Slots<G> {
        let slot = |i: usize| Slot {
            game: G::start(config, episode_seed(master, i as u64, 0)),
            index: i as u64,
            episode: 0,
            ended: false,
        };
        let slots = if n >= G::PARALLEL_MIN {
            crate::pool::install(|| {
                (0..n)
                    .into_par_iter()
                    .with_min_len(CHUNK)
                    .map(slot)
                    .collect()
            })
        } else {
            (0..n).map(slot).collect()
        };
        Slots { slots, master }
    }

    /// Starts every sub-environment's episode 0 of `master`.
    pub fn reset(&mut self, config: &G::Config, master: u64) {
        self.master = master;
        let go = |s: &mut Slot<G>| {
            s.episode = 0;
            s.ended = false;
            s.game = G::start(config, episode_seed(master, s.index, 0));
        };
        if self.slots.len() >= G::PARALLEL_MIN {
            let slots = &mut self.slots;
            crate::pool::install(|| slots.par_iter_mut().with_min_len(CHUNK).for_each(go));
        } else {
            self.slots.iter_mut().for_each(go);
        }
    }

    /// Checks the action count and every action before anything moves. A
    /// game whose episode ended ignores its action (it starts the next one),
    /// so any value is accepted there, as `SyncVectorEnv` accepts it.
    fn check(&self, config: &G::Config, actions: &[i64]) -> Result<(), String> {
        if actions.len() != self.slots.len() {
            return Err(wrong_count(self.slots.len(), actions.len()));
        }
        for (i, (s, &a)) in self.slots.iter().zip(actions).enumerate() {
            if !s.ended {
                G::check(config, a).map_err(|e| format!("sub-environment {i}: {e}"))?;
            }
        }
        Ok(())
    }

    /// Steps every sub-environment and hands each game, right after moving
    /// it, to `observe` with its own output place (one per game, in order),
    /// in one pass. Runs on one thread when rayon has only one (as under
    /// `taskset -c 0`): handing the work to a pool thread would then only
    /// add a thread switch.
    pub fn step_each<T: Send>(
        &mut self,
        config: &G::Config,
        actions: &[i64],
        out: Outputs<'_, T>,
        observe: impl Fn(&G, T) + Sync,
    ) -> Result<(), String> {
        self.check(config, actions)?;
        let n = self.slots.len();
        if out.reward.len() != n
            || out.terminated.len() != n
            || out.truncated.len() != n
            || out.places.len() != n
        {
            return Err(format!("output arrays must hold {n} sub-environments"));
        }
        let master = self.master;
        let go = |((((s, &a), r), te), (tr, o)): StepItem<'_, G, T>| {
            (*r, *te, *tr) = s.advance(config, master, a)?;
            observe(&s.game, o);
            Ok::<(), String>(())
        };
        if n >= G::PARALLEL_MIN && crate::pool::threads() > 1 {
            let slots = &mut self.slots;
            crate::pool::install(|| {
                slots
                    .par_iter_mut()
                    .zip(actions.par_iter())
                    .zip(out.reward.par_iter_mut())
                    .zip(out.terminated.par_iter_mut())
                    .zip(out.truncated.par_iter_mut().zip(out.places.into_par_iter()))
                    .with_min_len(CHUNK)
                    .try_for_each(go)
            })
        } else {
            self.slots
                .iter_mut()
                .zip(actions)
                .zip(out.reward.iter_mut())
                .zip(out.terminated.iter_mut())
                .zip(out.truncated.iter_mut().zip(out.places))
                .try_for_each(go)
        }
    }

    /// Steps every sub-environment (or resets the ones that ended).
    pub fn step(&mut self, config: &G::Config, actions: &[i64]) -> Result<Outcomes, String> {
        self.check(config, actions)?;
        let master = self.master;
        let go = |(s, &a): (&mut Slot<G>, &i64)| s.advance(config, master, a);
        let results: Vec<Result<(f64, bool, bool), String>> = if self.slots.len() >= G::PARALLEL_MIN
        {
            let slots = &mut self.slots;
            crate::pool::install(|| {
                slots
                    .par_iter_mut()
                    .zip(actions.par_iter())
                    .with_min_len(CHUNK)
                    .map(go)
                    .collect()
            })
        } else {
            self.slots.iter_mut().zip(actions).map(go).collect()
        };
        let mut out = Outcomes {
            reward: Vec::with_capacity(results.len()),
            terminated: Vec::with_capacity(results.len()),
            truncated: Vec::with_capacity(results.len()),
        };
        for r in results {
            let (reward, term, trunc) = r?;
            out.reward.push(reward);
            out.terminated.push(term);
            out.truncated.push(trunc);
        }
        Ok(out)
    }
}

/// Rewards, terminations and truncations, as Python gets them from `step`.
pub(crate) type StepArrays<'py> = (
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
);

impl<G: Game> Slots<G> {
    /// [`Slots::reset`] with the GIL released (starting games can take a
    /// while: a level, a few thousand boards).
    pub fn reset_py(&mut self, py: Python<'_>, config: &G::Config, master: u64) {
        crate::pool::detach(py, || self.reset(config, master));
    }

    /// [`Slots::step`] for Python: copies the actions (no Python code can
    /// change them while the GIL is released for the step) and answers with
    /// NumPy arrays.
    pub fn step_arrays<'py>(
        &mut self,
        py: Python<'py>,
        config: &G::Config,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<StepArrays<'py>> {
        let actions = actions.as_slice().map_err(value_error)?.to_vec();
        let out = crate::pool::detach(py, || self.step(config, &actions)).map_err(value_error)?;
        Ok((
            PyArray1::from_vec(py, out.reward),
            PyArray1::from_vec(py, out.terminated),
            PyArray1::from_vec(py, out.truncated),
        ))
    }

    /// `choose`'s action for every game, on rayon threads with the GIL
    /// released: for experts that keep what they found between calls (a
    /// solution that play follows), hence `&mut`.
    pub fn choose_each<'py>(
        &mut self,
        py: Python<'py>,
        choose: impl Fn(&mut G) -> i64 + Sync + Send,
    ) -> Bound<'py, PyArray1<i64>> {
        let games = &mut self.slots;
        let actions: Vec<i64> = crate::pool::detach(py, || {
            games.par_iter_mut().map(|s| choose(&mut s.game)).collect()
        });
        PyArray1::from_vec(py, actions)
    }
}

/// The error for a step given `got` actions for `games` games.
pub(crate) fn wrong_count(games: usize, got: usize) -> String {
    format!("expected {games} actions, got {got}")
}

//! The stepping loop shared by the vector environments: Gymnasium's
//! next-step autoreset (a sub-environment that ended is reset by the next
//! `step`, which ignores its action and returns reward 0), run over the
//! sub-environments in parallel with the GIL released.

use crate::seeds::episode_seed;
use rayon::prelude::*;

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
    pub fn new(config: &G::Config, n: usize, master: u64) -> Slots<G> {
        let slots = (0..n as u64)
            .map(|i| Slot {
                game: G::start(config, episode_seed(master, i, 0)),
                index: i,
                episode: 0,
                ended: false,
            })
            .collect();
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
            self.slots.par_iter_mut().with_min_len(CHUNK).for_each(go);
        } else {
            self.slots.iter_mut().for_each(go);
        }
    }

    /// Steps every sub-environment (or resets the ones that ended).
    pub fn step(&mut self, config: &G::Config, actions: &[i64]) -> Result<Outcomes, String> {
        if actions.len() != self.slots.len() {
            return Err(format!(
                "expected {} actions, got {}",
                self.slots.len(),
                actions.len()
            ));
        }
        for (i, &a) in actions.iter().enumerate() {
            G::check(config, a).map_err(|e| format!("sub-environment {i}: {e}"))?;
        }
        let master = self.master;
        let go = |(s, &a): (&mut Slot<G>, &i64)| -> Result<(f64, bool, bool), String> {
            if s.ended {
                s.episode += 1;
                s.ended = false;
                s.game = G::start(config, episode_seed(master, s.index, s.episode));
                return Ok((0.0, false, false));
            }
            let r = s
                .game
                .play(a)
                .map_err(|e| format!("sub-environment {}: {e}", s.index))?;
            s.ended = r.1 || r.2;
            Ok(r)
        };
        let results: Vec<Result<(f64, bool, bool), String>> = if self.slots.len() >= G::PARALLEL_MIN
        {
            self.slots
                .par_iter_mut()
                .zip(actions.par_iter())
                .with_min_len(CHUNK)
                .map(go)
                .collect()
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

//! Environment speed: frames per second on the calling thread.

use crate::env::Env;
use crate::episode::train_seed;
use crate::policy::Policy;
use serde::Serialize;
use std::time::Instant;

/// Result of a speed run.
#[derive(Clone, Debug, Serialize)]
pub struct SpeedReport {
    pub frames: u64,
    pub episodes: u64,
    pub seconds: f64,
    pub frames_per_sec: f64,
}

/// Plays at least `frames` frames of `policy`, one episode after another
/// (seeds `train_seed(seed, 0, 1, …)`), on the calling thread.
pub fn frames_per_second<P: Policy>(policy: &mut P, frames: u64, seed: u64) -> SpeedReport {
    let start = Instant::now();
    let mut done = 0;
    let mut episodes = 0;
    while done < frames {
        let mut env = Env::new(train_seed(seed, episodes), None);
        while !env.is_over() && done < frames {
            let flap = policy.flap(&env);
            env.step(flap);
            done += 1;
        }
        episodes += 1;
    }
    let seconds = start.elapsed().as_secs_f64();
    SpeedReport {
        frames: done,
        episodes,
        seconds,
        frames_per_sec: done as f64 / seconds.max(1e-9),
    }
}

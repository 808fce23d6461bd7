//! Playing whole episodes, and the seeds they are played on.
//!
//! Training and evaluation must never share a game. Episode seeds are 64-bit
//! values whose top bit says which side they belong to: [`train_seed`] clears
//! it and [`eval_seed`] sets it, so the two sets are disjoint by construction
//! whatever the master seeds.

use crate::env::{Env, Obstacle};
use crate::policy::Policy;
use arcade_core::derive_seed;

const EVAL_BIT: u64 = 1 << 63;

/// Seed of training episode `index` under `master` (top bit clear).
pub fn train_seed(master: u64, index: u64) -> u64 {
    derive_seed(master, index) & !EVAL_BIT
}

/// Seed of evaluation episode `index` under `master` (top bit set).
pub fn eval_seed(master: u64, index: u64) -> u64 {
    derive_seed(master, index) | EVAL_BIT
}

/// How an episode went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Pipes cleared.
    pub pipes: u64,
    /// Frames played.
    pub frames: u64,
    /// What the bird crashed into; `None` when the pipe cap ended the game.
    pub crashed_into: Option<Obstacle>,
    /// Sum of the rewards (+60 per pipe, −450 for a crash).
    pub reward: f64,
}

impl Outcome {
    /// Ended by a crash (rather than the pipe cap).
    pub fn crashed(&self) -> bool {
        self.crashed_into.is_some()
    }
}

/// Plays one episode of `policy` on the gaps of `seed`, calling `on_frame`
/// after every frame (for rendering; pass `|_| {}` otherwise).
///
/// Without a pipe cap an episode lasts until the policy crashes.
pub fn play<P: Policy>(
    policy: &mut P,
    seed: u64,
    max_pipes: Option<u64>,
    on_frame: impl FnMut(&Env),
) -> Outcome {
    play_env(policy, Env::new(seed, max_pipes), on_frame)
}

/// Plays `env` to its end with `policy`.
pub fn play_env<P: Policy>(
    policy: &mut P,
    mut env: Env,
    mut on_frame: impl FnMut(&Env),
) -> Outcome {
    let mut reward = 0.0;
    while !env.is_over() {
        let flap = policy.flap(&env);
        reward += env.step(flap).reward;
        on_frame(&env);
    }
    Outcome {
        pipes: env.pipes(),
        frames: env.frames(),
        crashed_into: env.crashed_into(),
        reward,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::{CRASH_REWARD, PIPE_REWARD};
    use crate::policy::Heuristic;
    use proptest::prelude::*;

    #[test]
    fn reward_adds_up() {
        for seed in 0..20 {
            let o = play(&mut Heuristic, train_seed(1, seed), Some(30), |_| {});
            let expected =
                o.pipes as f64 * PIPE_REWARD + if o.crashed() { CRASH_REWARD } else { 0.0 };
            assert_eq!(o.reward, expected);
            assert!(o.crashed() || o.pipes == 30);
        }
    }

    proptest! {
        #[test]
        fn train_and_eval_seeds_never_meet(a in any::<u64>(), b in any::<u64>(), i in any::<u64>(), j in any::<u64>()) {
            prop_assert_ne!(train_seed(a, i), eval_seed(b, j));
        }
    }
}

//! Who flaps: the hand-written heuristic and the neural policy.

use crate::env::{BIRD_H, Env};
use crate::mlp::{Mlp, Scratch};
use crate::obs::{self, normalized};
use crate::viability::{Depths, Judge};

/// Decides, frame by frame, whether to flap.
pub trait Policy {
    fn flap(&mut self, env: &Env) -> bool;
}

/// The baseline controller: flap whenever the bird's bottom edge is lower
/// than [`Heuristic::MARGIN`] pixels above the bottom of the gap ahead.
///
/// A flap lifts the bird about 45 px before it falls again (9 + 8 + … + 1),
/// and the gap leaves 76 px of room around the bird, so flapping with the
/// bottom edge 12 px above the gap's bottom keeps the top edge clear of the
/// upper pipe while the bottom never sinks into the lower one.
#[derive(Clone, Copy, Debug, Default)]
pub struct Heuristic;

impl Heuristic {
    /// Target height of the bird's bottom edge above the gap's bottom.
    pub const MARGIN: i32 = 12;
}

impl Policy for Heuristic {
    #[inline]
    fn flap(&mut self, env: &Env) -> bool {
        env.bird_y() + BIRD_H > env.pipe_ahead(0).gap_bottom() - Heuristic::MARGIN
    }
}

/// An [`Mlp`] acting greedily on the [`normalized`] observation: output 0 is
/// "do nothing", output 1 "flap"; it flaps when the flap logit is strictly larger.
pub struct Greedy<'a> {
    mlp: &'a Mlp,
    scratch: Scratch,
}

impl<'a> Greedy<'a> {
    /// # Panics
    /// If the network does not take [`obs::BASIC`] or [`obs::EXTENDED`]
    /// inputs or does not have two outputs.
    pub fn new(mlp: &'a Mlp) -> Greedy<'a> {
        assert!(fits(mlp), "network shape {:?}", mlp.sizes());
        Greedy {
            mlp,
            scratch: mlp.scratch(),
        }
    }
}

impl Policy for Greedy<'_> {
    #[inline]
    fn flap(&mut self, env: &Env) -> bool {
        let o = normalized(env);
        let logits = self.mlp.forward(&o[..self.mlp.inputs()], &mut self.scratch);
        logits[1] > logits[0]
    }
}

/// Perfect play from the exact [`crate::viability`] analysis: flaps when
/// flapping leads to a deeper state than not flapping (one that stays safe
/// with the walls more pixels closer). It sees what the seven-number
/// observation shows, and never crashes: the start is deep in the kernel,
/// and a kernel state always has a successor in the kernel.
pub struct Oracle<'a> {
    judge: Judge<'a>,
}

impl<'a> Oracle<'a> {
    pub fn new(depths: &'a Depths) -> Oracle<'a> {
        Oracle {
            judge: Judge::new(depths),
        }
    }
}

impl Policy for Oracle<'_> {
    #[inline]
    fn flap(&mut self, env: &Env) -> bool {
        let [stay, flap] = self.judge.action_depths(env);
        flap > stay
    }
}

/// Whether a network can be a policy: 5 or 7 inputs, 2 outputs.
pub fn fits(mlp: &Mlp) -> bool {
    matches!(mlp.inputs(), obs::BASIC | obs::EXTENDED) && mlp.outputs() == 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mlp::param_count;

    #[test]
    fn greedy_flaps_on_the_larger_logit() {
        // A linear net whose flap logit is the bird's height: flaps low, not high.
        let sizes = [5, 2];
        let mut p = vec![0.0; param_count(&sizes)];
        p[3 * 2 + 1] = 1.0; // input 3 (bird y) → output 1 (flap)
        p[5 * 2] = 1.0; // bias of output 0: flap below 0.5 of the screen
        let mlp = Mlp::from_params(&sizes, p);
        let mut g = Greedy::new(&mlp);
        let mut env = Env::new(1, None);
        // Starts at y = 244 (0.477 of the screen, 0.77 normalised) → no flap.
        assert!(!g.flap(&env));
        for _ in 0..8 {
            env.step(false);
        }
        // Fell 36 px: 280 / 512 = 0.547 (1.47 normalised) → flap.
        assert!(g.flap(&env));
    }

    /// The oracle survives the hardest games: a quarter of the gaps at an
    /// end of their range, so 139 px climbs and drops come every few pipes.
    #[test]
    fn oracle_never_crashes() {
        let depths = Depths::shared();
        for seed in 0..8 {
            let env = Env::with_extremes(seed, Some(2_000), 0.25);
            let o = crate::episode::play_env(&mut Oracle::new(depths), env, |_| {});
            assert_eq!(o.pipes, 2_000, "seed {seed}");
        }
    }

    #[test]
    fn shapes_that_fit() {
        assert!(fits(&Mlp::zeros(&[5, 16, 64, 16, 2])));
        assert!(fits(&Mlp::zeros(&[7, 8, 2])));
        assert!(!fits(&Mlp::zeros(&[6, 8, 2])));
        assert!(!fits(&Mlp::zeros(&[5, 8, 3])));
    }
}

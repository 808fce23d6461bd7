//! What a policy sees: the published hobby agent's five numbers, optionally
//! followed by the next pipe's gap.

use crate::env::{BIRD_X, Env, MAX_FALL, SCREEN_H, SCREEN_W};

/// The five-number observation of the published hobby agent.
pub const BASIC: usize = 5;
/// The five numbers plus the top and bottom of the next pipe's gap.
pub const EXTENDED: usize = 7;

/// The observation of `env`, as `f32`s in roughly `[-0.2, 1.7]`:
///
/// 0. horizontal distance from the bird's left edge to the left edge of the
///    pipe ahead (the first one not yet cleared), as a share of the screen
///    width (negative while the bird is between its walls);
/// 1. top of that pipe's gap, as a share of the screen height;
/// 2. bottom of that gap, likewise;
/// 3. the bird's top edge, likewise;
/// 4. the bird's vertical speed as a share of the terminal fall speed (down is positive);
/// 5. top of the next pipe's gap (only in the [`EXTENDED`] observation);
/// 6. bottom of the next pipe's gap (likewise).
///
/// A policy reads the first [`BASIC`] or all [`EXTENDED`] entries.
#[inline]
pub fn observe(env: &Env) -> [f32; EXTENDED] {
    let w = 1.0 / SCREEN_W as f32;
    let h = 1.0 / SCREEN_H as f32;
    let ahead = env.pipe_ahead(0);
    let next = env.pipe_ahead(1);
    [
        (ahead.x - BIRD_X) as f32 * w,
        ahead.gap_top as f32 * h,
        ahead.gap_bottom() as f32 * h,
        env.bird_y() as f32 * h,
        env.bird_vel() as f32 / MAX_FALL as f32,
        next.gap_top as f32 * h,
        next.gap_bottom() as f32 * h,
    ]
}

/// Centre of the vertical features (0.4 of the screen height, about 205 px:
/// the middle of the range the gaps and the bird move in).
pub const VERTICAL_CENTRE: f32 = 0.4;
/// Scale of the vertical features (a tenth of the screen height, 51 px, so
/// the 76 px of room a gap leaves around the bird is about 1.5 units).
pub const VERTICAL_SCALE: f32 = 0.1;
/// Centre and scale of the horizontal distance (a quarter of the screen).
pub const DISTANCE_CENTRE: f32 = 0.25;
pub const DISTANCE_SCALE: f32 = 0.25;
/// Scale of the vertical speed (half the terminal fall speed).
pub const SPEED_SCALE: f32 = 0.5;

/// What the networks read: [`observe`] with each feature shifted and scaled
/// to order one (`(x − centre) / scale`, constants above).
///
/// A fixed affine map adds no information, but the raw shares are crowded
/// into a narrow range (the whole play area spans 0.15–0.8 of the screen and
/// a bird's height matters to a few pixels, 0.005), so weights drawn at one
/// scale for every layer, as evolution and initialisation do, would barely
/// see the differences that matter.
#[inline]
pub fn normalized(env: &Env) -> [f32; EXTENDED] {
    let o = observe(env);
    let v = |x: f32| (x - VERTICAL_CENTRE) / VERTICAL_SCALE;
    [
        (o[0] - DISTANCE_CENTRE) / DISTANCE_SCALE,
        v(o[1]),
        v(o[2]),
        v(o[3]),
        o[4] / SPEED_SCALE,
        v(o[5]),
        v(o[6]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::{BIRD_START_Y, FIRST_PIPE_X, GAP};

    #[test]
    fn normalized_is_the_affine_map_of_the_shares() {
        let mut env = Env::new(9, None);
        for _ in 0..40 {
            env.step(env.bird_y() > 250);
        }
        let (o, n) = (observe(&env), normalized(&env));
        assert!((n[0] * DISTANCE_SCALE + DISTANCE_CENTRE - o[0]).abs() < 1e-5);
        for k in [1, 2, 3, 5, 6] {
            assert!((n[k] * VERTICAL_SCALE + VERTICAL_CENTRE - o[k]).abs() < 1e-5);
        }
        assert!((n[4] * SPEED_SCALE - o[4]).abs() < 1e-6);
        // The bird's height above the gap top, in units of 51.2 px.
        let rel = (env.bird_y() - env.pipe_ahead(0).gap_top) as f32 / 51.2;
        assert!((n[3] - n[1] - rel).abs() < 1e-4);
    }

    #[test]
    fn start_observation() {
        let env = Env::new(7, None);
        let o = observe(&env);
        assert_eq!(o[0], (FIRST_PIPE_X - BIRD_X) as f32 / SCREEN_W as f32);
        assert!((o[2] - o[1] - GAP as f32 / SCREEN_H as f32).abs() < 1e-6);
        assert_eq!(o[3], BIRD_START_Y as f32 / SCREEN_H as f32);
        assert_eq!(o[4], 0.0);
        assert_eq!(o[5], env.pipe_ahead(1).gap_top as f32 / SCREEN_H as f32);
    }

    #[test]
    fn distance_shrinks_then_jumps_to_the_next_pipe() {
        let mut env = Env::new(2, None);
        let mut last = observe(&env)[0];
        let mut jumped = false;
        while !env.is_over() && env.pipes() < 2 {
            let p = env.pipe_ahead(0);
            let flap = env.bird_y() > p.gap_top + GAP / 2 && env.bird_vel() > 0;
            let before = env.pipes();
            env.step(flap);
            let now = observe(&env)[0];
            if env.pipes() > before {
                assert!(now > last, "switches to the next pipe");
                jumped = true;
            } else {
                assert!((now - (last - 4.0 / SCREEN_W as f32)).abs() < 1e-5);
            }
            last = now;
        }
        assert!(jumped);
    }
}

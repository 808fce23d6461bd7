//! The game: a bird under gravity, pipes scrolling towards it, one frame per step.
//!
//! All state is integer pixels and pixels per frame, so an episode is exactly
//! reproducible on every machine: the same seed and the same actions always
//! give the same frames. The only randomness is each pipe's gap height, drawn
//! from an [`arcade_core::Rng`] seeded with the episode seed.
//!
//! The constants are those of FlapPyBird (sourabhv/FlapPyBird, the widely
//! used Python remake of the original game, also the basis of the
//! `flappy-bird-gymnasium` environment): a 288×512 screen at 30 frames per
//! second, a 112 px ground strip, a 34×24 bird at 20% of the screen width,
//! gravity 1 px/frame² up to a fall speed of 10 px/frame, a flap that sets
//! the vertical speed to −9 px/frame, 52 px wide pipes moving 4 px/frame, a
//! 100 px gap whose top is uniform over the middle 60% of the playfield
//! (`[0.2·ground, 0.8·ground − gap)`), and pipes half a screen (144 px)
//! apart. Differences from FlapPyBird, chosen to make the rules exact and
//! simple: collisions use the bird's and pipes' bounding boxes rather than
//! pixel masks, the ceiling is deadly (the issue asks for it), and a pipe
//! counts once the bird has fully cleared it rather than at its middle.

use arcade_core::Rng;

/// Screen width in pixels.
pub const SCREEN_W: i32 = 288;
/// Screen height in pixels.
pub const SCREEN_H: i32 = 512;
/// Height of the ground strip at the bottom of the screen (FlapPyBird's base image).
pub const GROUND_STRIP: i32 = 112;
/// Y of the ground line (y grows downwards): touching it ends the game.
pub const GROUND_Y: i32 = SCREEN_H - GROUND_STRIP;
/// Bird's fixed horizontal position (left edge): 20% of the screen width.
pub const BIRD_X: i32 = SCREEN_W / 5;
/// Bird's bounding box width.
pub const BIRD_W: i32 = 34;
/// Bird's bounding box height.
pub const BIRD_H: i32 = 24;
/// Bird's starting height (top edge): vertically centred on the screen.
pub const BIRD_START_Y: i32 = (SCREEN_H - BIRD_H) / 2;
/// Downward acceleration, px/frame², applied on every frame without a flap.
pub const GRAVITY: i32 = 1;
/// Terminal fall speed, px/frame.
pub const MAX_FALL: i32 = 10;
/// Vertical speed right after a flap, px/frame (negative is up).
pub const FLAP_VEL: i32 = -9;
/// Pipe width in pixels.
pub const PIPE_W: i32 = 52;
/// Horizontal pipe speed, px/frame (pipes move left).
pub const PIPE_SPEED: i32 = 4;
/// Height of the gap between the upper and the lower pipe.
pub const GAP: i32 = 100;
/// Distance between the left edges of consecutive pipes (half a screen).
pub const PIPE_SPACING: i32 = SCREEN_W / 2;
/// Left edge of the first pipe at the start (FlapPyBird: screen width + 200).
pub const FIRST_PIPE_X: i32 = SCREEN_W + 200;
/// Lowest gap top (highest gap on screen): 20% of the playfield.
pub const GAP_TOP_MIN: i32 = GROUND_Y / 5;
/// Number of possible gap tops: the gap top is uniform in
/// `GAP_TOP_MIN..GAP_TOP_MIN + GAP_TOP_CHOICES`, so the gap bottom stays above 80% of the playfield.
pub const GAP_TOP_CHOICES: i32 = GROUND_Y * 3 / 5 - GAP;
/// Reward for clearing a pipe (the published hobby agent's value).
pub const PIPE_REWARD: f64 = 60.0;
/// Reward for a crash (the published hobby agent's value).
pub const CRASH_REWARD: f64 = -450.0;

/// Pipes remembered at once: the one just cleared (still drawn), the one
/// ahead of the bird and the two after it. A power of two for the ring index.
const RING: usize = 4;

/// One pipe pair as seen on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pipe {
    /// Left edge, in pixels from the left of the screen (negative once partly off screen).
    pub x: i32,
    /// Y of the top of the gap (bottom of the upper pipe).
    pub gap_top: i32,
}

impl Pipe {
    /// Y of the bottom of the gap (top of the lower pipe).
    pub fn gap_bottom(&self) -> i32 {
        self.gap_top + GAP
    }
}

/// How a step ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game goes on.
    Running,
    /// The bird touched a pipe, the ground or the ceiling.
    Crashed,
    /// The pipe cap was reached: stopped from outside, not a loss.
    Truncated,
}

/// What a crashed bird touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Obstacle {
    /// The top of the screen (deadly here, unlike in FlapPyBird).
    Ceiling,
    Ground,
    Pipe,
}

impl Obstacle {
    /// "the ceiling", "the ground" or "a pipe", for "crashed into …".
    pub fn phrase(self) -> &'static str {
        match self {
            Obstacle::Ceiling => "the ceiling",
            Obstacle::Ground => "the ground",
            Obstacle::Pipe => "a pipe",
        }
    }
}

/// What one step produced.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// +60 for a cleared pipe, −450 for a crash, 0 otherwise.
    pub reward: f64,
    pub status: Status,
}

/// One Flappy Bird game in progress.
#[derive(Clone, Debug)]
pub struct Env {
    rng: Rng,
    y: i32,
    vel: i32,
    /// Left edge of the pipe ahead of the bird (the first one not yet cleared).
    ahead_x: i32,
    /// Gap tops of pipes `ahead - 1 ..= ahead + 2`, indexed by pipe number mod [`RING`].
    gaps: [i32; RING],
    /// Pipes cleared so far (also the number of the pipe ahead).
    pipes: u64,
    frames: u64,
    max_pipes: Option<u64>,
    status: Status,
    /// Chance that a pipe's gap is at one end of its range (training only; 0 in the game).
    extreme: u64,
}

impl Env {
    /// A new game whose pipe gaps come from `seed`, ending as truncated after
    /// `max_pipes` pipes if given.
    pub fn new(seed: u64, max_pipes: Option<u64>) -> Env {
        Env::with_extremes(seed, max_pipes, 0.0)
    }

    /// A game whose gaps are, with probability `extreme` each, at the top or
    /// the bottom end of their range (half each), and uniform otherwise.
    /// Not the real game: training uses it to meet the hardest transitions
    /// (a 139 px climb or drop between neighbouring pipes) far more often
    /// than the 1 in 10,000 pipes of the real distribution. With `extreme`
    /// = 0 it is exactly [`Env::new`].
    pub fn with_extremes(seed: u64, max_pipes: Option<u64>, extreme: f64) -> Env {
        // The chance as a threshold on 64 random bits (0 draws nothing extra,
        // so the ordinary game's stream is untouched).
        let extreme = (extreme.clamp(0.0, 1.0) * u64::MAX as f64) as u64;
        let mut rng = Rng::new(seed);
        let mut gaps = [0; RING];
        // Pipe 0, 1, 2 are ahead at the start; slot of pipe -1 stays unused
        // until a pipe is cleared (it is off screen: FIRST_PIPE_X is far right).
        for slot in gaps.iter_mut().take(3) {
            *slot = draw_gap(&mut rng, extreme);
        }
        Env {
            rng,
            y: BIRD_START_Y,
            vel: 0,
            ahead_x: FIRST_PIPE_X,
            gaps,
            pipes: 0,
            frames: 0,
            max_pipes,
            extreme,
            status: if max_pipes == Some(0) {
                Status::Truncated
            } else {
                Status::Running
            },
        }
    }

    /// Advances one frame. `flap` sets the vertical speed to [`FLAP_VEL`];
    /// otherwise gravity adds [`GRAVITY`] up to [`MAX_FALL`]. Then the bird
    /// and the pipes move, collisions end the game, and a pipe whose right
    /// edge the bird has passed counts.
    ///
    /// # Panics
    /// If the game is already over.
    #[inline]
    pub fn step(&mut self, flap: bool) -> Step {
        assert_eq!(self.status, Status::Running, "step after the game ended");
        self.vel = if flap {
            FLAP_VEL
        } else {
            (self.vel + GRAVITY).min(MAX_FALL)
        };
        self.y += self.vel;
        self.ahead_x -= PIPE_SPEED;
        self.frames += 1;
        if self.collides() {
            self.status = Status::Crashed;
            return Step {
                reward: CRASH_REWARD,
                status: Status::Crashed,
            };
        }
        let mut reward = 0.0;
        if self.ahead_x + PIPE_W <= BIRD_X {
            reward = PIPE_REWARD;
            self.pipes += 1;
            self.ahead_x += PIPE_SPACING;
            // The slot of the pipe two behind the new one ahead is reused for
            // the pipe two after it.
            self.gaps[(self.pipes as usize + 2) % RING] = draw_gap(&mut self.rng, self.extreme);
            if self.max_pipes == Some(self.pipes) {
                self.status = Status::Truncated;
            }
        }
        Step {
            reward,
            status: self.status,
        }
    }

    /// Whether the bird's box touches the ceiling, the ground or the pipe
    /// ahead.
    #[inline]
    fn collides(&self) -> bool {
        self.touching().is_some()
    }

    /// What the bird's box touches: the ceiling, the ground or the pipe ahead
    /// (the only pipe that can overlap it: the next one is 144 px further).
    #[inline]
    fn touching(&self) -> Option<Obstacle> {
        if self.y < 0 {
            return Some(Obstacle::Ceiling);
        }
        if self.y + BIRD_H >= GROUND_Y {
            return Some(Obstacle::Ground);
        }
        let overlaps_x = self.ahead_x < BIRD_X + BIRD_W && self.ahead_x + PIPE_W > BIRD_X;
        let top = self.gaps[self.pipes as usize % RING];
        (overlaps_x && (self.y < top || self.y + BIRD_H > top + GAP)).then_some(Obstacle::Pipe)
    }

    /// What the bird crashed into, once it has (`None` while it flies or
    /// after a pipe cap ended the game).
    pub fn crashed_into(&self) -> Option<Obstacle> {
        if self.status == Status::Crashed {
            self.touching()
        } else {
            None
        }
    }

    /// The pipe ahead of the bird (`k = 0`) or `k` pipes after it (`k ≤ 2`).
    #[inline]
    pub fn pipe_ahead(&self, k: usize) -> Pipe {
        debug_assert!(k <= 2);
        Pipe {
            x: self.ahead_x + PIPE_SPACING * k as i32,
            gap_top: self.gaps[(self.pipes as usize + k) % RING],
        }
    }

    /// Pipes (partly) on screen, left to right.
    pub fn visible_pipes(&self) -> Vec<Pipe> {
        let behind = (self.pipes > 0).then(|| Pipe {
            x: self.ahead_x - PIPE_SPACING,
            gap_top: self.gaps[(self.pipes as usize + RING - 1) % RING],
        });
        behind
            .into_iter()
            .chain((0..3).map(|k| self.pipe_ahead(k)))
            .filter(|p| p.x + PIPE_W > 0 && p.x < SCREEN_W)
            .collect()
    }

    /// Bird's top edge, in pixels from the top of the screen.
    pub fn bird_y(&self) -> i32 {
        self.y
    }

    /// Bird's vertical speed, px/frame (positive is down).
    pub fn bird_vel(&self) -> i32 {
        self.vel
    }

    /// Pipes cleared so far.
    pub fn pipes(&self) -> u64 {
        self.pipes
    }

    /// Frames played so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    pub fn status(&self) -> Status {
        self.status
    }

    /// True once crashed or truncated.
    pub fn is_over(&self) -> bool {
        self.status != Status::Running
    }
}

/// A pipe's gap top: uniform over the allowed range, or with chance
/// `extreme / 2^64` at one of its ends.
#[inline]
fn draw_gap(rng: &mut Rng, extreme: u64) -> i32 {
    if extreme > 0 && rng.next_u64() < extreme {
        return if rng.next_u64() & 1 == 0 {
            GAP_TOP_MIN
        } else {
            GAP_TOP_MIN + GAP_TOP_CHOICES - 1
        };
    }
    GAP_TOP_MIN + rng.below(GAP_TOP_CHOICES as u64) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A naive model of the same rules: every pipe in a list, all moved every
    /// frame, every pipe checked for collision. The fast [`Env`] keeps four.
    struct Naive {
        rng: Rng,
        y: i32,
        vel: i32,
        pipes: Vec<Pipe>,
        cleared: Vec<bool>,
        score: u64,
    }

    impl Naive {
        fn new(seed: u64) -> Naive {
            let mut rng = Rng::new(seed);
            let pipes = (0..3)
                .map(|k| Pipe {
                    x: FIRST_PIPE_X + PIPE_SPACING * k,
                    gap_top: GAP_TOP_MIN + rng.below(GAP_TOP_CHOICES as u64) as i32,
                })
                .collect();
            Naive {
                rng,
                y: BIRD_START_Y,
                vel: 0,
                pipes,
                cleared: vec![false; 3],
                score: 0,
            }
        }

        /// (what the bird crashed into, pipes cleared this frame)
        fn step(&mut self, flap: bool) -> (Option<Obstacle>, u64) {
            if flap {
                self.vel = FLAP_VEL;
            } else if self.vel < MAX_FALL {
                self.vel += GRAVITY;
            }
            self.y += self.vel;
            for p in &mut self.pipes {
                p.x -= PIPE_SPEED;
            }
            let bird = (BIRD_X, self.y, BIRD_X + BIRD_W, self.y + BIRD_H);
            let mut hit = None;
            for p in &self.pipes {
                let upper = (p.x, i32::MIN, p.x + PIPE_W, p.gap_top);
                let lower = (p.x, p.gap_bottom(), p.x + PIPE_W, i32::MAX);
                for r in [upper, lower] {
                    if bird.0 < r.2 && r.0 < bird.2 && bird.1 < r.3 && r.1 < bird.3 {
                        hit = Some(Obstacle::Pipe);
                    }
                }
            }
            if bird.3 >= GROUND_Y {
                hit = Some(Obstacle::Ground);
            }
            if bird.1 < 0 {
                hit = Some(Obstacle::Ceiling);
            }
            if hit.is_some() {
                return (hit, 0);
            }
            let mut gained = 0;
            for i in 0..self.pipes.len() {
                if !self.cleared[i] && self.pipes[i].x + PIPE_W <= BIRD_X {
                    self.cleared[i] = true;
                    gained += 1;
                    let last = *self.pipes.last().unwrap();
                    self.pipes.push(Pipe {
                        x: last.x + PIPE_SPACING,
                        gap_top: GAP_TOP_MIN + self.rng.below(GAP_TOP_CHOICES as u64) as i32,
                    });
                    self.cleared.push(false);
                }
            }
            self.score += gained;
            (None, gained)
        }
    }

    /// A flapping rule that plays a while: aim at the gap of the pipe ahead,
    /// with random slips so that crashes of every kind happen too.
    fn noisy_action(env: &Env, rng: &mut Rng) -> bool {
        slipping_action(env, rng, 0.03)
    }

    /// [`noisy_action`] slipping with chance `slip`.
    fn slipping_action(env: &Env, rng: &mut Rng, slip: f64) -> bool {
        let target = env.pipe_ahead(0).gap_bottom() - BIRD_H - 20;
        let wanted = env.bird_y() > target && env.bird_vel() >= 0;
        if rng.chance(slip) { !wanted } else { wanted }
    }

    #[test]
    fn matches_the_naive_model_frame_by_frame() {
        // [ceiling, ground, pipe] crashes: a quarter of the games slip
        // often, to hit the ceiling, and a quarter seldom flap, to fall.
        let mut crashes = [0; 3];
        let mut max_pipes = 0;
        for seed in 0..200 {
            let mut env = Env::new(seed, None);
            let mut naive = Naive::new(seed);
            let mut policy = Rng::new(seed ^ 0xABCD);
            while !env.is_over() {
                let flap = match seed % 4 {
                    3 => slipping_action(&env, &mut policy, 0.4),
                    2 => policy.chance(0.05),
                    _ => noisy_action(&env, &mut policy),
                };
                let s = env.step(flap);
                let (hit, gained) = naive.step(flap);
                let crashed = hit.is_some();
                assert_eq!(s.status == Status::Crashed, crashed, "seed {seed}");
                assert_eq!(env.crashed_into(), hit, "seed {seed}");
                assert_eq!(
                    s.reward,
                    if crashed {
                        CRASH_REWARD
                    } else {
                        PIPE_REWARD * gained as f64
                    }
                );
                assert_eq!(env.bird_y(), naive.y);
                assert_eq!(env.pipes(), naive.score);
                if !crashed {
                    let ahead = naive
                        .pipes
                        .iter()
                        .zip(&naive.cleared)
                        .find(|(_, c)| !**c)
                        .unwrap()
                        .0;
                    assert_eq!(env.pipe_ahead(0), *ahead);
                }
            }
            crashes[env.crashed_into().expect("only a crash ends the game") as usize] += 1;
            max_pipes = max_pipes.max(env.pipes());
        }
        assert!(
            crashes.iter().all(|&n| n >= 5),
            "crashes of each kind: {crashes:?}"
        );
        assert!(max_pipes >= 5, "the test policy should clear some pipes");
    }

    #[test]
    fn same_seed_and_actions_same_episode() {
        let run = |seed: u64| {
            let mut env = Env::new(seed, Some(50));
            let mut policy = Rng::new(99);
            let mut trace = Vec::new();
            while !env.is_over() {
                let s = env.step(noisy_action(&env, &mut policy));
                trace.push((env.bird_y(), env.pipe_ahead(0), s.reward.to_bits()));
            }
            trace
        };
        assert_eq!(run(5), run(5));
        assert_ne!(run(5), run(6));
    }

    #[test]
    fn doing_nothing_falls_to_the_ground() {
        let mut env = Env::new(1, None);
        let mut frames = 0;
        while !env.is_over() {
            env.step(false);
            frames += 1;
        }
        assert_eq!(env.status(), Status::Crashed);
        assert_eq!(env.crashed_into(), Some(Obstacle::Ground));
        assert!(env.bird_y() + BIRD_H >= GROUND_Y);
        // Falling 132 px from rest at 1 px/frame², at most 10 px/frame:
        // 1+2+…+10 = 55, then 10 a frame: 55 + 8·10 = 135 ≥ 132 > 125.
        assert_eq!(frames, 18);
    }

    #[test]
    fn flapping_always_hits_the_ceiling() {
        let mut env = Env::new(1, None);
        while !env.is_over() {
            env.step(true);
        }
        assert_eq!(env.status(), Status::Crashed);
        assert_eq!(env.crashed_into(), Some(Obstacle::Ceiling));
        assert!(env.bird_y() < 0);
        assert_eq!(env.pipes(), 0);
    }

    #[test]
    fn cap_truncates_instead_of_crashing() {
        let mut env = Env::new(3, Some(2));
        let mut rewards = 0.0;
        while !env.is_over() {
            let flap = crate::policy::Policy::flap(&mut crate::policy::Heuristic, &env);
            rewards += env.step(flap).reward;
        }
        assert_eq!(env.status(), Status::Truncated);
        assert_eq!(env.pipes(), 2);
        assert_eq!(rewards, 2.0 * PIPE_REWARD);
        assert_eq!(Env::new(3, Some(0)).status(), Status::Truncated);
    }

    #[test]
    fn extreme_gaps_are_at_the_ends_as_often_as_asked() {
        let ends = [GAP_TOP_MIN, GAP_TOP_MIN + GAP_TOP_CHOICES - 1];
        let env = Env::with_extremes(1, None, 0.5);
        let mut rng = Rng::new(12);
        let n = 20_000;
        let tops: Vec<i32> = (0..n).map(|_| draw_gap(&mut rng, env.extreme)).collect();
        let at_ends = tops.iter().filter(|t| ends.contains(t)).count() as f64 / n as f64;
        // 0.5 plus the uniform draws that land on an end (2/140 of the rest).
        assert!(
            (at_ends - (0.5 + 0.5 * 2.0 / 140.0)).abs() < 0.02,
            "{at_ends}"
        );
        let low = tops.iter().filter(|&&t| t == ends[0]).count() as f64 / n as f64;
        assert!((low - 0.2536).abs() < 0.02, "{low}");
        // Zero extremes is the ordinary game, gap for gap.
        let mut a = Env::with_extremes(5, None, 0.0);
        let mut b = Env::new(5, None);
        while !a.is_over() {
            let flap = a.bird_y() + BIRD_H > a.pipe_ahead(0).gap_bottom() - 12;
            a.step(flap);
            b.step(flap);
            assert_eq!(a.pipe_ahead(2), b.pipe_ahead(2));
        }
        assert!(a.pipes() > 0);
    }

    #[test]
    fn gaps_cover_the_documented_range() {
        let mut rng = Rng::new(4);
        let tops: Vec<i32> = (0..20_000).map(|_| draw_gap(&mut rng, 0)).collect();
        assert_eq!(*tops.iter().min().unwrap(), GAP_TOP_MIN);
        assert_eq!(
            *tops.iter().max().unwrap(),
            GAP_TOP_MIN + GAP_TOP_CHOICES - 1
        );
        assert_eq!(GAP_TOP_MIN, 80);
        assert_eq!(GAP_TOP_MIN + GAP_TOP_CHOICES - 1 + GAP, 319);
        assert_eq!(GROUND_Y, 400);
    }
}

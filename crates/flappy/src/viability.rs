//! Exact viability: which bird states can survive forever, whatever gaps come.
//!
//! The game is periodic. Every time the bird clears a pipe, the pipe ahead
//! is 148 px away (`BIRD_X + PIPE_SPACING − PIPE_W`, after the last 4 px
//! step), the next gap becomes visible, and 36 frames later the next pipe is
//! cleared. Between two clearings the only obstacle is the pipe ahead, and
//! the only state is the bird's height and speed: 376 × 20 pairs, kept here
//! as one bitset row over heights per speed.
//!
//! The *kernel* `A(g)` is the set of bird states, at the moment a pipe is
//! cleared and the pipe ahead has gap top `g`, from which some way of
//! flapping survives every later pipe whatever its gap: the largest sets
//! with `A(g) = ∩_{g'} Pre_g(A(g'))`, where `Pre_g(S)` holds the states that
//! can pass a pipe with gap `g` and reach `S` when clearing it. A policy
//! that only moves between kernel states never crashes, so a non-empty
//! kernel proves that zero crashes is possible for a player who sees the
//! pipe ahead and the next one (the seven-number observation).
//!
//! A kernel can also be computed for a harder game whose walls (pipes,
//! ceiling and ground) are `margin` pixels closer. The largest margin whose
//! kernel holds a state is that state's *depth*: how far a policy could
//! stray from it and still be safe. The [`Oracle`](crate::policy::Oracle)
//! policy flaps towards the deeper state, and imitation training teaches a
//! network to do the same.

use crate::env::{
    BIRD_H, BIRD_W, BIRD_X, Env, FLAP_VEL, GAP, GAP_TOP_CHOICES, GAP_TOP_MIN, GRAVITY, GROUND_Y,
    MAX_FALL, PIPE_SPACING, PIPE_SPEED, PIPE_W,
};
use rayon::prelude::*;
use std::sync::OnceLock;

/// Largest wall margin [`Depths::shared`] looks at: more than the game
/// allows (some gap's kernel is empty from 14 px), so depths are exact.
pub const MAX_MARGIN: i32 = 20;

/// Heights of the bird's top edge that touch neither ceiling nor ground: `0..HEIGHTS`.
pub const HEIGHTS: usize = (GROUND_Y - BIRD_H) as usize;
/// Vertical speeds a bird can have: `FLAP_VEL..=MAX_FALL`.
pub const SPEEDS: usize = (MAX_FALL - FLAP_VEL + 1) as usize;
/// 64-bit words per row of heights.
const WORDS: usize = HEIGHTS.div_ceil(64);
/// Left edge of the pipe ahead right after a pipe is cleared.
pub const CYCLE_START_X: i32 = cleared_x() + PIPE_SPACING;
/// Frames from one clearing to the next.
pub const CYCLE_FRAMES: usize = (PIPE_SPACING / PIPE_SPEED) as usize;

/// Left edge of a pipe on the frame it is cleared: the first position, on
/// the 4 px grid pipes move on from their start, with `x + PIPE_W <= BIRD_X`.
const fn cleared_x() -> i32 {
    let first = crate::env::FIRST_PIPE_X;
    let mut x = first;
    while x + PIPE_W > BIRD_X {
        x -= PIPE_SPEED;
    }
    x
}

/// One bitset row: bit `y` is height `y`.
type Row = [u64; WORDS];

/// A set of bird states (height, speed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BirdSet {
    rows: [Row; SPEEDS],
}

impl BirdSet {
    pub fn empty() -> BirdSet {
        BirdSet {
            rows: [[0; WORDS]; SPEEDS],
        }
    }

    /// Every state with a height in `lo..=hi` (clamped to the screen).
    pub fn heights(lo: i32, hi: i32) -> BirdSet {
        BirdSet {
            rows: [band(lo, hi); SPEEDS],
        }
    }

    pub fn contains(&self, y: i32, vel: i32) -> bool {
        if !(0..HEIGHTS as i32).contains(&y) || !(FLAP_VEL..=MAX_FALL).contains(&vel) {
            return false;
        }
        let row = &self.rows[(vel - FLAP_VEL) as usize];
        row[y as usize / 64] >> (y % 64) & 1 == 1
    }

    pub fn insert(&mut self, y: i32, vel: i32) {
        assert!((0..HEIGHTS as i32).contains(&y) && (FLAP_VEL..=MAX_FALL).contains(&vel));
        self.rows[(vel - FLAP_VEL) as usize][y as usize / 64] |= 1 << (y % 64);
    }

    /// Number of states in the set.
    pub fn len(&self) -> usize {
        self.rows
            .iter()
            .flatten()
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.iter().flatten().all(|&w| w == 0)
    }

    fn intersect(&mut self, other: &BirdSet) {
        for (a, b) in self.rows.iter_mut().zip(&other.rows) {
            for (x, y) in a.iter_mut().zip(b) {
                *x &= y;
            }
        }
    }

    /// States that reach `self` in one frame by flapping or not, among
    /// those allowed by `allowed` (a row of heights, the same for every speed).
    fn predecessors(&self, allowed: &Row) -> BirdSet {
        let mut out = BirdSet::empty();
        self.predecessors_into(allowed, &mut out);
        out
    }

    /// [`predecessors`](Self::predecessors) written into `out`.
    fn predecessors_into(&self, allowed: &Row, out: &mut BirdSet) {
        // A flap leads from height y to (y + FLAP_VEL, FLAP_VEL) whatever the speed.
        let flap = shift(&self.rows[0], -FLAP_VEL);
        for (i, row) in out.rows.iter_mut().enumerate() {
            let vel = FLAP_VEL + i as i32;
            let next = (vel + GRAVITY).min(MAX_FALL);
            let from = &self.rows[(next - FLAP_VEL) as usize];
            // Word by word, so that no shifted row is stored and read back.
            for (w, word) in row.iter_mut().enumerate() {
                *word = (flap[w] | shifted_word(from, w, -next)) & allowed[w];
            }
        }
    }
}

/// Word `w` of `shift(row, by)`, for `|by| < 64`.
#[inline]
fn shifted_word(row: &Row, w: usize, by: i32) -> u64 {
    let bits = by.unsigned_abs();
    // `(x >> 1) >> (63 - bits)` is the carry `x >> (64 - bits)`, and 0 when
    // `bits` is 0, without a branch.
    if by >= 0 {
        let below = if w > 0 { row[w - 1] } else { 0 };
        row[w] << bits | (below >> 1) >> (63 - bits)
    } else {
        let above = if w + 1 < WORDS { row[w + 1] } else { 0 };
        row[w] >> bits | (above << 1) << (63 - bits)
    }
}

/// Bits `lo..=hi` of a row, clamped to the screen's heights.
fn band(lo: i32, hi: i32) -> Row {
    let (lo, hi) = (lo.max(0), hi.min(HEIGHTS as i32 - 1));
    let mut row = [0; WORDS];
    for (w, word) in row.iter_mut().enumerate() {
        let start = w as i32 * 64;
        let (a, b) = (lo.max(start), hi.min(start + 63));
        if a <= b {
            *word = (u64::MAX >> (63 - (b - a))) << (a - start);
        }
    }
    row
}

/// Moves every bit of `row` by `by` places (towards larger heights if positive).
fn shift(row: &Row, by: i32) -> Row {
    let n = by.unsigned_abs() as usize;
    let (words, bits) = (n / 64, (n % 64) as u32);
    let mut out = [0u64; WORDS];
    if words >= WORDS {
        return out;
    }
    // `(w >> 1) >> (63 - bits)` is the carry `w >> (64 - bits)`, and 0 when
    // `bits` is 0, without a branch.
    if by >= 0 {
        for i in words..WORDS {
            let below = if i > words { row[i - words - 1] } else { 0 };
            out[i] = row[i - words] << bits | (below >> 1) >> (63 - bits);
        }
    } else {
        for i in 0..WORDS - words {
            let above = if i + words + 1 < WORDS {
                row[i + words + 1]
            } else {
                0
            };
            out[i] = row[i + words] >> bits | (above << 1) << (63 - bits);
        }
    }
    out
}

/// Heights allowed on a frame where the pipe ahead (gap top `gap_top`) has
/// its left edge at `x`, in the game whose walls are `margin` px closer.
fn allowed(x: i32, gap_top: i32, margin: i32) -> Row {
    let overlaps = x < BIRD_X + BIRD_W && x + PIPE_W > BIRD_X;
    let (mut lo, mut hi) = (margin, HEIGHTS as i32 - 1 - margin);
    if overlaps {
        lo = lo.max(gap_top + margin);
        hi = hi.min(gap_top + GAP - BIRD_H - margin);
    }
    band(lo, hi)
}

/// The safe sets of one stretch of flight towards a pipe with gap top
/// `gap_top`: entry `k` holds the states, with the pipe's left edge at
/// `cleared_x() + PIPE_SPEED · k`, from which the bird can clear the pipe
/// into `after` (states at the clearing frame). `reach` is the largest
/// left edge needed (at least the clearing position).
fn stretch(gap_top: i32, margin: i32, after: &BirdSet, reach: i32) -> Vec<BirdSet> {
    let mut sets = Vec::with_capacity(index(reach.max(cleared_x())) + 1);
    each_safe_set(gap_top, margin, after, reach, |_, set| {
        sets.push(set.clone())
    });
    sets
}

/// Calls `f(k, set)` with the entries of [`stretch`] in order, holding only
/// the last one.
fn each_safe_set(
    gap_top: i32,
    margin: i32,
    after: &BirdSet,
    reach: i32,
    mut f: impl FnMut(usize, &BirdSet),
) {
    let mut at = clearing_set(gap_top, margin, after);
    f(0, &at);
    for k in 1..=index(reach.max(cleared_x())) {
        at = earlier_set(&at, k, gap_top, margin);
        f(k, &at);
    }
}

/// Entry 0 of [`stretch`]: the states of `after` allowed at the clearing.
fn clearing_set(gap_top: i32, margin: i32, after: &BirdSet) -> BirdSet {
    let mut at = after.clone();
    at.intersect(&BirdSet {
        rows: [allowed(cleared_x(), gap_top, margin); SPEEDS],
    });
    at
}

/// Entry `k` of [`stretch`] from entry `k − 1`.
fn earlier_set(later: &BirdSet, k: usize, gap_top: i32, margin: i32) -> BirdSet {
    let x = cleared_x() + PIPE_SPEED * k as i32;
    later.predecessors(&allowed(x, gap_top, margin))
}

/// Every gap top the game draws.
fn gap_tops() -> impl Iterator<Item = i32> + Clone {
    GAP_TOP_MIN..GAP_TOP_MIN + GAP_TOP_CHOICES
}

/// The kernel of one margin: for each gap top of the pipe ahead, the states
/// at the start of its stretch (just after the previous clearing) that
/// survive forever.
#[derive(Clone, Debug)]
pub struct Kernel {
    margin: i32,
    /// Indexed by `gap_top − GAP_TOP_MIN`.
    sets: Vec<BirdSet>,
    /// Fixed-point rounds until nothing changed.
    pub rounds: usize,
}

impl Kernel {
    /// Computes the kernel of the game with walls `margin` px closer, by
    /// shrinking from "every state" until a fixed point (each round looks one
    /// pipe further ahead).
    pub fn compute(margin: i32) -> Kernel {
        let all = BirdSet::heights(margin, HEIGHTS as i32 - 1 - margin);
        let mut sets = vec![all; GAP_TOP_CHOICES as usize];
        let mut rounds = 0;
        loop {
            rounds += 1;
            let next: Vec<BirdSet> = gap_tops()
                .collect::<Vec<_>>()
                .into_par_iter()
                .map(|g| {
                    let mut meet = BirdSet::heights(0, HEIGHTS as i32);
                    for after in &sets {
                        // Only the start of the stretch counts.
                        each_safe_set(g, margin, after, CYCLE_START_X, |k, start| {
                            if k == CYCLE_FRAMES {
                                meet.intersect(start);
                            }
                        });
                    }
                    meet
                })
                .collect();
            if next == sets {
                return Kernel {
                    margin,
                    sets,
                    rounds,
                };
            }
            sets = next;
        }
    }

    pub fn margin(&self) -> i32 {
        self.margin
    }

    /// The kernel states when the pipe ahead has gap top `gap_top`.
    pub fn at(&self, gap_top: i32) -> &BirdSet {
        &self.sets[(gap_top - GAP_TOP_MIN) as usize]
    }

    /// The gap top whose kernel is smallest, and its size.
    pub fn narrowest(&self) -> (i32, usize) {
        gap_tops()
            .map(|g| (g, self.at(g).len()))
            .min_by_key(|&(_, n)| n)
            .expect("gaps")
    }
}

/// The safe sets, frame by frame, of the stretch an [`Env`] is in.
#[derive(Clone, Debug)]
pub struct Stretch {
    ahead: i32,
    next: i32,
    sets: Vec<BirdSet>,
}

impl Stretch {
    /// Safe sets towards a pipe with gap top `ahead`, clearing it into the
    /// kernel of the next gap `next`; `reach` is the largest left edge needed.
    pub fn new(kernel: &Kernel, ahead: i32, next: i32, reach: i32) -> Stretch {
        let sets = stretch(ahead, kernel.margin, kernel.at(next), reach);
        Stretch { ahead, next, sets }
    }

    /// Whether this stretch is for gaps `(ahead, next)` and reaches left edge `x`.
    pub fn is_for(&self, ahead: i32, next: i32, x: i32) -> bool {
        self.ahead == ahead && self.next == next && index(x) < self.sets.len()
    }

    /// Whether a bird at `(y, vel)` with the pipe ahead at left edge `x` is in the kernel.
    pub fn safe(&self, x: i32, y: i32, vel: i32) -> bool {
        self.sets.get(index(x)).is_some_and(|s| s.contains(y, vel))
    }
}

/// Index into a stretch of the frame where the pipe ahead's left edge is `x`.
fn index(x: i32) -> usize {
    ((x - cleared_x()) / PIPE_SPEED) as usize
}

/// Where `env`'s bird is one frame after flapping (`true`) or not, as
/// (left edge of the pipe ahead, height, speed), before a clearing on that
/// frame moves on to the next pipe: the stretch of the pipe ahead now judges it.
pub fn successor(env: &Env, flap: bool) -> (i32, i32, i32) {
    let vel = if flap {
        FLAP_VEL
    } else {
        (env.bird_vel() + GRAVITY).min(MAX_FALL)
    };
    (env.pipe_ahead(0).x - PIPE_SPEED, env.bird_y() + vel, vel)
}

/// Kernels for margins `0..=max_margin`, and the depth of states.
#[derive(Clone, Debug)]
pub struct Depths {
    kernels: Vec<Kernel>,
}

impl Depths {
    /// Computes every kernel up to `max_margin` (stopping early at the first
    /// margin with an empty kernel for some gap).
    pub fn compute(max_margin: i32) -> Depths {
        let mut kernels = Vec::new();
        for m in 0..=max_margin {
            let k = Kernel::compute(m);
            let empty = k.narrowest().1 == 0;
            kernels.push(k);
            if empty {
                break;
            }
        }
        Depths { kernels }
    }

    /// The depths of the real game, computed once per process (a few
    /// seconds) up to [`MAX_MARGIN`].
    pub fn shared() -> &'static Depths {
        static DEPTHS: OnceLock<Depths> = OnceLock::new();
        DEPTHS.get_or_init(|| Depths::compute(MAX_MARGIN))
    }

    pub fn kernels(&self) -> &[Kernel] {
        &self.kernels
    }

    /// The stretches of every margin for the pipe ahead `ahead`, clearing
    /// into the kernel of `next`, far enough back for a left edge of `reach`.
    pub fn stretches(&self, ahead: i32, next: i32, reach: i32) -> Vec<Stretch> {
        self.kernels
            .iter()
            .map(|k| Stretch::new(k, ahead, next, reach))
            .collect()
    }
}

/// The depth of every state along one stretch, bit-sliced: bit `b` of
/// `depth + 1` of a state, on the frame where the pipe ahead has left edge
/// `x`, is in plane `b` of frame `index(x)`. Kernels shrink as the margin
/// grows, so `depth + 1` is the number of margins whose stretch holds the
/// state: four planes hold what fifteen stretches (margins 0 to 14) do.
#[derive(Clone, Debug)]
pub struct DepthMap {
    ahead: i32,
    next: i32,
    frames: usize,
    /// Planes per frame.
    bits: usize,
    /// Frame-major: plane `b` of frame `f` is `planes[f * bits + b]`.
    planes: Vec<BirdSet>,
}

impl DepthMap {
    /// Depths towards a pipe with gap top `ahead`, clearing it into the
    /// kernels of the next gap `next`; `reach` is the largest left edge needed.
    pub fn new(depths: &Depths, ahead: i32, next: i32, reach: i32) -> DepthMap {
        let frames = index(reach.max(cleared_x())) + 1;
        let bits = (usize::BITS - depths.kernels.len().leading_zeros()) as usize;
        let mut planes = vec![BirdSet::empty(); frames * bits];
        // Every margin's safe set, one frame at a time, so that a frame's
        // planes are written once, while they are in cache.
        let kernels = &depths.kernels;
        let mut sets: Vec<BirdSet> = kernels
            .iter()
            .map(|k| clearing_set(ahead, k.margin, k.at(next)))
            .collect();
        let mut scratch = sets.clone();
        // (Without kernels there are no planes, and every depth is −1.)
        for (f, counter) in planes.chunks_mut(bits.max(1)).enumerate() {
            if f > 0 {
                let x = cleared_x() + PIPE_SPEED * f as i32;
                for ((later, set), k) in sets.iter().zip(&mut scratch).zip(kernels) {
                    later.predecessors_into(&allowed(x, ahead, k.margin), set);
                }
                std::mem::swap(&mut sets, &mut scratch);
            }
            for (i, set) in sets.iter().enumerate() {
                // The states of margin i's set are in every earlier one's
                // (kernels shrink as the margin grows), so their count goes
                // from i to i + 1: the planes of the bits that differ flip.
                let flips = i ^ (i + 1);
                for (b, plane) in counter.iter_mut().enumerate() {
                    if flips >> b & 1 == 1 {
                        for (to, from) in plane.rows.iter_mut().zip(&set.rows) {
                            for (t, f) in to.iter_mut().zip(from) {
                                *t ^= f;
                            }
                        }
                    }
                }
            }
        }
        DepthMap {
            ahead,
            next,
            frames,
            bits,
            planes,
        }
    }

    /// Whether this map is for gaps `(ahead, next)` and reaches left edge `x`.
    pub fn is_for(&self, ahead: i32, next: i32, x: i32) -> bool {
        self.ahead == ahead && self.next == next && index(x) < self.frames
    }

    /// The depth of a bird at `(y, vel)` with the pipe ahead at left edge
    /// `x`: the largest margin whose kernel it can reach, or −1.
    pub fn depth(&self, x: i32, y: i32, vel: i32) -> i32 {
        let f = index(x);
        if f >= self.frames {
            return -1;
        }
        let counter = &self.planes[f * self.bits..(f + 1) * self.bits];
        let count: i32 = counter
            .iter()
            .enumerate()
            .map(|(b, plane)| i32::from(plane.contains(y, vel)) << b)
            .sum();
        count - 1
    }

    /// Bytes the map holds.
    pub fn bytes(&self) -> usize {
        self.planes.len() * std::mem::size_of::<BirdSet>()
    }
}

/// Depths of the two actions in any [`Env`], keeping the depth map of the
/// pipe ahead until it changes (once per pipe).
#[derive(Clone, Debug)]
pub struct Judge<'a> {
    depths: &'a Depths,
    map: Option<DepthMap>,
}

impl<'a> Judge<'a> {
    pub fn new(depths: &'a Depths) -> Judge<'a> {
        Judge { depths, map: None }
    }

    /// Depths of the states `env`'s bird reaches by not flapping (entry 0)
    /// and by flapping (entry 1).
    pub fn action_depths(&mut self, env: &Env) -> [i32; 2] {
        let (ahead, next) = (env.pipe_ahead(0), env.pipe_ahead(1));
        let map = match self.map.take() {
            Some(m) if m.is_for(ahead.gap_top, next.gap_top, ahead.x) => m,
            _ => {
                let reach = ahead.x.max(CYCLE_START_X);
                DepthMap::new(self.depths, ahead.gap_top, next.gap_top, reach)
            }
        };
        let out = [false, true].map(|flap| {
            let (x, y, vel) = successor(env, flap);
            map.depth(x, y, vel)
        });
        self.map = Some(map);
        out
    }

    /// Bytes the judge holds (its depth map).
    pub fn bytes(&self) -> usize {
        self.map.as_ref().map_or(0, DepthMap::bytes)
    }

    /// The most bytes a judge of `depths` holds: the depth map of a game's
    /// first pipe, the farthest a pipe ahead can be (as [`DepthMap::new`]
    /// sizes it), about half a megabyte.
    pub fn max_bytes(depths: &Depths) -> usize {
        let frames = index(crate::env::FIRST_PIPE_X) + 1;
        let bits = (usize::BITS - depths.kernels.len().leading_zeros()) as usize;
        frames * bits * std::mem::size_of::<BirdSet>()
    }
}

/// The depth of a state given the stretches of every margin: the largest
/// margin whose kernel holds it, or −1 if none does (the bird can be
/// forced to crash by some sequence of gaps).
pub fn depth(stretches: &[Stretch], x: i32, y: i32, vel: i32) -> i32 {
    // Kernels shrink as the margin grows, so the first miss ends the search.
    stretches.iter().take_while(|s| s.safe(x, y, vel)).count() as i32 - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use arcade_core::Rng;

    #[test]
    fn geometry_of_a_stretch() {
        assert_eq!(cleared_x(), 4);
        assert_eq!(CYCLE_START_X, 148);
        assert_eq!(CYCLE_FRAMES, 36);
        assert_eq!(HEIGHTS, 376);
        assert_eq!(SPEEDS, 20);
    }

    /// A band against setting its bits one by one.
    #[test]
    fn band_matches_naive() {
        for lo in -3..HEIGHTS as i32 + 3 {
            for hi in [
                lo - 1,
                lo,
                lo + 1,
                lo + 63,
                lo + 64,
                lo + 200,
                HEIGHTS as i32 + 5,
            ] {
                let mut expect = [0u64; WORDS];
                for y in lo.max(0)..=hi.min(HEIGHTS as i32 - 1) {
                    expect[y as usize / 64] |= 1 << (y % 64);
                }
                assert_eq!(band(lo, hi), expect, "{lo}..={hi}");
            }
        }
    }

    /// The bitset shift against moving bits one by one.
    #[test]
    fn shift_matches_naive() {
        let mut rng = Rng::new(3);
        for _ in 0..200 {
            let mut row = [0u64; WORDS];
            for w in &mut row {
                *w = rng.next_u64();
            }
            let by = rng.below(160) as i32 - 80;
            let out = shift(&row, by);
            for y in 0..(WORDS * 64) as i32 {
                let src = y - by;
                let expect = (0..(WORDS * 64) as i32).contains(&src)
                    && row[src as usize / 64] >> (src % 64) & 1 == 1;
                assert_eq!(
                    out[y as usize / 64] >> (y % 64) & 1 == 1,
                    expect,
                    "{by} {y}"
                );
            }
        }
    }

    /// The stretch's safe sets against a forward search that simulates the
    /// rules frame by frame: some way of flapping reaches the clearing frame
    /// without touching a wall, into the next gap's kernel.
    #[test]
    fn stretch_matches_forward_search() {
        use std::collections::HashMap;
        fn reaches(
            x: i32,
            y: i32,
            vel: i32,
            ahead: i32,
            end: &BirdSet,
            memo: &mut HashMap<(i32, i32, i32), bool>,
        ) -> bool {
            let inside = x < BIRD_X + BIRD_W && x + PIPE_W > BIRD_X;
            let hits = y < 0
                || y + BIRD_H >= GROUND_Y
                || (inside && (y < ahead || y + BIRD_H > ahead + GAP));
            if hits {
                return false;
            }
            if x + PIPE_W <= BIRD_X {
                return end.contains(y, vel);
            }
            if let Some(&r) = memo.get(&(x, y, vel)) {
                return r;
            }
            let r = [FLAP_VEL, (vel + GRAVITY).min(MAX_FALL)]
                .into_iter()
                .any(|v| reaches(x - PIPE_SPEED, y + v, v, ahead, end, memo));
            memo.insert((x, y, vel), r);
            r
        }
        let kernel = Kernel::compute(0);
        let mut rng = Rng::new(11);
        for _ in 0..40 {
            let ahead = GAP_TOP_MIN + rng.below(GAP_TOP_CHOICES as u64) as i32;
            let next = GAP_TOP_MIN + rng.below(GAP_TOP_CHOICES as u64) as i32;
            let s = Stretch::new(&kernel, ahead, next, 200);
            let mut memo = HashMap::new();
            for _ in 0..300 {
                let x = cleared_x() + PIPE_SPEED * rng.below(50) as i32;
                let y = rng.below(HEIGHTS as u64) as i32;
                let vel = FLAP_VEL + rng.below(SPEEDS as u64) as i32;
                let expect = reaches(x, y, vel, ahead, kernel.at(next), &mut memo);
                assert_eq!(
                    s.safe(x, y, vel),
                    expect,
                    "gaps {ahead} {next} at {x} {y} {vel}"
                );
            }
        }
    }

    /// The kernel is a fixed point: every state in it can pass the pipe and
    /// land in the kernel of whatever gap comes next; and it is not empty.
    #[test]
    fn kernel_is_closed_and_not_empty() {
        let kernel = Kernel::compute(0);
        assert_eq!(kernel.narrowest().1, 5010);
        for g in [GAP_TOP_MIN, 150, GAP_TOP_MIN + GAP_TOP_CHOICES - 1] {
            for next in gap_tops().step_by(7) {
                let s = Stretch::new(&kernel, g, next, CYCLE_START_X);
                for y in 0..HEIGHTS as i32 {
                    for v in FLAP_VEL..=MAX_FALL {
                        if kernel.at(g).contains(y, v) {
                            assert!(s.safe(CYCLE_START_X, y, v), "{g} {next} {y} {v}");
                        }
                    }
                }
            }
        }
    }

    /// `successor` is where [`Env::step`] takes the bird.
    #[test]
    fn successor_matches_the_game() {
        use crate::policy::{Heuristic, Policy};
        let mut env = Env::new(4, None);
        while !env.is_over() && env.frames() < 2_000 {
            let flap = Heuristic.flap(&env);
            let (x, y, vel) = successor(&env, flap);
            let before = env.pipes();
            env.step(flap);
            assert_eq!((env.bird_y(), env.bird_vel()), (y, vel));
            if env.pipes() == before {
                assert_eq!(env.pipe_ahead(0).x, x);
            } else {
                assert_eq!(x, cleared_x());
            }
        }
        assert!(env.pipes() >= 2, "clears pipes: {}", env.pipes());
    }

    /// The bit-sliced depth map against counting the stretches that hold a
    /// state, on random states of random stretches.
    #[test]
    fn depth_map_matches_the_stretches() {
        let depths = Depths {
            kernels: vec![Kernel::compute(0), Kernel::compute(4), Kernel::compute(9)],
        };
        let mut rng = Rng::new(8);
        for _ in 0..12 {
            let ahead = GAP_TOP_MIN + rng.below(GAP_TOP_CHOICES as u64) as i32;
            let next = GAP_TOP_MIN + rng.below(GAP_TOP_CHOICES as u64) as i32;
            let reach = CYCLE_START_X + PIPE_SPEED * rng.below(20) as i32;
            let map = DepthMap::new(&depths, ahead, next, reach);
            let stretches = depths.stretches(ahead, next, reach);
            let mut seen = [0; 4];
            for _ in 0..3_000 {
                let x = cleared_x() + PIPE_SPEED * rng.below(60) as i32;
                let y = rng.below(HEIGHTS as u64) as i32;
                let vel = FLAP_VEL + rng.below(SPEEDS as u64) as i32;
                let d = depth(&stretches, x, y, vel);
                assert_eq!(
                    map.depth(x, y, vel),
                    d,
                    "gaps {ahead} {next} at {x} {y} {vel}"
                );
                seen[(d + 1) as usize] += 1;
            }
            assert!(seen.iter().all(|&n| n > 0), "every depth occurs: {seen:?}");
        }
    }

    /// A judge holds `max_bytes` at a game's first pipe and never more
    /// later: the bound the Python vector environment budgets its judges by.
    #[test]
    fn a_judge_holds_at_most_max_bytes() {
        let depths = Depths {
            kernels: vec![Kernel::compute(0), Kernel::compute(4), Kernel::compute(9)],
        };
        let most = Judge::max_bytes(&depths);
        let mut pipes_judged = 0;
        for seed in 0..6 {
            let mut env = crate::env::Env::new(seed, Some(4));
            let mut judge = Judge::new(&depths);
            judge.action_depths(&env);
            assert_eq!(judge.bytes(), most, "seed {seed}: the first pipe's map");
            let mut ahead = env.pipe_ahead(0).gap_top;
            while !env.is_over() {
                let [stay, flap] = judge.action_depths(&env);
                assert!(judge.bytes() <= most);
                pipes_judged += usize::from(env.pipe_ahead(0).gap_top != ahead);
                ahead = env.pipe_ahead(0).gap_top;
                env.step(flap > stay);
            }
        }
        assert!(pipes_judged >= 12, "{pipes_judged} later pipes judged");
    }

    /// Predecessors against stepping every state of a random set.
    #[test]
    fn predecessors_match_stepping() {
        let mut rng = Rng::new(5);
        for _ in 0..20 {
            let mut target = BirdSet::empty();
            for _ in 0..2_000 {
                let y = rng.below(HEIGHTS as u64) as i32;
                let v = FLAP_VEL + rng.below(SPEEDS as u64) as i32;
                target.insert(y, v);
            }
            let lo = rng.below(200) as i32;
            let allowed = band(lo, lo + 120);
            let pre = target.predecessors(&allowed);
            for y in 0..HEIGHTS as i32 {
                for v in FLAP_VEL..=MAX_FALL {
                    let fall = (v + GRAVITY).min(MAX_FALL);
                    let expect = (lo..=lo + 120).contains(&y)
                        && (target.contains(y + FLAP_VEL, FLAP_VEL)
                            || target.contains(y + fall, fall));
                    assert_eq!(pre.contains(y, v), expect, "y {y} v {v}");
                }
            }
        }
    }
}

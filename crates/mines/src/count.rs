//! Counting the solutions of one component, by mine count, and the mine-count
//! distribution of each of its groups.
//!
//! A plain backtracking enumeration is exponential in the component's size; a
//! long frontier on a 100×100 board has hundreds of groups. Instead the groups
//! are assigned one at a time in an order that keeps few constraints *open*
//! (touched by assigned and by unassigned groups), and partial solutions that
//! agree on the partial sums of the open constraints are merged: a dynamic
//! programme whose state is those sums, holding for every state a polynomial
//! in the number of mines placed so far (the weight of an assignment is the
//! product of `C(group size, mines in group)` over its groups). Cost grows with
//! the number of open constraints, not with the length of the frontier.
//!
//! A forward pass gives the component's polynomial `W[m]` (weighted number of
//! solutions with `m` mines). After the caller combines components and knows
//! how much a total of `m` mines here is worth globally (`h[m]`, which folds
//! in the other components and the cells away from the frontier), a backward
//! pass gives each group's exact mine-count distribution under that weighting
//! (forward–backward, as in hidden Markov models).

use crate::frontier::{Component, Frontier, SolveError};
use crate::grid::Grid;
use rustc_hash::FxHashMap;

/// Open constraints are packed 4 bits each into a `u128` state key.
const MAX_OPEN: usize = 32;
/// Above this many states in one layer the position is reported too complex.
pub(crate) const MAX_STATES: usize = 2_000_000;
/// Above this many counts (a state and a number of mines placed, 8 bytes
/// each) over all layers, too: the layers are kept for the backward pass,
/// so a component of many moderate layers could otherwise hold gigabytes.
pub(crate) const MAX_COUNTS: usize = 50_000_000;
/// Layers are rescaled when their largest entry passes this.
const RESCALE_ABOVE: f64 = 1e150;

/// `C(n, k)` for `n ≤ 8` (a group has at most 8 cells: the hidden
/// neighbours of one number).
pub(crate) fn small_binomial(n: usize, k: usize) -> f64 {
    const ROWS: [[f64; 9]; 9] = {
        let mut t = [[0.0; 9]; 9];
        let mut n = 0;
        while n < 9 {
            t[n][0] = 1.0;
            let mut k = 1;
            while k <= n {
                t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0.0 };
                k += 1;
            }
            n += 1;
        }
        t
    };
    ROWS[n][k]
}

/// A polynomial in the mine count: `w[i]` is the weight of `lo + i` mines.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Poly {
    pub lo: usize,
    pub w: Vec<f64>,
}

impl Poly {
    pub fn one() -> Poly {
        Poly {
            lo: 0,
            w: vec![1.0],
        }
    }

    /// One past the largest mine count.
    pub fn hi(&self) -> usize {
        self.lo + self.w.len()
    }

    pub fn is_zero(&self) -> bool {
        self.w.iter().all(|&x| x == 0.0)
    }

    pub fn convolve(&self, other: &Poly) -> Poly {
        let mut w = vec![0.0; self.w.len() + other.w.len() - 1];
        for (i, &a) in self.w.iter().enumerate() {
            if a == 0.0 {
                continue;
            }
            for (j, &b) in other.w.iter().enumerate() {
                w[i + j] += a * b;
            }
        }
        Poly {
            lo: self.lo + other.lo,
            w,
        }
    }

    /// Divides by the largest entry; returns the natural log of the factor.
    pub fn normalise(&mut self) -> f64 {
        let max = self.w.iter().cloned().fold(0.0, f64::max);
        if max > 0.0 {
            self.w.iter_mut().for_each(|x| *x /= max);
            max.ln()
        } else {
            0.0
        }
    }
}

/// What one constraint does when a group is assigned.
#[derive(Clone, Copy, Debug, Default)]
struct Touch {
    slot: u8,
    need: u8,
    opens: bool,
    closes: bool,
    /// Cells of this constraint in groups assigned after this one.
    room_after: u16,
}

/// One step of the programme: assign a group.
#[derive(Clone, Copy, Debug)]
struct Step {
    group: u32,
    size: u8,
    touches: [Touch; 8],
    n_touches: u8,
}

impl Step {
    #[inline]
    fn touches(&self) -> &[Touch] {
        &self.touches[..self.n_touches as usize]
    }
}

/// `(from state, to state, mines in the group)`, state indices global.
type Edge = (u32, u32, u8);

/// The counted component: every layer of the forward pass, stored flat, ready
/// for the backward pass.
#[derive(Clone, Debug, Default)]
pub(crate) struct Counted {
    steps: Vec<Step>,
    /// States of layer `i` are `layer[i]..layer[i + 1]`.
    layer: Vec<u32>,
    keys: Vec<u128>,
    /// Per state: lowest mine count, start in `data`, number of entries.
    lo: Vec<u32>,
    start: Vec<u32>,
    len: Vec<u32>,
    data: Vec<f64>,
    /// Edges of step `i` are `edge[i]..edge[i + 1]`.
    edge: Vec<u32>,
    edges: Vec<Edge>,
    /// Weighted solution counts by mine count (scaled).
    pub weights: Poly,
    /// Natural log of the factor removed from `weights` by rescaling.
    pub ln_scale: f64,
}

/// Orders the groups of a component so that few constraints are open at once:
/// greedily take the group that opens the fewest new constraints and closes
/// the most, among groups next to an open constraint. Returns local indices.
fn order(frontier: &Frontier, comp: &Component) -> Vec<u32> {
    let n = comp.groups.len();
    let mut unassigned: Vec<u8> = comp
        .constraints
        .iter()
        .map(|&j| frontier.constraints[j as usize].groups.len() as u8)
        .collect();
    let total = unassigned.clone();
    let mut assigned = vec![false; n];
    let mut listed = vec![false; n];
    let mut candidates: Vec<u32> = Vec::new();
    let mut out = Vec::with_capacity(n);
    let group = |l: u32| &frontier.groups[comp.groups[l as usize] as usize];
    while out.len() < n {
        let pick = if candidates.is_empty() {
            // Start at a group with the fewest constraints (an end of a line).
            (0..n as u32)
                .filter(|&l| !assigned[l as usize])
                .min_by_key(|&l| (group(l).constraints.len(), l))
                .expect("an unassigned group remains")
        } else {
            let score = |l: u32| -> (i32, u32) {
                let mut s = 0i32;
                for &j in group(l).constraints.iter() {
                    let jl = frontier.constraints[j as usize].local as usize;
                    s += i32::from(unassigned[jl] == total[jl]) - i32::from(unassigned[jl] == 1);
                }
                (s, l)
            };
            let (k, _) = candidates
                .iter()
                .enumerate()
                .min_by_key(|&(_, &l)| score(l))
                .expect("candidates not empty");
            candidates.swap_remove(k)
        };
        assigned[pick as usize] = true;
        out.push(pick);
        for &j in group(pick).constraints.iter() {
            let con = &frontier.constraints[j as usize];
            unassigned[con.local as usize] -= 1;
            for &g in con.groups.iter() {
                let l = frontier.groups[g as usize].local;
                if !assigned[l as usize] && !listed[l as usize] {
                    listed[l as usize] = true;
                    candidates.push(l);
                }
            }
        }
    }
    out
}

/// Builds the steps (which constraint slots each group touches) for an
/// order; `None` when more than `MAX_OPEN` constraints would be open.
fn schedule(frontier: &Frontier, comp: &Component, order: &[u32]) -> Option<Vec<Step>> {
    let mut position = vec![0u32; order.len()];
    for (i, &l) in order.iter().enumerate() {
        position[l as usize] = i as u32;
    }
    let mut slot_of = vec![0u8; comp.constraints.len()];
    let mut free: Vec<u8> = (0..MAX_OPEN as u8).rev().collect();
    let mut steps = Vec::with_capacity(order.len());
    for (i, &l) in order.iter().enumerate() {
        let g = comp.groups[l as usize];
        let group = &frontier.groups[g as usize];
        let mut step = Step {
            group: g,
            size: group.cells.len() as u8,
            touches: [Touch::default(); 8],
            n_touches: 0,
        };
        let mut closing = [0u8; 8];
        let mut n_closing = 0;
        for &j in group.constraints.iter() {
            let con = &frontier.constraints[j as usize];
            let (mut first, mut last, mut room_after) = (u32::MAX, 0, 0u16);
            for &h in con.groups.iter() {
                let hg = &frontier.groups[h as usize];
                let p = position[hg.local as usize];
                first = first.min(p);
                last = last.max(p);
                if p > i as u32 {
                    room_after += hg.cells.len() as u16;
                }
            }
            let opens = first == i as u32;
            let closes = last == i as u32;
            let slot = if opens {
                let s = free.pop()?;
                slot_of[con.local as usize] = s;
                s
            } else {
                slot_of[con.local as usize]
            };
            if closes {
                closing[n_closing] = slot;
                n_closing += 1;
            }
            step.touches[step.n_touches as usize] = Touch {
                slot,
                need: con.need,
                opens,
                closes,
                room_after,
            };
            step.n_touches += 1;
        }
        free.extend_from_slice(&closing[..n_closing]);
        steps.push(step);
    }
    Some(steps)
}

/// The state reached from `key` by putting `x` mines in the step's group, or
/// `None` when a constraint would be broken.
#[inline]
fn advance(key: u128, step: &Step, x: u8) -> Option<u128> {
    let mut key = key;
    for t in step.touches() {
        let shift = 4 * t.slot as u32;
        let sum = if t.opens {
            0
        } else {
            ((key >> shift) & 0xF) as u8
        } + x;
        if sum > t.need || (t.need - sum) as u16 > t.room_after {
            return None;
        }
        key &= !(0xF << shift);
        if !t.closes {
            key |= u128::from(sum) << shift;
        }
    }
    Some(key)
}

/// Below this many states a layer is searched linearly instead of hashed.
const LINEAR: usize = 16;

/// Which limit a layer of the forward pass ran into.
enum Limit {
    States,
    Counts,
}

/// Runs the forward pass over one component.
pub(crate) fn count(frontier: &Frontier, comp: usize, grid: Grid) -> Result<Counted, SolveError> {
    let component = &frontier.components[comp];
    let too_complex = |limit| {
        let cell = frontier.constraints[component.constraints[0] as usize].cell;
        let (x, y) = grid.coords(cell as usize);
        let limit = match limit {
            Limit::States => MAX_STATES,
            Limit::Counts => MAX_COUNTS,
        };
        SolveError::TooComplex { x, y, limit }
    };
    let ord = order(frontier, component);
    let steps = schedule(frontier, component, &ord).ok_or_else(|| too_complex(Limit::States))?;
    let mut k = Counted {
        layer: vec![0, 1],
        keys: vec![0],
        lo: vec![0],
        start: vec![0],
        len: vec![1],
        data: vec![1.0],
        edge: vec![0],
        ..Counted::default()
    };
    let mut layer = Layer::default();
    for (i, step) in steps.iter().enumerate() {
        k.expand(i, step, &mut layer).map_err(too_complex)?;
        let layer_data = k.lay_out(&layer).map_err(too_complex)?;
        k.propagate(i, step, layer_data);
        k.layer.push(k.keys.len() as u32);
        k.edge.push(k.edges.len() as u32);
    }
    k.steps = steps;
    k.weights = k.final_weights();
    Ok(k)
}

/// Scratch space for one layer of the forward pass, kept between layers.
#[derive(Default)]
struct Layer {
    /// Where the layer's states start in `keys`.
    first: usize,
    /// Key to state, built once a layer outgrows a linear search.
    index: FxHashMap<u128, u32>,
    /// Per new state: one past the highest mine count reaching it.
    hi: Vec<u32>,
}

impl Counted {
    /// Adds the states that step `i` reaches from layer `i`, and the edges
    /// to them, with each state's range of mine counts.
    fn expand(&mut self, i: usize, step: &Step, layer: &mut Layer) -> Result<(), Limit> {
        let (ps, pe) = (self.layer[i] as usize, self.layer[i + 1] as usize);
        let ns = pe;
        layer.first = ns;
        layer.index.clear();
        layer.hi.clear();
        for s in ps..pe {
            for x in 0..=step.size {
                let Some(key) = advance(self.keys[s], step, x) else {
                    continue;
                };
                let t = match self.find(key, layer) {
                    Some(t) => t,
                    None => self.add_state(key, layer)?,
                };
                let lo = self.lo[s] + u32::from(x);
                self.lo[t] = self.lo[t].min(lo);
                layer.hi[t - ns] = layer.hi[t - ns].max(lo + self.len[s]);
                self.edges.push((s as u32, t as u32, x));
            }
        }
        Ok(())
    }

    /// The state of the new layer with `key`, if there is one: a linear
    /// search while the layer is small, a hash lookup after.
    fn find(&self, key: u128, layer: &mut Layer) -> Option<usize> {
        let ns = layer.first;
        if self.keys.len() - ns <= LINEAR {
            return self.keys[ns..]
                .iter()
                .position(|&q| q == key)
                .map(|t| t + ns);
        }
        if layer.index.is_empty() {
            for (t, &q) in self.keys[ns..].iter().enumerate() {
                layer.index.insert(q, (t + ns) as u32);
            }
        }
        layer.index.get(&key).map(|&t| t as usize)
    }

    /// Adds a state with `key` to the new layer; its index.
    fn add_state(&mut self, key: u128, layer: &mut Layer) -> Result<usize, Limit> {
        if self.keys.len() - layer.first >= MAX_STATES {
            return Err(Limit::States);
        }
        self.keys.push(key);
        self.lo.push(u32::MAX);
        layer.hi.push(0);
        if !layer.index.is_empty() {
            layer.index.insert(key, (self.keys.len() - 1) as u32);
        }
        Ok(self.keys.len() - 1)
    }

    /// Gives each state of the new layer its slice of `data`, zeroed; where
    /// the layer's counts start.
    fn lay_out(&mut self, layer: &Layer) -> Result<usize, Limit> {
        let ns = layer.first;
        let mut offset = self.data.len();
        for t in ns..self.keys.len() {
            let len = layer.hi[t - ns] - self.lo[t];
            self.start.push(offset as u32);
            self.len.push(len);
            offset += len as usize;
            if offset > MAX_COUNTS {
                return Err(Limit::Counts);
            }
        }
        let layer_data = self.data.len();
        self.data.resize(offset, 0.0);
        Ok(layer_data)
    }

    /// Adds along every edge of step `i` the counts of its source, times
    /// the ways to put its mines in the group; rescales if they grow large.
    fn propagate(&mut self, i: usize, step: &Step, layer_data: usize) {
        let (before, after) = self.data.split_at_mut(layer_data);
        for &(s, t, x) in &self.edges[self.edge[i] as usize..] {
            let c = small_binomial(step.size as usize, x as usize);
            let (s, t) = (s as usize, t as usize);
            let from = &before[self.start[s] as usize..(self.start[s] + self.len[s]) as usize];
            let at = (self.start[t] + self.lo[s] + u32::from(x) - self.lo[t]) as usize - layer_data;
            for (d, &v) in after[at..at + from.len()].iter_mut().zip(from) {
                *d += c * v;
            }
        }
        let max = after.iter().cloned().fold(0.0, f64::max);
        if max > RESCALE_ABOVE {
            after.iter_mut().for_each(|v| *v /= max);
            self.ln_scale += max.ln();
        }
    }

    /// The solution counts by mine count: every constraint is closed at
    /// the end, so the only state left is key 0.
    fn final_weights(&self) -> Poly {
        let n = self.steps.len();
        let (ls, le) = (self.layer[n] as usize, self.layer[n + 1] as usize);
        match (ls..le).find(|&s| self.keys[s] == 0) {
            Some(s) => Poly {
                lo: self.lo[s] as usize,
                w: self.data[self.start[s] as usize..(self.start[s] + self.len[s]) as usize]
                    .to_vec(),
            },
            None => Poly::default(),
        }
    }
}

impl Counted {
    /// Given the global worth `h[m]` of this component holding `m` mines,
    /// calls `each(group, distribution)` for every group, the distribution
    /// (index = mines in the group) normalised to sum to 1.
    pub fn group_distributions(&self, h: &Poly, mut each: impl FnMut(u32, &[f64])) {
        let k = self.steps.len();
        // Backward messages, laid out like `data`: g[m - lo[s]] is the
        // weight of completing state s having placed m mines so far.
        let mut g = vec![0.0; self.data.len()];
        for s in self.layer[k] as usize..self.layer[k + 1] as usize {
            if self.keys[s] != 0 {
                continue;
            }
            for i in 0..self.len[s] as usize {
                let m = self.lo[s] as usize + i;
                if m >= h.lo && m < h.hi() {
                    g[self.start[s] as usize + i] = h.w[m - h.lo];
                }
            }
        }
        let mut dist = [0.0f64; 9];
        for i in (0..k).rev() {
            let step = &self.steps[i];
            let size = step.size as usize;
            dist[..=size].iter_mut().for_each(|d| *d = 0.0);
            let layer_data = self.start[self.layer[i + 1] as usize] as usize;
            let (before, after) = g.split_at_mut(layer_data);
            for &(s, t, x) in &self.edges[self.edge[i] as usize..self.edge[i + 1] as usize] {
                let c = small_binomial(size, x as usize);
                let (s, t) = (s as usize, t as usize);
                let at =
                    (self.start[t] + self.lo[s] + u32::from(x) - self.lo[t]) as usize - layer_data;
                let len = self.len[s] as usize;
                let to = &after[at..at + len];
                let ps = self.start[s] as usize;
                let from = &self.data[ps..ps + len];
                let back = &mut before[ps..ps + len];
                let mut joint = 0.0;
                for ((&f, &b), v) in from.iter().zip(to).zip(back.iter_mut()) {
                    joint += f * b;
                    *v += c * b;
                }
                dist[x as usize] += c * joint;
            }
            let layer = &mut before[self.start[self.layer[i] as usize] as usize..];
            let max = layer.iter().cloned().fold(0.0, f64::max);
            if max > RESCALE_ABOVE {
                layer.iter_mut().for_each(|v| *v /= max);
            }
            let sum: f64 = dist[..=size].iter().sum();
            if sum > 0.0 {
                dist[..=size].iter_mut().for_each(|d| *d /= sum);
            }
            each(step.group, &dist[..=size]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(small_binomial(8, 4), 70.0);
        assert_eq!(small_binomial(5, 0), 1.0);
        assert_eq!(small_binomial(5, 5), 1.0);
        assert_eq!(small_binomial(6, 2), 15.0);
    }
}

//! A small fully connected ReLU network with its backward pass, by hand.
//!
//! The policies here have a few thousand weights and are evaluated one frame
//! at a time, tens of millions of times per training run. A framework's
//! per-call overhead (tensor allocation, dispatch, autograd graphs) would
//! cost more than the arithmetic itself; a flat `Vec<f32>` and two loops per
//! layer do not allocate, vectorise well, and the gradient is short enough to
//! check against finite differences (see the tests).
//!
//! Parameters live in one flat vector, layer after layer: the weights of a
//! layer input-major (`w[i * outputs + j]` connects input `i` to output `j`,
//! so the forward pass adds one contiguous row per input, which the compiler
//! vectorises without reordering any sum), then its biases. Hidden layers use
//! ReLU; the last layer is linear (logits).

use arcade_core::Rng;

/// Network shape and parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    sizes: Vec<usize>,
    params: Vec<f32>,
}

/// Activations of every layer from the last forward pass (input first), kept
/// for the backward pass and reused between calls so nothing is allocated per frame.
#[derive(Clone, Debug)]
pub struct Scratch {
    acts: Vec<Vec<f32>>,
    delta: Vec<f32>,
    next_delta: Vec<f32>,
}

impl Mlp {
    /// A network with layer sizes `sizes` (input first, at least two sizes,
    /// all non-zero) and every parameter zero.
    ///
    /// # Panics
    /// If the sizes do not describe a network.
    pub fn zeros(sizes: &[usize]) -> Mlp {
        assert!(
            sizes.len() >= 2 && sizes.iter().all(|&s| s > 0),
            "bad layer sizes {sizes:?}"
        );
        Mlp {
            sizes: sizes.to_vec(),
            params: vec![0.0; param_count(sizes)],
        }
    }

    /// He-initialised weights (normal, variance 2/inputs, the usual choice
    /// for ReLU) scaled by `gain` on the output layer, zero biases.
    pub fn random(sizes: &[usize], gain: f32, rng: &mut Rng) -> Mlp {
        let mut mlp = Mlp::zeros(sizes);
        let layers = sizes.len() - 1;
        let mut offset = 0;
        for l in 0..layers {
            let (n_in, n_out) = (sizes[l], sizes[l + 1]);
            let scale =
                (2.0 / n_in as f64).sqrt() as f32 * if l + 1 == layers { gain } else { 1.0 };
            for w in &mut mlp.params[offset..offset + n_in * n_out] {
                *w = rng.normal() as f32 * scale;
            }
            offset += (n_in + 1) * n_out;
        }
        mlp
    }

    /// A network of shape `sizes` with the given flat parameters.
    ///
    /// # Panics
    /// If `params` does not have [`param_count`]`(sizes)` entries.
    pub fn from_params(sizes: &[usize], params: Vec<f32>) -> Mlp {
        let mut mlp = Mlp::zeros(sizes);
        assert_eq!(params.len(), mlp.params.len(), "parameter count");
        mlp.params = params;
        mlp
    }

    /// Layer sizes, input first.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// All parameters, flat (see the module docs for the layout).
    pub fn params(&self) -> &[f32] {
        &self.params
    }

    pub fn params_mut(&mut self) -> &mut [f32] {
        &mut self.params
    }

    pub fn inputs(&self) -> usize {
        self.sizes[0]
    }

    pub fn outputs(&self) -> usize {
        *self.sizes.last().expect("at least two sizes")
    }

    /// Weights of layer `l` (input-major) and its biases.
    pub fn layer(&self, l: usize) -> (&[f32], &[f32]) {
        let offset: usize = (0..l)
            .map(|k| (self.sizes[k] + 1) * self.sizes[k + 1])
            .sum();
        let (n_in, n_out) = (self.sizes[l], self.sizes[l + 1]);
        let w = &self.params[offset..offset + n_in * n_out];
        let b = &self.params[offset + n_in * n_out..offset + (n_in + 1) * n_out];
        (w, b)
    }

    /// Buffers for [`Mlp::forward`] and [`Mlp::backward`].
    pub fn scratch(&self) -> Scratch {
        let widest = *self.sizes.iter().max().expect("non-empty");
        Scratch {
            acts: self.sizes.iter().map(|&s| vec![0.0; s]).collect(),
            delta: vec![0.0; widest],
            next_delta: vec![0.0; widest],
        }
    }

    /// Output logits for input `x`; all activations stay in `scratch`.
    ///
    /// # Panics
    /// If `x` does not have [`Mlp::inputs`] entries.
    #[inline]
    pub fn forward<'s>(&self, x: &[f32], scratch: &'s mut Scratch) -> &'s [f32] {
        scratch.acts[0].copy_from_slice(x);
        let layers = self.sizes.len() - 1;
        let mut offset = 0;
        for l in 0..layers {
            let (n_in, n_out) = (self.sizes[l], self.sizes[l + 1]);
            let w = &self.params[offset..offset + n_in * n_out];
            let b = &self.params[offset + n_in * n_out..offset + (n_in + 1) * n_out];
            offset += (n_in + 1) * n_out;
            let (before, after) = scratch.acts.split_at_mut(l + 1);
            let input = &before[l];
            let out = &mut after[0];
            out.copy_from_slice(b);
            for (&xi, row) in input.iter().zip(w.chunks_exact(n_out)) {
                // ReLU zeros are common: skipping them saves whole rows.
                if xi != 0.0 {
                    for (o, &wij) in out.iter_mut().zip(row) {
                        *o += wij * xi;
                    }
                }
            }
            if l + 1 < layers {
                for o in out.iter_mut() {
                    *o = o.max(0.0);
                }
            }
        }
        &scratch.acts[layers]
    }

    /// Adds to `grad` the gradient of `Σ_j d_out[j] · logit_j` with respect to
    /// every parameter, at the input of the last [`Mlp::forward`] call on `scratch`.
    ///
    /// # Panics
    /// If `grad` or `d_out` have the wrong length.
    pub fn backward(&self, d_out: &[f32], scratch: &mut Scratch, grad: &mut [f32]) {
        assert_eq!(grad.len(), self.params.len(), "gradient length");
        assert_eq!(d_out.len(), self.outputs(), "output gradient length");
        let layers = self.sizes.len() - 1;
        let Scratch {
            acts,
            delta,
            next_delta,
        } = scratch;
        delta[..d_out.len()].copy_from_slice(d_out);
        let mut end = self.params.len();
        for l in (0..layers).rev() {
            let (n_in, n_out) = (self.sizes[l], self.sizes[l + 1]);
            let start = end - (n_in + 1) * n_out;
            let w = &self.params[start..start + n_in * n_out];
            let (gw, gb) = grad[start..end].split_at_mut(n_in * n_out);
            let d = &delta[..n_out];
            for (g, &dj) in gb.iter_mut().zip(d) {
                *g += dj;
            }
            let input = &acts[l];
            for (i, (&xi, (grow, wrow))) in input
                .iter()
                .zip(gw.chunks_exact_mut(n_out).zip(w.chunks_exact(n_out)))
                .enumerate()
            {
                if xi != 0.0 {
                    for (g, &dj) in grow.iter_mut().zip(d) {
                        *g += xi * dj;
                    }
                }
                // Through the ReLU of the layer below (its output is `input`);
                // the network input itself needs no gradient.
                if l > 0 {
                    next_delta[i] = if xi > 0.0 {
                        wrow.iter().zip(d).map(|(&wij, &dj)| wij * dj).sum()
                    } else {
                        0.0
                    };
                }
            }
            std::mem::swap(delta, next_delta);
            end = start;
        }
    }
}

/// Number of parameters of a network with layer sizes `sizes`.
pub fn param_count(sizes: &[usize]) -> usize {
    sizes.windows(2).map(|w| (w[0] + 1) * w[1]).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use arcade_core::Rng;
    use proptest::prelude::*;

    /// Obviously-correct f64 reference: weights read by (layer, input, output).
    fn naive_forward(sizes: &[usize], params: &[f64], x: &[f64]) -> Vec<f64> {
        let mut a = x.to_vec();
        let mut offset = 0;
        for l in 0..sizes.len() - 1 {
            let (n_in, n_out) = (sizes[l], sizes[l + 1]);
            let mut out = vec![0.0; n_out];
            for (j, o) in out.iter_mut().enumerate() {
                *o = params[offset + n_in * n_out + j];
                for (i, &ai) in a.iter().enumerate() {
                    *o += params[offset + i * n_out + j] * ai;
                }
                if l + 2 < sizes.len() {
                    *o = o.max(0.0);
                }
            }
            offset += (n_in + 1) * n_out;
            a = out;
        }
        a
    }

    fn arb_net() -> impl Strategy<Value = (Vec<usize>, u64)> {
        (prop::collection::vec(1usize..9, 2..5), any::<u64>())
    }

    proptest! {
        #[test]
        fn forward_matches_naive((sizes, seed) in arb_net()) {
            let mut rng = Rng::new(seed);
            let mlp = Mlp::random(&sizes, 1.0, &mut rng);
            let x: Vec<f32> = (0..sizes[0]).map(|_| rng.uniform(-1.0, 1.0) as f32).collect();
            let mut s = mlp.scratch();
            let fast = mlp.forward(&x, &mut s).to_vec();
            let p64: Vec<f64> = mlp.params().iter().map(|&p| f64::from(p)).collect();
            let x64: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
            let slow = naive_forward(&sizes, &p64, &x64);
            for (a, b) in fast.iter().zip(&slow) {
                prop_assert!((f64::from(*a) - b).abs() < 1e-4 * (1.0 + b.abs()), "{fast:?} vs {slow:?}");
            }
        }

        /// The analytic gradient of c·logits against central finite
        /// differences of the f64 reference (skipping parameters whose nudge
        /// crosses a ReLU kink, where the derivative does not exist).
        #[test]
        fn backward_matches_finite_differences((sizes, seed) in arb_net()) {
            let mut rng = Rng::new(seed);
            let mut mlp = Mlp::random(&sizes, 1.0, &mut rng);
            for b in mlp.params_mut() {
                *b += rng.uniform(-0.3, 0.3) as f32;
            }
            let x: Vec<f32> = (0..sizes[0]).map(|_| rng.uniform(-1.0, 1.0) as f32).collect();
            let c: Vec<f32> = (0..mlp.outputs()).map(|_| rng.uniform(-1.0, 1.0) as f32).collect();
            let mut s = mlp.scratch();
            mlp.forward(&x, &mut s);
            let mut grad = vec![0.0f32; mlp.params().len()];
            mlp.backward(&c, &mut s, &mut grad);

            let p64: Vec<f64> = mlp.params().iter().map(|&p| f64::from(p)).collect();
            let x64: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
            let loss = |p: &[f64]| -> f64 {
                naive_forward(&sizes, p, &x64).iter().zip(&c).map(|(o, &ci)| o * f64::from(ci)).sum()
            };
            let h = 1e-6;
            let mut checked = 0;
            for k in 0..p64.len() {
                let mut plus = p64.clone();
                plus[k] += h;
                let mut minus = p64.clone();
                minus[k] -= h;
                let mut plus2 = p64.clone();
                plus2[k] += 2.0 * h;
                let d1 = (loss(&plus) - loss(&minus)) / (2.0 * h);
                let d2 = (loss(&plus2) - loss(&p64)) / (2.0 * h);
                if (d1 - d2).abs() > 1e-4 {
                    continue; // a kink nearby
                }
                checked += 1;
                prop_assert!(
                    (f64::from(grad[k]) - d1).abs() < 1e-3 * (1.0 + d1.abs()),
                    "param {k}: analytic {} vs numeric {d1} (sizes {sizes:?})", grad[k]
                );
            }
            prop_assert!(checked * 2 >= p64.len(), "too few parameters checked");
        }
    }

    #[test]
    fn backward_accumulates() {
        let mut rng = Rng::new(1);
        let mlp = Mlp::random(&[5, 16, 64, 16, 2], 1.0, &mut rng);
        let x = [0.3, 0.2, 0.4, 0.5, -0.1];
        let mut s = mlp.scratch();
        let mut once = vec![0.0; mlp.params().len()];
        mlp.forward(&x, &mut s);
        mlp.backward(&[1.0, -1.0], &mut s, &mut once);
        let mut twice = vec![0.0; mlp.params().len()];
        for _ in 0..2 {
            mlp.forward(&x, &mut s);
            mlp.backward(&[1.0, -1.0], &mut s, &mut twice);
        }
        assert!(once.iter().any(|&g| g != 0.0));
        for (a, b) in once.iter().zip(&twice) {
            assert_eq!(2.0 * a, *b);
        }
        assert_eq!(param_count(&[5, 16, 64, 16, 2]), 2258);
    }
}

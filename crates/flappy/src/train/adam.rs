//! Adam (Kingma & Ba 2015), as gradient ascent on a network's flat parameters.
//!
//! The moment estimates are kept in f64: the gradients of a batch are small
//! averages of many frames, and f32 moments would round the second one away.

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPS: f64 = 1e-8;

/// Adam's state for one parameter vector.
#[derive(Clone, Debug)]
pub(super) struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    steps: i32,
}

impl Adam {
    pub(super) fn new(params: usize) -> Adam {
        Adam {
            m: vec![0.0; params],
            v: vec![0.0; params],
            steps: 0,
        }
    }

    /// One step of size `lr` up the gradient `grad`.
    pub(super) fn ascend(&mut self, params: &mut [f32], grad: &[f64], lr: f64) {
        debug_assert_eq!(params.len(), grad.len());
        self.steps = self.steps.saturating_add(1);
        let c1 = 1.0 - BETA1.powi(self.steps);
        let c2 = 1.0 - BETA2.powi(self.steps);
        for (((p, m), v), &g) in params
            .iter_mut()
            .zip(&mut self.m)
            .zip(&mut self.v)
            .zip(grad)
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p += (lr * (*m / c1) / ((*v / c2).sqrt() + EPS)) as f32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first step moves every parameter by the learning rate in the
    /// gradient's direction (bias correction makes m̂/√v̂ = sign(g)).
    #[test]
    fn first_step_is_lr_times_sign() {
        let mut adam = Adam::new(3);
        let mut p = [1.0f32, 1.0, 1.0];
        adam.ascend(&mut p, &[2.0, -0.001, 0.0], 0.1);
        assert!((p[0] - 1.1).abs() < 1e-6);
        assert!((p[1] - 0.9).abs() < 1e-4);
        assert_eq!(p[2], 1.0);
    }

    /// Ascending the gradient of −(x − 3)² reaches its maximum.
    #[test]
    fn climbs_a_concave_function() {
        let mut adam = Adam::new(1);
        let mut x = [0.0f32];
        for _ in 0..2_000 {
            let g = -2.0 * (f64::from(x[0]) - 3.0);
            adam.ascend(&mut x, &[g], 0.05);
        }
        assert!((x[0] - 3.0).abs() < 0.05, "{}", x[0]);
    }
}

//! `arcade flappy eval --policy FILE` (and `play`, `watch`): a policy file.
//! Property: an accepted policy has a policy's shape, writes back to a file
//! that parses to the same network, and plays a few hundred frames without
//! panicking; every observation is finite, and the outputs are finite
//! whenever no partial sum of the forward pass can leave the f32 range (a
//! policy with weights near f32::MAX may overflow honestly; the loader
//! accepts any finite weight).
#![no_main]

use arcade_flappy::env::Env;
use arcade_flappy::file::{parse, to_json};
use arcade_flappy::mlp::Mlp;
use arcade_flappy::obs::normalized;
use arcade_flappy::policy::{Greedy, Policy, fits};
use libfuzzer_sys::fuzz_target;

const MAX_INPUT: usize = 64 * 1024;
const FRAMES: usize = 300;

/// The largest magnitude any partial sum of the forward pass can reach (the
/// sum of the absolute values of its terms), computed in f64: below the f32
/// range, the f32 forward pass cannot overflow.
fn partial_sum_bound(mlp: &Mlp, x: &[f32]) -> f64 {
    let sizes = mlp.sizes();
    let mut act: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
    let mut bound = 0.0f64;
    for l in 0..sizes.len() - 1 {
        let (w, b) = mlp.layer(l);
        let n_out = sizes[l + 1];
        let mut out: Vec<f64> = b.iter().map(|&v| f64::from(v)).collect();
        let mut mag: Vec<f64> = out.iter().map(|v| v.abs()).collect();
        for (i, &xi) in act.iter().enumerate() {
            for j in 0..n_out {
                let term = f64::from(w[i * n_out + j]) * xi;
                out[j] += term;
                mag[j] += term.abs();
            }
        }
        bound = mag.iter().fold(bound, |m, &v| m.max(v));
        if l + 2 < sizes.len() {
            out.iter_mut().for_each(|o| *o = o.max(0.0));
        }
        act = out;
    }
    bound
}

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let Some(text) = arcade_fuzz::text(data) else {
        return;
    };
    let Ok(mlp) = parse(text, "fuzz.json") else {
        return;
    };
    assert!(fits(&mlp), "shape {:?}", mlp.sizes());
    let written = to_json(&mlp, serde_json::Value::Null);
    let again = parse(&written, "again.json").expect("a written policy parses");
    assert_eq!(again, mlp, "write/parse round trip");

    let mut policy = Greedy::new(&mlp);
    let mut scratch = mlp.scratch();
    let mut env = Env::new(u64::from(data[0]), Some(3));
    for _ in 0..FRAMES {
        if env.is_over() {
            break;
        }
        let obs = normalized(&env);
        let x = &obs[..mlp.inputs()];
        assert!(x.iter().all(|v| v.is_finite()), "observation {x:?}");
        let logits = mlp.forward(x, &mut scratch).to_vec();
        let bound = partial_sum_bound(&mlp, x);
        // Half the range leaves room for the rounding of f32 sums.
        if bound < f64::from(f32::MAX) / 2.0 {
            assert!(
                logits.iter().all(|v| v.is_finite()),
                "outputs {logits:?} though no partial sum exceeds {bound:e} (input {x:?})"
            );
        }
        let flap = policy.flap(&env);
        assert_eq!(
            flap,
            logits[1] > logits[0],
            "the policy flaps on the larger logit"
        );
        env.step(flap);
    }
});

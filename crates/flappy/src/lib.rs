//! Flappy Bird: a deterministic environment, a heuristic controller and neural
//! policies trained on the CPU.
//!
//! - [`env`](mod@env): the game, integer physics with FlapPyBird's constants;
//! - [`obs`]: the five-number observation (optionally seven);
//! - [`mlp`]: a hand-written ReLU network with its gradient;
//! - [`policy`]: the heuristic and the greedy network policy;
//! - [`file`](mod@file): policy files (JSON);
//! - [`episode`]: playing episodes, disjoint training and evaluation seeds;
//! - [`eval`]: parallel evaluation with a 95% interval;
//! - [`train`]: neuroevolution (CEM), policy gradient (PPO, REINFORCE) and
//!   imitation of the oracle (DAgger);
//! - [`overrides`]: per-method training settings, checked against the method;
//! - [`report`]: each command's report type and the one call that makes it;
//! - [`render`]: a frame as terminal text;
//! - [`bench`](mod@bench): environment speed;
//! - [`viability`]: the exact set of states that can never be made to crash.

pub mod bench;
pub mod env;
pub mod episode;
pub mod eval;
pub mod file;
pub mod mlp;
pub mod obs;
pub mod overrides;
pub mod policy;
pub mod render;
pub mod report;
pub mod train;
pub mod viability;

pub use env::{Env, Obstacle, Status};
pub use eval::{Agent, EvalConfig, EvalError, EvalPartial, EvalReport, evaluate};
pub use mlp::Mlp;

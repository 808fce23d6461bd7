//! Shared foundations for the arcade game crates.
//!
//! - [`rng`]: a seeded, version-stable PRNG and per-episode seed derivation;
//! - [`stats`]: means, medians, confidence intervals (Student t, Wilson);
//! - [`runner`]: run N seeded episodes in parallel, in order, with a progress bar;
//! - [`checkpoint`]: atomic JSON save and load for resumable runs;
//! - [`optim`]: black-box optimizers (noisy CEM, DE/rand/1/bin, PSO) whose state
//!   can be checkpointed and resumed.

pub mod checkpoint;
pub mod optim;
pub mod progress;
pub mod rng;
pub mod runner;
pub mod stats;

pub use rng::{Rng, derive_seed, splitmix64};

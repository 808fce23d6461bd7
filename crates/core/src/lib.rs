//! Shared foundations for the arcade game crates.
//!
//! - [`rng`]: a seeded, version-stable PRNG and per-episode seed derivation;
//! - [`stats`]: means, medians, confidence intervals (Student t, Wilson), and a
//!   streaming, exactly mergeable [`stats::Tally`];
//! - [`runner`]: run N seeded episodes in parallel, in order, streaming, with a
//!   progress bar and a capped thread count;
//! - [`checkpoint`]: atomic JSON save and validated load for resumable runs;
//! - [`input`]: bounded reading of user files and standard input;
//! - [`memory`]: the memory this machine has free;
//! - [`optim`]: black-box optimizers (noisy CEM, DE/rand/1/bin, PSO) whose state
//!   can be checkpointed and resumed;
//! - [`progress`]: progress bars and notes on stderr, and cancellation;
//! - [`text`]: wording shared by the text reports.

pub mod checkpoint;
pub mod input;
pub mod json;
pub mod memory;
pub mod optim;
pub mod progress;
pub mod rng;
pub mod runner;
pub mod stats;
pub mod text;

pub use rng::{Rng, derive_seed, splitmix64};

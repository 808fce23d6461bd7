//! The generation loop `tetris tune` and `geek tune` share: run to the
//! target, saving the checkpoint and the result file after every
//! generation (so a kill loses at most one generation), with one status
//! line per generation.

use crate::run_options::RunOptions;
use anyhow::Result;
use arcade_core::optim::{Generation, Run};
use arcade_core::progress::Progress;
use serde::Serialize;
use std::path::Path;

/// Where a run saves itself and on which threads it evaluates.
pub(crate) struct Session<'a> {
    pub checkpoint: &'a Path,
    pub threads: &'a RunOptions,
    pub progress: &'a Progress,
}

impl Session<'_> {
    /// Runs `step` until `run` is done; `write` saves the result file after
    /// each generation's checkpoint.
    pub fn run<S: Serialize + Send + Sync>(
        &self,
        run: &mut Run<S>,
        step: impl Fn(&mut Run<S>, &Progress) -> Generation + Sync,
        mut write: impl FnMut(&Run<S>) -> Result<()>,
    ) -> Result<()> {
        let per_gen = run.optimizer.evaluations_per_generation() as u64;
        while !run.is_done() {
            let label = format!("gen {}/{}", run.history.len() + 1, run.generations);
            self.progress.reset(per_gen, &label);
            let g = self.threads.install(|| step(run, self.progress));
            run.save(self.checkpoint)?;
            write(run)?;
            self.progress.println(format!(
                "{label}  best {:>10.1}  mean {:>10.1}  best ever {:>10.1}",
                g.best, g.mean, g.best_ever
            ));
        }
        self.progress.finish();
        Ok(())
    }
}

//! The generation loop `tetris tune` and `geek tune` share: run to the
//! target, saving the checkpoint and the result file after every
//! generation (so a kill loses at most one generation), with one status
//! line per generation.

use crate::exit::{bad_input, exit_on_ctrl_c, shell_word};
use crate::run_options::RunOptions;
use anyhow::Result;
use arcade_core::checkpoint::{check_writable, write_atomic};
use arcade_core::optim::{
    Generation, MAX_GENERATIONS, MAX_POPULATION, MAX_SPREAD, Method, Run, Setup,
};
use arcade_core::progress::Progress;
use clap::{Args, ValueEnum};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What every tuner takes: the optimizer, the budget, the result file and
/// the checkpoint. Each command sets its own `--spread` default
/// (`mut_arg`), since its candidates are on its own scale, and its own
/// number of generations.
#[derive(Args)]
pub(crate) struct TuneOptions {
    /// Optimizer: noisy cross-entropy (Szita & Lőrincz 2006), differential
    /// evolution (DE/rand/1/bin) or particle swarm.
    #[arg(long, value_enum, default_value_t = MethodArg::Cem)]
    pub method: MethodArg,
    /// Generations to run [default: the command's; on --resume: the
    /// checkpoint's target].
    #[arg(long, value_name = "G", value_parser = clap::value_parser!(u32).range(GENERATIONS))]
    pub generations: Option<u32>,
    /// Candidates per generation, at least 4 for DE [default: the method's:
    /// CEM 100, DE 10 per weight, PSO 30].
    #[arg(long, value_name = "P", value_parser = population)]
    pub population: Option<usize>,
    /// Initial spread: CEM's standard deviation, DE's and PSO's box
    /// half-width around the start.
    #[arg(long, value_name = "S", value_parser = spread)]
    pub spread: f64,
    /// Master seed of the optimizer (and of the games it scores on, where
    /// their pieces are random).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where to write the result (rewritten after every generation).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Checkpoint file [default: OUT with extension .checkpoint.json].
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Continue the run saved in the checkpoint with its saved setup (a
    /// warning names the setup options given, which are not used);
    /// --generations sets the new target. The optimizer keeps the schedule
    /// it started with (a noise that fell to zero at the first target stays
    /// at zero in the generations added).
    #[arg(long)]
    pub resume: bool,
}

/// An initial spread: above 0 (a spread of 0 searches nothing) and at most
/// [`MAX_SPREAD`].
fn spread(s: &str) -> Result<f64, String> {
    crate::run_options::positive_at_most(s, MAX_SPREAD, &format!("{MAX_SPREAD:e}"))
}

/// `--generations`: 1 to [`MAX_GENERATIONS`].
const GENERATIONS: std::ops::RangeInclusive<i64> = 1..=MAX_GENERATIONS as i64;

impl TuneOptions {
    /// Continues the checkpoint's run, `--generations` (if given) its new
    /// target.
    pub fn resume<S: DeserializeOwned + Setup>(&self, checkpoint: &Path) -> Result<Run<S>> {
        let mut run = Run::<S>::load(checkpoint).map_err(bad_input)?;
        if let Some(g) = self.generations {
            run.generations = g as usize;
        }
        Ok(run)
    }

    /// Refuses a `--population` too small for `--method` (clap checks
    /// each option alone).
    pub fn check_population(&self) -> Result<()> {
        let method = Method::from(self.method);
        let min = method.min_population();
        match self.population {
            Some(p) if p < min => Err(bad_input(anyhow::anyhow!(
                "--population must be at least {min} with --method {}, not {p}",
                method.as_str()
            ))),
            _ => Ok(()),
        }
    }

    /// The checkpoint file: `--checkpoint`, or next to `--out`.
    pub fn checkpoint(&self) -> PathBuf {
        self.checkpoint
            .clone()
            .unwrap_or_else(|| self.out.with_extension("checkpoint.json"))
    }
}

/// The optimizers of arcade-core, as a command-line choice.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum MethodArg {
    Cem,
    De,
    Pso,
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::Cem => Method::Cem,
            MethodArg::De => Method::De,
            MethodArg::Pso => Method::Pso,
        }
    }
}

/// Where a run saves itself and its result, and on which threads it
/// evaluates.
pub(crate) struct Session<'a> {
    /// The result file (`--out`), rewritten after every generation.
    pub out: &'a Path,
    pub checkpoint: &'a Path,
    pub threads: &'a RunOptions,
    pub progress: &'a Progress,
}

/// Checks that `out` and `checkpoint` can be written, before any work, and
/// that a new run (not `resume`) would not overwrite a saved one.
pub(crate) fn check_paths(out: &Path, checkpoint: &Path, resume: bool) -> Result<()> {
    check_apart(out, checkpoint)?;
    keep_saved_run(checkpoint, resume)?;
    for path in [out, checkpoint] {
        check_writable(path).map_err(bad_input)?;
    }
    Ok(())
}

/// Makes Ctrl-C end a tuning run at once with the command that resumes it:
/// the checkpoint is whole after every generation, and absent until the
/// first one ends.
pub(crate) fn resume_on_ctrl_c(command: &str, out: &Path, checkpoint: &Path) {
    let (ck, shown_out) = (shell_word(checkpoint), shell_word(out));
    let resume = format!(
        "interrupted: {ck} holds the last finished generation; continue with \
         `arcade {command} --checkpoint {ck} --resume --out {shown_out}`"
    );
    // A new run starts without a checkpoint (`check_paths` refuses one).
    let checkpoint = checkpoint.to_path_buf();
    exit_on_ctrl_c(move || {
        if checkpoint.exists() {
            resume.clone()
        } else {
            "interrupted before the first generation finished: nothing was saved".into()
        }
    });
}

/// Refuses to start a new run over `checkpoint` when it already exists: a
/// forgotten `--resume` would otherwise overwrite hours of saved work. A
/// directory is neither a saved run nor a place to save one.
pub(crate) fn keep_saved_run(checkpoint: &Path, resume: bool) -> Result<()> {
    if checkpoint.is_dir() {
        return Err(bad_input(anyhow::anyhow!(
            "--checkpoint {} is a directory: name a file (in it, say)",
            checkpoint.display()
        )));
    }
    if !resume && checkpoint.exists() {
        return Err(bad_input(anyhow::anyhow!(
            "{} already holds a saved run: add --resume to continue it, or remove it (or \
             name another --checkpoint) to start over",
            checkpoint.display()
        )));
    }
    Ok(())
}

/// Refuses a checkpoint that is the result file too: each save would
/// overwrite the other, and the run could not be resumed.
pub(crate) fn check_apart(out: &Path, checkpoint: &Path) -> Result<()> {
    if arcade_core::checkpoint::same_file(out, checkpoint) {
        return Err(bad_input(anyhow::anyhow!(
            "--checkpoint and --out name the same file ({}): give the checkpoint a file of its own",
            checkpoint.display()
        )));
    }
    Ok(())
}

impl Session<'_> {
    /// Runs `step` until `run` is done; after each generation's checkpoint,
    /// and once at the end, writes `result(run)` to the result file.
    pub fn run<S: Serialize + Send + Sync>(
        &self,
        run: &mut Run<S>,
        step: impl Fn(&mut Run<S>, &Progress) -> Generation + Sync,
        result: impl Fn(&Run<S>) -> Result<String>,
    ) -> Result<()> {
        let write = |run: &Run<S>| -> Result<()> {
            write_atomic(self.out, result(run)?.as_bytes())?;
            Ok(())
        };
        let per_gen = run.optimizer.evaluations_per_generation() as u64;
        let (started, mut done) = (Instant::now(), 0u32);
        while !run.is_done() {
            let label = format!("gen {}/{}", run.history.len() + 1, run.generations);
            self.progress.reset(per_gen, &label);
            let g = self.threads.install(|| step(run, self.progress));
            run.save(self.checkpoint)?;
            write(run)?;
            done += 1;
            let each = started.elapsed().as_secs_f64() / f64::from(done);
            let left = run.generations.saturating_sub(run.history.len()) as f64 * each;
            self.progress.println(format!(
                "{label}  best {:>10.1}  mean {:>10.1}  best ever {:>10.1}  {}",
                g.best,
                g.mean,
                g.best_ever,
                pace(each, left)
            ));
        }
        self.progress.finish();
        write(run)
    }
}

/// How long a generation takes, and about how long the rest will.
fn pace(each: f64, left: f64) -> String {
    let about = |s: f64| match s {
        s if s < 1.0 => arcade_core::text::seconds(s),
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 5400.0 => format!("{:.0} min", s / 60.0),
        s => format!("{:.1} h", s / 3600.0),
    };
    match left > 0.0 {
        true => format!("({} a generation, about {} left)", about(each), about(left)),
        false => format!("({} a generation)", about(each)),
    }
}

/// A population option: 1 to [`MAX_POPULATION`].
fn population(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_POPULATION).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a whole number from 1 to {MAX_POPULATION}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::pace;

    #[test]
    fn the_pace_reads_in_the_unit_of_its_size() {
        assert_eq!(
            pace(0.0015, 0.003),
            "(1.50 ms a generation, about 3.00 ms left)"
        );
        assert_eq!(pace(12.0, 600.0), "(12 s a generation, about 10 min left)");
        assert_eq!(
            pace(200.0, 36_000.0),
            "(3 min a generation, about 10.0 h left)"
        );
        assert_eq!(pace(2.4, 0.0), "(2 s a generation)");
    }
}

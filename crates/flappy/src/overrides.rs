//! Settings a caller changes from a method's defaults. Each belongs to the
//! methods that use it; setting one for another method is an error naming
//! the methods it belongs to, never silently ignored.

use crate::train::{ConfigError, Method, TrainConfig};
use serde::{Deserialize, Serialize};

/// Optional overrides of [`TrainConfig::new`]'s per-method settings. Names
/// (in errors and in JSON, kebab-case) are those of `arcade flappy train`'s
/// options.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Overrides {
    pub population: Option<usize>,
    pub episodes_per_eval: Option<usize>,
    pub learning_rate: Option<f64>,
    pub gamma: Option<f64>,
    pub entropy: Option<f64>,
    /// Games played side by side that carry on across updates.
    pub envs: Option<usize>,
    pub steps: Option<usize>,
    pub epochs: Option<usize>,
    pub minibatch: Option<usize>,
    pub lambda: Option<f64>,
    pub batch: Option<usize>,
    pub explore: Option<f64>,
    pub batches: Option<usize>,
}

use Method::{Cem, Imitate, Pg, Reinforce};

impl Overrides {
    /// Each set option's name and the methods that use it.
    fn set_options(&self) -> Vec<(&'static str, &'static [Method])> {
        let mut set = Vec::new();
        let mut check = |is_set: bool, name, methods| {
            if is_set {
                set.push((name, methods));
            }
        };
        check(self.population.is_some(), "population", &[Cem][..]);
        check(
            self.episodes_per_eval.is_some(),
            "episodes-per-eval",
            &[Cem],
        );
        check(
            self.learning_rate.is_some(),
            "learning-rate",
            &[Pg, Reinforce, Imitate],
        );
        check(self.gamma.is_some(), "gamma", &[Pg, Reinforce]);
        check(self.entropy.is_some(), "entropy", &[Pg, Reinforce]);
        check(self.envs.is_some(), "envs", &[Pg, Imitate]);
        check(self.steps.is_some(), "steps", &[Pg, Imitate]);
        check(self.epochs.is_some(), "epochs", &[Pg]);
        check(self.minibatch.is_some(), "minibatch", &[Pg, Imitate]);
        check(self.lambda.is_some(), "lambda", &[Pg]);
        check(self.batch.is_some(), "batch", &[Reinforce]);
        check(self.explore.is_some(), "explore", &[Imitate]);
        check(self.batches.is_some(), "batches", &[Imitate]);
        set
    }

    /// Applies the overrides to `config` (whose method decides which are
    /// allowed): an option another method owns is an error.
    pub fn apply(&self, config: &mut TrainConfig) -> Result<(), ConfigError> {
        let method = config.method;
        for (name, methods) in self.set_options() {
            if !methods.contains(&method) {
                let owners: Vec<&str> = methods.iter().map(|m| m.as_str()).collect();
                return Err(ConfigError(format!(
                    "--{name} is a setting of --method {}, not of {}",
                    owners.join(" and "),
                    method.as_str()
                )));
            }
        }
        let set = |target: &mut f64, value: Option<f64>| {
            if let Some(v) = value {
                *target = v;
            }
        };
        let setn = |target: &mut usize, value: Option<usize>| {
            if let Some(v) = value {
                *target = v;
            }
        };
        match method {
            Cem => {
                setn(&mut config.cem.population, self.population);
                setn(&mut config.cem.episodes, self.episodes_per_eval);
            }
            Pg => {
                let p = &mut config.ppo;
                set(&mut p.learning_rate, self.learning_rate);
                set(&mut p.gamma, self.gamma);
                set(&mut p.entropy, self.entropy);
                set(&mut p.lambda, self.lambda);
                setn(&mut p.games, self.envs);
                setn(&mut p.steps, self.steps);
                setn(&mut p.epochs, self.epochs);
                setn(&mut p.minibatch, self.minibatch);
            }
            Reinforce => {
                let r = &mut config.reinforce;
                set(&mut r.learning_rate, self.learning_rate);
                set(&mut r.gamma, self.gamma);
                set(&mut r.entropy, self.entropy);
                setn(&mut r.batch, self.batch);
            }
            Imitate => {
                let i = &mut config.imitate;
                set(&mut i.learning_rate, self.learning_rate);
                set(&mut i.explore, self.explore);
                setn(&mut i.games, self.envs);
                setn(&mut i.steps, self.steps);
                setn(&mut i.minibatch, self.minibatch);
                setn(&mut i.batches, self.batches);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_methods_option_is_an_error_naming_its_owner() {
        let mut c = TrainConfig::new(Pg, 1);
        let o = Overrides {
            batch: Some(8),
            ..Overrides::default()
        };
        let e = o.apply(&mut c).unwrap_err().to_string();
        assert_eq!(e, "--batch is a setting of --method reinforce, not of pg");
        let o = Overrides {
            envs: Some(3),
            ..Overrides::default()
        };
        let e = o
            .apply(&mut TrainConfig::new(Cem, 1))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "--envs is a setting of --method pg and imitate, not of cem"
        );
        o.apply(&mut c).unwrap();
        assert_eq!(c.ppo.games, 3);
        let mut i = TrainConfig::new(Imitate, 1);
        o.apply(&mut i).unwrap();
        assert_eq!(i.imitate.games, 3);
    }

    #[test]
    fn no_overrides_leave_the_defaults() {
        for m in [Cem, Pg, Reinforce, Imitate] {
            let mut c = TrainConfig::new(m, 4);
            Overrides::default().apply(&mut c).unwrap();
            assert_eq!(
                serde_json::to_string(&c).unwrap(),
                serde_json::to_string(&TrainConfig::new(m, 4)).unwrap()
            );
        }
    }
}

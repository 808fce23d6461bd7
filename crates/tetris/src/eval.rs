//! Linear evaluators: a weight per feature, value = Σ weight × feature.
//!
//! Built-in weight sets (all on the features of [`crate::features`]):
//! - `dellacherie`: Pierre Dellacherie's hand-tuned weights (2003), as
//!   reported by Fahey and used in MDPTetris: −1, 1, −1, −1, −4, −1;
//! - `el-tetris`: Islam El-Ashi's PSO-tuned weights (El-Tetris, 2011);
//! - `bcts`: Thiery & Scherrer's cross-entropy weights ("Building Controllers
//!   for Tetris", ICGA Journal 32(1), 2009), the strongest published one-piece
//!   controller: landing height −12.63, eroded cells 6.60, row transitions
//!   −9.22, column transitions −19.77, holes −13.08, wells −10.49, hole depth
//!   −1.61, rows with holes −24.04;
//! - `arcade-tuned`: our own, tuned with `arcade tetris tune` on the 10×10
//!   board (`weights/arcade-tuned.json` records the commands and results);
//! - `bcts-expect`: BCTS's weights, averaging over the unknown next piece once
//!   the stack is 12 rows high ([`crate::player::Player::with_expectation`];
//!   measured on 10×20 in `docs/results/tetris.md`).

use crate::board::MAX_HEIGHT;
use crate::features::{COUNT, Feature, Values};
use arcade_core::text::closest;
use serde_json::{Map, Value};
use std::fmt::Write as _;
use std::path::Path;
use thiserror::Error;

/// A named weight per feature: an AI.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Weights {
    pub name: String,
    pub values: [f64; COUNT],
    /// How the AI plays without preview: from this stack height up it
    /// averages over the next piece (`"expect_from"` in a weights file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_from: Option<usize>,
}

/// Largest weight a file may give: the built-in ones are under 1,100 (the
/// Geek Challenge's too); the bound keeps every value, and every candidate
/// a tuner scales from one, a finite number.
pub const MAX_WEIGHT: f64 = 1e30;

/// Names of the built-in weight sets.
pub const BUILTINS: [&str; 5] = [
    "dellacherie",
    "el-tetris",
    "bcts",
    "arcade-tuned",
    "bcts-expect",
];

/// The stack height from which `bcts-expect` averages over the next piece:
/// the top 8 rows of the 10×20 board, where BCTS rarely plays (a quarter
/// of its speed, measured in `docs/results/tetris.md`).
const BCTS_EXPECT_FROM: usize = 12;

/// The tuned weights as `arcade tetris tune` wrote them, with provenance.
const ARCADE_TUNED: &str = include_str!("../weights/arcade-tuned.json");

#[derive(Debug, Error)]
pub enum WeightsError {
    #[error(transparent)]
    Io(#[from] arcade_core::input::InputError),
    #[error("{origin}: line {line}, column {column}: {message}")]
    Syntax {
        origin: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{origin}: {message}")]
    Layout { origin: String, message: String },
    #[error("{origin}: unknown feature {name:?} in \"features\"{}; known features: {}", hint(.suggestion), known_features())]
    UnknownFeature {
        origin: String,
        name: String,
        suggestion: Option<&'static str>,
    },
    #[error(
        "{origin}: feature {name:?} must have a number from -{MAX_WEIGHT:e} to {MAX_WEIGHT:e} as its weight"
    )]
    NotANumber { origin: String, name: String },
    #[error("unknown AI {spec:?}{}: expected one of {} or the path of a weights JSON file", hint(.suggestion), BUILTINS.join(", "))]
    UnknownAi {
        spec: String,
        suggestion: Option<&'static str>,
    },
}

fn hint(suggestion: &Option<&'static str>) -> String {
    arcade_core::text::hint(*suggestion)
}

fn known_features() -> String {
    Feature::ALL.map(Feature::name).join(", ")
}

impl Weights {
    pub fn from_pairs(name: &str, pairs: &[(Feature, f64)]) -> Weights {
        let mut values = [0.0; COUNT];
        for &(f, w) in pairs {
            values[f.index()] = w;
        }
        Weights {
            name: name.to_string(),
            values,
            expect_from: None,
        }
    }

    /// A built-in weight set by name.
    pub fn builtin(name: &str) -> Option<Weights> {
        use Feature::*;
        let pairs: &[(Feature, f64)] = match name {
            "dellacherie" => &[
                (LandingHeight, -1.0),
                (ErodedCells, 1.0),
                (RowTransitions, -1.0),
                (ColumnTransitions, -1.0),
                (Holes, -4.0),
                (WellSums, -1.0),
            ],
            "el-tetris" => &[
                (LandingHeight, -4.500158825082766),
                (ErodedCells, 3.4181268101392694),
                (RowTransitions, -3.2178882868487753),
                (ColumnTransitions, -9.348695305445199),
                (Holes, -7.899265427351652),
                (WellSums, -3.3855972247263626),
            ],
            "bcts" | "bcts-expect" => &[
                (LandingHeight, -12.63),
                (ErodedCells, 6.60),
                (RowTransitions, -9.22),
                (ColumnTransitions, -19.77),
                (Holes, -13.08),
                (WellSums, -10.49),
                (HoleDepth, -1.61),
                (RowsWithHoles, -24.04),
            ],
            "arcade-tuned" => {
                let w = Weights::parse(ARCADE_TUNED, "weights/arcade-tuned.json");
                return Some(w.expect("the shipped weights file parses"));
            }
            _ => return None,
        };
        let mut w = Weights::from_pairs(name, pairs);
        if name == "bcts-expect" {
            w.expect_from = Some(BCTS_EXPECT_FROM);
        }
        Some(w)
    }

    /// A built-in name, or else the path of a weights file. A spec that
    /// reads as a path (a `.json` name, a directory in it) is read as one,
    /// so a mistyped file name says the file is missing, not that the AI is
    /// unknown.
    pub fn resolve(spec: &str) -> Result<Weights, WeightsError> {
        if let Some(w) = Weights::builtin(spec) {
            return Ok(w);
        }
        let path = Path::new(spec);
        let path_like = spec.ends_with(".json") || path.components().count() > 1;
        if path.exists() || path_like {
            return Weights::load(path);
        }
        // `BCTS` is `bcts` (a file of that name would have been read above).
        if let Some(w) = Weights::builtin(&spec.to_lowercase()) {
            return Ok(w);
        }
        Err(WeightsError::UnknownAi {
            spec: spec.to_string(),
            suggestion: closest(&spec.to_lowercase(), BUILTINS),
        })
    }

    #[inline]
    pub fn get(&self, f: Feature) -> f64 {
        self.values[f.index()]
    }

    /// The features with a non-zero weight.
    pub fn used(&self) -> impl Iterator<Item = (Feature, f64)> + '_ {
        Feature::ALL
            .into_iter()
            .map(|f| (f, self.get(f)))
            .filter(|&(_, w)| w != 0.0)
    }

    /// Σ weight × feature.
    #[inline]
    pub fn value(&self, v: &Values) -> f64 {
        let mut sum = 0.0;
        for i in 0..COUNT {
            sum += self.values[i] * v.0[i];
        }
        sum
    }

    pub fn load(path: &Path) -> Result<Weights, WeightsError> {
        let text = arcade_core::input::read_text(path, arcade_core::input::MAX_INPUT_BYTES)?;
        let stem = path
            .file_stem()
            .map_or("custom".into(), |s| s.to_string_lossy().into_owned());
        let mut w = Weights::parse(&text, &path.display().to_string())?;
        if w.name.is_empty() {
            w.name = stem;
        }
        Ok(w)
    }

    /// Parses `{"features": {"holes": -7.9, ...}}`, with optional `"name"`,
    /// `"expect_from"` (a stack height) and free-form `"about"` (provenance)
    /// keys. `origin` names the input in error messages.
    pub fn parse(text: &str, origin: &str) -> Result<Weights, WeightsError> {
        let layout = |message: &str| WeightsError::Layout {
            origin: origin.to_string(),
            message: message.to_string(),
        };
        let doc: Value = serde_json::from_str(text).map_err(|e| WeightsError::Syntax {
            origin: origin.to_string(),
            line: e.line(),
            column: e.column(),
            message: arcade_core::json::plain(&e.to_string()),
        })?;
        let top = doc.as_object().ok_or_else(|| {
            layout("expected a JSON object like {\"features\": {\"holes\": -7.9}}")
        })?;
        for key in top.keys() {
            if !["features", "name", "about", "expect_from"].contains(&key.as_str()) {
                let msg = format!(
                    "unexpected key {key:?} (expected \"features\", \"name\", \"expect_from\" or \"about\")"
                );
                return Err(layout(&msg));
            }
        }
        let features = top
            .get("features")
            .ok_or_else(|| {
                layout("missing \"features\": an object mapping feature names to weights")
            })?
            .as_object()
            .ok_or_else(|| {
                layout("\"features\" must be an object mapping feature names to weights")
            })?;
        let mut values = [0.0; COUNT];
        for (name, weight) in features {
            let feature = Feature::from_name(name).ok_or_else(|| WeightsError::UnknownFeature {
                origin: origin.to_string(),
                name: name.clone(),
                suggestion: closest(name, Feature::ALL.map(Feature::name)),
            })?;
            values[feature.index()] = weight
                .as_f64()
                .filter(|w| w.abs() <= MAX_WEIGHT)
                .ok_or_else(|| WeightsError::NotANumber {
                    origin: origin.to_string(),
                    name: name.clone(),
                })?;
        }
        if values.iter().all(|&w| w == 0.0) {
            return Err(layout(
                "every weight is zero: such a player cannot tell placements apart",
            ));
        }
        let name = match top.get("name") {
            None => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(_) => return Err(layout("\"name\" must be a string")),
        };
        let expect_from = match top.get("expect_from") {
            None => None,
            Some(v) => Some(
                v.as_u64()
                    .filter(|&h| h <= MAX_HEIGHT as u64)
                    .ok_or_else(|| {
                        layout(&format!(
                            "\"expect_from\" must be a stack height from 0 to {MAX_HEIGHT}"
                        ))
                    })? as usize,
            ),
        };
        Ok(Weights {
            name,
            values,
            expect_from,
        })
    }

    /// The weights file form, with provenance notes in `about`.
    pub fn to_json(&self, about: Value) -> String {
        let mut features = Map::new();
        for (f, w) in self.used() {
            features.insert(f.name().to_string(), Value::from(w));
        }
        let mut doc = Map::new();
        doc.insert("name".into(), Value::from(self.name.clone()));
        doc.insert("features".into(), Value::Object(features));
        if let Some(h) = self.expect_from {
            doc.insert("expect_from".into(), Value::from(h));
        }
        if !about.is_null() {
            doc.insert("about".into(), about);
        }
        serde_json::to_string_pretty(&Value::Object(doc)).expect("weights serialise") + "\n"
    }

    /// One line per used feature, for humans.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        for (f, w) in self.used() {
            let _ = writeln!(s, "  {:<20} {w:>12.6}", f.name());
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_exist_and_dot_product_works() {
        for name in BUILTINS {
            assert!(Weights::builtin(name).is_some(), "{name}");
        }
        let w = Weights::builtin("dellacherie").unwrap();
        let mut v = Values::default();
        v.0[Feature::Holes.index()] = 2.0;
        v.0[Feature::ErodedCells.index()] = 3.0;
        assert_eq!(w.value(&v), -8.0 + 3.0);
    }

    #[test]
    fn json_round_trip() {
        for name in BUILTINS {
            let w = Weights::builtin(name).unwrap();
            let text = w.to_json(Value::Null);
            let back = Weights::parse(&text, "x.json").unwrap();
            assert_eq!(back, w);
        }
        let expect = Weights::builtin("bcts-expect").unwrap();
        assert_eq!(expect.expect_from, Some(BCTS_EXPECT_FROM));
        assert_eq!(expect.values, Weights::builtin("bcts").unwrap().values);
    }

    #[test]
    fn expect_from_must_be_a_height() {
        for bad in ["-1", "1.5", "\"12\"", "41"] {
            let text = format!(r#"{{"features": {{"holes": -1}}, "expect_from": {bad}}}"#);
            let err = Weights::parse(&text, "w.json").unwrap_err().to_string();
            assert!(
                err.contains("\"expect_from\" must be a stack height"),
                "{bad}: {err}"
            );
        }
        let ok = r#"{"features": {"holes": -1}, "expect_from": 9}"#;
        assert_eq!(Weights::parse(ok, "w.json").unwrap().expect_from, Some(9));
    }

    #[test]
    fn typo_in_feature_name_is_named_with_a_suggestion() {
        let err = Weights::parse(r#"{"features": {"hols": -7.9}}"#, "w.json").unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.starts_with(
                "w.json: unknown feature \"hols\" in \"features\" (did you mean \"holes\"?)"
            ),
            "{msg}"
        );
        assert!(!msg.contains('\n'));
    }

    #[test]
    fn malformed_files_get_located_errors() {
        let err = Weights::parse("{\"features\": {\"holes\": }", "w.json").unwrap_err();
        assert!(matches!(err, WeightsError::Syntax { line: 1, .. }), "{err}");
        let err = Weights::parse(r#"{"feature": {"holes": 1}}"#, "w.json").unwrap_err();
        assert!(
            err.to_string().contains("unexpected key \"feature\""),
            "{err}"
        );
        let err = Weights::parse(r#"{"features": {"holes": "x"}}"#, "w.json").unwrap_err();
        assert!(matches!(err, WeightsError::NotANumber { .. }), "{err}");
        let err = Weights::parse(r#"{"features": {}}"#, "w.json").unwrap_err();
        assert!(err.to_string().contains("every weight is zero"), "{err}");
    }

    #[test]
    fn a_missing_weights_file_is_named_as_a_file() {
        for spec in ["tuned.json", "runs/tuned"] {
            let err = Weights::resolve(spec).unwrap_err().to_string();
            assert!(err.starts_with(&format!("cannot read {spec}: ")), "{err}");
        }
    }

    #[test]
    fn unknown_ai_suggests_a_builtin() {
        for (spec, builtin) in [("eltetris", "el-tetris"), ("bctss", "bcts")] {
            let err = Weights::resolve(spec).unwrap_err();
            assert!(
                err.to_string()
                    .contains(&format!("did you mean \"{builtin}\"")),
                "{err}"
            );
        }
        // A built-in's name in capitals is that built-in (it was refused
        // with "did you mean").
        for spec in ["BCTS", "El-Tetris"] {
            let w = Weights::resolve(spec).unwrap();
            assert_eq!(w, Weights::builtin(&spec.to_lowercase()).unwrap());
        }
    }
}

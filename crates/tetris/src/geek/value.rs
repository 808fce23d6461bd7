//! How promising a challenge field is, in points: a linear function of
//! features. The search ranks fields by score so far plus this value, so the
//! value says what a field is worth in future points: filled cells multiply
//! future clears, holes and ragged rows cost them, and a stack near the top
//! risks ending the game.
//!
//! The sequence is known, so some features look ahead: a full field is worth
//! more when an I piece (the only one that clears four rows) is coming soon,
//! and riskier when the next I is far away.
//!
//! One feature is not mirror-symmetric: the cells in column 0. Under the
//! challenge's rules (clockwise-only turns, spawn at column 4) a well on the
//! left scores more than one on the right, and a symmetric value lets the
//! beam pick its side by chance (docs/results/geek.md, "The well's side").

use crate::board::Board;
use crate::features::{self, Feature, FeatureSet};
use crate::piece::Piece;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Number of features.
pub const COUNT: usize = 14;

/// The features, in the order of [`GeekWeights::values`].
pub const NAMES: [&str; COUNT] = [
    "row_transitions",
    "column_transitions",
    "holes",
    "well_sums",
    "hole_depth",
    "rows_with_holes",
    "bumpiness",
    "max_height",
    "filled_cells",
    "height_over_15_squared",
    "almost_full_rows",
    "filled_cells_x_i_distance",
    "max_height_x_i_distance",
    "left_column_cells",
];

const BOARD_FEATURES: [Feature; 8] = [
    Feature::RowTransitions,
    Feature::ColumnTransitions,
    Feature::Holes,
    Feature::WellSums,
    Feature::HoleDepth,
    Feature::RowsWithHoles,
    Feature::Bumpiness,
    Feature::MaxHeight,
];

/// Height above which the squared-excess feature grows.
const SAFE_HEIGHT: f64 = 15.0;
/// Distances to the next I piece are capped here and scaled to 0..=1.
const I_DISTANCE_CAP: usize = 30;

/// What the value knows of the future: how far away the next I piece is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outlook {
    /// Pieces until the next I (0: the next piece is an I), capped, over the cap.
    pub i_distance: f64,
}

impl Outlook {
    /// The outlook after `placed` pieces of `pieces` have been placed.
    pub fn after(pieces: &[Piece], placed: usize) -> Outlook {
        let distance = pieces[placed.min(pieces.len())..]
            .iter()
            .take(I_DISTANCE_CAP)
            .position(|&p| p == Piece::I)
            .unwrap_or(I_DISTANCE_CAP);
        Outlook {
            i_distance: distance as f64 / I_DISTANCE_CAP as f64,
        }
    }
}

pub use crate::eval::MAX_WEIGHT;

/// Weights of the features, in points per unit. Serialised as
/// `{"features": {"holes": -150.0, ...}}`; features a file leaves out weigh 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "WeightsFile", try_from = "WeightsFile")]
pub struct GeekWeights {
    pub values: [f64; COUNT],
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WeightsFile {
    /// A label, kept for people reading the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    features: BTreeMap<String, f64>,
    /// Provenance (commands, results), kept for people reading the file:
    /// any JSON, so a file of another kind is told by its features.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    about: Option<BTreeMap<String, serde_json::Value>>,
}

impl From<GeekWeights> for WeightsFile {
    fn from(w: GeekWeights) -> Self {
        WeightsFile {
            name: None,
            features: NAMES.iter().map(|n| n.to_string()).zip(w.values).collect(),
            about: None,
        }
    }
}

impl TryFrom<WeightsFile> for GeekWeights {
    type Error = String;
    fn try_from(f: WeightsFile) -> Result<Self, String> {
        let mut values = [0.0; COUNT];
        for (name, &w) in &f.features {
            let i = NAMES.iter().position(|n| n == name).ok_or_else(|| {
                // The two kinds of weights files look alike.
                let tetris = match crate::Feature::from_name(name) {
                    Some(_) => " (a Tetris weights file? these are `geek tune`'s)",
                    None => "",
                };
                format!(
                    "unknown feature {name:?}{tetris}; known: {}",
                    NAMES.join(", ")
                )
            })?;
            values[i] = w;
        }
        Ok(GeekWeights { values })
    }
}

/// The shipped weights; the file records how they were tuned and what they score.
const TUNED: &str = include_str!("../../weights/geek.json");

impl GeekWeights {
    /// The built-in weights: tuned with `arcade geek tune` (`weights/geek.json`).
    pub fn builtin() -> GeekWeights {
        serde_json::from_str(TUNED).expect("weights/geek.json is a valid weights file")
    }

    /// Reads a weights file (`{"features": {...}}`), bounded in size; the
    /// error names the file and what is wrong.
    pub fn load(path: &std::path::Path) -> Result<GeekWeights, String> {
        use arcade_core::input::{MAX_INPUT_BYTES, display_name, read_text};
        let text = read_text(path, MAX_INPUT_BYTES).map_err(|e| e.to_string())?;
        let name = display_name(path);
        let w: GeekWeights = serde_json::from_str(&text)
            .map_err(|e| format!("{name}: {}", arcade_core::json::json_error(&e)))?;
        w.check().map_err(|e| format!("{name}: {e}"))?;
        Ok(w)
    }

    /// Checks that every weight is a number within ±[`MAX_WEIGHT`]: a rank
    /// must be a number, and the tuner scales weights, which must not
    /// overflow to infinity.
    pub fn check(&self) -> Result<(), String> {
        match self
            .values
            .iter()
            .position(|w| w.is_nan() || w.abs() > MAX_WEIGHT)
        {
            Some(i) => Err(format!(
                "weight {:?} is {:e}, expected a number from -{MAX_WEIGHT:e} to {MAX_WEIGHT:e}",
                NAMES[i], self.values[i]
            )),
            None => Ok(()),
        }
    }

    /// The board features the weights need computed.
    pub fn needs(&self) -> FeatureSet {
        FeatureSet::of(
            BOARD_FEATURES
                .iter()
                .zip(&self.values)
                .filter(|&(_, &w)| w != 0.0)
                .map(|(&f, _)| f)
                .chain(std::iter::once(Feature::MaxHeight)),
        )
    }

    /// The feature values of a field.
    #[inline]
    pub fn features(board: &Board, needs: FeatureSet, outlook: Outlook) -> [f64; COUNT] {
        let v = features::board_values(board, board.height(), needs);
        let mut out = [0.0; COUNT];
        for (o, f) in out.iter_mut().zip(BOARD_FEATURES) {
            *o = v.get(f);
        }
        let full = board.full_row();
        let (mut cells, mut almost_full, mut left) = (0u32, 0u32, 0u16);
        for &r in &board.rows()[..board.height()] {
            cells += r.count_ones();
            almost_full += u32::from((full & !r).count_ones() == 1);
            left += r & 1;
        }
        let max_height = v.get(Feature::MaxHeight);
        let excess = (max_height - SAFE_HEIGHT).max(0.0);
        out[8] = f64::from(cells);
        out[9] = excess * excess;
        out[10] = f64::from(almost_full);
        out[11] = f64::from(cells) * outlook.i_distance;
        out[12] = max_height * outlook.i_distance;
        out[13] = f64::from(left);
        out
    }

    /// The value of a field: Σ weight × feature.
    #[inline]
    pub fn value(&self, board: &Board, needs: FeatureSet, outlook: Outlook) -> f64 {
        GeekWeights::features(board, needs, outlook)
            .iter()
            .zip(&self.values)
            .map(|(f, w)| f * w)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geek::empty_board;

    const NEAR: Outlook = Outlook { i_distance: 0.0 };

    #[test]
    fn features_of_a_small_field() {
        let mut b = empty_board();
        for x in 0..9 {
            b.set(x, 0);
        }
        b.set(3, 2);
        let w = GeekWeights::builtin();
        let f = GeekWeights::features(&b, FeatureSet::ALL, NEAR);
        assert_eq!(f[8], 10.0); // filled cells
        assert_eq!(f[2], 1.0); // the hole under (3, 2)
        assert_eq!(f[7], 3.0); // max height
        assert_eq!(f[9], 0.0);
        assert_eq!(f[10], 1.0); // row 0 misses one cell
        assert_eq!((f[11], f[12]), (0.0, 0.0)); // an I is next
        assert_eq!(f[13], 1.0); // column 0 holds only the floor row's cell
        let v: f64 = f.iter().zip(&w.values).map(|(a, b)| a * b).sum();
        assert_eq!(w.value(&b, w.needs(), NEAR), v);
        for y in 0..18 {
            b.set(9, y);
        }
        let far = Outlook { i_distance: 0.5 };
        let f = GeekWeights::features(&b, FeatureSet::ALL, far);
        assert_eq!(f[9], 9.0);
        assert_eq!((f[11], f[12]), (14.0, 9.0));
        assert_eq!(f[13], 1.0, "column 9 is not column 0");
        b.set(0, 5);
        b.set(0, 6);
        assert_eq!(GeekWeights::features(&b, FeatureSet::ALL, far)[13], 3.0);
    }

    #[test]
    fn outlook_counts_pieces_to_the_next_i() {
        use Piece::*;
        let seq = [Z, S, I, O, T];
        assert_eq!(Outlook::after(&seq, 0).i_distance, 2.0 / 30.0);
        assert_eq!(Outlook::after(&seq, 2).i_distance, 0.0);
        assert_eq!(Outlook::after(&seq, 3).i_distance, 1.0); // none left: capped
        assert_eq!(Outlook::after(&seq, 5).i_distance, 1.0);
    }

    #[test]
    fn weights_files_round_trip_and_typos_are_named() {
        let w = GeekWeights::builtin();
        let text = serde_json::to_string(&w).unwrap();
        assert!(text.contains("\"filled_cells\""));
        assert_eq!(serde_json::from_str::<GeekWeights>(&text).unwrap(), w);
        let typo = text.replace("filled_cells\"", "filed_cells\"");
        let err = serde_json::from_str::<GeekWeights>(&typo)
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown feature \"filed_cells\""), "{err}");
        // The shipped file carries a name and its provenance.
        assert!(TUNED.contains("\"about\""));
        assert!(w.values[8] > 0.0, "filled cells are worth points");
        // Older files without the look-ahead features still load.
        let old = r#"{"features": {"holes": -100.0}}"#;
        assert_eq!(
            serde_json::from_str::<GeekWeights>(old).unwrap().values[2],
            -100.0
        );
        // A Tetris weights file (its `about` holds numbers) is told apart
        // by its features, not by a type error deep in `about`.
        let tetris = r#"{"features": {"eroded_cells": 1.0}, "about": {"games_per_eval": 4}}"#;
        let err = serde_json::from_str::<GeekWeights>(tetris)
            .unwrap_err()
            .to_string();
        assert!(err.contains("a Tetris weights file?"), "{err}");
    }
}

//! Policy files: a network's layer sizes and weights as JSON.
//!
//! ```json
//! {"format": "arcade-flappy-policy", "sizes": [5, 16, 64, 16, 2],
//!  "layers": [{"weights": [[...16 numbers...], ...5 rows...], "bias": [...16...]}, ...],
//!  "about": {"method": "cem", ...}}
//! ```
//!
//! Layer `l` has `sizes[l]` weight rows (one per input) of `sizes[l + 1]`
//! numbers (one per output) and `sizes[l + 1]` biases. The input size must be
//! 5 or 7 and the output size 2 (do nothing, flap). The network reads the
//! normalised observation ([`crate::obs::normalized`]), and flaps when
//! output 1 is larger than output 0.
//! Everything is checked on load; an error names the file and what did not fit.

use crate::mlp::Mlp;
use crate::policy::fits;
use arcade_core::checkpoint::{CheckpointError, write_atomic};
use arcade_core::input::{MAX_INPUT_BYTES, display_name, read_text};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The `format` field every policy file carries.
pub const FORMAT: &str = "arcade-flappy-policy";

/// Why a policy file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum PolicyFileError {
    /// The file could not be read (missing, too large, not UTF-8).
    #[error("{message}")]
    Read { message: String },
    #[error("{path}: not a policy file: {message}")]
    Parse { path: String, message: String },
    #[error("{path}: {message}")]
    Shape { path: String, message: String },
    #[error(
        "cannot write policy file {path}: {}",
        arcade_core::text::io_reason(source)
    )]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PolicyJson {
    format: String,
    sizes: Vec<usize>,
    layers: Vec<LayerJson>,
    #[serde(default)]
    about: serde_json::Value,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LayerJson {
    weights: Vec<Vec<f32>>,
    bias: Vec<f32>,
}

/// Parses a policy from JSON text; `path` only labels errors.
pub fn parse(text: &str, path: &str) -> Result<Mlp, PolicyFileError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let json: PolicyJson = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let message = match arcade_core::json::path_error(e) {
            (Some(at), message) => format!("at {at}: {message}"),
            (None, message) => message,
        };
        PolicyFileError::Parse {
            path: path.to_string(),
            message,
        }
    })?;
    let shape = |message: String| PolicyFileError::Shape {
        path: path.to_string(),
        message,
    };
    if json.format != FORMAT {
        return Err(shape(format!(
            "format is {:?}, expected {FORMAT:?}",
            json.format
        )));
    }
    check_sizes(&json.sizes).map_err(shape)?;
    if json.layers.len() != json.sizes.len() - 1 {
        return Err(shape(format!(
            "sizes {:?} describe {} layers but the file has {}",
            json.sizes,
            json.sizes.len() - 1,
            json.layers.len()
        )));
    }
    let mut params = Vec::new();
    for (l, layer) in json.layers.iter().enumerate() {
        let (n_in, n_out) = (json.sizes[l], json.sizes[l + 1]);
        if layer.weights.len() != n_in {
            return Err(shape(format!(
                "layers[{l}].weights has {} rows, expected {n_in} (one per input)",
                layer.weights.len()
            )));
        }
        for (i, row) in layer.weights.iter().enumerate() {
            if row.len() != n_out {
                return Err(shape(format!(
                    "layers[{l}].weights[{i}] has {} numbers, expected {n_out} (one per output)",
                    row.len()
                )));
            }
            if let Some(j) = row.iter().position(|v| !v.is_finite()) {
                return Err(shape(format!(
                    "layers[{l}].weights[{i}][{j}] is not finite"
                )));
            }
            params.extend_from_slice(row);
        }
        if layer.bias.len() != n_out {
            return Err(shape(format!(
                "layers[{l}].bias has {} numbers, expected {n_out}",
                layer.bias.len()
            )));
        }
        if let Some(j) = layer.bias.iter().position(|v| !v.is_finite()) {
            return Err(shape(format!("layers[{l}].bias[{j}] is not finite")));
        }
        params.extend_from_slice(&layer.bias);
    }
    let mlp = Mlp::from_params(&json.sizes, params);
    debug_assert!(fits(&mlp));
    Ok(mlp)
}

/// Checks that `sizes` describe a policy network: 5 or 7 inputs, 2 outputs,
/// no empty layer.
pub fn check_sizes(sizes: &[usize]) -> Result<(), String> {
    if sizes.len() < 2 {
        return Err(format!(
            "sizes {sizes:?}: need at least an input and an output size"
        ));
    }
    if sizes.contains(&0) {
        return Err(format!("sizes {sizes:?}: a layer has no units"));
    }
    if !matches!(sizes[0], crate::obs::BASIC | crate::obs::EXTENDED) {
        return Err(format!(
            "sizes {sizes:?}: the input size must be 5 (the basic observation) or 7 (with the next gap), got {}",
            sizes[0]
        ));
    }
    if sizes[sizes.len() - 1] != 2 {
        return Err(format!(
            "sizes {sizes:?}: the output size must be 2 (do nothing, flap), got {}",
            sizes[sizes.len() - 1]
        ));
    }
    Ok(())
}

/// The policy file text for `mlp`, with free-form notes on how it was made.
pub fn to_json(mlp: &Mlp, about: serde_json::Value) -> String {
    let sizes = mlp.sizes().to_vec();
    let layers = (0..sizes.len() - 1)
        .map(|l| {
            let (w, b) = mlp.layer(l);
            LayerJson {
                weights: w.chunks_exact(sizes[l + 1]).map(<[f32]>::to_vec).collect(),
                bias: b.to_vec(),
            }
        })
        .collect();
    let json = PolicyJson {
        format: FORMAT.to_string(),
        sizes,
        layers,
        about,
    };
    serde_json::to_string(&json).expect("policy serialises")
}

/// Reads a policy file (at most [`MAX_INPUT_BYTES`], UTF-8; `-`: standard input).
pub fn load(path: &Path) -> Result<Mlp, PolicyFileError> {
    let text = read_text(path, MAX_INPUT_BYTES).map_err(|e| PolicyFileError::Read {
        message: e.to_string(),
    })?;
    parse(&text, &display_name(path))
}

/// Writes a policy file atomically (a unique temporary file, then rename),
/// so a training run killed mid-write leaves the previous policy intact and
/// no other file of the user's is touched.
pub fn save(mlp: &Mlp, about: serde_json::Value, path: &Path) -> Result<(), PolicyFileError> {
    let text = to_json(mlp, about);
    write_atomic(path, text.as_bytes()).map_err(|e| PolicyFileError::Write {
        path: path.display().to_string(),
        source: match e {
            CheckpointError::Write { source, .. } => source,
            other => std::io::Error::other(other.to_string()),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arcade_core::Rng;
    use proptest::prelude::*;

    #[test]
    fn save_leaves_files_beside_the_policy_alone() {
        let dir = tempfile::tempdir().unwrap();
        let mlp = Mlp::random(&[5, 4, 2], 1.0, &mut Rng::new(1));
        // Before: the temporary file was `path.with_extension("tmp")`: the
        // user's `policy.tmp` was overwritten, and a policy named `*.tmp`
        // was its own temporary file.
        let theirs = dir.path().join("policy.tmp");
        std::fs::write(&theirs, "the user's notes").unwrap();
        let path = dir.path().join("policy.json");
        save(&mlp, serde_json::json!({}), &path).unwrap();
        assert_eq!(
            std::fs::read_to_string(&theirs).unwrap(),
            "the user's notes"
        );
        save(&mlp, serde_json::json!({}), &theirs).unwrap();
        assert_eq!(load(&theirs).unwrap(), mlp);
        assert_eq!(load(&path).unwrap(), mlp);
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
    }

    #[test]
    fn round_trip_is_exact() {
        let mut rng = Rng::new(3);
        for sizes in [vec![5, 16, 64, 16, 2], vec![7, 8, 2], vec![5, 2]] {
            let mlp = Mlp::random(&sizes, 1.0, &mut rng);
            let text = to_json(&mlp, serde_json::json!({"method": "test"}));
            assert_eq!(parse(&text, "t.json").unwrap(), mlp);
        }
    }

    fn err(text: &str) -> String {
        parse(text, "p.json").unwrap_err().to_string()
    }

    #[test]
    fn errors_name_the_problem() {
        let ok = to_json(&Mlp::zeros(&[5, 3, 2]), serde_json::Value::Null);
        assert!(err("{").contains("p.json: not a policy file"));
        assert!(err("[1, 2]").contains("not a policy file"));
        let e = err(&ok.replace("\"sizes\":[5,3,2]", "\"sizes\":[5,4,2]"));
        assert!(
            e.contains("layers[0].weights[0] has 3 numbers, expected 4"),
            "{e}"
        );
        let e = err(&ok.replace("\"sizes\":[5,3,2]", "\"sizes\":[6,3,2]"));
        assert!(e.contains("input size must be 5"), "{e}");
        let e = err(&ok.replace("\"sizes\":[5,3,2]", "\"sizes\":[5,3,2,2]"));
        assert!(e.contains("3 layers but the file has 2"), "{e}");
        let e = err(&ok.replace("\"sizes\":[5,3,2]", "\"sizes\":\"big\""));
        assert!(e.contains("at sizes"), "{e}");
        let e = err(&ok.replace(FORMAT, "other"));
        assert!(e.contains("expected \"arcade-flappy-policy\""), "{e}");
        let e = load(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("/dev/zero is larger than"), "{e}");
        let e = err(&ok.replace("\"bias\":[0.0,0.0]", "\"bias\":[0.0]"));
        assert!(
            e.contains("layers[1].bias has 1 numbers, expected 2"),
            "{e}"
        );
    }

    proptest! {
        /// Arbitrary text never panics the parser, and what parses fits.
        #[test]
        fn parser_never_panics(text in ".{0,200}") {
            if let Ok(mlp) = parse(&text, "x") {
                prop_assert!(fits(&mlp));
            }
        }

        /// Mutating one character of a valid file gives a valid policy or an error, never a panic.
        #[test]
        fn mutated_files_never_panic(pos in 0usize..400, c in prop::char::any()) {
            let text = to_json(&Mlp::zeros(&[5, 3, 2]), serde_json::Value::Null);
            let mut chars: Vec<char> = text.chars().collect();
            let pos = pos % chars.len();
            chars[pos] = c;
            let mutated: String = chars.into_iter().collect();
            if let Ok(mlp) = parse(&mutated, "x") {
                prop_assert!(fits(&mlp));
            }
        }
    }
}

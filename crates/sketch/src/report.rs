//! What `arcade sketch` reports (and `--json` prints).

use serde::{Deserialize, Serialize};
use std::fmt;

/// One sketched file: where from and to, its size, the settings and the time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SketchReport {
    pub input: String,
    pub output: String,
    pub width: u32,
    pub height: u32,
    pub depth: f64,
    pub elevation: f64,
    pub azimuth: f64,
    pub seconds: f64,
}

impl fmt::Display for SketchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} → {} ({}×{}, {:.2} s)",
            self.input, self.output, self.width, self.height, self.seconds
        )
    }
}

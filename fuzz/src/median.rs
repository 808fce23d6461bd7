//! An independent reference for the number reader of `arcade median`
//! (`arcade_signal::medians_of_text`), written from its documented rules,
//! plus the naive reference median.

/// Where a number sits on a line (`--column`, `--delimiter`).
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub column: Option<usize>,
    pub delimiter: char,
}

impl Field {
    /// The text of the number on `line`, or why there is none.
    pub fn pick<'l>(&self, line: &'l str) -> Result<&'l str, String> {
        let text = match self.column {
            None => line,
            Some(n) => line.split(self.delimiter).nth(n - 1).ok_or_else(|| {
                let found = line.split(self.delimiter).count();
                format!("no column {n} (the line has {found})")
            })?,
        };
        let text = text.trim();
        Ok(text
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .unwrap_or(text))
    }

    /// The number on `line`, as `arcade median` reads it.
    pub fn number(&self, line: &str) -> Result<f64, String> {
        self.pick(line).and_then(|text| {
            text.parse::<f64>()
                .map_err(|_| format!("expected a number, found {text:?}"))
        })
    }
}

/// Lines as `BufRead::read_line` splits them (each keeps its `\n`).
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split_inclusive('\n')
}

/// The median of the numbers in `window` (NaN left out; NaN when only NaN
/// remain; the mean of the two middle ones for an even count), by sorting.
pub fn naive_median(window: &[f64]) -> f64 {
    let mut xs: Vec<f64> = window.iter().copied().filter(|x| !x.is_nan()).collect();
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.sort_by(|a, b| a.partial_cmp(b).expect("no NaN left"));
    let m = xs.len();
    if m % 2 == 1 {
        xs[m / 2]
    } else {
        (xs[m / 2 - 1] + xs[m / 2]) * 0.5
    }
}

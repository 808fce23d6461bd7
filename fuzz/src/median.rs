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
    pub fn pick(&self, line: &str) -> Result<String, String> {
        let text = match self.column {
            None => line.to_string(),
            Some(n) => {
                let fields = split_fields(line.trim_end_matches(['\n', '\r']), self.delimiter)?;
                let found = fields.len();
                fields
                    .into_iter()
                    .nth(n - 1)
                    .ok_or_else(|| format!("no column {n} (the line has {found})"))?
            }
        };
        let text = text.trim();
        Ok(text
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .unwrap_or(text)
            .to_string())
    }

    /// The number on `line`, as `arcade median` reads it: a number past
    /// the largest `f64` is not one, infinity spelt out is.
    pub fn number(&self, line: &str) -> Result<f64, String> {
        let text = self.pick(line)?;
        let x = text
            .parse::<f64>()
            .map_err(|_| format!("expected a number, found {text:?}"))?;
        if x.is_infinite() && !text.to_ascii_lowercase().contains("inf") {
            return Err(format!("{text:?} is beyond the largest number"));
        }
        Ok(x)
    }
}

/// The fields of a CSV line as RFC 4180 reads them, character by
/// character: a field that starts with a quote runs to the next lone quote
/// (a doubled one is a quote in it), and what follows is kept up to the
/// delimiter; a quote elsewhere is text. An odd number of quotes is an
/// open one.
fn split_fields(line: &str, delimiter: char) -> Result<Vec<String>, String> {
    if line.matches('"').count() % 2 == 1 {
        return Err("a quote is not closed on this line".into());
    }
    let mut fields = vec![String::new()];
    let (mut quoted, mut fresh) = (false, true);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        let field = fields.last_mut().expect("one field at least");
        if quoted {
            if c != '"' {
                field.push(c);
            } else if chars.peek() == Some(&'"') {
                chars.next();
                field.push('"');
            } else {
                quoted = false;
            }
        } else if c == delimiter {
            fields.push(String::new());
            fresh = true;
            continue;
        } else if c == '"' && fresh {
            quoted = true;
        } else {
            field.push(c);
        }
        fresh = false;
    }
    Ok(fields)
}

/// Lines as `BufRead::read_line` splits them (each keeps its `\n`).
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split_inclusive('\n')
}

/// The median of the numbers in `window` (NaN left out; NaN when only NaN
/// remain; the mean of the two middle ones for an even count, halved first
/// when their sum overflows), by sorting.
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
        let (lo, hi) = (xs[m / 2 - 1], xs[m / 2]);
        match lo + hi {
            sum if sum.is_infinite() && lo.is_finite() && hi.is_finite() => lo / 2.0 + hi / 2.0,
            sum => sum / 2.0,
        }
    }
}

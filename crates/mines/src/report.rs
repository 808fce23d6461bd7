//! The analysis of one position as a report: what `arcade mines analyze`
//! prints, the web arena's probability overlay and hint, and Python's
//! `analyze` all come from [`analyze_report`].

use crate::fifty::forced_guess;
use crate::frontier::SolveError;
use crate::play::{flag_certain, next_move};
use crate::position::{Cell, Position};
use crate::probability::analyze;
use crate::solver::{Config, Solver};
use arcade_core::text::counted;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Instant;

/// Cell coordinates `[x, y]` (column, row from 0).
pub type Xy = [usize; 2];

/// Exact probabilities of a position, its certain cells and the move to play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnalyzeReport {
    pub width: usize,
    pub height: usize,
    /// Mines on the whole board.
    pub mines: usize,
    /// `probabilities[y][x]`: mine probability of a hidden cell, `null` for
    /// numbers and known mines.
    pub probabilities: Vec<Vec<Option<f64>>>,
    /// Hidden cells safe in every arrangement.
    pub safe: Vec<Xy>,
    /// Hidden cells that are mines in every arrangement.
    pub mines_certain: Vec<Xy>,
    /// The recommended move (a safe cell if any, else the solver's guess);
    /// `null` when every hidden cell is a mine.
    pub best: Option<Xy>,
    pub best_probability: Option<f64>,
    /// Two cells no later reveal can tell apart: guess one now.
    pub forced_fifty_fifty: Option<Vec<Xy>>,
    /// Natural log of the number of arrangements agreeing with the position.
    pub arrangements_ln: f64,
    pub seconds: f64,
    /// The position's rows as given, for the text form (not serialised).
    #[serde(skip)]
    pub rows: Vec<String>,
}

/// Analyses `pos` and picks the move the solver configured by `config` plays.
pub fn analyze_report(pos: &Position, config: &Config) -> Result<AnalyzeReport, SolveError> {
    let start = Instant::now();
    let analysis = analyze(pos)?;
    let best = next_move(pos, &analysis, &Solver::new(config.clone()))?;
    let forced = forced_guess(&flag_certain(pos, &analysis), &analysis)?.map(|f| f.cells);
    let grid = pos.grid();
    let xy = |c: usize| {
        let (x, y) = grid.coords(c);
        [x, y]
    };
    let cells = |v: &[usize]| v.iter().map(|&c| xy(c)).collect::<Vec<_>>();
    let text = pos.to_text();
    Ok(AnalyzeReport {
        width: grid.width(),
        height: grid.height(),
        mines: pos.mines(),
        probabilities: (0..grid.height())
            .map(|y| {
                (0..grid.width())
                    .map(|x| analysis.probability(grid.index(x, y)))
                    .collect()
            })
            .collect(),
        safe: cells(analysis.safe()),
        mines_certain: cells(analysis.mines()),
        best: best.map(xy),
        best_probability: best.and_then(|b| analysis.probability(b)),
        forced_fifty_fifty: forced.as_deref().map(cells),
        arrangements_ln: analysis.ln_arrangements(),
        seconds: start.elapsed().as_secs_f64(),
        rows: text.lines().skip(1).map(str::to_string).collect(),
    })
}

/// A probability as a whole percentage, never rounding an uncertain cell to
/// 0 or 100.
pub fn percent(p: f64) -> String {
    if p == 0.0 || p == 1.0 || p.is_nan() {
        return format!("{:.0}", p * 100.0);
    }
    format!("{:.0}", (p * 100.0).clamp(1.0, 99.0))
}

fn list(cells: &[Xy]) -> String {
    cells
        .iter()
        .map(|[x, y]| format!("({x},{y})"))
        .collect::<Vec<_>>()
        .join(" ")
}

impl AnalyzeReport {
    /// What the position shows at `[x, y]` for a cell that is not hidden.
    fn shown(&self, x: usize, y: usize) -> char {
        self.rows
            .get(y)
            .and_then(|r| r.chars().nth(x))
            .unwrap_or('?')
    }

    fn hidden(&self) -> usize {
        self.probabilities.iter().flatten().flatten().count()
    }

    fn known_mines(&self) -> usize {
        let mine = Cell::Mine.to_char();
        self.rows
            .iter()
            .flat_map(|r| r.chars())
            .filter(|&c| c == mine)
            .count()
    }
}

/// The number of arrangements whose natural log is `ln`: counted when it is
/// small ("1 arrangement", not "about 10^0.0"), else as a power of ten.
fn arrangements(ln: f64) -> String {
    let log10 = ln / std::f64::consts::LN_10;
    match log10 < 6.0 {
        true => counted(ln.exp().round() as u64, "arrangement"),
        false => format!("about 10^{log10:.1} arrangements"),
    }
}

/// The summary, the recommended move and the board with each hidden cell's
/// mine probability in percent (`[..]` marks the move).
impl fmt::Display for AnalyzeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}x{}, {} ({} known), {}: {} certainly safe, {}; {}",
            self.width,
            self.height,
            counted(self.mines, "mine"),
            self.known_mines(),
            counted(self.hidden(), "hidden cell"),
            self.safe.len(),
            counted(self.mines_certain.len(), "certain mine"),
            arrangements(self.arrangements_ln)
        )?;
        match (self.best, self.best_probability) {
            (Some([x, y]), p) => {
                let p = p.unwrap_or(0.0);
                let certain = if p == 0.0 { " (certainly safe)" } else { "" };
                // An uncertain cell never reads as 0.0000 or 1.0000.
                let shown = match p {
                    0.0 | 1.0 => p,
                    p => p.clamp(1e-4, 1.0 - 1e-4),
                };
                writeln!(
                    f,
                    "best move: ({x},{y}), mine probability {shown:.4}{certain}"
                )?;
            }
            (None, _) if self.hidden() == 0 => writeln!(f, "best move: none (no hidden cell)")?,
            (None, _) => writeln!(f, "best move: none (every hidden cell is a mine)")?,
        }
        if let Some(cells) = &self.forced_fifty_fifty {
            writeln!(
                f,
                "forced 50/50: {} (no later reveal can tell how their mines lie: guess one now)",
                list(cells)
            )?;
        }
        writeln!(
            f,
            "mine probabilities of the hidden cells (numbers and * as given):"
        )?;
        for (y, row) in self.probabilities.iter().enumerate() {
            for (x, p) in row.iter().enumerate() {
                // The % keeps a revealed 1 apart from a hidden cell's 1%.
                let text = match p {
                    Some(p) => format!("{}%", percent(*p)),
                    None => self.shown(x, y).to_string(),
                };
                if self.best == Some([x, y]) {
                    write!(f, "[{text:>4}]")?;
                } else {
                    write!(f, " {text:>4} ")?;
                }
            }
            writeln!(f)?;
        }
        if !self.safe.is_empty() {
            writeln!(f, "safe: {}", list(&self.safe))?;
        }
        if !self.mines_certain.is_empty() {
            writeln!(f, "mines: {}", list(&self.mines_certain))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_keys_and_text() {
        let pos = Position::parse("3 1 1\n1..\n").unwrap();
        let r = analyze_report(&pos, &Config::standard()).unwrap();
        assert_eq!(r.safe, vec![[2, 0]]);
        assert_eq!(r.mines_certain, vec![[1, 0]]);
        assert_eq!(r.best, Some([2, 0]));
        assert_eq!(r.best_probability, Some(0.0));
        let json = serde_json::to_value(&r).unwrap();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        for k in [
            "width",
            "height",
            "mines",
            "probabilities",
            "safe",
            "mines_certain",
            "best",
            "best_probability",
            "forced_fifty_fifty",
            "arrangements_ln",
            "seconds",
        ] {
            assert!(keys.contains(&k), "{k}");
        }
        assert_eq!(keys.len(), 11);
        let text = r.to_string();
        assert!(text.contains("best move: (2,0), mine probability 0.0000 (certainly safe)"));
        assert!(text.contains("    1  100% [  0%]"), "{text}");
    }

    #[test]
    fn the_best_move_never_reads_as_certain_when_it_is_not() {
        // One mine in 30,000 cells: every cell is a mine at 1/30,000,
        // which four decimals would round to 0.
        let mut text = String::from("300 100 1\n");
        for _ in 0..100 {
            text += &".".repeat(300);
            text += "\n";
        }
        let pos = Position::parse(&text).unwrap();
        let report = analyze_report(&pos, &Config::fast()).unwrap().to_string();
        assert!(report.contains("mine probability 0.0001\n"), "{report}");
        // All but one cell a mine.
        let text = text.replacen("300 100 1", "300 100 29999", 1);
        let pos = Position::parse(&text).unwrap();
        let report = analyze_report(&pos, &Config::fast()).unwrap().to_string();
        assert!(report.contains("mine probability 0.9999\n"), "{report}");
    }

    #[test]
    fn few_arrangements_are_counted_many_are_a_power_of_ten() {
        assert_eq!(super::arrangements(0.0), "1 arrangement");
        assert_eq!(super::arrangements(4096f64.ln()), "4096 arrangements");
        assert_eq!(
            super::arrangements(1e7f64.ln()),
            "about 10^7.0 arrangements"
        );
        // A real position's count, through the report's own line.
        let pos = Position::parse("3 1 1\n1..\n").unwrap();
        let report = analyze_report(&pos, &Config::fast()).unwrap().to_string();
        assert!(
            report.lines().next().unwrap().ends_with("; 1 arrangement"),
            "{report}"
        );
    }

    #[test]
    fn percentages_never_round_an_uncertain_cell_to_certain() {
        assert_eq!(percent(0.001), "1");
        assert_eq!(percent(0.999), "99");
        assert_eq!(percent(0.0), "0");
        assert_eq!(percent(1.0), "100");
    }
}

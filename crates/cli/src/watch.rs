//! The terminal views of a game: coloured cells redrawn in place after every
//! locked piece. The colours come from the library's `ColouredBoard`.

use crate::output;
use anyhow::Result;
use arcade_tetris::colours::ColouredBoard;
use arcade_tetris::game::Step;
use arcade_tetris::{Board, Piece, Rules};
use std::fmt::Write as _;
use std::time::Duration;

/// The view of `arcade tetris play --watch`.
pub struct Watch {
    ai: String,
    rules: Rules,
    cells: ColouredBoard,
    delay: Duration,
    /// The first failed write (drawing stops; the command reports it).
    failed: Option<anyhow::Error>,
}

/// ANSI 256-colour codes in the guideline colours.
pub(crate) fn colour(p: Piece) -> u8 {
    match p {
        Piece::I => 51,
        Piece::O => 226,
        Piece::T => 129,
        Piece::S => 46,
        Piece::Z => 196,
        Piece::J => 21,
        Piece::L => 208,
    }
}

/// The rows of `board`, top row first, `|`-framed, with a floor line.
pub(crate) fn draw_rows(
    board: &ColouredBoard,
    out: &mut String,
    mut side: impl FnMut(usize) -> String,
) {
    for y in (0..board.height).rev() {
        out.push_str(" |");
        for x in 0..board.width {
            match board.get(x, y) {
                Some(p) => {
                    let _ = write!(out, "\x1b[38;5;{}m██\x1b[0m", colour(p));
                }
                None => out.push_str(" ."),
            }
        }
        let _ = writeln!(out, "|{}\x1b[K", side(y));
    }
    let _ = writeln!(out, " +{}+\x1b[K", "--".repeat(board.width));
}

impl Watch {
    pub fn new(ai: &str, rules: Rules, board: Board, delay_ms: u64) -> Result<Watch> {
        // Clear the screen once; frames then redraw from the top-left.
        output::frame("\x1b[2J")?;
        Ok(Watch {
            ai: ai.to_string(),
            rules,
            cells: ColouredBoard::new(board.width(), board.height()),
            delay: Duration::from_millis(delay_ms),
            failed: None,
        })
    }

    /// Applies one locked piece and draws the frame.
    pub fn show(&mut self, step: &Step) {
        self.cells.lock(&self.rules, step.piece, step.placement);
        if self.failed.is_some() {
            return;
        }
        let mut out = String::from("\x1b[H");
        let _ = writeln!(
            out,
            " {}  lines {}  pieces {}\x1b[K",
            self.ai, step.lines, step.pieces
        );
        let next = step.next.map_or("-".to_string(), |p| p.to_string());
        let top = self.cells.height - 1;
        draw_rows(&self.cells, &mut out, |y| {
            if y == top {
                format!("  next {next}")
            } else {
                String::new()
            }
        });
        match output::frame(out) {
            Ok(()) => std::thread::sleep(self.delay),
            Err(e) => self.failed = Some(e),
        }
    }

    /// Ends the view: the first write error, if drawing failed.
    pub fn finish(self) -> Result<()> {
        match self.failed {
            Some(e) => Err(e),
            None => output::print("\n"),
        }
    }
}

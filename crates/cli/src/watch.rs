//! The terminal view of a game: coloured cells redrawn in place after every
//! locked piece.

use arcade_tetris::game::Step;
use arcade_tetris::{Board, Piece, Rules};
use std::fmt::Write as _;
use std::io::Write as _;
use std::time::Duration;

/// Mirrors the engine's board with the piece kind of every cell, for colour.
pub struct Watch {
    ai: String,
    rules: Rules,
    width: usize,
    height: usize,
    cells: Vec<Vec<Option<Piece>>>, // [y][x], y = 0 at the bottom
    delay: Duration,
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

impl Watch {
    pub fn new(ai: &str, rules: Rules, board: Board, delay_ms: u64) -> Watch {
        let (width, height) = (board.width(), board.height());
        // Clear the screen once; frames then redraw from the top-left.
        print!("\x1b[2J");
        Watch {
            ai: ai.to_string(),
            rules,
            width,
            height,
            cells: vec![vec![None; width]; height],
            delay: Duration::from_millis(delay_ms),
        }
    }

    /// Applies one locked piece (write its cells, drop full rows, as the
    /// engine does) and draws the frame.
    pub fn show(&mut self, step: &Step) {
        let p = step.placement;
        for (x, y) in self
            .rules
            .shape(step.piece, p.rotation as usize)
            .cells_at(i32::from(p.col), i32::from(p.row))
        {
            self.cells[y as usize][x as usize] = Some(step.piece);
        }
        self.cells.retain(|row| row.iter().any(Option::is_none));
        self.cells.resize(self.height, vec![None; self.width]);
        debug_assert!(
            (0..self.height).all(|y| (0..self.width)
                .all(|x| self.cells[y][x].is_some() == step.board.filled(x as i32, y as i32))),
            "colour grid out of step with the board"
        );
        self.draw(step);
        std::thread::sleep(self.delay);
    }

    fn draw(&self, step: &Step) {
        let mut out = String::from("\x1b[H");
        let _ = writeln!(
            out,
            " {}  lines {}  pieces {}\x1b[K",
            self.ai, step.lines, step.pieces
        );
        let next = step.next.map_or("-".to_string(), |p| p.to_string());
        for y in (0..self.height).rev() {
            out.push_str(" |");
            for x in 0..self.width {
                match self.cells[y][x] {
                    Some(p) => {
                        let _ = write!(out, "\x1b[38;5;{}m██\x1b[0m", colour(p));
                    }
                    None => out.push_str(" ."),
                }
            }
            out.push('|');
            if y + 1 == self.height {
                let _ = write!(out, "  next {next}");
            }
            out.push_str("\x1b[K\n");
        }
        let _ = writeln!(out, " +{}+\x1b[K", "--".repeat(self.width));
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(out.as_bytes());
        let _ = stdout.flush();
    }

    pub fn finish(&self) {
        println!();
    }
}

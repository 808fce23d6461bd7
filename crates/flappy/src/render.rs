//! A frame as terminal text: the screen scaled down to a grid of characters.

use crate::env::{BIRD_H, BIRD_W, BIRD_X, Env, GROUND_Y};
use crate::env::{PIPE_W, SCREEN_W};

/// Pixels per character column.
pub const CELL_W: i32 = 6;
/// Pixels per character row (terminal cells are about twice as tall as wide).
pub const CELL_H: i32 = 12;

/// What a character cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Sky,
    Pipe,
    Bird,
    Ground,
}

impl Cell {
    /// Plain-text glyph.
    pub fn glyph(self) -> char {
        match self {
            Cell::Sky => ' ',
            Cell::Pipe => '#',
            Cell::Bird => '@',
            Cell::Ground => '=',
        }
    }
}

/// The playfield as rows of cells, top row first, with one ground row at the
/// bottom. A cell shows the bird or a pipe if its centre pixel is covered
/// (the bird also wins any cell it overlaps at all, so it never vanishes).
pub fn grid(env: &Env) -> Vec<Vec<Cell>> {
    let cols = SCREEN_W / CELL_W;
    let rows = (GROUND_Y + CELL_H - 1) / CELL_H;
    let pipes = env.visible_pipes();
    let by = env.bird_y();
    let mut out = Vec::with_capacity(rows as usize + 1);
    for r in 0..rows {
        let (y0, y1) = (r * CELL_H, (r + 1) * CELL_H);
        let cy = y0 + CELL_H / 2;
        let row = (0..cols)
            .map(|c| {
                let (x0, x1) = (c * CELL_W, (c + 1) * CELL_W);
                let cx = x0 + CELL_W / 2;
                let bird = x0 < BIRD_X + BIRD_W && BIRD_X < x1 && y0 < by + BIRD_H && by < y1;
                let pipe = pipes.iter().any(|p| {
                    (p.x..p.x + PIPE_W).contains(&cx) && !(p.gap_top..p.gap_bottom()).contains(&cy)
                });
                if bird {
                    Cell::Bird
                } else if pipe && cy < GROUND_Y {
                    Cell::Pipe
                } else {
                    Cell::Sky
                }
            })
            .collect();
        out.push(row);
    }
    out.push(vec![Cell::Ground; cols as usize]);
    out
}

/// The frame as plain text, one line per row.
pub fn text(env: &Env) -> String {
    grid(env)
        .iter()
        .map(|row| row.iter().map(|c| c.glyph()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_the_bird_pipes_and_ground() {
        let mut env = Env::new(4, None);
        // Let the first pipe scroll on screen while hovering near the middle.
        for _ in 0..60 {
            let flap = env.bird_y() > 250 && env.bird_vel() > 0;
            env.step(flap);
        }
        let g = grid(&env);
        assert_eq!(g.len() as i32, (GROUND_Y + CELL_H - 1) / CELL_H + 1);
        assert!(g.last().unwrap().iter().all(|&c| c == Cell::Ground));
        let bird_row = (env.bird_y() / CELL_H) as usize;
        assert_eq!(g[bird_row][(BIRD_X / CELL_W) as usize + 1], Cell::Bird);
        let p = env.pipe_ahead(0);
        assert!(p.x < SCREEN_W, "pipe on screen");
        let col = ((p.x + PIPE_W / 2) / CELL_W) as usize;
        assert_eq!(g[0][col], Cell::Pipe);
        let gap_row = ((p.gap_top + 50) / CELL_H) as usize;
        assert_eq!(g[gap_row][col], Cell::Sky);
        assert_eq!(text(&env).lines().count(), g.len());
    }
}

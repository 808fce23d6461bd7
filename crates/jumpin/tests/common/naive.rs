//! An obviously-correct grid version of the rules, written straight from the
//! rule text and sharing nothing with the bitboard engine but `Position`
//! (read through its board-format printout) and `Step`.

use arcade_jumpin::Position;
use arcade_jumpin::solve::{Piece, Step};
use std::collections::{HashMap, VecDeque};
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Square {
    Empty,
    Rabbit,
    Mushroom,
    /// A fox cell: the fox's number and whether it lies horizontally.
    Fox(u8, bool),
}

/// A 5×5 grid indexed `[row][column]`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Grid([[Square; 5]; 5]);

const HOLES: [(usize, usize); 5] = [(0, 0), (4, 0), (0, 4), (4, 4), (2, 2)];

impl Grid {
    pub fn from_position(p: &Position) -> Grid {
        let mut g = [[Square::Empty; 5]; 5];
        for (y, line) in p.to_string().lines().enumerate() {
            for (x, ch) in line.chars().enumerate() {
                g[y][x] = match ch {
                    'R' => Square::Rabbit,
                    'X' => Square::Mushroom,
                    _ => Square::Empty,
                };
            }
        }
        for (i, f) in p.foxes().iter().enumerate() {
            let horizontal = f.axis == arcade_jumpin::Axis::Horizontal;
            for c in f.cells() {
                let (x, y) = ((c % 5) as usize, (c / 5) as usize);
                g[y][x] = Square::Fox(i as u8, horizontal);
            }
        }
        Grid(g)
    }

    fn at(&self, x: i32, y: i32) -> Option<Square> {
        if (0..5).contains(&x) && (0..5).contains(&y) {
            Some(self.0[y as usize][x as usize])
        } else {
            None
        }
    }

    pub fn solved(&self) -> bool {
        (0..5).all(|y| (0..5).all(|x| self.0[y][x] != Square::Rabbit || HOLES.contains(&(x, y))))
    }

    /// Every legal move and the grid after it.
    pub fn moves(&self) -> Vec<(Step, Grid)> {
        let mut out = Vec::new();
        for y in 0..5i32 {
            for x in 0..5i32 {
                match self.0[y as usize][x as usize] {
                    Square::Rabbit => {
                        for (dx, dy) in [(0, -1), (0, 1), (-1, 0), (1, 0)] {
                            let (mut tx, mut ty) = (x + dx, y + dy);
                            let mut jumped = 0;
                            while matches!(self.at(tx, ty), Some(s) if s != Square::Empty) {
                                tx += dx;
                                ty += dy;
                                jumped += 1;
                            }
                            if jumped > 0 && self.at(tx, ty) == Some(Square::Empty) {
                                let step = Step {
                                    piece: Piece::Rabbit,
                                    from: [x as u8, y as u8],
                                    to: [tx as u8, ty as u8],
                                };
                                out.push((step, self.play(&step).expect("legal")));
                            }
                        }
                    }
                    Square::Fox(_, horizontal) => {
                        // Only from the fox's top or left cell.
                        let (bx, by) = if horizontal { (x - 1, y) } else { (x, y - 1) };
                        if self.at(bx, by) == Some(self.0[y as usize][x as usize]) {
                            continue;
                        }
                        let (dx, dy) = if horizontal { (1, 0) } else { (0, 1) };
                        for sign in [-1, 1] {
                            let to = [(x + sign * dx) as u8, (y + sign * dy) as u8];
                            let step = Step {
                                piece: Piece::Fox,
                                from: [x as u8, y as u8],
                                to,
                            };
                            if let Some(g) = self.play(&step) {
                                out.push((step, g));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// Plays a move if it is legal.
    pub fn play(&self, step: &Step) -> Option<Grid> {
        let [fx, fy] = step.from.map(i32::from);
        let [tx, ty] = step.to.map(i32::from);
        let mut g = self.clone();
        match step.piece {
            Piece::Rabbit => {
                if self.at(fx, fy)? != Square::Rabbit || self.at(tx, ty)? != Square::Empty {
                    return None;
                }
                if fx != tx && fy != ty {
                    return None;
                }
                let (dx, dy) = ((tx - fx).signum(), (ty - fy).signum());
                let (mut x, mut y) = (fx + dx, fy + dy);
                if (x, y) == (tx, ty) {
                    return None; // a plain step onto an empty neighbour
                }
                while (x, y) != (tx, ty) {
                    if self.at(x, y)? == Square::Empty {
                        return None;
                    }
                    x += dx;
                    y += dy;
                }
                g.0[fy as usize][fx as usize] = Square::Empty;
                g.0[ty as usize][tx as usize] = Square::Rabbit;
            }
            Piece::Fox => {
                let fox = self.at(fx, fy)?;
                let Square::Fox(_, horizontal) = fox else {
                    return None;
                };
                let (dx, dy) = if horizontal { (1, 0) } else { (0, 1) };
                if self.at(fx + dx, fy + dy)? != fox || self.at(fx - dx, fy - dy) == Some(fox) {
                    return None; // `from` must be the fox's top or left cell
                }
                let sign = if (tx, ty) == (fx + dx, fy + dy) {
                    1
                } else if (tx, ty) == (fx - dx, fy - dy) {
                    -1
                } else {
                    return None;
                };
                // The cell the fox moves into, ahead of it.
                let (ax, ay) = if sign == 1 {
                    (fx + 2 * dx, fy + 2 * dy)
                } else {
                    (tx, ty)
                };
                if self.at(ax, ay)? != Square::Empty {
                    return None;
                }
                let (lx, ly) = if sign == 1 {
                    (fx, fy)
                } else {
                    (fx + dx, fy + dy)
                };
                g.0[ly as usize][lx as usize] = Square::Empty;
                g.0[ay as usize][ax as usize] = fox;
            }
        }
        Some(g)
    }

    /// Length of a shortest solution by plain BFS over whole grids.
    pub fn shortest(&self) -> Option<usize> {
        let mut dist = HashMap::from([(self.clone(), 0usize)]);
        let mut queue = VecDeque::from([self.clone()]);
        while let Some(g) = queue.pop_front() {
            let d = dist[&g];
            if g.solved() {
                return Some(d);
            }
            for (_, next) in g.moves() {
                if !dist.contains_key(&next) {
                    dist.insert(next.clone(), d + 1);
                    queue.push_back(next);
                }
            }
        }
        None
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in &self.0 {
            let line: String = row
                .iter()
                .map(|s| match s {
                    Square::Empty => '.',
                    Square::Rabbit => 'R',
                    Square::Mushroom => 'X',
                    Square::Fox(_, true) => 'H',
                    Square::Fox(_, false) => 'V',
                })
                .collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

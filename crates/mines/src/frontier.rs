//! The constraint structure of a position.
//!
//! Every revealed number with hidden neighbours is a constraint: its hidden
//! neighbours hold exactly `need` mines (the number minus the known mines
//! around it). Hidden cells next to at least one constraint form the frontier;
//! frontier cells touching exactly the same constraints are interchangeable
//! and merge into one *group*, so a solution only says how many mines each
//! group holds. Constraints linked through shared groups form independent
//! *components*. Hidden cells away from every number are the *rest*.

use crate::position::{Cell, Position};
use arcade_core::text::counted;
use thiserror::Error;

/// Why a position cannot be analysed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SolveError {
    #[error("contradiction: the {value} at ({x},{y}) touches {}", counted(*.known, "known mine"))]
    TooManyKnown {
        x: usize,
        y: usize,
        value: u8,
        known: usize,
    },
    #[error(
        "contradiction: the {value} at ({x},{y}) needs {} but has only {}", counted(*.value as usize, "mine"), counted(*.room, "hidden or known-mine neighbour")
    )]
    TooFewCells {
        x: usize,
        y: usize,
        value: u8,
        room: usize,
    },
    #[error("contradiction: no arrangement of mines satisfies the numbers around ({x},{y})")]
    Unsatisfiable { x: usize, y: usize },
    #[error("{}", mine_count_message(*min, *max, *left, *rest))]
    MineCount {
        min: usize,
        max: usize,
        left: usize,
        rest: usize,
    },
    #[error("contradiction: the board shows {known} known mines but holds only {total}")]
    TooManyFlags { known: usize, total: usize },
    #[error(
        "position too complex: a group of connected numbers around ({x},{y}) would need more than {limit} partial solutions"
    )]
    TooComplex { x: usize, y: usize, limit: usize },
}

/// The message of [`SolveError::MineCount`]: which way the total is wrong.
fn mine_count_message(min: usize, max: usize, left: usize, rest: usize) -> String {
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    let mines = |n| plural(n, "mine", "mines");
    let cells = |n| plural(n, "other hidden cell", "other hidden cells");
    if left < min {
        format!(
            "contradiction: the numbers need at least {} next to them, but the board has only {} left",
            mines(min),
            mines(left)
        )
    } else if left > max + rest {
        format!(
            "contradiction: the board has {} left, but the numbers take at most {max} and only {} remain",
            mines(left),
            cells(rest)
        )
    } else {
        // The counts the numbers allow have gaps, and each misses.
        format!(
            "contradiction: the board has {} left, but none of the counts the numbers allow (some between {min} and {max}) leaves a number the {} can hold",
            mines(left),
            cells(rest)
        )
    }
}

/// Up to 8 indices without allocation: a group has at most 8 cells (the
/// hidden neighbours of one number), touches at most 8 numbers, and a number
/// touches at most 8 groups.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Few {
    len: u8,
    items: [u32; 8],
}

impl Few {
    #[inline]
    pub fn push(&mut self, x: u32) {
        self.items[self.len as usize] = x;
        self.len += 1;
    }
}

impl std::ops::Deref for Few {
    type Target = [u32];

    #[inline]
    fn deref(&self) -> &[u32] {
        &self.items[..self.len as usize]
    }
}

/// Frontier cells that touch exactly the same constraints.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    pub cells: Few,
    /// Constraint indices, ascending.
    pub constraints: Few,
    /// Index within its component.
    pub local: u32,
}

/// A revealed number with hidden neighbours.
#[derive(Clone, Debug)]
pub(crate) struct Constraint {
    /// The number's cell.
    pub cell: u32,
    /// Mines still missing among its hidden neighbours.
    pub need: u8,
    /// Groups it touches, ascending.
    pub groups: Few,
    /// Index within its component.
    pub local: u32,
}

/// Constraints and groups linked through shared cells.
#[derive(Clone, Debug, Default)]
pub(crate) struct Component {
    pub groups: Vec<u32>,
    pub constraints: Vec<u32>,
}

/// The constraint structure of one position.
#[derive(Clone, Debug)]
pub(crate) struct Frontier {
    pub groups: Vec<Group>,
    pub constraints: Vec<Constraint>,
    pub components: Vec<Component>,
    /// Hidden cells next to no number.
    pub rest: Vec<u32>,
    /// Mines not yet known.
    pub mines_left: usize,
}

impl Frontier {
    /// Builds the structure, rejecting numbers no arrangement can satisfy
    /// locally (too many known mines, too few cells).
    pub fn build(pos: &Position) -> Result<Frontier, SolveError> {
        Frontier::build_with_safe(pos, &[])
    }

    /// As [`Frontier::build`], with the hidden cells marked in `safe` known
    /// to hold no mine (proven by deduction but not revealed): they leave
    /// every constraint and the rest. An empty `safe` marks none.
    pub fn build_with_safe(pos: &Position, safe: &[bool]) -> Result<Frontier, SolveError> {
        let grid = pos.grid();
        let is_safe = |i: usize| safe.get(i).copied().unwrap_or(false);
        let mut known = 0;
        let mut constraints: Vec<Constraint> = Vec::new();
        // Per frontier cell: the constraints it touches, ascending
        // (constraints are numbered in cell order); `slot` finds it.
        let mut slot = vec![u32::MAX; grid.len()];
        let mut signatures: Vec<Few> = Vec::new();
        let mut frontier_cells: Vec<u32> = Vec::new();
        for y in 0..grid.height() {
            for x in 0..grid.width() {
                let i = grid.index(x, y);
                let value = match pos.cell(i) {
                    Cell::Mine => {
                        known += 1;
                        continue;
                    }
                    Cell::Hidden => continue,
                    Cell::Number(v) => v,
                };
                let (mut hidden, mut mines) = (Few::default(), 0usize);
                grid.for_neighbours(x, y, |n| match pos.cell(n) {
                    Cell::Hidden if !is_safe(n) => hidden.push(n as u32),
                    Cell::Mine => mines += 1,
                    Cell::Hidden | Cell::Number(_) => {}
                });
                if mines > value as usize {
                    return Err(SolveError::TooManyKnown {
                        x,
                        y,
                        value,
                        known: mines,
                    });
                }
                if value as usize > hidden.len() + mines {
                    return Err(SolveError::TooFewCells {
                        x,
                        y,
                        value,
                        room: hidden.len() + mines,
                    });
                }
                if hidden.is_empty() {
                    continue;
                }
                let j = constraints.len() as u32;
                for &h in hidden.iter() {
                    if slot[h as usize] == u32::MAX {
                        slot[h as usize] = signatures.len() as u32;
                        signatures.push(Few::default());
                        frontier_cells.push(h);
                    }
                    signatures[slot[h as usize] as usize].push(j);
                }
                constraints.push(Constraint {
                    cell: i as u32,
                    need: value - mines as u8,
                    groups: Few::default(),
                    local: 0,
                });
            }
        }
        if known > pos.mines() {
            return Err(SolveError::TooManyFlags {
                known,
                total: pos.mines(),
            });
        }
        frontier_cells.sort_unstable();
        let groups = Self::groups(&frontier_cells, &slot, &signatures, &mut constraints);
        let rest = (0..grid.len() as u32)
            .filter(|&i| {
                slot[i as usize] == u32::MAX && pos.is_hidden(i as usize) && !is_safe(i as usize)
            })
            .collect();
        let mut f = Frontier {
            groups,
            constraints,
            components: Vec::new(),
            rest,
            mines_left: pos.mines() - known,
        };
        f.components = f.find_components();
        Ok(f)
    }

    /// Groups frontier cells by the set of constraints they touch. A group
    /// with signature S is found among the groups of S's first constraint,
    /// so no hashing is needed.
    fn groups(
        cells: &[u32],
        slot: &[u32],
        signatures: &[Few],
        constraints: &mut [Constraint],
    ) -> Vec<Group> {
        let mut groups: Vec<Group> = Vec::new();
        for &i in cells {
            let sig = signatures[slot[i as usize] as usize];
            let first = &constraints[sig[0] as usize];
            match first
                .groups
                .iter()
                .find(|&&g| groups[g as usize].constraints == sig)
            {
                Some(&g) => groups[g as usize].cells.push(i),
                None => {
                    let g = groups.len() as u32;
                    let mut cells = Few::default();
                    cells.push(i);
                    groups.push(Group {
                        cells,
                        constraints: sig,
                        local: 0,
                    });
                    for &j in sig.iter() {
                        constraints[j as usize].groups.push(g);
                    }
                }
            }
        }
        groups
    }

    /// Connected components of the group–constraint graph; sets the local
    /// indices.
    fn find_components(&mut self) -> Vec<Component> {
        let mut seen = vec![false; self.constraints.len()];
        let mut group_seen = vec![false; self.groups.len()];
        let mut out = Vec::new();
        let mut stack = Vec::new();
        for start in 0..self.constraints.len() {
            if seen[start] {
                continue;
            }
            let mut comp = Component::default();
            seen[start] = true;
            stack.push(start as u32);
            while let Some(j) = stack.pop() {
                comp.constraints.push(j);
                for &g in self.constraints[j as usize].groups.iter() {
                    if group_seen[g as usize] {
                        continue;
                    }
                    group_seen[g as usize] = true;
                    comp.groups.push(g);
                    for &k in self.groups[g as usize].constraints.iter() {
                        if !seen[k as usize] {
                            seen[k as usize] = true;
                            stack.push(k);
                        }
                    }
                }
            }
            comp.groups.sort_unstable();
            comp.constraints.sort_unstable();
            for (l, &g) in comp.groups.iter().enumerate() {
                self.groups[g as usize].local = l as u32;
            }
            for (l, &j) in comp.constraints.iter().enumerate() {
                self.constraints[j as usize].local = l as u32;
            }
            out.push(comp);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mine_count_message_says_which_way_the_total_is_wrong() {
        let too_few = mine_count_message(3, 5, 1, 0);
        assert!(too_few.contains("need at least 3 mines"), "{too_few}");
        assert!(too_few.contains("only 1 mine left"), "{too_few}");
        let too_many = mine_count_message(0, 2, 4, 1);
        assert!(too_many.contains("4 mines left"), "{too_many}");
        assert!(
            too_many.contains("at most 2 and only 1 other hidden cell remain"),
            "{too_many}"
        );
        // Counts 1 and 4 allowed, 2 left, no other cell: inside the range, in a gap.
        let gap = mine_count_message(1, 4, 2, 0);
        assert!(gap.contains("none of the counts"), "{gap}");
        assert!(gap.contains("between 1 and 4"), "{gap}");
    }

    fn frontier(text: &str) -> Result<Frontier, SolveError> {
        Frontier::build(&Position::parse(text).unwrap())
    }

    #[test]
    fn groups_merge_cells_with_the_same_numbers() {
        // The 1 at (0,1) and the 1 at (1,1) share (0,2),(1,2); (2,2) only
        // touches (1,1); (3,*) touch nothing.
        let f = frontier("4 3 2\n....\n11..\n....\n").unwrap();
        // Top row: (0,0),(1,0) touch both 1s, (2,0) only the second.
        assert_eq!(f.constraints.len(), 2);
        assert_eq!(f.groups.len(), 2);
        let sizes: Vec<usize> = f.groups.iter().map(|g| g.cells.len()).collect();
        assert_eq!(sizes, vec![4, 3]); // (0,0),(1,0),(0,2),(1,2) / (2,0),(2,1),(2,2)
        assert_eq!(f.components.len(), 1);
        assert_eq!(f.rest.len(), 3);
        assert_eq!(f.mines_left, 2);
    }

    #[test]
    fn local_contradictions_are_named() {
        assert_eq!(
            frontier("3 1 2\n.3.\n").unwrap_err(),
            SolveError::TooFewCells {
                x: 1,
                y: 0,
                value: 3,
                room: 2
            }
        );
        assert!(matches!(
            frontier("3 1 2\n*0.\n").unwrap_err(),
            SolveError::TooManyKnown { x: 1, y: 0, .. }
        ));
        let e = frontier("3 1 2\n.3.\n").unwrap_err().to_string();
        assert!(e.contains("the 3 at (1,0)"), "{e}");
    }

    #[test]
    fn separate_regions_are_separate_components() {
        let f = frontier("7 1 2\n.1...1.\n").unwrap();
        assert_eq!(f.components.len(), 2);
        assert_eq!(f.rest.len(), 1);
    }
}

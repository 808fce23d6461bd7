//! Timing the solver on a list of challenges, checking every answer against
//! the listed minimum.

use crate::challenges::Challenge;
use crate::solve::solve;
use arcade_core::stats::Tally;
use std::time::Instant;

/// A challenge whose solution length differs from the listed minimum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub number: u32,
    pub expected: u32,
    /// `None` when the solver found no solution.
    pub found: Option<u32>,
}

/// The outcome of [`bench()`].
#[derive(Clone, Debug)]
pub struct BenchReport {
    pub challenges: usize,
    /// Microseconds to solve the whole list, per pass (streamed: memory does
    /// not grow with the pass count).
    pub pass_micros: Tally,
    /// States reached over one pass.
    pub states_explored: u64,
    /// Total optimal moves over one pass.
    pub total_moves: u64,
    pub mismatches: Vec<Mismatch>,
}

/// Solves the whole list `passes` times on the calling thread.
pub fn bench(list: &[Challenge], passes: u64) -> BenchReport {
    let mut pass_micros = Tally::new();
    let (mut states, mut total_moves, mut mismatches) = (0, 0, Vec::new());
    for pass in 0..passes {
        let start = Instant::now();
        let outcomes: Vec<_> = list.iter().map(|c| solve(&c.position)).collect();
        pass_micros.push(u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX));
        if pass == 0 {
            for (c, out) in list.iter().zip(&outcomes) {
                states += out.states_explored as u64;
                let found = out.solution.as_ref().map(|m| m.len() as u32);
                total_moves += u64::from(found.unwrap_or(0));
                if found != Some(c.minimum) {
                    mismatches.push(Mismatch {
                        number: c.number,
                        expected: c.minimum,
                        found,
                    });
                }
            }
        }
    }
    BenchReport {
        challenges: list.len(),
        pass_micros,
        states_explored: states,
        total_moves,
        mismatches,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::challenges::parse_challenges;

    #[test]
    fn reports_wrong_minimums() {
        // Challenge 1 needs 2 moves; the second line claims 3.
        let list = parse_challenges("C32M102031 1 2\nC32M102031 2 3\n").unwrap();
        let r = bench(&list, 2);
        assert_eq!(r.pass_micros.n, 2);
        assert_eq!(r.total_moves, 4);
        assert_eq!(
            r.mismatches,
            vec![Mismatch {
                number: 2,
                expected: 3,
                found: Some(2)
            }]
        );
    }
}

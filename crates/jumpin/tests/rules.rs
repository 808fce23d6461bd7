//! The bitboard engine against the grid reference on random positions: the
//! same moves, the same shortest solution lengths, on both kinds of marks.

use crate::common::naive::Grid;
use crate::common::position;
use arcade_jumpin::rules::Layout;
use arcade_jumpin::solve::{describe, solve, solve_hashed};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_engine_generates_exactly_the_reference_moves(p in position(14)) {
        let (layout, s) = Layout::split(&p);
        let mut fast = Vec::new();
        layout.for_each_move(s, |m, next| {
            fast.push((format!("{:?}", describe(&layout, s, m)), Grid::from_position(&layout.position(next)).to_string()));
        });
        let mut naive: Vec<(String, String)> = Grid::from_position(&p)
            .moves()
            .into_iter()
            .map(|(step, g)| (format!("{step:?}"), g.to_string()))
            .collect();
        fast.sort();
        naive.sort();
        prop_assert_eq!(fast, naive);
    }

    #[test]
    fn shortest_solutions_match_a_plain_grid_bfs(p in position(7)) {
        let out = solve(&p);
        let naive = Grid::from_position(&p).shortest();
        prop_assert_eq!(out.solution.as_ref().map(Vec::len), naive);
        let hashed = solve_hashed(&p);
        prop_assert_eq!(out.solution, hashed.solution);
        prop_assert_eq!(out.states_explored, hashed.states_explored);
    }
}

//! The 60 official challenges solve to exactly their official minimum, and
//! each solution replays, under an independent grid implementation of the
//! rules, to a position with every rabbit in a hole.

use crate::common::naive;
use arcade_jumpin::solve::{replay, solve};

use arcade_jumpin::challenges::official;

#[test]
fn all_60_official_challenges_solve_to_their_official_minimum() {
    let list = official();
    assert_eq!(list.len(), 60);
    for c in &list {
        let out = solve(&c.position);
        let moves = out
            .solution
            .unwrap_or_else(|| panic!("challenge {} has no solution", c.number));
        assert_eq!(
            moves.len() as u32,
            c.minimum,
            "challenge {} ({})",
            c.number,
            c.code
        );
        let steps = replay(&c.position, &moves).expect("the solver's moves are legal");
        let mut board = naive::Grid::from_position(&c.position);
        for (step, after) in &steps {
            board = board
                .play(step)
                .unwrap_or_else(|| panic!("challenge {}: illegal {step:?}", c.number));
            assert_eq!(
                board.to_string(),
                naive::Grid::from_position(after).to_string()
            );
        }
        assert!(board.solved(), "challenge {} does not end solved", c.number);
    }
}

#[test]
fn the_hardest_official_challenge_needs_87_moves() {
    let list = official();
    let hardest = list.iter().max_by_key(|c| c.minimum).unwrap();
    assert_eq!((hardest.number, hardest.minimum), (60, 87));
    let moves = solve(&hardest.position).solution.unwrap();
    assert_eq!(moves.len(), 87);
}

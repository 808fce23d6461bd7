//! The property both Jump In' targets check on an accepted position.

use arcade_jumpin::{Position, parse_board, parse_code, solve};

/// Most pieces (rabbits + foxes) a position may have for the target to
/// solve it: the official challenges have at most 3 rabbits and 2 foxes,
/// which the solver does in milliseconds.
const SOLVE_RABBITS: u32 = 3;
const SOLVE_FOXES: usize = 2;

pub fn check(position: &Position) {
    let board = position.to_string();
    // Foxes side by side print as H and V, so every board reads back.
    match parse_board(&board) {
        Ok(from_board) => assert_eq!(&from_board, position, "board round trip"),
        Err(e) => panic!("printed board {board:?} does not parse: {e}"),
    }
    match position.to_code() {
        Some(code) => {
            let from_code =
                parse_code(&code).unwrap_or_else(|e| panic!("code {code:?} does not parse: {e}"));
            assert_eq!(&from_code, position, "code round trip ({code})");
        }
        None => assert!(
            position.rabbits().count_ones() > 4,
            "only positions with more than four rabbits have no code"
        ),
    }
    if position.rabbits().count_ones() > SOLVE_RABBITS || position.foxes().len() > SOLVE_FOXES {
        return;
    }
    let outcome = solve(position);
    assert!(outcome.states_explored >= 1, "the start is a state");
    let hashed = arcade_jumpin::solve::solve_hashed(position);
    assert_eq!(
        hashed.solution.as_ref().map(Vec::len),
        outcome.solution.as_ref().map(Vec::len),
        "the dense and the hashed search disagree on the optimum"
    );
    if let Some(moves) = outcome.solution {
        let steps =
            arcade_jumpin::solve::replay(position, &moves).expect("the solver's moves are legal");
        let end = steps.last().map_or(position, |(_, p)| p);
        assert!(end.is_solved(), "the solution ends solved");
        assert_eq!(
            moves.is_empty(),
            position.is_solved(),
            "no moves iff already solved"
        );
    }
}

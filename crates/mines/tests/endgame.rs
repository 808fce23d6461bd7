//! The endgame search against a naive game tree over whole positions: the win
//! probability of the best move must be the same, and the move it picks must
//! achieve it.

use crate::common::random_position;
use arcade_mines::endgame::best_move;
use arcade_mines::reference::brute_force;
use arcade_mines::{Cell, Position};
use proptest::prelude::*;
use std::collections::HashMap;

/// Probability of winning from `pos` with perfect play: won once a single
/// arrangement remains; otherwise the best reveal, averaged over the numbers
/// it may show.
fn naive_win(pos: &Position, memo: &mut HashMap<String, f64>) -> f64 {
    let key = pos.to_text();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let brute = brute_force(pos);
    let value = if brute.total <= 1 {
        1.0
    } else {
        (0..pos.grid().len())
            .filter(|&c| pos.is_hidden(c))
            .map(|c| naive_reveal(pos, c, memo))
            .fold(0.0, f64::max)
    };
    memo.insert(key, value);
    value
}

/// Win probability after revealing `c` and playing perfectly.
fn naive_reveal(pos: &Position, c: usize, memo: &mut HashMap<String, f64>) -> f64 {
    let brute = brute_force(pos);
    let mut total = 0.0;
    for (v, &k) in brute.number_counts[c].iter().enumerate() {
        if k > 0 {
            let mut next = pos.clone();
            next.set(c, Cell::Number(v as u8));
            total += k as f64 * naive_win(&next, memo);
        }
    }
    total / brute.total as f64
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn endgame_search_matches_the_naive_game_tree(seed in any::<u64>()) {
        let pos = random_position(seed, 9, true);
        let brute = brute_force(&pos);
        prop_assume!(brute.total > 1);
        let mut memo = HashMap::new();
        let hidden: Vec<usize> = (0..pos.grid().len()).filter(|&c| pos.is_hidden(c)).collect();
        let any_safe = hidden.iter().any(|&c| brute.mine_counts[c] == 0);
        match best_move(&pos, 10_000, 1_000_000) {
            None => prop_assert!(any_safe, "no move without a safe cell\n{}", pos.to_text()),
            Some(m) => {
                prop_assert!(!any_safe);
                let best = naive_win(&pos, &mut memo);
                prop_assert!((m.win_probability - best).abs() < 1e-9,
                    "search {} naive {}\n{}", m.win_probability, best, pos.to_text());
                let chosen = naive_reveal(&pos, m.cell, &mut memo);
                prop_assert!((chosen - best).abs() < 1e-9, "the chosen move wins {} of {}", chosen, best);
            }
        }
    }
}

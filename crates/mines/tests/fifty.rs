//! Forced 50/50s against brute force on random small positions: every cell
//! the detector calls forced is a mine with probability ½, and stays so
//! whatever any cell outside the 50/50 would show if revealed.

use crate::common::random_position;
use arcade_mines::fifty::{Forced, forced_guess};
use arcade_mines::reference::brute_force;
use arcade_mines::{Cell, Position, analyze};

/// Checks a detection; panics with the position when it is wrong.
fn check(pos: &Position, forced: &Forced) {
    let brute = brute_force(pos);
    for &c in &forced.cells {
        assert_eq!(brute.probability(c), Some(0.5), "{c}\n{}", pos.to_text());
    }
    let c = forced.guess();
    let outside = |d: &usize| pos.is_hidden(*d) && !forced.cells.contains(d);
    for d in (0..pos.grid().len()).filter(outside) {
        for (v, &k) in brute.number_counts[d].iter().enumerate() {
            if k == 0 {
                continue;
            }
            let mut next = pos.clone();
            next.set(d, Cell::Number(v as u8));
            assert_eq!(
                brute_force(&next).probability(c),
                Some(0.5),
                "revealing {d} as {v} tells {c} apart:\n{}",
                pos.to_text()
            );
        }
    }
}

#[test]
fn forced_cells_stay_coin_flips_whatever_is_revealed() {
    let mut found = 0;
    for seed in 0..40_000 {
        let pos = random_position(seed, 10, true);
        let Ok(analysis) = analyze(&pos) else {
            continue;
        };
        if let Some(forced) = forced_guess(&pos, &analysis).unwrap() {
            check(&pos, &forced);
            found += 1;
        }
    }
    // The check above must have had something to check.
    assert!(
        found >= 1000,
        "only {found} forced 50/50s in 40,000 positions"
    );
}

//! The exact probability engine against brute-force enumeration on random
//! small positions: every probability, the certain cells, the number of
//! arrangements, and contradictions exactly when no arrangement exists.

use crate::common::random_position;
use arcade_mines::reference::brute_force;
use arcade_mines::{Cell, Position, analyze, outcomes};
use proptest::prelude::*;

fn check(pos: &Position) -> Result<(), TestCaseError> {
    let brute = brute_force(pos);
    match analyze(pos) {
        Err(e) => prop_assert_eq!(
            brute.total,
            0,
            "engine says {} but brute force found arrangements:\n{}",
            e,
            pos.to_text()
        ),
        Ok(a) => {
            prop_assert!(
                brute.total > 0,
                "engine found arrangements where there are none:\n{}",
                pos.to_text()
            );
            prop_assert!(
                (a.ln_arrangements() - (brute.total as f64).ln()).abs() < 1e-9,
                "ln count {} vs {}\n{}",
                a.ln_arrangements(),
                (brute.total as f64).ln(),
                pos.to_text()
            );
            for i in 0..pos.grid().len() {
                let expected = pos.is_hidden(i).then(|| brute.probability(i).unwrap());
                match (a.probability(i), expected) {
                    (None, None) => {}
                    (Some(p), Some(q)) => prop_assert!(
                        (p - q).abs() < 1e-9,
                        "cell {:?}: engine {} brute {}\n{}",
                        pos.grid().coords(i),
                        p,
                        q,
                        pos.to_text()
                    ),
                    (p, q) => prop_assert!(false, "cell {i}: {p:?} vs {q:?}"),
                }
                let count = brute.mine_counts[i];
                let hidden = pos.is_hidden(i);
                prop_assert_eq!(a.safe().contains(&i), hidden && count == 0);
                prop_assert_eq!(a.mines().contains(&i), hidden && count == brute.total);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn probabilities_equal_brute_force(seed in any::<u64>()) {
        check(&random_position(seed, 14, false))?;
    }
}

#[test]
fn probabilities_equal_brute_force_on_wide_frontiers() {
    // Larger hidden sets, fewer cases.
    for seed in 0..60 {
        check(&random_position(seed ^ 0xABCD, 20, false)).unwrap();
    }
}

/// The number a cell would show: distribution (given safe) equal to brute
/// force, and each resulting analysis equal to analysing that position anew.
fn check_outcomes(pos: &Position) -> Result<(), TestCaseError> {
    let brute = brute_force(pos);
    if brute.total == 0 {
        return Ok(());
    }
    for cell in (0..pos.grid().len()).filter(|&c| pos.is_hidden(c)) {
        let counts = brute.number_counts[cell];
        let safe: u64 = counts.iter().sum();
        let outs = outcomes(pos, cell).unwrap();
        prop_assert_eq!(outs.is_empty(), safe == 0);
        let listed: Vec<u8> = outs.iter().map(|o| o.value).collect();
        let expected: Vec<u8> = (0..9u8).filter(|&v| counts[v as usize] > 0).collect();
        prop_assert_eq!(
            listed,
            expected,
            "values of {:?}\n{}",
            pos.grid().coords(cell),
            pos.to_text()
        );
        for o in &outs {
            let q = counts[o.value as usize] as f64 / safe as f64;
            prop_assert!(
                (o.probability - q).abs() < 1e-9,
                "P({}) {} vs {}",
                o.value,
                o.probability,
                q
            );
            let mut next = pos.clone();
            next.set(cell, Cell::Number(o.value));
            let fresh = analyze(&next).unwrap();
            for i in 0..pos.grid().len() {
                match (o.analysis.probability(i), fresh.probability(i)) {
                    (Some(a), Some(b)) => prop_assert!((a - b).abs() < 1e-12),
                    (a, b) => prop_assert_eq!(a, b),
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn outcomes_equal_brute_force(seed in any::<u64>()) {
        check_outcomes(&random_position(seed, 12, true))?;
    }
}

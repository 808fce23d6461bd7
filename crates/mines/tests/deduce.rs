//! The local deductions are sound (brute force agrees with every safe cell and
//! mine they find) and complete for their rules: at the end no number, alone
//! or paired with any other, implies anything new (checked by a naive
//! all-pairs pass).

use crate::common::random_position;
use arcade_mines::deduce::deduce;
use arcade_mines::reference::brute_force;
use arcade_mines::{Cell, Position};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// Unknown neighbours and missing mines of every number, with `safe` cells
/// treated as known.
fn locals(pos: &Position, safe: &BTreeSet<usize>) -> Vec<(BTreeSet<usize>, i32)> {
    let g = pos.grid();
    (0..g.len())
        .filter_map(|i| match pos.cell(i) {
            Cell::Number(v) => {
                let hidden: BTreeSet<usize> = g
                    .neighbours(i)
                    .filter(|&n| pos.is_hidden(n) && !safe.contains(&n))
                    .collect();
                let mines = g
                    .neighbours(i)
                    .filter(|&n| pos.cell(n) == Cell::Mine)
                    .count();
                Some((hidden, i32::from(v) - mines as i32))
            }
            _ => None,
        })
        .filter(|(h, _)| !h.is_empty())
        .collect()
}

/// True if some rule still applies.
fn naive_rule_applies(pos: &Position, safe: &BTreeSet<usize>) -> bool {
    let ls = locals(pos, safe);
    for (h, r) in &ls {
        if *r == 0 || *r as usize == h.len() {
            return true;
        }
    }
    for (ha, ra) in &ls {
        for (hb, rb) in &ls {
            let shared = ha.intersection(hb).count() as i32;
            if shared == 0 || ha == hb {
                continue;
            }
            let a_only = ha.len() as i32 - shared;
            let b_only = hb.len() as i32 - shared;
            let lo = (ra - a_only).max(0);
            let hi = (*ra).min(shared);
            if b_only > 0 && (rb - lo == 0 || rb - hi == b_only) {
                return true;
            }
        }
    }
    false
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn deductions_are_sound_and_reach_a_fixpoint(seed in any::<u64>()) {
        let pos = random_position(seed, 16, true);
        let brute = brute_force(&pos);
        prop_assume!(brute.total > 0);
        let mut after = pos.clone();
        let mut safe = Vec::new();
        deduce(&mut after, None, &mut safe);
        for &s in &safe {
            prop_assert!(pos.is_hidden(s));
            prop_assert_eq!(brute.mine_counts[s], 0, "{:?} is not safe\n{}", pos.grid().coords(s), pos.to_text());
        }
        for i in 0..pos.grid().len() {
            if pos.is_hidden(i) && after.cell(i) == Cell::Mine {
                prop_assert_eq!(brute.mine_counts[i], brute.total, "{:?} is not a mine\n{}", pos.grid().coords(i), pos.to_text());
            }
        }
        let safe: BTreeSet<usize> = safe.into_iter().collect();
        prop_assert!(!naive_rule_applies(&after, &safe), "deduction stopped early\n{}", after.to_text());
    }
}

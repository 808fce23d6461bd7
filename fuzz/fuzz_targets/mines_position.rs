//! `arcade mines analyze FILE`: a Minesweeper position.
//! Property: every hidden cell gets a probability in [0, 1]; the cells called
//! safe or mines have exactly 0 or 1; the probabilities of the hidden cells
//! sum to the mines left (1e-6); revealed cells have none. With at most 16
//! hidden cells the analysis must agree with brute-force enumeration, both
//! on whether the position is consistent and on every probability (1e-9).
#![no_main]

use arcade_mines::reference::brute_force;
use arcade_mines::{Position, SolveError, analyze};
use libfuzzer_sys::fuzz_target;

/// Bigger inputs make each run slow without reaching new parser code.
const MAX_INPUT: usize = 4096;
/// Brute force enumerates 2^hidden subsets.
const BRUTE_HIDDEN: usize = 16;

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let Some(text) = arcade_fuzz::text(data) else {
        return;
    };
    let Ok(pos) = Position::parse(text) else {
        return;
    };
    let again = Position::parse(&pos.to_text()).expect("the printed position parses");
    assert_eq!(again, pos, "to_text/parse round trip");
    let hidden = pos.hidden();
    let brute = (hidden <= BRUTE_HIDDEN).then(|| brute_force(&pos));
    let analysis = match analyze(&pos) {
        Ok(a) => a,
        Err(SolveError::TooComplex { .. }) => return,
        Err(e) => {
            if let Some(b) = &brute {
                assert_eq!(
                    b.total, 0,
                    "analyze says {e}, brute force finds {} arrangements",
                    b.total
                );
            }
            return;
        }
    };
    if let Some(b) = &brute {
        assert!(
            b.total > 0,
            "analyze accepts a position brute force finds no arrangement for"
        );
    }
    let left = (pos.mines() - pos.known_mines()) as f64;
    let mut sum = 0.0;
    let mut seen = 0;
    for i in 0..pos.grid().len() {
        let p = analysis.probability(i);
        if !pos.is_hidden(i) {
            assert!(
                p.is_none(),
                "cell {i} is not hidden but has probability {p:?}"
            );
            continue;
        }
        let p = p.unwrap_or_else(|| panic!("hidden cell {i} has no probability"));
        assert!(
            (0.0..=1.0).contains(&p),
            "cell {i}: probability {p} outside [0, 1]"
        );
        if let Some(b) = &brute {
            let exact = b.probability(i).expect("arrangements exist");
            assert!(
                (p - exact).abs() <= 1e-9,
                "cell {i}: {p} vs brute force {exact}"
            );
        }
        sum += p;
        seen += 1;
    }
    assert_eq!(seen, hidden, "every hidden cell has a probability");
    for &c in analysis.safe() {
        assert_eq!(analysis.probability(c), Some(0.0), "safe cell {c}");
    }
    for &c in analysis.mines() {
        assert_eq!(analysis.probability(c), Some(1.0), "certain mine {c}");
    }
    assert!(
        (sum - left).abs() <= 1e-6 * left.max(1.0),
        "probabilities sum to {sum}, mines left {left}"
    );
});

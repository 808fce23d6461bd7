//! The symmetry-reduced retrograde search against brute force: every position
//! of a small piece set built one by one and solved forward.

use arcade_core::progress::Progress;
use arcade_jumpin::hardest::{Counts, PieceSet, hardest};
use arcade_jumpin::index::subsets;
use arcade_jumpin::{Axis, Fox, Position, solve};

/// Every fox placement on the board (40 of them).
fn all_foxes() -> Vec<Fox> {
    let mut out = Vec::new();
    for axis in [Axis::Horizontal, Axis::Vertical] {
        for line in 0..5 {
            for offset in 0..4 {
                out.push(Fox { axis, line, offset });
            }
        }
    }
    out
}

/// Every set of `f` non-overlapping foxes, once each.
fn fox_sets(
    f: usize,
    from: usize,
    taken: u32,
    all: &[Fox],
    current: &mut Vec<Fox>,
    out: &mut Vec<Vec<Fox>>,
) {
    if current.len() == f {
        out.push(current.clone());
        return;
    }
    for i in from..all.len() {
        if all[i].mask() & taken == 0 {
            current.push(all[i]);
            fox_sets(f, i + 1, taken | all[i].mask(), all, current, out);
            current.pop();
        }
    }
}

/// Histogram and the longest optimal solution by solving every position.
fn brute_force(pieces: PieceSet) -> (Counts, u32) {
    let mut sets = Vec::new();
    fox_sets(pieces.foxes, 0, 0, &all_foxes(), &mut Vec::new(), &mut sets);
    let mut counts = Counts::default();
    let mut max = 0;
    for mushrooms in subsets((1 << 25) - 1, pieces.mushrooms) {
        for foxes in &sets {
            let taken = foxes.iter().fold(mushrooms, |m, f| m | f.mask());
            if foxes.iter().any(|f| f.mask() & mushrooms != 0) {
                continue;
            }
            for rabbits in subsets(((1 << 25) - 1) & !taken, pieces.rabbits) {
                let p = Position::new(rabbits, mushrooms, foxes.clone()).unwrap();
                counts.positions += 1;
                if let Some(moves) = solve(&p).solution {
                    let d = moves.len();
                    if counts.histogram.len() <= d {
                        counts.histogram.resize(d + 1, 0);
                    }
                    counts.histogram[d] += 1;
                    max = max.max(d as u32);
                }
            }
        }
    }
    (counts, max)
}

fn check(pieces: PieceSet) {
    let report = hardest(pieces, 4, &Progress::hidden());
    let (counts, max) = brute_force(pieces);
    assert_eq!(report.counts, counts, "{pieces:?}");
    assert_eq!(report.max_moves(), Some(max), "{pieces:?}");
    for r in &report.hardest {
        let n = solve(&r.position).solution.unwrap().len() as u32;
        assert_eq!(n, r.moves);
        assert_eq!(r.position, r.position.canonical());
    }
    let distinct = report.hardest.len();
    let mut keys: Vec<u128> = report.hardest.iter().map(|r| r.position.key()).collect();
    keys.dedup();
    assert_eq!(keys.len(), distinct, "each hardest position once");
    assert!(report.hardest.windows(2).all(|w| w[0].moves >= w[1].moves));
}

#[test]
fn one_rabbit_one_fox_one_mushroom_matches_brute_force() {
    check(PieceSet {
        rabbits: 1,
        foxes: 1,
        mushrooms: 1,
    });
}

#[test]
fn two_rabbits_one_fox_one_mushroom_matches_brute_force() {
    check(PieceSet {
        rabbits: 2,
        foxes: 1,
        mushrooms: 1,
    });
}

#[test]
fn two_rabbits_two_mushrooms_matches_brute_force() {
    check(PieceSet {
        rabbits: 2,
        foxes: 0,
        mushrooms: 2,
    });
}

#[test]
fn two_foxes_sharing_lines_are_counted_once() {
    check(PieceSet {
        rabbits: 1,
        foxes: 2,
        mushrooms: 1,
    });
}

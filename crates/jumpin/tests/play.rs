//! A person's game: hints reach the optimum, moves agree with the rules.

use arcade_jumpin::challenges::official;
use arcade_jumpin::play::JumpinGame;

/// Following the hints solves each challenge in its official minimum, and
/// the hint's count of moves left goes down by one each time.
#[test]
fn hints_solve_challenges_in_the_official_minimum() {
    for c in official().iter() {
        let mut g = JumpinGame::new(&c.position);
        assert_eq!(
            g.view().optimal,
            Some(c.minimum as usize),
            "challenge {}",
            c.number
        );
        let mut left = c.minimum as usize;
        while !g.is_solved() {
            let hint = g.hint();
            assert_eq!(hint.moves_left, Some(left), "challenge {}", c.number);
            let next = hint.next.unwrap();
            g.play(next.step.from, next.target).unwrap();
            left -= 1;
        }
        assert_eq!(left, 0);
        assert_eq!(g.view().moves, c.minimum as usize);
        assert_eq!(g.hint().moves_left, Some(0));
    }
}

/// Every legal move listed for every piece plays, and a move's target is a
/// cell the piece occupies afterwards.
#[test]
fn listed_moves_play_and_land_on_their_target() {
    for c in official().iter().take(10) {
        let g = JumpinGame::new(&c.position);
        let view = g.view();
        let pieces: Vec<[u8; 2]> = view
            .rabbits
            .iter()
            .copied()
            .chain(view.foxes.iter().map(|f| f[0]))
            .collect();
        for [x, y] in pieces {
            for m in g.legal_moves(x, y).unwrap() {
                let mut h = g.clone();
                h.play([x, y], m.target).unwrap();
                let after = h.view();
                let occupied = after.rabbits.contains(&m.target)
                    || after.foxes.iter().any(|f| f.contains(&m.target));
                assert!(occupied, "challenge {}: {m:?}", c.number);
                h.undo();
                assert_eq!(h.position(), c.position);
            }
        }
    }
}

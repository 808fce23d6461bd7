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

/// `hint_along` reuses its solution while play follows it and searches
/// again after a detour: at every step its count of moves left is the fresh
/// search's, and its move brings that count down by one. Play follows the
/// hint two moves in three and takes another legal move the third.
#[test]
fn hints_along_a_solution_stay_shortest_through_detours() {
    let (mut checked, mut detours) = (0, 0);
    for c in official().iter().step_by(3) {
        let mut g = JumpinGame::new(&c.position);
        for t in 0..40 {
            if g.is_solved() {
                break;
            }
            let along = g.hint_along();
            let fresh = g.hint();
            assert_eq!(
                along.moves_left, fresh.moves_left,
                "challenge {} step {t}",
                c.number
            );
            let left = along.moves_left.unwrap();
            let next = along.next.unwrap();
            let mut h = g.clone();
            h.play(next.step.from, next.target).unwrap();
            assert_eq!(
                h.hint().moves_left,
                Some(left - 1),
                "challenge {} step {t}",
                c.number
            );
            checked += 1;
            if t % 3 == 2 {
                let view = g.view();
                let pieces = view
                    .rabbits
                    .iter()
                    .copied()
                    .chain(view.foxes.iter().map(|f| f[0]));
                let detour = pieces
                    .flat_map(|p| {
                        g.legal_moves(p[0], p[1])
                            .unwrap()
                            .into_iter()
                            .map(move |m| (p, m))
                    })
                    .find(|&(_, m)| m != next);
                if let Some((from, m)) = detour {
                    g.play(from, m.target).unwrap();
                    detours += 1;
                    continue;
                }
            }
            g.play(next.step.from, next.target).unwrap();
        }
    }
    assert!(
        checked >= 300 && detours >= 80,
        "{checked} checked, {detours} detours"
    );
}

//! The real level captured from the game: it loads, the exact solver clears
//! it, and the independent replay accepts the clicks.

use arcade_tiles::exact::{Limits, Verdict, solve};
use arcade_tiles::{Board, load_level, play_greedy, replay};

use arcade_tiles::capture::LEVEL_90031;

#[test]
fn the_capture_loads_with_its_side_piles() {
    let text = LEVEL_90031;
    let level = load_level(text, None).unwrap();
    assert_eq!(level.len(), 255);
    assert_eq!(level.kinds(), 14);
    assert_eq!(level.uneven_kind(), None);
    assert_eq!(level.capacity(), 7);
    // Each side pile shows only its top block; 34 tiles are free at the start.
    let board = Board::new(&level);
    assert_eq!(board.free().count(), 34);
    let piles: Vec<usize> = (0..level.len())
        .filter(|&i| level.tiles()[i].rect.y == 64)
        .collect();
    assert_eq!(piles.len(), 21);
    assert_eq!(piles.iter().filter(|&&i| board.is_free(i)).count(), 2);
}

#[test]
fn the_exact_solver_clears_it_and_the_replay_agrees() {
    let text = LEVEL_90031;
    let level = load_level(text, None).unwrap();
    let out = solve(&level, &Limits::seconds(60.0));
    let Verdict::Solved(clicks) = out.verdict else {
        panic!("expected a solution, got {:?}", out.verdict);
    };
    assert_eq!(clicks.len(), 255);
    assert!(replay(&level, &clicks).won());
    // The usual greedy player does not clear it.
    let greedy = play_greedy(&level);
    assert!(!greedy.won);
    assert!(!replay(&level, &greedy.clicks).won());
}

//! A person's game: the verdict after each click against brute force, wins
//! by hints, and a bad click on a hard level proved lost.

use arcade_core::Rng;
use arcade_tiles::board::{Board, Click};
use arcade_tiles::generate::construct;
use arcade_tiles::layout::Classic;
use arcade_tiles::level::{Level, Rect, Tile};
use arcade_tiles::play::{TilesGame, TilesStatus};
use arcade_tiles::{Limits, solve_from};

/// Whether `board` can still be cleared, by trying every click sequence.
fn winnable_naive(board: &mut Board) -> bool {
    if board.is_won() {
        return true;
    }
    let free: Vec<usize> = board.free().iter().collect();
    for t in free {
        let click = board.take(t);
        let won = click != Click::Overflow && winnable_naive(board);
        board.undo(t);
        if won {
            return true;
        }
    }
    false
}

/// A small random stacked level: `triples` triples of 3 kinds over a few
/// overlapping columns, tray of `capacity`.
fn small_level(seed: u64, triples: usize, capacity: usize) -> Level {
    let mut rng = Rng::new(seed);
    let mut kinds: Vec<u32> = (0..triples).flat_map(|k| [k as u32 % 3 + 1; 3]).collect();
    rng.shuffle(&mut kinds);
    let tiles = kinds
        .iter()
        .enumerate()
        .map(|(i, &kind)| Tile {
            kind,
            layer: i as i32,
            rect: Rect {
                x: 4 * rng.index(4) as i32,
                y: 4 * rng.index(2) as i32,
                w: 8,
                h: 8,
            },
        })
        .collect();
    Level::new(tiles, capacity).unwrap()
}

#[test]
fn the_verdict_after_each_click_matches_brute_force() {
    let limits = Limits::nodes(1_000_000);
    let mut lost_seen = 0;
    for seed in 0..60 {
        let level = small_level(seed, 3, 4);
        let mut game = TilesGame::new(level.clone());
        let mut rng = Rng::new(seed ^ 0xABC);
        while game.status() == TilesStatus::Playing {
            let mut board = Board::new(&level);
            for &c in game.clicks() {
                board.take(c);
            }
            let expected = winnable_naive(&mut board);
            let v = game.verdict(&limits);
            assert_eq!(
                v.verdict == "winnable",
                expected,
                "seed {seed} after {:?}",
                game.clicks()
            );
            if !expected {
                assert_eq!(v.verdict, "lost");
                lost_seen += 1;
            }
            let free: Vec<usize> = game
                .view()
                .tiles
                .iter()
                .filter(|t| t.free)
                .map(|t| t.id)
                .collect();
            game.click(free[rng.index(free.len())]).unwrap();
        }
        if game.status() == TilesStatus::Lost {
            assert_eq!(game.verdict(&limits).proof.as_deref(), Some("tray-full"));
        }
    }
    assert!(lost_seen > 5, "{lost_seen}");
}

#[test]
fn following_the_hints_wins_a_constructed_level() {
    let g = construct(&Classic::new(16), 7, 0.5, 3).unwrap();
    let mut game = TilesGame::new(g.level);
    let limits = Limits::seconds(5.0);
    while game.status() == TilesStatus::Playing {
        let v = game.verdict(&limits);
        assert_eq!(v.verdict, "winnable");
        if game.clicks().len() % 40 == 20 {
            // The remembered line agrees with a fresh search.
            let mut fresh = TilesGame::new(game.level().clone());
            for &c in game.clicks() {
                fresh.click(c).unwrap();
            }
            let w = fresh.verdict(&limits);
            assert_eq!(w.verdict, "winnable");
            assert!(w.nodes > 0);
        }
        game.click(v.hint.unwrap()).unwrap();
    }
    assert_eq!(game.status(), TilesStatus::Won);
    assert_eq!(game.verdict(&limits).verdict, "won");
}

#[test]
fn solve_from_rejects_illegal_clicks() {
    let level = small_level(1, 3, 7);
    assert!(solve_from(&level, &[level.len()], &Limits::default()).is_none());
    let covered = (0..level.len())
        .find(|&i| !level.covered_by(i).is_empty())
        .unwrap();
    assert!(solve_from(&level, &[covered], &Limits::default()).is_none());
}

/// The browser test's hard level: difficulty 1 (tiles wait in the tray as
/// long as the construction allows), 12 layers, seed 0. After 38 clicks by
/// the hints, clicking tile 276 is proved lost at once.
#[test]
fn a_bad_click_on_a_hard_level_is_proved_lost() {
    let g = construct(&Classic::new(12), 7, 1.0, 0).unwrap();
    let mut game = TilesGame::new(g.level);
    let limits = Limits::seconds(5.0);
    for _ in 0..38 {
        let v = game.verdict(&limits);
        assert_eq!(v.verdict, "winnable");
        game.click(v.hint.unwrap()).unwrap();
    }
    assert_eq!(game.verdict(&limits).verdict, "winnable");
    game.click(276).unwrap();
    assert_eq!(game.status(), TilesStatus::Playing);
    let v = game.verdict(&limits);
    assert_eq!(
        (v.verdict.as_str(), v.proof.as_deref()),
        ("lost", Some("search"))
    );
    assert!(game.undo());
    assert_eq!(game.verdict(&limits).verdict, "winnable");
}

//! A person's game: flags, chords, the view, and play by hints.

use arcade_mines::human::{HumanGame, HumanStatus};
use arcade_mines::{Config, Level, Rule};

/// Plays by the hints until the game ends.
fn play_by_hints(g: &mut HumanGame) -> HumanStatus {
    let config = Config::fast();
    while let Some([x, y]) = g.hint(&config).unwrap() {
        g.reveal(x, y).unwrap();
    }
    g.status()
}

#[test]
fn following_the_hints_wins_most_beginner_games() {
    let won = (0..30)
        .filter(|&seed| {
            let mut g = HumanGame::new(Level::BEGINNER, Rule::Sfar, seed);
            play_by_hints(&mut g) == HumanStatus::Won
        })
        .count();
    assert!(won >= 24, "{won} of 30");
}

/// The browser test wins this game by clicking the hints.
#[test]
fn beginner_seed_1_is_won_by_hints() {
    let mut g = HumanGame::new(Level::BEGINNER, Rule::Sfar, 1);
    assert_eq!(play_by_hints(&mut g), HumanStatus::Won);
    let v = g.view();
    assert_eq!(v.safe_left, 0);
    assert_eq!(
        v.rows
            .iter()
            .flat_map(|r| r.chars())
            .filter(|&c| c == 'F')
            .count(),
        10
    );
}

#[test]
fn flags_block_reveals_and_count_down() {
    let mut g = HumanGame::new(Level::BEGINNER, Rule::Snr, 3);
    g.toggle_flag(0, 0).unwrap();
    assert_eq!(g.view().rows[0].as_bytes()[0], b'F');
    assert_eq!(g.view().mines_left, 9);
    assert_eq!(g.reveal(0, 0).unwrap(), HumanStatus::Ready);
    g.toggle_flag(0, 0).unwrap();
    assert_eq!(g.view().flags, 0);
    assert_eq!(g.reveal(4, 4).unwrap(), HumanStatus::Playing);
    // A revealed cell cannot be flagged.
    g.toggle_flag(4, 4).unwrap();
    assert_eq!(g.view().flags, 0);
}

/// Flags every certain mine next to a number, then chords it: the chord
/// reveals exactly the number's safe hidden neighbours.
#[test]
fn a_chord_with_correct_flags_reveals_the_rest() {
    let config = Config::fast();
    let mut chorded = 0;
    for seed in 0..10 {
        let mut g = HumanGame::new(Level::INTERMEDIATE, Rule::Snr, seed);
        g.reveal(3, 3).unwrap();
        let report = g.analyze(&config).unwrap();
        for &[x, y] in &report.mines_certain {
            g.toggle_flag(x, y).unwrap();
        }
        // A number all of whose hidden neighbours are certain (mine or safe).
        let rows = g.view().rows;
        let certain = |x: usize, y: usize| {
            report.mines_certain.contains(&[x, y]) || report.safe.contains(&[x, y])
        };
        let target = (0..16)
            .flat_map(|y| (0..16).map(move |x| (x, y)))
            .find(|&(x, y)| {
                let c = rows[y].as_bytes()[x];
                c.is_ascii_digit()
                    && c != b'0'
                    && neighbours(x, y).any(|(a, b)| rows[b].as_bytes()[a] == b'.')
                    && neighbours(x, y)
                        .filter(|&(a, b)| matches!(rows[b].as_bytes()[a], b'.' | b'F'))
                        .all(|(a, b)| certain(a, b))
            });
        let Some((x, y)) = target else { continue };
        let safe_before = g.view().safe_left;
        assert_eq!(g.chord(x, y).unwrap(), HumanStatus::Playing);
        assert!(g.view().safe_left < safe_before);
        chorded += 1;
    }
    assert!(chorded >= 5, "{chorded}");
}

fn neighbours(x: usize, y: usize) -> impl Iterator<Item = (usize, usize)> {
    (-1i64..=1)
        .flat_map(|dy| (-1i64..=1).map(move |dx| (dx, dy)))
        .filter(|&d| d != (0, 0))
        .map(move |(dx, dy)| (x as i64 + dx, y as i64 + dy))
        .filter(|&(a, b)| (0..16).contains(&a) && (0..16).contains(&b))
        .map(|(a, b)| (a as usize, b as usize))
}

#[test]
fn a_wrong_flag_chord_loses_and_the_view_shows_why() {
    // 3x1 board with the mine at (2,0): flag (0,0) wrongly, chord the 1.
    for seed in 0..50 {
        let mut g = HumanGame::new(Level::new(3, 1, 1).unwrap(), Rule::Sfar, seed);
        g.reveal(1, 0).unwrap();
        let row = g.view().rows[0].clone();
        if row != ".1." {
            continue;
        }
        g.toggle_flag(0, 0).unwrap();
        g.chord(1, 0).unwrap();
        let row = g.view().rows[0].clone();
        match g.status() {
            HumanStatus::Lost => assert_eq!(row, "x1!"),
            HumanStatus::Won => assert_eq!(row, "F10"),
            s => panic!("{s:?}"),
        }
    }
}

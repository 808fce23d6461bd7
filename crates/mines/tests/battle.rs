//! Two-player Minesweeper: the rules against a naive model on random games,
//! the `ev` score against brute-force enumeration, and whole matches.

use arcade_core::Rng;
use arcade_core::progress::Progress;
use arcade_core::runner::with_threads;
use arcade_mines::battle::ev::Search;
use arcade_mines::battle::{
    Ai, Battle, MatchConfig, Rules, Turn, play_game, play_game_until, run_match,
};
use arcade_mines::reference::brute_force;
use arcade_mines::{Cell, Grid, Level, Position, analyze};
use proptest::prelude::*;

/// The rules as plainly as they can be written: a cell is open or not, a
/// click on a mine scores and keeps the turn, a safe click opens the region
/// of zeros it belongs to (found by repeated sweeps) and passes the turn.
struct Naive {
    mine: Vec<bool>,
    open: Vec<bool>,
    taken: Vec<bool>,
    scores: [usize; 2],
    to_move: usize,
}

impl Naive {
    fn click(&mut self, grid: Grid, c: usize) {
        if self.mine[c] {
            self.taken[c] = true;
            self.scores[self.to_move] += 1;
            return;
        }
        self.open[c] = true;
        let around = |i: usize| grid.neighbours(i).filter(|&n| self.mine[n]).count();
        loop {
            let mut grew = false;
            for i in 0..grid.len() {
                if self.open[i] && around(i) == 0 {
                    for n in grid.neighbours(i) {
                        if !self.open[n] {
                            self.open[n] = true;
                            grew = true;
                        }
                    }
                }
            }
            if !grew {
                break;
            }
        }
        self.to_move = 1 - self.to_move;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn rules_match_the_naive_model(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let (w, h) = (2 + rng.index(6), 2 + rng.index(5));
        let grid = Grid::new(w, h).unwrap();
        let mines = 1 + rng.index(grid.len() / 2);
        let level = Level::new(w, h, mines).unwrap();
        let target = 1 + rng.index(mines);
        let rules = Rules::with_target(level, target).unwrap();
        let board = rules.board(seed);
        let mut battle = Battle::new(rules, board.clone());
        let mut naive = Naive {
            mine: (0..grid.len()).map(|i| board.is_mine(i)).collect(),
            open: vec![false; grid.len()],
            taken: vec![false; grid.len()],
            scores: [0, 0],
            to_move: 0,
        };
        while !battle.is_over() {
            let hidden: Vec<usize> = (0..grid.len()).filter(|&i| !naive.open[i] && !naive.taken[i]).collect();
            let c = hidden[rng.index(hidden.len())];
            let turn = battle.play(c).unwrap();
            prop_assert_eq!(turn == Turn::Captured, board.is_mine(c));
            naive.click(grid, c);
            prop_assert_eq!(battle.scores(), naive.scores);
            prop_assert_eq!(battle.to_move(), naive.to_move);
            for i in 0..grid.len() {
                let expected = if naive.taken[i] {
                    Cell::Mine
                } else if naive.open[i] {
                    Cell::Number(board.adjacent(i))
                } else {
                    Cell::Hidden
                };
                prop_assert_eq!(battle.view().cell(i), expected);
            }
        }
        let [a, b] = naive.scores;
        let winner = [a, b].iter().position(|&s| s >= target);
        prop_assert_eq!(battle.winner(), winner);
        prop_assert!(winner.is_some() || a + b == mines);
        prop_assert!(battle.play(0).is_err());
    }
}

/// `T` by brute force: certain mines plus the highest other probability.
fn naive_turn_value(pos: &Position) -> f64 {
    let b = brute_force(pos);
    let hidden = (0..pos.grid().len()).filter(|&i| pos.is_hidden(i));
    let (mut k, mut q) = (0.0, 0.0f64);
    for i in hidden {
        let p = b.probability(i).unwrap();
        if p == 1.0 {
            k += 1.0;
        } else {
            q = q.max(p);
        }
    }
    k + q
}

/// `score(c)` from the module docs of `ev`, by brute force.
fn naive_score(pos: &Position, c: usize, zero: f64) -> f64 {
    let b = brute_force(pos);
    let p = b.probability(c).unwrap();
    let mut score = 0.0;
    if p > 0.0 {
        let mut taken = pos.clone();
        taken.set(c, Cell::Mine);
        score += p * (1.0 + naive_turn_value(&taken));
    }
    let safe = b.total - b.mine_counts[c];
    for (v, &n) in b.number_counts[c].iter().enumerate() {
        if n == 0 {
            continue;
        }
        let mut next = pos.clone();
        next.set(c, Cell::Number(v as u8));
        let penalty = if v == 0 { zero } else { 0.0 };
        score -= (1.0 - p) * (n as f64 / safe as f64) * (naive_turn_value(&next) + penalty);
    }
    score
}

/// A position from partway through a battle on a small board.
fn battle_position(seed: u64) -> Position {
    let mut rng = Rng::new(seed);
    let (w, h) = (2 + rng.index(4), 2 + rng.index(3));
    let level = Level::new(w, h, 1 + rng.index(w * h / 2)).unwrap();
    let rules = Rules::new(level).unwrap();
    let mut battle = Battle::new(rules, rules.board(seed));
    let clicks = rng.index(w * h / 2 + 1);
    for _ in 0..clicks {
        if battle.is_over() {
            break;
        }
        let hidden: Vec<usize> = (0..w * h).filter(|&i| battle.view().is_hidden(i)).collect();
        battle.play(hidden[rng.index(hidden.len())]).unwrap();
    }
    battle.view().clone()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn ev_score_matches_brute_force(seed in any::<u64>()) {
        let pos = battle_position(seed);
        prop_assume!(pos.hidden() > 0 && pos.known_mines() < pos.mines());
        let a = analyze(&pos).unwrap();
        let search = Search::ev();
        for (c, p) in a.hidden() {
            prop_assume!(p.is_finite());
            let fast = search.score(&pos, &a, c).unwrap();
            let slow = naive_score(&pos, c, search.zero);
            prop_assert!((fast - slow).abs() < 1e-9, "cell {:?}: {} vs {}\n{}", pos.grid().coords(c), fast, slow, pos.to_text());
        }
    }
}

/// Every AI only clicks hidden cells, takes a certain mine when one is
/// shown, and every pairing finishes with a legal result.
#[test]
fn every_pairing_plays_legal_games() {
    let rules: Rules = "9x9/11".parse().unwrap();
    for a in Ai::ALL {
        for b in Ai::ALL {
            let mut clicks = 0;
            let r = play_game(rules, [a, b], 7, |battle, cell, _| {
                assert!(!battle.view().is_hidden(cell));
                clicks += 1;
            })
            .unwrap();
            assert_eq!(r.moves, clicks);
            assert!(r.scores[0] + r.scores[1] <= 11);
            let w = r.winner.expect("11 mines, target 6: no draw");
            assert_eq!(r.scores[w], 6, "{a} vs {b}: {r:?}");
            assert_eq!(play_game(rules, [a, b], 7, |_, _, _| {}).unwrap(), r);
        }
    }
}

/// A game asked to stop is abandoned before its next move (Ctrl-C in a
/// match on huge boards), and one never asked plays as `play_game` does.
#[test]
fn a_game_stops_before_the_next_move_when_asked() {
    let rules: Rules = "9x9/11".parse().unwrap();
    let whole = play_game(rules, [Ai::Greedy, Ai::Rule], 7, |_, _, _| {}).unwrap();
    assert!(whole.moves > 3);
    let moves = std::cell::Cell::new(0);
    let stopped = play_game_until(
        rules,
        [Ai::Greedy, Ai::Rule],
        7,
        |_, _, _| moves.set(moves.get() + 1),
        || moves.get() == 3,
    )
    .unwrap();
    assert_eq!((stopped, moves.get()), (None, 3));
    let never = play_game_until(rules, [Ai::Greedy, Ai::Rule], 7, |_, _, _| {}, || false);
    assert_eq!(never.unwrap(), Some(whole));
}

/// Seats alternate: an AI against itself on the same layouts wins exactly
/// the games its first (or second) seat wins, and threads change nothing.
#[test]
fn matches_alternate_seats_and_are_reproducible() {
    let cfg = MatchConfig {
        rules: "9x9/10".parse().unwrap(),
        a: Ai::Greedy,
        b: Ai::Rule,
        games: 40,
        seed: 3,
    };
    let one = with_threads(Some(1), || run_match(&cfg, &Progress::hidden())).unwrap();
    let two = with_threads(Some(2), || run_match(&cfg, &Progress::hidden())).unwrap();
    assert_eq!(
        (one.a_wins, one.b_wins, one.first_wins),
        (two.a_wins, two.b_wins, two.first_wins)
    );
    assert_eq!(one.a_wins + one.b_wins + one.draws, 40);
    // Game 2j and 2j+1 share layout j with the seats swapped.
    let (s0, seats0, first0) = arcade_mines::battle::arena::game_setup(&cfg, 4);
    let (s1, seats1, first1) = arcade_mines::battle::arena::game_setup(&cfg, 5);
    assert_eq!(s0, s1);
    assert_eq!(seats0, [Ai::Greedy, Ai::Rule]);
    assert_eq!(seats1, [Ai::Rule, Ai::Greedy]);
    assert!(first0 && !first1);
}

/// The exact probabilities are worth something: on the contest board
/// `greedy` beats `rule` (the 95% interval lies above one half).
#[test]
fn greedy_beats_rule() {
    let cfg = MatchConfig {
        rules: Rules::default(),
        a: Ai::Greedy,
        b: Ai::Rule,
        games: 200,
        seed: 11,
    };
    let r = run_match(&cfg, &Progress::hidden()).unwrap();
    assert!(r.ci95[0] > 0.5, "{r:?}");
    assert!(r.mean_mines_a > r.mean_mines_b);
}

/// On an empty board a corner or edge cell shows a number with few hidden
/// neighbours, which hands the opponent likely mines: `ev` opens in the
/// interior, as strong human players do.
#[test]
fn search_opens_in_the_interior() {
    let rules = Rules::default();
    let pos = Position::new(rules.level.grid(), rules.level.mines);
    let a = analyze(&pos).unwrap();
    let s = Search::ev();
    let score = |x, y| s.score(&pos, &a, pos.grid().index(x, y)).unwrap();
    assert!(score(5, 5) > score(0, 5), "interior beats edge");
    assert!(score(0, 5) > score(0, 0), "edge beats corner");
    for seed in 0..3 {
        let (x, y) = pos
            .grid()
            .coords(Ai::Ev.choose(&pos, &mut Rng::new(seed)).unwrap());
        assert!(
            (1..15).contains(&x) && (1..15).contains(&y),
            "ev opened ({x},{y})"
        );
    }
}

/// Shards merge exactly: games 0..k plus k..n give the counts of 0..n,
/// split inside a 4,096-game block, inside a layout pair and on the block's
/// boundary.
#[test]
fn match_shards_merge_exactly() {
    use arcade_mines::battle::arena::{MatchReport, run_range};
    let cfg = MatchConfig {
        rules: "5x5/5".parse().unwrap(),
        a: Ai::Greedy,
        b: Ai::Rule,
        games: 4200,
        seed: 5,
    };
    let hidden = Progress::hidden();
    let whole = run_range(&cfg, 0..4200, &hidden).unwrap();
    assert_eq!(whole.games, 4200);
    assert!(whole.a_wins > 0 && whole.b_wins > 0);
    for k in [1000, 1001, 4096] {
        let mut left = run_range(&cfg, 0..k, &hidden).unwrap();
        left.merge(&run_range(&cfg, k..4200, &hidden).unwrap());
        assert_eq!(left, whole, "split at {k}");
        assert_eq!(
            MatchReport::new(&cfg, &left, 1.0, 1),
            MatchReport::new(&cfg, &whole, 1.0, 1)
        );
    }
}

/// A human game and game 0 of the arena use the same layout and AI streams.
#[test]
fn layout_seeds_pair_the_seatings() {
    use arcade_mines::battle::arena::{game_setup, layout_seed};
    let cfg = MatchConfig {
        rules: Rules::default(),
        a: Ai::Greedy,
        b: Ai::Rule,
        games: 10,
        seed: 9,
    };
    for i in 0..10 {
        assert_eq!(game_setup(&cfg, i).0, layout_seed(9, i));
    }
    assert_eq!(layout_seed(9, 0), arcade_core::derive_seed(9, 0));
    assert_eq!(layout_seed(9, 7), arcade_core::derive_seed(9, 3));
}

/// A stopped run counts whole layout pairs only (games 2j and 2j + 1 both
/// played), a finished range every game, against a plain count of random
/// played subsets.
#[test]
fn a_stopped_match_counts_whole_pairs() {
    use arcade_mines::battle::GameResult;
    use arcade_mines::battle::arena::{MatchPartial, PairFold};
    let result = |i: u64| GameResult {
        scores: [(i % 7) as usize, (i % 5) as usize],
        winner: [Some(0), Some(1), None][(i % 3) as usize],
        moves: i as usize,
    };
    // A is seat 0 in even games.
    let plain = |games: &[u64]| {
        let mut p = MatchPartial::default();
        for &i in games {
            let r = result(i);
            let a = (i % 2) as usize;
            p.games += 1;
            p.mines_a += r.scores[a] as u64;
            p.mines_b += r.scores[1 - a] as u64;
            p.moves += r.moves as u64;
            p.a_wins += u64::from(r.winner == Some(a));
            p.b_wins += u64::from(r.winner == Some(1 - a));
            p.draws += u64::from(r.winner.is_none());
            p.first_wins += u64::from(r.winner == Some(0));
        }
        p
    };
    let mut rng = Rng::new(17);
    let mut dropped_some = 0;
    for case in 0..300 {
        let n = 1 + rng.below(40);
        let start = rng.below(3);
        let played: Vec<u64> = (start..start + n).filter(|_| rng.below(4) != 0).collect();
        let fold = || {
            let mut fold = PairFold::default();
            for &i in &played {
                fold.push(i, result(i), i % 2 == 0);
            }
            fold
        };
        let whole: Vec<u64> = played
            .iter()
            .copied()
            .filter(|i| played.contains(&(i ^ 1)))
            .collect();
        let stopped = fold().finish(true);
        assert_eq!(stopped, plain(&whole), "case {case}: {played:?}");
        assert_eq!(stopped.games % 2, 0);
        assert_eq!(
            fold().finish(false),
            plain(&played),
            "case {case}: {played:?}"
        );
        dropped_some += usize::from(whole.len() < played.len());
    }
    assert!(
        dropped_some > 200,
        "{dropped_some} of 300 cases left a half pair out"
    );
}

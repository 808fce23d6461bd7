//! A battle driven move by move: agrees with the arena, people win by the
//! hints and lose by clicking blindly (the browser test's games).

use arcade_mines::battle::arena::{layout_seed, play_game};
use arcade_mines::battle::live::{LiveBattle, LiveError, Player};
use arcade_mines::battle::{Ai, Rules};

/// Plays the AIs' turns until a person is to move or the game is over.
fn ai_turns(b: &mut LiveBattle) {
    while let Some(Player::Ai(_)) = b.to_move() {
        b.ai_move().unwrap();
    }
}

#[test]
fn ai_against_ai_is_game_zero_of_the_arena() {
    for seed in 1..4 {
        let players = [Ai::Ev, Ai::Greedy];
        let mut live = LiveBattle::new(Rules::CONTEST, players.map(Player::Ai), seed);
        ai_turns(&mut live);
        let arena = play_game(Rules::CONTEST, players, layout_seed(seed, 0), |_, _, _| {}).unwrap();
        assert_eq!(live.battle().scores(), arena.scores);
        assert_eq!(live.view().winner, arena.winner);
    }
}

/// A person who clicks the hint (ev's move) every turn.
fn play_by_hints(opponent: Ai, seed: u64) -> LiveBattle {
    let mut b = LiveBattle::new(Rules::CONTEST, [Player::Human, Player::Ai(opponent)], seed);
    while !b.view().over {
        ai_turns(&mut b);
        if let Some([x, y]) = b.hint().unwrap() {
            b.human_move(x, y).unwrap();
        }
    }
    b
}

/// A person who clicks the first hidden cell in reading order.
fn play_blindly(opponent: Ai, seed: u64) -> LiveBattle {
    let mut b = LiveBattle::new(Rules::CONTEST, [Player::Human, Player::Ai(opponent)], seed);
    loop {
        ai_turns(&mut b);
        let v = b.view();
        if v.over {
            return b;
        }
        let (x, y) = (0..v.height)
            .flat_map(|y| (0..v.width).map(move |x| (x, y)))
            .find(|&(x, y)| v.rows[y].as_bytes()[x] == b'.')
            .unwrap();
        b.human_move(x, y).unwrap();
    }
}

/// The browser test plays these two games on seed 1.
#[test]
fn hints_beat_rule_and_blind_clicks_lose_to_ev() {
    assert_eq!(play_by_hints(Ai::Rule, 1).view().winner, Some(0));
    assert_eq!(play_blindly(Ai::Ev, 1).view().winner, Some(1));
}

#[test]
fn moves_out_of_turn_are_errors() {
    let mut b = LiveBattle::new(Rules::CONTEST, [Player::Ai(Ai::Rule), Player::Human], 5);
    assert_eq!(b.human_move(0, 0), Err(LiveError::NotHuman("rule")));
    ai_turns(&mut b);
    assert_eq!(b.ai_move(), Err(LiveError::NotAi));
    assert!(matches!(b.human_move(16, 0), Err(LiveError::Move(_))));
    assert_eq!(b.to_move(), Some(Player::Human));
    assert!(!b.view().last.is_empty());
    assert!(b.view().last.iter().all(|m| m.seat == 0));
}

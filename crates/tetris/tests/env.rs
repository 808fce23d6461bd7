//! The stepped environment: driven by the AI it replays `game::play`
//! exactly; masks, observations and errors agree with the engine.

use arcade_tetris::env::{Env, EnvConfig, EnvError, Pieces, Variant};
use arcade_tetris::geek;
use arcade_tetris::movegen::{self, MoveMode};
use arcade_tetris::{Board, End, Limits, PieceSource, Player, Randomizer, Rules, Weights, game};

fn player() -> Player {
    Player::new(
        Rules::classic(),
        Weights::builtin("bcts").unwrap(),
        MoveMode::Drop,
        false,
    )
}

fn config(w: usize, h: usize, max_pieces: Option<u64>) -> EnvConfig {
    EnvConfig {
        width: w,
        height: h,
        variant: Variant::Classic {
            pieces: Pieces::Random(Randomizer::Uniform),
        },
        max_pieces,
    }
}

#[test]
fn driven_by_the_ai_it_replays_the_engine_game() {
    for seed in 0..20 {
        let limits = Limits {
            max_pieces: Some(300),
            max_lines: None,
        };
        let mut source = PieceSource::random(Randomizer::Uniform, seed);
        let reference = game::play(
            &mut player(),
            Board::new(8, 10).unwrap(),
            &mut source,
            limits,
            |_| {},
        );
        let mut env = Env::new(config(8, 10, Some(300)), seed).unwrap();
        let mut ai = player();
        let mut rewards = 0;
        while !env.is_over() {
            let p = ai
                .choose(env.board(), env.current().unwrap(), env.next_piece())
                .unwrap();
            let a = env.action_of(p).expect("the AI's choice is a legal action");
            rewards += env.step(a).unwrap().reward;
        }
        assert_eq!(env.lines(), reference.lines, "seed {seed}");
        assert_eq!(rewards, reference.lines);
        assert_eq!(env.pieces(), reference.pieces);
        assert_eq!(env.end(), Some(reference.end));
        assert_eq!(env.is_truncated(), reference.end == End::PieceLimit);
    }
}

#[test]
fn the_mask_holds_exactly_the_drop_placements() {
    let mut env = Env::new(config(10, 20, None), 3).unwrap();
    let mut mask = vec![0u8; env.actions()];
    let mut rng = arcade_core::Rng::new(1);
    let mut out = Vec::new();
    for _ in 0..60 {
        if env.is_over() {
            break;
        }
        env.action_mask(&mut mask);
        movegen::placements(
            env.rules(),
            env.board(),
            env.current().unwrap(),
            0,
            MoveMode::Drop,
            &mut out,
        );
        assert_eq!(mask.iter().filter(|&&m| m == 1).count(), out.len());
        for p in &out {
            assert!(env.action_of(*p).is_some());
        }
        let legal: Vec<usize> = env.legal_actions().collect();
        env.step(legal[rng.index(legal.len())]).unwrap();
    }
}

#[test]
fn the_board_observation_is_the_text_board() {
    let mut env = Env::new(config(6, 8, None), 4).unwrap();
    for _ in 0..5 {
        let a = env.legal_actions().next().unwrap();
        env.step(a).unwrap();
    }
    let mut cells = vec![0u8; 6 * 8];
    env.write_board(&mut cells);
    let text: String = cells
        .chunks(6)
        .map(|r| {
            r.iter()
                .map(|&c| if c == 1 { '#' } else { '.' })
                .chain(['\n'])
                .collect::<String>()
        })
        .collect();
    assert_eq!(text, env.board().to_string());
}

#[test]
fn bad_actions_and_configurations_are_errors() {
    let mut env = Env::new(config(10, 20, None), 1).unwrap();
    assert_eq!(
        env.step(40),
        Err(EnvError::OutOfRange {
            action: 40,
            actions: 40
        })
    );
    let illegal = (0..40)
        .find(|&a| env.legal_actions().all(|b| b != a))
        .unwrap();
    assert!(matches!(env.step(illegal), Err(EnvError::Illegal { .. })));
    assert!(Env::new(config(3, 20, None), 1).is_err());
    let geek_small = EnvConfig {
        variant: Variant::Geek,
        ..config(8, 20, None)
    };
    assert!(matches!(
        Env::new(geek_small, 1),
        Err(EnvError::GeekSize { .. })
    ));
    let empty = EnvConfig {
        variant: Variant::Classic {
            pieces: Pieces::Sequence(vec![]),
        },
        ..config(10, 20, None)
    };
    assert_eq!(Env::new(empty, 1).unwrap_err(), EnvError::EmptySequence);
    // A game truncated before its first piece would start already over.
    assert_eq!(
        Env::new(config(10, 20, Some(0)), 1).unwrap_err(),
        EnvError::NoPieces
    );
    assert!(Env::new(config(10, 20, Some(1)), 1).is_ok());
}

#[test]
fn a_sequence_ends_the_game_and_then_steps_are_refused() {
    let seq = PieceSource::parse_sequence("IOT").unwrap();
    let cfg = EnvConfig {
        variant: Variant::Classic {
            pieces: Pieces::Sequence(seq),
        },
        ..config(10, 20, None)
    };
    let mut env = Env::new(cfg, 0).unwrap();
    for _ in 0..3 {
        let a = env.legal_actions().next().unwrap();
        env.step(a).unwrap();
    }
    assert_eq!(env.end(), Some(End::SequenceEnd));
    assert!(!env.is_truncated());
    assert_eq!(env.step(0), Err(EnvError::Over));
}

#[test]
fn geek_rewards_are_the_challenge_points() {
    let cfg = EnvConfig {
        variant: Variant::Geek,
        ..EnvConfig::default()
    };
    let mut env = Env::new(cfg, 0).unwrap();
    let pieces = geek::sequence(200);
    let rules = Rules::geek();
    let mut board = geek::empty_board();
    let mut out = Vec::new();
    let mut total = 0;
    for (i, &piece) in pieces.iter().enumerate() {
        if env.is_over() {
            break;
        }
        assert_eq!(env.current(), Some(piece));
        movegen::placements(
            &rules,
            &board,
            piece,
            geek::spawn_rotation(i),
            MoveMode::Drop,
            &mut out,
        );
        // The lowest placement, leftmost: fills rows, so some score.
        let p = *out.iter().min_by_key(|p| (p.row, p.col)).unwrap();
        let locked = geek::lock(&rules, &board, piece, p, false);
        board = locked.board;
        let step = env.step(env.action_of(p).unwrap()).unwrap();
        assert_eq!(step.reward, locked.points);
        total += locked.points;
    }
    assert_eq!(env.score(), total);
    assert!(total > 0);
}

/// A game cut by `max_pieces` could go on: its mask and afterstate features
/// are those of the same game without the cap (what a learner bootstraps
/// from), while a game that topped out has neither. Steps are refused.
#[test]
fn a_truncated_game_keeps_its_mask_and_features() {
    let (mut compared, mut topped) = (0, 0);
    for seed in 0..30 {
        let mut capped = Env::new(config(6, 8, Some(12)), seed).unwrap();
        let mut free = Env::new(config(6, 8, None), seed).unwrap();
        let mut ai = player();
        while !capped.is_over() {
            // The AI survives the cap in most games; the first action tops out.
            let a = match seed % 3 {
                0 => capped.legal_actions().next().unwrap(),
                _ => {
                    let p = ai.choose(
                        capped.board(),
                        capped.current().unwrap(),
                        capped.next_piece(),
                    );
                    capped.action_of(p.unwrap()).unwrap()
                }
            };
            capped.step(a).unwrap();
            free.step(a).unwrap();
        }
        let (mut m1, mut m2) = (vec![0u8; capped.actions()], vec![0u8; free.actions()]);
        capped.action_mask(&mut m1);
        free.action_mask(&mut m2);
        let n = capped.actions() * arcade_tetris::features::COUNT;
        let (mut f1, mut f2) = (vec![0.0; n], vec![0.0; n]);
        capped.afterstate_features(&mut f1);
        free.afterstate_features(&mut f2);
        if capped.is_truncated() {
            assert_eq!(m1, m2, "seed {seed}");
            assert_eq!(f1, f2, "seed {seed}");
            assert!(m1.contains(&1) && f1.iter().any(|&v| v != 0.0));
            let a = capped.legal_actions().next().unwrap();
            assert_eq!(capped.step(a), Err(EnvError::Over));
            compared += 1;
        } else {
            assert!(
                !m1.contains(&1) && f1.iter().all(|&v| v == 0.0),
                "seed {seed}: topped out"
            );
            topped += 1;
        }
    }
    assert!(
        compared >= 15 && topped >= 5,
        "{compared} capped, {topped} topped out"
    );
}

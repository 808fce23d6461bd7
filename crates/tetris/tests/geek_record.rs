//! The published second-place record of the 2021 Tencent Geek Challenge
//! replays to its official score.

use arcade_tetris::geek::record::PUBLISHED_1378178;
use arcade_tetris::geek::record::Record;
use arcade_tetris::geek::replay::{End, replay};

#[test]
fn second_place_record_scores_1378178() {
    let text = PUBLISHED_1378178;
    let record = Record::parse(text).expect("the published record is well formed");
    let r = replay(&record, |_| {});
    assert_eq!(r.score, 1_378_178);
    assert_eq!(r.end, End::PieceLimit);
    assert_eq!(r.pieces, 10_000);
}

/// The bitboard engine (move following, locking and scoring) agrees with
/// the reference replay on every piece of the published record.
#[test]
fn engine_replay_matches_the_reference_piece_by_piece() {
    use arcade_tetris::Rules;
    use arcade_tetris::geek::{self, PIECES};
    use arcade_tetris::movegen::follow;
    let text = PUBLISHED_1378178;
    let record = Record::parse(text).unwrap();
    let mut reference = Vec::new();
    replay(&record, |f| reference.push(f.score));
    let rules = Rules::geek();
    let pieces = geek::sequence(PIECES);
    let mut board = geek::empty_board();
    let mut score = 0;
    for (i, &piece) in pieces.iter().enumerate() {
        let p = follow(
            &rules,
            &board,
            piece,
            geek::spawn_rotation(i),
            record.ops(i),
        )
        .expect("spawn is free");
        let locked = geek::lock(&rules, &board, piece, p, i + 1 == PIECES);
        assert!(!locked.topped_out);
        score += locked.points;
        assert_eq!(score, reference[i], "piece {i}");
        board = locked.board;
    }
    assert_eq!(score, 1_378_178);
}

/// Our records replay to the scores the solver claimed, beating the
/// published first place, 1,413,876: the beam-524,288 search (`arcade geek
/// solve --beam 524288 --moves reach --float --reserve 0` with checkpoints,
/// about 6 hours on 2 cores), and its last 50 pieces searched again (`--from
/// geek-1427904.txt --at 9950 --beam 256000`), the shipped best.
#[test]
fn our_records_score_1427904_and_1428140() {
    for (text, score) in [
        (include_str!("../records/geek-1427904.txt"), 1_427_904),
        (include_str!("../records/geek-1428140.txt"), 1_428_140),
    ] {
        // Parsing also enforces the format's limit of 100 operations per piece.
        let record = Record::parse(text).expect("the solver writes well-formed records");
        let r = replay(&record, |_| {});
        assert_eq!(r.score, score);
        assert_eq!(r.end, End::PieceLimit);
        assert_eq!(r.pieces, 10_000);
    }
    assert_eq!(
        arcade_tetris::geek::record::ARCADE_BEST,
        include_str!("../records/geek-1428140.txt")
    );
}

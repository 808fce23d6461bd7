//! The published second-place record of the 2021 Tencent Geek Challenge
//! replays to its official score.

use arcade_tetris::geek::record::PUBLISHED_1378178;
use arcade_tetris::geek::record::Record;
use arcade_tetris::geek::replay::{End, replay};
use arcade_tetris::geek::splice::splice;

#[test]
fn second_place_record_scores_1378178() {
    let text = PUBLISHED_1378178;
    let record = Record::parse(text).expect("the published record is well formed");
    let r = replay(&record, |_| {});
    assert_eq!(r.score, 1_378_178);
    assert_eq!(r.end, End::PieceLimit);
    assert_eq!(r.pieces, 10_000);
    // The 10,000th piece completes two rows, which the game never clears:
    // 223 doubles, not 224 (the count an independent replay of the
    // official rules gives).
    assert_eq!(r.clears, [115, 223, 360, 587]);
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
/// about 6 hours on 2 cores), its last 50 pieces searched again (`--from
/// geek-1427904.txt --at 9950 --beam 256000`), the beam-1,048,576 search, and
/// that one spliced with the second (`arcade geek splice`), the shipped best.
#[test]
fn our_records_score_what_their_searches_claimed() {
    for (text, score) in OURS {
        // Parsing also enforces the format's limit of 100 operations per piece.
        let record = Record::parse(text).expect("the solver writes well-formed records");
        let r = replay(&record, |_| {});
        assert_eq!(r.score, score);
        assert_eq!(r.end, End::PieceLimit);
        assert_eq!(r.pieces, 10_000);
    }
    assert_eq!(
        arcade_tetris::geek::record::ARCADE_BEST,
        include_str!("../records/geek-1428236.txt")
    );
}

const OURS: [(&str, u64); 4] = [
    (include_str!("../records/geek-1427904.txt"), 1_427_904),
    (include_str!("../records/geek-1428140.txt"), 1_428_140),
    (include_str!("../records/geek-1428170.txt"), 1_428_170),
    (include_str!("../records/geek-1428236.txt"), 1_428_236),
];

/// The shipped best is exactly what `geek splice` makes of the two records
/// it came from, and a record spliced with itself comes back unchanged.
#[test]
fn the_best_record_is_the_splice_of_two_searches() {
    let parse = |t: &str| Record::parse(t).unwrap();
    let (wide, ended) = (parse(OURS[2].0), parse(OURS[1].0));
    let spliced = splice(&[wide.clone(), ended]).unwrap();
    assert_eq!(spliced.score, 1_428_236);
    assert_eq!(spliced.scores, vec![1_428_170, 1_428_140]);
    assert_eq!(spliced.record.to_string() + "\n", OURS[3].0);
    let alone = splice(&[wide.clone(), wide.clone()]).unwrap();
    assert_eq!(alone.record, wide);
    assert_eq!(alone.stretches.len(), 1);
}

/// Per piece: the field (before full rows go) and the score after it.
fn trace(record: &Record) -> (Vec<Vec<Vec<bool>>>, Vec<u64>) {
    let (mut fields, mut scores) = (Vec::new(), Vec::new());
    replay(record, |f| {
        fields.push(f.grid.iter().map(|row| row.to_vec()).collect());
        scores.push(f.score);
    });
    (fields, scores)
}

/// Cross-check against a naive reference: every single switch from one
/// record to another where their fields meet, scored from the two records'
/// running scores, with the best of each pair replayed. The splice must
/// replay to its own score and reach at least every single switch.
#[test]
fn splice_beats_every_single_switch() {
    let mut records: Vec<Record> = OURS[..3]
        .iter()
        .map(|(t, _)| Record::parse(t).unwrap())
        .collect();
    records.push(Record::parse(PUBLISHED_1378178).unwrap());
    let traces: Vec<_> = records.iter().map(trace).collect();
    let spliced = splice(&records).unwrap();
    assert_eq!(replay(&spliced.record, |_| {}).score, spliced.score);
    let mut meetings = 0;
    let mut best_switch = 0;
    for (a, (fa, sa)) in traces.iter().enumerate() {
        for (b, (fb, sb)) in traces.iter().enumerate() {
            if a == b {
                continue;
            }
            let total_b = sb[sb.len() - 1];
            let best = (0..fa.len() - 1)
                .filter(|&k| fa[k] == fb[k])
                .map(|k| (sa[k] + total_b - sb[k], k))
                .inspect(|_| meetings += 1)
                .max();
            let Some((score, k)) = best else { continue };
            let mut joined = Record::default();
            joined.pieces.extend_from_slice(&records[a].pieces[..=k]);
            joined.pieces.extend_from_slice(&records[b].pieces[k + 1..]);
            assert_eq!(
                replay(&joined, |_| {}).score,
                score,
                "{a} to {b} after piece {k}"
            );
            best_switch = best_switch.max(score);
        }
    }
    // The searches' records meet thousands of times; the published one
    // meets ours only on the opening fields.
    assert!(meetings > 1_000, "only {meetings} meetings exercised");
    assert!(
        spliced.score >= best_switch,
        "{} < {best_switch}",
        spliced.score
    );
    assert!(spliced.score > 1_428_170);
}

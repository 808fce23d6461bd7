//! `arcade geek replay FILE`: a Geek Challenge operation record.
//! Property: an accepted record printed and parsed again is the same record,
//! and the reference replay of it never panics and stays within the record.
#![no_main]

use arcade_tetris::geek::record::Record;
use arcade_tetris::geek::replay::{End, replay};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = arcade_fuzz::text(data) else {
        return;
    };
    let Ok(record) = Record::parse(text) else {
        return;
    };
    let printed = record.to_string();
    let again = Record::parse(&printed)
        .unwrap_or_else(|e| panic!("the printed record {printed:?} does not parse: {e}"));
    assert_eq!(again, record, "print/parse round trip changed the record");
    let mut frames = 0usize;
    let r = replay(&record, |_| frames += 1);
    assert_eq!(frames, r.pieces, "one frame per placed piece");
    assert!(
        r.pieces <= record.pieces.len(),
        "more pieces than the record has"
    );
    if r.end == End::RecordEnd {
        assert_eq!(
            (r.pieces, r.unplayed),
            (record.pieces.len(), 0),
            "record end"
        );
    } else {
        assert_eq!(
            r.pieces + r.unplayed,
            record.pieces.len(),
            "played + unplayed"
        );
    }
});

//! The parsers never panic on arbitrary input, and printing then parsing
//! gives back the same position, in both formats.

use crate::common::position;
use arcade_jumpin::{ParseError, parse_board, parse_code};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn board_format_round_trips(p in position(14)) {
        // Two parallel foxes side by side print as H or V, not a 2×2 block of F.
        prop_assert_eq!(parse_board(&p.to_string()).unwrap(), p);
    }

    #[test]
    fn code_format_round_trips(p in position(14)) {
        match p.to_code() {
            Some(code) => prop_assert_eq!(parse_code(code.as_str()).unwrap(), p),
            None => prop_assert!(p.rabbits().count_ones() > 4),
        }
    }

    #[test]
    fn arbitrary_text_gives_a_position_or_an_error(text in "[.RFHVX\\n\\r a]{0,40}") {
        if let Ok(p) = parse_board(&text) {
            prop_assert_eq!(parse_board(&p.to_string()).unwrap(), p);
        }
    }

    #[test]
    fn random_grids_parse_or_name_a_cell(lines in prop::collection::vec("[.RFX]{5}", 5)) {
        let text = lines.join("\n");
        match parse_board(&text) {
            Ok(p) => prop_assert_eq!(p.to_string(), text + "\n"),
            Err(ParseError::UnpairedFox { line, column } | ParseError::AmbiguousFoxes { line, column }) => {
                prop_assert_eq!(lines[line - 1].as_bytes()[column - 1], b'F');
            }
            Err(e) => prop_assert!(matches!(e, ParseError::Position(_)), "{e}"),
        }
    }

    #[test]
    fn arbitrary_codes_give_a_position_or_an_error(code in "[CBGMFNSEW0-9x]{0,24}") {
        if let Ok(p) = parse_code(&code) {
            prop_assert!(p.rabbits() != 0);
        }
    }
}

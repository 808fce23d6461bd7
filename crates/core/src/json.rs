//! JSON errors in a user's words: serde's messages name Rust types
//! ("invalid type: string \"x\", expected u64 at line 1 column 13"); these
//! say what the value should have been and where ("games: expected a whole
//! number 0 or more, found \"x\"").

use serde::de::DeserializeOwned;

/// A JSON error located as the text reports put it: "line 3, column 7:
/// expected a value", or the message alone for an error with no place.
pub fn json_error(e: &serde_json::Error) -> String {
    let message = plain(&e.to_string());
    match e.line() {
        0 => message,
        line => format!("line {line}, column {}: {message}", e.column()),
    }
}

/// Parses `text` as a `T`, an error naming the key path of the bad value
/// ("tiles\[0\].type: expected a whole number 0 or more, found -5"), or the
/// line and column of bad syntax.
pub fn parse_with_path<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| match path_error(e) {
        (Some(path), message) => format!("{path}: {message}"),
        (None, message) => message,
    })?;
    de.end().map_err(|e| json_error(&e))?;
    Ok(value)
}

/// A `serde_path_to_error` error as the key path of the bad value (none for
/// bad syntax, which is said where it is, or for the document itself) and
/// the message in plain words.
pub fn path_error(e: serde_path_to_error::Error<serde_json::Error>) -> (Option<String>, String) {
    let path = e.path().to_string();
    let inner = e.into_inner();
    match path.as_str() {
        _ if !inner.is_data() => (None, json_error(&inner)),
        "." | "?" => (None, plain(&inner.to_string())),
        _ => (Some(path), plain(&inner.to_string())),
    }
}

/// serde's message in plain words, without its " at line L column C".
pub fn plain(message: &str) -> String {
    let message = message.split(" at line ").next().unwrap_or(message);
    if let Some(rest) = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        return format!(
            "expected {}, found {}",
            expected_kind(expected),
            found_value(found)
        );
    }
    let renamed = [
        ("unknown field ", "unknown key "),
        ("missing field ", "missing key "),
        ("unknown variant ", "unknown value "),
        ("duplicate field ", "repeated key "),
    ]
    .iter()
    .find_map(|(from, to)| message.strip_prefix(from).map(|rest| format!("{to}{rest}")));
    match renamed {
        Some(text) => text.replace('`', "\""),
        None => match message {
            "EOF while parsing a value" => "the text ends where a value was expected".into(),
            "EOF while parsing an object" => {
                "the text ends inside an object (a } is missing)".into()
            }
            "EOF while parsing a list" => "the text ends inside a list (a ] is missing)".into(),
            "EOF while parsing a string" => {
                "the text ends inside a string (a \" is missing)".into()
            }
            "expected value" => "expected a value".into(),
            "key must be a string" => "expected a key in double quotes".into(),
            _ => message.replace('`', "\""),
        },
    }
}

/// What serde's "expected …" names, as a user would say it.
fn expected_kind(expected: &str) -> String {
    let kind = match expected {
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a whole number 0 or more",
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number",
        "f32" | "f64" => "a number",
        "a boolean" => "true or false",
        "a string" | "a borrowed string" => "a string",
        "a char" | "a character" => "one character",
        "a map" => "an object",
        "a sequence" => "a list",
        other if other.starts_with("struct ") => "an object",
        other if other.starts_with("a sequence") || other.starts_with("tuple") => "a list",
        other => return other.replace('`', "\""),
    };
    kind.to_string()
}

/// serde's description of the value found: `string "x"` is "x", an
/// `integer \`5\`` is 5, `map` is an object.
fn found_value(found: &str) -> String {
    if let Some(text) = found.strip_prefix("string ") {
        return text.to_string();
    }
    for kind in ["integer ", "floating point ", "boolean ", "char "] {
        if let Some(value) = found.strip_prefix(kind) {
            return value.trim_matches('`').to_string();
        }
    }
    match found {
        "map" => "an object".into(),
        "sequence" => "a list".into(),
        "unit value" => "null".into(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Spec {
        games: u64,
        rate: Option<f64>,
        tiles: Option<Vec<Tile>>,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Tile {
        kind: u32,
    }

    fn error(text: &str) -> String {
        parse_with_path::<Spec>(text).unwrap_err()
    }

    #[test]
    fn values_of_the_wrong_kind_say_what_was_expected() {
        let cases = [
            (
                r#"{"games": "x"}"#,
                r#"games: expected a whole number 0 or more, found "x""#,
            ),
            (
                r#"{"games": -1}"#,
                "games: expected a whole number 0 or more, found -1",
            ),
            (
                r#"{"games": 1.5}"#,
                "games: expected a whole number 0 or more, found 1.5",
            ),
            (
                r#"{"games": true}"#,
                "games: expected a whole number 0 or more, found true",
            ),
            (
                r#"{"games": null}"#,
                "games: expected a whole number 0 or more, found null",
            ),
            (
                r#"{"games": {}}"#,
                "games: expected a whole number 0 or more, found an object",
            ),
            (
                r#"{"games": 1, "rate": "x"}"#,
                r#"rate: expected a number, found "x""#,
            ),
            (
                r#"{"games": 1, "tiles": [1]}"#,
                "tiles[0]: expected an object, found 1",
            ),
            (
                r#"{"games": 1, "tiles": 5}"#,
                "tiles: expected a list, found 5",
            ),
            (
                r#"{"bogus": 1}"#,
                r#"bogus: unknown key "bogus", expected one of "games", "rate", "tiles""#,
            ),
            (r#"{}"#, r#"missing key "games""#),
            ("5", "expected an object, found 5"),
            (r#"{"games": }"#, "line 1, column 11: expected a value"),
            (
                "",
                "line 1, column 0: the text ends where a value was expected",
            ),
            (
                r#"{"games": 1"#,
                "line 1, column 11: the text ends inside an object (a } is missing)",
            ),
            (
                r#"{"games": 1, "tiles": [{"kind": 1}"#,
                "line 1, column 34: the text ends inside a list (a ] is missing)",
            ),
            (
                r#"{"games": 1} x"#,
                "line 1, column 14: trailing characters",
            ),
        ];
        let mut checked = 0;
        for (text, expected) in cases {
            let got = error(text);
            assert!(!got.contains('`') && !got.contains("u64"), "{text}: {got}");
            assert_eq!(got, expected, "{text}");
            checked += 1;
        }
        assert_eq!(checked, cases.len());
    }

    #[test]
    fn json_errors_lead_with_their_place() {
        let e = serde_json::from_str::<serde_json::Value>("{\n  \"a\": }").unwrap_err();
        assert_eq!(json_error(&e), "line 2, column 8: expected a value");
    }
}

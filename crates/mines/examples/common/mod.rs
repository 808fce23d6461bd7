//! Shared by the examples: solver settings from the command line.

use arcade_mines::Config;

/// A solver setting from `fast`, `standard` or `strong`, optionally followed
/// by `,key=value,...` over the fields of `Config` (e.g.
/// `strong,deep_candidates=4`); without a preset name the keys start from
/// `standard`.
pub fn config(spec: &str) -> Config {
    let preset = |name: &str| match name {
        "fast" => Some(Config::fast()),
        "standard" => Some(Config::standard()),
        "strong" => Some(Config::strong()),
        _ => None,
    };
    let mut parts = spec.split(',').peekable();
    let base = parts.peek().and_then(|p| preset(p));
    if base.is_some() {
        parts.next();
    }
    let mut v = serde_json::to_value(base.unwrap_or_else(Config::standard)).unwrap();
    for kv in parts {
        let (k, val) = kv.split_once('=').expect("key=value");
        let num: serde_json::Value =
            serde_json::from_str(val).expect("a value: a number, true or false");
        assert!(v.get(k).is_some(), "unknown key {k}");
        v[k] = num;
    }
    serde_json::from_value(v).unwrap()
}

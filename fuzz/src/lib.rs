//! Shared helpers of the fuzz targets: turning bytes into text, and stand-ins
//! for readers that still live in the `arcade` binary (not a library yet).
//!
//! Each stand-in is a copy of the CLI's code at the time of writing, named
//! after where it lives; when the reader moves into its library, the target
//! calls the library function instead and the stand-in is deleted.

pub mod jumpin;
pub mod median;
pub mod tiles_clicks;

/// The input as text, or `None` when it is not UTF-8 (every reader gets its
/// text through `arcade_core::input::read_text`, which rejects such bytes).
pub fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Floats equal as results: the same number (0 and −0 equal), or both NaN.
pub fn same_float(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

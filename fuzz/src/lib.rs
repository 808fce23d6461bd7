//! Shared helpers of the fuzz targets: turning bytes into text, the
//! properties two targets share, fixed inputs, and independent reference
//! implementations the library's code is checked against.

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

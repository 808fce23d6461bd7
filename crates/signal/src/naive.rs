//! The obviously-correct reference: sort every window. O(n·k·log k); for
//! tests and cross-checks only.

/// Median of the non-NaN values of `window` (NaN when there are none), by
/// sorting a copy.
pub fn median_of(window: &[f64]) -> f64 {
    let mut xs: Vec<f64> = window.iter().copied().filter(|x| !x.is_nan()).collect();
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.sort_by(f64::total_cmp);
    let m = xs.len();
    if m % 2 == 1 {
        xs[m / 2]
    } else {
        let (lo, hi) = (xs[m / 2 - 1], xs[m / 2]);
        if (lo + hi).is_infinite() && lo.is_finite() && hi.is_finite() {
            lo / 2.0 + hi / 2.0 // the sum overflows; the halves cannot
        } else {
            (lo + hi) / 2.0
        }
    }
}

/// `data.windows(window).map(median_of)`: one median per full window.
///
/// # Panics
/// If `window` is 0.
pub fn rolling_median_naive(data: &[f64], window: usize) -> Vec<f64> {
    data.windows(window).map(median_of).collect()
}

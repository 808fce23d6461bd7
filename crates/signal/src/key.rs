//! Sortable integer keys for `f64`.
//!
//! Comparing floats with `<` is slow to get right around NaN and makes the
//! block algorithm's tie-breaking awkward, so the batch algorithms compare
//! `u64` keys whose integer order is the numeric order, with every NaN mapped
//! to one key above `+inf` (so NaNs gather at the top of a sorted window, where
//! the median never reaches while the window holds a number).

/// The key every NaN maps to: above the key of `+inf`.
pub const NAN_KEY: u64 = 0xFFF8_0000_0000_0000;

/// Order-preserving map from `f64` to `u64`: `a < b` implies `key(a) < key(b)`;
/// `-0.0` sorts just below `+0.0`; all NaNs share [`NAN_KEY`].
#[inline]
pub fn key(x: f64) -> u64 {
    if x.is_nan() {
        return NAN_KEY;
    }
    let bits = x.to_bits();
    // Negative numbers: flip every bit (larger magnitude → smaller key).
    // Non-negative: set the sign bit so they sort above all negatives.
    let mask = ((bits as i64 >> 63) as u64) | (1 << 63);
    bits ^ mask
}

/// Inverse of [`key`] (NaN for [`NAN_KEY`]).
#[inline]
pub fn value(key: u64) -> f64 {
    let mask = if key >> 63 == 1 { 1 << 63 } else { u64::MAX };
    f64::from_bits(key ^ mask)
}

/// Median of a window whose lower middle is `lo` and upper middle `hi` (the
/// same value when the count is odd): the mean, as bottleneck and NumPy
/// compute it, except where their sum overflows (1e308 and 1.5e308: they
/// give inf), which halves first. The halves of finite numbers cannot
/// overflow, and elsewhere the result is theirs to the bit.
#[inline]
pub fn mean2(lo: f64, hi: f64) -> f64 {
    let sum = lo + hi;
    if sum.is_infinite() && lo.is_finite() && hi.is_finite() {
        lo * 0.5 + hi * 0.5
    } else {
        sum * 0.5
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_mean_of_two_huge_middles_does_not_overflow() {
        assert_eq!(mean2(1e308, 1.5e308), 1.25e308);
        assert_eq!(mean2(-f64::MAX, -f64::MAX), -f64::MAX);
        assert_eq!(mean2(f64::MAX, f64::INFINITY), f64::INFINITY);
        assert!(mean2(f64::NEG_INFINITY, f64::INFINITY).is_nan());
        assert_eq!(mean2(1.0, 2.0), 1.5);
    }

    #[test]
    fn special_values_order() {
        let xs = [
            f64::NEG_INFINITY,
            -1e300,
            -1.0,
            -f64::MIN_POSITIVE,
            -0.0,
            0.0,
            5e-324,
            1.0,
            f64::INFINITY,
        ];
        for w in xs.windows(2) {
            assert!(key(w[0]) < key(w[1]), "{} vs {}", w[0], w[1]);
        }
        assert!(key(f64::INFINITY) < NAN_KEY);
        assert_eq!(key(-f64::NAN), NAN_KEY);
        assert!(key(f64::NEG_INFINITY) > 0, "0 is free for a head sentinel");
    }

    proptest! {
        #[test]
        fn key_preserves_order_and_round_trips(a in any::<f64>(), b in any::<f64>()) {
            if !a.is_nan() {
                prop_assert_eq!(value(key(a)).to_bits(), a.to_bits());
            }
            if !a.is_nan() && !b.is_nan() && a < b {
                prop_assert!(key(a) < key(b));
            }
        }
    }
}

//! Summary statistics for benchmarks: every figure arcade prints comes with
//! its sample size and a 95% interval.

use serde::{Deserialize, Serialize};

/// Arithmetic mean; `NaN` for an empty slice.
pub fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Median (mean of the two middle values for an even count); `NaN` if empty.
pub fn median(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Sample standard deviation (n − 1 denominator); 0 for fewer than 2 values.
pub fn std_dev(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    (ss / (xs.len() - 1) as f64).sqrt()
}

/// Standard error of the mean.
pub fn std_error(xs: &[f64]) -> f64 {
    std_dev(xs) / (xs.len() as f64).sqrt()
}

/// Two-sided 97.5% quantile of Student's t with `df` degrees of freedom.
///
/// Exact table values for small `df` (where the normal approximation is far
/// off), then the Cornish–Fisher expansion, accurate to 1e-4 beyond 30.
pub fn t975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010,
        2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739,
        2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        _ => {
            let z = Z975;
            let d = df as f64;
            let z3 = z.powi(3);
            let z5 = z.powi(5);
            let z7 = z.powi(7);
            z + (z3 + z) / (4.0 * d)
                + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * d * d)
                + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * d * d * d)
        }
    }
}

/// 97.5% quantile of the standard normal.
pub const Z975: f64 = 1.959_963_984_540_054;

/// A closed interval `[low, high]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

impl Interval {
    /// True when the two intervals share no point: the only case in which
    /// arcade reports one result as better than another.
    pub fn disjoint(&self, other: &Interval) -> bool {
        self.high < other.low || other.high < self.low
    }

    pub fn as_array(&self) -> [f64; 2] {
        [self.low, self.high]
    }
}

/// 95% confidence interval of the mean (Student t).
pub fn mean_ci95(xs: &[f64]) -> Interval {
    let m = mean(xs);
    if xs.len() < 2 {
        return Interval { low: m, high: m };
    }
    let h = t975(xs.len() - 1) * std_error(xs);
    Interval {
        low: m - h,
        high: m + h,
    }
}

/// 95% Wilson score interval of a proportion `successes / n`: unlike the
/// normal approximation it stays inside [0, 1] and behaves near 0% and 100%.
pub fn wilson95(successes: u64, n: u64) -> Interval {
    if n == 0 {
        return Interval {
            low: 0.0,
            high: 1.0,
        };
    }
    let z = Z975;
    let n = n as f64;
    let p = successes as f64 / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    Interval {
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// Everything a benchmark prints about one sample.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub n: usize,
    pub mean: f64,
    pub ci95: Interval,
    pub median: f64,
    pub std_dev: f64,
    pub min: f64,
    pub max: f64,
}

impl Summary {
    pub fn of(xs: &[f64]) -> Summary {
        Summary {
            n: xs.len(),
            mean: mean(xs),
            ci95: mean_ci95(xs),
            median: median(xs),
            std_dev: std_dev(xs),
            min: xs.iter().copied().fold(f64::INFINITY, f64::min),
            max: xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn small_examples() {
        let xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        assert_eq!(mean(&xs), 5.0);
        assert_eq!(median(&xs), 4.5);
        assert!((std_dev(&xs) - 2.138_089_935).abs() < 1e-9);
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert!(median(&[]).is_nan());
    }

    #[test]
    fn t_quantiles_match_tables() {
        assert_eq!(t975(1), 12.7062);
        // Published values: t(40) = 2.0211, t(60) = 2.0003, t(120) = 1.9799.
        assert!((t975(40) - 2.0211).abs() < 2e-4, "{}", t975(40));
        assert!((t975(60) - 2.0003).abs() < 2e-4, "{}", t975(60));
        assert!((t975(120) - 1.9799).abs() < 2e-4, "{}", t975(120));
        assert!((t975(1_000_000) - Z975).abs() < 1e-5);
    }

    #[test]
    fn mean_interval_of_a_known_sample() {
        // n = 4, mean 2.5, sd 1.29099, se 0.645497, t(3) = 3.1824.
        let ci = mean_ci95(&[1.0, 2.0, 3.0, 4.0]);
        assert!((ci.low - (2.5 - 3.1824 * 0.645_497)).abs() < 1e-5);
        assert!((ci.high - (2.5 + 3.1824 * 0.645_497)).abs() < 1e-5);
    }

    #[test]
    fn wilson_matches_published_example() {
        // Wilson (1927) / Newcombe (1998) example: 81 of 263 -> [0.2553, 0.3662].
        let ci = wilson95(81, 263);
        assert!((ci.low - 0.2553).abs() < 5e-4, "{ci:?}");
        assert!((ci.high - 0.3662).abs() < 5e-4, "{ci:?}");
        let zero = wilson95(0, 10);
        assert_eq!(zero.low, 0.0);
        assert!(zero.high > 0.2 && zero.high < 0.35);
    }

    proptest! {
        #[test]
        fn wilson_contains_the_estimate(s in 0u64..500, extra in 0u64..500) {
            let n = s + extra;
            prop_assume!(n > 0);
            let ci = wilson95(s, n);
            let p = s as f64 / n as f64;
            prop_assert!(ci.low <= p + 1e-12 && p <= ci.high + 1e-12);
            prop_assert!(0.0 <= ci.low && ci.high <= 1.0);
        }

        #[test]
        fn median_splits_the_sample(xs in prop::collection::vec(-1e6f64..1e6, 1..60)) {
            let m = median(&xs);
            let below = xs.iter().filter(|&&x| x < m).count();
            let above = xs.iter().filter(|&&x| x > m).count();
            prop_assert!(below <= xs.len() / 2 && above <= xs.len() / 2);
        }
    }
}

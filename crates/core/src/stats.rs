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
    /// True when the two intervals share no point: the strength tests call
    /// one AI stronger than another only then.
    pub fn disjoint(&self, other: &Interval) -> bool {
        self.high < other.low || other.high < self.low
    }

    pub fn as_array(&self) -> [f64; 2] {
        [self.low, self.high]
    }
}

/// A report's "95% CI [low, high]" with `decimals` places, or "95% CI n/a"
/// when there were too few results for one ([`Tally::ci95`]).
pub fn show_ci95(ci: Option<[f64; 2]>, decimals: usize) -> String {
    match ci {
        Some([low, high]) => format!("95% CI [{low:.decimals$}, {high:.decimals$}]"),
        None => "95% CI n/a".to_string(),
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

/// The mean lifetime of runs that end at a constant rate (exponential
/// lifetimes), from `exposure` (the total length played, censored runs
/// included) and `ends` (the runs that ended rather than being stopped):
/// the estimate `exposure / ends` (infinite with no end) and the exact 95%
/// interval from the Poisson count of ends, `[2T/χ²(0.975; 2D+2),
/// 2T/χ²(0.025; 2D)]`. This is what a benchmark with capped games can
/// still say about the mean when the plain mean is only a lower bound.
pub fn exponential_mean95(exposure: f64, ends: u64) -> (f64, Interval) {
    let estimate = if ends == 0 {
        f64::INFINITY
    } else {
        exposure / ends as f64
    };
    let high = if ends == 0 {
        f64::INFINITY
    } else {
        2.0 * exposure / chi2_even_quantile(2 * ends, 0.025)
    };
    let low = 2.0 * exposure / chi2_even_quantile(2 * ends + 2, 0.975);
    (estimate, Interval { low, high })
}

/// The `p` quantile of the χ² distribution with an even number `df` of
/// degrees of freedom, by bisection on its closed-form CDF
/// `1 − e^{−x/2} Σ_{k<df/2} (x/2)^k / k!` (the Poisson tail).
fn chi2_even_quantile(df: u64, p: f64) -> f64 {
    debug_assert!(df >= 2 && df.is_multiple_of(2) && 0.0 < p && p < 1.0);
    let cdf = |x: f64| {
        let h = x / 2.0;
        let (mut term, mut sum) = (1.0f64, 1.0f64);
        for k in 1..df / 2 {
            term *= h / k as f64;
            sum += term;
        }
        1.0 - (-h).exp() * sum
    };
    let (mut lo, mut hi) = (0.0f64, df as f64 + 20.0 * (df as f64).sqrt() + 50.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if cdf(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
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

/// How many results a [`Tally`] keeps for its median (8 MiB of `u64`s).
pub const TALLY_KEEP: u64 = 1 << 20;

/// A streaming, mergeable summary of non-negative integer results (lines,
/// pipes, mines): exact integer sums, so a run split into shards and merged
/// gives the same figures, to the last digit, as the run in one piece.
/// The results themselves are kept (for the median and per-game lists) while
/// there are at most [`TALLY_KEEP`] of them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub n: u64,
    pub sum: u128,
    pub sum_sq: u128,
    pub min: Option<u64>,
    pub max: Option<u64>,
    /// The results in order, or `None` once more than [`TALLY_KEEP`] were seen.
    pub values: Option<Vec<u64>>,
}

impl Tally {
    pub fn new() -> Tally {
        Tally {
            values: Some(Vec::new()),
            ..Tally::default()
        }
    }

    pub fn push(&mut self, x: u64) {
        self.n += 1;
        self.sum += u128::from(x);
        self.sum_sq += u128::from(x) * u128::from(x);
        self.min = Some(self.min.map_or(x, |m| m.min(x)));
        self.max = Some(self.max.map_or(x, |m| m.max(x)));
        if self.n > TALLY_KEEP {
            self.values = None;
        }
        if let Some(v) = &mut self.values {
            v.push(x);
        }
    }

    /// Appends `other`, the results that come after this tally's.
    pub fn merge(&mut self, other: &Tally) {
        self.n += other.n;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
        self.min = [self.min, other.min].into_iter().flatten().min();
        self.max = [self.max, other.max].into_iter().flatten().max();
        self.values = match (self.values.take(), &other.values) {
            (Some(mut a), Some(b)) if self.n <= TALLY_KEEP => {
                a.extend_from_slice(b);
                Some(a)
            }
            _ => None,
        };
    }

    pub fn mean(&self) -> f64 {
        self.sum as f64 / self.n as f64
    }

    /// Sample standard deviation (n − 1 denominator), from exact sums.
    pub fn std_dev(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = u128::from(self.n);
        // n·Σx² − (Σx)² exactly when it fits, which it does for any real run.
        let spread = n
            .checked_mul(self.sum_sq)
            .zip(self.sum.checked_mul(self.sum))
            .map(|(a, b)| (a - b) as f64)
            .unwrap_or_else(|| {
                let (s, q) = (self.sum as f64, self.sum_sq as f64);
                (n as f64 * q - s * s).max(0.0)
            });
        (spread / (n as f64 * (n - 1) as f64)).sqrt()
    }

    /// 95% interval of the mean (Student t), its low end at least 0: the
    /// results are counts, whose mean is never negative (a few spread-out
    /// games gave intervals such as [−10,775, …] lines). None under two
    /// results, which say nothing about the spread (one game printed
    /// [m, m], as if the mean were exact).
    pub fn ci95(&self) -> Option<Interval> {
        if self.n < 2 {
            return None;
        }
        let m = self.mean();
        let h = t975(self.n as usize - 1) * self.std_dev() / (self.n as f64).sqrt();
        Some(Interval {
            low: (m - h).max(0.0),
            high: m + h,
        })
    }

    /// The median, when the results were kept.
    pub fn median(&self) -> Option<f64> {
        let v = self.values.as_ref()?;
        if v.is_empty() {
            return None;
        }
        let mut sorted = v.clone();
        sorted.sort_unstable();
        let k = sorted.len();
        Some(if k % 2 == 1 {
            sorted[k / 2] as f64
        } else {
            (sorted[k / 2 - 1] as f64 + sorted[k / 2] as f64) / 2.0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn tally_agrees_with_the_slice_statistics_and_merges_exactly() {
        let xs: Vec<u64> = (0..1000u64).map(|i| (i * 7919) % 1013 + i / 3).collect();
        let f: Vec<f64> = xs.iter().map(|&x| x as f64).collect();
        let mut all = Tally::new();
        xs.iter().for_each(|&x| all.push(x));
        assert_eq!(all.mean(), mean(&f));
        assert!((all.std_dev() - std_dev(&f)).abs() < 1e-9 * std_dev(&f));
        assert_eq!(all.median(), Some(median(&f)));
        let ci = mean_ci95(&f);
        let tally_ci = all.ci95().unwrap();
        assert!((tally_ci.low - ci.low).abs() < 1e-9 && (tally_ci.high - ci.high).abs() < 1e-9);
        // Two far-apart counts: the t interval reaches below 0, a count's
        // interval stops there.
        let mut spread = Tally::new();
        [0u64, 1000].iter().for_each(|&x| spread.push(x));
        assert!(mean_ci95(&[0.0, 1000.0]).low < 0.0);
        let spread_ci = spread.ci95().unwrap();
        assert_eq!(spread_ci.low, 0.0);
        assert!(spread_ci.high > 1000.0);
        // One result has no interval; an empty tally neither.
        let mut one = Tally::new();
        assert_eq!(one.ci95(), None);
        one.push(7);
        assert_eq!(one.ci95(), None);
        assert_eq!(show_ci95(one.ci95().map(|c| c.as_array()), 1), "95% CI n/a");
        assert_eq!(
            show_ci95(Some(spread_ci.as_array()), 1),
            format!("95% CI [0.0, {:.1}]", spread_ci.high)
        );
        for cut in [0, 1, 500, 999, 1000] {
            let (mut a, mut b) = (Tally::new(), Tally::new());
            xs[..cut].iter().for_each(|&x| a.push(x));
            xs[cut..].iter().for_each(|&x| b.push(x));
            a.merge(&b);
            assert_eq!(a, all, "cut at {cut}");
        }
    }

    #[test]
    fn tally_drops_the_values_past_its_limit_but_keeps_exact_sums() {
        let mut t = Tally::new();
        for _ in 0..TALLY_KEEP {
            t.push(3);
        }
        assert!(t.median().is_some());
        t.push(5);
        assert_eq!(t.median(), None);
        assert_eq!(
            (t.n, t.sum, t.min, t.max),
            (
                TALLY_KEEP + 1,
                3 * u128::from(TALLY_KEEP) + 5,
                Some(3),
                Some(5)
            )
        );
    }

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

    /// χ² quantiles against published tables, and the exposure interval's
    /// coverage on simulated exponential lifetimes with censoring.
    #[test]
    fn exponential_mean_interval() {
        for (df, p, want) in [
            (2, 0.975, 7.377_759),
            (4, 0.975, 11.143_287),
            (6, 0.975, 14.449_375),
            (2, 0.025, 0.050_636),
            (40, 0.025, 24.433_039),
            (42, 0.975, 61.776_68),
        ] {
            let got = chi2_even_quantile(df, p);
            assert!((got - want).abs() < 1e-4 * want, "df {df} p {p}: {got}");
        }
        let (est, ci) = exponential_mean95(188.0, 0);
        assert!(est.is_infinite() && ci.high.is_infinite());
        assert!((ci.low - 2.0 * 188.0 / 7.377_759).abs() < 1e-3);
        // Coverage: 20 runs of mean 100, each stopped at 150.
        let mut rng = crate::Rng::new(7);
        let trials = 4000;
        let mut covered = 0;
        for _ in 0..trials {
            let (mut exposure, mut ends) = (0.0, 0);
            for _ in 0..20 {
                let life = -100.0 * (1.0 - rng.unit()).ln();
                exposure += life.min(150.0);
                ends += u64::from(life < 150.0);
            }
            let (_, ci) = exponential_mean95(exposure, ends);
            covered += usize::from(ci.low <= 100.0 && 100.0 <= ci.high);
        }
        let share = covered as f64 / trials as f64;
        assert!((0.94..=0.985).contains(&share), "coverage {share}");
    }
}

//! Every algorithm against the sort-each-window reference on random inputs:
//! windows from 1 to n, duplicates, even windows, negatives, NaNs, infinities.

use arcade_signal::naive::rolling_median_naive;
use arcade_signal::{Algorithm, RollingMedian, rolling_median, rolling_median_with};
use proptest::prelude::*;

const ALGORITHMS: [Algorithm; 6] = [
    Algorithm::Lanes,
    Algorithm::Auto,
    Algorithm::Sorted,
    Algorithm::Heap,
    Algorithm::Blocks,
    Algorithm::Ranks,
];

/// Equal as medians: same number, or both NaN.
fn same(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x == y || (x.is_nan() && y.is_nan()))
}

fn check_all(data: &[f64], k: usize) -> Result<(), TestCaseError> {
    let expected = rolling_median_naive(data, k);
    for algo in ALGORITHMS {
        let got = rolling_median_with(data, k, algo);
        prop_assert!(
            same(&got, &expected),
            "{algo:?} k={k} data={data:?}\n got {got:?}\nwant {expected:?}"
        );
    }
    let mut m = RollingMedian::new(k);
    let streamed: Vec<f64> = data.iter().filter_map(|&x| m.push(x)).collect();
    prop_assert!(same(&streamed, &expected), "streaming k={k} data={data:?}");
    Ok(())
}

/// Values drawn from a small pool (many duplicates), a wide range, or with
/// NaNs and infinities mixed in.
fn value() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => (-5i32..5).prop_map(f64::from),
        4 => -1e6f64..1e6,
        1 => Just(f64::NAN),
        1 => prop_oneof![Just(f64::INFINITY), Just(f64::NEG_INFINITY), Just(-0.0), Just(0.0)],
    ]
}

fn data_and_window(max_len: usize) -> impl Strategy<Value = (Vec<f64>, usize)> {
    prop::collection::vec(value(), 1..max_len).prop_flat_map(|d| {
        let n = d.len();
        (Just(d), 1..=n + 1)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn all_algorithms_match_naive((data, k) in data_and_window(80)) {
        check_all(&data, k)?;
    }

    #[test]
    fn numbers_only_match_naive(
        data in prop::collection::vec(-100i32..100, 1..300).prop_map(|v| v.into_iter().map(f64::from).collect::<Vec<_>>()),
        k in 1usize..60,
    ) {
        check_all(&data, k)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Longer inputs, so the block algorithm crosses many block boundaries
    /// with NaN runs that empty whole windows.
    #[test]
    fn long_inputs_with_nan_runs(
        data in prop::collection::vec(prop_oneof![8 => (-50i32..50).prop_map(f64::from), 1 => Just(f64::NAN)], 200..1500),
        k in 1usize..200,
        nan_run in 0usize..400,
        at in 0usize..1000,
    ) {
        let mut data = data;
        let start = at.min(data.len());
        let end = (start + nan_run).min(data.len());
        data[start..end].fill(f64::NAN);
        check_all(&data, k)?;
    }
}

#[test]
fn leetcode_480_example() {
    let data = [1.0, 3.0, -1.0, -3.0, 5.0, 3.0, 6.0, 7.0];
    for algo in ALGORITHMS {
        assert_eq!(
            rolling_median_with(&data, 3, algo),
            [1.0, -1.0, -1.0, 3.0, 5.0, 6.0],
            "{algo:?}"
        );
    }
    // LeetCode 480's second example, then the same data with an even window.
    let data = [1.0, 2.0, 3.0, 4.0, 2.0, 3.0, 1.0, 4.0, 2.0];
    assert_eq!(
        rolling_median(&data, 3),
        [2.0, 3.0, 3.0, 3.0, 2.0, 3.0, 2.0]
    );
    assert_eq!(rolling_median(&data, 4), [2.5, 2.5, 3.0, 2.5, 2.5, 2.5]);
}

#[test]
fn nan_policy_skips_nans_and_all_nan_windows_give_nan() {
    let nan = f64::NAN;
    let data = [1.0, nan, 3.0, nan, nan, 8.0];
    for algo in ALGORITHMS {
        let m = rolling_median_with(&data, 3, algo);
        // [1,_,3] → 2; [_,3,_] → 3; [3,_,_] → 3; [_,_,8] → 8.
        assert_eq!(m, [2.0, 3.0, 3.0, 8.0], "{algo:?}");
        let m = rolling_median_with(&data, 2, algo);
        assert!(m[3].is_nan(), "{algo:?}: a window of NaNs only gives NaN");
    }
}

#[test]
fn short_input_gives_no_output_and_window_one_is_identity() {
    for algo in ALGORITHMS {
        assert!(rolling_median_with(&[1.0, 2.0], 3, algo).is_empty());
        assert_eq!(
            rolling_median_with(&[4.0, -2.0, 9.0], 1, algo),
            [4.0, -2.0, 9.0]
        );
    }
}

#[test]
#[should_panic(expected = "window must be at least 1")]
fn window_zero_panics() {
    rolling_median(&[1.0], 0);
}

#[test]
fn streaming_clear_starts_over() {
    let mut m = RollingMedian::new(2);
    assert_eq!(m.push(1.0), None);
    assert_eq!(m.push(3.0), Some(2.0));
    m.clear();
    assert!(!m.is_full());
    assert_eq!(m.push(10.0), None);
    assert_eq!(m.push(20.0), Some(15.0));
    assert_eq!(m.window(), 2);
}

/// Values for long windows: small integers (many exact ties), floats a few
/// ulps apart (their sort keys tie in the high bits the block sort packs),
/// and NaNs.
fn long_window_value() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => (-20i32..20).prop_map(f64::from),
        3 => (0u64..64).prop_map(|ulps| f64::from_bits(1.0f64.to_bits() + ulps)),
        3 => -1e9f64..1e9,
        1 => Just(f64::NAN),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Windows of 1024 values and more take the radix-sorted block path.
    #[test]
    fn long_windows_match_naive(
        data in prop::collection::vec(long_window_value(), 3000..4500),
        k in 1024usize..2048,
    ) {
        check_all(&data, k)?;
    }
}

/// `values` in key order (NaNs last), or in reverse key order (NaNs first).
fn monotone(mut values: Vec<f64>, descending: bool) -> Vec<f64> {
    values.sort_by_key(|&x| arcade_signal::key::key(x));
    if descending {
        values.reverse();
    }
    values
}

/// Inputs made of monotone runs, up and down, with ties and NaNs: long runs
/// take the block algorithm's sorted-slice shortcut, and the joins between
/// runs (and blocks that straddle them) the general slide.
fn monotone_runs() -> impl Strategy<Value = Vec<f64>> {
    let run = (prop::collection::vec(value(), 0..250), any::<bool>())
        .prop_map(|(values, descending)| monotone(values, descending));
    prop::collection::vec(run, 1..6).prop_map(|runs| runs.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn monotone_runs_match_naive(data in monotone_runs(), k in 1usize..120) {
        check_all(&data, k)?;
    }

    /// One sorted (or reverse-sorted) input, every window in the shortcut.
    #[test]
    fn sorted_inputs_match_naive(
        values in prop::collection::vec(value(), 1..600),
        descending in any::<bool>(),
        k in 1usize..200,
    ) {
        check_all(&monotone(values, descending), k)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Sorted and reverse-sorted blocks of 1024 values and more (the radix
    /// sorter's in-order shortcuts), joined by a general stretch.
    #[test]
    fn long_monotone_windows_match_naive(
        up in prop::collection::vec(long_window_value(), 2000..3000),
        down in prop::collection::vec(long_window_value(), 2000..3000),
        k in 1024usize..1500,
    ) {
        check_all(&[monotone(up, false), monotone(down, true)].concat(), k)?;
    }
}

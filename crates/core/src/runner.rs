//! Run many seeded episodes in parallel and get the results back in order.
//!
//! Episode `i` always receives the seed `derive_seed(master, i)`, and results
//! are used in index order, so the output is identical whatever the number of
//! threads or the order in which rayon schedules the work.
//! [`fold_episodes`] streams: it plays a block of episodes at a time and folds
//! each result into an accumulator, so memory does not grow with the count.

use crate::progress::Progress;
use crate::rng::derive_seed;
use rayon::prelude::*;

/// Episodes played in parallel before their results are folded in order. Big
/// enough that the threads rarely wait at a block's end, small enough that a
/// block of results takes little memory.
const BLOCK: u64 = 4096;

/// Runs `episodes` episodes of `play(index, seed)` on the current rayon pool,
/// ticking `progress` once per finished episode. Results are in episode order.
///
/// Memory grows with `episodes`: prefer [`fold_episodes`] for counts a user
/// chooses.
pub fn run_episodes<T, F>(episodes: usize, master_seed: u64, progress: &Progress, play: F) -> Vec<T>
where
    T: Send,
    F: Fn(usize, u64) -> T + Sync,
{
    (0..episodes)
        .into_par_iter()
        .with_max_len(1)
        .map(|i| {
            let result = play(i, derive_seed(master_seed, i as u64));
            progress.inc(1);
            result
        })
        .collect()
}

/// Plays episodes `range` (`play(index, seed)`, seed `derive_seed(master, index)`)
/// on the current rayon pool, a block at a time, and calls `fold(index,
/// result)` for each in index order. Memory holds one block of results.
///
/// After [`Progress::cancel`] (Ctrl-C) no episode starts: those under way
/// end as `play` ends them, and only the episodes played are folded, so a
/// caller can report them.
pub fn fold_episodes<T, F, G>(
    range: std::ops::Range<u64>,
    master_seed: u64,
    progress: &Progress,
    play: F,
    mut fold: G,
) where
    T: Send,
    F: Fn(u64, u64) -> T + Sync,
    G: FnMut(u64, T),
{
    let mut start = range.start;
    while start < range.end {
        let end = range.end.min(start.saturating_add(BLOCK));
        let block: Vec<Option<T>> = (0..(end - start) as usize)
            .into_par_iter()
            .with_max_len(1)
            .map(|k| {
                if progress.is_cancelled() {
                    return None;
                }
                let i = start + k as u64;
                let result = play(i, derive_seed(master_seed, i));
                progress.inc(1);
                Some(result)
            })
            .collect();
        for (i, result) in (start..end).zip(block) {
            if let Some(result) = result {
                fold(i, result);
            }
        }
        if progress.is_cancelled() {
            return;
        }
        start = end;
    }
}

/// The most worker threads a run starts: four per core. More only adds
/// switching (results do not depend on the thread count).
pub fn max_threads() -> usize {
    4 * std::thread::available_parallelism().map_or(1, usize::from)
}

/// The number of threads a run with `threads` asked for actually uses: all
/// cores when `None`, else the request capped at [`max_threads`].
pub fn effective_threads(threads: Option<usize>) -> usize {
    match threads {
        None => rayon::current_num_threads(),
        Some(n) => n.clamp(1, max_threads()),
    }
}

/// Runs `work` on a rayon pool of `threads` threads (all cores when `None`;
/// capped at [`max_threads`]). If the system refuses a new pool, the work runs
/// on the global pool instead: results do not depend on the thread count.
pub fn with_threads<R: Send>(threads: Option<usize>, work: impl FnOnce() -> R + Send) -> R {
    let Some(n) = threads else { return work() };
    match rayon::ThreadPoolBuilder::new()
        .num_threads(n.clamp(1, max_threads()))
        .build()
    {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn episode(i: usize, seed: u64) -> (usize, u64) {
        let mut rng = Rng::new(seed);
        // Uneven work so threads finish out of order.
        let spins = rng.below(2_000) as usize * (i % 7);
        let mut acc = 0u64;
        for _ in 0..spins {
            acc = acc.wrapping_add(rng.next_u64());
        }
        (i, acc ^ rng.next_u64())
    }

    /// After a cancel no episode starts; the ones played are folded, in
    /// order, and the fold stops there.
    #[test]
    fn a_cancel_starts_no_more_episodes() {
        let progress = Progress::hidden();
        let mut folded = Vec::new();
        with_threads(Some(1), || {
            fold_episodes(
                0..10_000,
                3,
                &progress,
                |i, _| {
                    if i == 700 {
                        progress.cancel();
                    }
                    i
                },
                |i, r| folded.push((i, r)),
            )
        });
        assert_eq!(folded.len(), 701);
        assert!(
            folded
                .iter()
                .enumerate()
                .all(|(k, &(i, r))| i == k as u64 && r == i)
        );
        let mut none = 0;
        fold_episodes(0..10, 3, &progress, |i, _| i, |_, _| none += 1);
        assert_eq!(none, 0, "cancelled before the start: nothing played");
    }

    #[test]
    fn results_are_in_order_and_independent_of_thread_count() {
        let one = with_threads(Some(1), || {
            run_episodes(200, 11, &Progress::hidden(), episode)
        });
        let four = with_threads(Some(4), || {
            run_episodes(200, 11, &Progress::hidden(), episode)
        });
        assert_eq!(one, four);
        assert!(one.iter().enumerate().all(|(i, r)| r.0 == i));
        let other_seed = run_episodes(200, 12, &Progress::hidden(), episode);
        assert_ne!(one, other_seed);
    }

    /// Folding across block boundaries sees every episode once, in order,
    /// with the same results as collecting them, at any thread count; a
    /// sub-range folds exactly the matching part (how shards split a run).
    #[test]
    fn fold_matches_collect_in_order_across_blocks_and_ranges() {
        let n = 2 * BLOCK as usize + 37;
        let collected = run_episodes(n, 5, &Progress::hidden(), episode);
        for threads in [1, 3] {
            let mut folded = Vec::new();
            with_threads(Some(threads), || {
                fold_episodes(
                    0..n as u64,
                    5,
                    &Progress::hidden(),
                    |i, s| episode(i as usize, s),
                    |i, r| folded.push((i, r)),
                )
            });
            assert!(folded.iter().enumerate().all(|(k, (i, _))| *i == k as u64));
            let results: Vec<_> = folded.into_iter().map(|(_, r)| r).collect();
            assert_eq!(results, collected);
        }
        let mut part = Vec::new();
        fold_episodes(
            BLOCK - 3..BLOCK + 5,
            5,
            &Progress::hidden(),
            |i, s| episode(i as usize, s),
            |_, r| part.push(r),
        );
        assert_eq!(part, collected[BLOCK as usize - 3..BLOCK as usize + 5]);
    }

    #[test]
    fn absurd_thread_counts_are_capped_not_fatal() {
        assert_eq!(effective_threads(Some(1 << 40)), max_threads());
        assert_eq!(effective_threads(Some(0)), 1);
        let used = with_threads(Some(usize::MAX), rayon::current_num_threads);
        assert_eq!(used, max_threads());
    }
}

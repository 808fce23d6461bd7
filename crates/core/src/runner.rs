//! Run many seeded episodes in parallel and get the results back in order.
//!
//! Episode `i` always receives the seed `derive_seed(master, i)`, and results
//! are collected by index, so the output is identical whatever the number of
//! threads or the order in which rayon schedules the work.

use crate::progress::Progress;
use crate::rng::derive_seed;
use rayon::prelude::*;

/// Runs `episodes` episodes of `play(index, seed)` on the current rayon pool,
/// ticking `progress` once per finished episode. Results are in episode order.
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

/// Runs `work` on a rayon pool of `threads` threads (all cores when `None`).
pub fn with_threads<R: Send>(threads: Option<usize>, work: impl FnOnce() -> R + Send) -> R {
    match threads {
        None => work(),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
            .expect("building a rayon thread pool")
            .install(work),
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
}

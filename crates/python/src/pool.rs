//! The extension's thread pool, one per process.
//!
//! Rayon's global pool does not survive `fork()`: its threads are not copied
//! into the child, so a child forked after the parent had used the pool
//! (`multiprocessing`'s and `AsyncVectorEnv`'s default start on Linux) would
//! wait forever on workers that do not exist. The extension therefore never
//! runs on the global pool: its parallel work runs on this pool ([`install`],
//! [`detach`]), made afresh in a process other than the one that made it;
//! one game's serial work stays on the calling thread ([`detach_serial`]).
//! The pool is found without a lock, so a fork at any moment leaves nothing
//! held in the child.

use pyo3::Python;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::atomic::{AtomicPtr, Ordering};

/// A pool and the id of the process that made it (leaked: a pool lives as
/// long as its process, and a parent's has no threads to stop in a child).
struct Owned {
    pid: u32,
    pool: ThreadPool,
}

static POOL: AtomicPtr<Owned> = AtomicPtr::new(std::ptr::null_mut());

/// This process's pool (as many threads as rayon's global pool would have,
/// `RAYON_NUM_THREADS` included), or `None` if the system refuses threads.
fn pool() -> Option<&'static ThreadPool> {
    let pid = std::process::id();
    let current = POOL.load(Ordering::Acquire);
    // SAFETY: a non-null pointer is a leaked `Box<Owned>`, never freed.
    if let Some(owned) = unsafe { current.as_ref() }
        && owned.pid == pid
    {
        return Some(&owned.pool);
    }
    let fresh = ThreadPoolBuilder::new()
        // Named, so a test can tell them from a global pool's threads.
        .thread_name(|i| format!("arcadekit-{i}"))
        .build()
        .ok()?;
    let mine = Box::into_raw(Box::new(Owned { pid, pool: fresh }));
    match POOL.compare_exchange(current, mine, Ordering::AcqRel, Ordering::Acquire) {
        // SAFETY: `mine` was just leaked and is now shared, never freed.
        Ok(_) => Some(unsafe { &(*mine).pool }),
        Err(_) => {
            // Another thread of this process made one first: use that one.
            // SAFETY: `mine` was never shared.
            drop(unsafe { Box::from_raw(mine) });
            pool()
        }
    }
}

/// The threads of this process's pool (1 without one).
pub(crate) fn threads() -> usize {
    pool().map_or(1, ThreadPool::current_num_threads)
}

/// Runs `work` on this process's pool, so that its parallel loops never
/// start rayon's global pool.
pub(crate) fn install<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    match pool() {
        Some(pool) => pool.install(work),
        None => work(),
    }
}

/// Runs `work` with the GIL released, on this process's pool.
pub(crate) fn detach<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> T {
    py.detach(|| install(work))
}

/// Runs one game's `work`, which never goes parallel, with the GIL released
/// on this thread: handing it to the pool would cost more than a cheap
/// expert's move (a single environment's `solver_action` ran at a third of
/// its speed). `python/tests/test_fork.py` runs each such call in a process
/// that must start no global pool, so one that goes parallel is caught.
pub(crate) fn detach_serial<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> T {
    py.detach(work)
}

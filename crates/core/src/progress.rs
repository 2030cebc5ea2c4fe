//! How far this process's long work is (an index build, an export, a
//! backup, a verify, an import, a rewrite): bytes done of bytes to do, for
//! the command line's progress line, which reads it while the work runs on
//! the thread pool. One pair of counters for the process: the command line
//! runs one command at a time; in a gateway the counters only count.

use std::sync::atomic::{AtomicU64, Ordering};

static DONE: AtomicU64 = AtomicU64::new(0);
static TOTAL: AtomicU64 = AtomicU64::new(0);

/// More work to do: `bytes` more to read.
pub fn expect(bytes: u64) {
    TOTAL.fetch_add(bytes, Ordering::Relaxed);
}

/// `bytes` of it done.
pub fn advance(bytes: u64) {
    DONE.fetch_add(bytes, Ordering::Relaxed);
}

/// (bytes done, bytes to do) so far; done never reads above to-do.
pub fn snapshot() -> (u64, u64) {
    let total = TOTAL.load(Ordering::Relaxed);
    (DONE.load(Ordering::Relaxed).min(total), total)
}

//! The parsed indexes of this process, so that a warm search reads no index
//! file: the most recently used kept, [`CACHE_BYTES`] of them in all (by
//! their estimated heap size: a gateway with many large chats holds a bounded
//! amount; an index larger than that alone is not kept past its call, its
//! file is). Each is checked against the log
//! on every use (the covered prefix's size and its fingerprints) and
//! extended to the log's end, so it is exactly what a fresh load would give;
//! the file is rewritten when the index has grown by an eighth (or 1 MiB)
//! since it was last written, so a search after a small append stays cheap
//! and a new process finds most of the work done.

use std::fs::File;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use super::format;
use super::index::{fingerprint, Index};
use super::storage::IndexFile;
use crate::error::CoreError;

/// The parsed indexes kept in memory, in all: of 8 chats of 50 MB logs
/// (about 37 MiB each in memory), the three most recently searched.
pub(crate) const CACHE_BYTES: u64 = 128 << 20;
/// And at most this many, however small: each search looks its log up in
/// the list.
const MAX_KEPT: usize = 64;
const MIN_REWRITE_BYTES: u64 = 1 << 20;
/// How many index file bytes a search with a budget may read per log byte
/// it may index: a byte of index file costs about an eighth of a byte of log
/// to read and check (a 100 MB log's 15.7 MB index: 48 ms to read and check;
/// 4 MiB of log: about 100 ms to index, on a 2-core x64 machine), so either
/// takes about as long at most.
const LOAD_PER_INDEXED: u64 = 8;

pub(crate) struct Cached {
    pub index: Index,
    /// `covered` of the file on disk when it holds this index's prefix.
    written: Option<u64>,
    /// [`Index::heap_bytes`] when `index` covered `sized.0` bytes.
    sized: (u64, u64),
}

impl Cached {
    fn new(index: Index, written: Option<u64>) -> Cached {
        Cached {
            index,
            written,
            sized: (u64::MAX, 0),
        }
    }
}

type Slot = Arc<Mutex<Cached>>;

/// A kept index: its key, its slot, and its size when last used.
struct Kept {
    key: PathBuf,
    slot: Slot,
    bytes: u64,
}

/// Most recently used first.
static CACHE: Mutex<Vec<Kept>> = Mutex::new(Vec::new());

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn slot(file: &dyn IndexFile) -> Slot {
    let mut cache = lock(&CACHE);
    let key = file.key();
    if let Some(at) = cache.iter().position(|kept| kept.key == key) {
        let entry = cache.remove(at);
        let slot = entry.slot.clone();
        cache.insert(0, entry);
        return slot;
    }
    let slot: Slot = Arc::new(Mutex::new(Cached::new(Index::default(), None)));
    cache.insert(
        0,
        Kept {
            key: key.to_owned(),
            slot: slot.clone(),
            bytes: 0,
        },
    );
    slot
}

/// Drops every kept index, as a new process starts (tests of what a
/// restarted gateway reads).
pub(crate) fn clear() {
    lock(&CACHE).clear();
}

/// Records the size of `key`'s index after a use and drops the least
/// recently used indexes until the kept ones fit in `cap` bytes; one larger
/// than `cap` alone is dropped too (a search holding its slot keeps its
/// index until it returns).
fn fit(cache: &mut Vec<Kept>, key: &std::path::Path, bytes: u64, cap: u64) {
    if let Some(kept) = cache.iter_mut().find(|kept| kept.key == key) {
        kept.bytes = bytes;
    }
    let (mut total, mut count) = (0u64, 0usize);
    cache.retain(|kept| {
        let fits = total.saturating_add(kept.bytes) <= cap && count < MAX_KEPT;
        if fits {
            total += kept.bytes;
            count += 1;
        }
        fits
    });
}

/// Runs `f` on the index of `log` (`log_len` bytes now), loaded, checked,
/// rebuilt or extended as needed. `rebuild` drops whatever was there first
/// (a hit did not match the log).
///
/// With a `budget` (bytes of log this call may index), `None` instead of
/// waiting or working long: when another thread of the process is using or
/// building this index, or when it lags the log by more than the budget (a
/// chat's first search of a large log), or when the index file it would
/// have to read is larger than [`LOAD_PER_INDEXED`] times the budget (a
/// large chat's first search in a new process). What it writes is bounded
/// by the rewrite rule: the file is rewritten when the index has grown by an
/// eighth, and the call indexes at most the budget.
pub(crate) fn with_index<T>(
    log: &File,
    log_len: u64,
    file: &dyn IndexFile,
    rebuild: bool,
    budget: Option<u64>,
    f: impl FnOnce(&Index) -> T,
) -> Result<Option<T>, CoreError> {
    let slot = slot(file);
    let mut cached = match budget {
        None => lock(&slot),
        Some(_) => match slot.try_lock() {
            Ok(cached) => cached,
            Err(std::sync::TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => return Ok(None),
        },
    };
    let result = use_index(&mut cached, log, log_len, file, rebuild, budget, f);
    // Whatever the call did (an early return may have loaded the file), the
    // kept indexes are sized and fitted; sized again only when the index
    // changed, since it walks every term.
    let covered = cached.index.covered;
    if cached.sized.0 != covered {
        cached.sized = (covered, cached.index.heap_bytes());
    }
    fit(&mut lock(&CACHE), file.key(), cached.sized.1, CACHE_BYTES);
    result
}

/// [`with_index`]'s work on the slot it holds.
fn use_index<T>(
    cached: &mut Cached,
    log: &File,
    log_len: u64,
    file: &dyn IndexFile,
    rebuild: bool,
    budget: Option<u64>,
    f: impl FnOnce(&Index) -> T,
) -> Result<Option<T>, CoreError> {
    let shown = || file.key().to_string_lossy().into_owned();
    let io = |err: std::io::Error| CoreError::io(&err, "read", &shown());
    if rebuild {
        *cached = Cached::new(Index::default(), None);
    }
    if cached.index.covered == 0 && !rebuild {
        // Nothing in memory: the file, if it is whole and of this version.
        // An index is about a third of its log: twice the log is no index of ours.
        let cap = log_len.saturating_mul(2).saturating_add(1 << 20);
        let cap = budget.map_or(cap, |budget| {
            cap.min(budget.saturating_mul(LOAD_PER_INDEXED))
        });
        if let Some(index) = file.load(cap)?.and_then(|b| format::decode(&b)) {
            let covered = index.covered;
            *cached = Cached::new(index, Some(covered));
        }
    }
    if !matches_log(&cached.index, log, log_len).map_err(io)? {
        *cached = Cached::new(Index::default(), None);
    }
    if budget.is_some_and(|budget| log_len.saturating_sub(cached.index.covered) > budget) {
        return Ok(None);
    }
    cached.index.extend(log, log_len).map_err(io)?;
    let covered = cached.index.covered;
    let stale = match cached.written {
        None => true,
        Some(written) => covered - written.min(covered) >= MIN_REWRITE_BYTES.max(written / 8),
    };
    if stale {
        // A cache: a failed write (a read-only folder) costs a rebuild in
        // the next process, not this search; it is tried again when the
        // index has grown as much again.
        if file.save(&format::encode(&cached.index)).is_ok()
            && !still_of_the_log(file, &cached.index)
        {
            file.discard();
        }
        cached.written = Some(covered);
    }
    Ok(Some(f(&cached.index)))
}

/// Whether the log the index file's path names now (for a search that holds
/// no chat lock) still starts with the prefix `index` covers: an index saved
/// for a log that a rewrite replaced meanwhile would keep words of removed
/// entries beside the new log.
fn still_of_the_log(file: &dyn IndexFile, index: &Index) -> bool {
    match file.log_now() {
        None => true,
        Some(Ok(log)) => log
            .metadata()
            .and_then(|m| matches_log(index, &log, m.len()))
            .unwrap_or(false),
        Some(Err(_)) => false,
    }
}

/// Whether the log still starts with the prefix `index` covers.
fn matches_log(index: &Index, log: &File, log_len: u64) -> std::io::Result<bool> {
    if index.covered > log_len {
        return Ok(false);
    }
    Ok(fingerprint(log, index.covered)? == Some((index.head, index.tail)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(name: &str, bytes: u64) -> Kept {
        Kept {
            key: PathBuf::from(name),
            slot: Arc::new(Mutex::new(Cached::new(Index::default(), None))),
            bytes,
        }
    }

    fn keys(cache: &[Kept]) -> Vec<&str> {
        cache
            .iter()
            .map(|k| k.key.to_str().unwrap_or("?"))
            .collect()
    }

    #[test]
    fn the_least_recently_used_go_first_until_the_rest_fit() {
        // Eight chats of 22 units each, most recent first, a cap of 128:
        // the five most recent stay.
        let mut cache: Vec<Kept> = (0..8).map(|i| kept(&format!("c{i}"), 22)).collect();
        fit(&mut cache, std::path::Path::new("c0"), 22, 128);
        assert_eq!(keys(&cache), ["c0", "c1", "c2", "c3", "c4"]);
        assert!(cache.iter().map(|k| k.bytes).sum::<u64>() <= 128);
    }

    #[test]
    fn an_index_larger_than_the_cap_is_not_kept_and_evicts_nothing_else() {
        let mut cache = vec![kept("huge", 0), kept("a", 40), kept("b", 40)];
        fit(&mut cache, std::path::Path::new("huge"), 500, 128);
        assert_eq!(keys(&cache), ["a", "b"]);
    }

    #[test]
    fn at_most_max_kept_however_small() {
        let mut cache: Vec<Kept> = (0..100).map(|i| kept(&format!("c{i}"), 1)).collect();
        fit(&mut cache, std::path::Path::new("c0"), 1, 128);
        assert_eq!(cache.len(), MAX_KEPT);
        assert_eq!(keys(&cache[..2]), ["c0", "c1"]);
    }

    #[test]
    fn a_grown_index_is_sized_again() {
        let mut cache = vec![kept("a", 10), kept("b", 100)];
        fit(&mut cache, std::path::Path::new("a"), 60, 128);
        assert_eq!(keys(&cache), ["a"]);
    }
}

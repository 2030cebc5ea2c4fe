//! Ranked full-text search over one perpetual log, and a window read around
//! an entry (issue 30).
//!
//! - `tokenize`, `stem`: text to terms (UAX #29 words, folded, stemmed;
//!   bigrams for scripts without spaces);
//! - `index`: the index in memory, built and extended from the log;
//! - `codec`, `format`: the index file's bytes (a checked parser);
//! - [`storage`]: where the index file lives, the seam the chat store takes
//!   over ([`IndexFile`]);
//! - `cache`: the parsed indexes of this process, checked against the log on
//!   every use;
//! - `rank`: BM25, the turn after a match, and the lift of the query's
//!   time words;
//! - `when`, `zone`: a query's time words as spans of time, read at the
//!   caller's `now` in the user's time zone (IANA names from the tz
//!   database bundled with `jiff`);
//! - `excerpt`: the text shown for a hit;
//! - `read`: a hit or a window entry read again from the log and checked.
//!
//! The index is derived, never trusted: it is checked against the log (the
//! covered prefix's size and fingerprints of its first and last 4 KiB) and
//! rebuilt when it does not match, and every entry returned is read again
//! from the log at its offset and must hash to what was indexed; if one
//! does not, the index is rebuilt and the search done again, so nothing the
//! log no longer holds is returned.

mod cache;
mod codec;
mod excerpt;
mod format;
mod index;
mod rank;
mod read;
mod stem;
pub mod storage;
mod tokenize;
mod when;
mod zone;

use std::fs::File;
use std::path::Path;

pub use storage::{IndexBeside, IndexFile, INDEX_SUFFIX};
pub use zone::{Zone, MAX_OFFSET_MINUTES};

/// `text` folded as the search folds words (lower case, compatibility
/// decomposition, no combining marks): `forget --ignore-case` matches by it.
pub fn fold_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    tokenize::fold(text, &mut out);
    out
}

use crate::error::CoreError;
use crate::mask::{builtin_masker, Masker};
use crate::persistent_chat::fs::open_state_file;
use crate::persistent_chat::log::LogEntry;
use crate::persistent_chat::text::shown_text;
use crate::persistent_chat::Links;
use read::{read_doc, Read};

/// At most this many hits.
pub const MAX_LIMIT: usize = 100;
/// At most this many entries on each side of a window.
pub const MAX_WINDOW: usize = 50;
/// A window entry's text is cut to this many UTF-16 units by default (the
/// prompt builders' `maxEntryChars`), and to at most [`MAX_WINDOW_ENTRY_CHARS`].
pub const DEFAULT_WINDOW_ENTRY_CHARS: usize = 8_000;
/// The most a window returns of one entry's text: a window holds at most
/// `2 × MAX_WINDOW + 1` entries, so at most 6.6 M units leave in one call,
/// whatever the log's lines weigh (up to 8 MiB each).
pub const MAX_WINDOW_ENTRY_CHARS: usize = 64 * 1024;

#[derive(Debug, Clone)]
pub struct SearchOptions {
    /// Hits wanted (clamped to 1..=[`MAX_LIMIT`]).
    pub limit: usize,
    /// The excerpt's length in UTF-16 units.
    pub excerpt_chars: usize,
    pub links: Links,
    /// The most log bytes the search may index before it answers (and an
    /// eighth of the largest index file it may read); `None`: all it takes.
    /// Past it the search answers nothing (see [`search_open_log_within`]).
    pub index_budget: Option<u64>,
    /// The time the query's time words are read at ("yesterday", "last
    /// week"), UTC epoch milliseconds; `None`: a query has no time words
    /// (the search never reads the clock itself).
    pub now_ms: Option<i64>,
    /// The user's time zone: days, weeks, months and years are its.
    pub zone: Zone,
    /// Where lines start that the caller holds already (a turn's excerpt,
    /// for its recall), ascending: a hit there is left out unread, so a
    /// multi-megabyte entry the prompt shows anyway costs no second read.
    pub known_lines: Vec<u64>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            limit: 10,
            excerpt_chars: 600,
            links: Links::Follow,
            index_budget: None,
            now_ms: None,
            zone: Zone::UTC,
            known_lines: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    /// The entry as the log holds it now, its `text` cut to the excerpt.
    pub entry: LogEntry,
    /// Its 1-based line number in the log.
    pub line: u64,
    /// Higher is better.
    pub score: f64,
}

/// An entry of a window read, with its line.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowEntry {
    pub entry: LogEntry,
    pub line: u64,
}

/// A window read: where it is centred, how many entries on each side (each
/// at most [`MAX_WINDOW`]) and how much of each entry's text it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Window {
    pub at: WindowAt,
    pub before: usize,
    pub after: usize,
    /// Each entry's text, masked whole, then cut to this many units (the
    /// prompt builders' cut: a grapheme boundary and a note of what was left
    /// out); at most [`MAX_WINDOW_ENTRY_CHARS`].
    pub max_entry_chars: usize,
    /// The texts of the window together at most about this many units:
    /// each entry's cut is the smaller of `max_entry_chars` and an equal
    /// share of it among the entries read (a cut text keeps its note).
    pub max_chars: Option<usize>,
}

impl Window {
    /// The window around `at`, `before` and `after` entries, each entry's
    /// text cut at [`DEFAULT_WINDOW_ENTRY_CHARS`].
    pub fn around(at: WindowAt, before: usize, after: usize) -> Window {
        Window {
            at,
            before,
            after,
            max_entry_chars: DEFAULT_WINDOW_ENTRY_CHARS,
            max_chars: None,
        }
    }
}

/// Where a window is centred.
#[derive(Debug, Clone, PartialEq)]
pub enum WindowAt {
    /// The last entry with this `id`.
    Id(Vec<u16>),
    /// The entry at this 1-based line (or, if that line holds none, the
    /// place between its neighbours).
    Line(u64),
}

/// Searches the log at `path` with `query` (UTF-16), its index kept beside it
/// ([`IndexBeside`]). Best first; an empty or wordless query, or one none of
/// whose words occur, gives no hits. Each hit's text is masked with the
/// built-in patterns before it is cut ([`search_open_log_within`]).
pub fn search_log(
    path: &Path,
    query: &[u16],
    options: &SearchOptions,
) -> Result<Vec<SearchHit>, CoreError> {
    let (log, _) = open_state_file(path, options.links)?;
    search_open_log(
        &log,
        &IndexBeside::for_log(path, options.links),
        query,
        options,
        &builtin_masker(),
    )
}

/// [`search_log`], with a missing log read as an empty one.
pub fn search_log_or_empty(
    path: &Path,
    query: &[u16],
    options: &SearchOptions,
) -> Result<Vec<SearchHit>, CoreError> {
    match search_log(path, query, options) {
        Err(CoreError::Io { code: "ENOENT", .. }) if !path.exists() => Ok(Vec::new()),
        other => other,
    }
}

/// The search over a log the caller opened (and checked) itself, with its
/// index in `index`: the chat store's entry point.
pub fn search_open_log(
    log: &File,
    index: &dyn IndexFile,
    query: &[u16],
    options: &SearchOptions,
    masker: &Masker,
) -> Result<Vec<SearchHit>, CoreError> {
    Ok(search_open_log_within(log, index, query, options, masker)?.unwrap_or_default())
}

/// [`search_open_log`], or `None` when `options.index_budget` is set and
/// the index lags the log by more than it, its file (not yet read by this
/// process) is more than 8 times larger, or another thread of the process
/// is using or building it: a caller that must not wait (a turn's recall)
/// answers without hits, and [`warm_open_log_index`] catches the index up.
///
/// Each hit's text leaves masked by `masker` whole, then cut to its
/// excerpt: a cut first could leave out the opening tag of a `<private>`
/// span whose text it keeps, or split a secret so no pattern knows it.
pub fn search_open_log_within(
    log: &File,
    index: &dyn IndexFile,
    query: &[u16],
    options: &SearchOptions,
    masker: &Masker,
) -> Result<Option<Vec<SearchHit>>, CoreError> {
    let query = String::from_utf16_lossy(query);
    let limit = options.limit.clamp(1, MAX_LIMIT);
    let time = options
        .now_ms
        .map(|now| when::time_words(&query, now, &options.zone))
        .unwrap_or_default();
    let mut rebuild = false;
    loop {
        let log_len = log_len(log, index)?;
        // A rebuild (a hit the log no longer holds) keeps the budget too: a
        // large log's rebuild is left for the caller's warm-up.
        let budget = options.index_budget;
        let Some((terms, ranked, docs)) =
            cache::with_index(log, log_len, index, rebuild, budget, |idx| {
                let (terms, only_time) = rank::query_terms(idx, &query, &time);
                let mut spans = time.spans.clone();
                spans.extend(rank::event_spans(idx, &query, &time.events));
                let ranked = rank::rank(idx, &terms, &spans, only_time, limit);
                let docs: Vec<_> = ranked.iter().map(|&(doc, _)| idx.docs[doc]).collect();
                (terms, ranked, docs)
            })?
        else {
            return Ok(None);
        };
        let mut hits = Vec::with_capacity(ranked.len());
        let mut stale = false;
        for (&(_, score), doc) in ranked.iter().zip(&docs) {
            if options.known_lines.binary_search(&doc.offset).is_ok() {
                continue;
            }
            match read_doc(log, doc).map_err(|err| read_error(err, index))? {
                Read::Entry(mut entry) => {
                    let masked = masker.mask(&entry.text);
                    entry.text = excerpt::excerpt(&masked, &terms, options.excerpt_chars);
                    hits.push(SearchHit {
                        entry,
                        line: doc.line,
                        score: f64::from(score),
                    });
                }
                Read::Changed => stale = true,
            }
        }
        if !stale || rebuild {
            return Ok(Some(hits));
        }
        rebuild = true;
    }
}

/// Forgets the parsed indexes this process keeps, so the next search reads
/// the index file as a new process would (a test's restarted gateway).
#[doc(hidden)]
pub fn drop_cached_indexes() {
    cache::clear();
}

/// Brings the index of `log` up to the log's end (loaded, checked, built or
/// extended, and written): what a budgeted search left for later.
pub fn warm_open_log_index(log: &File, index: &dyn IndexFile) -> Result<(), CoreError> {
    let log_len = log_len(log, index)?;
    cache::with_index(log, log_len, index, false, None, |_| ())?;
    Ok(())
}

/// The entries of `window` in the log at `path`: up to `before` entries
/// before its entry, the entry itself, up to `after` after it (each at most
/// [`MAX_WINDOW`]), oldest first, their texts masked with the built-in
/// patterns, then cut. An id no entry has gives none.
pub fn read_log_window(
    path: &Path,
    window: &Window,
    links: Links,
) -> Result<Vec<WindowEntry>, CoreError> {
    let (log, _) = open_state_file(path, links)?;
    read_open_log_window(
        &log,
        &IndexBeside::for_log(path, links),
        window,
        &builtin_masker(),
    )
}

/// [`read_log_window`] over a log the caller opened: the chat store's entry
/// point. Each entry's text is masked by `masker` whole, then cut to
/// `window.max_entry_chars` (at most [`MAX_WINDOW_ENTRY_CHARS`]).
pub fn read_open_log_window(
    log: &File,
    index: &dyn IndexFile,
    window: &Window,
    masker: &Masker,
) -> Result<Vec<WindowEntry>, CoreError> {
    let (before, after) = (window.before.min(MAX_WINDOW), window.after.min(MAX_WINDOW));
    let max_chars = window.max_entry_chars.clamp(1, MAX_WINDOW_ENTRY_CHARS);
    let shown = |mut entry: LogEntry| {
        let masked = masker.mask(&entry.text);
        entry.text = shown_text(&masked, Some(max_chars)).into_owned();
        entry
    };
    let mut rebuild = false;
    loop {
        let log_len = log_len(log, index)?;
        let (entries, stale) = cache::with_index(log, log_len, index, rebuild, None, |idx| {
            read::window(log, idx, &window.at, before, after, &shown)
        })?
        // Unbudgeted: always an index.
        .unwrap_or_else(|| (Ok(Vec::new()), false));
        let mut entries = entries.map_err(|err| read_error(err, index))?;
        if !stale || rebuild {
            if let Some(total) = window.max_chars {
                let share = (total / entries.len().max(1)).max(1);
                for item in entries
                    .iter_mut()
                    .filter(|item| item.entry.text.len() > share)
                {
                    // A text cut already counts as the text it was cut from.
                    item.entry.text = shown_text(&item.entry.text, Some(share)).into_owned();
                }
            }
            return Ok(entries);
        }
        rebuild = true;
    }
}

fn log_len(log: &File, index: &dyn IndexFile) -> Result<u64, CoreError> {
    log.metadata()
        .map(|m| m.len())
        .map_err(|err| read_error(err, index))
}

fn read_error(err: std::io::Error, index: &dyn IndexFile) -> CoreError {
    // The index's path ends with the log's: name the log.
    let shown = index.key().to_string_lossy();
    let log = shown.strip_suffix(INDEX_SUFFIX).unwrap_or(&shown);
    CoreError::io(&err, "read", log)
}

/// For the fuzz target (`fuzz/fuzz_targets/search_index.rs`): reads `bytes`
/// as an index file; when they are one, checks that it writes back to an
/// equal index and ranks `query` over it. Returns the hits' count, `None`
/// for bytes that are no index. Never panics, whatever the bytes.
#[doc(hidden)]
pub fn fuzz_index_bytes(bytes: &[u8], query: &str) -> Option<usize> {
    let index = format::decode(bytes)?;
    let again = format::decode(&format::encode(&index));
    assert!(
        again.as_ref() == Some(&index),
        "an index reads back the same"
    );
    // Time words read at a fixed time (2026-05-14T09:00Z), so that the
    // documents' times are ranked over too.
    let time = when::time_words(query, 1_778_749_200_000, &Zone::UTC);
    let (terms, only_time) = rank::query_terms(&index, query, &time);
    let mut spans = time.spans.clone();
    spans.extend(rank::event_spans(&index, query, &time.events));
    Some(rank::rank(&index, &terms, &spans, only_time, MAX_LIMIT).len())
}

/// For the fuzz target's seeds: the index file of a log of `lines`.
#[doc(hidden)]
pub fn index_bytes_of_log(log: &File) -> std::io::Result<Vec<u8>> {
    let mut index = index::Index::default();
    index.extend(log, log.metadata()?.len())?;
    Ok(format::encode(&index))
}

#![deny(clippy::all)]
// Every unsafe block says why it is sound.
#![deny(clippy::undocumented_unsafe_blocks)]
//! openclaw-context-native: the public surface. Each export converts its JS
//! arguments, calls the pure-Rust core and maps errors; nothing else.

mod binding;
mod chat_store;

use std::sync::Arc;

use binding::mask::SecretMaskerRefusal;
use binding::persistent_chat::{PersistentChatLogEntry, PersistentChatPromptReport};
use binding::promise::{spawn, Job};
use binding::search::{PersistentChatLogHit, PersistentChatLogWindowEntry};
use binding::shape::{arg, FromJs, Limit};
use binding::text::Utf16String;
use binding::{budget, run, Failure, Js};
use napi::bindgen_prelude::{PromiseRaw, Unknown};
use napi::Env;
use napi_derive::napi;
use openclaw_context_core::compaction::{self, CapReport, MAX_COMPACTION_SUMMARY_CHARS};
use openclaw_context_core::error::CoreError;
use openclaw_context_core::mask::Masker;
use openclaw_context_core::persistent_chat::log::{
    entry_cap, read_log_tail_with_options, LogEntry, LogReadOptions,
};
use openclaw_context_core::persistent_chat::prompt::PromptReport;
use openclaw_context_core::search;

/// OpenClaw 2026.7.x's `capCompactionSummary`, bit for bit: the summary as
/// is when `maxChars <= 0` or it fits; else its UTF-16-safe prefix plus a
/// blank line and `[Compaction summary truncated to fit budget]` (46 units in
/// all); the bare prefix when even the marker does not fit.
///
/// `maxChars` defaults to 16000 (also for `NaN`); `Infinity` means no cap.
/// Throws a `TypeError` for a non-string `summary` or non-number `maxChars`.
#[napi(
    catch_unwind,
    ts_args_type = "summary: string, maxChars?: number",
    ts_return_type = "string"
)]
pub fn cap_compaction_summary(
    env: Env,
    summary: Unknown,
    max_chars: Unknown,
) -> napi::Result<Utf16String> {
    run(&env, || {
        let summary = Js::from(summary).string("summary")?;
        let max_chars = budget(
            Js::from(max_chars),
            "maxChars",
            MAX_COMPACTION_SUMMARY_CHARS,
        )?;
        Ok(compaction::cap_compaction_summary(&summary, max_chars).into())
    })
}

/// Options of `capCompactionSummaryPreservingSuffix`.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct CapCompactionOptions {
    /// Cap further so that `result.length / 4 <= tokenBudget` (OpenClaw's
    /// token estimate). Applies even when `maxChars <= 0`. A value `<= 0`,
    /// `NaN` or `Infinity` adds no cap.
    pub token_budget: Option<f64>,
    /// Headings (whole lines, compared trimmed) that must survive when not
    /// all headings fit. Default: OpenClaw's five required sections.
    pub required_headings: Option<Vec<Utf16String>>,
    /// Strings (IDs, URLs, paths) whose lines in the body are kept first,
    /// verbatim, when they fit.
    pub protected_identifiers: Option<Vec<Utf16String>>,
}

/// What `capCompactionSummaryReport` returns.
#[napi(object, object_from_js = false)]
pub struct CapCompactionReport {
    /// The capped summary: exactly what `capCompactionSummaryPreservingSuffix` returns.
    #[napi(ts_type = "string")]
    pub summary: Utf16String,
    /// Whether text of the summary body was removed.
    pub body_trimmed: bool,
    /// Whether text of the preserved suffix was removed.
    pub suffix_trimmed: bool,
    /// The units of budget the body had (its final share).
    pub body_budget: f64,
    /// The units of budget the suffix had.
    pub suffix_budget: f64,
}

impl From<CapReport> for CapCompactionReport {
    fn from(report: CapReport) -> Self {
        CapCompactionReport {
            summary: report.summary.into(),
            body_trimmed: report.body_trimmed,
            suffix_trimmed: report.suffix_trimmed,
            body_budget: report.body_budget as f64,
            suffix_budget: report.suffix_budget as f64,
        }
    }
}

fn cap_with_suffix(
    summary_body: Unknown,
    suffix: Unknown,
    max_chars: Unknown,
    options: Unknown,
) -> Result<CapReport, Failure> {
    let body = Js::from(summary_body).string("summaryBody")?;
    let suffix = Js::from(suffix).string("suffix")?;
    let max_chars = budget(
        Js::from(max_chars),
        "maxChars",
        MAX_COMPACTION_SUMMARY_CHARS,
    )?;
    let options = binding::cap_options(Js::from(options))?;
    Ok(compaction::cap_preserving_suffix(
        &body, &suffix, max_chars, &options,
    ))
}

/// OpenClaw's `capCompactionSummaryPreservingSuffix`, fixed.
///
/// Unchanged: an empty `suffix` gives `capCompactionSummary(summaryBody, maxChars)`;
/// `maxChars <= 0` or a total that fits gives `summaryBody + suffix`.
/// Otherwise `result.length <= maxChars` and:
/// - the body keeps at least `min(summaryBody.length, ceil(maxChars / 2))`
///   units and every heading line (the required ones first when not all
///   fit), each section its first lines; `[Compaction summary truncated to
///   fit budget]` says once that text was removed;
/// - the suffix loses its oldest items and sections first, cut at item or
///   line starts (when no line fits, its last line from a word start; else
///   nothing of it), under `[Earlier compaction context truncated to fit
///   budget]`; a closing `<workspace-critical-rules>` block stays whole when
///   it fits (it wins over the marker); a block longer than the suffix's
///   budget loses its head like a section, its opening tag repeated after
///   the marker;
/// - a part whose budget cannot hold its marker keeps only whole pieces that
///   stand alone (the whole block, whole items or lines) or nothing, never a
///   fragment such as a closing tag without its block;
/// - the body is cut after a whole line or at a word end, never inside a
///   word: a section's line that no word end of fits is left out; a heading
///   line is never cut; when no text fits beside the marker, the body is the
///   marker line alone;
/// - a cut body and a suffix part that does not start with a line break get a
///   line feed between them: no line is made of both.
#[napi(
    catch_unwind,
    ts_args_type = "summaryBody: string, suffix: string, maxChars?: number, options?: CapCompactionOptions",
    ts_return_type = "string"
)]
pub fn cap_compaction_summary_preserving_suffix(
    env: Env,
    summary_body: Unknown,
    suffix: Unknown,
    max_chars: Unknown,
    options: Unknown,
) -> napi::Result<Utf16String> {
    run(&env, || {
        Ok(cap_with_suffix(summary_body, suffix, max_chars, options)?
            .summary
            .into())
    })
}

/// `capCompactionSummaryPreservingSuffix` with what it did, for logging.
#[napi(
    catch_unwind,
    ts_args_type = "summaryBody: string, suffix: string, maxChars?: number, options?: CapCompactionOptions"
)]
pub fn cap_compaction_summary_report(
    env: Env,
    summary_body: Unknown,
    suffix: Unknown,
    max_chars: Unknown,
    options: Unknown,
) -> napi::Result<CapCompactionReport> {
    run(&env, || {
        Ok(cap_with_suffix(summary_body, suffix, max_chars, options)?.into())
    })
}

/// The last `limit` valid entries of the perpetual log at `path`, oldest
/// first. Reads from the end of the file: the cost follows `limit` and the
/// entries' sizes (with `options.maxEntryChars`, the cap), not the log's
/// size. Invalid lines, entries without `role`/`text` and an unfinished
/// last line are skipped. Lines that are not entries get one budget of
/// 16 MiB for the whole read, which stops once it is spent: a log of
/// garbage of any size, or entries each behind a gap, cost the entries
/// returned and 16 MiB.
///
/// Throws an `Error` with `code` and `path`: `ENOENT` for a missing file
/// (with `options.emptyIfMissing`, a missing file is `[]`: a log not
/// written yet),
/// `ENOTREGULAR` for a FIFO, directory, socket or device (refused at once,
/// never read; with `options.refuseLinks`, also a symlink or a hard-linked
/// file), `EACCES`, …
#[napi(catch_unwind, ts_return_type = "PersistentChatLogEntry[]")]
pub fn read_persistent_chat_log_entries(
    env: Env,
    path: arg::PathBuf,
    limit: arg::Number,
    options: Option<arg::PersistentChatReadOptions>,
) -> napi::Result<Vec<PersistentChatLogEntry>> {
    run(&env, || log_read(path, limit, options)?.run_here())
}

/// `readPersistentChatLogEntries` off the event loop: the arguments are read
/// now, the file on the libuv thread pool. The same result, and the same
/// errors as a rejection (never a throw).
#[napi(catch_unwind, ts_return_type = "Promise<PersistentChatLogEntry[]>")]
pub fn read_persistent_chat_log_entries_async<'scope>(
    env: Env,
    path: arg::PathBuf<'scope>,
    limit: arg::Number<'scope>,
    options: Option<arg::PersistentChatReadOptions<'scope>>,
) -> napi::Result<PromiseRaw<'scope, Vec<PersistentChatLogEntry>>> {
    spawn(&env, || log_read(path, limit, options))
}

fn log_read(
    path: arg::PathBuf,
    limit: arg::Number,
    options: Option<arg::PersistentChatReadOptions>,
) -> Result<Job<Vec<LogEntry>, Vec<PersistentChatLogEntry>>, Failure> {
    let path = path.read("path")?;
    let limit = binding::count(limit.js(), "limit")?;
    let read = match options.map(|options| options.read("options")).transpose()? {
        None => LogReadOptions::default(),
        Some(options) => LogReadOptions {
            links: binding::persistent_chat::refuse_links(options.refuse_links),
            empty_if_missing: options.empty_if_missing.unwrap_or(false),
            max_entry_chars: entry_cap(Some(
                Limit::value(options.max_entry_chars)
                    .filter(|chars| !chars.is_nan())
                    .unwrap_or(f64::INFINITY),
            )),
        },
    };
    Ok(Job::new(
        move || Ok(read_log_tail_with_options(&path, limit, read)?.entries),
        |entries| entries.into_iter().map(Into::into).collect(),
    ))
}

/// Ranked full-text search over the perpetual log at `path`, on the libuv
/// thread pool: the best `options.limit` entries (default 10, 1–100) for
/// `query`, best first, each with an excerpt of at most `options.excerptChars`
/// UTF-16 units (default 600) around its best match, cut from the entry's
/// text masked whole (the built-in patterns and `<private>` spans). Words are matched by
/// Unicode word boundaries, case- and accent-insensitively, English words by
/// their stem, and text in scripts without spaces (Chinese, Japanese, Thai)
/// by pairs of characters; query words found nowhere are ignored, and an
/// empty or wordless query gives `[]`. Ranked by BM25+, an entry scoring
/// the better of its own score and 0.8 of the one before it (the answer
/// after a matching question). The query's time words ("yesterday", "last
/// week", "in May", "2026-05-14", "3 days ago", "before May 14"…), read at
/// `options.now` (default the clock) in `options.timeZone` (default UTC),
/// lift the entries of that time; a query of time words alone gives them,
/// newest first.
///
/// The index is a cache kept beside the log (`<path>.search-index`): built
/// on the first search, extended on later ones, checked against the log and
/// rebuilt when it does not match; every hit is read again from the log.
/// Rejects as `readPersistentChatLogEntries` throws (`ENOENT`,
/// `ENOTREGULAR`…, `options.emptyIfMissing`, `options.refuseLinks`), and
/// with a `RangeError` for a bad `limit` or `excerptChars`.
#[napi(catch_unwind, ts_return_type = "Promise<PersistentChatLogHit[]>")]
pub fn search_persistent_chat_log<'scope>(
    env: Env,
    path: arg::PathBuf<'scope>,
    query: arg::Utf16String<'scope>,
    options: Option<arg::PersistentChatSearchOptions<'scope>>,
) -> napi::Result<PromiseRaw<'scope, Vec<PersistentChatLogHit>>> {
    spawn(&env, || {
        let path = path.read("path")?;
        let query = query.read("query")?;
        let (options, empty_if_missing) = binding::search::search_options(options)?;
        Ok(Job::new(
            move || {
                let path = path.as_path();
                if empty_if_missing {
                    search::search_log_or_empty(path, &query, &options)
                } else {
                    search::search_log(path, &query, &options)
                }
            },
            |hits| hits.into_iter().map(Into::into).collect(),
        ))
    })
}

/// The entries around one entry of the perpetual log at `path`, oldest
/// first, on the libuv thread pool: `at.before` entries before it (default
/// 5, at most 50), the entry, and `at.after` after it (default 5, at most
/// 50). The entry is the last one whose `id` is `at.id`, or the one at
/// `at.line` (1-based; when that line holds no entry, the window is the
/// entries around where it would be). An id no entry has gives `[]`. Each
/// entry's text is masked whole (the built-in patterns and `<private>`
/// spans), then cut to `at.maxEntryChars` units (default 8,000, at most
/// 65,536). Uses and keeps the search's index; every entry is read again
/// from the log.
/// Rejects as `searchPersistentChatLog` does; a `TypeError` unless `at` has
/// exactly one of `id` and `line`.
#[napi(
    catch_unwind,
    ts_return_type = "Promise<PersistentChatLogWindowEntry[]>"
)]
pub fn read_persistent_chat_log_window<'scope>(
    env: Env,
    path: arg::PathBuf<'scope>,
    at: arg::PersistentChatWindowAt<'scope>,
    options: Option<arg::PersistentChatReadOptions<'scope>>,
) -> napi::Result<PromiseRaw<'scope, Vec<PersistentChatLogWindowEntry>>> {
    spawn(&env, || {
        let path = path.read("path")?;
        let (window, files) = binding::search::window_request(at, options)?;
        Ok(Job::new(
            move || {
                let path = path.as_path();
                match search::read_log_window(path, &window, files.links) {
                    Err(CoreError::Io { code: "ENOENT", .. })
                        if files.empty_if_missing && !path.exists() =>
                    {
                        Ok(Vec::new())
                    }
                    other => other,
                }
            },
            |entries| entries.into_iter().map(Into::into).collect(),
        ))
    })
}

/// `searchPersistentChatLog`'s options.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct PersistentChatSearchOptions {
    /// Hits wanted: an integer from 1 to 100 (default 10).
    #[napi(ts_type = "number")]
    pub limit: Option<Limit>,
    /// The excerpt's length in UTF-16 units, an integer >= 1 (default 600).
    #[napi(ts_type = "number")]
    pub excerpt_chars: Option<Limit>,
    /// Refuse a symlink or hard-linked file at `path` (`ENOTREGULAR`).
    pub refuse_links: Option<bool>,
    /// A missing log is `[]`, not `ENOENT`.
    pub empty_if_missing: Option<bool>,
    /// The time the query's time words are read at ("yesterday", "last
    /// week"): epoch milliseconds or an ISO-8601 string; default the clock.
    #[napi(ts_type = "number | string")]
    pub now: Option<binding::persistent_chat::EpochMs>,
    /// The user's time zone for the time words: an IANA name
    /// (`'Europe/Berlin'`), `'UTC'`, an offset (`'+02:00'`), or minutes east
    /// of UTC; default UTC.
    #[napi(ts_type = "string | number")]
    pub time_zone: Option<search::Zone>,
}

/// Where `readPersistentChatLogWindow` looks: exactly one of `id` and `line`.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct PersistentChatWindowAt {
    /// The last entry with this id.
    pub id: Option<Utf16String>,
    /// The entry at this 1-based line.
    #[napi(ts_type = "number")]
    pub line: Option<Limit>,
    /// Entries before it (default 5, at most 50).
    #[napi(ts_type = "number")]
    pub before: Option<Limit>,
    /// Entries after it (default 5, at most 50).
    #[napi(ts_type = "number")]
    pub after: Option<Limit>,
    /// Each entry's text, masked whole, then cut to this many UTF-16 units
    /// (default 8,000, at most 65,536).
    #[napi(ts_type = "number")]
    pub max_entry_chars: Option<Limit>,
    /// The texts together at most about this many units: each entry is cut
    /// to the smaller of `maxEntryChars` and an equal share of it among the
    /// entries read.
    #[napi(ts_type = "number")]
    pub max_chars: Option<Limit>,
}

/// The contents of `continuity-summary.txt`: state and memory only, never a
/// transcript. Sections: current thread (latest user request, the status of
/// the turn that answered it, actionable notes), active decisions and
/// guardrails, pending threads, timers (against `now`), model notes.
///
/// `entries`/`logPath` give the log (a missing file reads as empty),
/// `state`/`statePath` the memory state; data wins over a path. `now` is an
/// ISO-8601 string or epoch milliseconds (default: the clock). `maxChars`
/// defaults to 6000 (`Infinity` or `<= 0`: no cap). Same params, same bytes.
#[napi(catch_unwind, ts_return_type = "string")]
pub fn rebuild_persistent_chat_continuity_summary(
    env: Env,
    params: arg::ContinuitySummaryParams,
) -> napi::Result<Utf16String> {
    run(&env, || summary_rebuild(params)?.run_here())
}

/// `rebuildPersistentChatContinuitySummary` off the event loop: the params
/// are read now, the files and the work run on the libuv thread pool. The
/// same result, and the same errors as a rejection (never a throw).
#[napi(catch_unwind, ts_return_type = "Promise<string>")]
pub fn rebuild_persistent_chat_continuity_summary_async<'scope>(
    env: Env,
    params: arg::ContinuitySummaryParams<'scope>,
) -> napi::Result<PromiseRaw<'scope, Utf16String>> {
    spawn(&env, || summary_rebuild(params))
}

fn summary_rebuild(
    params: arg::ContinuitySummaryParams,
) -> Result<Job<Vec<u16>, Utf16String>, Failure> {
    let request = binding::persistent_chat::summary_params(params.js())?;
    Ok(Job::new(move || request.rebuild(), Into::into))
}

/// The text injected before a persistent chat's message.
///
/// Fenced (the default): every structural line carries a nonce drawn from
/// the OS for this prompt (or `nonce`), e.g. `--- LIVE TURN 7f3a9c2e41b05d18 ---`,
/// and the first line says that only lines carrying it are structure; no
/// input can write such a line. `legacyLayout: true` gives the lines without
/// a nonce.
///
/// `reload: false` (the backend remembers the conversation): turn metadata,
/// at most `continuousEntries` log entries (default 2, clamped to 0..2), then
/// the live-turn separator and the message. Given `currentSession`, the
/// candidates are only the entries after that backend session's newest
/// entry, whoever wrote them: the backend holds the log up to there (its
/// turns, its reload's excerpt, what earlier prompts injected). Without it,
/// or when no entry has that `session`, the newest entries are injected.
///
/// `reload: true`: turn metadata, the bootstrap separator
/// (`--- BOOTSTRAP CONTEXT (already resolved) … ---`) with the continuity
/// summary and the last `reloadEntries` log entries (default 25;
/// `currentSession` plays no part), then the live turn.
///
/// Each entry appears once at most (repeats by `id`, or by role, text and ts;
/// the live message already appended to the log is not repeated); separator
/// look-alikes in injected text are neutralised as well; `userMessage` is
/// last and never cut. `maxChars` (default no cap) drops the oldest entries
/// first, then shrinks the summary. A `logPath` that does not exist yet
/// reads as empty.
#[napi(catch_unwind, ts_return_type = "string")]
pub fn build_persistent_chat_injected_prompt(
    env: Env,
    params: arg::InjectedPromptParams,
) -> napi::Result<Utf16String> {
    run(&env, || prompt_build(params, prompt_only)?.run_here())
}

/// `buildPersistentChatInjectedPrompt` off the event loop: the params are
/// read now, the log and the work run on the libuv thread pool. The same
/// result, and the same errors as a rejection (never a throw).
#[napi(catch_unwind, ts_return_type = "Promise<string>")]
pub fn build_persistent_chat_injected_prompt_async<'scope>(
    env: Env,
    params: arg::InjectedPromptParams<'scope>,
) -> napi::Result<PromiseRaw<'scope, Utf16String>> {
    spawn(&env, || prompt_build(params, prompt_only))
}

/// `buildPersistentChatInjectedPrompt` with what it did, for the debug file
/// `last-injected-preprompt.txt` and for logs.
#[napi(catch_unwind)]
pub fn build_persistent_chat_injected_prompt_report(
    env: Env,
    params: arg::InjectedPromptParams,
) -> napi::Result<PersistentChatPromptReport> {
    run(&env, || prompt_build(params, Into::into)?.run_here())
}

/// `buildPersistentChatInjectedPromptReport` off the event loop, as
/// `buildPersistentChatInjectedPromptAsync` is.
#[napi(catch_unwind, ts_return_type = "Promise<PersistentChatPromptReport>")]
pub fn build_persistent_chat_injected_prompt_report_async<'scope>(
    env: Env,
    params: arg::InjectedPromptParams<'scope>,
) -> napi::Result<PromiseRaw<'scope, PersistentChatPromptReport>> {
    spawn(&env, || prompt_build(params, Into::into))
}

fn prompt_build<J>(
    params: arg::InjectedPromptParams,
    to_js: fn(PromptReport) -> J,
) -> Result<Job<PromptReport, J>, Failure> {
    let request = binding::persistent_chat::prompt_params(params.js())?;
    Ok(Job::new(move || request.build(), to_js))
}

fn prompt_only(report: PromptReport) -> Utf16String {
    report.prompt.into()
}

/// Masks secrets and `<private>` spans in text, in linear time: a
/// finite-automata engine (Rust's `regex`), no backtracking, so no pattern
/// and no text can make it slow. Each masked span becomes a typed
/// placeholder, `[redacted:TYPE]` (`[redacted:github-token]`,
/// `[redacted:password]`, `[redacted:private-key]`, `[redacted:private]`,
/// `[redacted:custom]` for the operator's patterns); where a pattern has a
/// capturing group only the group is replaced (`password=[redacted:password]`).
/// Everything else comes back exactly, lone surrogates included; masking
/// the result again changes nothing.
///
/// `new SecretMasker(options?)` compiles the built-in patterns and
/// `options.patterns` once; a pattern it cannot use is in `refused`, the
/// others apply. Throws a `TypeError` for a wrong `options` or a
/// non-string pattern.
#[napi]
pub struct SecretMasker {
    masker: Arc<Masker>,
}

#[napi]
impl SecretMasker {
    #[napi(constructor, catch_unwind)]
    pub fn new(env: Env, options: Option<arg::SecretMaskerOptions>) -> napi::Result<Self> {
        run(&env, || {
            Ok(SecretMasker {
                masker: Arc::new(binding::mask::masker(options)?),
            })
        })
    }

    /// The operator patterns not used, each with its reason, in the order given.
    #[napi(getter)]
    pub fn refused(&self) -> Vec<SecretMaskerRefusal> {
        binding::mask::refused(&self.masker)
    }

    /// `text` masked. Throws a `TypeError` for a non-string.
    #[napi(catch_unwind, ts_return_type = "string")]
    pub fn mask(&self, env: Env, text: arg::Utf16String) -> napi::Result<Utf16String> {
        run(&env, || {
            let text = text.read("text")?;
            binding::mask::job(&self.masker, text.to_vec()).run_here()
        })
    }

    /// `mask` on the libuv thread pool: the text is read now, masked there.
    /// A non-string rejects with the same `TypeError`.
    #[napi(catch_unwind, ts_return_type = "Promise<string>")]
    pub fn mask_async<'scope>(
        &self,
        env: Env,
        text: arg::Utf16String<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, Utf16String>> {
        spawn(&env, || {
            let text = text.read("text")?;
            Ok(binding::mask::job(&self.masker, text.to_vec()))
        })
    }

    /// Each of `texts` masked, in order (at most 65,536 texts).
    #[napi(catch_unwind, ts_return_type = "string[]")]
    pub fn mask_many(
        &self,
        env: Env,
        texts: arg::Vec<Utf16String>,
    ) -> napi::Result<Vec<Utf16String>> {
        run(&env, || {
            binding::mask::many_job(&self.masker, binding::mask::texts(texts)?).run_here()
        })
    }

    /// `maskMany` on the libuv thread pool, in one task.
    #[napi(catch_unwind, ts_return_type = "Promise<string[]>")]
    pub fn mask_many_async<'scope>(
        &self,
        env: Env,
        texts: arg::Vec<'scope, Utf16String>,
    ) -> napi::Result<PromiseRaw<'scope, Vec<Utf16String>>> {
        spawn(&env, || {
            Ok(binding::mask::many_job(
                &self.masker,
                binding::mask::texts(texts)?,
            ))
        })
    }
}

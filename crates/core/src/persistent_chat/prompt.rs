//! `buildPersistentChatInjectedPrompt(Report)`: the text sent to the backend
//! for one user turn.
//!
//! Reload (`reload: true`) layout; blocks are separated by one blank line,
//! and a block with nothing in it is left out:
//!
//! ```text
//! ## Turn Metadata                      (fields; a metadata string is used as is)
//! - channel: telegram
//!
//! --- BOOTSTRAP CONTEXT (already resolved) ---
//! ## Rolling Continuity Summary
//! <summary: legacy transcript stripped, repeats replaced by references>
//! ## Recent Perpetual Log Excerpt
//! (2 earlier log entries omitted to fit the prompt budget)
//! 1. [2026-05-15T10:00:00Z] user: text
//! 2. [2026-05-15T10:00:05Z] assistant (ACP_TURN_FAILED): text
//!
//! --- LIVE TURN ---
//! <userMessage, verbatim, always last>
//! ```
//!
//! A continuous turn has the metadata, at most two entries under
//! `## Recent Perpetual Log Excerpt`, and the live turn: no bootstrap block
//! and no summary. The summary heading shows only with a summary, the
//! excerpt heading only with entries (or an omitted-entries line), and the
//! bootstrap separator only when either shows.
//!
//! Entries are numbered from 1 (oldest shown) so the summary can point at
//! them: a summary line whose text repeats an injected entry's becomes
//! `(see log entry N below)`, one repeating the live message
//! `(see the live turn below)`. A line of metadata, summary or entry that
//! reads like one of the builder's separators or headings is prefixed with
//! `[quoted] `, so the only real structure is the builder's own.

use std::cell::OnceCell;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use super::budget::{fit_sections, parse_sections};
use super::log::{LogEntry, Role, Timestamp};
use super::summary;
use super::text::{
    collapse_whitespace, collapse_whitespace_prefix, fnv1a, is_ok_status, join_with_blank_lines,
    js_number_to_string, push_str, ELLIPSIS,
};
use crate::utf16;

pub const DEFAULT_CONTINUOUS_ENTRIES: usize = 2;
/// A continuous backend already holds the conversation: never more than this.
pub const MAX_CONTINUOUS_ENTRIES: usize = 2;
pub const DEFAULT_RELOAD_ENTRIES: usize = 25;

pub const BOOTSTRAP_SEPARATOR: &str = "--- BOOTSTRAP CONTEXT (already resolved) ---";
pub const SUMMARY_HEADING: &str = "## Rolling Continuity Summary";
pub const EXCERPT_HEADING: &str = "## Recent Perpetual Log Excerpt";
pub const LIVE_TURN_SEPARATOR: &str = "--- LIVE TURN ---";
pub const METADATA_HEADING: &str = "## Turn Metadata";
/// Put before a line of injected text that reads like a separator.
pub const QUOTED_MARKER: &str = "[quoted] ";
/// What the summary says instead of repeating the live message.
pub const LIVE_TURN_REFERENCE: &str = "(see the live turn below)";

#[derive(Debug, Clone, PartialEq)]
pub enum MetadataValue {
    Text(Vec<u16>),
    Number(f64),
    Bool(bool),
    Null,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TurnMetadata {
    Text(Vec<u16>),
    /// Key/value pairs in the caller's order.
    Fields(Vec<(Vec<u16>, MetadataValue)>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptMode {
    Continuous,
    Reload,
}

impl PromptMode {
    pub fn as_str(self) -> &'static str {
        match self {
            PromptMode::Continuous => "continuous",
            PromptMode::Reload => "reload",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct PromptParams {
    pub user_message: Vec<u16>,
    pub reload: bool,
    /// The backend session the prompt goes to. On a continuous turn it holds
    /// the log up to its own newest entry: see [`select_entries`].
    pub current_session: Option<Vec<u16>>,
    pub turn_metadata: Option<TurnMetadata>,
    pub continuity_summary: Option<Vec<u16>>,
    /// Oldest first.
    pub log_entries: Vec<LogEntry>,
    /// Passed through to the report (from the log reader).
    pub skipped_log_lines: usize,
    /// Clamped to [`MAX_CONTINUOUS_ENTRIES`].
    pub continuous_entries: usize,
    pub reload_entries: usize,
    /// `None`: no cap.
    pub max_chars: Option<usize>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PromptReport {
    pub prompt: Vec<u16>,
    pub mode: PromptMode,
    pub entries_injected: usize,
    /// Entries chosen for the excerpt but left out to fit `max_chars`.
    pub entries_omitted: usize,
    /// Of the newest `continuous_entries` entries (what a continuous turn
    /// would show without `current_session`), those left out because the
    /// backend already holds them. Always 0 on a reload.
    pub entries_already_held: usize,
    /// [`entry_key`] of each injected entry, oldest first.
    pub injected_entry_ids: Vec<Vec<u16>>,
    /// The continuity summary was shortened or left out to fit `max_chars`.
    pub summary_trimmed: bool,
    pub skipped_log_lines: usize,
    /// `prompt.len()` in UTF-16 units.
    pub chars: usize,
    /// The metadata and the live turn alone exceed `max_chars`; they are
    /// sent whole anyway (the user's message is never cut).
    pub over_budget: bool,
}

pub fn build_injected_prompt(params: &PromptParams) -> PromptReport {
    let mode = if params.reload {
        PromptMode::Reload
    } else {
        PromptMode::Continuous
    };
    let wanted = entries_wanted(
        params.reload,
        params.continuous_entries,
        params.reload_entries,
    );
    let held_by = match mode {
        PromptMode::Continuous => params.current_session.as_deref(),
        PromptMode::Reload => None,
    };
    let selection = select_entries(&params.log_entries, &params.user_message, wanted, held_by);
    let layout = Layout {
        mode,
        metadata: params.turn_metadata.as_ref().and_then(render_metadata),
        summary: match mode {
            PromptMode::Reload => params
                .continuity_summary
                .as_deref()
                .map(strip_legacy_transcript),
            PromptMode::Continuous => None,
        }
        .filter(|summary| !utf16::trim(summary).is_empty()),
        candidates: selection.entries,
        user_message: &params.user_message,
    };
    let fitted = layout.fit(params.max_chars);
    let injected = &layout.candidates[layout.candidates.len() - fitted.entries..];
    PromptReport {
        chars: fitted.prompt.len(),
        over_budget: params
            .max_chars
            .is_some_and(|max| fitted.prompt.len() > max),
        prompt: fitted.prompt,
        mode,
        entries_injected: fitted.entries,
        entries_omitted: layout.candidates.len() - fitted.entries,
        entries_already_held: selection.already_held,
        injected_entry_ids: injected.iter().map(|entry| entry_key(entry)).collect(),
        summary_trimmed: fitted.summary_trimmed,
        skipped_log_lines: params.skipped_log_lines,
    }
}

/// How many log entries to read (from the end) for a builder given a log
/// path: twice the entries shown, plus one, so that the live message already
/// appended and repeated copies do not shorten the excerpt.
pub fn log_entries_to_read(
    reload: bool,
    continuous_entries: usize,
    reload_entries: usize,
) -> usize {
    entries_wanted(reload, continuous_entries, reload_entries)
        .saturating_mul(2)
        .saturating_add(1)
}

/// How many log entries the prompt shows at most.
fn entries_wanted(reload: bool, continuous_entries: usize, reload_entries: usize) -> usize {
    if reload {
        reload_entries
    } else {
        continuous_entries.min(MAX_CONTINUOUS_ENTRIES)
    }
}

/// The entry's `id`, or for an entry without one a stable key of its role,
/// text and timestamp: `auto:<role>:<16 hex digits>`.
pub fn entry_key(entry: &LogEntry) -> Vec<u16> {
    if let Some(id) = &entry.id {
        return id.clone();
    }
    let (tag, ts) = match &entry.ts {
        None => ("n", Vec::new()),
        Some(Timestamp::Text(text)) => ("t", text.clone()),
        Some(Timestamp::Number(number)) => {
            ("#", js_number_to_string(*number).encode_utf16().collect())
        }
    };
    let tag: Vec<u16> = tag.encode_utf16().collect();
    let hash = fnv1a(&[&tag, &ts, &entry.text]);
    format!("auto:{}:{hash:016x}", entry.role.as_str())
        .encode_utf16()
        .collect()
}

// ---------------------------------------------------------------------------
// Choosing entries

/// The entries a prompt may show, oldest first.
struct Selection<'a> {
    entries: Vec<&'a LogEntry>,
    /// Of the newest `wanted` entries, those left out as already held.
    already_held: usize,
}

/// The newest `wanted` entries worth showing, oldest first: repeated copies
/// count once (the first copy keeps its place), and a newest entry that is
/// the live message itself (already appended to the log) is left out.
///
/// `held_by` is the backend session of a continuous turn. That backend
/// holds the log up to its own newest entry: the entries it wrote, the
/// excerpt its reload prompt carried, and what earlier continuous prompts
/// injected (they were built from the log before its turns were appended).
/// So only entries after its newest one are new to it, whoever wrote them:
/// another channel, another backend session, a writer outside the gateway,
/// or one that sets no `session` at all. Without `held_by`, or when no entry
/// is of that session, every entry is a candidate.
fn select_entries<'a>(
    entries: &'a [LogEntry],
    live: &[u16],
    wanted: usize,
    held_by: Option<&[u16]>,
) -> Selection<'a> {
    let mut unique = dedupe(entries);
    if unique.last().is_some_and(|entry| is_live_copy(entry, live)) {
        unique.pop();
    }
    let unseen_from = held_by.map_or(0, |session| {
        unique
            .iter()
            .rposition(|entry| entry.session.as_deref() == Some(session))
            .map_or(0, |newest_held| newest_held + 1)
    });
    let start = unique.len().saturating_sub(wanted);
    Selection {
        already_held: unseen_from.saturating_sub(start),
        entries: unique.split_off(start.max(unseen_from)),
    }
}

fn is_live_copy(entry: &LogEntry, live: &[u16]) -> bool {
    entry.role == Role::User && utf16::trim(&entry.text) == utf16::trim(live)
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum TsKey<'a> {
    None,
    Text(&'a [u16]),
    Number(u64),
}

type ContentKey<'a> = (Role, &'a [u16], TsKey<'a>);

fn content_key(entry: &LogEntry) -> ContentKey<'_> {
    let ts = match &entry.ts {
        None => TsKey::None,
        Some(Timestamp::Text(text)) => TsKey::Text(text),
        Some(Timestamp::Number(number)) => TsKey::Number(number.to_bits()),
    };
    (entry.role, &entry.text, ts)
}

/// Entries without repeats, the first copy kept. Per SPEC, two entries are
/// one when their `id`s match, or when role, text and ts match: a retried
/// append that got a fresh id is still the same message at the same time.
fn dedupe(entries: &[LogEntry]) -> Vec<&LogEntry> {
    let mut ids = HashSet::with_capacity(entries.len());
    let mut contents = HashSet::with_capacity(entries.len());
    let mut unique = Vec::new();
    for entry in entries {
        let repeated_id = entry.id.as_ref().is_some_and(|id| !ids.insert(&id[..]));
        let repeated_content = !contents.insert(content_key(entry));
        if !repeated_id && !repeated_content {
            unique.push(entry);
        }
    }
    unique
}

// ---------------------------------------------------------------------------
// Layout and budget

struct Layout<'a> {
    mode: PromptMode,
    /// Rendered and neutralised.
    metadata: Option<Vec<u16>>,
    /// Legacy transcript stripped; references and neutralising come per layout.
    summary: Option<Vec<u16>>,
    /// Oldest first; the excerpt shows a newest suffix of them.
    candidates: Vec<&'a LogEntry>,
    user_message: &'a [u16],
}

/// The prompt laid out within its budget.
struct FittedPrompt {
    prompt: Vec<u16>,
    /// How many of the newest candidates are shown.
    entries: usize,
    summary_trimmed: bool,
}

impl Layout<'_> {
    /// The prompt within `max` units when it can be: the oldest entries go
    /// first, then the summary shrinks; metadata and live turn stay whole.
    fn fit(&self, max: Option<usize>) -> FittedPrompt {
        let all = self.candidates.len();
        let fitted = |entries: usize| FittedPrompt {
            prompt: self.render_with_entries(entries),
            entries,
            summary_trimmed: false,
        };
        let Some(max) = max else { return fitted(all) };
        let full = fitted(all);
        if full.prompt.len() <= max {
            return full;
        }
        // The length grows with the number of entries shown, so bisect. (Not
        // strictly: an entry left out gives its summary copy back its text in
        // place of the reference. Bisection still returns a prompt that fits,
        // at worst with one entry fewer than the most that could.)
        let (mut fits, mut too_many) = (None, all);
        let mut low = 0;
        while low < too_many {
            let middle = low + (too_many - low) / 2;
            let candidate = fitted(middle);
            if candidate.prompt.len() <= max {
                low = middle + 1;
                fits = Some(candidate);
            } else {
                too_many = middle;
            }
        }
        fits.unwrap_or_else(|| self.fit_with_shrunk_summary(max))
    }

    fn render_with_entries(&self, count: usize) -> Vec<u16> {
        let injected = &self.candidates[self.candidates.len() - count..];
        let summary = self.summary_for(injected);
        self.render(injected, summary.as_deref())
    }

    fn summary_for(&self, injected: &[&LogEntry]) -> Option<Vec<u16>> {
        let summary = self.summary.as_ref()?;
        let referenced = reference_repeats(summary, injected, self.user_message);
        Some(neutralise_separators(trim_end_lines(&referenced)))
    }

    /// No entries, and the summary shortened by its own rules (sections
    /// keep their first lines and count the rest) to what is left.
    fn fit_with_shrunk_summary(&self, max: usize) -> FittedPrompt {
        let summary = self.summary_for(&[]);
        let overhead = self.render(&[], summary.as_ref().map(|_| &[][..])).len();
        let shrunk = summary
            .map(|summary| {
                fit_sections(&parse_sections(&summary), max.saturating_sub(overhead)).text
            })
            .filter(|summary| !utf16::trim(summary).is_empty());
        let prompt = self.render(&[], shrunk.as_deref());
        let prompt = if prompt.len() <= max {
            prompt
        } else {
            self.render_bare()
        };
        FittedPrompt {
            prompt,
            entries: 0,
            summary_trimmed: self.summary.is_some(),
        }
    }

    fn render(&self, injected: &[&LogEntry], summary: Option<&[u16]>) -> Vec<u16> {
        let omitted = self.candidates.len() - injected.len();
        let excerpt =
            (!injected.is_empty() || omitted > 0).then(|| render_excerpt(injected, omitted));
        let mut blocks: Vec<Vec<u16>> = self.metadata.iter().cloned().collect();
        match self.mode {
            PromptMode::Reload if summary.is_some() || excerpt.is_some() => {
                let mut bootstrap: Vec<u16> = BOOTSTRAP_SEPARATOR.encode_utf16().collect();
                bootstrap.reserve(
                    SUMMARY_HEADING.len()
                        + 3
                        + summary.map_or(0, <[u16]>::len)
                        + excerpt.as_ref().map_or(0, Vec::len),
                );
                if let Some(summary) = summary {
                    push_str(&mut bootstrap, "\n");
                    push_str(&mut bootstrap, SUMMARY_HEADING);
                    push_str(&mut bootstrap, "\n");
                    bootstrap.extend_from_slice(summary);
                }
                if let Some(excerpt) = excerpt {
                    push_str(&mut bootstrap, "\n");
                    bootstrap.extend(excerpt);
                }
                blocks.push(bootstrap);
            }
            PromptMode::Reload => {}
            PromptMode::Continuous => blocks.extend(excerpt),
        }
        self.finish(blocks)
    }

    /// Metadata and live turn only: what is sent when nothing else fits.
    fn render_bare(&self) -> Vec<u16> {
        self.finish(self.metadata.iter().cloned().collect())
    }

    fn finish(&self, mut blocks: Vec<Vec<u16>>) -> Vec<u16> {
        let mut live: Vec<u16> = LIVE_TURN_SEPARATOR.encode_utf16().collect();
        push_str(&mut live, "\n");
        live.extend_from_slice(self.user_message);
        blocks.push(live);
        join_with_blank_lines(blocks)
    }
}

fn render_excerpt(injected: &[&LogEntry], omitted: usize) -> Vec<u16> {
    let mut out: Vec<u16> = EXCERPT_HEADING.encode_utf16().collect();
    if omitted > 0 {
        let noun = if omitted == 1 { "entry" } else { "entries" };
        push_str(
            &mut out,
            &format!("\n({omitted} earlier log {noun} omitted to fit the prompt budget)"),
        );
    }
    let mut line = Vec::new();
    for (index, entry) in injected.iter().enumerate() {
        push_str(&mut out, "\n");
        line.clear();
        render_entry(&mut line, index + 1, entry);
        neutralise_separators_into(&mut out, &line);
    }
    out
}

/// `N. [ts] role: text`, with ` (status)` after an assistant role whose
/// status is not ok. The text is whole; the caller neutralises look-alike
/// separator lines in it.
fn render_entry(out: &mut Vec<u16>, number: usize, entry: &LogEntry) {
    push_str(out, &number.to_string());
    push_str(out, ". ");
    if let Some(ts) = &entry.ts {
        push_str(out, "[");
        out.extend(ts.display());
        push_str(out, "] ");
    }
    push_str(out, entry.role.as_str());
    if let Some(status) = entry
        .status
        .as_deref()
        .filter(|status| !is_ok_status(status))
    {
        push_str(out, " (");
        out.extend(collapse_whitespace(status));
        push_str(out, ")");
    }
    push_str(out, ": ");
    out.extend_from_slice(&entry.text);
}

fn render_metadata(metadata: &TurnMetadata) -> Option<Vec<u16>> {
    let text = match metadata {
        TurnMetadata::Text(text) => trim_end_lines(text).to_vec(),
        TurnMetadata::Fields(fields) if fields.is_empty() => return None,
        TurnMetadata::Fields(fields) => {
            let mut out: Vec<u16> = METADATA_HEADING.encode_utf16().collect();
            for (key, value) in fields {
                push_str(&mut out, "\n- ");
                out.extend_from_slice(key);
                push_str(&mut out, ": ");
                match value {
                    MetadataValue::Text(text) => out.extend_from_slice(text),
                    MetadataValue::Number(number) => {
                        push_str(&mut out, &js_number_to_string(*number))
                    }
                    MetadataValue::Bool(flag) => {
                        push_str(&mut out, if *flag { "true" } else { "false" })
                    }
                    MetadataValue::Null => push_str(&mut out, "null"),
                }
            }
            out
        }
    };
    (!utf16::trim(&text).is_empty()).then(|| neutralise_separators(text))
}

/// `text` without trailing line breaks and blank lines (blocks are joined
/// by the builder; other units stay).
fn trim_end_lines(text: &[u16]) -> &[u16] {
    let end = text
        .iter()
        .rposition(|&unit| !utf16::is_js_whitespace(unit))
        .map_or(0, |last| last + 1);
    // Keep trailing spaces of the last line's content, drop only line ends.
    let line_end = text[end..]
        .iter()
        .position(|&unit| matches!(unit, 0x0A | 0x0D))
        .map_or(text.len(), |offset| end + offset);
    &text[..line_end]
}

// ---------------------------------------------------------------------------
// Neutralising look-alike separators

/// Units that end a line for a reader (a model or a terminal), not only LF.
fn is_line_break(unit: u16) -> bool {
    // As range tests, branch-free, so that `find_line_break` vectorises:
    // U+000A..U+000D, U+0085, U+2028, U+2029.
    (unit.wrapping_sub(0x0A) < 4) | (unit == 0x85) | (unit.wrapping_sub(0x2028) < 2)
}

/// The index of the first line break in `text`. Tests blocks of units with
/// a loop without early exit (vectorised), and looks inside a block only
/// when it holds a break: entry texts are long and their lines too.
fn find_line_break(text: &[u16]) -> Option<usize> {
    const BLOCK: usize = 32;
    let mut blocks = text.chunks_exact(BLOCK);
    let mut offset = 0;
    for block in &mut blocks {
        let any_break = block
            .iter()
            .fold(0u8, |any, &unit| any | u8::from(is_line_break(unit)));
        if any_break != 0 {
            return block
                .iter()
                .position(|&unit| is_line_break(unit))
                .map(|at| offset + at);
        }
        offset += BLOCK;
    }
    let rest = blocks.remainder();
    rest.iter()
        .position(|&unit| is_line_break(unit))
        .map(|at| offset + at)
}

fn is_invisible(unit: u16) -> bool {
    matches!(unit, 0x00AD | 0x200B..=0x200F | 0x2060..=0x2064 | 0xFEFF)
}

/// The phrases that make a line read like one of the builder's separators or
/// headings, as uppercase ASCII letters and digits.
const STRUCTURE_KEYS: [&str; 4] = [
    "LIVETURN",
    "BOOTSTRAPCONTEXT",
    "ROLLINGCONTINUITYSUMMARY",
    "RECENTPERPETUALLOGEXCERPT",
];

/// A line reads like structure when its letters start with one of
/// [`STRUCTURE_KEYS`] and it starts with punctuation (`---`, `—`, `##`,
/// `===`, `[`…) or is written in capitals (`LIVE TURN`). Prose such as
/// "Live turn handling is broken" does not.
fn is_separator_like(line: &[u16]) -> bool {
    let start = line
        .iter()
        .position(|&unit| !utf16::is_js_whitespace(unit) && !is_invisible(unit));
    let Some(start) = start else { return false };
    let line = &line[start..];
    let ascii_alphanumerics = || {
        line.iter()
            .filter_map(|&unit| u8::try_from(unit).ok())
            .filter(u8::is_ascii_alphanumeric)
    };
    // Only the first letters decide (the longest key has 25): no need to
    // look at the rest of a long line, which is almost every line.
    let mut head = [0u8; 25];
    let mut len = 0;
    for (slot, byte) in head.iter_mut().zip(ascii_alphanumerics()) {
        *slot = byte.to_ascii_uppercase();
        len += 1;
    }
    if !STRUCTURE_KEYS
        .iter()
        .any(|key| head[..len].starts_with(key.as_bytes()))
    {
        return false;
    }
    let starts_with_punctuation =
        char::from_u32(u32::from(line[0])).is_none_or(|c| !c.is_alphanumeric());
    starts_with_punctuation || !ascii_alphanumerics().any(|b| b.is_ascii_lowercase())
}

/// `text` with [`QUOTED_MARKER`] before every line that reads like a separator.
pub(crate) fn neutralise_separators(text: impl AsRef<[u16]>) -> Vec<u16> {
    let text = text.as_ref();
    let mut out = Vec::with_capacity(text.len());
    neutralise_separators_into(&mut out, text);
    out
}

/// [`neutralise_separators`], appending to `out`.
fn neutralise_separators_into(out: &mut Vec<u16>, text: &[u16]) {
    out.reserve(text.len());
    let mut line_start = 0;
    while line_start <= text.len() {
        let line_end =
            find_line_break(&text[line_start..]).map_or(text.len(), |offset| line_start + offset);
        if is_separator_like(&text[line_start..line_end]) {
            push_str(out, QUOTED_MARKER);
        }
        let next = (line_end + 1).min(text.len());
        out.extend_from_slice(&text[line_start..next]);
        if line_end == text.len() {
            break;
        }
        line_start = next;
    }
}

// ---------------------------------------------------------------------------
// Legacy transcript blocks

/// The section headers of a continuity summary, new format.
const SUMMARY_HEADERS: [&str; 5] = [
    summary::CURRENT_THREAD_HEADER,
    summary::DECISIONS_HEADER,
    summary::PENDING_THREADS_HEADER,
    summary::TIMERS_HEADER,
    summary::MODEL_NOTES_HEADER,
];

/// `summary` without its old-format transcript blocks: a line starting
/// `Recent log excerpt:` or `Recent conversation excerpt:` (any case, after
/// `#`, `-` or `*` marks) and the lines under it, up to the next section:
/// a known summary header, a Markdown heading, another such block, or a
/// `Header:` line after a blank line. A summary without such a block comes
/// back unchanged.
pub fn strip_legacy_transcript(summary: &[u16]) -> Vec<u16> {
    let lines: Vec<&[u16]> = utf16::line_ranges(summary)
        .map(|range| &summary[range])
        .collect();
    let mut keep = vec![true; lines.len()];
    let mut index = 0;
    let mut stripped = false;
    while index < lines.len() {
        if !is_legacy_marker(lines[index]) {
            index += 1;
            continue;
        }
        stripped = true;
        keep[index] = false;
        index += 1;
        while index < lines.len() && !ends_legacy_block(&lines, index) {
            keep[index] = false;
            index += 1;
        }
    }
    if !stripped {
        return summary.to_vec();
    }
    let kept: Vec<u16> = lines
        .iter()
        .zip(&keep)
        .filter(|(_, keep)| **keep)
        .flat_map(|(line, _)| line.iter().copied())
        .collect();
    let start = kept
        .iter()
        .position(|&unit| !is_line_break(unit))
        .unwrap_or(kept.len());
    let kept = &kept[start..];
    // Blank lines left at either end by the removed block go too.
    let leading_blank = utf16::line_ranges(kept)
        .take_while(|range| utf16::trim(&kept[range.clone()]).is_empty())
        .last()
        .map_or(0, |range| range.end);
    trim_end_lines(&kept[leading_blank..]).to_vec()
}

/// The line without its leading Markdown marks (`#`, `-`, `*`) and blanks.
fn content_after_marks(line: &[u16]) -> &[u16] {
    let trimmed = utf16::trim(line);
    let marks = trimmed
        .iter()
        .take_while(|&&unit| matches!(unit, 0x23 | 0x2D | 0x2A | 0x20 | 0x09))
        .count();
    &trimmed[marks..]
}

/// `text` starts with `prefix` (lower-case ASCII), ignoring ASCII case.
fn starts_with_ascii_ignore_case(text: &[u16], prefix: &str) -> bool {
    text.len() >= prefix.len()
        && text
            .iter()
            .zip(prefix.bytes())
            .all(|(&unit, byte)| u8::try_from(unit).is_ok_and(|b| b.to_ascii_lowercase() == byte))
}

fn is_legacy_marker(line: &[u16]) -> bool {
    let content = content_after_marks(line);
    starts_with_ascii_ignore_case(content, "recent log excerpt")
        || starts_with_ascii_ignore_case(content, "recent conversation excerpt")
}

fn ends_legacy_block(lines: &[&[u16]], index: usize) -> bool {
    let line = lines[index];
    let trimmed = utf16::trim(line);
    if trimmed.is_empty() {
        return false;
    }
    if is_legacy_marker(line)
        || trimmed.first() == Some(&u16::from(b'#'))
        || SUMMARY_HEADERS
            .iter()
            .any(|header| utf16::equals_ascii(trimmed, header))
    {
        return true;
    }
    let after_blank = index > 0 && utf16::trim(lines[index - 1]).is_empty();
    after_blank && looks_like_header(line)
}

/// `Something:` at the start of a line: the next section of an old summary.
fn looks_like_header(line: &[u16]) -> bool {
    let trimmed = utf16::trim(line);
    let starts_plainly = line
        .first()
        .is_some_and(|&unit| !utf16::is_js_whitespace(unit))
        && char::from_u32(u32::from(line[0])).is_some_and(char::is_alphabetic);
    starts_plainly && trimmed.len() <= 80 && trimmed.last() == Some(&u16::from(b':'))
}

// ---------------------------------------------------------------------------
// Summary text that repeats an entry or the live message

/// `summary` with copies of the live message or an injected entry's text
/// replaced by a reference. A copy is a line's value (after a `- ` bullet
/// and an optional `Label: `) equal to the text on one line, or cut from it
/// with `…`/`...`, or a verbatim copy of a multi-line text. The status line
/// (`Latest assistant status`) holds a status, never text, and is left alone.
fn reference_repeats(summary: &[u16], injected: &[&LogEntry], live: &[u16]) -> Vec<u16> {
    let live_ref: Vec<u16> = LIVE_TURN_REFERENCE.encode_utf16().collect();
    let entry_refs: Vec<Vec<u16>> = (1..=injected.len())
        .map(|number| {
            format!("(see log entry {number} below)")
                .encode_utf16()
                .collect()
        })
        .collect();
    // The live message first: it is the one that must appear only once.
    let mut targets: Vec<(&[u16], &[u16])> = vec![(live, &live_ref)];
    targets.extend(
        injected
            .iter()
            .zip(&entry_refs)
            .rev()
            .map(|(entry, reference)| (&entry.text[..], &reference[..])),
    );

    let mut text = summary.to_vec();
    for (original, reference) in &targets {
        if utf16::trim(original).contains(&utf16::LF) {
            text = replace_multiline_copies(text, original, reference);
        }
    }
    let targets = Targets::new(&targets);
    let mut out = Vec::with_capacity(text.len());
    for range in utf16::line_ranges(&text) {
        reference_line(&mut out, &text[range], &targets);
    }
    out
}

/// A cut copy must keep at least this many units to count as a copy.
const COPY_PREFIX: usize = 16;

/// What summary lines are matched against: the targets by the first
/// [`COPY_PREFIX`] units of their whitespace-collapsed text, which any copy
/// shares. A target is collapsed whole only when a line shares its prefix:
/// most never are, and entries can be long.
struct Targets<'a> {
    /// Prefix → indexes into `list`, in `list`'s order (the first match wins).
    by_prefix: HashMap<Vec<u16>, Vec<usize>>,
    list: Vec<Target<'a>>,
}

struct Target<'a> {
    original: &'a [u16],
    reference: &'a [u16],
    /// `original` whitespace-collapsed, once a line has needed it.
    collapsed: OnceCell<Vec<u16>>,
}

impl<'a> Targets<'a> {
    fn new(targets: &[(&'a [u16], &'a [u16])]) -> Self {
        let mut by_prefix: HashMap<Vec<u16>, Vec<usize>> = HashMap::new();
        for (index, (original, _)) in targets.iter().enumerate() {
            by_prefix
                .entry(collapse_whitespace_prefix(original, COPY_PREFIX))
                .or_default()
                .push(index);
        }
        Targets {
            by_prefix,
            list: targets
                .iter()
                .map(|&(original, reference)| Target {
                    original,
                    reference,
                    collapsed: OnceCell::new(),
                })
                .collect(),
        }
    }

    /// The targets a value with this collapsed prefix can copy (a copy
    /// shares its target's prefix), or None.
    fn sharing_prefix(&self, prefix: &[u16]) -> Option<&[usize]> {
        self.by_prefix.get(prefix).map(Vec::as_slice)
    }

    /// The reference of the first of `candidates` that `value` (collapsed) copies.
    fn reference_for(&self, candidates: &[usize], value: &[u16]) -> Option<&'a [u16]> {
        candidates.iter().find_map(|&index| {
            let target = &self.list[index];
            let collapsed = target
                .collapsed
                .get_or_init(|| collapse_whitespace(target.original));
            is_copy_of(value, collapsed).then_some(target.reference)
        })
    }
}

fn replace_multiline_copies(text: Vec<u16>, original: &[u16], reference: &[u16]) -> Vec<u16> {
    let original = utf16::trim(original);
    // Usually there is no copy (a new-format summary holds no transcript).
    let Some(first) = utf16::find(&text, original) else {
        return text;
    };
    let mut out = Vec::with_capacity(text.len());
    out.extend_from_slice(&text[..first]);
    out.extend_from_slice(reference);
    let mut rest = &text[first + original.len()..];
    while let Some(at) = utf16::find(rest, original) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(reference);
        rest = &rest[at + original.len()..];
    }
    out.extend_from_slice(rest);
    out
}

/// Appends one summary line (with its terminator) to `out`, its value
/// replaced when it copies a target.
fn reference_line(out: &mut Vec<u16>, line: &[u16], targets: &Targets) {
    let (body, terminator) = line.split_at(utf16::trim_line_end(line).len());
    if let Some(value_starts) = value_starts(body) {
        for value_start in value_starts {
            let prefix = collapse_whitespace_prefix(&body[value_start..], COPY_PREFIX);
            let Some(candidates) = targets.sharing_prefix(&prefix) else {
                continue;
            };
            let value = collapse_whitespace(&body[value_start..]);
            if let Some(reference) = targets.reference_for(candidates, &value) {
                out.extend_from_slice(&body[..value_start]);
                out.extend_from_slice(reference);
                out.extend_from_slice(terminator);
                return;
            }
        }
    }
    out.extend_from_slice(line);
}

/// Where a line's value may start: after `Label: ` (tried first) and after
/// the bullet. `None` for the status line.
fn value_starts(body: &[u16]) -> Option<Vec<usize>> {
    let indent = body
        .iter()
        .position(|&unit| !utf16::is_js_whitespace(unit))?;
    let mut start = indent;
    if body.len() > start + 1
        && matches!(body[start], 0x2D | 0x2A | 0x2022)
        && body[start + 1] == u16::from(b' ')
    {
        start += 2;
    }
    let label_end =
        utf16::find(&body[start..], &[u16::from(b':'), u16::from(b' ')]).map(|at| start + at);
    let mut starts = Vec::new();
    if let Some(label_end) = label_end.filter(|&end| end - start <= 60) {
        let label = utf16::trim(&body[start..label_end]);
        let status_label = "latest assistant status";
        if label.len() == status_label.len() && starts_with_ascii_ignore_case(label, status_label) {
            return None;
        }
        starts.push(label_end + 2);
    }
    starts.push(start);
    Some(starts)
}

/// True when `value` (on one line) is `target`, or `target` cut with an ellipsis.
fn is_copy_of(value: &[u16], target: &[u16]) -> bool {
    if target.is_empty() || value.is_empty() {
        return false;
    }
    if value == target {
        return true;
    }
    let three_dots = [u16::from(b'.'); 3];
    let cut = value
        .strip_suffix(&[ELLIPSIS])
        .or_else(|| value.strip_suffix(&three_dots[..]))
        .map(utf16::trim);
    // A short prefix says too little to be sure it is a copy.
    cut.is_some_and(|prefix| prefix.len() >= COPY_PREFIX && target.starts_with(prefix))
}

#[cfg(test)]
mod tests;

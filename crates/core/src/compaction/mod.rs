//! Compaction summary caps.
//!
//! `cap_compaction_summary` is OpenClaw 2026.7.x's function, bit for bit.
//! `cap_preserving_suffix` is its `capCompactionSummaryPreservingSuffix`,
//! fixed: the structured body keeps a floor of half the budget and all of
//! its headings, and the suffix loses its oldest items first, at boundaries.

mod body;
mod prefix;
mod suffix;

use crate::utf16::{encode_ascii, surrogate_safe_floor, LF};

const CR: u16 = b'\r' as u16;

/// OpenClaw's `MAX_COMPACTION_SUMMARY_CHARS`: the budget both caps take when
/// the caller gives none.
pub const MAX_COMPACTION_SUMMARY_CHARS: f64 = 16_000.0;
/// OpenClaw's `SUMMARY_TRUNCATED_MARKER`, with its blank line.
pub const SUMMARY_TRUNCATED_MARKER: &str = "\n\n[Compaction summary truncated to fit budget]";
/// The marker line that stands where the suffix lost its head.
pub const SUFFIX_TRUNCATED_MARKER: &str = "[Earlier compaction context truncated to fit budget]";

/// `SUMMARY_TRUNCATED_MARKER` as UTF-16 units.
const SUMMARY_MARKER_UNITS: [u16; SUMMARY_TRUNCATED_MARKER.len()] =
    encode_ascii(SUMMARY_TRUNCATED_MARKER);
/// `SUFFIX_TRUNCATED_MARKER` as UTF-16 units.
const SUFFIX_MARKER_UNITS: [u16; SUFFIX_TRUNCATED_MARKER.len()] =
    encode_ascii(SUFFIX_TRUNCATED_MARKER);
/// OpenClaw's `REQUIRED_SUMMARY_SECTIONS`, checked by its `auditSummaryQuality`.
pub const REQUIRED_SUMMARY_SECTIONS: [&str; 5] = [
    "## Decisions",
    "## Open TODOs",
    "## Constraints/Rules",
    "## Pending user asks",
    "## Exact identifiers",
];

/// OpenClaw's `truncateUtf16Safe`: at most `floor(max_len)` units, never
/// ending between the halves of a surrogate pair.
pub fn truncate_utf16_safe(text: &[u16], max_len: f64) -> &[u16] {
    let limit = js_floor_to_len(max_len);
    if text.len() <= limit {
        return text;
    }
    &text[..surrogate_safe_floor(text, limit)]
}

/// `Math.max(0, Math.floor(x))` as a length (NaN → 0, as `slice` treats it).
fn js_floor_to_len(value: f64) -> usize {
    if value.is_nan() || value <= 0.0 {
        0
    } else if value >= usize::MAX as f64 {
        usize::MAX
    } else {
        value.floor() as usize
    }
}

/// OpenClaw 2026.7.x's `capCompactionSummary`, for every `max_chars` the JS
/// function can be given as a number (the binding maps NaN to the default).
pub fn cap_compaction_summary(summary: &[u16], max_chars: f64) -> Vec<u16> {
    if max_chars <= 0.0 || (summary.len() as f64) <= max_chars {
        return summary.to_vec();
    }
    let budget = (max_chars - SUMMARY_MARKER_UNITS.len() as f64).max(0.0);
    if budget <= 0.0 {
        return truncate_utf16_safe(summary, max_chars).to_vec();
    }
    let mut out = truncate_utf16_safe(summary, budget).to_vec();
    out.extend_from_slice(&SUMMARY_MARKER_UNITS);
    out
}

/// Options of the fixed cap. Strings are UTF-16.
#[derive(Debug, Clone, Default)]
pub struct CapOptions {
    /// Cap further so that `length / 4 <= token_budget` (OpenClaw's estimate).
    /// `None`, a value `<= 0` and infinity add no cap.
    pub token_budget: Option<f64>,
    /// Headings that must survive; `None` means OpenClaw's five.
    pub required_headings: Option<Vec<Vec<u16>>>,
    /// Strings that stay verbatim when they were in the body and fit.
    pub protected_identifiers: Vec<Vec<u16>>,
}

/// What the fixed cap did, for logging.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CapReport {
    pub summary: Vec<u16>,
    /// How many units at the start of `summary` are the body's: the
    /// suffix's part follows.
    pub body_len: usize,
    pub body_trimmed: bool,
    pub suffix_trimmed: bool,
    /// Units the body was allowed (its final share of the budget).
    pub body_budget: usize,
    /// Units the suffix was allowed.
    pub suffix_budget: usize,
}

impl CapReport {
    fn untouched(summary: Vec<u16>, body_len: usize, suffix_len: usize) -> Self {
        CapReport {
            body_len: summary.len() - suffix_len,
            summary,
            body_trimmed: false,
            suffix_trimmed: false,
            body_budget: body_len,
            suffix_budget: suffix_len,
        }
    }
}

/// The effective character limit from `maxChars` and `tokenBudget`, or
/// `None` when nothing caps the text.
fn effective_limit(max_chars: f64, token_budget: Option<f64>) -> Option<f64> {
    let by_chars = (max_chars > 0.0 && max_chars.is_finite()).then_some(max_chars);
    let by_tokens = token_budget
        .filter(|budget| *budget > 0.0 && budget.is_finite())
        .map(|budget| budget * 4.0);
    match (by_chars, by_tokens) {
        (Some(chars), Some(tokens)) => Some(chars.min(tokens)),
        (chars, tokens) => chars.or(tokens),
    }
}

fn concat(body: &[u16], suffix: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(body.len() + suffix.len());
    out.extend_from_slice(body);
    out.extend_from_slice(suffix);
    out
}

/// The fixed `capCompactionSummaryPreservingSuffix`, with its report.
pub fn cap_preserving_suffix(
    body: &[u16],
    suffix: &[u16],
    max_chars: f64,
    options: &CapOptions,
) -> CapReport {
    if suffix.is_empty() {
        // OpenClaw's rule: the body alone gets the plain cap (at the token
        // budget's limit when that is smaller).
        let limit = effective_limit(max_chars, options.token_budget).unwrap_or(max_chars);
        let summary = cap_compaction_summary(body, limit);
        let trimmed = summary != body;
        return CapReport {
            body_trimmed: trimmed,
            ..CapReport::untouched(summary, body.len(), 0)
        };
    }
    let limit = match effective_limit(max_chars, options.token_budget) {
        Some(limit) if (body.len() + suffix.len()) as f64 > limit => limit,
        _ => return CapReport::untouched(concat(body, suffix), body.len(), suffix.len()),
    };
    let total = js_floor_to_len(limit);
    // Body floor: ceil(limit / 2) units, or the whole body if shorter.
    let body_floor = js_floor_to_len((limit / 2.0).ceil())
        .min(total)
        .min(body.len());
    let suffix_budget = suffix.len().min(total - body_floor);
    let capped_suffix = if suffix.len() <= suffix_budget {
        suffix::Pieces::whole(suffix)
    } else {
        // What the body could still use if the suffix came in short.
        let body_excess = body.len().saturating_sub(total - suffix_budget);
        suffix::cap_suffix(suffix, suffix_budget, body_excess)
    };
    // A suffix cut at a boundary may come in under its budget: the body
    // gets what is left.
    let body_budget = (total - capped_suffix.len()).min(body.len());
    // A cut body ends without a line break; a suffix part that starts
    // without one (OpenClaw's always starts with a blank line) gets a line
    // feed, so that no line is made of both.
    let separator: &[u16] = match capped_suffix.first() {
        Some(first) if body.len() > body_budget && first != LF && first != CR => &[LF],
        _ => &[],
    };
    // Written once: the body, then the suffix's pieces.
    let mut summary = Vec::with_capacity(body_budget + capped_suffix.len());
    if body.len() <= body_budget {
        summary.extend_from_slice(body);
    } else {
        let required = match &options.required_headings {
            Some(headings) => body::Required::These(headings),
            None => body::Required::OpenClaws,
        };
        body::cap_body(
            body,
            body_budget.saturating_sub(separator.len()),
            required,
            &options.protected_identifiers,
            &mut summary,
        );
    }
    let body_len = summary.len();
    if body_len > 0 {
        summary.extend_from_slice(separator);
    }
    capped_suffix.append_to(&mut summary);
    debug_assert!(summary.len() <= total);
    CapReport {
        body_len,
        body_trimmed: body_len != body.len(),
        suffix_trimmed: capped_suffix.len() != suffix.len(),
        body_budget,
        // The suffix's final share: what the body did not take back.
        suffix_budget: suffix_budget.min(total - body_budget),
        summary,
    }
}

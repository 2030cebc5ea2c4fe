//! Summary text that repeats an entry or the live message: on a reload such a
//! line's value becomes a reference (`(see log entry N below)`, `(see the
//! live turn below)`), so each entry appears in the prompt once.

use std::cell::OnceCell;

use foldhash::{HashMap, HashMapExt};

use super::LIVE_TURN_REFERENCE;
use crate::persistent_chat::log::LogEntry;
use crate::persistent_chat::text::{
    collapse_whitespace, collapse_whitespace_prefix, starts_with_ascii_ignore_case, ELLIPSIS,
};
use crate::utf16;

/// `summary` with copies of the live message or an injected entry's text
/// replaced by a reference. A copy is a line's value (after a `- ` bullet
/// and an optional `Label: `) equal to the text on one line, or cut from it
/// with `…`/`...`, or a verbatim copy of a multi-line text. The status line
/// (`Latest assistant status`) holds a status, never text, and is left alone.
pub(super) fn reference_repeats(summary: &[u16], injected: &[&LogEntry], live: &[u16]) -> Vec<u16> {
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

//! Capping the preserved suffix from its head: the oldest items and sections
//! go first, the cut lands at an item or line start, a marker line stands
//! where text was removed, and the closing workspace-rules block stays whole.

use std::borrow::Cow;
use std::ops::Range;

use super::SUFFIX_TRUNCATED_MARKER;
use crate::utf16::{
    encode, ends_with_ascii, equals_ascii, find_lf, grapheme_suffix, is_js_whitespace, lfs,
    line_start, rfind_ascii3, starts_with_ascii, trim, trim_line_end, LF,
};

const RULES_OPEN: &str = "<workspace-critical-rules>";
const RULES_CLOSE: &str = "</workspace-critical-rules>";
/// Item starts in OpenClaw's turn sections (`formatContextMessages`).
const TURN_ITEM_PREFIXES: [&str; 3] = ["- User: ", "- Assistant: ", "- Tool result ("];

#[derive(Clone, Copy, PartialEq, Eq)]
enum LineKind {
    Blank,
    /// Opens a section: a Markdown heading, `**Turn Context …**`, `<tag>`.
    SectionHeader,
    /// Starts an item of the current section.
    ItemStart,
    /// Any other line: the continuation of an item.
    Continuation,
}

struct Line {
    range: Range<usize>,
    kind: LineKind,
    /// The header line of the section this line belongs to, if any: its
    /// text, without the line end.
    section_header: Option<Range<usize>>,
}

fn is_section_header(text: &[u16]) -> bool {
    let text = trim(text);
    let hash = u16::from(b'#');
    if text.first() == Some(&hash) {
        return true;
    }
    if starts_with_ascii(text, "**")
        && (ends_with_ascii(text, "**") || ends_with_ascii(text, "**:"))
        && text.len() > 4
    {
        return true;
    }
    is_open_tag(text)
}

/// `<name>` alone on a line (not a closing tag).
fn is_open_tag(text: &[u16]) -> bool {
    let [first, name @ .., last] = text else {
        return false;
    };
    *first == u16::from(b'<')
        && *last == u16::from(b'>')
        && !name.is_empty()
        && name.iter().all(|&u| {
            u8::try_from(u).is_ok_and(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

fn is_turn_section(header: &[u16]) -> bool {
    let header = trim(header);
    equals_ascii(header, "## Recent turns preserved verbatim")
        || starts_with_ascii(header, "**Turn Context")
}

/// OpenClaw's own suffix sections (`assembleSuffix`). Inside a turn section
/// only these end it: a message's text may well hold Markdown headings.
fn is_openclaw_section_opener(line: &[u16]) -> bool {
    let line = trim(line);
    [
        "## Recent turns preserved verbatim",
        "## Tool Failures",
        "<read-files>",
        "<modified-files>",
        RULES_OPEN,
    ]
    .iter()
    .any(|opener| equals_ascii(line, opener))
        || starts_with_ascii(line, "**Turn Context")
}

/// Where a forward classification stands: the current section's header,
/// whether it is a turn section, whether the previous line was blank.
struct Context {
    /// The current section's header text, without its line end.
    header: Option<Range<usize>>,
    in_turns: bool,
    after_blank: bool,
}

impl Context {
    const START: Context = Context {
        header: None,
        in_turns: false,
        after_blank: true,
    };
}

/// Classifies the lines of `text` from the line start `from`, in `context`,
/// and yields those that start at or after `emit_from`, lazily: the caller
/// stops at the first cut that fits.
fn classify(
    text: &[u16],
    from: usize,
    emit_from: usize,
    mut context: Context,
) -> impl Iterator<Item = Line> + '_ {
    let mut ends = lfs(text, from)
        .map(|lf| lf + 1)
        .chain(std::iter::once(text.len()));
    let mut start = from;
    std::iter::from_fn(move || loop {
        if start >= text.len() {
            return None;
        }
        let end = ends.next()?;
        let range = start..end;
        start = end;
        let line = &text[range.clone()];
        // Most lines are continuations of a turn's text: decide those from
        // their first units, without trimming them.
        let kind = if is_blank(line) {
            LineKind::Blank
        } else if context.in_turns {
            if context.after_blank && is_openclaw_section_opener(line) {
                LineKind::SectionHeader
            } else if line[0] == u16::from(b'-')
                && TURN_ITEM_PREFIXES
                    .iter()
                    .any(|p| starts_with_ascii(line, p))
            {
                LineKind::ItemStart
            } else {
                LineKind::Continuation
            }
        } else if is_section_header(line) {
            LineKind::SectionHeader
        } else if starts_with_ascii(trim(line), "</") {
            LineKind::Continuation
        } else {
            LineKind::ItemStart
        };
        if kind == LineKind::SectionHeader {
            context.header = Some(header_text(line, range.start));
            context.in_turns = is_turn_section(line);
        }
        context.after_blank = kind == LineKind::Blank;
        if range.start >= emit_from {
            return Some(Line {
                range,
                kind,
                section_header: if kind == LineKind::SectionHeader {
                    None
                } else {
                    context.header.clone()
                },
            });
        }
    })
}

/// The start of the line before the line that starts at `start` (> 0).
fn previous_line_start(text: &[u16], start: usize) -> usize {
    line_start(text, start - 1)
}

/// The first line start at or after `pos`.
fn line_start_at_or_after(text: &[u16], pos: usize) -> usize {
    if pos == 0 || pos > text.len() {
        return pos.min(text.len());
    }
    find_lf(text, pos - 1).map_or(text.len(), |lf| lf + 1)
}

/// Classifies the lines from `window_start` on, without reading the whole
/// head when it need not: a line's kind depends only on the section it is
/// in, so the walk starts at the nearest OpenClaw section opener before the
/// window. Inside a turn section nothing but an opener changes the state,
/// so it jumps straight to the window.
fn classify_window(head: &[u16], window_start: usize) -> impl Iterator<Item = Line> + '_ {
    if window_start == 0 {
        return classify(head, 0, 0, Context::START);
    }
    // The nearest line above the window that opens a section after a blank
    // line. An opener's first unit (trimmed) is '#', '<' or '*', far rarer
    // than line feeds in tool output: only lines holding one are looked at,
    // from the window upwards, each once.
    let mut search_end = window_start;
    while let Some(mark) = rfind_ascii3(head, search_end, *b"#<*") {
        let candidate = line_start(head, mark);
        let above = (candidate > 0).then(|| previous_line_start(head, candidate));
        let after_blank = above.is_none_or(|above| is_blank(&head[above..candidate]));
        let line = line_at(head, candidate);
        if after_blank && is_openclaw_section_opener(line) {
            if is_turn_section(line) {
                let context = Context {
                    header: Some(header_text(line, candidate)),
                    in_turns: true,
                    after_blank: is_blank(
                        &head[previous_line_start(head, window_start)..window_start],
                    ),
                };
                return classify(head, window_start, window_start, context);
            }
            return classify(head, candidate, window_start, Context::START);
        }
        search_end = candidate;
    }
    classify(head, 0, window_start, Context::START)
}

/// Where the closing rules block starts (with the blank lines before it),
/// when the suffix ends with one. Reads only the block, from the end.
fn rules_block_start(suffix: &[u16]) -> Option<usize> {
    let end = suffix.iter().rposition(|&u| !is_js_whitespace(u))? + 1;
    if !ends_with_ascii(&suffix[..end], RULES_CLOSE) {
        return None;
    }
    // From the closing tag's line back to the opening tag's.
    let mut start = line_start(suffix, end);
    loop {
        if equals_ascii(trim(line_at(suffix, start)), RULES_OPEN) {
            break;
        }
        if start == 0 {
            return None;
        }
        start = previous_line_start(suffix, start);
    }
    while start > 0 && is_js_whitespace(suffix[start - 1]) {
        start -= 1;
    }
    Some(start)
}

/// A capped suffix as pieces of the original and of the marker, so the
/// caller writes it once, straight after the body, instead of copying a
/// rendered suffix again.
#[derive(Debug, Default)]
pub(super) struct Pieces<'a>(Vec<Cow<'a, [u16]>>);

impl<'a> Pieces<'a> {
    pub(super) fn whole(text: &'a [u16]) -> Self {
        Pieces(vec![Cow::Borrowed(text)])
    }

    fn push(&mut self, piece: impl Into<Cow<'a, [u16]>>) {
        let piece = piece.into();
        if !piece.is_empty() {
            self.0.push(piece);
        }
    }

    pub(super) fn len(&self) -> usize {
        self.0.iter().map(|piece| piece.len()).sum()
    }

    pub(super) fn append_to(&self, out: &mut Vec<u16>) {
        for piece in &self.0 {
            out.extend_from_slice(piece);
        }
    }
}

/// Caps `suffix` (longer than `budget`) to at most `budget` units.
/// `body_appetite` is how many more units the body could use: budget the
/// suffix leaves unused goes there, so it is not wasted.
pub(super) fn cap_suffix(suffix: &[u16], budget: usize, body_appetite: usize) -> Pieces<'_> {
    match rules_block_start(suffix) {
        Some(start) if suffix.len() - start <= budget => {
            let (head, rules) = suffix.split_at(start);
            cut_head(head, rules, budget, body_appetite).unwrap_or_else(|| Pieces::whole(rules))
        }
        // No rules block, or one that cannot fit whole: cut the suffix as one.
        _ => cut_head(suffix, &[], budget, body_appetite)
            .unwrap_or_else(|| Pieces::whole(bare_tail(suffix, budget))),
    }
}

/// A tail of at most `budget` units, for budgets too small even for the
/// marker: from a line start when one is in reach, else from a grapheme
/// boundary, without leading blank space.
fn bare_tail(suffix: &[u16], budget: usize) -> &[u16] {
    let mut tail = grapheme_suffix(suffix, budget);
    let starts_a_line = tail.len() == suffix.len() || suffix[suffix.len() - tail.len() - 1] == LF;
    if !starts_a_line {
        if let Some(lf) = find_lf(tail, 0) {
            if lf + 1 < tail.len() {
                tail = &tail[lf + 1..];
            }
        }
    }
    let skip = tail.iter().take_while(|&&u| is_js_whitespace(u)).count();
    &tail[skip..]
}

struct Plan<'a> {
    head: &'a [u16],
    rules: &'a [u16],
    /// `"\n\n" + marker + "\n\n"`, before what is kept of the head.
    lead: Vec<u16>,
}

impl<'a> Plan<'a> {
    /// The output for a cut at `cut` (`None` keeps nothing of the head).
    fn render(&self, cut: Option<&Line>) -> Pieces<'a> {
        let mut out = Pieces::default();
        match cut {
            Some(line) => {
                out.push(self.lead.clone());
                if let Some(header) = &line.section_header {
                    out.push(&self.head[header.clone()]);
                    out.push(vec![LF]);
                }
                out.push(&self.head[line.range.start..]);
            }
            // Nothing kept of the head: the marker ends without blank lines.
            None => out.push(self.lead[..self.lead.len() - 2].to_vec()),
        }
        out.push(self.rules);
        out
    }

    fn rendered_len(&self, cut: Option<&Line>) -> usize {
        match cut {
            Some(line) => {
                let header = line.section_header.as_ref().map_or(0, |h| h.len() + 1);
                self.lead.len() + header + (self.head.len() - line.range.start) + self.rules.len()
            }
            None => self.lead.len() - 2 + self.rules.len(),
        }
    }
}

/// A line of nothing but white space (stops at the first other unit).
fn is_blank(line: &[u16]) -> bool {
    line.iter().all(|&unit| is_js_whitespace(unit))
}

/// The text of the header `line` (with its line end) that starts at `start`.
fn header_text(line: &[u16], start: usize) -> Range<usize> {
    start..start + trim_line_end(line).len()
}

fn line_at(text: &[u16], start: usize) -> &[u16] {
    let end = find_lf(text, start).map_or(text.len(), |lf| lf + 1);
    &text[start..end]
}

/// Cuts `head` from its start so that the marker, the rest of `head` and
/// `rules` fit `budget`. None when not even the marker and `rules` fit.
fn cut_head<'a>(
    head: &'a [u16],
    rules: &'a [u16],
    budget: usize,
    body_appetite: usize,
) -> Option<Pieces<'a>> {
    let lead = encode(&format!("\n\n{SUFFIX_TRUNCATED_MARKER}\n\n"));
    let plan = Plan { head, rules, lead };
    // No cut before this can fit: only the lines from here on are read.
    let room = budget.saturating_sub(plan.lead.len() + rules.len());
    let window_start = line_start_at_or_after(head, head.len().saturating_sub(room));
    // The first line that fits, and the first item start that fits, in one
    // forward pass that stops at the item (usually within one item).
    let fits = |line: &Line| plan.rendered_len(Some(line)) <= budget;
    let mut line_cut = None;
    let mut item_cut = None;
    for line in classify_window(head, window_start) {
        if line.kind == LineKind::Blank || !fits(&line) {
            continue;
        }
        let is_item = matches!(line.kind, LineKind::SectionHeader | LineKind::ItemStart);
        if is_item {
            item_cut = Some(line);
            break;
        }
        line_cut.get_or_insert(line);
    }
    if let Some(item) = item_cut {
        // Whole items first; but when dropping a whole item would leave more
        // than a quarter of the budget unused (the body cannot take it),
        // cut at a line start inside it instead.
        let unused = budget - plan.rendered_len(Some(&item));
        let wasted = unused - unused.min(body_appetite);
        let cut = match line_cut {
            Some(line) if wasted > budget / 4 => line,
            _ => item,
        };
        return Some(plan.render(Some(&cut)));
    }
    if let Some(line) = line_cut {
        return Some(plan.render(Some(&line)));
    }
    if plan.rendered_len(None) > budget {
        return None;
    }
    // One line alone is longer than the budget: keep the tail of the last
    // non-blank line, from a grapheme boundary.
    let last_start = last_non_blank_line_start(head)?;
    let room = budget - plan.rendered_len(None);
    let room = room.saturating_sub(2);
    let text = &head[last_start..];
    let tail = grapheme_suffix(text, room);
    if tail.is_empty() {
        return Some(plan.render(None));
    }
    let mut out = Pieces::default();
    out.push(plan.lead.clone());
    out.push(tail);
    out.push(rules);
    debug_assert!(out.len() <= budget);
    Some(out)
}

/// The start of the last line of `text` that is not blank.
fn last_non_blank_line_start(text: &[u16]) -> Option<usize> {
    let end = text.iter().rposition(|&u| !is_js_whitespace(u))?;
    Some(line_start(text, end))
}

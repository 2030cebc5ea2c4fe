//! Capping the preserved suffix from its head: the oldest items and sections
//! go first, the cut lands at an item or line start, a marker line stands
//! where text was removed, and the closing workspace-rules block stays whole.

use std::borrow::Cow;
use std::ops::Range;

use super::prefix::is_word_unit;
use super::SUFFIX_MARKER_UNITS;
use crate::utf16::{
    ascii_positions_rev, ends_with_ascii, equals_ascii, find_lf, grapheme_boundaries,
    grapheme_ceil, is_js_whitespace, line_feeds, line_start, start_of_line_led_by,
    starts_with_ascii, trim, trim_line_end, LF,
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
    let mut ends = line_feeds(text, from)
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
    let mut looked_at = window_start;
    for mark in ascii_positions_rev(head, window_start, *b"#<*") {
        // A mark after the first unit of its line cannot lead an opener.
        let Some(candidate) = start_of_line_led_by(head, mark).filter(|&at| at < looked_at) else {
            continue;
        };
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
        looked_at = candidate;
    }
    classify(head, 0, window_start, Context::START)
}

/// The closing rules block of a suffix that ends with one.
struct RulesBlock {
    /// Where it starts, with the blank lines before it.
    start: usize,
    /// Where its opening tag's line starts.
    opener: usize,
}

/// The closing rules block, when the suffix ends with one. Reads only the
/// block, from the end.
fn rules_block(suffix: &[u16]) -> Option<RulesBlock> {
    let end = suffix.iter().rposition(|&u| !is_js_whitespace(u))? + 1;
    if !ends_with_ascii(&suffix[..end], RULES_CLOSE) {
        return None;
    }
    // From the closing tag's line back to the opening tag's.
    let mut opener = line_start(suffix, end);
    loop {
        if equals_ascii(trim(line_at(suffix, opener)), RULES_OPEN) {
            break;
        }
        if opener == 0 {
            return None;
        }
        opener = previous_line_start(suffix, opener);
    }
    // The blank lines above it, from the line feed that ends the text above
    // them (that line's trailing blanks are the line's, not the block's).
    let mut start = opener;
    while start > 0 {
        let above = previous_line_start(suffix, start);
        if !is_blank(&suffix[above..start]) {
            break;
        }
        start = above;
    }
    Some(RulesBlock {
        start: start.saturating_sub(1),
        opener,
    })
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

    pub(super) fn first(&self) -> Option<u16> {
        self.0.first().and_then(|piece| piece.first().copied())
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
/// `body_excess` is how much of the body lies beyond its share of the
/// budget: budget the suffix leaves unused goes there, so it is not wasted.
pub(super) fn cap_suffix(suffix: &[u16], budget: usize, body_excess: usize) -> Pieces<'_> {
    match rules_block(suffix) {
        Some(block) if suffix.len() - block.start <= budget => {
            let (head, rules) = suffix.split_at(block.start);
            Plan::new(head, rules)
                .cut(budget, body_excess)
                .unwrap_or_else(|| Pieces::whole(rules))
        }
        // A block longer than the budget: everything before it goes, and the
        // block loses its head like a section, under its repeated opening tag.
        Some(block) => Plan::inside_block(&suffix[block.opener..])
            .cut(budget, body_excess)
            .unwrap_or_default(),
        None => Plan::new(suffix, &[])
            .cut(budget, body_excess)
            .unwrap_or_else(|| Pieces::whole(standalone_tail(suffix, budget))),
    }
}

/// For a budget too small for the marker: the longest tail of whole
/// sections or whole items (not items of a tag block, which would lose
/// their opening tag), from the line feed before it; else nothing.
fn standalone_tail(suffix: &[u16], budget: usize) -> &[u16] {
    // A tail from the line start `p` takes `len - p + 1` units.
    let earliest = (suffix.len() + 1).saturating_sub(budget).max(1);
    for line in classify_window(suffix, line_start_at_or_after(suffix, earliest)) {
        let stands_alone = match line.kind {
            LineKind::SectionHeader => true,
            LineKind::ItemStart => !line
                .section_header
                .is_some_and(|header| is_open_tag(trim(&suffix[header]))),
            LineKind::Blank | LineKind::Continuation => false,
        };
        if stands_alone {
            return &suffix[line.range.start - 1..];
        }
    }
    &[]
}

/// The marker with its blank lines, as it stands before kept text.
const LEAD: [&[u16]; 3] = [&[LF, LF], &SUFFIX_MARKER_UNITS, &[LF, LF]];
const LEAD_LEN: usize = SUFFIX_MARKER_UNITS.len() + 4;
/// The marker at the end, when nothing of the text is kept: without the
/// blank lines after it.
const MARKER_ALONE_LEN: usize = SUFFIX_MARKER_UNITS.len() + 2;

/// How a text is cut from its head: what stays whole after it, and the
/// opening tag repeated above the kept lines when the cut is inside a block.
struct Plan<'a> {
    text: &'a [u16],
    /// Kept whole after what is kept of `text`.
    rules: &'a [u16],
    /// The opening tag's line of a block cut inside (`text` starts with it).
    opener: Option<Range<usize>>,
    /// Cuts start before this: a block's closing tag alone is not kept.
    cuts_end: usize,
}

impl<'a> Plan<'a> {
    fn new(text: &'a [u16], rules: &'a [u16]) -> Self {
        Plan {
            text,
            rules,
            opener: None,
            cuts_end: text.len(),
        }
    }

    /// `block` starts with its opening tag's line and ends with its closing tag.
    fn inside_block(block: &'a [u16]) -> Self {
        Plan {
            text: block,
            rules: &[],
            opener: Some(header_text(line_at(block, 0), 0)),
            cuts_end: last_non_blank_line_start(block).unwrap_or(block.len()),
        }
    }

    /// The header lines written above a cut at `line`: the block's opening
    /// tag, then the line's own section header (unless it is that tag).
    fn headers<'l>(&'l self, line: &'l Line) -> impl Iterator<Item = &'l Range<usize>> {
        let own = line
            .section_header
            .as_ref()
            .filter(|header| Some(*header) != self.opener.as_ref());
        self.opener.iter().chain(own)
    }

    /// The output for a cut at `cut` (`None` keeps nothing of the text).
    fn render(&self, cut: Option<&Line>) -> Pieces<'a> {
        let mut out = Pieces::default();
        match cut {
            Some(line) => {
                for piece in LEAD {
                    out.push(piece);
                }
                for header in self.headers(line) {
                    out.push(&self.text[header.clone()]);
                    out.push(&[LF][..]);
                }
                out.push(&self.text[line.range.start..]);
            }
            None => {
                out.push(LEAD[0]);
                out.push(LEAD[1]);
            }
        }
        out.push(self.rules);
        out
    }

    fn rendered_len(&self, cut: Option<&Line>) -> usize {
        match cut {
            Some(line) => {
                let headers: usize = self.headers(line).map(|header| header.len() + 1).sum();
                LEAD_LEN + headers + (self.text.len() - line.range.start) + self.rules.len()
            }
            None => MARKER_ALONE_LEN + self.rules.len(),
        }
    }

    /// Cuts the text from its head so that the marker, the rest of the text
    /// and `rules` fit `budget`. None when not even the marker and `rules` fit.
    fn cut(&self, budget: usize, body_excess: usize) -> Option<Pieces<'a>> {
        let text = self.text;
        // No cut before this can fit: only the lines from here on are read.
        let room = budget.saturating_sub(LEAD_LEN + self.rules.len());
        let window_start = line_start_at_or_after(text, text.len().saturating_sub(room));
        let fits = |line: &Line| {
            line.range.start < self.cuts_end && self.rendered_len(Some(line)) <= budget
        };
        // The first line that fits, and the first item start that fits, in one
        // forward pass that stops at the item (usually within one item).
        let mut line_cut = None;
        let mut item_cut = None;
        for line in classify_window(text, window_start) {
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
            let unused = budget - self.rendered_len(Some(&item));
            let wasted = unused - unused.min(body_excess);
            let cut = match line_cut {
                Some(line) if wasted > budget / 4 => line,
                _ => item,
            };
            return Some(self.render(Some(&cut)));
        }
        if let Some(line) = line_cut {
            return Some(self.render(Some(&line)));
        }
        if self.rendered_len(None) > budget {
            return None;
        }
        Some(
            self.last_line_tail(budget)
                .unwrap_or_else(|| self.render(None)),
        )
    }

    /// When no whole line fits: the tail of the last non-blank line from a
    /// word start, after the marker; none when no word start fits (a piece
    /// of a word reads as another word). Not for a header or a closing tag
    /// (a piece of one would look like structure), nor inside a block (its
    /// last line is the closing tag).
    fn last_line_tail(&self, budget: usize) -> Option<Pieces<'a>> {
        if self.opener.is_some() {
            return None;
        }
        let last = &self.text[last_non_blank_line_start(self.text)?..];
        if is_section_header(last) || starts_with_ascii(trim(last), "</") {
            return None;
        }
        let room = (budget - self.rendered_len(None)).saturating_sub(2);
        let tail = word_start_tail(last, room)?;
        let mut out = Pieces::default();
        for piece in LEAD {
            out.push(piece);
        }
        out.push(tail);
        out.push(self.rules);
        debug_assert!(out.len() <= budget);
        Some(out)
    }
}

/// The whole `line` when it fits `limit` (its section header did not), else
/// its longest tail that fits and starts a word: after white space, on a
/// grapheme boundary (not at a combining mark after a space), and holding a
/// word unit (not a bare `)` or number).
fn word_start_tail(line: &[u16], limit: usize) -> Option<&[u16]> {
    if line.len() <= limit {
        return Some(line);
    }
    let earliest = grapheme_ceil(line, line.len().saturating_sub(limit).max(1));
    // One segmentation of the window, from a boundary: `limit` bounds it.
    let start = grapheme_boundaries(line, earliest, line.len())
        .into_iter()
        .find(|&at| {
            at < line.len() && is_js_whitespace(line[at - 1]) && !is_js_whitespace(line[at])
        })?;
    let tail = &line[start..];
    tail.iter().any(|&unit| is_word_unit(unit)).then_some(tail)
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

/// The start of the last line of `text` that is not blank.
fn last_non_blank_line_start(text: &[u16]) -> Option<usize> {
    let end = text.iter().rposition(|&u| !is_js_whitespace(u))?;
    Some(line_start(text, end))
}

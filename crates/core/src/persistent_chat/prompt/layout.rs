//! Laying the prompt out (see the module header of `prompt`) and fitting it
//! to `maxChars`: the recalled entries go first (the worst hit first), then
//! the oldest entries of the excerpt, then the summary shrinks by its own
//! sections; the metadata and the live turn stay whole.

use super::recall::Recalled;
use super::references::reference_repeats;
use super::separators::fence::{
    Structure, BOOTSTRAP_WORDS, EXCERPT_TITLE, LIVE_TURN_WORDS, METADATA_TITLE, RECALL_TITLE,
    REFRESH_WORDS, SUMMARY_TITLE,
};
use super::separators::{
    join_lines, neutralise_continuation_into, neutralise_separators, neutralise_separators_into,
    neutralise_summary, reads_as_structure,
};
use super::{
    MetadataValue, PromptMode, TurnMetadata, LOG_SEARCH_HINT, MAX_METADATA_FIELD_CHARS,
    PLACEHOLDER_LINE, QUOTED_MARKER,
};
use crate::persistent_chat::budget::{fit_sections, parse_sections};
use crate::persistent_chat::log::LogEntry;
use crate::persistent_chat::status::is_ok_status;
use crate::persistent_chat::text::{
    collapse_whitespace, cut_with_ellipsis, join_with_blank_lines, js_number_to_string, push_str,
    shown_text, trim_end_lines,
};
use crate::utf16;

pub(super) struct Layout<'a> {
    pub(super) mode: PromptMode,
    /// Writes the structural lines (fenced or legacy).
    pub(super) structure: Structure<'a>,
    /// Rendered and neutralised.
    pub(super) metadata: Option<Vec<u16>>,
    /// Legacy transcript stripped, not blank; references and neutralising
    /// come per layout.
    pub(super) summary: Option<Vec<u16>>,
    /// Oldest first; the excerpt shows a newest suffix of them.
    pub(super) candidates: Vec<&'a LogEntry>,
    /// The recall block's entries, oldest first (reload, fenced only).
    pub(super) recalled: Vec<Recalled<'a>>,
    /// The bootstrap block's first line says the log can be searched
    /// (reload, fenced, `logSearchTool`).
    pub(super) log_search_hint: bool,
    /// As given: what summary lines are compared with.
    pub(super) user_message: &'a [u16],
    /// As shown: `user_message` neutralised.
    pub(super) live_turn: Vec<u16>,
    /// An entry's text longer than this is cut; `None`: no cap.
    pub(super) max_entry_chars: Option<usize>,
}

/// The prompt laid out within its budget.
pub(super) struct FittedPrompt {
    pub(super) prompt: Vec<u16>,
    /// How many of the newest candidates are shown.
    pub(super) entries: usize,
    /// The log lines of the recalled entries shown, oldest first.
    pub(super) recalled_lines: Vec<u64>,
    pub(super) summary_trimmed: bool,
}

impl Layout<'_> {
    /// The prompt within `max` units when it can be: the recalled entries
    /// go first (the worst hit first), then the oldest entries, then the
    /// summary shrinks; metadata and live turn stay whole.
    pub(super) fn fit(&self, max: Option<usize>) -> FittedPrompt {
        let all = self.candidates.len();
        let fitted = |entries: usize, recalled: &[Recalled]| FittedPrompt {
            prompt: self.render_with_entries(entries, recalled),
            entries,
            recalled_lines: recalled.iter().map(|recalled| recalled.line).collect(),
            summary_trimmed: false,
        };
        let Some(max) = max else {
            return fitted(all, &self.recalled);
        };
        // The recalled entries, the worst hit first, before any entry of the
        // excerpt.
        for kept in (1..=self.recalled.len()).rev() {
            let recalled: Vec<Recalled> = self
                .recalled
                .iter()
                .filter(|recalled| recalled.rank < kept)
                .copied()
                .collect();
            let candidate = fitted(all, &recalled);
            if candidate.prompt.len() <= max {
                return candidate;
            }
        }
        let full = fitted(all, &[]);
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
            let candidate = fitted(middle, &[]);
            if candidate.prompt.len() <= max {
                low = middle + 1;
                fits = Some(candidate);
            } else {
                too_many = middle;
            }
        }
        fits.unwrap_or_else(|| self.fit_with_shrunk_summary(max))
    }

    fn render_with_entries(&self, count: usize, recalled: &[Recalled]) -> Vec<u16> {
        let injected = &self.candidates[self.candidates.len() - count..];
        let summary = self.summary_for(injected);
        self.render(injected, recalled, summary.as_deref())
    }

    fn summary_for(&self, injected: &[&LogEntry]) -> Option<Vec<u16>> {
        let summary = self.summary.as_ref()?;
        let referenced = reference_repeats(summary, injected, self.user_message);
        Some(neutralise_summary(trim_end_lines(&referenced)))
    }

    /// No entries, and the summary shortened by its own rules (sections
    /// keep their first lines and count the rest) to what is left.
    fn fit_with_shrunk_summary(&self, max: usize) -> FittedPrompt {
        let summary = self.summary_for(&[]);
        let overhead = self
            .render(&[], &[], summary.as_ref().map(|_| &[][..]))
            .len();
        // Cut lines are neutralised again: a cut can end a line where its
        // words alone read like a heading.
        let shrunk = summary
            .map(|summary| {
                neutralise_summary(
                    fit_sections(&parse_sections(&summary), max.saturating_sub(overhead)).text,
                )
            })
            .filter(|summary| !utf16::trim(summary).is_empty());
        let prompt = self.render(&[], &[], shrunk.as_deref());
        let prompt = if prompt.len() <= max {
            prompt
        } else {
            self.render_bare()
        };
        FittedPrompt {
            prompt,
            entries: 0,
            recalled_lines: Vec::new(),
            summary_trimmed: self.summary.is_some(),
        }
    }

    fn render(
        &self,
        injected: &[&LogEntry],
        recalled: &[Recalled],
        summary: Option<&[u16]>,
    ) -> Vec<u16> {
        let omitted = self.candidates.len() - injected.len();
        let excerpt = (!injected.is_empty() || omitted > 0)
            .then(|| render_excerpt(self.structure, injected, omitted, self.max_entry_chars));
        let recall = (!recalled.is_empty())
            .then(|| render_recalled(self.structure, recalled, self.max_entry_chars));
        let mut blocks: Vec<Vec<u16>> = self.metadata.iter().cloned().collect();
        match self.mode {
            mode if mode.restores()
                && (summary.is_some() || excerpt.is_some() || recall.is_some()) =>
            {
                let mut restored = Vec::with_capacity(
                    400 + summary.map_or(0, <[u16]>::len)
                        + recall.as_ref().map_or(0, Vec::len)
                        + excerpt.as_ref().map_or(0, Vec::len),
                );
                let words = match mode {
                    PromptMode::Refresh => REFRESH_WORDS,
                    _ => BOOTSTRAP_WORDS,
                };
                self.structure.separator(&mut restored, words);
                if self.log_search_hint {
                    push_str(&mut restored, "\n");
                    push_str(&mut restored, LOG_SEARCH_HINT);
                }
                // Fenced only: the legacy layout stays as earlier builds wrote it.
                if self.structure.fenced() {
                    push_str(&mut restored, "\n");
                    self.structure.note(&mut restored, PLACEHOLDER_LINE);
                }
                if let Some(summary) = summary {
                    push_str(&mut restored, "\n");
                    self.structure.heading(&mut restored, SUMMARY_TITLE);
                    push_str(&mut restored, "\n");
                    restored.extend_from_slice(summary);
                }
                if let Some(recall) = recall {
                    push_str(&mut restored, "\n");
                    restored.extend(recall);
                }
                if let Some(excerpt) = excerpt {
                    push_str(&mut restored, "\n");
                    restored.extend(excerpt);
                }
                blocks.push(restored);
            }
            PromptMode::Reload | PromptMode::Refresh => {}
            PromptMode::Continuous => blocks.extend(excerpt),
        }
        self.finish(blocks)
    }

    /// Metadata and live turn only: what is sent when nothing else fits.
    fn render_bare(&self) -> Vec<u16> {
        self.finish(self.metadata.iter().cloned().collect())
    }

    /// The blocks, the live turn last, after the first line (fenced).
    fn finish(&self, mut blocks: Vec<Vec<u16>>) -> Vec<u16> {
        let mut live = Vec::with_capacity(self.live_turn.len() + 64);
        self.structure.separator(&mut live, LIVE_TURN_WORDS);
        push_str(&mut live, "\n");
        live.extend_from_slice(&self.live_turn);
        self.structure.live_end(&mut live);
        blocks.push(live);
        if !self.structure.fenced() {
            return join_with_blank_lines(blocks);
        }
        let mut out =
            Vec::with_capacity(64 + blocks.iter().map(|block| block.len() + 2).sum::<usize>());
        self.structure.preamble(&mut out);
        for (index, block) in blocks.iter().enumerate() {
            if index > 0 {
                push_str(&mut out, "\n\n");
            }
            out.extend_from_slice(block);
        }
        out
    }
}

fn render_excerpt(
    structure: Structure,
    injected: &[&LogEntry],
    omitted: usize,
    max_entry_chars: Option<usize>,
) -> Vec<u16> {
    let mut out = Vec::new();
    structure.heading(&mut out, EXCERPT_TITLE);
    if omitted > 0 {
        push_str(&mut out, "\n");
        structure.omitted(&mut out, omitted);
    }
    for (index, entry) in injected.iter().enumerate() {
        push_str(&mut out, "\n");
        render_entry(
            structure,
            &mut out,
            index as u64 + 1,
            entry,
            max_entry_chars,
        );
    }
    out
}

/// The recall block: its heading, then each entry as the excerpt shows one
/// (the same header, cut and neutraliser), numbered by its log line.
fn render_recalled(
    structure: Structure,
    recalled: &[Recalled],
    max_entry_chars: Option<usize>,
) -> Vec<u16> {
    let mut out = Vec::new();
    structure.heading(&mut out, RECALL_TITLE);
    for recalled in recalled {
        push_str(&mut out, "\n");
        render_entry(
            structure,
            &mut out,
            recalled.line,
            recalled.entry,
            max_entry_chars,
        );
    }
    out
}

/// The entry's header (`N. [ts] role`, with ` (status)` after a role whose
/// status is not ok; timestamp and status on one line) and its text: on the
/// header's line in the legacy layout (its lines after the first
/// neutralised), on lines of its own when fenced (all neutralised). A text
/// longer than `max_entry_chars` is cut (see [`shown_text`]).
fn render_entry(
    structure: Structure,
    out: &mut Vec<u16>,
    number: u64,
    entry: &LogEntry,
    max_entry_chars: Option<usize>,
) {
    let ts = entry.ts.as_ref().map(|ts| join_lines(&ts.display()));
    let status = entry
        .status
        .as_deref()
        .filter(|status| !is_ok_status(status))
        .map(|status| join_lines(&collapse_whitespace(status)));
    structure.entry_header(
        out,
        number,
        ts.as_deref(),
        entry.role.as_str(),
        status.as_deref(),
    );
    let text = shown_text(&entry.text, max_entry_chars);
    if structure.fenced() {
        neutralise_separators_into(out, &text);
    } else {
        neutralise_continuation_into(out, &text);
    }
}

pub(super) fn render_metadata(metadata: &TurnMetadata, structure: Structure) -> Option<Vec<u16>> {
    let text = match metadata {
        TurnMetadata::Text(text) => trim_end_lines(text).to_vec(),
        TurnMetadata::Fields(fields) if fields.is_empty() => return None,
        TurnMetadata::Fields(fields) => {
            let mut out = Vec::new();
            structure.heading(&mut out, METADATA_TITLE);
            for (key, value) in fields {
                push_str(&mut out, "\n- ");
                push_field(&mut out, key);
                push_str(&mut out, ": ");
                match value {
                    MetadataValue::Text(text) => push_field(&mut out, text),
                    MetadataValue::Number(number) => {
                        push_str(&mut out, &js_number_to_string(*number))
                    }
                    MetadataValue::Bool(flag) => {
                        push_str(&mut out, if *flag { "true" } else { "false" })
                    }
                    MetadataValue::Null => push_str(&mut out, "null"),
                }
            }
            return Some(out);
        }
    };
    (!utf16::trim(&text).is_empty()).then(|| neutralise_separators(text))
}

/// A metadata key or value: on one line (each line break a space), cut to
/// [`MAX_METADATA_FIELD_CHARS`] units (at a grapheme boundary, with `…`),
/// and quoted when it reads as structure by itself, so that every line of
/// the fields block is the builder's `- key: value`.
fn push_field(out: &mut Vec<u16>, text: &[u16]) {
    let line = cut_with_ellipsis(&join_lines(text), MAX_METADATA_FIELD_CHARS);
    if reads_as_structure(&line) {
        push_str(out, QUOTED_MARKER);
    }
    out.extend_from_slice(&line);
}

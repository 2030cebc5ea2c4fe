//! Capping the structured summary body: every heading stays, the text under
//! each heading shrinks to its first lines.
//!
//! Only the headings are looked for in the whole body; the lines under a
//! heading are looked at only where a share of the budget ends (and where
//! protected identifiers are asked for), so the cost follows the budget and
//! the number of headings, not the body's length.

use std::ops::Range;

use super::prefix::boundary_prefix;
use super::{REQUIRED_SUMMARY_SECTIONS, SUMMARY_MARKER_UNITS};
use crate::utf16::{
    self, ascii_positions, equals_ascii, find_lf, rfind_lf, start_of_line_led_by, trim, LF,
};

/// The headings that must survive when not all of them fit.
#[derive(Clone, Copy)]
pub(super) enum Required<'a> {
    /// OpenClaw's `REQUIRED_SUMMARY_SECTIONS`.
    OpenClaws,
    These(&'a [Vec<u16>]),
}

impl Required<'_> {
    fn includes(self, heading: &[u16]) -> bool {
        let heading = trim(heading);
        match self {
            Required::OpenClaws => REQUIRED_SUMMARY_SECTIONS
                .iter()
                .any(|required| equals_ascii(heading, required)),
            Required::These(list) => list.iter().any(|required| heading == trim(required)),
        }
    }
}

/// One section of the body: an optional heading line, then the lines under
/// it up to the next heading.
struct Section {
    /// With its line end (`None` for the text before the first heading).
    heading: Option<Range<usize>>,
    /// The lines under the heading: from its end to the next heading.
    content: Range<usize>,
}

/// The sections, found from the body's `#` units alone.
fn split_sections(body: &[u16]) -> Vec<Section> {
    let mut sections = vec![Section {
        heading: None,
        content: 0..body.len(),
    }];
    let mut heading_end = 0;
    for hash in ascii_positions(body, b'#') {
        if hash < heading_end {
            continue; // in the heading line just found
        }
        // A heading's `#` is its line's first unit after blanks (as OpenClaw's
        // section check trims lines before comparing them).
        let Some(start) = start_of_line_led_by(body, hash) else {
            continue;
        };
        heading_end = find_lf(body, hash).map_or(body.len(), |lf| lf + 1);
        if let Some(previous) = sections.last_mut() {
            previous.content.end = start;
        }
        sections.push(Section {
            heading: Some(start..heading_end),
            content: heading_end..body.len(),
        });
    }
    sections
}

/// The end of the line of `body` that starts at `start`, within `content_end`.
fn line_end(body: &[u16], start: usize, content_end: usize) -> usize {
    find_lf(&body[..content_end], start).map_or(content_end, |lf| lf + 1)
}

/// Which lines of a kept section stay: every line before `cursor`, and the
/// protected lines after it.
struct Kept {
    /// Where the next line that could still be kept starts.
    cursor: usize,
    /// The lines that hold a protected identifier, in order.
    protected: Vec<Range<usize>>,
    /// How many of `protected` start before `cursor`.
    protected_passed: usize,
}

impl Kept {
    fn new(content: &Range<usize>) -> Self {
        Kept {
            cursor: content.start,
            protected: Vec::new(),
            protected_passed: 0,
        }
    }

    fn any(&self, content: &Range<usize>) -> bool {
        self.cursor > content.start || !self.protected.is_empty()
    }

    /// Keeps the lines from the cursor on, skipping those already kept, while
    /// their lengths add up to at most `limit`; stops at the first that does
    /// not fit. Returns the units kept.
    ///
    /// The lines between two protected ones that fit are those that end by
    /// `cursor + limit`: one backward search for a line feed finds them all.
    fn fill(&mut self, body: &[u16], content: &Range<usize>, limit: usize) -> usize {
        let mut used = 0;
        while self.cursor < content.end {
            let protected = self.protected.get(self.protected_passed);
            let run_end = protected.map_or(content.end, |line| line.start);
            let room = limit - used;
            if run_end - self.cursor <= room {
                used += run_end - self.cursor;
                self.cursor = run_end;
                match protected {
                    Some(line) => {
                        self.cursor = line.end;
                        self.protected_passed += 1;
                        continue;
                    }
                    None => break,
                }
            }
            // The run does not fit whole: keep its lines that end by `cursor + room`.
            let run = &body[self.cursor..self.cursor + room];
            if let Some(lf) = rfind_lf(run, run.len()) {
                used += lf + 1;
                self.cursor += lf + 1;
            }
            break;
        }
        used
    }
}

/// Caps `body` (longer than `budget`) to at most `budget` units, appended
/// to `out`.
pub(super) fn cap_body(
    body: &[u16],
    budget: usize,
    required_headings: Required,
    protected: &[Vec<u16>],
    out: &mut Vec<u16>,
) {
    let marker = &SUMMARY_MARKER_UNITS;
    let sections = split_sections(body);
    // The budget for the kept lines: the marker and a possible line feed
    // after the last kept line are reserved.
    let Some(line_budget) = budget.checked_sub(marker.len() + 1) else {
        return plain_prefix(body, budget, out);
    };
    let headings = || sections.iter().filter_map(|s| s.heading.clone());
    let all_headings: usize = headings().map(|h| h.len()).sum();
    // Whether each section stays (the one before the first heading always does).
    let section_kept: Vec<bool> = if all_headings <= line_budget {
        vec![true; sections.len()]
    } else {
        // Not all headings fit: the required ones first, then the others
        // in order while they fit.
        let required: Vec<bool> = sections
            .iter()
            .map(|s| {
                s.heading
                    .as_ref()
                    .is_some_and(|h| required_headings.includes(&body[h.clone()]))
            })
            .collect();
        let required_len: usize = sections
            .iter()
            .zip(&required)
            .filter(|(_, r)| **r)
            .filter_map(|(s, _)| s.heading.as_ref().map(|h| h.len()))
            .sum();
        if required_len > line_budget {
            return plain_prefix(body, budget, out);
        }
        let mut room = line_budget - required_len;
        sections
            .iter()
            .zip(&required)
            .map(|(s, &r)| match &s.heading {
                None => true,
                Some(_) if r => true,
                Some(h) if h.len() <= room => {
                    room -= h.len();
                    true
                }
                Some(_) => false,
            })
            .collect()
    };
    let headings_len: usize = sections
        .iter()
        .zip(&section_kept)
        .filter(|(_, k)| **k)
        .filter_map(|(s, _)| s.heading.as_ref().map(|h| h.len()))
        .sum();
    let mut room = line_budget - headings_len;

    // Which content lines stay: lines holding a protected identifier first,
    // then each section's first lines, sharing the room fairly.
    let mut kept: Vec<Kept> = sections.iter().map(|s| Kept::new(&s.content)).collect();
    let protected: Vec<&Vec<u16>> = protected.iter().filter(|id| !id.is_empty()).collect();
    if !protected.is_empty() {
        for (s, section) in sections.iter().enumerate() {
            if !section_kept[s] {
                continue;
            }
            let mut start = section.content.start;
            while start < section.content.end {
                let end = line_end(body, start, section.content.end);
                let text = &body[start..end];
                if protected.iter().any(|id| utf16::contains(text, id)) && text.len() <= room {
                    kept[s].protected.push(start..end);
                    room -= text.len();
                }
                start = end;
            }
        }
    }
    room = share_first_lines(body, &sections, &section_kept, &mut kept, room);
    // Round two: what fair shares left unused goes to the next whole lines.
    for (s, section) in sections.iter().enumerate() {
        if section_kept[s] {
            room -= kept[s].fill(body, &section.content, room);
        }
    }

    let start = out.len();
    let mut partial_room = room;
    for (s, section) in sections.iter().enumerate() {
        if !section_kept[s] {
            continue;
        }
        let kept = &kept[s];
        // The heading and the lines before the cursor are one run of the body.
        let run_start = section
            .heading
            .as_ref()
            .map_or(section.content.start, |h| h.start);
        push_lines(out, &body[run_start..kept.cursor]);
        for line in &kept.protected[kept.protected_passed..] {
            push_lines(out, &body[line.clone()]);
        }
        // A section that could keep no whole line keeps the start of its
        // first non-blank line, cut at a word end; where no word end fits,
        // nothing of it (a word cut in two reads as another word).
        if !kept.any(&section.content) && partial_room > 8 {
            if let Some(first) = first_non_blank_line(body, &section.content) {
                let text = utf16::trim_line_end(first);
                let piece = boundary_prefix(text, partial_room - 1);
                if !piece.is_empty() {
                    push_lines(out, piece);
                    partial_room -= piece.len() + 1;
                }
            }
        }
    }
    while out.len() > start && (out.last() == Some(&LF) || out.last() == Some(&(b'\r' as u16))) {
        out.pop();
    }
    if out.len() == start {
        // Nothing kept: the marker line alone, without its blank line.
        out.extend_from_slice(&marker[2..]);
        return;
    }
    out.extend_from_slice(marker);
    debug_assert!(out.len() - start <= budget);
}

/// Appends whole lines, making sure they end with a line feed.
fn push_lines(out: &mut Vec<u16>, lines: &[u16]) {
    out.extend_from_slice(lines);
    if lines.last().is_some_and(|&last| last != LF) {
        out.push(LF);
    }
}

fn first_non_blank_line<'a>(body: &'a [u16], content: &Range<usize>) -> Option<&'a [u16]> {
    let mut start = content.start;
    while start < content.end {
        let end = line_end(body, start, content.end);
        if !trim(&body[start..end]).is_empty() {
            return Some(&body[start..end]);
        }
        start = end;
    }
    None
}

/// Water-filling: every kept section gets an equal share of `room` for its
/// first lines; a section needing less than its share gives the rest to the
/// others. Returns the room left.
fn share_first_lines(
    body: &[u16],
    sections: &[Section],
    section_kept: &[bool],
    kept: &mut [Kept],
    mut room: usize,
) -> usize {
    let mut wants: Vec<(usize, usize)> = sections
        .iter()
        .enumerate()
        .filter(|(s, _)| section_kept[*s])
        .map(|(s, section)| {
            let protected: usize = kept[s].protected.iter().map(|line| line.len()).sum();
            (s, section.content.len() - protected)
        })
        .filter(|(_, want)| *want > 0)
        .collect();
    wants.sort_by_key(|&(s, want)| (want, s));
    let mut remaining = wants.len();
    for (s, want) in wants {
        let share = room / remaining.max(1);
        remaining -= 1;
        room -= kept[s].fill(body, &sections[s].content, want.min(share));
    }
    room
}

/// When even the headings cannot fit: a prefix and the marker, as OpenClaw
/// does, but cut at a line or word boundary. When the marker cannot fit
/// either, that prefix alone; when no text fits beside the marker, the
/// marker line alone, without its blank line.
fn plain_prefix(body: &[u16], budget: usize, out: &mut Vec<u16>) {
    let marker_line = &SUMMARY_MARKER_UNITS[2..];
    if budget < marker_line.len() {
        out.extend_from_slice(boundary_prefix(body, budget));
        return;
    }
    let text_room = budget.saturating_sub(SUMMARY_MARKER_UNITS.len());
    let text = boundary_prefix(body, text_room);
    if text.is_empty() {
        out.extend_from_slice(marker_line);
        return;
    }
    out.extend_from_slice(text);
    out.extend_from_slice(&SUMMARY_MARKER_UNITS);
}

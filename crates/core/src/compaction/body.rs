//! Capping the structured summary body: every heading stays, the text under
//! each heading shrinks to its first lines.

use std::ops::Range;

use super::prefix::{boundary_prefix, is_heading, NoBoundary};
use super::SUMMARY_MARKER_UNITS;
use crate::utf16::{self, line_ranges, trim, LF};

/// One section of the body: an optional heading line and the lines under it.
struct Section {
    heading: Option<Range<usize>>,
    lines: Vec<Range<usize>>,
}

fn split_sections(body: &[u16]) -> Vec<Section> {
    let mut sections = vec![Section {
        heading: None,
        lines: Vec::new(),
    }];
    for line in line_ranges(body) {
        if is_heading(&body[line.clone()]) {
            sections.push(Section {
                heading: Some(line),
                lines: Vec::new(),
            });
        } else if let Some(section) = sections.last_mut() {
            section.lines.push(line);
        }
    }
    sections
}

/// Caps `body` (longer than `budget`) to at most `budget` units.
pub fn cap_body(
    body: &[u16],
    budget: usize,
    required_headings: &[Vec<u16>],
    protected: &[Vec<u16>],
) -> Vec<u16> {
    let marker = &SUMMARY_MARKER_UNITS;
    let sections = split_sections(body);
    let headings: Vec<Range<usize>> = sections.iter().filter_map(|s| s.heading.clone()).collect();
    // The budget for the kept lines: the marker and a possible line feed
    // after the last kept line are reserved.
    let Some(line_budget) = budget.checked_sub(marker.len() + 1) else {
        return plain_prefix(body, budget);
    };
    let all_headings: usize = headings.iter().map(|h| h.len()).sum();
    let keep_heading: Vec<bool> = if all_headings <= line_budget {
        vec![true; headings.len()]
    } else {
        // Not all headings fit: the required ones first, then the others
        // in order while they fit.
        let required: Vec<bool> = headings
            .iter()
            .map(|h| {
                required_headings
                    .iter()
                    .any(|r| trim(&body[h.clone()]) == trim(r))
            })
            .collect();
        let required_len: usize = headings
            .iter()
            .zip(&required)
            .filter(|(_, r)| **r)
            .map(|(h, _)| h.len())
            .sum();
        if required_len > line_budget {
            return plain_prefix(body, budget);
        }
        let mut room = line_budget - required_len;
        headings
            .iter()
            .zip(&required)
            .map(|(h, &r)| {
                if r {
                    return true;
                }
                if h.len() <= room {
                    room -= h.len();
                    return true;
                }
                false
            })
            .collect()
    };
    let headings_len: usize = headings
        .iter()
        .zip(&keep_heading)
        .filter(|(_, k)| **k)
        .map(|(h, _)| h.len())
        .sum();
    let mut room = line_budget - headings_len;

    // Which content lines stay: lines holding a protected identifier first,
    // then each section's first lines, sharing the room fairly.
    let mut keep: Vec<Vec<bool>> = sections
        .iter()
        .map(|s| vec![false; s.lines.len()])
        .collect();
    let mut heading_index = 0;
    let mut section_kept: Vec<bool> = Vec::with_capacity(sections.len());
    for section in &sections {
        let kept = match section.heading {
            Some(_) => {
                let k = keep_heading[heading_index];
                heading_index += 1;
                k
            }
            None => true,
        };
        section_kept.push(kept);
    }
    for (s, section) in sections.iter().enumerate() {
        if !section_kept[s] {
            continue;
        }
        for (l, line) in section.lines.iter().enumerate() {
            let text = &body[line.clone()];
            if protected
                .iter()
                .any(|id| !id.is_empty() && utf16::contains(text, id))
                && line.len() <= room
            {
                keep[s][l] = true;
                room -= line.len();
            }
        }
    }
    room = share_first_lines(&sections, &section_kept, &mut keep, room);
    // Round two: what fair shares left unused goes to the next whole lines.
    for (s, section) in sections.iter().enumerate() {
        if !section_kept[s] {
            continue;
        }
        for (l, line) in section.lines.iter().enumerate() {
            if keep[s][l] {
                continue;
            }
            if line.len() <= room {
                keep[s][l] = true;
                room -= line.len();
            } else {
                break;
            }
        }
    }

    let mut out = Vec::with_capacity(budget);
    let mut partial_room = room;
    for (s, section) in sections.iter().enumerate() {
        if !section_kept[s] {
            continue;
        }
        if let Some(heading) = &section.heading {
            push_line(&mut out, &body[heading.clone()]);
        }
        let kept_any = keep[s].iter().any(|k| *k);
        for (l, line) in section.lines.iter().enumerate() {
            if keep[s][l] {
                push_line(&mut out, &body[line.clone()]);
            }
        }
        // A section that could keep no whole line keeps the start of its
        // first non-blank line, cut at a word end (else a grapheme boundary).
        if !kept_any && partial_room > 8 {
            if let Some(first) = section
                .lines
                .iter()
                .find(|l| !trim(&body[(*l).clone()]).is_empty())
            {
                let text = utf16::trim_line_end(&body[first.clone()]);
                let piece = boundary_prefix(text, partial_room - 1, NoBoundary::CutAtGrapheme);
                if !piece.is_empty() {
                    push_line(&mut out, piece);
                    partial_room -= piece.len() + 1;
                }
            }
        }
    }
    while out.last() == Some(&LF) || out.last() == Some(&(b'\r' as u16)) {
        out.pop();
    }
    if out.is_empty() {
        // Nothing kept: the marker line alone, without its blank line.
        out.extend_from_slice(&marker[2..]);
        return out;
    }
    out.extend_from_slice(marker);
    debug_assert!(out.len() <= budget);
    out
}

/// Appends a line, making sure it ends with a line feed.
fn push_line(out: &mut Vec<u16>, line: &[u16]) {
    out.extend_from_slice(line);
    if line.last() != Some(&LF) {
        out.push(LF);
    }
}

/// Water-filling: every kept section gets an equal share of `room` for its
/// first lines; a section needing less than its share gives the rest to the
/// others. Returns the room left.
fn share_first_lines(
    sections: &[Section],
    section_kept: &[bool],
    keep: &mut [Vec<bool>],
    mut room: usize,
) -> usize {
    let mut wants: Vec<(usize, usize)> = sections
        .iter()
        .enumerate()
        .filter(|(s, _)| section_kept[*s])
        .map(|(s, section)| {
            let unkept: usize = section
                .lines
                .iter()
                .zip(&keep[s])
                .filter(|(_, k)| !**k)
                .map(|(l, _)| l.len())
                .sum();
            (s, unkept)
        })
        .filter(|(_, want)| *want > 0)
        .collect();
    wants.sort_by_key(|&(s, want)| (want, s));
    let mut remaining = wants.len();
    for (s, want) in wants {
        let share = room / remaining.max(1);
        remaining -= 1;
        let allowance = want.min(share);
        let mut used = 0;
        for (l, line) in sections[s].lines.iter().enumerate() {
            if keep[s][l] {
                continue;
            }
            if used + line.len() > allowance {
                break;
            }
            keep[s][l] = true;
            used += line.len();
        }
        room -= used;
    }
    room
}

/// When even the headings cannot fit: a prefix and the marker, as OpenClaw
/// does, but cut at a line or word boundary. When the marker cannot fit
/// either, whole pieces alone (they cannot say that text is missing, so no
/// fragment may pass for one); when no text fits beside the marker, the
/// marker line alone, without its blank line.
fn plain_prefix(body: &[u16], budget: usize) -> Vec<u16> {
    let marker_line = &SUMMARY_MARKER_UNITS[2..];
    if budget < marker_line.len() {
        return boundary_prefix(body, budget, NoBoundary::KeepNothing).to_vec();
    }
    let text_room = budget.saturating_sub(SUMMARY_MARKER_UNITS.len());
    let text = boundary_prefix(body, text_room, NoBoundary::CutAtGrapheme);
    if text.is_empty() {
        return marker_line.to_vec();
    }
    let mut out = Vec::with_capacity(text.len() + SUMMARY_MARKER_UNITS.len());
    out.extend_from_slice(text);
    out.extend_from_slice(&SUMMARY_MARKER_UNITS);
    out
}

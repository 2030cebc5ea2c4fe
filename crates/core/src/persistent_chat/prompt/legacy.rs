//! The legacy transcript strip: an old-format continuity summary carried a
//! run of log entries (`Recent log excerpt:`); that block is removed before
//! the summary is used, since the excerpt injects the entries once.

use super::separators::is_line_break;
use crate::persistent_chat::summary;
use crate::persistent_chat::text::{starts_with_ascii_ignore_case, trim_end_lines};
use crate::utf16;

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

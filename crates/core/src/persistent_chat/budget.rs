//! Fitting a sectioned text (a header line, then item lines) into a budget
//! of UTF-16 units: each section gets a fair share, keeps its first items
//! whole and says how many it left out. Used by the continuity summary and,
//! on the summary text, by the prompt builder.

use super::text::{cut_with_ellipsis, join_with_blank_lines};
use crate::utf16;

/// An item cut to fit keeps at least this many units, or is left out
/// (a stub like `- Deci…` tells a model nothing).
const MIN_CUT_ITEM: usize = 24;

/// A section of the continuity summary: a header line over item lines.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ListSection {
    pub header: Vec<u16>,
    /// Whole lines, without line terminators.
    pub items: Vec<Vec<u16>>,
}

impl ListSection {
    fn full_len(&self) -> usize {
        self.header.len() + self.items.iter().map(|item| 1 + item.len()).sum::<usize>()
    }

    fn render(&self) -> Vec<u16> {
        render_lines(&self.header, &self.items)
    }
}

/// Sections fitted into a budget.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FittedText {
    pub text: Vec<u16>,
    /// True when anything was left out or cut.
    pub trimmed: bool,
}

/// The count line left where `count` items were left out: `- … (3 more)`.
pub(crate) fn more_line(count: usize) -> Vec<u16> {
    format!("- \u{2026} ({count} more)")
        .encode_utf16()
        .collect()
}

/// `more_line(count).len()`, without building it (asked for every item).
fn more_line_len(count: usize) -> usize {
    let digits = count.checked_ilog10().map_or(1, |log| log as usize + 1);
    "- \u{2026} (".encode_utf16().count() + digits + " more)".len()
}

/// The sections, separated by one blank line, in at most `max` units.
///
/// Sections share the budget fairly (a section needing less than an equal
/// share gives the rest to the others); within its share a section keeps
/// its header and first items, may cut the next item at a grapheme boundary
/// and ends with a [`more_line`]. When a section cannot show its header and
/// its items or their count, the last section is dropped and the budget
/// shared again: the first section goes last. Deterministic.
pub(crate) fn fit_sections(sections: &[ListSection], max: usize) -> FittedText {
    let full = join_with_blank_lines(sections.iter().map(ListSection::render).collect());
    if full.len() <= max {
        return FittedText {
            text: full,
            trimmed: false,
        };
    }
    let mut active: Vec<&ListSection> = sections.iter().collect();
    while !active.is_empty() {
        let separators = 2 * (active.len() - 1);
        let needs: Vec<usize> = active.iter().map(|section| section.full_len()).collect();
        let shares = water_fill(&needs, max.saturating_sub(separators));
        let fitted: Vec<Option<Vec<u16>>> = active
            .iter()
            .zip(&shares)
            .map(|(section, &share)| fit_section(section, share))
            .collect();
        match fitted.iter().position(Option::is_none) {
            // Sections come in priority order: when any cannot fit, the
            // last one goes and its share is shared again, so the first
            // section (the current thread) is the last to go.
            Some(_) if active.len() > 1 => {
                active.pop();
            }
            Some(_) => {
                return FittedText {
                    text: hard_cap(&active[0].render(), max),
                    trimmed: true,
                };
            }
            None => {
                let text = join_with_blank_lines(fitted.into_iter().flatten().collect());
                return FittedText {
                    text: hard_cap(&text, max),
                    trimmed: true,
                };
            }
        }
    }
    FittedText {
        text: hard_cap(&full, max),
        trimmed: true,
    }
}

/// Shares of `available` for sections needing `needs`: equal shares, each
/// capped at its need, the surplus going to the sections needing more.
fn water_fill(needs: &[usize], available: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..needs.len()).collect();
    order.sort_by_key(|&index| (needs[index], index));
    let mut shares = vec![0; needs.len()];
    let mut remaining = available;
    for (done, &index) in order.iter().enumerate() {
        let fair = remaining / (needs.len() - done);
        shares[index] = needs[index].min(fair);
        remaining -= shares[index];
    }
    shares
}

/// The section in at most `share` units, or `None` when its header and its
/// items (or, for those left out, their count) do not fit.
fn fit_section(section: &ListSection, share: usize) -> Option<Vec<u16>> {
    if section.header.len() > share {
        return None;
    }
    let total = section.items.len();
    let mut kept: Vec<Vec<u16>> = Vec::new();
    let mut used = section.header.len();
    for (index, item) in section.items.iter().enumerate() {
        let after = total - index - 1;
        let reserve = if after > 0 {
            1 + more_line_len(after)
        } else {
            0
        };
        if used + 1 + item.len() + reserve <= share {
            used += 1 + item.len();
            kept.push(item.clone());
            continue;
        }
        let room = share.saturating_sub(used + 1 + reserve);
        if room >= MIN_CUT_ITEM {
            let cut = cut_with_ellipsis(item, room);
            used += 1 + cut.len();
            kept.push(cut);
        }
        break;
    }
    let mut left_out = total - kept.len();
    while left_out > 0 && used + 1 + more_line_len(left_out) > share {
        let Some(line) = kept.pop() else { break };
        used -= 1 + line.len();
        left_out += 1;
    }
    if left_out > 0 {
        // Items left out must be counted: a section that cannot show at
        // least its count line does not fit.
        if used + 1 + more_line_len(left_out) > share {
            return None;
        }
        kept.push(more_line(left_out));
    }
    Some(render_lines(&section.header, &kept))
}

fn render_lines(header: &[u16], items: &[Vec<u16>]) -> Vec<u16> {
    let mut out = header.to_vec();
    for item in items {
        out.push(utf16::LF);
        out.extend_from_slice(item);
    }
    out
}

/// `text` in at most `max` units: whole lines when any fit, else a
/// grapheme-safe prefix of the first line.
pub(crate) fn hard_cap(text: &[u16], max: usize) -> Vec<u16> {
    if text.len() <= max {
        return text.to_vec();
    }
    let last_line_end = utf16::rfind_lf(text, max + 1).filter(|&end| end > 0);
    match last_line_end {
        Some(end) => utf16::trim_line_end(&text[..end]).to_vec(),
        None => utf16::grapheme_prefix(text, max).to_vec(),
    }
}

/// Splits text into sections at blank lines; each section's first line is
/// its header. Line contents are kept exactly (a CR before LF included).
pub(crate) fn parse_sections(text: &[u16]) -> Vec<ListSection> {
    let mut sections = Vec::new();
    let mut current: Option<ListSection> = None;
    for range in utf16::line_ranges(text) {
        let line = &text[range];
        let line = line.strip_suffix(&[utf16::LF]).unwrap_or(line);
        if utf16::trim(line).is_empty() {
            sections.extend(current.take());
            continue;
        }
        match current.as_mut() {
            Some(section) => section.items.push(line.to_vec()),
            None => {
                current = Some(ListSection {
                    header: line.to_vec(),
                    items: Vec::new(),
                })
            }
        }
    }
    sections.extend(current);
    sections
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_line_len_is_the_count_lines_length() {
        for count in [0, 1, 9, 10, 99, 100, 12_345, usize::MAX] {
            assert_eq!(more_line_len(count), more_line(count).len(), "{count}");
        }
    }
    use crate::utf16::encode as u;

    fn section(header: &str, items: &[&str]) -> ListSection {
        ListSection {
            header: u(header),
            items: items.iter().map(|item| u(item)).collect(),
        }
    }

    fn text(fitted: &FittedText) -> String {
        String::from_utf16(&fitted.text).unwrap()
    }

    #[test]
    fn fitting_text_is_unchanged() {
        let sections = [section("A:", &["- a", "- b"]), section("B:", &["- c"])];
        let fitted = fit_sections(&sections, 100);
        assert_eq!(text(&fitted), "A:\n- a\n- b\n\nB:\n- c");
        assert!(!fitted.trimmed);
        assert!(fit_sections(&sections, 17).text.len() <= 17);
    }

    #[test]
    fn sections_share_fairly_and_count_what_they_leave_out() {
        let items: Vec<String> = (0..50)
            .map(|n| format!("- decision number {n:02}"))
            .collect();
        let refs: Vec<&str> = items.iter().map(String::as_str).collect();
        let sections = [
            section("Short:", &["- x"]),
            section("Long:", &refs),
            section("Long2:", &refs),
        ];
        let fitted = fit_sections(&sections, 400);
        let out = text(&fitted);
        assert!(fitted.trimmed);
        assert!(fitted.text.len() <= 400);
        assert!(
            out.starts_with("Short:\n- x\n\nLong:\n- decision number 00\n"),
            "{out}"
        );
        assert!(
            out.contains("more)\n\nLong2:\n- decision number 00"),
            "{out}"
        );
        let long = out.split("\n\n").nth(1).unwrap();
        let kept = long.lines().filter(|l| l.starts_with("- decision")).count();
        assert!(
            long.ends_with(&format!("- \u{2026} ({} more)", 50 - kept)),
            "{long}"
        );
    }

    #[test]
    fn a_long_item_is_cut_at_a_grapheme_boundary() {
        let long = format!("- {}", "👨\u{200D}👩\u{200D}👧".repeat(40));
        let sections = [section("H:", &[&long, "- next"])];
        let fitted = fit_sections(&sections, 60);
        let out = String::from_utf16(&fitted.text).unwrap();
        assert!(fitted.text.len() <= 60);
        assert!(out.contains('\u{2026}'));
        assert!(out.ends_with("- \u{2026} (1 more)"), "{out}");
    }

    #[test]
    fn tiny_budgets_never_overflow() {
        let sections = [
            section("Current thread / pending next action:", &["- a"]),
            section("B:", &["- b"]),
        ];
        for max in 0..60 {
            let fitted = fit_sections(&sections, max);
            assert!(fitted.text.len() <= max, "max {max}");
            assert!(String::from_utf16(&fitted.text).is_ok());
        }
    }

    #[test]
    fn deterministic() {
        let items: Vec<String> = (0..30).map(|n| format!("- item {n}")).collect();
        let refs: Vec<&str> = items.iter().map(String::as_str).collect();
        let sections = [section("A:", &refs), section("B:", &refs)];
        assert_eq!(fit_sections(&sections, 150), fit_sections(&sections, 150));
    }

    #[test]
    fn parse_sections_splits_at_blank_lines_keeping_cr() {
        let parsed = parse_sections(&u("A:\r\n- a\r\n\r\nB:\n- b\n  \nC:"));
        assert_eq!(
            parsed,
            [
                section("A:\r", &["- a\r"]),
                section("B:", &["- b"]),
                section("C:", &[])
            ]
        );
    }

    #[test]
    fn hard_cap_prefers_line_ends() {
        assert_eq!(hard_cap(&u("abc\ndef\nghi"), 9), u("abc\ndef"));
        assert_eq!(hard_cap(&u("abcdef"), 4), u("abcd"));
        assert_eq!(hard_cap(&u("a😀"), 2), u("a"));
    }
}

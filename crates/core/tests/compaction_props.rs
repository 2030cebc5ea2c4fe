//! Property tests of the fixed cap (`cap_preserving_suffix`) on OpenClaw-
//! shaped bodies and suffixes, at the smallest budgets (1–200) and at
//! ordinary ones: SPEC's invariants, each checked from the output alone.

use openclaw_context_core::compaction::{
    cap_preserving_suffix, CapOptions, CapReport, REQUIRED_SUMMARY_SECTIONS,
    SUFFIX_TRUNCATED_MARKER, SUMMARY_TRUNCATED_MARKER,
};
use openclaw_context_core::utf16::{is_js_whitespace, trim, trim_end};
use proptest::prelude::*;
use unicode_segmentation::UnicodeSegmentation;

const LF: u16 = b'\n' as u16;
const CR: u16 = b'\r' as u16;
const RULES_OPEN: &str = "<workspace-critical-rules>";
const RULES_CLOSE: &str = "</workspace-critical-rules>";

/// Words with the characters that make cuts hard; no `[`, so that any `[`
/// in an output starts a marker.
fn phrase(max_words: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop::sample::select(vec![
            "deploy",
            "the",
            "gateway",
            "restart",
            "https://ci.example.com/b/42?x=1",
            "/srv/app",
            "ses_9f8e7d6c",
            "😀",
            "👨\u{200D}👩\u{200D}👧",
            "🇯🇵",
            "e\u{301}",
            "漢字テスト",
            "-",
            "42",
            "#1187",
            "<b>",
            "a*b",
            "**",
            "</x>",
            "{\"k\":1}",
            "\u{A0}",
            "\u{3000}",
            "naïve",
        ]),
        1..=max_words,
    )
    .prop_map(|words| words.join(" "))
}

fn heading() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(REQUIRED_SUMMARY_SECTIONS.to_vec()).prop_map(String::from),
        1 => phrase(4).prop_map(|p| format!("### {p}")),
        1 => Just(" ## Decisions".to_owned()),
    ]
}

/// A structured body: maybe a preamble, then sections of bullets.
fn body() -> impl Strategy<Value = String> {
    (
        proptest::option::of(phrase(12)),
        proptest::collection::vec(
            (heading(), proptest::collection::vec(phrase(17), 0..8)),
            0..7,
        ),
        prop::bool::weighted(0.15),
    )
        .prop_map(|(preamble, sections, crlf)| {
            let mut lines = Vec::new();
            if let Some(preamble) = preamble {
                lines.push(preamble);
                lines.push(String::new());
            }
            for (heading, bullets) in sections {
                lines.push(heading);
                lines.extend(bullets.into_iter().map(|b| format!("- {b}")));
            }
            lines.join(if crlf { "\r\n" } else { "\n" })
        })
}

/// A suffix in the layout of OpenClaw's `assembleSuffix`.
fn suffix() -> impl Strategy<Value = String> {
    let item = (
        prop::sample::select(vec!["User", "Assistant", "Tool result (exec)"]),
        proptest::collection::vec(phrase(10), 1..3),
    )
        .prop_map(|(role, parts)| format!("- {role}: {}", parts.join("\n")));
    (
        prop::bool::weighted(0.2),
        proptest::collection::vec(item, 0..6),
        proptest::collection::vec(phrase(8), 0..3),
        prop::bool::weighted(0.5),
        proptest::option::weighted(0.6, proptest::collection::vec(phrase(8), 0..4)),
        prop::sample::select(vec!["\n\n", "\n\n", "\n\n", "\n", ""]),
    )
        .prop_map(|(split, turns, failures, files, rules, lead)| {
            let mut sections = Vec::new();
            if split {
                sections.push("**Turn Context (split turn):**\n\n- User: split prefix".to_owned());
            }
            if !turns.is_empty() {
                sections.push(format!(
                    "## Recent turns preserved verbatim\n{}",
                    turns.join("\n")
                ));
            }
            if !failures.is_empty() {
                let lines: Vec<String> = failures
                    .iter()
                    .map(|f| format!("- exec (status=failed): {f}"))
                    .collect();
                sections.push(format!("## Tool Failures\n{}", lines.join("\n")));
            }
            if files {
                sections.push("<read-files>\nREADME.md\n\n</read-files>".to_owned());
            }
            if let Some(rules) = rules {
                let lines: Vec<String> = rules.iter().map(|r| format!("- {r}")).collect();
                sections.push(format!(
                    "{RULES_OPEN}\n## Red Lines\n{}\n{RULES_CLOSE}",
                    lines.join("\n")
                ));
            }
            if sections.is_empty() {
                return String::new();
            }
            format!("{lead}{}", sections.join("\n\n"))
        })
}

fn u(text: &str) -> Vec<u16> {
    text.encode_utf16().collect()
}

fn find(haystack: &[u16], needle: &[u16]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn contains(haystack: &[u16], needle: &[u16]) -> bool {
    find(haystack, needle).is_some()
}

/// Lines split on LF, each without its CR.
fn lines(text: &[u16]) -> Vec<&[u16]> {
    text.split(|&unit| unit == LF)
        .map(|line| line.strip_suffix(&[CR]).unwrap_or(line))
        .collect()
}

/// Whether `q` (<= limit) ends a whole line's text or a word that may end a
/// cut (SPEC: a line or word boundary), written plainly: white space or the
/// end follows, and either the rest of the line is blank, or the line is
/// not a heading and holds a letter (not just `-`, digits, punctuation)
/// before `q`.
fn is_boundary(text: &[u16], q: usize) -> bool {
    if q == 0 || is_js_whitespace(text[q - 1]) || (q < text.len() && !is_js_whitespace(text[q])) {
        return false;
    }
    let line_start = text[..q]
        .iter()
        .rposition(|&c| c == LF)
        .map_or(0, |lf| lf + 1);
    let line_end = text[q..]
        .iter()
        .position(|&c| c == LF)
        .map_or(text.len(), |at| q + at);
    if text[q..line_end].iter().all(|&c| is_js_whitespace(c)) {
        return true;
    }
    let line = &text[line_start..line_end];
    trim(line).first() != Some(&u16::from(b'#'))
        && text[line_start..q].iter().any(|&c| match u8::try_from(c) {
            Ok(b) if b.is_ascii() => b.is_ascii_alphabetic(),
            _ => !is_js_whitespace(c),
        })
}

fn best_boundary(text: &[u16], limit: usize) -> usize {
    (1..=limit.min(text.len()))
        .rev()
        .find(|&q| is_boundary(text, q))
        .unwrap_or(0)
}

/// Grapheme boundaries of `text` in UTF-16 units, ends included.
fn grapheme_boundaries(text: &[u16]) -> Vec<usize> {
    let text = String::from_utf16(text).expect("valid UTF-16");
    let mut units = 0;
    let mut out = vec![0];
    for grapheme in text.graphemes(true) {
        units += grapheme.encode_utf16().count();
        out.push(units);
    }
    out
}

/// Every line of `out` is a whole line of the input, a marker line, or a
/// piece of an input line cut at grapheme boundaries.
fn no_split_graphemes(out: &[u16], inputs: &[&[u16]]) -> Result<(), TestCaseError> {
    let input_lines: Vec<&[u16]> = inputs.iter().flat_map(|text| lines(text)).collect();
    for line in lines(out) {
        if line.is_empty()
            || input_lines
                .iter()
                .any(|input| *input == line || trim_end(input) == line)
        {
            continue;
        }
        let whole_graphemes = input_lines.iter().any(|input| {
            let bounds = grapheme_boundaries(input);
            (input.starts_with(line) && bounds.contains(&line.len()))
                || (input.ends_with(line) && bounds.contains(&(input.len() - line.len())))
        });
        prop_assert!(
            whole_graphemes
                || line == u(&SUMMARY_TRUNCATED_MARKER[2..]).as_slice()
                || line == u(SUFFIX_TRUNCATED_MARKER).as_slice(),
            "line {:?} is no piece of an input line cut at grapheme boundaries",
            String::from_utf16_lossy(line)
        );
    }
    Ok(())
}

/// The body's heading lines, each with the units it takes in the output
/// (its text, line end included; a last line gets a line feed).
fn heading_lines(body: &[u16]) -> Vec<(&[u16], usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < body.len() {
        let end = body[start..]
            .iter()
            .position(|&c| c == LF)
            .map_or(body.len(), |at| start + at + 1);
        let line = &body[start..end];
        if trim(line).first() == Some(&u16::from(b'#')) {
            let text = line.strip_suffix(&[LF]).unwrap_or(line);
            let text = text.strip_suffix(&[CR]).unwrap_or(text);
            out.push((text, line.len() + usize::from(line.last() != Some(&LF))));
        }
        start = end;
    }
    out
}

/// SPEC's invariants of one capped result.
fn check(body: &str, suffix: &str, max: usize) -> Result<(), TestCaseError> {
    let (body, suffix) = (u(body), u(suffix));
    prop_assume!(!suffix.is_empty() && body.len() + suffix.len() > max);
    let report = cap_preserving_suffix(&body, &suffix, max as f64, &CapOptions::default());
    let CapReport {
        summary: out,
        body_len,
        ..
    } = &report;
    let (out_body, out_suffix) = out.split_at(*body_len);

    // Length, the body floor, and valid UTF-16 (the inputs are).
    prop_assert!(out.len() <= max, "{} > {max}", out.len());
    prop_assert!(report.body_budget >= body.len().min(max.div_ceil(2)));
    prop_assert!(String::from_utf16(out).is_ok(), "a lone surrogate");
    no_split_graphemes(out, &[&body, &suffix])?;

    // Markers: whole, each once at most (no input holds a `[`).
    let markers = [
        u(&SUMMARY_TRUNCATED_MARKER[2..]),
        u(SUFFIX_TRUNCATED_MARKER),
    ];
    for (at, _) in out
        .iter()
        .enumerate()
        .filter(|(_, &c)| c == u16::from(b'['))
    {
        prop_assert!(
            markers.iter().any(|m| out[at..].starts_with(m)),
            "a partial marker"
        );
    }
    for marker in &markers {
        prop_assert!(out.windows(marker.len()).filter(|w| w == marker).count() <= 1);
    }
    let body_marker = &markers[0];
    let suffix_marker = &markers[1];
    prop_assert!(!contains(out_suffix, body_marker) && !contains(out_body, suffix_marker));

    // What the body's text had: its budget, less the line feed that keeps a
    // cut body off the line of a suffix that starts without a line break.
    let suffix_starts_a_line = matches!(suffix.first(), Some(&LF) | Some(&CR));
    let separator =
        usize::from(report.body_trimmed && !report.suffix_trimmed && !suffix_starts_a_line);
    let text_budget = report.body_budget - separator;

    // The body: whole when it fits; else cut at a boundary.
    if !report.body_trimmed {
        prop_assert_eq!(out_body, body.as_slice());
    } else if out_body.ends_with(body_marker) {
        // The marker line alone, or kept text, a blank line and the marker.
        let before = &out_body[..out_body.len() - body_marker.len()];
        let text = match before.strip_suffix(&[LF, LF]) {
            Some(text) => {
                prop_assert!(!text.is_empty(), "a blank line before the marker alone");
                text
            }
            None => {
                prop_assert!(before.is_empty(), "text and the marker on one line");
                before
            }
        };
        for line in lines(text) {
            // A whole line may lose its trailing blanks.
            if line.is_empty()
                || lines(&body)
                    .iter()
                    .any(|l| *l == line || trim_end(l) == line)
            {
                continue;
            }
            let cut_of = lines(&body)
                .into_iter()
                .find(|l| l.starts_with(line) && *l != line);
            let full = cut_of.expect("a kept line is a body line or the start of one");
            prop_assert!(
                trim(full).first() != Some(&u16::from(b'#')),
                "a heading cut"
            );
            let at_word_end = is_js_whitespace(full[line.len()]);
            prop_assert!(
                at_word_end || best_boundary(full, line.len()) == 0,
                "not cut at a word end"
            );
        }
    } else {
        // Too small a budget for the marker: whole pieces only, as many as fit.
        prop_assert!(text_budget < body_marker.len());
        let expected = best_boundary(&body, text_budget);
        prop_assert_eq!(out_body, &body[..expected]);
    }

    // Every heading (every required heading) stays when they fit with the marker.
    let headings = heading_lines(&body);
    let required: Vec<_> = headings
        .iter()
        .filter(|(h, _)| {
            REQUIRED_SUMMARY_SECTIONS
                .iter()
                .any(|r| trim(h) == u(r).as_slice())
        })
        .collect();
    let room = text_budget.saturating_sub(SUMMARY_TRUNCATED_MARKER.len() + 1);
    let kept_lines = lines(out_body);
    if headings.iter().map(|(_, n)| n).sum::<usize>() <= room {
        for (h, _) in &headings {
            prop_assert!(
                kept_lines.contains(h),
                "heading {:?} lost",
                String::from_utf16_lossy(h)
            );
        }
    }
    if required.iter().map(|(_, n)| n).sum::<usize>() <= room {
        for (h, _) in &required {
            prop_assert!(
                kept_lines.contains(h),
                "required {:?} lost",
                String::from_utf16_lossy(h)
            );
        }
    }

    // Body and suffix never share a line.
    if !out_body.is_empty()
        && !out_suffix.is_empty()
        && (report.suffix_trimmed || suffix_starts_a_line)
    {
        prop_assert!(
            matches!(out_suffix[0], LF | CR) || out_body.last() == Some(&LF),
            "body and suffix share a line"
        );
    }

    // The suffix: whole, or its tail after the marker, or whole pieces alone.
    if !report.suffix_trimmed {
        // After a line feed when a cut body would share its first line.
        let separated = report.body_trimmed && !out_body.is_empty() && !suffix_starts_a_line;
        let whole = if separated {
            &out_suffix[1..]
        } else {
            out_suffix
        };
        prop_assert_eq!(whole, suffix.as_slice());
    } else if !contains(out_suffix, suffix_marker) {
        prop_assert!(
            suffix.ends_with(out_suffix),
            "pieces without the marker are the suffix's tail"
        );
    }
    // The rules block: whole, or cut under its repeated opening tag, never a fragment.
    if let Some(opener) = find(&suffix, &u(RULES_OPEN)) {
        let block = &suffix[opener..];
        let has_close = contains(out_suffix, &u(RULES_CLOSE));
        let has_open = contains(out_suffix, &u(RULES_OPEN));
        prop_assert_eq!(has_close, has_open, "a fragment of the rules block");
        if has_open && !contains(out_suffix, suffix_marker) {
            prop_assert!(
                out_suffix.ends_with(block),
                "the rules block, not whole, without a marker"
            );
        }
        if has_open {
            prop_assert!(out_suffix.ends_with(&u(RULES_CLOSE)));
        }
        let initial_suffix_budget = max - body.len().min(max.div_ceil(2));
        let with_space = suffix.len()
            - suffix[..opener]
                .iter()
                .rposition(|&c| !is_js_whitespace(c))
                .map_or(0, |at| at + 1);
        if with_space <= initial_suffix_budget {
            prop_assert!(
                out.ends_with(block),
                "the rules block fits but was not kept whole"
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn the_smallest_budgets_keep_whole_pieces(body in body(), suffix in suffix(), max in 1usize..=200) {
        check(&body, &suffix, max)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Budgets from 1 to the whole length, most of them over 200.
    #[test]
    fn ordinary_budgets_keep_the_invariants(body in body(), suffix in suffix(), share in 0.0f64..1.0) {
        let total = (body.encode_utf16().count() + suffix.encode_utf16().count()) as f64;
        check(&body, &suffix, ((total * share) as usize).max(1))?;
    }
}

/// The case: `maxChars` 60, a suffix that ends in the rules block.
#[test]
fn maxchars_60_keeps_the_heading_and_the_marker_not_a_closing_tag() {
    let body = u("## Decisions\n- reload pending gateway restart after the deploy\n## Open TODOs\n- check the logs");
    let suffix = u("\n\n## Recent turns preserved verbatim\n- User: hi\n\n<workspace-critical-rules>\n## Red Lines\n- Never push to main.\n</workspace-critical-rules>");
    let report = cap_preserving_suffix(&body, &suffix, 60.0, &CapOptions::default());
    assert_eq!(
        String::from_utf16_lossy(&report.summary),
        "## Decisions\n\n[Compaction summary truncated to fit budget]"
    );
    let report = cap_preserving_suffix(&body, &suffix, 40.0, &CapOptions::default());
    assert_eq!(
        String::from_utf16_lossy(&report.summary),
        "## Decisions\n- reload pending gateway"
    );
}

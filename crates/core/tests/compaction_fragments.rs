//! No fragment lines at the smallest budgets: on structured bodies with long
//! bullet lines and tool-heavy suffixes, at every `maxChars` from 1 to 400,
//! each line of the capped result is empty, a marker line, a whole input
//! line (its trailing blanks may go), or an input line cut at a word
//! boundary (a prefix that ends before white space, or a tail that starts
//! after it, at a grapheme boundary, holding more than list markers, digits
//! and punctuation); and no result is longer than
//! `maxChars`. The same count as `scripts/differential/fragments.js`.

use openclaw_context_core::compaction::{
    cap_preserving_suffix, CapOptions, SUFFIX_TRUNCATED_MARKER, SUMMARY_TRUNCATED_MARKER,
};
use openclaw_context_core::utf16::{encode as u, is_js_whitespace, trim_end};
use proptest::prelude::*;
use unicode_segmentation::UnicodeSegmentation;

const LF: u16 = b'\n' as u16;
const CR: u16 = b'\r' as u16;

/// Words with long ones, ones without a word unit (`-`, `42`, `log)`), and
/// the characters that make cuts hard: ZWJ sequences, flags, combining
/// marks (also one after a space), a prepended mark before a space (U+0600
/// joins it), CJK, NUL. No `[`, so that only markers hold one.
fn words(max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop::sample::select(vec![
            "session",
            "compaction",
            "überprüfen",
            "pending",
            "webhook",
            "gateway",
            "the",
            "a",
            "https://ci.example.com/builds/8841?tab=logs",
            "/srv/openclaw/state.json",
            "ses_7f3a9c21",
            "INC-20261128-0914",
            "漢字テスト",
            "😀",
            "👨\u{200D}👩\u{200D}👧",
            "🇫🇷",
            "e\u{301}",
            "\u{301}x",
            "x\u{600}",
            "naïve",
            "-",
            "42",
            "(see",
            "log)",
            "{\"status\":200}",
            "\u{0}",
            "\u{A0}",
        ]),
        1..=max,
    )
    .prop_map(|words| words.join(" "))
}

const HEADINGS: [&str; 5] = [
    "## Decisions",
    "## Open TODOs",
    "## Constraints/Rules",
    "## Pending user asks",
    "## Exact identifiers",
];

/// The five headings (maybe a preamble, maybe CRLF), each over 0–4 bullets
/// of up to 40 words.
fn body() -> impl Strategy<Value = String> {
    (
        prop::bool::ANY,
        proptest::collection::vec(proptest::collection::vec(words(40), 0..5), 5),
        prop::bool::weighted(0.1),
    )
        .prop_map(|(preamble, sections, crlf)| {
            let mut lines = Vec::new();
            if preamble {
                lines.extend(["Session summary (compacted).".to_owned(), String::new()]);
            }
            for (heading, bullets) in HEADINGS.iter().zip(sections) {
                lines.push((*heading).to_owned());
                lines.extend(bullets.into_iter().map(|b| format!("- {b}")));
            }
            lines.join(if crlf { "\r\n" } else { "\n" })
        })
}

/// Recent turns full of tool results (some of them multi-line JSON), tool
/// failures such as `- web_fetch: failed (no output)`, file lists, and
/// maybe the rules block.
fn suffix() -> impl Strategy<Value = String> {
    let tool = prop::sample::select(vec!["web_fetch", "exec", "read", "browser"]);
    let tool_result =
        (tool.clone(), words(25), prop::bool::weighted(0.4)).prop_map(|(tool, text, json)| {
            if json {
                format!("- Tool result ({tool}): {{\n \"status\": 200,\n \"body\": \"{text}\"\n}}")
            } else {
                format!("- Tool result ({tool}): {text}")
            }
        });
    let turn = (
        words(12),
        proptest::collection::vec(tool_result, 1..6),
        words(12),
    )
        .prop_map(|(user, tools, assistant)| {
            format!(
                "- User: {user}\n{}\n- Assistant: {assistant}",
                tools.join("\n")
            )
        });
    let failure = (tool, proptest::option::of(words(10))).prop_map(|(tool, text)| match text {
        None => format!("- {tool}: failed (no output)"),
        Some(text) => format!("- {tool} (status=failed): {text}"),
    });
    (
        proptest::collection::vec(turn, 1..4),
        proptest::collection::vec(failure, 0..4),
        prop::bool::ANY,
        prop::bool::ANY,
    )
        .prop_map(|(turns, failures, files, rules)| {
            let mut out = format!("\n\n## Recent turns preserved verbatim\n{}", turns.join("\n"));
            if !failures.is_empty() {
                out.push_str(&format!("\n\n## Tool Failures\n{}", failures.join("\n")));
            }
            if files {
                out.push_str("\n\n<read-files>\nREADME.md\nsrc/lib.rs\n\n</read-files>");
            }
            if rules {
                out.push_str("\n\n<workspace-critical-rules>\n## Red Lines\n- Never push to main without review.\n</workspace-critical-rules>");
            }
            out
        })
}

/// Lines split on LF, each without its CR.
fn lines(text: &[u16]) -> Vec<&[u16]> {
    text.split(|&unit| unit == LF)
        .map(|line| line.strip_suffix(&[CR]).unwrap_or(line))
        .collect()
}

fn is_grapheme_boundary(line: &[u16], at: usize) -> bool {
    let text = String::from_utf16(line).expect("valid UTF-16");
    let mut units = 0;
    std::iter::once(0)
        .chain(text.graphemes(true).map(|g| {
            units += g.encode_utf16().count();
            units
        }))
        .any(|boundary| boundary == at)
}

/// A unit that makes a word: an ASCII letter, or a non-ASCII unit that is
/// not white space (so `-`, `42` or `)` alone is no word).
fn is_word_unit(unit: u16) -> bool {
    match u8::try_from(unit) {
        Ok(byte) if byte.is_ascii() => byte.is_ascii_alphabetic(),
        _ => !is_js_whitespace(unit),
    }
}

/// `line` is `full` cut at a word boundary: a prefix ending before white
/// space or a tail starting after it, on a grapheme boundary, holding a word.
fn cut_at_word(line: &[u16], full: &[u16]) -> bool {
    let n = line.len();
    if full.len() <= n || !line.iter().any(|&unit| is_word_unit(unit)) {
        return false;
    }
    let prefix = full.starts_with(line)
        && !is_js_whitespace(line[n - 1])
        && is_js_whitespace(full[n])
        && is_grapheme_boundary(full, n);
    let at = full.len() - n;
    let tail = full.ends_with(line)
        && !is_js_whitespace(line[0])
        && is_js_whitespace(full[at - 1])
        && is_grapheme_boundary(full, at);
    prefix || tail
}

/// The lines of `out` that are fragments of the input lines.
fn fragments(out: &[u16], inputs: &[&[u16]]) -> Vec<String> {
    let input: Vec<&[u16]> = inputs.iter().flat_map(|text| lines(text)).collect();
    let markers = [
        u(&SUMMARY_TRUNCATED_MARKER[2..]),
        u(SUFFIX_TRUNCATED_MARKER),
    ];
    lines(out)
        .into_iter()
        .filter(|line| {
            !line.is_empty()
                && !markers.iter().any(|m| m == line)
                && !input
                    .iter()
                    .any(|full| full == line || trim_end(full) == *line || cut_at_word(line, full))
        })
        .map(String::from_utf16_lossy)
        .collect()
}

fn check_all_budgets(body: &str, suffix: &str, options: &CapOptions) -> Result<(), TestCaseError> {
    let (body, suffix) = (u(body), u(suffix));
    for max in 1..=400usize {
        let out = cap_preserving_suffix(&body, &suffix, max as f64, options).summary;
        prop_assert!(out.len() <= max, "{} > {max}", out.len());
        let found = fragments(&out, &[&body, &suffix]);
        prop_assert!(
            found.is_empty(),
            "maxChars {max}: fragment lines {found:?} in {:?}",
            String::from_utf16_lossy(&out)
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn no_fragment_lines_at_maxchars_1_to_400(body in body(), suffix in suffix()) {
        check_all_budgets(&body, &suffix, &CapOptions::default())?;
    }

    /// Protected lines and one required heading change which lines stay,
    /// not how they are cut.
    #[test]
    fn no_fragment_lines_with_protected_identifiers(
        body in body(),
        suffix in suffix(),
        id in prop::sample::select(vec!["INC-20261128-0914", "ses_7f3a9c21", "überprüfen"]),
        heading in prop::sample::select(HEADINGS.to_vec()),
    ) {
        let options = CapOptions {
            required_headings: Some(vec![u(heading)]),
            protected_identifiers: vec![u(id)],
            ..CapOptions::default()
        };
        check_all_budgets(&body, &suffix, &options)?;
    }
}

/// The cases: a section's first line cut mid-word while every
/// heading is kept, and the end of `- web_fetch: failed (no output)` alone
/// after the suffix's marker.
#[test]
fn no_mid_word_body_line_and_no_suffix_fragment_after_the_marker() {
    let body = u(&[
        "## Decisions",
        "- session_7f3a9c21 stays pinned to the canary gateway until the webhook retries drain",
        "## Open TODOs",
        "- compaction of the overnight transcript",
        "## Constraints/Rules",
        "## Pending user asks",
        "## Exact identifiers",
    ]
    .join("\n"));
    let suffix = u("\n\n## Recent turns preserved verbatim\n- User: why\n- Tool result (web_fetch): {\"status\": 504}\n\n## Tool Failures\n- web_fetch: failed (no output)");
    for max in 1..=400usize {
        let out = cap_preserving_suffix(&body, &suffix, max as f64, &CapOptions::default()).summary;
        let text = String::from_utf16_lossy(&out);
        assert!(out.len() <= max);
        assert!(
            !text.contains("- sessio\n") && !text.contains("- compac\n"),
            "{max}: {text:?}"
        );
        assert!(
            !text.ends_with(&format!("{SUFFIX_TRUNCATED_MARKER}\n\nt)")),
            "{max}: {text:?}"
        );
        assert_eq!(
            fragments(&out, &[&body, &suffix]),
            Vec::<String>::new(),
            "{max}: {text:?}"
        );
    }
    // At 250 all five headings stay, and the first section's line (whose
    // first word does not fit) is dropped, not cut to `- session`; at 254
    // the next section's line is cut at a word end instead.
    let at = |max: f64| {
        String::from_utf16_lossy(
            &cap_preserving_suffix(&body, &suffix, max, &CapOptions::default()).summary,
        )
    };
    let out = at(250.0);
    assert!(
        HEADINGS.iter().all(|h| out.lines().any(|l| l == *h)),
        "{out:?}"
    );
    assert!(
        out.starts_with("## Decisions\n## Open TODOs\n## Constraints/Rules\n"),
        "{out:?}"
    );
    assert!(
        at(254.0).starts_with("## Decisions\n## Open TODOs\n- compaction\n## Constraints/Rules\n")
    );
    // At 118 the suffix's part is its marker alone (the old cap ended it with `ut)`).
    assert!(at(118.0).ends_with(SUFFIX_TRUNCATED_MARKER));
    assert!(at(150.0).ends_with(&format!("{SUFFIX_TRUNCATED_MARKER}\n\nfailed (no output)")));
}

/// The same rule on a shorter first line, exactly: at 244 the first
/// section's line (no word end of it fits) is left out, at 247 the next
/// one is cut at a word end; after the suffix's marker, nothing rather
/// than `t)`, or a line's tail from a word start.
#[test]
fn small_budgets_cut_at_word_ends_or_leave_the_line_out() {
    let body = u(&[
        "## Decisions",
        "- session_7f3a9c21 stays pinned to the canary gateway",
        "## Open TODOs",
        "- compaction of the overnight transcript",
        "## Constraints/Rules",
        "## Pending user asks",
        "## Exact identifiers",
    ]
    .join("\n"));
    let suffix = u("\n\n## Recent turns preserved verbatim\n- User: why\n\n## Tool Failures\n- web_fetch: failed (no output)");
    let at = |max: f64| {
        String::from_utf16_lossy(
            &cap_preserving_suffix(&body, &suffix, max, &CapOptions::default()).summary,
        )
    };
    let out = at(244.0);
    assert!(
        out.starts_with("## Decisions\n## Open TODOs\n## Constraints/Rules\n"),
        "{out:?}"
    );
    let out = at(247.0);
    assert!(
        out.starts_with("## Decisions\n## Open TODOs\n- compaction\n## Constraints"),
        "{out:?}"
    );
    assert_eq!(
        at(118.0),
        format!("## Decisions{SUMMARY_TRUNCATED_MARKER}\n\n{SUFFIX_TRUNCATED_MARKER}")
    );
    assert_eq!(
        at(150.0),
        format!("## Decisions{SUMMARY_TRUNCATED_MARKER}\n\n{SUFFIX_TRUNCATED_MARKER}\n\nfailed (no output)")
    );
}

//! The fixed cap and OpenClaw's plain cap, on examples: through the crate's
//! public API (the properties are in compaction_props.rs).

use openclaw_context_core::compaction::{
    cap_compaction_summary, cap_preserving_suffix, CapOptions, CapReport,
    REQUIRED_SUMMARY_SECTIONS, SUFFIX_TRUNCATED_MARKER, SUMMARY_TRUNCATED_MARKER,
};
use openclaw_context_core::utf16::{contains, encode, line_ranges, trim};

fn s(units: &[u16]) -> String {
    String::from_utf16_lossy(units)
}

/// A structured body in the shape OpenClaw's summarizer is asked for.
fn structured_body(lines_per_section: usize) -> Vec<u16> {
    let mut text = String::from("Summary of the session so far.\n\n");
    for (i, heading) in REQUIRED_SUMMARY_SECTIONS.iter().enumerate() {
        text.push_str(heading);
        text.push('\n');
        for n in 0..lines_per_section {
            text.push_str(&format!(
                "- item {i}.{n}: deploy https://ci.example.com/build/{n} to /srv/app/{i} 😀 naïve 漢字\n"
            ));
        }
        text.push('\n');
    }
    encode(text.trim_end())
}

/// A suffix as OpenClaw's `assembleSuffix` builds it, tool-heavy.
fn tool_heavy_suffix(turns: usize) -> Vec<u16> {
    let mut text = String::from("\n\n## Recent turns preserved verbatim\n");
    let mut items = Vec::new();
    for t in 0..turns {
        items.push(format!(
            "- User: turn {t}: please fetch the items and fix the build"
        ));
        items.push(format!(
            "- Assistant: Fetching items for turn {t}.\n[non-text content: toolCall x3]"
        ));
        for k in 0..13 {
            items.push(format!(
                "- Tool result (web_fetch): {{\"url\":\"https://api.example.com/v1/items/{t}{k}\",\"status\":200,\n\"body\":\"{}\"}}...",
                "x".repeat(480)
            ));
        }
        items.push(format!("- Assistant: Turn {t} done."));
    }
    text.push_str(&items.join("\n"));
    text.push_str("\n\n## Tool Failures\n- exec (status=failed exitCode=101): error[E0425]: cannot find value `x`");
    text.push_str("\n\n<read-files>\nREADME.md\nsrc/lib.rs\n\n</read-files>");
    text.push_str("\n\n<modified-files>\nsrc/main.rs\n\n</modified-files>");
    text.push_str(&rules_block());
    encode(&text)
}

fn rules_block() -> String {
    "\n\n<workspace-critical-rules>\n## Session Startup\n1. Read MEMORY.md first.\n\n## Red Lines\n- Never push to main.\n</workspace-critical-rules>".into()
}

/// OpenClaw's `auditSummaryQuality` section check: every required heading
/// is a trimmed line of the summary.
fn has_required_sections(summary: &[u16]) -> bool {
    let lines: Vec<&[u16]> = line_ranges(summary).map(|r| trim(&summary[r])).collect();
    REQUIRED_SUMMARY_SECTIONS
        .iter()
        .all(|h| lines.contains(&encode(h).as_slice()))
}

fn cap(body: &[u16], suffix: &[u16], max: f64) -> CapReport {
    cap_preserving_suffix(body, suffix, max, &CapOptions::default())
}

#[test]
fn cap_compaction_summary_matches_openclaw_on_edge_budgets() {
    let text = encode(&"A".repeat(100));
    assert_eq!(cap_compaction_summary(&text, 0.0), text);
    assert_eq!(cap_compaction_summary(&text, -5.0), text);
    assert_eq!(cap_compaction_summary(&text, f64::INFINITY), text);
    assert_eq!(cap_compaction_summary(&text, 100.0), text);
    assert_eq!(cap_compaction_summary(&text, 45.0), encode(&"A".repeat(45)));
    assert_eq!(cap_compaction_summary(&text, 46.0), encode(&"A".repeat(46)));
    assert_eq!(
        s(&cap_compaction_summary(&text, 46.5)),
        SUMMARY_TRUNCATED_MARKER
    );
    assert_eq!(
        s(&cap_compaction_summary(&text, 47.9)),
        format!("A{SUMMARY_TRUNCATED_MARKER}")
    );
    assert_eq!(cap_compaction_summary(&text, 50.5).len(), 50);
    assert_eq!(
        s(&cap_compaction_summary(&text, 99.9)),
        format!("{}{SUMMARY_TRUNCATED_MARKER}", "A".repeat(53))
    );
    assert_eq!(cap_compaction_summary(&text, 0.5), Vec::<u16>::new());
    // A pair that does not fit is dropped whole.
    let emoji = encode(&"😀".repeat(30));
    assert_eq!(
        s(&cap_compaction_summary(&emoji, 47.0)),
        SUMMARY_TRUNCATED_MARKER
    );
    assert_eq!(
        s(&cap_compaction_summary(&emoji, 51.0)),
        format!("😀😀{SUMMARY_TRUNCATED_MARKER}")
    );
}

#[test]
fn unchanged_cases_are_openclaws() {
    let body = structured_body(3);
    let suffix = tool_heavy_suffix(1);
    let joined = [body.clone(), suffix.clone()].concat();
    assert_eq!(cap(&body, &suffix, 0.0).summary, joined);
    assert_eq!(cap(&body, &suffix, -1.0).summary, joined);
    assert_eq!(cap(&body, &suffix, joined.len() as f64).summary, joined);
    assert_eq!(cap(&body, &suffix, f64::INFINITY).summary, joined);
    assert_eq!(
        cap(&body, &[], 100.0).summary,
        cap_compaction_summary(&body, 100.0)
    );
}

#[test]
fn seed_scenario_keeps_every_heading_under_a_huge_suffix() {
    let body = structured_body(12);
    let suffix = tool_heavy_suffix(3);
    assert!(suffix.len() > 16_000, "suffix {}", suffix.len());
    let report = cap(&body, &suffix, 16_000.0);
    let out = &report.summary;
    assert!(out.len() <= 16_000);
    assert!(has_required_sections(out), "{}", s(out));
    assert!(out.starts_with(&body[..40]), "body starts the summary");
    assert!(report.suffix_trimmed);
    assert!(report.body_budget >= body.len().min(8_000));
    // The rules block is whole and last.
    assert!(s(out).ends_with(&rules_block()));
    // The marker stands where the suffix lost its head, once.
    assert_eq!(s(out).matches(SUFFIX_TRUNCATED_MARKER).count(), 1);
    // The newest item survives, and the sections after the turns.
    assert!(s(out).contains("- Assistant: Turn 2 done."));
    assert!(s(out).contains("\n\n## Tool Failures\n"));
    // The cut kept the section heading of the items that stayed.
    let text = s(out);
    let marker_at = text.find(SUFFIX_TRUNCATED_MARKER).unwrap();
    assert!(text[marker_at..].contains("## Recent turns preserved verbatim\n- "));
}

#[test]
fn body_floor_is_half_the_budget() {
    let body = structured_body(40);
    let suffix = tool_heavy_suffix(2);
    for max in [
        1_000.0, 2_000.0, 4_000.0, 5_000.0, 8_000.0, 9_001.0, 9_999.0, 16_000.0,
    ] {
        let report = cap(&body, &suffix, max);
        assert!(report.summary.len() <= max as usize);
        assert!(report.body_budget + report.suffix_budget <= max as usize);
        let floor = ((max / 2.0_f64).ceil() as usize).min(body.len());
        assert!(
            report.body_budget >= floor,
            "max {max}: {} < {floor}",
            report.body_budget
        );
        assert!(has_required_sections(&report.summary), "max {max}");
        assert_eq!(
            s(&report.summary)
                .matches("[Compaction summary truncated to fit budget]")
                .count(),
            1
        );
        assert_eq!(
            s(&report.summary).matches(SUFFIX_TRUNCATED_MARKER).count(),
            1,
            "max {max}"
        );
    }
}

#[test]
fn short_body_gives_its_share_to_the_suffix() {
    let body = encode("## Decisions\n- ok");
    let suffix = tool_heavy_suffix(3);
    let report = cap(&body, &suffix, 16_000.0);
    assert!(!report.body_trimmed);
    assert!(report.summary.starts_with(&body));
    assert_eq!(report.suffix_budget, 16_000 - body.len());
    assert!(report.summary.len() > 15_000, "{}", report.summary.len());
}

#[test]
fn suffix_cut_lands_on_item_or_line_starts() {
    let body = structured_body(2);
    let suffix = tool_heavy_suffix(3);
    let suffix_text = s(&suffix);
    for max in (3_000..20_000).step_by(997) {
        let report = cap(&body, &suffix, max as f64);
        let out = s(&report.summary);
        assert!(report.summary.len() <= max);
        if !report.suffix_trimmed {
            continue;
        }
        let after = out.split(SUFFIX_TRUNCATED_MARKER).nth(1).expect("marker");
        // The cut keeps the heading of the items after it.
        assert!(
            after.starts_with("\n\n## Recent turns preserved verbatim\n- "),
            "max {max}: {after}"
        );
        // Every kept line after the marker is a whole line of the suffix.
        for line in after.trim_start_matches('\n').lines() {
            assert!(
                suffix_text.lines().any(|l| l == line),
                "max {max}: {line:?} is not a whole suffix line"
            );
        }
    }
}

#[test]
fn rules_block_wins_over_the_marker() {
    let rules = rules_block();
    let suffix = encode(&format!(
        "\n\n## Tool Failures\n- exec: {}{rules}",
        "y".repeat(500)
    ));
    let body = encode("B");
    let budget = rules.len() + 1 + 10;
    let report = cap(&body, &suffix, budget as f64);
    assert_eq!(s(&report.summary), format!("B{rules}"));
}

#[test]
fn one_long_line_keeps_its_tail_from_a_word_start() {
    let line = "the 👨‍👩‍👧👨‍👩‍👧 e\u{301}tait ".repeat(100);
    let suffix = encode(&format!(
        "\n\n## Recent turns preserved verbatim\n- Tool result (exec): {line}done"
    ));
    let body = encode("## Decisions\n- a");
    let report = cap(&body, &suffix, 1_000.0);
    let out = s(&report.summary);
    assert!(report.summary.len() <= 1_000);
    let (_, tail) = out
        .split_once(&format!("{SUFFIX_TRUNCATED_MARKER}\n\n"))
        .expect("the marker, then the tail");
    // From a word start: a whole word, as many as fit, up to the line's end.
    assert!(tail.len() > 500, "{tail}");
    assert!(tail.ends_with("tait done"), "{tail}");
    assert!(
        ["the ", "👨", "e\u{301}"]
            .iter()
            .any(|w| tail.starts_with(w)),
        "{tail}"
    );
    assert!(line.contains(&format!(" {}", &tail[..tail.len() - "done".len()])));
}

#[test]
fn one_long_line_without_a_word_start_leaves_the_marker_alone() {
    let line = "👨‍👩‍👧".repeat(600);
    for tool_line in [line.clone(), format!("{line} )"), format!("{line} 42")] {
        let suffix = encode(&format!(
            "\n\n## Recent turns preserved verbatim\n- Tool result (exec): {tool_line}"
        ));
        let body = encode("## Decisions\n- a");
        let report = cap(&body, &suffix, 1_000.0);
        assert!(report.summary.len() <= 1_000);
        // No piece of the family emoji, no bare `)` or number: the marker ends it.
        assert_eq!(
            s(&report.summary),
            format!("## Decisions\n- a\n\n{SUFFIX_TRUNCATED_MARKER}")
        );
    }
}

#[test]
fn lone_surrogates_and_crlf_are_kept_exactly() {
    let mut body = encode("## Decisions\r\n- a \u{0}");
    body.push(0xD800);
    body.extend(encode("\r\n## Open TODOs\r\n"));
    body.extend(encode(&"- todo\r\n".repeat(300)));
    let mut suffix = encode("\n\n## Recent turns preserved verbatim\n- User: ");
    suffix.push(0xDC00);
    suffix.extend(encode(&"\n- Assistant: ok".repeat(300)));
    let report = cap(&body, &suffix, 2_000.0);
    assert!(report.summary.len() <= 2_000);
    assert!(
        report.summary.starts_with(&body[..17]),
        "head of body kept exactly"
    );
    assert!(contains(&report.summary, &encode("## Open TODOs\r\n")));
}

#[test]
fn protected_identifiers_survive_when_they_fit() {
    let mut text = String::from("## Decisions\n");
    for n in 0..200 {
        text.push_str(&format!("- filler decision number {n} with some words\n"));
    }
    text.push_str("- deploy id ses_9f8e7d6c5b4a\n## Exact identifiers\n- none\n");
    let body = encode(&text);
    let suffix = tool_heavy_suffix(1);
    let plain = cap(&body, &suffix, 4_000.0);
    assert!(!contains(&plain.summary, &encode("ses_9f8e7d6c5b4a")));
    let options = CapOptions {
        protected_identifiers: vec![encode("ses_9f8e7d6c5b4a")],
        ..CapOptions::default()
    };
    let kept = cap_preserving_suffix(&body, &suffix, 4_000.0, &options);
    assert!(kept.summary.len() <= 4_000);
    assert!(contains(&kept.summary, &encode("ses_9f8e7d6c5b4a")));
}

#[test]
fn token_budget_caps_further_even_without_max_chars() {
    let body = structured_body(20);
    let suffix = tool_heavy_suffix(2);
    let options = CapOptions {
        token_budget: Some(1_000.0),
        ..CapOptions::default()
    };
    let report = cap_preserving_suffix(&body, &suffix, 0.0, &options);
    assert!(report.summary.len() <= 4_000);
    assert!(has_required_sections(&report.summary));
    let with_max = cap_preserving_suffix(&body, &suffix, 16_000.0, &options);
    assert!(with_max.summary.len() <= 4_000);
}

#[test]
fn required_headings_option_wins_when_headings_do_not_all_fit() {
    let mut text = String::new();
    for n in 0..100 {
        text.push_str(&format!("## Heading number {n}\n- line\n"));
    }
    text.push_str("## Keep me\n- x\n");
    let body = encode(&text);
    let suffix = tool_heavy_suffix(1);
    let options = CapOptions {
        required_headings: Some(vec![encode("## Keep me")]),
        ..CapOptions::default()
    };
    let report = cap_preserving_suffix(&body, &suffix, 800.0, &options);
    assert!(report.summary.len() <= 800);
    assert!(contains(&report.summary, &encode("## Keep me\n")));
}

#[test]
fn tiny_budgets_never_overflow() {
    let body = structured_body(3);
    let suffix = tool_heavy_suffix(1);
    for max in 1..200 {
        let report = cap(&body, &suffix, max as f64);
        assert!(report.summary.len() <= max, "max {max}");
    }
}

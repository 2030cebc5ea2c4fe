//! `cargo bench -p openclaw_context_core`: the core functions over input
//! size, to show they scale linearly (the JS-side `npm run bench` compares
//! against OpenClaw's own functions).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use openclaw_context_core::compaction::{
    cap_compaction_summary, cap_preserving_suffix, CapOptions, REQUIRED_SUMMARY_SECTIONS,
};
use openclaw_context_core::mask::Masker;
use openclaw_context_core::persistent_chat::log::{LogEntry, Role, Timestamp};
use openclaw_context_core::persistent_chat::prompt::{
    build_injected_prompt, Fence, PromptParams, DEFAULT_MAX_ENTRY_CHARS,
};

const HEADINGS: [&str; 5] = REQUIRED_SUMMARY_SECTIONS;

fn body(lines_per_section: usize) -> Vec<u16> {
    let mut text = String::from("Session summary.\n\n");
    for heading in HEADINGS {
        text.push_str(heading);
        text.push('\n');
        for n in 0..lines_per_section {
            text.push_str(&format!(
                "- item {n}: deploy https://ci.example.com/b/{n} to /srv/app 😀 漢字\n"
            ));
        }
        text.push('\n');
    }
    text.encode_utf16().collect()
}

/// The five headings and `bullets` bullets of 3 to 17 words, in turn.
fn bullet_body(bullets: usize) -> Vec<u16> {
    const WORDS: [&str; 8] = [
        "deploy", "the", "gateway", "漢字", "😀", "ses_7f3a", "PR", "#1187",
    ];
    let mut sections: Vec<String> = HEADINGS.iter().map(|h| format!("{h}\n")).collect();
    for n in 0..bullets {
        let words: Vec<&str> = (0..3 + n % 15)
            .map(|w| WORDS[(n + w) % WORDS.len()])
            .collect();
        sections[n % HEADINGS.len()].push_str(&format!("- {}\n", words.join(" ")));
    }
    sections.concat().encode_utf16().collect()
}

fn suffix(turns: usize) -> Vec<u16> {
    let mut text = String::from("\n\n## Recent turns preserved verbatim\n");
    for t in 0..turns {
        text.push_str(&format!("- User: turn {t}: fetch the items\n"));
        for k in 0..9 {
            text.push_str(&format!(
                "- Tool result (web_fetch): {{\"url\":\"https://api.example.com/items/{t}{k}\",\n\"body\":\"{}\"}}...\n",
                "lorem ipsum ".repeat(45)
            ));
        }
        text.push_str(&format!("- Assistant: Turn {t} done.\n"));
    }
    text.push_str("\n## Tool Failures\n- exec (status=failed): error\n");
    text.push_str("\n<workspace-critical-rules>\n## Red Lines\n- Never push to main.\n</workspace-critical-rules>");
    text.encode_utf16().collect()
}

/// One `cap_preserving_suffix` case of `group`: the body and suffix, capped at `max_chars`.
fn bench_suffix_cap(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    id: String,
    body: Vec<u16>,
    suffix: Vec<u16>,
    max_chars: f64,
) {
    group.throughput(Throughput::Elements((body.len() + suffix.len()) as u64));
    group.bench_with_input(
        BenchmarkId::from_parameter(id),
        &(body, suffix),
        |b, (body, suffix)| {
            b.iter(|| {
                cap_preserving_suffix(
                    black_box(body),
                    black_box(suffix),
                    max_chars,
                    &CapOptions::default(),
                )
            })
        },
    );
}

fn cap(c: &mut Criterion) {
    let mut group = c.benchmark_group("cap_preserving_suffix@16000");
    for scale in [1usize, 4, 16, 64, 256] {
        let (body, suffix) = (body(20 * scale), suffix(3 * scale));
        let id = (body.len() + suffix.len()).to_string();
        bench_suffix_cap(&mut group, id, body, suffix, 16_000.0);
    }
    group.finish();
    // Body-heavy (issue 11): bodies of short bullets, a small suffix, the
    // budgets up to 20,000 going mostly to the body.
    let mut group = c.benchmark_group("cap_preserving_suffix/body-heavy");
    for (bullets, max_chars) in [(250usize, 2_000.0), (400, 12_000.0), (600, 20_000.0)] {
        let body = bullet_body(bullets);
        let id = format!("{}@{max_chars}", body.len());
        bench_suffix_cap(&mut group, id, body, suffix(1), max_chars);
    }
    group.finish();
    let mut group = c.benchmark_group("cap_compaction_summary@16000");
    for scale in [1usize, 16, 256] {
        let text = [body(20 * scale), suffix(3 * scale)].concat();
        group.throughput(Throughput::Elements(text.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(text.len()), &text, |b, text| {
            b.iter(|| cap_compaction_summary(black_box(text), 16_000.0))
        });
    }
    group.finish();
}

fn prompt(c: &mut Criterion) {
    let entries: Vec<LogEntry> = (0..60)
        .map(|i| LogEntry {
            role: if i % 2 == 0 {
                Role::User
            } else {
                Role::Assistant
            },
            text: format!("message {i}: {}", "words and more words ".repeat(10))
                .encode_utf16()
                .collect(),
            ts: Some(Timestamp::Text(
                format!("2026-05-15T10:{:02}:00Z", i % 60)
                    .encode_utf16()
                    .collect(),
            )),
            session: Some("ses_1".encode_utf16().collect()),
            status: (i % 2 == 1).then(|| "ok".encode_utf16().collect()),
            id: Some(format!("id{i}").encode_utf16().collect()),
        })
        .collect();
    let summary: Vec<u16> = "Current thread / pending next action:\n- Latest user request: hi\n\nActive decisions and guardrails:\n- Use Postgres"
        .encode_utf16()
        .collect();
    for reload in [false, true] {
        let params = PromptParams {
            user_message: "Are you there?".encode_utf16().collect(),
            reload,
            current_session: None,
            turn_metadata: None,
            continuity_summary: Some(summary.clone()),
            log_entries: entries.clone(),
            skipped_log_lines: 0,
            continuous_entries: 2,
            reload_entries: 25,
            refresh: false,
            refresh_entries: 10,
            max_chars: None,
            max_entry_chars: Some(DEFAULT_MAX_ENTRY_CHARS),
            fence: Fence::default(),
        };
        let name = if reload {
            "prompt/reload-25"
        } else {
            "prompt/continuous-2"
        };
        c.bench_function(name, |b| {
            b.iter(|| build_injected_prompt(black_box(&params)))
        });
    }
}

/// Entries, summary and live message of many short lines (lists, code,
/// prose): each line is looked at for forged structure.
fn prompt_multiline(c: &mut Criterion) {
    const LINES: [&str; 10] = [
        "Sure, here is the plan:",
        "1. Install Postgres 16 on the staging host",
        "2. Run the migrations and check the logs",
        "- keep the old dump until Friday",
        "The build failed at step 3; the runner ran out of disk.",
        "```rust",
        "fn main() { println!(\"hello\"); }",
        "```",
        "Let me know if the timer fires twice.",
        "## Notes",
    ];
    let text = |n: usize| -> Vec<u16> {
        (0..n)
            .map(|i| LINES[i % LINES.len()])
            .collect::<Vec<_>>()
            .join("\n")
            .encode_utf16()
            .collect()
    };
    let entries: Vec<LogEntry> = (0..60)
        .map(|i| LogEntry {
            role: if i % 2 == 0 {
                Role::User
            } else {
                Role::Assistant
            },
            text: [format!("message {i}\n").encode_utf16().collect(), text(12)].concat(),
            ts: Some(Timestamp::Number(1.7e12 + f64::from(i) * 1000.0)),
            session: Some("ses_1".encode_utf16().collect()),
            status: None,
            id: Some(format!("id{i}").encode_utf16().collect()),
        })
        .collect();
    let params = PromptParams {
        user_message: text(20),
        reload: true,
        current_session: None,
        turn_metadata: None,
        continuity_summary: Some(text(40)),
        log_entries: entries,
        skipped_log_lines: 0,
        continuous_entries: 2,
        reload_entries: 25,
        refresh: false,
        refresh_entries: 10,
        max_chars: None,
        max_entry_chars: Some(DEFAULT_MAX_ENTRY_CHARS),
        fence: Fence::default(),
    };
    c.bench_function("prompt/reload-25-multiline", |b| {
        b.iter(|| build_injected_prompt(black_box(&params)))
    });
    // The same, legacy layout: what the fence costs.
    let legacy = PromptParams {
        fence: Fence::Legacy,
        ..params
    };
    c.bench_function("prompt/reload-25-multiline-legacy", |b| {
        b.iter(|| build_injected_prompt(black_box(&legacy)))
    });
}

/// The masker on prose and on hostile inputs (each a pattern's near miss,
/// repeated) at n and 4n units: the time per unit stays flat (linear).
fn mask(c: &mut Criterion) {
    let masker = Masker::new(&["(a+)+b", "/internal-[a-z]+-\\d+/i"]);
    let mut group = c.benchmark_group("mask");
    for (name, unit, tail) in [
        ("prose", "The quick brown fox jumps over the lazy dog. ", ""),
        ("a. token=", "a.", " token="),
        ("http://u:", "http://u:", ""),
        ("eyJ", "eyJabcdefghi.", ""),
        ("BEGIN", "-----BEGIN PRIVATE KEY-----", ""),
        ("<private>", "<private>", ""),
    ] {
        for size in [30_000usize, 120_000] {
            let text: Vec<u16> = format!("{}{tail}", unit.repeat(size / unit.len()))
                .encode_utf16()
                .collect();
            group.throughput(Throughput::Elements(text.len() as u64));
            group.bench_with_input(BenchmarkId::new(name, size), &text, |b, text| {
                b.iter(|| masker.mask(black_box(text)))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, cap, prompt, prompt_multiline, mask);
criterion_main!(benches);

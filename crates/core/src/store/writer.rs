//! The store's in door: every line that enters a chat's log (the plugin's
//! append, `import` from any source, `restore`, the rewrites of `forget` and
//! retention) is made here, so each carries the same rules:
//!
//! - parsed: a line that is an entry is read as one; a line that is not (a
//!   torn write, garbage an earlier writer left) stays a line of its own, so
//!   the log's line numbers do not move, masked as text;
//! - masked: the built-in patterns, the `<private>` rule and the operator's
//!   patterns (the store's masker);
//! - capped: no line longer than the readers' cap ([`MAX_LINE_BYTES`]: a
//!   longer one is skipped by every reader) is written; a longer entry's
//!   text is cut as the readers show a cut text (`… [N more characters
//!   cut]`), and the caller reports how many were;
//! - serialized as the store writes an entry ([`entry_json`]). A line that
//!   masking and the cap leave as it was is kept byte for byte, so an
//!   export imports back exactly and a rewrite changes only what it must.

use std::borrow::Cow;

use super::entry_json;
use crate::mask::Masker;
use crate::persistent_chat::log::{parse_log_line, LogEntry, MAX_LINE_BYTES};
use crate::persistent_chat::text::shown_text;

/// A line as it goes into the log (without its `\n`), and what the rules did
/// to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written<'a> {
    pub line: Cow<'a, [u8]>,
    /// Masking changed its text.
    pub masked: bool,
    /// Its text was cut to fit the line cap.
    pub cut: bool,
}

/// The line of `entry`: its text masked by `masker`, cut to fit
/// [`MAX_LINE_BYTES`], serialized.
pub fn entry_line(entry: &LogEntry, masker: &Masker) -> Written<'static> {
    let masked_text = masker.mask(&entry.text);
    let masked = masked_text != entry.text;
    let mut entry = LogEntry {
        text: masked_text.clone(),
        ..entry.clone()
    };
    let mut line = entry_json(&entry);
    let mut cut = false;
    // The line and its `\n` within the cap: the text is cut in proportion to
    // the room over the line's length (JSON escapes make a unit up to six
    // bytes), by a tenth at least each time it still does not fit.
    let mut keep = masked_text.len();
    while line.len() >= MAX_LINE_BYTES && keep > 0 {
        let ratio = (MAX_LINE_BYTES - 256) as f64 / line.len() as f64;
        keep = ((keep as f64 * ratio.min(0.9)) as usize).min(keep - 1);
        entry.text = shown_text(&masked_text, Some(keep)).into_owned();
        line = entry_json(&entry);
        cut = true;
    }
    Written {
        line: Cow::Owned(line),
        masked,
        cut,
    }
}

/// An existing line (without its `\n`) as it goes into the log: an entry by
/// [`entry_line`], kept byte for byte when that changes nothing; a line
/// that is not an entry masked as text (lossy UTF-8), kept byte for byte when
/// masking changes nothing, and within the cap.
pub fn existing_line<'a>(line: &'a [u8], masker: &Masker) -> Written<'a> {
    let Some(entry) = parse_log_line(line) else {
        let text: Vec<u16> = String::from_utf8_lossy(line).encode_utf16().collect();
        let masked_text = masker.mask(&text);
        let masked = masked_text != text;
        let too_long = line.len() >= MAX_LINE_BYTES;
        if !masked && !too_long {
            return Written {
                line: Cow::Borrowed(line),
                masked: false,
                cut: false,
            };
        }
        let mut bytes = String::from_utf16_lossy(&masked_text).into_bytes();
        let cut = bytes.len() >= MAX_LINE_BYTES;
        if cut {
            let mut end = MAX_LINE_BYTES - 1;
            while end > 0 && (bytes[end] & 0xC0) == 0x80 {
                end -= 1;
            }
            bytes.truncate(end);
        }
        return Written {
            line: Cow::Owned(bytes),
            masked,
            cut,
        };
    };
    let written = entry_line(&entry, masker);
    if !written.masked && !written.cut {
        return Written {
            line: Cow::Borrowed(line.strip_suffix(b"\n").unwrap_or(line)),
            masked: false,
            cut: false,
        };
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mask::builtin_masker;
    use crate::persistent_chat::log::Role;

    fn entry(text: &str) -> LogEntry {
        LogEntry {
            role: Role::User,
            text: text.encode_utf16().collect(),
            ts: None,
            session: None,
            status: None,
            id: Some("m1".encode_utf16().collect()),
        }
    }

    #[test]
    fn an_entry_is_masked_and_serialized() {
        let written = entry_line(
            &entry("token ghp_abcdefghijklmnopqrstuvwxyz0123456789 <private>pin</private>"),
            &builtin_masker(),
        );
        assert!(written.masked && !written.cut);
        assert_eq!(
            String::from_utf8(written.line.into_owned()).unwrap(),
            "{\"role\":\"user\",\"text\":\"token [redacted:github-token] [redacted:private]\",\"id\":\"m1\"}"
        );
    }

    #[test]
    fn a_line_masking_leaves_alone_is_kept_byte_for_byte() {
        let line = b"{\"text\":\"plain\",\"role\":\"user\",\"extra\":[1, 2]}\n";
        let written = existing_line(line, &builtin_masker());
        assert_eq!(&*written.line, &line[..line.len() - 1]);
        assert!(!written.masked && !written.cut);
        let garbage = b"not json but ghp_abcdefghijklmnopqrstuvwxyz0123456789";
        let written = existing_line(garbage, &builtin_masker());
        assert_eq!(&*written.line, b"not json but [redacted:github-token]");
        assert!(written.masked);
    }

    #[test]
    fn no_line_passes_the_readers_cap() {
        // Every unit a six-byte escape: the worst a text can weigh.
        let heavy: String = "\u{1}".repeat(MAX_LINE_BYTES / 3);
        for text in ["x".repeat(MAX_LINE_BYTES + 10), heavy] {
            let written = entry_line(&entry(&text), &builtin_masker());
            assert!(written.cut);
            assert!(written.line.len() < MAX_LINE_BYTES);
            let back = parse_log_line(&written.line).expect("still an entry");
            let shown = String::from_utf16_lossy(&back.text);
            assert!(
                shown.ends_with("more characters cut]"),
                "{}",
                &shown[shown.len() - 40..]
            );
            assert!(
                written.line.len() > MAX_LINE_BYTES / 2,
                "cut no more than it must"
            );
        }
        let garbage = vec![b'z'; MAX_LINE_BYTES + 5];
        let written = existing_line(&garbage, &builtin_masker());
        assert!(written.cut && written.line.len() < MAX_LINE_BYTES);
    }
}

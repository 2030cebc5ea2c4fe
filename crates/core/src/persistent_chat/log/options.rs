//! How a tail read reads: the line cap, the gap it gives up after, the block
//! sizes, whether links are refused. Shared by the checked tail read
//! (`tail`) and the block reader under it (`backward`).

use super::super::fs::Links;

/// A longer line is skipped unread: it bounds memory on a corrupt log.
pub const MAX_LINE_BYTES: usize = 8 << 20;
/// A read's one budget for the bytes of lines that are not entries
/// (garbage, torn writes, oversized and blank lines), for the whole read:
/// once spent, it stops. Twice [`MAX_LINE_BYTES`], so the longest valid
/// line is always found behind up to a line's worth of such bytes in all,
/// while a log of garbage of any size (a 40 GB sparse file), or many
/// entries each behind a gap, costs the entries returned and 16 MiB of
/// reading, milliseconds, not a scan to its start.
pub const MAX_GAP_BYTES: usize = 2 * MAX_LINE_BYTES;
pub(super) const FIRST_BLOCK_BYTES: usize = 64 << 10;
pub(super) const MAX_BLOCK_BYTES: usize = 4 << 20;

#[derive(Debug, Clone, Copy)]
pub(crate) struct TailOptions {
    pub max_line_bytes: usize,
    pub first_block: usize,
    pub max_block: usize,
    pub max_gap_bytes: usize,
    pub links: Links,
    /// Each entry's text is cut to this many units as it is read (see
    /// [`LogReadOptions::max_entry_chars`]); `None`: kept whole.
    pub max_entry_chars: Option<usize>,
}

impl Default for TailOptions {
    fn default() -> Self {
        TailOptions {
            max_line_bytes: MAX_LINE_BYTES,
            first_block: FIRST_BLOCK_BYTES,
            max_block: MAX_BLOCK_BYTES,
            max_gap_bytes: MAX_GAP_BYTES,
            links: Links::Follow,
            max_entry_chars: None,
        }
    }
}

/// How `readPersistentChatLogEntries` reads, as its caller asks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LogReadOptions {
    /// Whether a symlink or a hard-linked file at the path is refused.
    pub links: Links,
    /// A missing file reads as an empty log (a log not written yet).
    pub empty_if_missing: bool,
    /// Each entry's text is cut as the prompt builders cut it
    /// (`maxEntryChars`: its first units at a grapheme boundary, then
    /// `… [N more characters cut]`) right after its line is parsed, so the
    /// entries a read holds and returns follow the cap, not the lines'
    /// sizes (up to 8 MiB each). `None`: kept whole.
    pub max_entry_chars: Option<usize>,
}

/// A `maxEntryChars` as a caller gives it (a JavaScript number) to the tail
/// reader: `None` (no cut) when absent, `NaN`, `Infinity` or `<= 0`, as the
/// builders read `<= 0` and `Infinity`; fractions round down.
pub fn entry_cap(value: Option<f64>) -> Option<usize> {
    match value {
        Some(number) if number.is_finite() && number > 0.0 => {
            Some(number.min(usize::MAX as f64) as usize)
        }
        _ => None,
    }
}

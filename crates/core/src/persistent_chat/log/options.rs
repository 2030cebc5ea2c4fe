//! How a tail read reads: the line cap, the gap it gives up after, the block
//! sizes, whether links are refused. Shared by the checked tail read
//! (`tail`) and the block reader under it (`backward`).

use super::super::fs::Links;

/// A longer line is skipped unread: it bounds memory on a corrupt log.
pub const MAX_LINE_BYTES: usize = 8 << 20;
/// How far a read goes below the newest valid entry (or the end of the
/// file) without finding another before it stops: twice
/// [`MAX_LINE_BYTES`], so the longest valid line is always found behind up
/// to a line's worth of garbage, a torn write or an oversized line, while a
/// log of garbage of any size (a 40 GB sparse file) costs 16 MiB of reading,
/// milliseconds, not a scan to its start.
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
}

impl Default for TailOptions {
    fn default() -> Self {
        TailOptions {
            max_line_bytes: MAX_LINE_BYTES,
            first_block: FIRST_BLOCK_BYTES,
            max_block: MAX_BLOCK_BYTES,
            max_gap_bytes: MAX_GAP_BYTES,
            links: Links::Follow,
        }
    }
}

//! Substring search on UTF-16 units (memchr's memmem over the bytes).

use super::as_bytes;

/// First index of `needle` in `haystack` (an empty needle is found at 0).
///
/// memchr's memmem over the bytes (linear in the worst case; a byte match
/// counts only where it starts a whole unit).
pub fn find(haystack: &[u16], needle: &[u16]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    if needle.len() > haystack.len() {
        return None;
    }
    if needle.len() > FIND_HEAD_FIRST {
        // Building a finder costs time in the needle's length, and a long
        // needle (a log entry looked for in a summary) is usually absent:
        // look for its head first. The first match cannot start before the
        // head's first match, so one more search from there stays linear.
        let from = find_aligned(haystack, &needle[..FIND_HEAD_FIRST])?;
        return find_aligned(&haystack[from..], needle).map(|at| from + at);
    }
    find_aligned(haystack, needle)
}

/// Needles longer than this many units are looked for by their head first.
const FIND_HEAD_FIRST: usize = 16;

fn find_aligned(haystack: &[u16], needle: &[u16]) -> Option<usize> {
    let bytes = as_bytes(haystack);
    let finder = memchr::memmem::Finder::new(as_bytes(needle));
    // Not find_iter: its matches do not overlap, and a match at an odd
    // offset could hide an aligned one that overlaps it.
    let mut from = 0;
    while let Some(at) = finder.find(&bytes[from..]).map(|at| from + at) {
        if at % 2 == 0 {
            return Some(at / 2);
        }
        from = at + 1;
    }
    None
}

pub fn contains(haystack: &[u16], needle: &[u16]) -> bool {
    find(haystack, needle).is_some()
}

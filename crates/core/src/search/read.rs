//! An indexed entry read again from the log: its line's bytes must hash to
//! what was indexed and parse as an entry, else the log changed under the
//! index (the caller rebuilds it). Nothing the log no longer holds is
//! returned.

use std::fs::File;
use std::io;

use super::codec::hash64;
use super::index::{id_hash, Doc, Index};
use super::{WindowAt, WindowEntry};
use crate::persistent_chat::fs::read_full_at;
use crate::persistent_chat::log::{parse_log_line, LogEntry};

pub(crate) enum Read {
    Entry(LogEntry),
    /// The line is not what was indexed.
    Changed,
}

pub(crate) fn read_doc(log: &File, doc: &Doc) -> io::Result<Read> {
    let mut line = vec![0u8; doc.bytes as usize];
    if read_full_at(log, &mut line, doc.offset)? < line.len()
        || hash64(&line) != doc.hash
        || line.last() != Some(&b'\n')
    {
        return Ok(Read::Changed);
    }
    if doc.offset > 0 {
        let mut before = [0u8; 1];
        if read_full_at(log, &mut before, doc.offset - 1)? < 1 || before[0] != b'\n' {
            return Ok(Read::Changed);
        }
    }
    Ok(parse_log_line(&line).map_or(Read::Changed, Read::Entry))
}

/// The window around `at`, and whether an entry in it had changed. Each
/// entry goes through `shown` as it is read (masked, then cut), so what the
/// window holds follows the cut, not the lines' sizes.
pub(crate) fn window(
    log: &File,
    index: &Index,
    at: &WindowAt,
    before: usize,
    after: usize,
    shown: &dyn Fn(LogEntry) -> LogEntry,
) -> (io::Result<Vec<WindowEntry>>, bool) {
    let docs = &index.docs;
    let mut stale = false;
    // The range of documents: [first, center) before, [center, end) the entry and after.
    let (center, own) = match at {
        WindowAt::Line(line) => {
            let center = docs.partition_point(|doc| doc.line < *line);
            (
                center,
                docs.get(center).is_some_and(|doc| doc.line == *line),
            )
        }
        WindowAt::Id(id) => {
            let wanted = id_hash(Some(id));
            let mut found = None;
            for (number, doc) in docs.iter().enumerate().rev() {
                if doc.id_hash != wanted {
                    continue;
                }
                match read_doc(log, doc) {
                    Ok(Read::Entry(entry)) if entry.id.as_deref() == Some(id.as_slice()) => {
                        found = Some(number);
                        break;
                    }
                    Ok(Read::Entry(_)) => {}
                    Ok(Read::Changed) => stale = true,
                    Err(err) => return (Err(err), stale),
                }
            }
            match found {
                Some(number) => (number, true),
                None => return (Ok(Vec::new()), stale),
            }
        }
    };
    let first = center.saturating_sub(before);
    let end = (center + usize::from(own) + after).min(docs.len());
    let mut out = Vec::with_capacity(end - first);
    for doc in &docs[first..end] {
        match read_doc(log, doc) {
            Ok(Read::Entry(entry)) => out.push(WindowEntry {
                entry: shown(entry),
                line: doc.line,
            }),
            Ok(Read::Changed) => stale = true,
            Err(err) => return (Err(err), stale),
        }
    }
    (Ok(out), stale)
}

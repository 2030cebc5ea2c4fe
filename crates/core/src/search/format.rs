//! The index file: its bytes, written and read. The reader is a parser of
//! hostile bytes (the file is a cache anyone with the folder could have
//! damaged): every length and count is bounds-checked, every posting list
//! decoded and checked against the documents, and anything wrong is `None`
//! (the caller rebuilds), never a panic.
//!
//! ```text
//! magic "OCCNSRCH"  version u32 LE  body length u64 LE
//! body:
//!   covered, lines (varints)  head, tail (u64 LE)  total terms (varint)
//!   documents: count, then each: offset − end of the previous one, line
//!     length, line − previous line, terms, id hash, role, time (varints),
//!     line hash (u64 LE); time: 0 for none, else 1 + the zigzag of its
//!     seconds − the previous timed document's (0 before the first)
//!   terms: count, then each (ascending): length, UTF-8, documents, postings length (varints),
//!     postings: (document delta, frequency) varint pairs
//! checksum u64 LE: hash64 of everything before it
//! ```

use foldhash::HashMap;

use super::codec::{hash64, put_varint, Reader};
use super::index::{Doc, Index, Postings, MAX_TIME_SECONDS};
use crate::persistent_chat::log::MAX_LINE_BYTES;

const MAGIC: &[u8; 8] = b"OCCNSRCH";
/// Bumped whenever the layout or the tokenisation changes: an index of
/// another version is rebuilt, not read. 2: each document's time.
pub(crate) const VERSION: u32 = 2;
const MAX_TERM_LEN: usize = 256;

pub(crate) fn encode(index: &Index) -> Vec<u8> {
    let mut body = Vec::with_capacity(index.docs.len() * 16 + index.postings.len() * 16);
    put_varint(&mut body, index.covered);
    put_varint(&mut body, index.lines);
    body.extend_from_slice(&index.head.to_le_bytes());
    body.extend_from_slice(&index.tail.to_le_bytes());
    put_varint(&mut body, index.total_terms);
    put_varint(&mut body, index.docs.len() as u64);
    let (mut end, mut line, mut time) = (0u64, 0u64, 0i64);
    for doc in &index.docs {
        put_varint(&mut body, doc.offset - end);
        put_varint(&mut body, u64::from(doc.bytes));
        put_varint(&mut body, doc.line - line);
        put_varint(&mut body, u64::from(doc.terms));
        put_varint(&mut body, u64::from(doc.id_hash));
        put_varint(&mut body, u64::from(doc.role));
        match doc.time {
            None => put_varint(&mut body, 0),
            Some(seconds) => {
                put_varint(&mut body, zigzag(seconds - time) + 1);
                time = seconds;
            }
        }
        body.extend_from_slice(&doc.hash.to_le_bytes());
        end = doc.offset + u64::from(doc.bytes);
        line = doc.line;
    }
    let mut terms: Vec<(&str, u32)> = index.terms.iter().map(|(t, &n)| (&**t, n)).collect();
    terms.sort_unstable();
    put_varint(&mut body, terms.len() as u64);
    for (term, number) in terms {
        let postings = &index.postings[number as usize];
        put_varint(&mut body, term.len() as u64);
        body.extend_from_slice(term.as_bytes());
        put_varint(&mut body, u64::from(postings.count));
        put_varint(&mut body, postings.bytes.len() as u64);
        body.extend_from_slice(&postings.bytes);
    }
    let mut out = Vec::with_capacity(body.len() + 28);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&body);
    let checksum = hash64(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    out
}

/// The index in `bytes`, or `None` when they are not one whole index of
/// this version, consistent with itself.
pub(crate) fn decode(bytes: &[u8]) -> Option<Index> {
    let (content, checksum) = bytes.split_at_checked(bytes.len().checked_sub(8)?)?;
    if hash64(content) != u64::from_le_bytes(checksum.try_into().ok()?) {
        return None;
    }
    let mut header = Reader::new(content);
    if header.take(8)? != MAGIC || header.take(4)? != VERSION.to_le_bytes() {
        return None;
    }
    let body_len = usize::try_from(header.u64()?).ok()?;
    let body = header.take(body_len)?;
    if !header.is_empty() {
        return None;
    }
    decode_body(body)
}

fn decode_body(body: &[u8]) -> Option<Index> {
    let mut r = Reader::new(body);
    let covered = r.varint()?;
    let lines = r.varint()?;
    let head = r.u64()?;
    let tail = r.u64()?;
    let total_terms = r.varint()?;
    // A document takes at least 15 bytes: no count can promise more than the body holds.
    let doc_count = r.count(body.len() / 15)?;
    let mut docs = Vec::with_capacity(doc_count);
    let (mut end, mut line, mut sum, mut last_time) = (0u64, 0u64, 0u64, 0i64);
    for _ in 0..doc_count {
        let offset = end.checked_add(r.varint()?)?;
        let bytes = u32::try_from(r.count(MAX_LINE_BYTES + 1)?).ok()?;
        let line_number = line.checked_add(r.varint()?)?;
        let terms = u32::try_from(r.varint()?).ok()?;
        let id_hash = u32::try_from(r.varint()?).ok()?;
        let role = u8::try_from(r.count(3)?).ok()?;
        let time = match r.varint()? {
            0 => None,
            coded => {
                let seconds = last_time.checked_add(unzigzag(coded - 1))?;
                if seconds.abs() > MAX_TIME_SECONDS {
                    return None;
                }
                last_time = seconds;
                Some(seconds)
            }
        };
        let hash = r.u64()?;
        end = offset.checked_add(u64::from(bytes))?;
        if bytes == 0 || end > covered || line_number <= line || line_number > lines {
            return None;
        }
        line = line_number;
        sum = sum.checked_add(u64::from(terms))?;
        docs.push(Doc {
            offset,
            bytes,
            line: line_number,
            terms,
            hash,
            id_hash,
            role,
            time,
        });
    }
    if sum != total_terms || lines > covered {
        return None;
    }
    let term_count = r.count(body.len() / 3)?;
    let mut terms = HashMap::default();
    terms.reserve(term_count);
    let mut postings = Vec::with_capacity(term_count);
    let mut previous: &str = "";
    for number in 0..term_count {
        let len = r.count(MAX_TERM_LEN)?;
        let term = std::str::from_utf8(r.take(len)?).ok()?;
        // Ascending, as written: one canonical form, no term twice.
        if number > 0 && term <= previous {
            return None;
        }
        previous = term;
        let count = r.count(doc_count)?;
        let encoded_len = r.count(body.len())?;
        let encoded = r.take(encoded_len)?;
        let list = check_postings(encoded, count, &docs)?;
        if len == 0 || terms.insert(term.into(), number as u32).is_some() {
            return None;
        }
        postings.push(list);
    }
    if !r.is_empty() {
        return None;
    }
    Some(Index {
        covered,
        lines,
        head,
        tail,
        docs,
        terms,
        postings,
        total_terms,
    })
}

/// A signed difference as an unsigned varint's value: 0, -1, 1, -2, 2…
/// as 0, 1, 2, 3, 4… (both times are within [`MAX_TIME_SECONDS`], so the
/// difference and its code fit).
fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

fn unzigzag(code: u64) -> i64 {
    ((code >> 1) as i64) ^ -((code & 1) as i64)
}

/// A posting list whose `count` documents exist, ascend, and hold the term
/// at most as often as they have terms.
fn check_postings(encoded: &[u8], count: usize, docs: &[Doc]) -> Option<Postings> {
    if count == 0 {
        return None;
    }
    let mut r = Reader::new(encoded);
    let mut doc = 0u64;
    for i in 0..count {
        let delta = r.varint()?;
        if i > 0 && delta == 0 {
            return None;
        }
        doc = doc.checked_add(delta)?;
        let frequency = r.varint()?;
        let terms = docs.get(usize::try_from(doc).ok()?)?.terms;
        if frequency == 0 || frequency > u64::from(terms) {
            return None;
        }
    }
    if !r.is_empty() {
        return None;
    }
    Some(Postings {
        count: count as u32,
        last: doc as u32,
        bytes: encoded.to_vec(),
    })
}

/// Each `(document, frequency)` of a posting list, stopping at the first
/// thing out of place (lists are checked when read, this is a second guard).
pub(crate) fn postings_iter<'p>(
    postings: &'p Postings,
    docs: usize,
) -> impl Iterator<Item = (usize, u32)> + 'p {
    let mut r = Reader::new(&postings.bytes);
    let mut doc = 0usize;
    let mut left = postings.count;
    std::iter::from_fn(move || {
        if left == 0 {
            return None;
        }
        let delta = usize::try_from(r.varint()?).ok()?;
        if left < postings.count && delta == 0 {
            return None;
        }
        doc = doc.checked_add(delta).filter(|&d| d < docs)?;
        let frequency = u32::try_from(r.varint()?).ok()?;
        left -= 1;
        Some((doc, frequency))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;

    fn index_of(log: &[u8]) -> Index {
        let dir = TempDir::new("search-format");
        let path = dir.file("log.jsonl", log);
        let file = std::fs::File::open(path).unwrap();
        let mut index = Index::default();
        index.extend(&file, file.metadata().unwrap().len()).unwrap();
        index
    }

    #[test]
    fn an_index_reads_back_equal() {
        let index = index_of(
            "{\"role\":\"user\",\"text\":\"deploy the staging database\",\"id\":\"m1\"}\nnot json\n{\"role\":\"tool\",\"text\":\"数据库 ok\"}\n".as_bytes(),
        );
        assert_eq!(index.docs.len(), 2);
        assert_eq!(index.lines, 3);
        let decoded = decode(&encode(&index)).unwrap();
        assert_eq!(encode(&decoded), encode(&index));
        assert_eq!(decoded.docs, index.docs);
        assert_eq!(decoded.terms.len(), index.terms.len());
    }

    #[test]
    fn times_read_back_in_any_order_and_absent() {
        let index = index_of(
            concat!(
                "{\"role\":\"user\",\"text\":\"a\",\"ts\":\"2026-05-14T09:00:00.750Z\"}\n",
                "{\"role\":\"user\",\"text\":\"b\"}\n",
                "{\"role\":\"user\",\"text\":\"c\",\"ts\":\"1969-12-31T23:59:59Z\"}\n",
                "{\"role\":\"user\",\"text\":\"d\",\"ts\":1778749200}\n",
                "{\"role\":\"user\",\"text\":\"e\",\"ts\":\"soon\"}\n",
                "{\"role\":\"user\",\"text\":\"f\",\"ts\":1e300}\n",
            )
            .as_bytes(),
        );
        let times: Vec<_> = index.docs.iter().map(|doc| doc.time).collect();
        assert_eq!(
            times,
            [
                Some(1_778_749_200),
                None,
                Some(-1),
                Some(1_778_749_200),
                None,
                None
            ]
        );
        assert_eq!(decode(&encode(&index)).unwrap(), index);
    }

    /// Every way the bytes can be wrong is `None`: each truncation, each
    /// flipped bit of a small index, another version with a right checksum.
    #[test]
    fn damage_of_any_kind_is_refused() {
        let bytes = encode(&index_of(b"{\"role\":\"user\",\"text\":\"alpha beta\"}\n"));
        for len in 0..bytes.len() {
            assert_eq!(decode(&bytes[..len]), None, "truncated to {len}");
        }
        for at in 0..bytes.len() {
            for bit in 0..8 {
                let mut damaged = bytes.clone();
                damaged[at] ^= 1 << bit;
                assert_eq!(decode(&damaged), None, "bit {bit} of byte {at}");
            }
        }
        let mut foreign = bytes[..bytes.len() - 8].to_vec();
        foreign[8..12].copy_from_slice(&(VERSION + 1).to_le_bytes());
        let checksum = hash64(&foreign);
        foreign.extend_from_slice(&checksum.to_le_bytes());
        assert_eq!(decode(&foreign), None);
    }

    /// A body that passes the checksum but lies (a posting past the last
    /// document, a count larger than the body) is refused without a panic
    /// or a huge allocation.
    #[test]
    fn a_consistent_checksum_over_lies_is_refused() {
        let seal = |body: &[u8]| {
            let mut out = MAGIC.to_vec();
            out.extend_from_slice(&VERSION.to_le_bytes());
            out.extend_from_slice(&(body.len() as u64).to_le_bytes());
            out.extend_from_slice(body);
            let checksum = hash64(&out);
            out.extend_from_slice(&checksum.to_le_bytes());
            out
        };
        // covered, lines, head, tail, total terms, a billion documents.
        let mut body = vec![10, 1];
        body.extend_from_slice(&[0; 16]);
        body.extend_from_slice(&[0, 0x80, 0x94, 0xEB, 0xDC, 0x03]);
        assert_eq!(decode(&seal(&body)), None);
        // No documents, one term whose posting names document 5.
        let mut body = vec![0, 0];
        body.extend_from_slice(&[0; 16]);
        body.extend_from_slice(&[0, 0, 1, 1, b'x', 1, 2, 5, 1]);
        assert_eq!(decode(&seal(&body)), None);
        // The same without the lie reads.
        let mut body = vec![0, 0];
        body.extend_from_slice(&[0; 16]);
        body.extend_from_slice(&[0, 0, 0]);
        assert!(decode(&seal(&body)).is_some());
    }
}

//! The index in memory: one document per valid log entry, and per term a
//! posting list of (document, term frequency) pairs, delta and varint
//! encoded as they are on disk. Built from the log's first byte, then
//! extended from the byte offset it covers: only whole lines (ending in
//! `\n`) are read, so an append in progress is left for the next search.
//!
//! A line is a document exactly when the log reader takes it: the same
//! parser (`parse_log_line`) and the same line cap ([`MAX_LINE_BYTES`]).

use std::fs::File;
use std::io;
use std::ops::Range;

use foldhash::HashMap;

use super::codec::{hash64, put_varint};
use super::stem::Stems;
use super::tokenize::{for_each_word, Words};
use crate::persistent_chat::fs::read_full_at;
use crate::persistent_chat::log::{parse_log_line, LogEntry, Role, MAX_LINE_BYTES};

/// The bytes at each end of the covered prefix that are fingerprinted.
pub(crate) const FINGERPRINT_BYTES: u64 = 4096;
const CHUNK_BYTES: usize = 1 << 20;

/// One entry of the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Doc {
    /// Where its line starts in the log.
    pub offset: u64,
    /// Its line's length, `\n` included.
    pub bytes: u32,
    /// Its 1-based line number.
    pub line: u64,
    /// How many terms it has (BM25's document length).
    pub terms: u32,
    /// [`hash64`] of its line, checked when it is read again for a hit.
    pub hash: u64,
    /// The low 32 bits of [`hash64`] of its `id` (UTF-16 LE), 0 without one:
    /// a window read by id compares it before reading the line.
    pub id_hash: u32,
    /// [`role_code`] of its role.
    pub role: u8,
    /// Its `ts` in UTC epoch seconds (rounded down), when it has one that
    /// reads as a time within [`MAX_TIME_SECONDS`] of 1970: the search's
    /// time words compare it.
    pub time: Option<i64>,
}

/// The latest (and, negated, the earliest) time an entry's `ts` may give:
/// JavaScript's `Date` range, 8.64e15 ms.
pub(crate) const MAX_TIME_SECONDS: i64 = 8_640_000_000_000;

/// An entry's time as the index keeps it.
pub(crate) fn entry_time(entry: &LogEntry) -> Option<i64> {
    let ms = entry.ts.as_ref()?.epoch_ms()?;
    let seconds = (ms / 1000.0).floor();
    (seconds.abs() <= MAX_TIME_SECONDS as f64).then_some(seconds as i64)
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Postings {
    /// Documents holding the term (BM25's document frequency).
    pub count: u32,
    /// The last document added (the base of the next delta).
    pub last: u32,
    /// `(document delta, frequency)` varint pairs, documents ascending; the
    /// first delta is from 0.
    pub bytes: Vec<u8>,
}

impl Postings {
    pub(crate) fn push(&mut self, doc: u32, frequency: u32) {
        let delta = if self.count == 0 {
            doc
        } else {
            doc - self.last
        };
        put_varint(&mut self.bytes, u64::from(delta));
        put_varint(&mut self.bytes, u64::from(frequency));
        self.count += 1;
        self.last = doc;
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Index {
    /// The log's first `covered` bytes are indexed; it ends after a `\n`.
    pub covered: u64,
    /// Lines (`\n`) in the covered prefix.
    pub lines: u64,
    /// [`fingerprint`] of the covered prefix.
    pub head: u64,
    pub tail: u64,
    pub docs: Vec<Doc>,
    /// Term → its number in `postings`.
    pub terms: HashMap<Box<str>, u32>,
    pub postings: Vec<Postings>,
    /// Sum of the documents' term counts.
    pub total_terms: u64,
}

pub(crate) fn role_code(role: Role) -> u8 {
    match role {
        Role::User => 0,
        Role::Assistant => 1,
        Role::System => 2,
        Role::Tool => 3,
    }
}

pub(crate) fn id_hash(id: Option<&[u16]>) -> u32 {
    let Some(id) = id else { return 0 };
    let bytes: Vec<u8> = id.iter().flat_map(|unit| unit.to_le_bytes()).collect();
    (hash64(&bytes) as u32).max(1)
}

/// The hashes of the first and the last [`FINGERPRINT_BYTES`] of the log's
/// first `covered` bytes, as read now; `None` when the log is shorter.
pub(crate) fn fingerprint(log: &File, covered: u64) -> io::Result<Option<(u64, u64)>> {
    let span = covered.min(FINGERPRINT_BYTES) as usize;
    let mut head = vec![0; span];
    let mut tail = vec![0; span];
    if read_full_at(log, &mut head, 0)? < span
        || read_full_at(log, &mut tail, covered - span as u64)? < span
    {
        return Ok(None);
    }
    Ok(Some((hash64(&head), hash64(&tail))))
}

impl Index {
    /// An estimate of the heap this index holds (the cache's measure):
    /// its vectors' capacities and the term table's keys and slots.
    pub(crate) fn heap_bytes(&self) -> u64 {
        use std::mem::size_of;
        let term_slot = size_of::<(Box<str>, u32)>() + 1;
        let keys: usize = self.terms.keys().map(|term| term.len()).sum();
        let postings: usize = self.postings.iter().map(|p| p.bytes.capacity()).sum();
        (self.docs.capacity() * size_of::<Doc>()
            + self.terms.capacity() * term_slot
            + keys
            + self.postings.capacity() * size_of::<Postings>()
            + postings) as u64
    }

    /// Indexes the whole lines of `log` between `covered` and `end`.
    pub(crate) fn extend(&mut self, log: &File, end: u64) -> io::Result<()> {
        if end <= self.covered {
            return Ok(());
        }
        let mut builder = Builder {
            stems: Stems::default(),
            words: HashMap::default(),
            scratch: Vec::new(),
        };
        let mut chunk = vec![0u8; CHUNK_BYTES];
        let mut carry: Vec<u8> = Vec::new();
        let mut oversized = false;
        let mut pos = self.covered;
        crate::progress::expect(end - pos);
        while pos < end {
            let want = (end - pos).min(CHUNK_BYTES as u64) as usize;
            let got = read_full_at(log, &mut chunk[..want], pos)?;
            if got == 0 {
                break;
            }
            let buf = &chunk[..got];
            let mut from = 0;
            for newline in memchr::memchr_iter(b'\n', buf) {
                let start = self.covered;
                if oversized {
                    oversized = false;
                } else if carry.is_empty() {
                    builder.add(self, &buf[from..=newline], start);
                } else {
                    carry.extend_from_slice(&buf[from..=newline]);
                    if carry.len() <= MAX_LINE_BYTES + 1 {
                        builder.add(self, &carry, start);
                    }
                    carry.clear();
                }
                self.lines += 1;
                self.covered = pos + newline as u64 + 1;
                from = newline + 1;
            }
            if !oversized {
                carry.extend_from_slice(&buf[from..]);
                if carry.len() > MAX_LINE_BYTES + 1 {
                    oversized = true;
                    carry = Vec::new();
                }
            }
            pos += got as u64;
            crate::progress::advance(got as u64);
        }
        if let Some((head, tail)) = fingerprint(log, self.covered)? {
            self.head = head;
            self.tail = tail;
        }
        Ok(())
    }
}

struct Builder {
    stems: Stems,
    /// Folded word → its term's number, [`STOP`] for a stop word: one
    /// lookup per word (the stemmer runs once per distinct word).
    words: HashMap<Box<str>, u32>,
    /// The terms of the entry being added, by number.
    scratch: Vec<u32>,
}

const STOP: u32 = u32::MAX;
/// Past this many distinct terms a new term is not indexed: a log of random tokens cannot grow the index
/// in memory without bound (about 100 bytes a term). A real chat history of
/// 100 MB has well under a million.
#[cfg(not(test))]
pub(crate) const MAX_TERMS: usize = 1 << 21;
#[cfg(test)]
pub(crate) const MAX_TERMS: usize = 1000;
/// The word memo starts over past this many words (a log of random ids).
const MAX_WORDS: usize = 1 << 18;

struct Sink<'a> {
    words: &'a mut HashMap<Box<str>, u32>,
    stems: &'a Stems,
    terms: &'a mut HashMap<Box<str>, u32>,
    postings: &'a mut Vec<Postings>,
    scratch: &'a mut Vec<u32>,
}

impl Sink<'_> {
    fn number(&mut self, term: &str) -> u32 {
        if let Some(&number) = self.terms.get(term) {
            return number;
        }
        if self.postings.len() >= MAX_TERMS {
            return STOP;
        }
        let number = self.postings.len() as u32;
        self.terms.insert(term.into(), number);
        self.postings.push(Postings::default());
        number
    }
}

impl Words for Sink<'_> {
    fn word(&mut self, folded: &str, _at: Range<usize>) {
        let number = match self.words.get(folded) {
            Some(&number) => number,
            None => {
                let number = match self.stems.compute(folded) {
                    Some(term) => self.number(&term),
                    None => STOP,
                };
                if self.words.len() >= MAX_WORDS {
                    self.words.clear();
                }
                self.words.insert(folded.into(), number);
                number
            }
        };
        if number != STOP {
            self.scratch.push(number);
        }
    }

    fn gram(&mut self, gram: &str, _at: Range<usize>, _unigram: bool) {
        let number = self.number(gram);
        if number != STOP {
            self.scratch.push(number);
        }
    }
}

impl Builder {
    /// Adds the line at `offset` (its `\n` included) when it is an entry.
    fn add(&mut self, index: &mut Index, line: &[u8], offset: u64) {
        let Some(entry) = parse_log_line(line) else {
            return;
        };
        let Ok(doc) = u32::try_from(index.docs.len()) else {
            return;
        };
        self.scratch.clear();
        let text = String::from_utf16_lossy(&entry.text);
        for_each_word(
            &text,
            &mut Sink {
                words: &mut self.words,
                stems: &self.stems,
                terms: &mut index.terms,
                postings: &mut index.postings,
                scratch: &mut self.scratch,
            },
        );
        let count = self.scratch.len() as u32;
        self.scratch.sort_unstable();
        for run in self.scratch.chunk_by(|a, b| a == b) {
            index.postings[run[0] as usize].push(doc, run.len() as u32);
        }
        index.total_terms += u64::from(count);
        index
            .docs
            .push(doc_of(&entry, line, offset, index.lines + 1, count));
    }
}

fn doc_of(entry: &LogEntry, line: &[u8], offset: u64, number: u64, terms: u32) -> Doc {
    Doc {
        offset,
        bytes: line.len() as u32,
        line: number,
        terms,
        hash: hash64(line),
        id_hash: id_hash(entry.id.as_deref()),
        role: role_code(entry.role),
        time: entry_time(entry),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;

    #[test]
    fn distinct_terms_are_capped_and_the_first_kept() {
        let dir = TempDir::new("search-index");
        let mut log = String::new();
        for n in 0..1500 {
            log.push_str(&format!(
                "{{\"role\":\"user\",\"text\":\"id{n:05} common\"}}\n"
            ));
        }
        let path = dir.file("log.jsonl", log.as_bytes());
        let file = File::open(path).unwrap();
        let mut index = Index::default();
        index.extend(&file, file.metadata().unwrap().len()).unwrap();
        assert_eq!(index.terms.len(), MAX_TERMS);
        assert_eq!(index.docs.len(), 1500);
        assert!(index.terms.contains_key("id00000"));
        assert!(!index.terms.contains_key("id01499"));
        let common = index.terms["common"] as usize;
        assert_eq!(index.postings[common].count, 1500);
    }
}

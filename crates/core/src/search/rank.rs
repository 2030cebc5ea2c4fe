//! Ranking: BM25+ over entries, the next turn, and time.
//!
//! In a chat the answer is often the turn after the one that matches the
//! question's words ("what did we decide about X?" matches the turn that
//! asked about X; the decision is the reply). So an entry scores the better
//! of its own BM25 score and a share ([`NEXT_TURN`]) of the entry's just
//! before it: the reply to a matching turn ranks close behind it, above
//! entries that match nothing, without outranking entries that match well
//! on their own. The better of the two, not their sum: a sum lifts every
//! turn of a run of turns that all name the subject (a question about it
//! and its routine answer) above a single turn that states the fact.
//!
//! A query's time words (`when`) lift the entries of their spans
//! ([`TIME_BOOST`], fading outside by [`FADE`]); between equal scores the
//! entry nearer the spans ranks first, then the newer.

use foldhash::{HashSet, HashSetExt};

use super::format::postings_iter;
use super::index::Index;
use super::stem::Stems;
use super::tokenize::for_each_term;
use super::when::{Event, Span, TimeWords};

/// BM25's term frequency saturation and length normalisation. Measured on
/// the paraphrase set (benchmark/search-quality.mjs, 400 questions a seed):
/// k1 from 0.8 to 2 and b from 0.3 to 0.9 move top-10 recall by at most 1.5
/// points, so the usual values stay.
pub(crate) const K1: f32 = 1.2;
pub(crate) const B: f32 = 0.75;
/// BM25+'s lower bound (Lv and Zhai, "Lower-bounding term frequency
/// normalization", CIKM 2011; their value): a matched term counts at least
/// `DELTA × idf` however long the entry, so a long entry that states a fact
/// is not buried under short ones that only name its subject. On the
/// paraphrase set it lifts top-10 recall of questions answered by the
/// matching turn from 74.5–77.2 % to 78.9–83.4 % (three seeds, plain BM25).
pub(crate) const DELTA: f32 = 1.0;
/// The share of the previous entry's score an entry may take instead of its
/// own. On the paraphrase set (benchmark/search-quality.mjs, eleven seeds
/// of 400 questions; top-10 recall of all questions / of those answered by
/// the next turn / by the matching turn): the sum of an entry's own score
/// and 0.7 of the previous one's gave 68.9 / 65.1 / 72.9 %; the better of
/// the two with 0.75, 70.1 / 66.1 / 74.3 %; with 0.8, 71.3 / 68.6 / 74.2 %
/// (no seed below the sum's on either kind); with 0.9, 71.3 / 75.1 / 67.3 %
/// (a reply outranks turns that state a fact). 0.8 is below that knee.
/// Without a share, BM25+ alone: 2–5 % of the first kind, 79–83 % of the
/// second (three seeds).
pub(crate) const NEXT_TURN: f32 = 0.8;
/// The lift of an entry whose time falls in a span of the query's time
/// words: its score times `1 + TIME_BOOST` (an entry near the span less, by
/// [`FADE`]; an entry without a time, none). A lift, not a filter: a
/// better text match outside the span still ranks. Measured on the
/// temporal questions of benchmark/search-quality.mjs (see
/// docs/performance.md).
pub(crate) const TIME_BOOST: f32 = 2.0;
/// An entry outside a span gets `FADE × scale / (scale + distance)` of
/// the lift, the scale being the span's length from a day to a month (a
/// week for an open span): the day after "yesterday" a little, a month
/// away almost nothing; nearer is always more.
pub(crate) const FADE: f32 = 0.5;

/// Words of asking: with time words and nothing else (stop words aside) a
/// query is about time only ("what did we talk about yesterday?"), and
/// gives the entries of that time.
const ASKING: &[&str] = &[
    "happen",
    "happened",
    "talk",
    "talked",
    "discuss",
    "discussed",
    "discussion",
    "say",
    "said",
    "tell",
    "told",
    "mention",
    "mentioned",
    "chat",
    "chatted",
    "speak",
    "spoke",
    "go",
    "went",
    "going",
    "anything",
    "something",
    "everything",
    "show",
    "message",
    "messages",
    "conversation",
    "conversations",
    "recap",
    "summary",
    "summarize",
    "remind",
    "ask",
    "asked",
    "work",
    "worked",
    "us",
    "we",
    "i",
    "you",
    "new",
    "entries",
    "entry",
    "log",
    "logs",
];

/// A query term found in the index, with its inverse document frequency.
#[derive(Debug, Clone)]
pub(crate) struct QueryTerm {
    pub text: String,
    pub number: u32,
    pub idf: f32,
}

/// The query's terms that occur in the index (the others are ignored):
/// each once; a single character of a script without spaces only when no
/// pair of characters around it is in the query; none that a time
/// expression took. And whether the query is about time only: it has time
/// words and no term but stop words and words of asking ([`ASKING`]).
/// Linear in the query's terms (hash sets, not a scan per term): a live
/// message searched on a reload can hold thousands of them.
pub(crate) fn query_terms(index: &Index, query: &str, time: &TimeWords) -> (Vec<QueryTerm>, bool) {
    let mut stems = Stems::default();
    let mut found: Vec<(String, std::ops::Range<usize>, bool)> = Vec::new();
    for_each_term(query, &mut stems, |term| {
        if !time.takes(&term.at) {
            found.push((term.text.to_owned(), term.at, term.unigram));
        }
    });
    let only_time = (!time.spans.is_empty() || !time.events.is_empty()) && {
        let asking: HashSet<String> = ASKING
            .iter()
            .filter_map(|word| stems.term(word).map(str::to_owned))
            .collect();
        found.iter().all(|(text, _, _)| asking.contains(text))
    };
    if only_time {
        return (Vec::new(), true);
    }
    // A pair is two neighbouring characters of one run, a unigram one of
    // them: a pair holds a unigram exactly when it starts where the
    // unigram starts or ends where it ends.
    let mut pair_starts: HashSet<usize> = HashSet::new();
    let mut pair_ends: HashSet<usize> = HashSet::new();
    for (text, at, unigram) in &found {
        if !unigram && text.chars().all(super::tokenize::is_unspaced) {
            pair_starts.insert(at.start);
            pair_ends.insert(at.end);
        }
    }
    let docs = index.docs.len() as f32;
    let mut seen: HashSet<String> = HashSet::with_capacity(found.len());
    let mut terms: Vec<QueryTerm> = Vec::new();
    for (text, at, unigram) in found {
        if unigram && (pair_starts.contains(&at.start) || pair_ends.contains(&at.end)) {
            continue;
        }
        if !seen.insert(text.clone()) {
            continue;
        }
        let Some(&number) = index.terms.get(text.as_str()) else {
            continue;
        };
        let Some(postings) = index.postings.get(number as usize) else {
            continue;
        };
        let df = postings.count as f32;
        let idf = (1.0 + (docs - df + 0.5) / (df + 0.5)).ln();
        terms.push(QueryTerm { text, number, idf });
    }
    (terms, false)
}

/// The spans of the query's events ("before the migration"): each event's
/// words ranked as a query of their own, and the best entry's time the
/// span's edge. An event no entry with a time matches gives none (its words
/// are no text terms either). One ranking per event, at most
/// [`super::when::MAX_SPANS`] of them.
pub(crate) fn event_spans(index: &Index, query: &str, events: &[Event]) -> Vec<Span> {
    events
        .iter()
        .filter_map(|event| {
            let words = query.get(event.words.clone())?;
            let (terms, _) = query_terms(index, words, &TimeWords::default());
            let &(doc, _) = rank(index, &terms, &[], false, 1).first()?;
            let at = index.docs.get(doc)?.time?.saturating_mul(1000);
            Some(event.edge.of(at))
        })
        .collect()
}

/// How much of [`TIME_BOOST`] an entry of `time` (epoch seconds) gets for
/// `spans`: 1 inside one, less with the distance outside, 0 without a time.
pub(crate) fn closeness(time: Option<i64>, spans: &[Span]) -> f32 {
    let Some(seconds) = time else { return 0.0 };
    let at = seconds.saturating_mul(1000);
    spans
        .iter()
        .map(|span| match span.distance(at) {
            0 => 1.0,
            distance => {
                let scale = span.scale() as f32;
                FADE * scale / (scale + distance as f32)
            }
        })
        .fold(0.0, f32::max)
}

/// How far an entry of `time` is from the nearest span (ties go to the
/// nearer date); without spans 0, without a time the farthest.
fn distance(time: Option<i64>, spans: &[Span]) -> i64 {
    if spans.is_empty() {
        return 0;
    }
    let Some(seconds) = time else { return i64::MAX };
    let at = seconds.saturating_mul(1000);
    spans
        .iter()
        .map(|span| span.distance(at))
        .min()
        .unwrap_or(i64::MAX)
}

/// The best `limit` entries for `terms`, best first, as (document, score).
/// With `spans` (the query's time words), each entry's score is lifted by
/// its [`closeness`] to them; `only_time` (no terms): the entries whose
/// time falls in a span, newest first, each scoring 1.
pub(crate) fn rank(
    index: &Index,
    terms: &[QueryTerm],
    spans: &[Span],
    only_time: bool,
    limit: usize,
) -> Vec<(usize, f32)> {
    let docs = index.docs.len();
    if docs == 0 || limit == 0 {
        return Vec::new();
    }
    if terms.is_empty() {
        if !only_time || spans.is_empty() {
            return Vec::new();
        }
        return (0..docs)
            .rev()
            .filter(|&doc| distance(index.docs[doc].time, spans) == 0)
            .take(limit)
            .map(|doc| (doc, 1.0))
            .collect();
    }
    let average = (index.total_terms as f32 / docs as f32).max(1.0);
    let mut scores = vec![0f32; docs];
    for term in terms {
        let Some(postings) = index.postings.get(term.number as usize) else {
            continue;
        };
        for (doc, frequency) in postings_iter(postings, docs) {
            let length = index.docs[doc].terms as f32;
            let tf = frequency as f32;
            let norm = K1 * (1.0 - B + B * length / average);
            scores[doc] += term.idf * (tf * (K1 + 1.0) / (tf + norm) + DELTA);
        }
    }
    // (document, score, distance from the query's time)
    let mut ranked: Vec<(usize, f32, i64)> = Vec::new();
    let mut previous = 0f32;
    for (doc, &own) in scores.iter().enumerate() {
        let mut score = own.max(NEXT_TURN * previous);
        previous = own;
        if score > 0.0 {
            let time = index.docs[doc].time;
            if !spans.is_empty() {
                score *= 1.0 + TIME_BOOST * closeness(time, spans);
            }
            ranked.push((doc, score, distance(time, spans)));
        }
    }
    // Best first; between equals, the nearer to the query's time, then the newer entry.
    let order = |a: &(usize, f32, i64), b: &(usize, f32, i64)| {
        b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)).then(b.0.cmp(&a.0))
    };
    if ranked.len() > limit {
        ranked.select_nth_unstable_by(limit - 1, order);
        ranked.truncate(limit);
    }
    ranked.sort_unstable_by(order);
    ranked
        .into_iter()
        .map(|(doc, score, _)| (doc, score))
        .collect()
}

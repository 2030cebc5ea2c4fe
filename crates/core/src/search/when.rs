//! A query's time words: the English expressions of a day, a week, a month
//! or a year ("yesterday", "last week", "in May", "May 2026", "14 March",
//! "March 14th", "last Tuesday", "2026-05-14", "3 days ago", "before
//! May 14", "since last month"…), read from the query's text and turned
//! into spans of time ([`Span`]) by the search's `now` and time zone.
//!
//! The ranking lifts entries whose time falls in a span (and, less, those
//! near one); a query whose only words are time words, stop words and words
//! of asking ("what happened yesterday?") gives the entries of that time.
//! The words a time expression takes are not text terms of the query ("last
//! week" finds no entry by the words "last" and "week").
//!
//! Words that are also ordinary words are time words only where the rest
//! says so: `may`, `march` and the month abbreviations only after a word
//! such as `in`, `since`, `before`, `during`, `of`, or next to a day number
//! or a year (`may 14`, `14 march`, `may 2026`; after a bare number `may`
//! needs an ordinal, `of` or a year: `3 may fail` is a verb); a year only
//! after such a word or a month (`in 2026`), never a number alone. Linear in the query: one
//! pass over its words, each expression a few words long, at most
//! [`MAX_SPANS`] expressions used.

use std::ops::Range;

use super::stem::is_stop_word;
use super::zone::{civil, day_number, days_in_month, Zone, MS_PER_DAY};

/// At most this many time expressions of a query are used (the rest are
/// left as they are: text terms).
pub(crate) const MAX_SPANS: usize = 8;

/// A span of time, `[start, end)` in UTC epoch milliseconds; an open end is
/// `i64::MIN` or `i64::MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: i64,
    pub end: i64,
}

impl Span {
    /// 0 inside, else how far `at` (ms) is from the span.
    pub(crate) fn distance(&self, at: i64) -> i64 {
        if at < self.start {
            self.start.saturating_sub(at)
        } else if at >= self.end {
            at.saturating_sub(self.end).saturating_add(1)
        } else {
            0
        }
    }

    /// How far out of the span its lift fades to half: its length, from a
    /// day to a month (an open span: a week).
    pub(crate) fn scale(&self) -> i64 {
        if self.start == i64::MIN || self.end == i64::MAX {
            return 7 * MS_PER_DAY;
        }
        self.end
            .saturating_sub(self.start)
            .clamp(MS_PER_DAY, 31 * MS_PER_DAY)
    }
}

/// An event the query places itself before or after ("before the
/// migration", "since our offsite"): the search finds the entry that best
/// matches its words, and that entry's time is the edge of the span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Event {
    pub edge: Edge,
    /// The event's words (bytes of the query).
    pub words: Range<usize>,
}

/// Which side of a time a span takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Edge {
    /// `before`, `until`, `till`: up to it.
    Before,
    /// `after`: from the second after it (a day: the day after).
    After,
    /// `since`: from it on.
    Since,
}

impl Edge {
    /// The span on this side of an event's instant (ms).
    pub(crate) fn of(self, at: i64) -> Span {
        match self {
            Edge::Before => Span {
                start: i64::MIN,
                end: at,
            },
            Edge::After => Span {
                start: at.saturating_add(1000),
                end: i64::MAX,
            },
            Edge::Since => Span {
                start: at,
                end: i64::MAX,
            },
        }
    }
}

/// The time expressions of a query.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct TimeWords {
    pub spans: Vec<Span>,
    /// Events to find in the log (each becomes a span there).
    pub events: Vec<Event>,
    /// The query's bytes the expressions took (ascending).
    pub consumed: Vec<Range<usize>>,
}

impl TimeWords {
    /// Whether the term at `at` (bytes of the query) belongs to a time expression.
    pub(crate) fn takes(&self, at: &Range<usize>) -> bool {
        let i = self.consumed.partition_point(|r| r.end <= at.start);
        self.consumed
            .get(i)
            .is_some_and(|r| r.start <= at.start && at.end <= r.end)
    }
}

/// The time expressions of `query`, read at `now_ms` in `zone`.
pub(crate) fn time_words(query: &str, now_ms: i64, zone: &Zone) -> TimeWords {
    let tokens = lex(query);
    let today = zone.day_of(now_ms);
    let reader = Reader {
        query,
        tokens: &tokens,
        today,
        zone,
    };
    let mut out = TimeWords::default();
    let mut i = 0;
    while i < tokens.len() && out.spans.len() + out.events.len() < MAX_SPANS {
        match reader.expression(i) {
            Some((found, next)) => {
                match found {
                    Found::Span(span) => out.spans.push(span),
                    Found::Event(event) => out.events.push(event),
                }
                out.consumed
                    .push(tokens[i].at.start..tokens[next - 1].at.end);
                i = next;
            }
            None => i += 1,
        }
    }
    out
}

enum Found {
    Span(Span),
    Event(Event),
}

/// The most words an event's name takes ("the datacenter migration plan": 3).
const MAX_EVENT_WORDS: usize = 3;

/// Words that end an event's name: time words after it ("before the launch
/// last week") and words that name no event ("until our next…").
const EVENT_ENDS: &[&str] = &[
    "regarding",
    "concerning",
    "last",
    "this",
    "next",
    "past",
    "previous",
    "yesterday",
    "today",
    "tonight",
    "tomorrow",
    "ago",
    "now",
    "later",
    "soon",
    "recently",
    "ever",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Word,
    /// Digits (at most 4), and whether an ordinal suffix followed (`14th`).
    Number(u32, bool),
    /// `yyyy-mm-dd` or `yyyy-mm`.
    Iso(i64, u32, Option<u32>),
}

#[derive(Debug)]
struct Token {
    /// Lower-case ASCII (empty for a number or an ISO date).
    text: String,
    kind: Kind,
    at: Range<usize>,
}

/// The longest word a time expression uses ("september", "yesterday").
const MAX_WORD: usize = 12;

/// Runs of ASCII letters and of digits; `yyyy-mm-dd` and `yyyy-mm` as one
/// token; a possessive `'s` dropped (`yesterday's`). Anything else separates.
fn lex(query: &str) -> Vec<Token> {
    let bytes = query.as_bytes();
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let b = bytes[at];
        if b.is_ascii_alphabetic() {
            let start = at;
            while at < bytes.len() && bytes[at].is_ascii_alphanumeric() {
                at += 1;
            }
            let word = &query[start..at];
            let text = if word.len() <= MAX_WORD && word.bytes().all(|b| b.is_ascii_alphabetic()) {
                word.to_ascii_lowercase()
            } else {
                String::new()
            };
            tokens.push(Token {
                text,
                kind: Kind::Word,
                at: start..at,
            });
            at = skip_possessive(query, at);
        } else if b.is_ascii_digit() {
            let start = at;
            while at < bytes.len() && bytes[at].is_ascii_digit() {
                at += 1;
            }
            let digits = &query[start..at];
            if let Some((kind, end)) = iso(bytes, start, at) {
                tokens.push(Token {
                    text: String::new(),
                    kind,
                    at: start..end,
                });
                at = end;
                continue;
            }
            // An ordinal suffix, or letters glued to the digits (`v2`, `10am`).
            let mut end = at;
            while end < bytes.len() && bytes[end].is_ascii_alphanumeric() {
                end += 1;
            }
            let suffix = query[at..end].to_ascii_lowercase();
            let ordinal = matches!(suffix.as_str(), "st" | "nd" | "rd" | "th");
            let kind = match digits.parse::<u32>() {
                Ok(n) if digits.len() <= 4 && (suffix.is_empty() || ordinal) => {
                    Kind::Number(n, ordinal)
                }
                _ => Kind::Word,
            };
            tokens.push(Token {
                text: String::new(),
                kind,
                at: start..end,
            });
            at = end;
        } else {
            at += 1;
        }
    }
    tokens
}

fn skip_possessive(query: &str, at: usize) -> usize {
    let rest = &query[at..];
    for apostrophe in ["'", "\u{2019}"] {
        if let Some(after) = rest.strip_prefix(apostrophe) {
            let mut chars = after.chars();
            if matches!(chars.next(), Some('s' | 'S'))
                && !chars.next().is_some_and(|c| c.is_alphanumeric())
            {
                return at + apostrophe.len() + 1;
            }
        }
    }
    at
}

/// `yyyy-mm-dd` or `yyyy-mm` starting at `start` (4 digits up to `digits_end`).
fn iso(bytes: &[u8], start: usize, digits_end: usize) -> Option<(Kind, usize)> {
    if digits_end - start != 4 {
        return None;
    }
    let two = |at: usize| -> Option<u32> {
        let pair = bytes.get(at..at + 2)?;
        if !pair.iter().all(u8::is_ascii_digit) || bytes.get(at + 2).is_some_and(u8::is_ascii_digit)
        {
            return None;
        }
        Some(u32::from(pair[0] - b'0') * 10 + u32::from(pair[1] - b'0'))
    };
    let year = std::str::from_utf8(&bytes[start..digits_end])
        .ok()?
        .parse::<i64>()
        .ok()?;
    if bytes.get(digits_end) != Some(&b'-') {
        return None;
    }
    let month = two(digits_end + 1)?;
    if !(1..=12).contains(&month) {
        return None;
    }
    let after_month = digits_end + 3;
    if bytes.get(after_month) == Some(&b'-') {
        if let Some(day) = two(after_month + 1) {
            day_number(year, month, day)?;
            return Some((Kind::Iso(year, month, Some(day)), after_month + 3));
        }
    }
    Some((Kind::Iso(year, month, None), after_month))
}

/// Words after which a month name or a year is a time word.
const CONTEXT: &[&str] = &[
    "in",
    "during",
    "since",
    "before",
    "after",
    "until",
    "till",
    "by",
    "of",
    "early",
    "late",
    "mid",
    "from",
    "on",
    "around",
    "last",
    "this",
    "throughout",
];

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];
const MONTH_ABBREVIATIONS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const WEEKDAYS: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// A month name: its number, and whether it is also an ordinary word (it
/// then needs a context).
fn month(word: &str) -> Option<(u32, bool)> {
    if let Some(at) = MONTHS.iter().position(|m| *m == word) {
        return Some((at as u32 + 1, matches!(word, "may" | "march")));
    }
    if word == "sept" {
        return Some((9, true));
    }
    MONTH_ABBREVIATIONS
        .iter()
        .position(|m| *m == word)
        .map(|at| (at as u32 + 1, true))
}

/// A weekday, Monday 0.
fn weekday(word: &str) -> Option<i64> {
    WEEKDAYS.iter().position(|d| *d == word).map(|d| d as i64)
}

/// A count in words or digits (1 to 1,000).
fn count(token: &Token) -> Option<i64> {
    if let Kind::Number(n, false) = token.kind {
        return (1..=1000).contains(&n).then_some(i64::from(n));
    }
    let n = match token.text.as_str() {
        "a" | "an" | "one" => 1,
        "two" | "couple" => 2,
        "three" | "few" => 3,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "seven" => 7,
        "eight" => 8,
        "nine" => 9,
        "ten" => 10,
        "eleven" => 11,
        "twelve" => 12,
        _ => return None,
    };
    Some(n)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Day,
    Week,
    Month,
    Year,
}

fn unit(word: &str) -> Option<Unit> {
    Some(match word {
        "day" | "days" => Unit::Day,
        "week" | "weeks" => Unit::Week,
        "month" | "months" => Unit::Month,
        "year" | "years" => Unit::Year,
        _ => return None,
    })
}

/// Local days `[from, to)`.
type Days = (i64, i64);

struct Reader<'t> {
    query: &'t str,
    tokens: &'t [Token],
    today: i64,
    zone: &'t Zone,
}

impl Reader<'_> {
    fn word(&self, at: usize) -> &str {
        self.tokens.get(at).map_or("", |t| t.text.as_str())
    }

    fn kind(&self, at: usize) -> Option<Kind> {
        self.tokens.get(at).map(|t| t.kind)
    }

    /// A time expression starting at token `i`: its span (or the event it
    /// is before or after) and the token after it.
    fn expression(&self, i: usize) -> Option<(Found, usize)> {
        let edge = match self.word(i) {
            "before" | "until" | "till" => Some(Edge::Before),
            "after" => Some(Edge::After),
            "since" => Some(Edge::Since),
            _ => None,
        };
        let start = i + usize::from(edge.is_some());
        let context = edge.is_some()
            || i.checked_sub(1)
                .is_some_and(|before| CONTEXT.contains(&self.word(before)));
        let Some(((from, to), next)) = self.period(start, context) else {
            let edge = edge?;
            let (words, next) = self.event(start)?;
            return Some((Found::Event(Event { edge, words }), next));
        };
        let day_start = |day: i64| self.zone.day_start(day);
        let span = match edge {
            None => Span {
                start: day_start(from),
                end: day_start(to),
            },
            Some(Edge::Before) => Edge::Before.of(day_start(from)),
            Some(Edge::After) => Span {
                start: day_start(to),
                end: i64::MAX,
            },
            Some(Edge::Since) => Edge::Since.of(day_start(from)),
        };
        Some((Found::Span(span), next))
    }

    /// An event's name after `before`/`after`/`since` at token `j`: an
    /// article or a possessive (`the`, `our`, `my`…), then up to
    /// [`MAX_EVENT_WORDS`] words with only spaces between them, none a stop
    /// word or one of [`EVENT_ENDS`]. Its bytes, and the token after it.
    fn event(&self, j: usize) -> Option<(Range<usize>, usize)> {
        if !matches!(
            self.word(j),
            "the" | "our" | "my" | "their" | "your" | "his" | "her"
        ) {
            return None;
        }
        let first = j + 1;
        let mut end = first;
        while let Some(token) = self.tokens.get(end) {
            let word = self.query[token.at.clone()].to_ascii_lowercase();
            let spaced = end == first
                || self.query[self.tokens[end - 1].at.end..token.at.start]
                    .bytes()
                    .all(|b| b == b' ');
            if end - first == MAX_EVENT_WORDS
                || token.kind != Kind::Word
                || !spaced
                || is_stop_word(&word)
                || EVENT_ENDS.contains(&word.as_str())
            {
                break;
            }
            end += 1;
        }
        (end > first).then(|| {
            (
                self.tokens[first].at.start..self.tokens[end - 1].at.end,
                end,
            )
        })
    }

    fn this_monday(&self) -> i64 {
        // 1970-01-01 was a Thursday (Monday-based weekday 3).
        self.today - (self.today + 3).rem_euclid(7)
    }

    /// The most recent `weekday` before today.
    fn last_weekday(&self, weekday: i64) -> Days {
        let today = (self.today + 3).rem_euclid(7);
        let back = (today - weekday - 1).rem_euclid(7) + 1;
        (self.today - back, self.today - back + 1)
    }

    fn month_days(year: i64, month: u32) -> Option<Days> {
        let first = day_number(year, month, 1)?;
        Some((first, first + i64::from(days_in_month(year, month))))
    }

    /// `months` months before this one.
    fn months_back(&self, months: i64) -> Option<Days> {
        let (year, month, _) = civil(self.today);
        let index = year * 12 + i64::from(month) - 1 - months;
        Self::month_days(index.div_euclid(12), (index.rem_euclid(12) + 1) as u32)
    }

    fn year_days(year: i64) -> Option<Days> {
        Some((day_number(year, 1, 1)?, day_number(year + 1, 1, 1)?))
    }

    /// The most recent `month` up to this one.
    fn recent_month(&self, month: u32) -> Option<Days> {
        let (year, now_month, _) = civil(self.today);
        Self::month_days(if month > now_month { year - 1 } else { year }, month)
    }

    /// The most recent `month`/`day` up to today.
    fn recent_day(&self, month: u32, day: u32) -> Option<Days> {
        let (year, _, _) = civil(self.today);
        [year, year - 1, year - 2, year - 3, year - 4]
            .into_iter()
            .filter_map(|year| day_number(year, month, day))
            .find(|&at| at <= self.today)
            .map(|at| (at, at + 1))
    }

    /// A period starting at token `j`: local days, and the token after it.
    /// `context`: the word before makes a month name or a year a time word.
    fn period(&self, j: usize, context: bool) -> Option<(Days, usize)> {
        let today = self.today;
        match self.kind(j)? {
            Kind::Iso(year, month, Some(day)) => {
                let at = day_number(year, month, day)?;
                return Some(((at, at + 1), j + 1));
            }
            Kind::Iso(year, month, None) => return Some((Self::month_days(year, month)?, j + 1)),
            Kind::Number(n, ordinal) => return self.numbered(j, n, ordinal, context),
            Kind::Word => {}
        }
        let word = self.word(j);
        match word {
            "today" | "tonight" => return Some(((today, today + 1), j + 1)),
            "yesterday" => return Some(((today - 1, today), j + 1)),
            "day" if self.word(j + 1) == "before" && self.word(j + 2) == "yesterday" => {
                return Some(((today - 2, today - 1), j + 3))
            }
            "this" | "last" | "past" | "previous" => {
                if let Some(found) = self.relative(j, word) {
                    return Some(found);
                }
            }
            _ => {}
        }
        if let Some(found) = self.ago(j) {
            return Some(found);
        }
        if let Some(weekday) = weekday(word) {
            return Some((self.last_weekday(weekday), j + 1));
        }
        let (month, ambiguous) = month(word)?;
        // `May 14`, `May 14th 2026`.
        if let Some(Kind::Number(day, _)) = self.kind(j + 1) {
            if (1..=31).contains(&day) {
                if let Some(year) = self.year_at(j + 2) {
                    let at = day_number(year, month, day)?;
                    return Some(((at, at + 1), j + 3));
                }
                return Some((self.recent_day(month, day)?, j + 2));
            }
        }
        // `May 2026`, `May of 2026`.
        let of = usize::from(self.word(j + 1) == "of");
        if let Some(year) = self.year_at(j + 1 + of) {
            return Some((Self::month_days(year, month)?, j + 2 + of));
        }
        if ambiguous && !context {
            return None;
        }
        Some((self.recent_month(month)?, j + 1))
    }

    fn year_at(&self, at: usize) -> Option<i64> {
        match self.kind(at)? {
            Kind::Number(year, false) if (1970..=2100).contains(&year) => Some(i64::from(year)),
            _ => None,
        }
    }

    /// A period starting with a number: `14 May [2026]`, `14th of March`, a
    /// year after a context word (`in 2026`), `3 days ago`.
    fn numbered(&self, j: usize, n: u32, ordinal: bool, context: bool) -> Option<(Days, usize)> {
        if let Some(found) = self.ago(j) {
            return Some(found);
        }
        if (1..=31).contains(&n) {
            let of = usize::from(self.word(j + 1) == "of");
            let name = self.word(j + 1 + of);
            if let Some((month, _)) = month(name) {
                if let Some(year) = self.year_at(j + 2 + of) {
                    let at = day_number(year, month, n)?;
                    return Some(((at, at + 1), j + 3 + of));
                }
                // `3 may fail`: a modal verb after a count.
                if name == "may" && !ordinal && of == 0 && !context {
                    return None;
                }
                return Some((self.recent_day(month, n)?, j + 2 + of));
            }
        }
        if context && !ordinal {
            let year = self.year_at(j)?;
            return Some((Self::year_days(year)?, j + 1));
        }
        None
    }

    /// `N days ago`, `a week ago`, `a couple of months ago`.
    fn ago(&self, j: usize) -> Option<(Days, usize)> {
        let n = count(self.tokens.get(j)?)?;
        let of = usize::from(matches!(self.word(j), "couple" | "few") && self.word(j + 1) == "of");
        let unit = unit(self.word(j + 1 + of))?;
        if self.word(j + 2 + of) != "ago" {
            return None;
        }
        let today = self.today;
        let days = match unit {
            Unit::Day => (today - n, today - n + 1),
            Unit::Week => (today - 7 * n - 3, today - 7 * n + 4),
            Unit::Month => self.months_back(n)?,
            Unit::Year => Self::year_days(civil(today).0 - n)?,
        };
        Some((days, j + 3 + of))
    }

    /// `this week`, `last month`, `past year`, `last 3 days`, `last Tuesday`,
    /// `last May`, `this weekend`, `last night`.
    fn relative(&self, j: usize, which: &str) -> Option<(Days, usize)> {
        let today = self.today;
        let monday = self.this_monday();
        let this = which == "this";
        let next = self.word(j + 1);
        let days = match next {
            "week" => match which {
                "this" => (monday, monday + 7),
                "past" => (today - 6, today + 1),
                _ => (monday - 7, monday),
            },
            "weekend" => {
                if this {
                    (monday + 5, monday + 7)
                } else {
                    (monday - 2, monday)
                }
            }
            "month" => match which {
                "this" => self.months_back(0)?,
                "past" => (today - 30, today + 1),
                _ => self.months_back(1)?,
            },
            "year" => match which {
                "this" => Self::year_days(civil(today).0)?,
                "past" => (today - 365, today + 1),
                _ => Self::year_days(civil(today).0 - 1)?,
            },
            "morning" | "afternoon" | "evening" if this => (today, today + 1),
            "night" if which == "last" => (today - 1, today + 1),
            _ => {
                if let Some(weekday) = weekday(next) {
                    if this {
                        (monday + weekday, monday + weekday + 1)
                    } else {
                        self.last_weekday(weekday)
                    }
                } else if let Some((month, _)) = month(next) {
                    let (year, now_month, _) = civil(today);
                    if this {
                        Self::month_days(year, month)?
                    } else {
                        Self::month_days(if month < now_month { year } else { year - 1 }, month)?
                    }
                } else if !this {
                    // `last 3 days`, `past two weeks`.
                    let n = count(self.tokens.get(j + 1)?)?;
                    let back = match unit(self.word(j + 2))? {
                        Unit::Day => n,
                        Unit::Week => 7 * n,
                        Unit::Month => 30 * n,
                        Unit::Year => 365 * n,
                    };
                    return Some(((today - back + 1, today + 1), j + 3));
                } else {
                    return None;
                }
            }
        };
        Some((days, j + 2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = MS_PER_DAY;

    fn at(year: i64, month: u32, day: u32) -> i64 {
        day_number(year, month, day).unwrap() * DAY
    }

    /// Thursday 2026-05-14, 09:00 UTC.
    fn now() -> i64 {
        at(2026, 5, 14) + 9 * 3_600_000
    }

    fn days(query: &str) -> Vec<(String, String)> {
        let show = |ms: i64| {
            if ms == i64::MIN || ms == i64::MAX {
                return "open".to_owned();
            }
            let (y, m, d) = civil(ms.div_euclid(DAY));
            format!("{y}-{m:02}-{d:02}")
        };
        time_words(query, now(), &Zone::UTC)
            .spans
            .iter()
            .map(|s| (show(s.start), show(s.end)))
            .collect()
    }

    fn one(from: &str, to: &str) -> Vec<(String, String)> {
        vec![(from.to_owned(), to.to_owned())]
    }

    #[test]
    fn relative_days_weeks_and_months() {
        assert_eq!(
            days("what happened yesterday?"),
            one("2026-05-13", "2026-05-14")
        );
        assert_eq!(days("today's notes"), one("2026-05-14", "2026-05-15"));
        assert_eq!(days("this week"), one("2026-05-11", "2026-05-18"));
        assert_eq!(
            days("what did we decide last week"),
            one("2026-05-04", "2026-05-11")
        );
        assert_eq!(days("last month"), one("2026-04-01", "2026-05-01"));
        assert_eq!(days("3 days ago"), one("2026-05-11", "2026-05-12"));
        assert_eq!(days("two weeks ago"), one("2026-04-27", "2026-05-04"));
        assert_eq!(
            days("a couple of days ago"),
            one("2026-05-12", "2026-05-13")
        );
        assert_eq!(days("last Tuesday"), one("2026-05-12", "2026-05-13"));
        assert_eq!(days("on thursday"), one("2026-05-07", "2026-05-08"));
        assert_eq!(days("the past 3 days"), one("2026-05-12", "2026-05-15"));
        assert_eq!(days("last year"), one("2025-01-01", "2026-01-01"));
    }

    #[test]
    fn dates_months_and_years() {
        assert_eq!(days("in May"), one("2026-05-01", "2026-06-01"));
        assert_eq!(days("in June"), one("2025-06-01", "2025-07-01"));
        assert_eq!(days("June"), one("2025-06-01", "2025-07-01"));
        assert_eq!(days("May 2026"), one("2026-05-01", "2026-06-01"));
        assert_eq!(days("14 March"), one("2026-03-14", "2026-03-15"));
        assert_eq!(days("March 14th, 2025"), one("2025-03-14", "2025-03-15"));
        assert_eq!(days("the 3rd of December"), one("2025-12-03", "2025-12-04"));
        assert_eq!(days("2026-05-14"), one("2026-05-14", "2026-05-15"));
        assert_eq!(days("in 2025"), one("2025-01-01", "2026-01-01"));
        assert_eq!(days("before May 10"), one("open", "2026-05-10"));
        assert_eq!(days("after 2026-05-10"), one("2026-05-11", "open"));
        assert_eq!(days("since last month"), one("2026-04-01", "open"));
    }

    #[test]
    fn ordinary_words_stay_words() {
        for query in [
            "we may ship it",
            "the march to the sea",
            "3 may fail",
            "invoice 2026 total",
            "INC-2026",
            "v1.2.3 is out",
            "a week of work",
            "the last step",
            "14 items",
        ] {
            assert!(days(query).is_empty(), "{query}: {:?}", days(query));
        }
    }

    #[test]
    fn consumed_words_are_the_expressions() {
        let query = "what did we decide last week about the payment webhook";
        let words = time_words(query, now(), &Zone::UTC);
        assert_eq!(words.consumed.len(), 1);
        assert_eq!(&query[words.consumed[0].clone()], "last week");
        let webhook = query.find("webhook").unwrap();
        assert!(!words.takes(&(webhook..webhook + 7)));
        let week = query.find("week").unwrap();
        assert!(words.takes(&(week..week + 4)));
    }

    #[test]
    fn a_day_is_the_zone_s_day() {
        // 2026-05-14 01:00 UTC is still the 13th in New York: "yesterday" is the 12th there.
        let zone = Zone::parse("America/New_York").unwrap();
        let words = time_words("yesterday", at(2026, 5, 14) + 3_600_000, &zone);
        let span = words.spans[0];
        assert_eq!(span.start, at(2026, 5, 12) + 4 * 3_600_000);
        assert_eq!(span.end, at(2026, 5, 13) + 4 * 3_600_000);
    }

    #[test]
    fn events_before_and_after() {
        let query = "what did we decide about the webhook before the datacenter migration?";
        let words = time_words(query, now(), &Zone::UTC);
        assert!(words.spans.is_empty());
        assert_eq!(words.events.len(), 1);
        assert_eq!(words.events[0].edge, Edge::Before);
        assert_eq!(
            &query[words.events[0].words.clone()],
            "datacenter migration"
        );
        assert_eq!(
            &query[words.consumed[0].clone()],
            "before the datacenter migration"
        );
        // A name ends at punctuation, a stop word or a time word; the time word is read too.
        let query = "since our offsite, what changed after the launch last week";
        let words = time_words(query, now(), &Zone::UTC);
        let names: Vec<_> = words
            .events
            .iter()
            .map(|e| &query[e.words.clone()])
            .collect();
        assert_eq!(names, ["offsite", "launch"]);
        assert_eq!(words.events[1].edge, Edge::After);
        assert_eq!(words.spans.len(), 1);
        // No article, no event; a date is a date.
        for query in [
            "until now",
            "before deploying",
            "after that",
            "before the 14th of May",
        ] {
            assert!(
                time_words(query, now(), &Zone::UTC).events.is_empty(),
                "{query}"
            );
        }
        // At most three words.
        let query = "before the big datacenter migration plan review";
        let words = time_words(query, now(), &Zone::UTC);
        assert_eq!(
            &query[words.events[0].words.clone()],
            "big datacenter migration"
        );
    }

    #[test]
    fn a_long_query_is_read_in_one_pass() {
        let query = "in May ".repeat(50_000);
        let words = time_words(&query, now(), &Zone::UTC);
        assert_eq!(words.spans.len(), MAX_SPANS);
    }
}

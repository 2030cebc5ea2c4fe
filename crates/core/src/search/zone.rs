//! The user's time zone, for the search's time words: which local day an
//! instant falls on, and when a local day starts. A zone is UTC, a fixed
//! offset, or an IANA name whose offsets come from the tz database bundled
//! with `jiff` (daylight saving time included: "yesterday" is the local
//! calendar day before today's, however long it was).
//!
//! The index keeps each entry's time as an instant (UTC); days, months and
//! years are taken in the zone of the search that asks, so one index serves
//! callers in any zone.

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::Timestamp;

use crate::persistent_chat::time::{civil_from_days, days_from_civil};

pub(crate) const MS_PER_DAY: i64 = 86_400_000;

/// The most a fixed offset may be, in minutes (as jiff's offsets: ±25:59).
pub const MAX_OFFSET_MINUTES: i32 = 25 * 60 + 59;

/// A time zone: UTC (the default), a fixed offset, or an IANA zone.
#[derive(Debug, Clone, Default)]
pub struct Zone(Repr);

#[derive(Debug, Clone, Default)]
enum Repr {
    #[default]
    Utc,
    /// Seconds east of UTC.
    Fixed(i32),
    Named(TimeZone),
}

impl Zone {
    pub const UTC: Zone = Zone(Repr::Utc);

    /// A fixed offset, `minutes` east of UTC (`-300`: New York in winter);
    /// `None` past ±[`MAX_OFFSET_MINUTES`].
    pub fn fixed_minutes(minutes: i32) -> Option<Zone> {
        if minutes.abs() > MAX_OFFSET_MINUTES {
            return None;
        }
        Some(Zone(Repr::Fixed(minutes * 60)))
    }

    /// An IANA name (`Europe/Berlin`, `America/New_York`; ASCII case is
    /// ignored), `UTC` or `Z`, or a fixed offset written `+02:00`, `-0530`,
    /// `+02`; `None` for anything else.
    pub fn parse(name: &str) -> Option<Zone> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("utc") || name.eq_ignore_ascii_case("z") {
            return Some(Zone::UTC);
        }
        if let Some(minutes) = offset_minutes(name) {
            return Zone::fixed_minutes(minutes);
        }
        // The bundled database only: a name is read the same on every machine.
        if name.is_empty() || name.len() > 64 || !name.is_ascii() {
            return None;
        }
        TimeZone::get(name).ok().map(|tz| Zone(Repr::Named(tz)))
    }

    /// The zone's offset from UTC at the instant `utc_ms`, in milliseconds.
    pub(crate) fn offset_ms(&self, utc_ms: i64) -> i64 {
        match &self.0 {
            Repr::Utc => 0,
            Repr::Fixed(seconds) => i64::from(*seconds) * 1000,
            Repr::Named(tz) => Timestamp::from_millisecond(utc_ms)
                .map(|at| i64::from(tz.to_offset(at).seconds()) * 1000)
                .unwrap_or(0),
        }
    }

    /// The local day (days since 1970-01-01 in this zone) of `utc_ms`.
    pub(crate) fn day_of(&self, utc_ms: i64) -> i64 {
        utc_ms
            .saturating_add(self.offset_ms(utc_ms))
            .div_euclid(MS_PER_DAY)
    }

    /// The instant (UTC ms) the local day `day` starts: its midnight, or
    /// the first instant after it when the clocks skip midnight.
    pub(crate) fn day_start(&self, day: i64) -> i64 {
        let naive = day.saturating_mul(MS_PER_DAY);
        match &self.0 {
            Repr::Utc => naive,
            Repr::Fixed(seconds) => naive - i64::from(*seconds) * 1000,
            Repr::Named(tz) => {
                named_day_start(tz, day).unwrap_or_else(|| naive - self.offset_ms(naive))
            }
        }
    }
}

fn named_day_start(tz: &TimeZone, day: i64) -> Option<i64> {
    let (year, month, mday) = civil_from_days(day);
    let date = Date::new(
        i16::try_from(year).ok()?,
        i8::try_from(month).ok()?,
        i8::try_from(mday).ok()?,
    )
    .ok()?;
    let start = date.to_zoned_datetime(tz.clone()).ok()?;
    Some(start.timestamp().as_millisecond())
}

/// `±HH:MM`, `±HHMM` or `±HH` in minutes east of UTC.
fn offset_minutes(text: &str) -> Option<i32> {
    let bytes = text.as_bytes();
    let sign = match bytes.first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let digits: Vec<u8> = bytes[1..].iter().copied().filter(|&b| b != b':').collect();
    let colons = bytes[1..].iter().filter(|&&b| b == b':').count();
    if !digits.iter().all(u8::is_ascii_digit)
        || !matches!((digits.len(), colons), (2, 0) | (4, 0) | (4, 1))
        || (colons == 1 && bytes.get(3) != Some(&b':'))
    {
        return None;
    }
    let number = |at: usize| i32::from(digits[at] - b'0') * 10 + i32::from(digits[at + 1] - b'0');
    let hours = number(0);
    let minutes = if digits.len() == 4 { number(2) } else { 0 };
    if minutes > 59 {
        return None;
    }
    Some(sign * (hours * 60 + minutes))
}

/// Days since 1970-01-01 of a civil date (`None` for an invalid one).
pub(crate) fn day_number(year: i64, month: u32, day: u32) -> Option<i64> {
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    Some(days_from_civil(year, month, day))
}

pub(crate) fn days_in_month(year: i64, month: u32) -> u32 {
    crate::persistent_chat::time::days_in_month(year, month)
}

/// The civil date of a day number.
pub(crate) fn civil(day: i64) -> (i64, u32, u32) {
    civil_from_days(day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::tz::Offset;

    const HOUR: i64 = 3_600_000;

    fn utc(year: i64, month: u32, day: u32, hour: i64) -> i64 {
        day_number(year, month, day).unwrap() * MS_PER_DAY + hour * HOUR
    }

    #[test]
    fn names_offsets_and_refusals() {
        assert!(Zone::parse("Europe/Berlin").is_some());
        assert!(Zone::parse("america/new_york").is_some());
        assert!(Zone::parse("UTC").is_some());
        assert_eq!(offset_minutes("+02:00"), Some(120));
        assert_eq!(offset_minutes("-0530"), Some(-330));
        assert_eq!(offset_minutes("+09"), Some(540));
        for bad in [
            "Mars/Olympus",
            "",
            "+2",
            "+02:0",
            "+0260",
            "+02-00",
            "Europe/Berlin\0",
        ] {
            assert!(Zone::parse(bad).is_none(), "{bad:?}");
        }
        assert!(Zone::fixed_minutes(MAX_OFFSET_MINUTES + 1).is_none());
        assert!(Offset::from_seconds(MAX_OFFSET_MINUTES * 60).is_ok());
    }

    #[test]
    fn days_follow_daylight_saving_time() {
        let berlin = Zone::parse("Europe/Berlin").unwrap();
        // 2026-03-29: clocks go from 02:00 to 03:00 (CET to CEST).
        let day = day_number(2026, 3, 29).unwrap();
        assert_eq!(berlin.day_start(day), utc(2026, 3, 28, 23));
        assert_eq!(berlin.day_start(day + 1), utc(2026, 3, 29, 22));
        // 22:30 UTC on the 29th is already the 30th in Berlin (CEST, +2).
        assert_eq!(berlin.day_of(utc(2026, 3, 29, 22) + HOUR / 2), day + 1);
        // In winter, +1.
        assert_eq!(
            berlin.day_of(utc(2026, 1, 10, 22) + HOUR / 2),
            day_number(2026, 1, 10).unwrap()
        );
        let fixed = Zone::fixed_minutes(-300).unwrap();
        assert_eq!(
            fixed.day_of(utc(2026, 5, 14, 3)),
            day_number(2026, 5, 13).unwrap()
        );
        assert_eq!(fixed.day_start(day), utc(2026, 3, 29, 5));
    }
}

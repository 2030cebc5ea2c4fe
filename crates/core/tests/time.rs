//! Timestamps through the core's public API: the ISO-8601 forms read (and
//! the ones refused), epoch numbers, `toISOString()`.

use openclaw_context_core::persistent_chat::time::*;

fn ms(text: &str) -> Option<f64> {
    parse_timestamp_ms(&text.encode_utf16().collect::<Vec<_>>())
}

#[test]
fn parses_iso_forms_to_utc_epoch_ms() {
    assert_eq!(ms("1970-01-01T00:00:00Z"), Some(0.0));
    assert_eq!(ms("2026-05-15T10:00:00Z"), Some(1_778_839_200_000.0));
    assert_eq!(ms("2026-05-15T10:00:00.250Z"), Some(1_778_839_200_250.0));
    assert_eq!(ms("2026-05-15T12:00:00+02:00"), Some(1_778_839_200_000.0));
    assert_eq!(ms("2026-05-15T08:30:00-0130"), Some(1_778_839_200_000.0));
    assert_eq!(ms("2026-05-15 10:00"), Some(1_778_839_200_000.0));
    assert_eq!(ms("2026-05-15"), Some(1_778_803_200_000.0));
    assert_eq!(ms("2024-02-29T00:00:00Z"), Some(1_709_164_800_000.0));
    assert_eq!(
        ms(" 2026-05-15T10:00:00.123456789Z "),
        Some(1_778_839_200_123.0)
    );
}

#[test]
fn refuses_impossible_dates_and_junk() {
    for bad in [
        "2023-02-29",
        "2026-13-01",
        "2026-05-15T25:00",
        "2026-05-15T10:60",
        "2026-05-15T10:00Zjunk",
        "tomorrow",
        "",
        "1e3",
        "inf",
    ] {
        assert_eq!(ms(bad), None, "{bad}");
    }
}

/// The set the header documents, where it differs from `jiff`'s.
#[test]
fn accepts_the_documented_forms_and_refuses_the_others() {
    let ten = Some(1_778_839_200_000.0);
    assert_eq!(ms("2026-05-14T24:00:00Z"), Some(1_778_803_200_000.0));
    assert_eq!(
        ms("2026-05-15T10:00:00.1234567891Z"),
        Some(1_778_839_200_123.0)
    );
    assert_eq!(ms("2026-05-15t10:00:00,5z"), Some(1_778_839_200_500.0));
    assert_eq!(ms("2026-05-15T12:00:00+02"), ten);
    assert_eq!(ms("2026-05-15T10:00"), ten);
    for refused in [
        "20260515T100000Z",
        "+002026-05-15T10:00:00Z",
        "2026-05-15T10Z",
        "2026-05-15T10:00:60Z",
        "2026-05-15T10:00:00Z[UTC]",
        "2026-05-15T24:00:01Z",
    ] {
        assert_eq!(ms(refused), None, "{refused}");
    }
}

#[test]
fn epoch_numbers_in_seconds_or_milliseconds() {
    assert_eq!(ms("1778839200000"), Some(1_778_839_200_000.0));
    assert_eq!(ms("1778839200"), Some(1_778_839_200_000.0));
    assert_eq!(
        epoch_ms_from_number(1_778_839_200.5),
        Some(1_778_839_200_500.0)
    );
    assert_eq!(epoch_ms_from_number(f64::NAN), None);
}

#[test]
fn formats_like_to_iso_string() {
    assert_eq!(format_iso_utc(0.0).unwrap(), "1970-01-01T00:00:00.000Z");
    assert_eq!(
        format_iso_utc(1_778_839_200_250.7).unwrap(),
        "2026-05-15T10:00:00.250Z"
    );
    assert_eq!(format_iso_utc(-1.0).unwrap(), "1969-12-31T23:59:59.999Z");
    assert_eq!(format_iso_utc(f64::INFINITY), None);
    assert_eq!(format_iso_utc(1e17), None);
}

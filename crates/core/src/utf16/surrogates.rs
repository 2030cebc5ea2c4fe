//! Surrogate pairs: a cut never falls between the two halves of one.

pub fn is_high_surrogate(unit: u16) -> bool {
    (0xD800..=0xDBFF).contains(&unit)
}

pub fn is_low_surrogate(unit: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&unit)
}

/// True when `pos` falls between the two halves of a surrogate pair.
pub fn splits_surrogate_pair(text: &[u16], pos: usize) -> bool {
    pos > 0 && pos < text.len() && is_high_surrogate(text[pos - 1]) && is_low_surrogate(text[pos])
}

/// The largest end `<= limit` that does not split a surrogate pair.
pub fn surrogate_safe_floor(text: &[u16], limit: usize) -> usize {
    let end = limit.min(text.len());
    if splits_surrogate_pair(text, end) {
        end - 1
    } else {
        end
    }
}

/// The smallest start `>= pos` that does not split a surrogate pair.
pub fn surrogate_safe_ceil(text: &[u16], pos: usize) -> usize {
    let start = pos.min(text.len());
    if splits_surrogate_pair(text, start) {
        start + 1
    } else {
        start
    }
}

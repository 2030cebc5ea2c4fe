//! The index file's primitives: LEB128 varints, and a stable 64-bit hash
//! (for the body's checksum, the log's fingerprints and each entry's line).
//! The reader side is a parser of hostile bytes: every read is bounds-checked
//! and answers `None` rather than panicking.

pub(crate) fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// A cursor over untrusted bytes.
pub(crate) struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Reader<'b> {
    pub(crate) fn new(bytes: &'b [u8]) -> Self {
        Reader { bytes, at: 0 }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.at >= self.bytes.len()
    }

    pub(crate) fn varint(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *self.bytes.get(self.at)?;
            self.at += 1;
            let part = u64::from(byte & 0x7F);
            // The tenth byte may hold one bit only.
            if shift == 63 && part > 1 {
                return None;
            }
            value |= part << shift;
            if byte & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }

    /// A varint that must fit `usize` and be at most `max`.
    pub(crate) fn count(&mut self, max: usize) -> Option<usize> {
        usize::try_from(self.varint()?).ok().filter(|&n| n <= max)
    }

    pub(crate) fn u64(&mut self) -> Option<u64> {
        let bytes = self.take(8)?;
        Some(u64::from_le_bytes(bytes.try_into().ok()?))
    }

    pub(crate) fn take(&mut self, len: usize) -> Option<&'b [u8]> {
        let end = self.at.checked_add(len)?;
        let slice = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(slice)
    }
}

/// A stable 64-bit hash (not cryptographic: it finds damage and rewrites,
/// it does not stand against a forger, and needs not to: every hit is read
/// again from the log).
pub(crate) fn hash64(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = 0x243F_6A88_85A3_08D3 ^ (bytes.len() as u64).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes([
            chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7],
        ]);
        h = (h ^ word).wrapping_mul(K).rotate_left(31);
    }
    let mut last = [0u8; 8];
    let rest = chunks.remainder();
    last[..rest.len()].copy_from_slice(rest);
    h = (h ^ u64::from_le_bytes(last)).wrapping_mul(K);
    h ^= h >> 29;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_and_refuse_overflow() {
        let mut out = Vec::new();
        for value in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            out.clear();
            put_varint(&mut out, value);
            let mut reader = Reader::new(&out);
            assert_eq!(reader.varint(), Some(value));
            assert!(reader.is_empty());
        }
        assert_eq!(Reader::new(&[0xFF; 10]).varint(), None);
        assert_eq!(Reader::new(&[0x80]).varint(), None);
        assert_eq!(Reader::new(&[]).u64(), None);
    }

    #[test]
    fn hash_sees_every_byte_and_the_length() {
        assert_ne!(hash64(b""), hash64(b"\0"));
        assert_ne!(hash64(b"abcdefghi"), hash64(b"abcdefghj"));
        assert_ne!(hash64(b"abcdefgh"), hash64(b"bbcdefgh"));
    }
}

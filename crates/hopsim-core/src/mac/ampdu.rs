//! A-MPDU framing and Block Ack frame sizes (IEEE 802.11-2016 9.7, A-MPDU; 9.3.1.8-9,
//! BlockAckReq and BlockAck): how many
//! octets an aggregate of given MPDUs takes on the air, and how many MPDUs fit under the
//! limits a receiver announces.
//!
//! Each MPDU in an A-MPDU is preceded by a 4-octet delimiter (reserved bit, 14-bit length,
//! CRC, signature) and padded to a multiple of 4 octets, the last one excepted (9.7.1, 9.7.3).
//! A receiver's minimum MPDU start spacing (the A-MPDU Parameters of its HT Capabilities
//! element: 0, 1/4, 1/2, 1, 2, 4, 8 or 16 us) makes the transmitter put
//! zero-length delimiters between MPDUs that would start too soon after the one before:
//! at a rate of R bit/s and spacing T, an MPDU start may follow the previous one by no fewer
//! than ceil(T R / 8) octets, filled up with 4-octet delimiters (9.7.3).

use crate::engine::time::SimDuration;

/// 9.7.1: the MPDU delimiter.
pub const DELIMITER_BYTES: u32 = 4;
/// An originator keeps at most 64 MPDUs outstanding under one Block Ack agreement: the
/// compressed Block Ack's bitmap has 64 bits.
pub const MAX_MPDUS: u32 = 64;
/// 9.3.1.9.1 compressed Block Ack: MAC header 16 (frame control, duration, RA, TA), BA
/// control 2, starting sequence control 2, 8-octet bitmap, FCS 4.
pub const BLOCK_ACK_BYTES: u32 = 16 + 2 + 2 + 8 + 4;
/// 9.3.1.8 compressed BlockAckReq: MAC header 16, BAR control 2, starting sequence 2, FCS 4.
pub const BLOCK_ACK_REQ_BYTES: u32 = 16 + 2 + 2 + 4;

/// The largest A-MPDU a receiver takes (the Maximum A-MPDU Length Exponent of its HT or VHT
/// Capabilities): 2^(13 + e) - 1 octets, e = 0..3 for HT (8,191 to 65,535) and 0..7 for VHT
/// (up to 1,048,575).
pub fn max_ampdu_bytes(exponent: u32, vht: bool) -> Option<u32> {
    let top = if vht { 7 } else { 3 };
    (exponent <= top).then(|| (1u32 << (13 + exponent)) - 1)
}

/// ceil(T R / 8): the octets that must lie between two MPDU starts.
fn min_gap_bytes(rate_bps: u64, spacing_ns: SimDuration) -> u32 {
    (spacing_ns * rate_bps).div_ceil(8_000_000_000) as u32
}

/// Octets of a subframe that is not the last: delimiter, MPDU, padding to 4 octets, and
/// zero-length delimiters up to the spacing's gap.
fn inner_subframe_bytes(mpdu_bytes: u32, min_gap: u32) -> u32 {
    let sub = DELIMITER_BYTES + mpdu_bytes.next_multiple_of(4);
    sub + min_gap.saturating_sub(sub).next_multiple_of(DELIMITER_BYTES)
}

/// Octets a subframe of an MPDU of `mpdu_bytes` takes in an A-MPDU at `rate_bps` under
/// spacing `spacing_ns`: the last one its delimiter and MPDU only, the others padded and
/// spaced (9.7.1, 9.7.3).
pub fn subframe_bytes(mpdu_bytes: u32, rate_bps: u64, spacing_ns: SimDuration, last: bool) -> u32 {
    if last {
        DELIMITER_BYTES + mpdu_bytes
    } else {
        inner_subframe_bytes(mpdu_bytes, min_gap_bytes(rate_bps, spacing_ns))
    }
}

/// Octets of an A-MPDU of MPDUs of `mpdu_bytes`, at `rate_bps` under the receiver's minimum
/// start spacing `spacing_ns`: delimiters, padding, and the zero-length delimiters the
/// spacing needs (none after the last MPDU).
pub fn ampdu_bytes(mpdu_bytes: &[u32], rate_bps: u64, spacing_ns: SimDuration) -> u32 {
    let gap = min_gap_bytes(rate_bps, spacing_ns);
    match mpdu_bytes.split_last() {
        None => 0,
        Some((last, inner)) => {
            inner.iter().map(|&b| inner_subframe_bytes(b, gap)).sum::<u32>()
                + DELIMITER_BYTES
                + last
        }
    }
}

/// How many MPDUs of `mpdu_bytes` each fit one A-MPDU under `max_bytes` and the 64 of a
/// Block Ack window (at least one: a single MPDU may always go).
pub fn mpdus_that_fit(mpdu_bytes: u32, max_bytes: u32, rate_bps: u64, spacing_ns: u64) -> u32 {
    let last = DELIMITER_BYTES + mpdu_bytes;
    let inner = inner_subframe_bytes(mpdu_bytes, min_gap_bytes(rate_bps, spacing_ns));
    let more = max_bytes.saturating_sub(last) / inner;
    (1 + more).min(MAX_MPDUS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_ack_frames_have_the_standards_sizes() {
        assert_eq!(BLOCK_ACK_BYTES, 32);
        assert_eq!(BLOCK_ACK_REQ_BYTES, 24);
    }

    #[test]
    fn the_largest_aggregates() {
        assert_eq!(max_ampdu_bytes(0, false), Some(8_191));
        assert_eq!(max_ampdu_bytes(3, false), Some(65_535));
        assert_eq!(max_ampdu_bytes(4, false), None, "HT stops at 65,535");
        assert_eq!(max_ampdu_bytes(7, true), Some(1_048_575));
        assert_eq!(max_ampdu_bytes(8, true), None);
    }

    #[test]
    fn delimiters_and_padding() {
        // 1538-octet MPDUs (1500 IP + 8 LLC + 26 QoS header + 4 FCS): each but the last
        // padded to 1540, each with its delimiter: 2 x 1544 + 1542.
        assert_eq!(ampdu_bytes(&[1538, 1538, 1538], 65_000_000, 0), 2 * 1544 + 1542);
        assert_eq!(ampdu_bytes(&[100], 65_000_000, 0), 104, "one MPDU: delimiter only");
        // Spacing 8 us at 600 Mbit/s: 600 octets between starts; a 100-octet MPDU (104 with
        // its delimiter) gets 124 more zero-length delimiters to 600 (9.7.3).
        assert_eq!(ampdu_bytes(&[100, 100], 600_000_000, 8_000), 600 + 104);
        // Spacing already met by long MPDUs adds nothing.
        assert_eq!(ampdu_bytes(&[1538, 1538], 600_000_000, 8_000), 1544 + 1542);
    }

    #[test]
    fn how_many_fit() {
        // 65,535 octets of 1544-octet subframes: 42 (42 x 1544 - 2 = 64,846; 43 too many).
        assert_eq!(mpdus_that_fit(1538, 65_535, 65_000_000, 0), 42);
        // Small MPDUs stop at the Block Ack window of 64.
        assert_eq!(mpdus_that_fit(100, 65_535, 65_000_000, 0), 64);
        // An 8,191-octet limit takes 5 (5 x 1544 - 2 = 7,718).
        assert_eq!(mpdus_that_fit(1538, 8_191, 65_000_000, 0), 5);
        // A limit below one MPDU still lets one go.
        assert_eq!(mpdus_that_fit(1538, 1_000, 65_000_000, 0), 1);
    }

    /// The count is the largest n whose aggregate fits, checked against the octet count of
    /// the aggregate itself over sizes, limits, rates and spacings.
    #[test]
    fn the_count_agrees_with_the_aggregates_length() {
        for b in [40, 101, 578, 1538, 3839] {
            for max in [1_000, 8_191, 16_383, 65_535, 1_048_575] {
                for (rate, spacing) in [(6_500_000, 0), (300_000_000, 4_000), (866_700_000, 16_000)]
                {
                    let n = mpdus_that_fit(b, max, rate, spacing);
                    let len = |k: u32| ampdu_bytes(&vec![b; k as usize], rate, spacing);
                    assert!(n == 1 || len(n) <= max, "{b} {max} {rate}: {n}");
                    assert!(n == MAX_MPDUS || len(n + 1) > max, "{b} {max} {rate}: {n}");
                }
            }
        }
    }
}

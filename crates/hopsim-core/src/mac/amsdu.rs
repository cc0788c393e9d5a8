//! A-MSDU framing (IEEE 802.11-2016 9.3.2.2.2, 10.12): several MSDUs for the same receiver
//! and TID carried in the body of one QoS Data MPDU, whose QoS Control field's A-MSDU Present
//! bit is set. Each MSDU goes in a subframe: a 14-octet header (DA 6, SA 6, Length 2), the
//! MSDU (LLC/SNAP and the network-layer packet), and 0-3 octets of padding to a multiple of 4
//! octets, the last subframe unpadded (Figure 9-65).
//!
//! The limits: the recipient's Maximum A-MSDU Length (HT Capabilities, 9.4.2.56.2: 3,839 or
//! 7,935 octets); under VHT the MPDU's own limit (VHT Capabilities' Maximum MPDU Length, up to
//! 11,454 octets, 9.4.2.158.2) less room for the largest MAC header and FCS, which ns-3.44
//! takes as 56 octets (`MsduAggregator::GetMaxAmsduSize`): 11,398. In an HT A-MPDU an MPDU
//! is at most 4,095 octets, the 12 bits of the HT delimiter's MPDU Length (9.7.1), so an
//! A-MSDU there stops at 4,095 less the MPDU's header and FCS.
//!
//! An MPDU with one MSDU is not an A-MSDU (no subframe header): aggregation needs two
//! (ns-3.44 `MsduAggregator::GetNextAmsdu` gives up with one).

/// 9.3.2.2.2: DA, SA and Length before each MSDU.
pub const SUBFRAME_HEADER_BYTES: u32 = 14;
/// HT Capabilities' larger Maximum A-MSDU Length (9.4.2.56.2).
pub const MAX_HT_BYTES: u32 = 7_935;
/// VHT: the largest Maximum MPDU Length (11,454) less 56 octets of header room.
pub const MAX_VHT_BYTES: u32 = 11_398;
/// The largest MPDU an HT A-MPDU carries (9.7.1: the delimiter's 12-bit MPDU Length).
pub const HT_MPDU_IN_AMPDU_BYTES: u32 = 4_095;

/// An A-MSDU of the one MSDU of `msdu_bytes` (before a second joins it).
pub fn of_one(msdu_bytes: u32) -> u32 {
    SUBFRAME_HEADER_BYTES + msdu_bytes
}

/// The A-MSDU of `amsdu_bytes` (its last subframe unpadded) with an MSDU of `msdu_bytes`
/// more: the old last subframe padded to 4 octets, then the new one.
pub fn grown(amsdu_bytes: u32, msdu_bytes: u32) -> u32 {
    amsdu_bytes.next_multiple_of(4) + SUBFRAME_HEADER_BYTES + msdu_bytes
}

/// The A-MSDU of the MSDUs of `msdu_bytes`, in order.
pub fn amsdu_bytes(msdu_bytes: &[u32]) -> u32 {
    match msdu_bytes.split_first() {
        None => 0,
        Some((&first, rest)) => rest.iter().fold(of_one(first), |a, &m| grown(a, m)),
    }
}

/// How the MAC may aggregate MSDUs (from `mac.amsdu_max_bytes` and the PHY).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AmsduConfig {
    /// The largest A-MSDU, octets.
    pub max_bytes: u32,
    /// The largest MPDU that carries one (its header and FCS included).
    pub max_mpdu_bytes: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subframes_are_padded_but_the_last() {
        // Two 1,508-octet MSDUs (1,500 IP + 8 LLC): 14 + 1508 = 1522, padded to 1524; then
        // 14 + 1508 unpadded: 3,046.
        assert_eq!(amsdu_bytes(&[1508, 1508]), 1524 + 1522);
        // TCP ACKs of 48 octets (40 IP + 8 LLC): subframes of 62, padded to 64.
        assert_eq!(amsdu_bytes(&[48, 48, 48]), 64 + 64 + 62);
        assert_eq!(amsdu_bytes(&[48]), 62);
        assert_eq!(amsdu_bytes(&[]), 0);
        // Already aligned: no padding.
        assert_eq!(grown(of_one(50), 10), 64 + 24);
    }

    #[test]
    fn how_many_full_size_msdus_fit_each_limit() {
        let fit = |max: u32| (1..100).take_while(|&n| amsdu_bytes(&vec![1508; n]) <= max).count();
        // 3,839: two (3,046; three 4,570). 7,935: five (7,618). 11,398: seven (10,666).
        assert_eq!(fit(3_839), 2);
        assert_eq!(fit(MAX_HT_BYTES), 5);
        assert_eq!(fit(MAX_VHT_BYTES), 7);
        // Inside an HT A-MPDU (4,095 less a 26-octet QoS header and the FCS: 4,065): two.
        assert_eq!(fit(HT_MPDU_IN_AMPDU_BYTES - 26 - 4), 2);
    }
}

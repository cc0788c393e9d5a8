//! An MCS transmission, HT (802.11n, phy/ht.rs) or VHT (802.11ac, phy/vht.rs), as the MAC's
//! rate code names it: what airtime, decoding, control responses and the pcap need to know
//! of either, in one place.

use super::ht::{self, HtMode, HtWidth};
use super::ofdm::{CodeRate, Constellation};
use super::vht::{self, VhtMode};
use crate::engine::time::SimDuration;

/// The TXVECTOR of an HT or VHT PPDU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum McsMode {
    Ht(HtMode),
    Vht(VhtMode),
}

/// The A-MPDU delimiter in front of the lone MPDU of a VHT PPDU (802.11-2016 10.13.1: a
/// VHT PPDU always carries an A-MPDU; one MPDU alone is an S-MPDU, its delimiter's EOF
/// set, 10.13.8). ns-3.44's VhtFrameExchangeManager::GetWifiPsdu sends it alike.
pub const S_MPDU_DELIMITER_BYTES: u32 = 4;

impl McsMode {
    /// The mode of a rate code, None for a non-HT rate.
    #[inline]
    pub fn from_code(code: u32) -> Option<McsMode> {
        if let Some(h) = HtMode::from_code(code) {
            Some(McsMode::Ht(h))
        } else {
            VhtMode::from_code(code).map(McsMode::Vht)
        }
    }

    pub fn code(self) -> u32 {
        match self {
            McsMode::Ht(h) => h.code(),
            McsMode::Vht(v) => v.code(),
        }
    }

    /// The MCS index as the standard numbers it (HT 0-31, VHT 0-9).
    pub fn index(self) -> u8 {
        match self {
            McsMode::Ht(h) => h.mcs,
            McsMode::Vht(v) => v.mcs,
        }
    }

    pub fn is_vht(self) -> bool {
        matches!(self, McsMode::Vht(_))
    }

    /// N_SS.
    pub fn streams(self) -> u32 {
        match self {
            McsMode::Ht(h) => h.streams(),
            McsMode::Vht(v) => u32::from(v.streams),
        }
    }

    pub fn width_mhz(self) -> u32 {
        match self {
            McsMode::Ht(h) => h.width_mhz(),
            McsMode::Vht(v) => v.width.mhz(),
        }
    }

    pub fn short_gi(self) -> bool {
        match self {
            McsMode::Ht(h) => h.short_gi,
            McsMode::Vht(v) => v.short_gi,
        }
    }

    pub fn kbps(self) -> u32 {
        match self {
            McsMode::Ht(h) => h.kbps(),
            McsMode::Vht(v) => v.kbps(),
        }
    }

    /// Modulation and coding of each stream.
    pub fn modulation(self) -> (Constellation, CodeRate) {
        match self {
            McsMode::Ht(h) => h.modulation(),
            McsMode::Vht(v) => v.modulation(),
        }
    }

    /// Everything before the DATA field.
    pub fn preamble_ns(self) -> SimDuration {
        match self {
            McsMode::Ht(h) => h.preamble_ns(),
            McsMode::Vht(v) => v.preamble_ns(),
        }
    }

    /// Bits of the DATA field of a `psdu_bytes` PSDU.
    pub fn data_bits(self, psdu_bytes: u32) -> u32 {
        match self {
            McsMode::Ht(h) => h.data_bits(psdu_bytes),
            McsMode::Vht(v) => v.data_bits(psdu_bytes),
        }
    }

    /// TXTIME of a `psdu_bytes` PSDU in the 5 GHz band (no signal extension).
    #[inline]
    pub fn txtime_ns(self, psdu_bytes: u32) -> SimDuration {
        match self {
            McsMode::Ht(h) => h.txtime_ns(psdu_bytes, false),
            McsMode::Vht(v) => v.txtime_ns(psdu_bytes),
        }
    }

    /// The PSDU that carries one MPDU of `mpdu_bytes` outside an A-MPDU.
    #[inline]
    pub fn single_psdu_bytes(self, mpdu_bytes: u32) -> u32 {
        match self {
            McsMode::Ht(_) => mpdu_bytes,
            McsMode::Vht(_) => mpdu_bytes + S_MPDU_DELIMITER_BYTES,
        }
    }

    /// The non-HT rate (100 kbit/s) of the same modulation and coding, which the
    /// control-response rules compare with (10.7.6.5.2).
    pub fn non_ht_reference_100kbps(self) -> u32 {
        match self {
            McsMode::Ht(h) => ht::non_ht_reference_100kbps(h.mcs),
            McsMode::Vht(v) => vht::non_ht_reference_100kbps(v.mcs),
        }
    }

    /// The HT mode of MCS `mcs` on a `width_mhz` channel (20 or 40).
    pub fn ht(mcs: u8, width_mhz: u32, short_gi: bool) -> Option<McsMode> {
        let width = match width_mhz {
            20 => HtWidth::Mhz20,
            40 => HtWidth::Mhz40,
            _ => return None,
        };
        HtMode::new(mcs, width, short_gi).map(McsMode::Ht)
    }

    /// The VHT mode of MCS `mcs` with `streams` streams on a `width_mhz` channel; None for a
    /// combination the standard leaves out.
    pub fn vht(mcs: u8, streams: u8, width_mhz: u32, short_gi: bool) -> Option<McsMode> {
        let width = vht::VhtWidth::of_mhz(width_mhz)?;
        VhtMode::new(mcs, streams, width, short_gi).map(McsMode::Vht)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::us;

    #[test]
    fn either_family_is_read_back_from_its_code() {
        let h = McsMode::ht(7, 40, true).unwrap();
        let v = McsMode::vht(8, 2, 80, false).unwrap();
        assert_eq!(McsMode::from_code(h.code()), Some(h));
        assert_eq!(McsMode::from_code(v.code()), Some(v));
        assert_eq!(McsMode::from_code(540), None);
        assert_eq!((v.index(), v.streams(), v.width_mhz()), (8, 2, 80));
        assert!(McsMode::vht(9, 1, 20, false).is_none(), "MCS 9 at 20 MHz, one stream");
        assert!(McsMode::ht(7, 80, false).is_none());
    }

    #[test]
    fn a_vht_mpdu_alone_travels_as_an_s_mpdu() {
        let h = McsMode::ht(7, 20, false).unwrap();
        let v = McsMode::vht(7, 1, 20, false).unwrap();
        assert_eq!(h.single_psdu_bytes(1536), 1536);
        assert_eq!(v.single_psdu_bytes(1536), 1540);
        // Same DATA rate on 20 MHz: HT-mixed and VHT preambles differ (36 vs 40 us), and
        // the four octets may add a symbol: (16 + 8 * 1540 + 6) / 260 -> 48 symbols.
        assert_eq!(h.txtime_ns(1536), us(36) + us(4) * 48);
        assert_eq!(v.txtime_ns(v.single_psdu_bytes(1536)), us(40) + us(4) * 48);
    }
}

//! The HT PHY of 802.11n (IEEE 802.11-2016 clause 19), HT-mixed format, BCC, no STBC: the
//! equal-modulation MCSs 0-31 (1-4 spatial streams) on 20 and 40 MHz channels with the
//! long (800 ns) or short (400 ns) guard interval, their data rates and the PPDU duration.
//!
//! An HT-mixed PPDU is the legacy preamble (L-STF, L-LTF: 16 us) and L-SIG (4 us), so that
//! 802.11a/g stations defer to it, then HT-SIG (8 us), HT-STF (4 us) and one 4 us HT-LTF per
//! spatial stream (four for three streams, Table 19-13), then the DATA field: SERVICE, PSDU
//! and 6 tail bits per BCC encoder, padded to whole symbols of 4 us (3.6 us with the short
//! guard interval; the PPDU then ends on the next 4 us boundary, eq. 19-136).

use super::ofdm::{CodeRate, Constellation, SERVICE_BITS};
use crate::engine::time::{us, SimDuration};

/// L-STF + L-LTF + L-SIG + HT-SIG + HT-STF (19.3.9.3, Table 19-6).
const FIXED_PREAMBLE_NS: SimDuration = us(16 + 4 + 8 + 4);
/// T_HT-LTF.
const HT_LTF_NS: SimDuration = us(4);
/// T_SYM and T_SYMS (Table 19-6), in nanoseconds.
const SYMBOL_LONG_GI_NS: SimDuration = 4_000;
const SYMBOL_SHORT_GI_NS: SimDuration = 3_600;
/// One BCC encoder carries at most 300 Mbit/s (the N_ES column of Tables 19-27 to 19-38:
/// 2 for the MCSs above 300 Mbit/s, 1 below).
const MAX_RATE_PER_ENCODER_KBPS: u32 = 300_000;

/// Modulation and coding of MCS `i` of one stream, shared by HT (i = 0-7, Tables 19-27 to
/// 19-30) and VHT (i = 0-9, Table 21-30: 8 and 9 are 256-QAM).
pub(super) fn mcs_modulation(i: u8) -> (Constellation, CodeRate) {
    use Constellation::*;
    match i {
        0 => (Bpsk, CodeRate(1, 2)),
        1 => (Qpsk, CodeRate(1, 2)),
        2 => (Qpsk, CodeRate(3, 4)),
        3 => (Qam16, CodeRate(1, 2)),
        4 => (Qam16, CodeRate(3, 4)),
        5 => (Qam64, CodeRate(2, 3)),
        6 => (Qam64, CodeRate(3, 4)),
        7 => (Qam64, CodeRate(5, 6)),
        8 => (Qam256, CodeRate(3, 4)),
        _ => (Qam256, CodeRate(5, 6)),
    }
}

/// N_DBPS of `subcarriers` data subcarriers, `streams` streams at MCS `i`.
pub(super) fn data_bits_per_symbol(i: u8, subcarriers: u32, streams: u32) -> u32 {
    let (c, CodeRate(num, den)) = mcs_modulation(i);
    subcarriers * c.bits() * streams * num / den
}

/// T_SYM or T_SYMS.
pub(super) fn symbol_ns(short_gi: bool) -> SimDuration {
    if short_gi {
        SYMBOL_SHORT_GI_NS
    } else {
        SYMBOL_LONG_GI_NS
    }
}

/// The data rate in kbit/s of N_DBPS bits per symbol.
pub(super) fn kbps(data_bits_per_symbol: u32, short_gi: bool) -> u32 {
    (u64::from(data_bits_per_symbol) * 1_000_000 / symbol_ns(short_gi)) as u32
}

/// HT-LTFs or VHT-LTFs for 1-4 streams (Tables 19-13, 21-13): 1, 2, 4, 4.
pub(super) fn training_fields(streams: u32) -> u32 {
    match streams {
        1 => 1,
        2 => 2,
        _ => 4,
    }
}

/// N_SYM with BCC and no STBC (eqs. 19-32, 21-107): SERVICE, PSDU and 6 tail bits per
/// encoder.
pub(super) fn data_symbols(bytes: u32, encoders: u32, data_bits_per_symbol: u32) -> u32 {
    (SERVICE_BITS + 8 * bytes + 6 * encoders).div_ceil(data_bits_per_symbol)
}

/// The DATA field's duration: the short-GI symbols end on the next 4 us boundary (eqs.
/// 19-136, 21-105).
pub(super) fn data_field_ns(symbols: u32, short_gi: bool) -> SimDuration {
    let t = symbol_ns(short_gi) * u64::from(symbols);
    t.div_ceil(SYMBOL_LONG_GI_NS) * SYMBOL_LONG_GI_NS
}

/// Channel width of an HT transmission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HtWidth {
    Mhz20,
    Mhz40,
}

impl HtWidth {
    /// N_SD: data subcarriers (Table 19-6).
    fn data_subcarriers(self) -> u32 {
        match self {
            HtWidth::Mhz20 => 52,
            HtWidth::Mhz40 => 108,
        }
    }
}

/// The TXVECTOR of an HT transmission: MCS 0-31, width and guard interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HtMode {
    pub mcs: u8,
    pub width: HtWidth,
    pub short_gi: bool,
}

/// The rate code of an HT TXVECTOR (mac/timing.rs `Rate`): this flag, the MCS in bits 0-4,
/// 40 MHz in bit 8 and the short guard interval in bit 9. Non-HT rates are codes below
/// 10,000 (100 kbit/s units), so the two never meet.
pub const HT_CODE_FLAG: u32 = 1 << 31;
const WIDTH40_BIT: u32 = 1 << 8;
const SHORT_GI_BIT: u32 = 1 << 9;

/// The non-HT reference rate (100 kbit/s) of HT MCS `i` (taken per stream, `i` mod 8): the
/// OFDM rate of the same modulation and coding, which the control-response rules compare
/// with (10.7.6.5.2); 64-QAM 5/6 (MCS 7) has no OFDM twin and refers to 54 Mbit/s. ns-3's
/// GetControlAnswerMode, comparing constellation and then code rate, answers alike.
pub fn non_ht_reference_100kbps(i: u8) -> u32 {
    [60, 120, 180, 240, 360, 480, 540, 540][usize::from(i % 8)]
}

impl HtMode {
    /// The rate code of this mode.
    pub fn code(self) -> u32 {
        let width = if self.width == HtWidth::Mhz40 { WIDTH40_BIT } else { 0 };
        let gi = if self.short_gi { SHORT_GI_BIT } else { 0 };
        HT_CODE_FLAG | width | gi | u32::from(self.mcs)
    }

    /// The mode of a rate code, None for a non-HT rate.
    #[inline]
    pub fn from_code(code: u32) -> Option<HtMode> {
        (code & HT_CODE_FLAG != 0).then_some(HtMode {
            mcs: (code & 0x1f) as u8,
            width: if code & WIDTH40_BIT != 0 { HtWidth::Mhz40 } else { HtWidth::Mhz20 },
            short_gi: code & SHORT_GI_BIT != 0,
        })
    }

    /// The channel width in MHz.
    pub fn width_mhz(self) -> u32 {
        match self.width {
            HtWidth::Mhz20 => 20,
            HtWidth::Mhz40 => 40,
        }
    }

    /// The preamble and PHY headers before the DATA field: L-STF, L-LTF, L-SIG, HT-SIG,
    /// HT-STF and the HT-LTFs.
    pub fn preamble_ns(self) -> SimDuration {
        FIXED_PREAMBLE_NS + HT_LTF_NS * u64::from(self.training_fields())
    }

    /// Bits of the DATA field: SERVICE, PSDU and the tail bits of each encoder.
    pub fn data_bits(self, bytes: u32) -> u32 {
        SERVICE_BITS + 8 * bytes + 6 * self.encoders()
    }

    /// None for an MCS outside 0-31 (32-76, the unequal-modulation ones, are not modelled).
    pub fn new(mcs: u8, width: HtWidth, short_gi: bool) -> Option<HtMode> {
        (mcs < 32).then_some(HtMode { mcs, width, short_gi })
    }

    /// N_SS: MCS 8k..8k+7 use k + 1 streams.
    pub fn streams(self) -> u32 {
        u32::from(self.mcs / 8) + 1
    }

    /// Modulation and coding rate of each stream (Tables 19-27 to 19-30).
    pub fn modulation(self) -> (Constellation, CodeRate) {
        mcs_modulation(self.mcs % 8)
    }

    /// N_DBPS: data bits per OFDM symbol over all streams.
    pub fn data_bits_per_symbol(self) -> u32 {
        data_bits_per_symbol(self.mcs % 8, self.width.data_subcarriers(), self.streams())
    }

    /// The data rate in kbit/s (N_DBPS per symbol time; 72.2 Mbit/s is 72,222).
    pub fn kbps(self) -> u32 {
        kbps(self.data_bits_per_symbol(), self.short_gi)
    }

    /// N_ES: BCC encoders, one per 300 Mbit/s.
    pub fn encoders(self) -> u32 {
        // The long-GI rate decides, so that both guard intervals use the same N_ES as the
        // tables have it (no HT rate lies between 300 and 333 Mbit/s).
        let long = HtMode { short_gi: false, ..self };
        long.kbps().div_ceil(MAX_RATE_PER_ENCODER_KBPS)
    }

    /// N_HTDLTF (Table 19-13).
    pub fn training_fields(self) -> u32 {
        training_fields(self.streams())
    }

    /// N_SYM of a `bytes`-octet PSDU (eq. 19-32, m_STBC = 1).
    pub fn data_symbols(self, bytes: u32) -> u32 {
        data_symbols(bytes, self.encoders(), self.data_bits_per_symbol())
    }

    /// TXTIME of an HT-mixed PPDU (eqs. 19-135, 19-136); `signal_extension`: 6 us in the
    /// 2.4 GHz band.
    pub fn txtime_ns(self, bytes: u32, signal_extension: bool) -> SimDuration {
        let preamble = self.preamble_ns();
        let data = data_field_ns(self.data_symbols(bytes), self.short_gi);
        let ext = if signal_extension { super::ofdm::SIGNAL_EXTENSION_NS } else { 0 };
        preamble + data + ext
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(mcs: u8, width: HtWidth, short_gi: bool) -> HtMode {
        HtMode::new(mcs, width, short_gi).unwrap()
    }

    /// The data rates of Tables 19-27 to 19-38 (Mbit/s, one decimal), for MCS 0-7 per
    /// stream count: 20 MHz long GI 6.5 ... 65 per stream, short GI 7.2 ... 72.2; 40 MHz
    /// 13.5 ... 135 and 15 ... 150.
    #[test]
    fn data_rates_match_the_standards_tables() {
        let per_stream = |w, gi| -> Vec<f64> {
            (0..8).map(|m| f64::from(mode(m, w, gi).kbps()) / 1000.0).collect()
        };
        let close =
            |got: &[f64], want: &[f64]| got.iter().zip(want).all(|(g, w)| (g - w).abs() < 0.06);
        let t20 = [6.5, 13.0, 19.5, 26.0, 39.0, 52.0, 58.5, 65.0];
        let s20 = [7.2, 14.4, 21.7, 28.9, 43.3, 57.8, 65.0, 72.2];
        let t40 = [13.5, 27.0, 40.5, 54.0, 81.0, 108.0, 121.5, 135.0];
        let s40 = [15.0, 30.0, 45.0, 60.0, 90.0, 120.0, 135.0, 150.0];
        assert!(close(&per_stream(HtWidth::Mhz20, false), &t20));
        assert!(close(&per_stream(HtWidth::Mhz20, true), &s20));
        assert!(close(&per_stream(HtWidth::Mhz40, false), &t40));
        assert!(close(&per_stream(HtWidth::Mhz40, true), &s40));
        // n streams carry n times as much: MCS 15 at 40 MHz short GI is 300 Mbit/s, MCS 31 600.
        assert_eq!(mode(15, HtWidth::Mhz40, true).kbps(), 300_000);
        assert_eq!(mode(31, HtWidth::Mhz40, true).kbps(), 600_000);
        assert_eq!(mode(23, HtWidth::Mhz20, false).kbps(), 3 * 65_000);
        assert!(HtMode::new(32, HtWidth::Mhz20, false).is_none());
    }

    #[test]
    fn rate_codes_round_trip_and_never_meet_the_non_ht_rates() {
        for mcs in 0..32 {
            for width in [HtWidth::Mhz20, HtWidth::Mhz40] {
                for gi in [false, true] {
                    let m = mode(mcs, width, gi);
                    assert_eq!(HtMode::from_code(m.code()), Some(m));
                    assert!(m.code() > 10_000);
                }
            }
        }
        assert_eq!(HtMode::from_code(540), None);
        assert_eq!(HtMode::from_code(10), None);
    }

    #[test]
    fn two_encoders_above_300_mbit_s() {
        // MCS 20 at 40 MHz (243 / 270 Mbit/s) one encoder; MCS 21 (324 / 360) two, whatever
        // the guard interval; 20 MHz never needs two (at most 288.9 Mbit/s).
        for gi in [false, true] {
            assert_eq!(mode(20, HtWidth::Mhz40, gi).encoders(), 1);
            assert_eq!(mode(21, HtWidth::Mhz40, gi).encoders(), 2);
            assert_eq!(mode(31, HtWidth::Mhz40, gi).encoders(), 2);
            assert!((0..32).all(|m| mode(m, HtWidth::Mhz20, gi).encoders() == 1));
        }
    }

    #[test]
    fn ppdu_durations() {
        // 1500 octets at MCS 7, 20 MHz, one stream: (16 + 12000 + 6) / 260 -> 47 symbols.
        // Preamble 16 + 4 + 8 + 4 + 4 = 36 us; long GI 36 + 188 = 224 us; short GI 47 x 3.6
        // = 169.2 us, to the next 4 us: 172, so 208 us.
        let m7 = mode(7, HtWidth::Mhz20, false);
        assert_eq!(m7.data_symbols(1500), 47);
        assert_eq!(m7.txtime_ns(1500, false), us(224));
        assert_eq!(mode(7, HtWidth::Mhz20, true).txtime_ns(1500, false), us(208));
        assert_eq!(m7.txtime_ns(1500, true), us(230), "2.4 GHz: + 6 us signal extension");
        // Three streams train with four HT-LTFs: 16 + 4 + 8 + 4 + 16 = 48 us of preamble.
        let m16 = mode(16, HtWidth::Mhz20, false);
        assert_eq!(m16.txtime_ns(0, false), us(48) + us(4));
        // A Block Ack (32 octets) at MCS 0: (16 + 256 + 6) / 26 -> 11 symbols, 36 + 44 us.
        assert_eq!(mode(0, HtWidth::Mhz20, false).txtime_ns(32, false), us(80));
    }
}

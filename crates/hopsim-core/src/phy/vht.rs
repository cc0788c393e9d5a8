//! The VHT PHY of 802.11ac (IEEE 802.11-2016 clause 21), single user, BCC, no STBC: MCS 0-9
//! on 20/40/80/160 MHz with 1-4 spatial streams and the long or short guard interval, the
//! combinations the standard leaves out, data rates and the PPDU duration.
//!
//! A VHT PPDU is the legacy preamble and L-SIG (20 us), VHT-SIG-A (8 us), VHT-STF (4 us),
//! one 4 us VHT-LTF per stream (four for three streams, Table 21-13), VHT-SIG-B (4 us), then
//! the DATA field padded to whole symbols, 4 us (3.6 us short GI, the PPDU ending on the next
//! 4 us boundary), eq. 21-105. (ns-3.44's VhtPhy counts VHT-SIG-B in MU PPDUs only, so its
//! SU PPDUs are 4 us shorter than these.)

use super::ht;
use super::ofdm::{CodeRate, Constellation};
use crate::engine::time::{us, SimDuration};

/// L-STF + L-LTF + L-SIG + VHT-SIG-A + VHT-STF, and VHT-SIG-B after the training fields.
const FIXED_PREAMBLE_NS: SimDuration = us(16 + 4 + 8 + 4 + 4);
const VHT_LTF_NS: SimDuration = us(4);

/// Channel width of a VHT transmission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VhtWidth {
    Mhz20,
    Mhz40,
    Mhz80,
    Mhz160,
}

impl VhtWidth {
    /// The width of `mhz` MHz, None unless 20, 40, 80 or 160.
    pub fn of_mhz(mhz: u32) -> Option<VhtWidth> {
        match mhz {
            20 => Some(VhtWidth::Mhz20),
            40 => Some(VhtWidth::Mhz40),
            80 => Some(VhtWidth::Mhz80),
            160 => Some(VhtWidth::Mhz160),
            _ => None,
        }
    }

    pub fn mhz(self) -> u32 {
        match self {
            VhtWidth::Mhz20 => 20,
            VhtWidth::Mhz40 => 40,
            VhtWidth::Mhz80 => 80,
            VhtWidth::Mhz160 => 160,
        }
    }

    /// N_SD: data subcarriers (Table 21-5).
    fn data_subcarriers(self) -> u32 {
        match self {
            VhtWidth::Mhz20 => 52,
            VhtWidth::Mhz40 => 108,
            VhtWidth::Mhz80 => 234,
            VhtWidth::Mhz160 => 468,
        }
    }
}

/// The TXVECTOR of a VHT SU transmission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VhtMode {
    pub mcs: u8,
    pub streams: u8,
    pub width: VhtWidth,
    pub short_gi: bool,
}

/// The rate code of a VHT TXVECTOR (mac/timing.rs `Rate`): this flag, the MCS in bits 0-3,
/// N_SS - 1 in bits 4-5, the width in bits 8-9 (20, 40, 80, 160 MHz) and the short guard
/// interval in bit 10. HT codes carry bit 31 and non-HT rates are below 10,000, so none meet.
pub const VHT_CODE_FLAG: u32 = 1 << 30;
const WIDTH_SHIFT: u32 = 8;
const SHORT_GI_BIT: u32 = 1 << 10;
const WIDTHS: [VhtWidth; 4] = [VhtWidth::Mhz20, VhtWidth::Mhz40, VhtWidth::Mhz80, VhtWidth::Mhz160];

/// The non-HT reference rate (100 kbit/s) of VHT MCS `i` for the control-response rules
/// (10.7.6.5.2): MCS 0-7 as HT's; 256-QAM (8, 9) has no OFDM twin and refers to 54 Mbit/s.
pub fn non_ht_reference_100kbps(i: u8) -> u32 {
    ht::non_ht_reference_100kbps(i.min(7))
}

impl VhtMode {
    /// The rate code of this mode.
    pub fn code(self) -> u32 {
        let width =
            (WIDTHS.iter().position(|&w| w == self.width).unwrap_or(0) as u32) << WIDTH_SHIFT;
        let gi = if self.short_gi { SHORT_GI_BIT } else { 0 };
        VHT_CODE_FLAG | gi | width | (u32::from(self.streams - 1) << 4) | u32::from(self.mcs)
    }

    /// The mode of a rate code, None for a non-VHT rate.
    #[inline]
    pub fn from_code(code: u32) -> Option<VhtMode> {
        (code & VHT_CODE_FLAG != 0).then_some(VhtMode {
            mcs: (code & 0xf) as u8,
            streams: ((code >> 4) & 3) as u8 + 1,
            width: WIDTHS[((code >> WIDTH_SHIFT) & 3) as usize],
            short_gi: code & SHORT_GI_BIT != 0,
        })
    }

    /// L-STF to the VHT-LTFs and VHT-SIG-B: everything before the DATA field.
    pub fn preamble_ns(self) -> SimDuration {
        FIXED_PREAMBLE_NS + VHT_LTF_NS * u64::from(self.training_fields())
    }

    /// Bits of the DATA field: SERVICE, PSDU and the tail bits of each encoder.
    pub fn data_bits(self, bytes: u32) -> u32 {
        super::ofdm::SERVICE_BITS + 8 * bytes + 6 * self.encoders()
    }

    /// None for MCS above 9, streams outside 1-4, or a combination the standard leaves out
    /// (Tables 21-30 to 21-61, up to four streams: MCS 9 at 20 MHz but with three streams,
    /// and MCS 6 at 80 MHz with three; N_DBPS or its share per encoder would not be whole).
    pub fn new(mcs: u8, streams: u8, width: VhtWidth, short_gi: bool) -> Option<VhtMode> {
        let excluded = (mcs == 9 && width == VhtWidth::Mhz20 && streams != 3)
            || (mcs == 6 && width == VhtWidth::Mhz80 && streams == 3);
        (mcs <= 9 && (1..=4).contains(&streams) && !excluded).then_some(VhtMode {
            mcs,
            streams,
            width,
            short_gi,
        })
    }

    /// Modulation and coding (Table 21-30): HT's MCS 0-7, then 256-QAM 3/4 and 5/6.
    pub fn modulation(self) -> (Constellation, CodeRate) {
        ht::mcs_modulation(self.mcs)
    }

    /// N_DBPS over all streams.
    pub fn data_bits_per_symbol(self) -> u32 {
        let streams = u32::from(self.streams);
        ht::data_bits_per_symbol(self.mcs, self.width.data_subcarriers(), streams)
    }

    /// The data rate in kbit/s.
    pub fn kbps(self) -> u32 {
        ht::kbps(self.data_bits_per_symbol(), self.short_gi)
    }

    /// N_ES, the BCC encoders (the N_ES column of Tables 21-30 to 21-61): one per 540 Mbit/s
    /// of the long-GI rate, except 160 MHz with four streams at MCS 7, which takes six so
    /// that each encoder's share of a symbol is whole (the rule as ns-3's VhtPhy reads the
    /// tables).
    pub fn encoders(self) -> u32 {
        if self.width == VhtWidth::Mhz160 && self.streams == 4 && self.mcs == 7 {
            return 6;
        }
        let long = VhtMode { short_gi: false, ..self };
        long.kbps().div_ceil(540_000)
    }

    /// N_VHTLTF (Table 21-13).
    pub fn training_fields(self) -> u32 {
        ht::training_fields(u32::from(self.streams))
    }

    /// N_SYM of a `bytes`-octet PSDU (eq. 21-107 with BCC, m_STBC = 1).
    pub fn data_symbols(self, bytes: u32) -> u32 {
        ht::data_symbols(bytes, self.encoders(), self.data_bits_per_symbol())
    }

    /// TXTIME of a VHT SU PPDU (eq. 21-105; 5 GHz, no signal extension).
    pub fn txtime_ns(self, bytes: u32) -> SimDuration {
        self.preamble_ns() + ht::data_field_ns(self.data_symbols(bytes), self.short_gi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use VhtWidth::*;

    fn mode(mcs: u8, streams: u8, width: VhtWidth, short_gi: bool) -> VhtMode {
        VhtMode::new(mcs, streams, width, short_gi).unwrap()
    }

    #[test]
    fn the_standards_exclusions_are_refused() {
        for n in [1, 2, 4] {
            assert!(VhtMode::new(9, n, Mhz20, false).is_none(), "MCS 9, 20 MHz, {n} streams");
        }
        assert!(VhtMode::new(9, 3, Mhz20, false).is_some());
        assert!(VhtMode::new(6, 3, Mhz80, false).is_none());
        assert!(VhtMode::new(6, 2, Mhz80, false).is_some());
        assert!(VhtMode::new(10, 1, Mhz80, false).is_none());
        assert!(VhtMode::new(0, 5, Mhz80, false).is_none());
        // Every combination allowed has a whole N_DBPS, and a whole share per encoder.
        for w in [Mhz20, Mhz40, Mhz80, Mhz160] {
            for n in 1..=4 {
                for m in 0..=9 {
                    if let Some(v) = VhtMode::new(m, n, w, false) {
                        let (c, CodeRate(num, den)) = v.modulation();
                        let coded = v.width.data_subcarriers() * c.bits() * u32::from(n);
                        assert_eq!(coded * num % den, 0, "{v:?}");
                        assert_eq!(v.data_bits_per_symbol() % v.encoders(), 0, "{v:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn rate_codes_round_trip_and_meet_no_other_rate() {
        for w in [Mhz20, Mhz40, Mhz80, Mhz160] {
            for n in 1..=4 {
                for m in 0..=9 {
                    for gi in [false, true] {
                        if let Some(v) = VhtMode::new(m, n, w, gi) {
                            assert_eq!(VhtMode::from_code(v.code()), Some(v));
                            assert!(ht::HtMode::from_code(v.code()).is_none());
                            assert!(v.code() > 10_000);
                        }
                    }
                }
            }
        }
        assert_eq!(VhtMode::from_code(540), None);
        let h = ht::HtMode::new(7, ht::HtWidth::Mhz40, true).unwrap();
        assert_eq!(VhtMode::from_code(h.code()), None);
        assert_eq!(non_ht_reference_100kbps(9), 540);
        assert_eq!(non_ht_reference_100kbps(3), 240);
    }

    #[test]
    fn data_rates_match_the_standards_tables() {
        let mbps = |v: VhtMode| f64::from(v.kbps()) / 1000.0;
        let close = |v: VhtMode, want: f64| (mbps(v) - want).abs() < 0.06;
        // Well-known points of Tables 21-30..21-61 (Mbit/s).
        assert!(close(mode(0, 1, Mhz20, false), 6.5));
        assert!(close(mode(8, 1, Mhz20, false), 78.0));
        assert!(close(mode(9, 3, Mhz20, true), 288.9));
        assert!(close(mode(9, 1, Mhz40, true), 200.0));
        assert!(close(mode(9, 1, Mhz80, false), 390.0));
        assert!(close(mode(9, 1, Mhz80, true), 433.3));
        assert!(close(mode(8, 1, Mhz80, false), 351.0));
        assert!(close(mode(9, 1, Mhz160, true), 866.7));
        assert!(close(mode(9, 4, Mhz160, true), 3466.7));
        assert!(close(mode(7, 4, Mhz160, false), 2340.0));
    }

    #[test]
    fn ppdu_durations() {
        // 1500 octets at MCS 9, 80 MHz, one stream: N_DBPS 1560, one encoder (390 Mbit/s):
        // (16 + 12000 + 6) / 1560 -> 8 symbols. Preamble 36 + 4 = 40 us: 40 + 32 = 72 us;
        // short GI 8 x 3.6 = 28.8 -> 32 us: 72 us too.
        let v = mode(9, 1, Mhz80, false);
        assert_eq!((v.data_bits_per_symbol(), v.encoders(), v.data_symbols(1500)), (1560, 1, 8));
        assert_eq!(v.txtime_ns(1500), us(72));
        assert_eq!(mode(9, 1, Mhz80, true).txtime_ns(1500), us(72));
        // Two encoders above 540 Mbit/s: MCS 9, 80 MHz, two streams (780 Mbit/s).
        assert_eq!(mode(9, 2, Mhz80, false).encoders(), 2);
        assert_eq!(mode(7, 4, Mhz160, false).encoders(), 6);
        // An 8 kB aggregate at MCS 7, 20 MHz, one stream: (16 + 65536 + 6) / 260 -> 253.
        let small = mode(7, 1, Mhz20, false);
        assert_eq!(small.txtime_ns(8192), us(40) + us(4) * 253);
    }
}

//! The OFDM PHY of 802.11a (IEEE 802.11-2016 clause 17) and the ERP-OFDM PHY of 802.11g
//! (clause 18), 20 MHz channels: the eight rates, their modulation and coding, the PPDU's
//! duration, the PHY's timing characteristics and the receiver's minimum sensitivity.
//!
//! A PPDU is the 16 us preamble (short and long training fields), the 4 us SIGNAL field
//! (6 Mbit/s BPSK 1/2, whatever the rate of the data) and the DATA field: the 16-bit SERVICE
//! field, the PSDU and 6 tail bits, padded to whole 4 us symbols (17.3.2, 17.3.5). An
//! ERP-OFDM PPDU is followed by 6 us of signal extension, no transmission, so that the
//! receiver's decoding ends before the SIFS of 10 us does (18.3.2.4).

use crate::engine::time::{us, SimDuration};

/// 17.3.2.4 (Table 17-4): T_PREAMBLE = T_SHORT + T_LONG = 8 + 8 us.
pub const PREAMBLE_NS: SimDuration = us(16);
/// T_SIGNAL: one BPSK 1/2 symbol.
pub const SIGNAL_NS: SimDuration = us(4);
/// T_SYM: 3.2 us of FFT period and 0.8 us of guard interval.
pub const SYMBOL_NS: SimDuration = us(4);
/// 17.3.5.2: the SERVICE field's bits, sent before the PSDU.
pub const SERVICE_BITS: u32 = 16;
/// 17.3.5.3: the tail bits that return the convolutional encoder to zero.
pub const TAIL_BITS: u32 = 6;
/// 18.3.2.4 (Table 18-5, aSignalExtension): the silence after each ERP-OFDM PPDU.
pub const SIGNAL_EXTENSION_NS: SimDuration = us(6);

/// Modulation of the subcarriers (17.3.5.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Constellation {
    Bpsk,
    Qpsk,
    Qam16,
    Qam64,
    /// VHT MCS 8-9 only.
    Qam256,
}

impl Constellation {
    /// N_BPSC: coded bits per subcarrier.
    pub fn bits(self) -> u32 {
        match self {
            Constellation::Bpsk => 1,
            Constellation::Qpsk => 2,
            Constellation::Qam16 => 4,
            Constellation::Qam64 => 6,
            Constellation::Qam256 => 8,
        }
    }
}

/// The convolutional code's rate, as numerator / denominator (17.3.5.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeRate(pub u32, pub u32);

/// One of the eight OFDM rates of a 20 MHz channel (Table 17-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum OfdmRate {
    R6,
    R9,
    R12,
    R18,
    R24,
    R36,
    R48,
    R54,
}

/// Data subcarriers of a 20 MHz OFDM symbol (17.3.2.4, N_SD).
const DATA_SUBCARRIERS: u32 = 48;

impl OfdmRate {
    pub const ALL: [OfdmRate; 8] = [
        OfdmRate::R6,
        OfdmRate::R9,
        OfdmRate::R12,
        OfdmRate::R18,
        OfdmRate::R24,
        OfdmRate::R36,
        OfdmRate::R48,
        OfdmRate::R54,
    ];

    /// The rate of `kbps` kbit/s, if it is one of the eight (a match: it is asked per frame).
    #[inline]
    pub fn from_kbps(kbps: u32) -> Option<OfdmRate> {
        Some(match kbps {
            6000 => OfdmRate::R6,
            9000 => OfdmRate::R9,
            12000 => OfdmRate::R12,
            18000 => OfdmRate::R18,
            24000 => OfdmRate::R24,
            36000 => OfdmRate::R36,
            48000 => OfdmRate::R48,
            54000 => OfdmRate::R54,
            _ => return None,
        })
    }

    pub fn kbps(self) -> u32 {
        self.data_bits_per_symbol() * 1000 / 4 // N_DBPS bits every 4 us
    }

    /// Table 17-4: modulation and coding rate.
    pub fn modulation(self) -> (Constellation, CodeRate) {
        use Constellation::*;
        match self {
            OfdmRate::R6 => (Bpsk, CodeRate(1, 2)),
            OfdmRate::R9 => (Bpsk, CodeRate(3, 4)),
            OfdmRate::R12 => (Qpsk, CodeRate(1, 2)),
            OfdmRate::R18 => (Qpsk, CodeRate(3, 4)),
            OfdmRate::R24 => (Qam16, CodeRate(1, 2)),
            OfdmRate::R36 => (Qam16, CodeRate(3, 4)),
            OfdmRate::R48 => (Qam64, CodeRate(2, 3)),
            OfdmRate::R54 => (Qam64, CodeRate(3, 4)),
        }
    }

    /// N_CBPS: coded bits per OFDM symbol.
    pub fn coded_bits_per_symbol(self) -> u32 {
        DATA_SUBCARRIERS * self.modulation().0.bits()
    }

    /// N_DBPS: data bits per OFDM symbol (N_CBPS x R).
    pub fn data_bits_per_symbol(self) -> u32 {
        let CodeRate(num, den) = self.modulation().1;
        self.coded_bits_per_symbol() * num / den
    }

    /// 17.3.2.1, 9.7.9 (the basic rate set's mandatory rates): 6, 12 and 24 Mbit/s.
    pub fn mandatory(self) -> bool {
        matches!(self, OfdmRate::R6 | OfdmRate::R12 | OfdmRate::R24)
    }

    /// 10.7.6.5.2 (802.11-2016): a CTS or ACK answers at the highest mandatory rate not
    /// above the rate of the frame it answers (no basic rate set narrower than the
    /// mandatory one here).
    pub fn control_response(self) -> OfdmRate {
        OfdmRate::ALL
            .into_iter()
            .rev()
            .find(|r| r.mandatory() && *r <= self)
            .unwrap_or(OfdmRate::R6)
    }

    /// Table 17-18: the receiver minimum input sensitivity, dBm, 20 MHz channel (a frame of
    /// 1000 octets at 10% PER).
    pub fn min_sensitivity_dbm(self) -> f64 {
        match self {
            OfdmRate::R6 => -82.0,
            OfdmRate::R9 => -81.0,
            OfdmRate::R12 => -79.0,
            OfdmRate::R18 => -77.0,
            OfdmRate::R24 => -74.0,
            OfdmRate::R36 => -70.0,
            OfdmRate::R48 => -66.0,
            OfdmRate::R54 => -65.0,
        }
    }
}

/// The OFDM symbols of the DATA field of a `bytes`-octet PSDU (17.3.5.4, eq. 17-11):
/// N_SYM = ceil((16 + 8 LENGTH + 6) / N_DBPS).
pub fn data_symbols(bytes: u32, rate: OfdmRate) -> u32 {
    (SERVICE_BITS + 8 * bytes + TAIL_BITS).div_ceil(rate.data_bits_per_symbol())
}

/// TXTIME of a `bytes`-octet PSDU (17.4.3, eq. 17-29; 18.5.3 adds the ERP signal extension).
pub fn txtime_ns(bytes: u32, rate: OfdmRate, signal_extension: bool) -> SimDuration {
    let ext = if signal_extension { SIGNAL_EXTENSION_NS } else { 0 };
    PREAMBLE_NS + SIGNAL_NS + SYMBOL_NS * data_symbols(bytes, rate) as u64 + ext
}

/// The timing characteristics of a PHY (Table 17-21 for OFDM, Table 18-5 for ERP).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhyTiming {
    pub slot_ns: SimDuration,
    pub sifs_ns: SimDuration,
    pub cw_min: u32,
    pub cw_max: u32,
}

/// 802.11a, 20 MHz (Table 17-21): aSlotTime 9 us, aSIFSTime 16 us, aCWmin 15, aCWmax 1023.
pub const OFDM_20MHZ: PhyTiming =
    PhyTiming { slot_ns: us(9), sifs_ns: us(16), cw_min: 15, cw_max: 1023 };

/// 802.11g (Table 18-5): aSIFSTime 10 us; aSlotTime 20 us, or 9 us in a BSS of ERP stations
/// only (short slot); aCWmin 15 with ERP stations only (31 where 802.11b stations take part).
pub fn erp_timing(short_slot: bool) -> PhyTiming {
    PhyTiming {
        slot_ns: us(if short_slot { 9 } else { 20 }),
        sifs_ns: us(10),
        cw_min: 15,
        cw_max: 1023,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rates_follow_from_subcarriers_modulation_and_coding() {
        // Table 17-4: N_DBPS 24, 36, 48, 72, 96, 144, 192, 216.
        let dbps: Vec<u32> = OfdmRate::ALL.iter().map(|r| r.data_bits_per_symbol()).collect();
        assert_eq!(dbps, [24, 36, 48, 72, 96, 144, 192, 216]);
        let kbps: Vec<u32> = OfdmRate::ALL.iter().map(|r| r.kbps()).collect();
        assert_eq!(kbps, [6000, 9000, 12000, 18000, 24000, 36000, 48000, 54000]);
        assert_eq!(OfdmRate::from_kbps(36_000), Some(OfdmRate::R36));
        assert_eq!(OfdmRate::from_kbps(11_000), None, "11 Mbit/s is CCK, not OFDM");
    }

    #[test]
    fn ppdu_durations_match_the_standards_formula_and_known_values() {
        // An ACK (14 octets): 134 bits -> 6 symbols at 6 Mbit/s (44 us), 2 at 24 (28 us).
        assert_eq!(txtime_ns(14, OfdmRate::R6, false), us(44));
        assert_eq!(txtime_ns(14, OfdmRate::R24, false), us(28));
        // 1500 octets at 54 Mbit/s: 12022 bits / 216 -> 56 symbols, 20 + 224 = 244 us.
        assert_eq!(txtime_ns(1500, OfdmRate::R54, false), us(244));
        // Annex L's worked example (100 octets at 36 Mbit/s): 822 bits / 144 -> 6 symbols.
        assert_eq!(data_symbols(100, OfdmRate::R36), 6);
        // ERP-OFDM adds 6 us of signal extension.
        assert_eq!(txtime_ns(14, OfdmRate::R24, true), us(34));
        // Every duration is a whole number of symbols after the 20 us header.
        for r in OfdmRate::ALL {
            for bytes in [0, 1, 13, 14, 20, 1500, 2304] {
                let t = txtime_ns(bytes, r, false) - PREAMBLE_NS - SIGNAL_NS;
                assert_eq!(t % SYMBOL_NS, 0);
                let bits = (t / SYMBOL_NS) as u32 * r.data_bits_per_symbol();
                assert!(bits >= 22 + 8 * bytes && bits < 22 + 8 * bytes + r.data_bits_per_symbol());
            }
        }
    }

    #[test]
    fn control_responses_go_at_the_highest_mandatory_rate_not_above() {
        use OfdmRate::*;
        let got: Vec<OfdmRate> = OfdmRate::ALL.iter().map(|r| r.control_response()).collect();
        assert_eq!(got, [R6, R6, R12, R12, R24, R24, R24, R24]);
    }

    #[test]
    fn timing_characteristics() {
        // DIFS = SIFS + 2 slots (10.3.2.3.7): 34 us for 802.11a, 28 us for 802.11g short slot.
        assert_eq!(OFDM_20MHZ.sifs_ns + 2 * OFDM_20MHZ.slot_ns, us(34));
        let g = erp_timing(true);
        assert_eq!(g.sifs_ns + 2 * g.slot_ns, us(28));
        assert_eq!(erp_timing(false).sifs_ns + 2 * erp_timing(false).slot_ns, us(50));
        // The receiver needs 17 dB more at 54 Mbit/s than at 6 Mbit/s.
        assert_eq!(OfdmRate::R54.min_sensitivity_dbm() - OfdmRate::R6.min_sensitivity_dbm(), 17.0);
    }
}

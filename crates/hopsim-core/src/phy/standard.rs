//! The PHY standard a scenario's radios follow (`radio.standard`): 802.11b DSSS/CCK (the
//! default, the seed studies' radio), 802.11a OFDM at 5 GHz, or 802.11g ERP at 2.4 GHz. The
//! standard fixes the PHY characteristics the MAC is timed by (aSlotTime, aSIFSTime, aCWmin,
//! aCWmax: IEEE 802.11-2016 Tables 15-5, 17-21, 18-5), the rates, the channel's noise
//! bandwidth and the PPDU format; the scenario keys it defaults are filled in by the parser.

use super::dsss;
use super::mcs::McsMode;
use super::ofdm::{self, OfdmRate, PhyTiming};
use crate::engine::time::{us, SimDuration};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Standard {
    /// HR/DSSS (clauses 15-16), long preamble: 1, 2, 5.5, 11 Mbit/s.
    #[default]
    #[serde(rename = "80211b")]
    B,
    /// OFDM (clause 17), 20 MHz channels in the 5 GHz band: 6-54 Mbit/s.
    #[serde(rename = "80211a")]
    A,
    /// ERP (clause 18): ERP-OFDM 6-54 Mbit/s with its 6 us signal extension, and the DSSS/CCK
    /// rates; CWmin 15 (ERP stations only). The slot is the long one, 20 us: the stations of
    /// an IBSS, which a multihop network of ad hoc stations is, do not use the short slot
    /// (9.4.1.4: they set the Short Slot Time subfield to 0; ns-3's ad hoc 802.11g alike).
    #[serde(rename = "80211g")]
    G,
    /// HT (clause 19) in the 5 GHz band, HT-mixed format: MCS 0-31 on 20 or 40 MHz
    /// (phy/ht.rs), and the OFDM rates for control frames and broadcast. Timing as 802.11a
    /// (Table 19-25: aSlotTime 9 us, aSIFSTime 16 us at 5 GHz); the stations are QoS stations.
    #[serde(rename = "80211n")]
    N,
    /// VHT (clause 21), 5 GHz: MCS 0-9 on 20, 40, 80 or 160 MHz with 1-4 spatial streams
    /// (phy/vht.rs), the OFDM rates for control frames and broadcast; timing as 802.11a
    /// (Table 21-28). A VHT station is an HT station (a QoS station that aggregates).
    #[serde(rename = "80211ac")]
    Ac,
}

/// 802.11b (Table 15-5, HR/DSSS 16.3.4): aSlotTime 20 us, aSIFSTime 10 us, CW 31..1023.
pub const DSSS_TIMING: PhyTiming =
    PhyTiming { slot_ns: us(20), sifs_ns: us(10), cw_min: 31, cw_max: 1023 };

impl Standard {
    pub fn is_b(&self) -> bool {
        *self == Standard::B
    }

    /// The scenario spelling, as in `radio.standard = "80211a"`.
    pub fn name(self) -> &'static str {
        match self {
            Standard::B => "80211b",
            Standard::A => "80211a",
            Standard::G => "80211g",
            Standard::N => "80211n",
            Standard::Ac => "80211ac",
        }
    }

    pub fn timing(self) -> PhyTiming {
        match self {
            Standard::B => DSSS_TIMING,
            Standard::A | Standard::N | Standard::Ac => ofdm::OFDM_20MHZ,
            Standard::G => ofdm::erp_timing(false),
        }
    }

    /// The non-HT rates a station of this standard may send at, in 100 kbit/s, slowest first:
    /// the ladder of the rate-control algorithms (an ERP station's DSSS/CCK and ERP-OFDM
    /// rates in one order of speed; an HT station's OFDM rates, its MCSs being its own).
    pub fn rate_ladder(self) -> &'static [u32] {
        match self {
            Standard::B => &DSSS_RATES,
            Standard::A | Standard::N | Standard::Ac => &OFDM_RATES,
            Standard::G => &ERP_RATES,
        }
    }

    /// Whether a non-HT rate (100 kbit/s) is one this standard can send.
    pub fn supports(self, rate_100kbps: u32) -> bool {
        self.rate_ladder().contains(&rate_100kbps)
    }

    /// Slots in the idle time before a countdown: DIFS's 2 (10.3.2.3.5), or for the QoS
    /// stations of 802.11n the AIFSN of best effort, 3 (10.22.2.2, Table 9-137). The other
    /// access categories are not modelled yet: all traffic is best effort.
    pub fn ifs_slots(self) -> u64 {
        if self.is_ht() {
            3
        } else {
            2
        }
    }

    /// Whether the stations are HT stations, sending MCSs, QoS Data and A-MPDUs: 802.11n,
    /// and 802.11ac (a VHT station is an HT station, 10.1).
    pub fn is_ht(self) -> bool {
        matches!(self, Standard::N | Standard::Ac)
    }

    pub fn is_vht(self) -> bool {
        self == Standard::Ac
    }

    /// The channel widths (MHz) the standard's stations may use.
    pub fn channel_widths_mhz(self) -> &'static [u32] {
        match self {
            Standard::N => &[20, 40],
            Standard::Ac => &[20, 40, 80, 160],
            _ => &[20],
        }
    }

    /// Noise bandwidth of a channel `width_mhz` wide: 22 MHz for DSSS (15.4.4.6 spectrum
    /// mask); the channel's width for OFDM (17.3.8.2: 20 MHz), ERP (as ns-3 takes it for
    /// 802.11g) and HT (20 or 40 MHz; ns-3's InterferenceHelper::CalculateSnr alike).
    pub fn noise_bandwidth_hz(self, width_mhz: u32) -> f64 {
        match self {
            Standard::B => 22e6,
            _ => f64::from(width_mhz) * 1e6,
        }
    }

    /// The silence after each OFDM PPDU of this standard (ERP only, 18.3.2.4).
    pub fn signal_extension_ns(self) -> SimDuration {
        match self {
            Standard::G => ofdm::SIGNAL_EXTENSION_NS,
            _ => 0,
        }
    }

    /// TXTIME of a `bytes`-octet PSDU at `rate_100kbps` (16.3.4 long preamble for DSSS; 17.4.3
    /// for OFDM, with 18.5.3's signal extension on ERP).
    #[inline]
    pub fn txtime_ns(self, bytes: u32, rate_100kbps: u32) -> SimDuration {
        if let Some(m) = McsMode::from_code(rate_100kbps) {
            return m.txtime_ns(bytes); // 5 GHz: no signal extension
        }
        let ofdm = match self {
            Standard::B => None, // every 802.11b rate is DSSS/CCK
            _ => OfdmRate::from_kbps(100 * rate_100kbps),
        };
        match ofdm {
            Some(r) => ofdm::txtime_ns(bytes, r, self == Standard::G),
            None => {
                // 8 * bytes / (rate/10 Mbit/s) us, rounded up to whole us (16.3.4).
                let payload_us = (80 * bytes as u64).div_ceil(rate_100kbps as u64);
                dsss::PLCP_NS + us(payload_us)
            }
        }
    }

    /// The rate of the CTS or ACK that answers a frame sent at `eliciting` (10.7.6.5.2): the
    /// highest mandatory rate of the eliciting frame's modulation class not above its rate
    /// (OFDM 6, 12, 24; HR/DSSS all four, 1, 2, 5.5, 11: 16.1, CCK being mandatory), as
    /// ns-3's WifiRemoteStationManager::GetControlAnswerMode picks it. 802.11b answers at
    /// `basic_100kbps`, as ns-2's Mac802_11::sendACK/sendCTS do (basicRate_) and hopsim
    /// always has.
    #[inline]
    pub fn response_rate(self, eliciting: u32, basic_100kbps: u32) -> u32 {
        if self == Standard::B {
            return basic_100kbps;
        }
        // An HT or VHT frame is answered in non-HT OFDM, by its MCS's modulation and coding.
        let eliciting = match McsMode::from_code(eliciting) {
            Some(m) => m.non_ht_reference_100kbps(),
            None => eliciting,
        };
        match OfdmRate::from_kbps(100 * eliciting) {
            Some(r) => r.control_response().kbps() / 100,
            None => eliciting,
        }
    }

    /// The rate at which EIFS assumes an ACK is sent (10.3.2.3.7: "the lowest PHY mandatory
    /// rate"): 1 Mbit/s DSSS for b and ERP (whose mandatory set includes it), 6 Mbit/s OFDM
    /// for a.
    pub fn lowest_mandatory_100kbps(self) -> u32 {
        match self {
            Standard::A | Standard::N | Standard::Ac => 60,
            Standard::B | Standard::G => 10,
        }
    }
}

/// 802.11b's rates in 100 kbit/s.
pub const DSSS_RATES: [u32; 4] = [10, 20, 55, 110];
/// The OFDM rates in 100 kbit/s (Table 17-4).
pub const OFDM_RATES: [u32; 8] = [60, 90, 120, 180, 240, 360, 480, 540];
/// An ERP station's rates (clause 18: DSSS/CCK and ERP-OFDM), slowest first.
pub const ERP_RATES: [u32; 12] = [10, 20, 55, 60, 90, 110, 120, 180, 240, 360, 480, 540];
/// The longest ladder.
pub const MAX_RATES: usize = 12;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_responses_follow_the_mandatory_rates() {
        let a = Standard::A;
        let answers: Vec<u32> = OFDM_RATES.iter().map(|&r| a.response_rate(r, 60)).collect();
        // 6 -> 6, 9 -> 6, 12 -> 12, 18 -> 12, 24..54 -> 24.
        assert_eq!(answers, [60, 60, 120, 120, 240, 240, 240, 240]);
        assert_eq!(Standard::G.response_rate(110, 60), 110, "CCK is answered in CCK");
        assert_eq!(Standard::G.response_rate(10, 60), 10);
        assert_eq!(Standard::B.response_rate(110, 10), 10, "ns-2: the basic rate");
    }

    #[test]
    fn ht_frames_are_answered_at_the_ofdm_rate_of_their_modulation() {
        use crate::phy::ht::{HtMode, HtWidth};
        let n = Standard::N;
        let answers: Vec<u32> = (0..16)
            .map(|m| n.response_rate(HtMode::new(m, HtWidth::Mhz20, false).unwrap().code(), 60))
            .collect();
        // BPSK 1/2 -> 6; QPSK -> 12; 16-QAM and 64-QAM -> 24; two streams alike.
        let one = [60, 120, 120, 240, 240, 240, 240, 240];
        assert_eq!(answers[..8], one);
        assert_eq!(answers[8..], one);
        let m7 = HtMode::new(7, HtWidth::Mhz40, true).unwrap();
        assert_eq!(n.txtime_ns(1500, m7.code()), m7.txtime_ns(1500, false));
        // VHT: 256-QAM (MCS 8, 9) has no OFDM twin and is answered at 24 Mbit/s, 80 MHz too.
        let ac = Standard::Ac;
        let vht = |m| McsMode::vht(m, 1, 80, false).unwrap().code();
        let answers: Vec<u32> = (0..10).map(|m| ac.response_rate(vht(m), 60)).collect();
        assert_eq!(answers, [60, 120, 120, 240, 240, 240, 240, 240, 240, 240]);
    }

    #[test]
    fn ppdu_durations_per_standard() {
        // 14-octet ACK at 24 Mbit/s: 16 + 4 + ceil(134 / 96) = 2 symbols -> 28 us.
        assert_eq!(Standard::A.txtime_ns(14, 240), us(28));
        // ...on ERP 6 us more of signal extension.
        assert_eq!(Standard::G.txtime_ns(14, 240), us(34));
        // DSSS on ERP is as on 802.11b: 192 + 112 us.
        assert_eq!(Standard::G.txtime_ns(14, 10), us(304));
        assert_eq!(Standard::B.txtime_ns(1500, 110), us(192 + 1091));
    }

    #[test]
    fn serde_names() {
        for s in [Standard::B, Standard::A, Standard::G, Standard::N, Standard::Ac] {
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, format!("\"{}\"", s.name()));
        }
    }
}

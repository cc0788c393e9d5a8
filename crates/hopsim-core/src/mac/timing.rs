//! DCF timing per PHY standard (802.11b DSSS: IEEE 802.11-2007 clause 18 and ns-2.35's
//! Mac/802_11 defaults; 802.11a/g OFDM: 802.11-2016 clauses 17-18) and frame sizes. Every
//! duration is integer nanoseconds.

use crate::engine::time::{us, SimDuration};

/// Long PLCP preamble and header, always at 1 Mbit/s (phy/dsss.rs): 192 us.
pub use crate::phy::dsss::PLCP_NS;
use crate::phy::ht::HtMode;
use crate::phy::mcs::McsMode;
pub use crate::phy::standard::Standard;
/// Clear channel assessment time of the DSSS PHY, aCCATime <= 15 us (802.11-2007 15.3.3,
/// Table 15-2; the same for HR/DSSS in 18.3.3). The slot is built around it (9.2.10:
/// aSlotTime = aCCATime + aRxTxTurnaroundTime + aAirPropagationTime + aMACProcessingDelay):
/// a station decides at a slot boundary from what its CCA reported during the slot, and a
/// signal that reached it less than aCCATime before the boundary may not be reported yet.
/// So a busy period that begins within this time before (or at) the end of a countdown or
/// of DIFS/EIFS is not sensed in time and the station transmits (mac/access/mod.rs). It exceeds
/// every propagation delay between stations in range (aAirPropagationTime 1 us; 1.8 us at
/// the 550 m carrier-sense range) and is less than a slot, as the composition requires.
pub const CCA_NS: SimDuration = us(15);
/// aCCATime of the OFDM PHY (Table 17-21) and of ERP with the short slot (Table 18-5): < 4 us;
/// with ERP's long slot it is DSSS's 15 us (Table 18-5).
pub const OFDM_CCA_NS: SimDuration = us(4);

/// MAC frame sizes in bytes (802.11-2007 7.2): RTS 20, CTS 14, ACK 14.
pub const RTS_BYTES: u32 = 20;
pub const CTS_BYTES: u32 = 14;
pub const ACK_BYTES: u32 = 14;
/// Data MPDU overhead: 24 B MAC header + 4 B FCS; LLC/SNAP 8 B is part of the MSDU.
pub const MAC_HEADER_BYTES: u32 = 24;
pub const QOS_CONTROL_BYTES: u32 = 2;
pub const FCS_BYTES: u32 = 4;
pub const LLC_SNAP_BYTES: u32 = 8;

/// A data rate as the TXVECTOR gives it: a non-HT rate (DSSS/CCK or OFDM) in units of
/// 100 kbit/s (10, 20, 55, 110 for 802.11b; 60, 90, 120, 180, 240, 360, 480, 540 for
/// OFDM), or an HT or VHT MCS with its streams, width and guard interval (phy/mcs.rs). The
/// sets do not overlap, so the rate alone says which PPDU format carries the frame
/// (phy/standard.rs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate(pub u32);

impl Rate {
    pub fn from_mbps(mbps: f64) -> Rate {
        Rate((mbps * 10.0).round() as u32)
    }

    pub fn ht(mode: HtMode) -> Rate {
        Rate(mode.code())
    }

    pub fn mcs(mode: McsMode) -> Rate {
        Rate(mode.code())
    }

    /// The HT or VHT mode, if this is an MCS.
    #[inline]
    pub fn mcs_mode(self) -> Option<McsMode> {
        McsMode::from_code(self.0)
    }

    /// Whether this is a non-HT OFDM (or ERP-OFDM) rate, 6-54 Mbit/s (Table 17-4).
    #[inline]
    pub fn is_ofdm(self) -> bool {
        crate::phy::standard::OFDM_RATES.contains(&self.0)
    }

    pub fn mbps(self) -> f64 {
        match self.mcs_mode() {
            Some(m) => f64::from(m.kbps()) / 1000.0,
            None => self.0 as f64 / 10.0,
        }
    }
}

/// The PSDU octets of one `mpdu_bytes` MPDU sent alone at `rate`: the MPDU, or at a VHT rate
/// the S-MPDU (phy/mcs.rs).
#[inline]
pub fn single_psdu_bytes(mpdu_bytes: u32, rate: Rate) -> u32 {
    match rate.mcs_mode() {
        Some(m) => m.single_psdu_bytes(mpdu_bytes),
        None => mpdu_bytes,
    }
}

/// The DCF timing of one MAC, derived from the scenario.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    pub standard: Standard,
    pub slot: SimDuration,
    pub sifs: SimDuration,
    /// The idle time before a countdown: DIFS = SIFS + 2 slots (802.11-2016 10.3.2.3.5);
    /// for a QoS (HT) station AIFS[AC_BE] = SIFS + 3 slots (10.22.2.2, Table 9-137's AIFSN
    /// of best effort; ns-3's EDCA default).
    pub difs: SimDuration,
    /// EIFS = SIFS + ACK time at the lowest mandatory rate + DIFS (10.3.2.3.7), AIFS in
    /// place of DIFS for a QoS station (10.22.2.3).
    pub eifs: SimDuration,
    /// Rate of RTS frames and of broadcast DATA.
    pub basic_rate: Rate,
    pub data_rate: Rate,
    pub rts_ns: SimDuration,
    /// The CTS that answers an RTS (sent at the basic rate).
    pub cts_ns: SimDuration,
    /// An ACK at the basic rate: 802.11b's every ACK; see [`Timing::ack_after_ns`].
    pub ack_ns: SimDuration,
    /// Largest propagation delay in the network: margin of the CTS/ACK timeouts.
    pub max_prop_ns: SimDuration,
}

impl Timing {
    /// 802.11b timing (the default standard).
    pub fn new(basic_rate: Rate, data_rate: Rate, max_prop_ns: SimDuration) -> Timing {
        Timing::for_standard(Standard::B, basic_rate, data_rate, max_prop_ns)
    }

    pub fn for_standard(
        standard: Standard,
        basic_rate: Rate,
        data_rate: Rate,
        max_prop_ns: SimDuration,
    ) -> Timing {
        let phy = standard.timing();
        let difs = phy.sifs_ns + standard.ifs_slots() * phy.slot_ns;
        let lowest = Rate(standard.lowest_mandatory_100kbps());
        let cts_rate = Rate(standard.response_rate(basic_rate.0, basic_rate.0));
        Timing {
            standard,
            slot: phy.slot_ns,
            sifs: phy.sifs_ns,
            difs,
            eifs: phy.sifs_ns + standard.txtime_ns(ACK_BYTES, lowest.0) + difs,
            basic_rate,
            data_rate,
            rts_ns: standard.txtime_ns(RTS_BYTES, basic_rate.0),
            cts_ns: standard.txtime_ns(CTS_BYTES, cts_rate.0),
            ack_ns: standard.txtime_ns(ACK_BYTES, basic_rate.0),
            max_prop_ns,
        }
    }

    /// The MAC header of a DATA frame: 24 octets, 26 for a QoS station's QoS Data frame
    /// (9.3.2.1: the QoS Control field).
    pub fn data_header_bytes(&self) -> u32 {
        if self.standard.is_ht() {
            MAC_HEADER_BYTES + QOS_CONTROL_BYTES
        } else {
            MAC_HEADER_BYTES
        }
    }

    /// TXTIME of one `bytes`-octet MPDU sent alone at `rate` on this standard's PHY (at a
    /// VHT rate inside an S-MPDU: phy/mcs.rs).
    #[inline]
    pub fn airtime_ns(&self, bytes: u32, rate: Rate) -> SimDuration {
        self.standard.txtime_ns(single_psdu_bytes(bytes, rate), rate.0)
    }

    /// TXTIME of a PSDU of `bytes` octets (an A-MPDU, delimiters and padding counted).
    #[inline]
    pub fn psdu_airtime_ns(&self, bytes: u32, rate: Rate) -> SimDuration {
        self.standard.txtime_ns(bytes, rate.0)
    }

    /// The rate of the CTS or ACK answering a frame sent at `eliciting`.
    #[inline]
    pub fn response_rate(&self, eliciting: Rate) -> Rate {
        Rate(self.standard.response_rate(eliciting.0, self.basic_rate.0))
    }

    /// The ACK that answers a DATA frame sent at `data_rate`.
    #[inline]
    pub fn ack_after_ns(&self, data_rate: Rate) -> SimDuration {
        match self.standard {
            Standard::B => self.ack_ns,
            _ => self.airtime_ns(ACK_BYTES, self.response_rate(data_rate)),
        }
    }

    /// aRxPHYStartDelay: from a frame's first bit to PHY-RXSTART, its preamble and PHY header
    /// (DSSS long preamble: 192 us, Table 15-5; OFDM: 16 + 4 us, Table 17-21).
    pub fn rx_phy_start_ns(&self) -> SimDuration {
        match self.standard {
            Standard::B => PLCP_NS,
            // HT: the CTS the timeout waits for is a non-HT frame (ns-3's NAV reset delay
            // takes the CTS's own preamble and header).
            Standard::A | Standard::G | Standard::N | Standard::Ac => {
                crate::phy::ofdm::PREAMBLE_NS + crate::phy::ofdm::SIGNAL_NS
            }
        }
    }

    /// NAVTimeout (10.3.2.4): 2 aSIFSTime + CTS_Time + aRxPHYStartDelay + 2 aSlotTime, the
    /// time after an RTS within which the exchange it announced shows itself.
    pub fn nav_timeout_ns(&self) -> SimDuration {
        2 * self.sifs + self.cts_ns + self.rx_phy_start_ns() + 2 * self.slot
    }

    /// aCCATime: how late before a slot boundary a busy medium may go unreported.
    pub fn cca_ns(&self) -> SimDuration {
        if self.slot >= us(20) {
            CCA_NS
        } else {
            OFDM_CCA_NS
        }
    }

    /// Time to wait after the end of an RTS (or DATA) for the CTS (or ACK) to have arrived:
    /// SIFS + response time + one slot + round-trip propagation margin.
    #[inline]
    pub fn response_timeout(&self, response_ns: SimDuration) -> SimDuration {
        self.sifs + response_ns + self.slot + 2 * self.max_prop_ns
    }

    /// Duration field of an RTS (802.11-2007 7.2.1.1): 3 SIFS + CTS + DATA + ACK, the ACK
    /// at the rate that answers DATA at `data_rate`.
    #[inline]
    pub fn rts_nav(&self, data_ns: SimDuration, data_rate: Rate) -> SimDuration {
        3 * self.sifs + self.cts_ns + data_ns + self.ack_after_ns(data_rate)
    }

    /// A compressed BlockAck answering a PSDU sent at `data_rate` (9.3.1.9; at the
    /// control-response rate, as an ACK, ns-3's GetBlockAckTxVector).
    #[inline]
    pub fn block_ack_after_ns(&self, data_rate: Rate) -> SimDuration {
        self.airtime_ns(crate::mac::ampdu::BLOCK_ACK_BYTES, self.response_rate(data_rate))
    }

    /// Duration field of an RTS protecting a PSDU of `data_ns` answered by a frame of
    /// `response_ns` (an ACK or a BlockAck): 3 SIFS + CTS + PSDU + response.
    #[inline]
    pub fn rts_nav_for(&self, data_ns: SimDuration, response_ns: SimDuration) -> SimDuration {
        3 * self.sifs + self.cts_ns + data_ns + response_ns
    }

    /// Duration field of a CTS (7.2.1.2): RTS duration - SIFS - CTS time.
    #[inline]
    pub fn cts_nav(&self, rts_nav: SimDuration) -> SimDuration {
        rts_nav.saturating_sub(self.sifs + self.cts_ns)
    }

    /// Duration field of a unicast DATA frame (7.2.2): SIFS + ACK.
    #[inline]
    pub fn data_nav(&self, data_rate: Rate) -> SimDuration {
        self.sifs + self.ack_after_ns(data_rate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_frame_times() {
        // TXTIME = 192 us + ceil(8 * bytes / rate) us (802.11-2007 18.3.4).
        let airtime_ns = |bytes, rate: Rate| Timing::new(Rate(10), rate, 0).airtime_ns(bytes, rate);
        assert_eq!(airtime_ns(ACK_BYTES, Rate(10)), us(304));
        assert_eq!(airtime_ns(RTS_BYTES, Rate(10)), us(352));
        assert_eq!(airtime_ns(ACK_BYTES, Rate(20)), us(248));
        // 1500 B at 5.5 Mbit/s: 12000/5.5 = 2181.8 -> 2182 us.
        assert_eq!(airtime_ns(1500, Rate(55)), us(192 + 2182));
        assert_eq!(airtime_ns(1500, Rate(110)), us(192 + 1091));
    }

    #[test]
    fn eifs_is_364us() {
        let t = Timing::new(Rate(10), Rate(20), 0);
        assert_eq!(t.eifs, us(364));
        assert_eq!(t.difs, us(50));
    }

    #[test]
    fn ofdm_timing_of_80211a_and_g() {
        // 802.11a: DIFS 16 + 2 x 9 = 34 us; EIFS = 16 + ACK at 6 Mbit/s (16 + 4 + 6 x 4 = 44)
        // + 34 = 94 us.
        let a = Timing::for_standard(Standard::A, Rate(60), Rate(540), 0);
        assert_eq!((a.slot, a.sifs, a.difs, a.eifs), (us(9), us(16), us(34), us(94)));
        // RTS 20 B at 6: ceil(182 / 24) = 8 symbols -> 52 us; CTS 14 B -> 44 us.
        assert_eq!((a.rts_ns, a.cts_ns), (us(52), us(44)));
        // DATA at 54 is acknowledged at 24: 28 us; at 9, at 6: 44 us.
        assert_eq!(a.ack_after_ns(Rate(540)), us(28));
        assert_eq!(a.ack_after_ns(Rate(90)), us(44));
        // 802.11g in an IBSS: long slot 20, SIFS 10, DIFS 50; EIFS with a 1 Mbit/s ACK:
        // 10 + 304 + 50.
        // 802.11n (5 GHz): a's PHY timing, AIFS[BE] = 16 + 3 x 9 = 43 us before a countdown,
        // EIFS 16 + 44 + 43 = 103 us; QoS Data headers of 26 octets.
        let n = Timing::for_standard(Standard::N, Rate(60), Rate(60), 0);
        assert_eq!((n.slot, n.sifs, n.difs, n.eifs), (us(9), us(16), us(43), us(103)));
        assert_eq!((n.data_header_bytes(), a.data_header_bytes()), (26, 24));
        let g = Timing::for_standard(Standard::G, Rate(60), Rate(540), 0);
        assert_eq!((g.slot, g.sifs, g.difs, g.eifs), (us(20), us(10), us(50), us(364)));
        assert_eq!(g.ack_after_ns(Rate(540)), us(34), "28 us + 6 us signal extension");
    }
}

//! 802.11b DSSS timing (IEEE 802.11-2007 clause 18; ns-2.35 Mac/802_11 defaults) and frame
//! sizes. Every duration is integer nanoseconds.

use crate::engine::time::{us, SimDuration};

/// Long PLCP preamble and header, always at 1 Mbit/s (phy/dsss.rs): 192 us.
pub use crate::phy::dsss::PLCP_NS;
pub const SLOT_NS: SimDuration = us(20);
pub const SIFS_NS: SimDuration = us(10);
/// DIFS = SIFS + 2 slots (802.11-2007 9.2.10).
pub const DIFS_NS: SimDuration = SIFS_NS + 2 * SLOT_NS;
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

/// MAC frame sizes in bytes (802.11-2007 7.2): RTS 20, CTS 14, ACK 14.
pub const RTS_BYTES: u32 = 20;
pub const CTS_BYTES: u32 = 14;
pub const ACK_BYTES: u32 = 14;
/// Data MPDU overhead: 24 B MAC header + 4 B FCS; LLC/SNAP 8 B is part of the MSDU.
pub const MAC_HEADER_BYTES: u32 = 24;
pub const FCS_BYTES: u32 = 4;
pub const LLC_SNAP_BYTES: u32 = 8;

/// A data rate of 802.11b, stored in units of 100 kbit/s (10, 20, 55, 110).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate(pub u32);

impl Rate {
    pub fn from_mbps(mbps: f64) -> Rate {
        Rate((mbps * 10.0).round() as u32)
    }

    pub fn mbps(self) -> f64 {
        self.0 as f64 / 10.0
    }
}

/// TXTIME = preamble + PLCP header + ceil(8 * bytes / rate) microseconds (802.11-2007 18.3.4).
pub fn airtime_ns(bytes: u32, rate: Rate) -> SimDuration {
    // 8 * bytes / (rate/10 Mbit/s) us = 80 * bytes / rate_100k us, rounded up to whole us.
    let payload_us = (80 * bytes as u64).div_ceil(rate.0 as u64);
    PLCP_NS + us(payload_us)
}

/// The DCF timing of one MAC, derived from the scenario.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    pub slot: SimDuration,
    pub sifs: SimDuration,
    pub difs: SimDuration,
    /// EIFS = SIFS + ACK time at the lowest rate (1 Mbit/s) + DIFS (802.11-2007 9.2.10).
    pub eifs: SimDuration,
    pub basic_rate: Rate,
    pub data_rate: Rate,
    pub rts_ns: SimDuration,
    pub cts_ns: SimDuration,
    pub ack_ns: SimDuration,
    /// Largest propagation delay in the network: margin of the CTS/ACK timeouts.
    pub max_prop_ns: SimDuration,
}

impl Timing {
    pub fn new(basic_rate: Rate, data_rate: Rate, max_prop_ns: SimDuration) -> Timing {
        Timing {
            slot: SLOT_NS,
            sifs: SIFS_NS,
            difs: DIFS_NS,
            eifs: SIFS_NS + airtime_ns(ACK_BYTES, Rate(10)) + DIFS_NS,
            basic_rate,
            data_rate,
            rts_ns: airtime_ns(RTS_BYTES, basic_rate),
            cts_ns: airtime_ns(CTS_BYTES, basic_rate),
            ack_ns: airtime_ns(ACK_BYTES, basic_rate),
            max_prop_ns,
        }
    }

    /// Time to wait after the end of an RTS (or DATA) for the CTS (or ACK) to have arrived:
    /// SIFS + response time + one slot + round-trip propagation margin.
    pub fn response_timeout(&self, response_ns: SimDuration) -> SimDuration {
        self.sifs + response_ns + self.slot + 2 * self.max_prop_ns
    }

    /// Duration field of an RTS (802.11-2007 7.2.1.1): 3 SIFS + CTS + DATA + ACK.
    pub fn rts_nav(&self, data_ns: SimDuration) -> SimDuration {
        3 * self.sifs + self.cts_ns + data_ns + self.ack_ns
    }

    /// Duration field of a CTS (7.2.1.2): RTS duration - SIFS - CTS time.
    pub fn cts_nav(&self, rts_nav: SimDuration) -> SimDuration {
        rts_nav.saturating_sub(self.sifs + self.cts_ns)
    }

    /// Duration field of a unicast DATA frame (7.2.2): SIFS + ACK.
    pub fn data_nav(&self) -> SimDuration {
        self.sifs + self.ack_ns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_frame_times() {
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
}

//! EDCA (IEEE 802.11-2016 10.22.2): the four access categories of a QoS station, their
//! default parameters, and how a packet finds its category: the IP header's DSCP gives a
//! user priority (RFC 8325 section 4.3, as Linux's `cfg80211_classify8021d` maps it since
//! 6.1), the user priority gives the category (Table 10-1) and is the frame's TID.

use crate::engine::time::{us, SimDuration};

/// An access category; the index orders them by priority (AC_BK lowest).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ac {
    Bk = 0,
    Be = 1,
    Vi = 2,
    Vo = 3,
}

impl Ac {
    pub const ALL: [Ac; 4] = [Ac::Bk, Ac::Be, Ac::Vi, Ac::Vo];

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Ac {
        Ac::ALL[i]
    }

    /// Table 10-1: UP 1, 2 -> AC_BK; 0, 3 -> AC_BE; 4, 5 -> AC_VI; 6, 7 -> AC_VO.
    #[inline]
    pub fn of_up(up: u8) -> Ac {
        match up & 7 {
            1 | 2 => Ac::Bk,
            0 | 3 => Ac::Be,
            4 | 5 => Ac::Vi,
            _ => Ac::Vo,
        }
    }

    /// The category of an IP packet with this DSCP.
    #[inline]
    pub fn of_dscp(dscp: u8) -> Ac {
        Ac::of_up(up_of_dscp(dscp))
    }

    /// The DSCP a flow of this category marks its packets with: RFC 8325 Figure 1's
    /// representative of each (Telephony EF, Multimedia Conferencing AF41, Standard DF,
    /// Low-Priority Data CS1), which `up_of_dscp` maps back to this category.
    pub fn dscp(self) -> u8 {
        match self {
            Ac::Vo => 46,
            Ac::Vi => 34,
            Ac::Be => 0,
            Ac::Bk => 8,
        }
    }

    /// The TID of a flow of this category: the user priority of its DSCP.
    #[inline]
    pub fn tid(self) -> u8 {
        up_of_dscp(self.dscp())
    }

    pub fn name(self) -> &'static str {
        ["AC_BK", "AC_BE", "AC_VI", "AC_VO"][self.index()]
    }
}

/// RFC 8325 section 4.3 (Figure 1): DSCP to 802.11 user priority. Codepoints it does not
/// name map to UP 0.
pub fn up_of_dscp(dscp: u8) -> u8 {
    match dscp & 0x3f {
        48 => 7,                                // CS6, network control
        46 | 44 => 6,                           // EF, VOICE-ADMIT
        40 => 5,                                // CS5, signaling
        32..=38 if dscp.is_multiple_of(2) => 4, // CS4, AF41-43
        24..=30 if dscp.is_multiple_of(2) => 4, // CS3, AF31-33
        18 | 20 | 22 => 3,                      // AF21-23, low-latency data
        8 | 1 => 1,                             // CS1, LE (RFC 8622)
        _ => 0,                                 // DF, CS2, AF1x, CS7 and the rest
    }
}

/// One category's parameters (the EDCA Parameter Set element, 9.4.2.29).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdcaParams {
    pub aifsn: u32,
    pub cw_min: u32,
    pub cw_max: u32,
    /// 0: one frame exchange (an MPDU or an A-MPDU) per access.
    pub txop_limit_ns: SimDuration,
}

impl EdcaParams {
    /// The default EDCA parameter set (Table 9-137, dot11OCBActivated false) from the PHY's
    /// aCWmin and aCWmax; TXOP limits of the OFDM and HT PHYs (the DSSS ones when `dsss`).
    pub fn default_for(ac: Ac, a_cw_min: u32, a_cw_max: u32, dsss: bool) -> EdcaParams {
        match ac {
            Ac::Bk => EdcaParams { aifsn: 7, cw_min: a_cw_min, cw_max: a_cw_max, txop_limit_ns: 0 },
            Ac::Be => EdcaParams { aifsn: 3, cw_min: a_cw_min, cw_max: a_cw_max, txop_limit_ns: 0 },
            Ac::Vi => EdcaParams {
                aifsn: 2,
                cw_min: a_cw_min.div_ceil(2) - 1, // (aCWmin + 1) / 2 - 1
                cw_max: a_cw_min,
                txop_limit_ns: if dsss { us(6016) } else { us(3008) },
            },
            Ac::Vo => EdcaParams {
                aifsn: 2,
                cw_min: (a_cw_min + 1) / 4 - 1,
                cw_max: a_cw_min.div_ceil(2) - 1,
                txop_limit_ns: if dsss { us(3264) } else { us(1504) },
            },
        }
    }

    /// AIFS[AC] = AIFSN[AC] x aSlotTime + aSIFSTime (10.22.2.4).
    pub fn aifs_ns(&self, slot: SimDuration, sifs: SimDuration) -> SimDuration {
        sifs + u64::from(self.aifsn) * slot
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_9_137_defaults_with_ofdm_cw() {
        let p = |ac| EdcaParams::default_for(ac, 15, 1023, false);
        assert_eq!(p(Ac::Bk), EdcaParams { aifsn: 7, cw_min: 15, cw_max: 1023, txop_limit_ns: 0 });
        assert_eq!(p(Ac::Be), EdcaParams { aifsn: 3, cw_min: 15, cw_max: 1023, txop_limit_ns: 0 });
        assert_eq!(
            p(Ac::Vi),
            EdcaParams { aifsn: 2, cw_min: 7, cw_max: 15, txop_limit_ns: 3_008_000 }
        );
        assert_eq!(
            p(Ac::Vo),
            EdcaParams { aifsn: 2, cw_min: 3, cw_max: 7, txop_limit_ns: 1_504_000 }
        );
        // 802.11a/n: AIFS[BE] = 16 + 3 x 9 = 43 us, AIFS[VO] = 34 us (= DIFS).
        assert_eq!(p(Ac::Be).aifs_ns(us(9), us(16)), us(43));
        assert_eq!(p(Ac::Vo).aifs_ns(us(9), us(16)), us(34));
        assert_eq!(p(Ac::Bk).aifs_ns(us(9), us(16)), us(79));
    }

    #[test]
    fn rfc8325_mapping_and_table_10_1() {
        for ac in Ac::ALL {
            assert_eq!(Ac::of_dscp(ac.dscp()), ac, "{}", ac.name());
        }
        assert_eq!((up_of_dscp(46), up_of_dscp(34), up_of_dscp(0), up_of_dscp(8)), (6, 4, 0, 1));
        // AF11 (high-throughput data) and CS2 (OAM) stay best effort; CS6 is UP 7 (AC_VO);
        // AF21 low-latency data UP 3 (AC_BE); CS5 UP 5 (AC_VI); an odd codepoint UP 0.
        assert_eq!([10, 16, 48, 18, 40, 33].map(up_of_dscp), [0, 0, 7, 3, 5, 0]);
        assert_eq!(
            [0, 1, 2, 3, 4, 5, 6, 7].map(Ac::of_up).map(Ac::index),
            [1, 0, 0, 1, 2, 2, 3, 3]
        );
    }
}

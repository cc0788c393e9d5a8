//! The MAC's configuration from the scenario's `[mac]` and `[radio]` tables: the DCF timing
//! of the standard and the data rate, fixed (a rate or an HT MCS) or adapted.

use crate::engine::time::secs_to_ns;
use crate::engine::time::SimDuration;
use crate::mac::amsdu::{AmsduConfig, HT_MPDU_IN_AMPDU_BYTES};
use crate::mac::dcf::{AggConfig, DcfConfig};
use crate::mac::edca::{Ac, EdcaParams};
use crate::mac::rate::ideal::IdealConfig;
use crate::mac::rate::minstrel_ht::{MinstrelConfig, LINUX_OVERHEAD_NS, LINUX_OVERHEAD_RTSCTS_NS};
use crate::mac::rate::{FailAverage, RateAlgo};
use crate::mac::timing::{Rate, Timing};
use crate::phy::mcs::McsMode;
use crate::scenario::{DataRate, HwmpFailAverage, Profile, RateControlAlgo, Scenario};

/// The DCF configuration of every node; `max_delay_ns`: the largest propagation delay.
pub(super) fn dcf_config(s: &Scenario, max_delay_ns: SimDuration) -> DcfConfig {
    let standard = s.radio.standard;
    // With auto rate DATA frames take the rate control's choice; the standard's top rate
    // stands in for it where one rate is asked for (RED's packet time).
    let top = Rate(*standard.rate_ladder().last().expect("a standard has rates"));
    let data_rate = match s.mac.data_rate_mbps {
        DataRate::Mbps(r) => Rate::from_mbps(r),
        DataRate::Mcs(m) => {
            let (width, gi) = (s.radio.channel_width_mhz, s.radio.guard_interval_ns == 400);
            let mode = if standard.is_vht() {
                McsMode::vht(m, s.radio.spatial_streams as u8, width, gi)
            } else {
                McsMode::ht(m, width, gi)
            };
            Rate::mcs(mode.expect("the scenario checks allow only valid MCSs"))
        }
        DataRate::Auto => top,
    };
    let timing = Timing::for_standard(
        standard,
        Rate::from_mbps(s.mac.basic_rate_mbps),
        data_rate,
        max_delay_ns,
    );
    DcfConfig {
        timing,
        cw_min: s.mac.cw_min,
        cw_max: s.mac.cw_max,
        rts_threshold_bytes: s.mac.rts_threshold_bytes,
        short_retry_limit: s.mac.short_retry_limit,
        long_retry_limit: s.mac.long_retry_limit,
        ns2: s.profile == Profile::Ns2,
        // A QoS station (HT and VHT require QoS, 802.11-2016 10.2.1): EDCA with the default
        // parameter set from the PHY's aCWmin and aCWmax (`mac.cw_min`, `mac.cw_max`), and
        // the scenario's `mac.edca` keys over it.
        edca: standard.is_ht().then(|| {
            let defaults =
                Ac::ALL.map(|ac| EdcaParams::default_for(ac, s.mac.cw_min, s.mac.cw_max, false));
            s.mac.edca.apply(defaults)
        }),
        erp_protection: s.mac.erp_protection,
        // HWMP's airtime metric reads the average (routing.hwmp_fail_average, set for HWMP
        // alone); no other protocol reads it.
        fail_average: match s.routing.hwmp_fail_average {
            Some(HwmpFailAverage::Time) => FailAverage::Time,
            Some(HwmpFailAverage::Attempts) => FailAverage::Attempts,
            None => FailAverage::Off,
        },
        agg: (s.mac.ampdu_max_bytes > 0).then(|| AggConfig {
            max_bytes: s.mac.ampdu_max_bytes,
            max_mpdus: s.mac.ampdu_max_mpdus as u16,
            density_ns: u64::from(s.mac.mpdu_density_ns),
            reorder_timeout_ns: s.mac.reorder_timeout_s.filter(|&t| t > 0.0).map(secs_to_ns),
            msdu_lifetime_ns: secs_to_ns(s.mac.msdu_lifetime_s.unwrap_or(0.512)),
        }),
        amsdu: (s.mac.amsdu_max_bytes > 0).then(|| AmsduConfig {
            max_bytes: s.mac.amsdu_max_bytes,
            // An MPDU that may go in an HT A-MPDU: 4,095 octets (9.7.1); otherwise the
            // A-MSDU limit alone holds it (mac/amsdu.rs).
            max_mpdu_bytes: if s.mac.ampdu_max_bytes > 0 && !standard.is_vht() {
                HT_MPDU_IN_AMPDU_BYTES
            } else {
                u32::MAX
            },
        }),
        rate_algo: match (s.mac.data_rate_mbps, s.mac.rate_control) {
            (DataRate::Mbps(_) | DataRate::Mcs(_), _) => RateAlgo::Constant(data_rate),
            (DataRate::Auto, RateControlAlgo::Arf) => RateAlgo::Arf,
            (DataRate::Auto, RateControlAlgo::Aarf) => RateAlgo::Aarf,
            (DataRate::Auto, RateControlAlgo::Sample) => RateAlgo::Sample,
            (DataRate::Auto, RateControlAlgo::MinstrelHt) => RateAlgo::MinstrelHt(MinstrelConfig {
                vht: standard.is_vht(),
                width_mhz: s.radio.channel_width_mhz,
                short_gi: s.radio.guard_interval_ns == 400,
                max_streams: s.radio.antennas as u8,
                cw_min: s.mac.cw_min,
                cw_max: s.mac.cw_max,
                slot_ns: timing.slot,
                // Linux's own estimate of a PPDU's fixed cost (minstrel_ht_update_caps).
                overhead_ns: LINUX_OVERHEAD_NS,
                overhead_rtscts_ns: LINUX_OVERHEAD_RTSCTS_NS,
            }),
            (DataRate::Auto, RateControlAlgo::Ideal) => RateAlgo::Ideal(IdealConfig {
                width_mhz: s.radio.channel_width_mhz,
                short_gi: s.radio.guard_interval_ns == 400,
                max_streams: s.radio.antennas as u8,
            }),
        },
    }
}

//! Minstrel-HT's rate groups: one group per (streams, guard interval) at the configured
//! channel width, each holding that family's MCSs (HT: 8, VHT: 10), with the airtime of an
//! average packet at each rate.
//!
//! Group order follows Linux's `GROUP_IDX` (rc80211_minstrel_ht.c): guard interval, then
//! streams, so slot = 4 × sgi + streams − 1. Linux also orders by width; here only one width
//! exists. The legacy CCK and OFDM groups of Linux are left out: our HT/VHT stations send
//! MCSs only.
//!
//! Durations: Linux's `MCS_DURATION` counts the OFDM symbols of an A-MPDU of
//! `AVG_AMPDU_SIZE` (16) packets of `AVG_PKT_SIZE` (1200) bytes from a table of data bits per
//! symbol, and divides by 16. We compute the same quantity from the standard instead: the
//! DATA field of a 16 × 1200-byte PSDU at that MCS (`McsMode::txtime_ns` less its
//! preamble, so SERVICE and tail bits and the short-GI rounding are the standard's), divided
//! by 16. The difference from Linux's table is a few ns per packet.

use super::MinstrelConfig;
use crate::mac::timing::Rate;
use crate::phy::mcs::McsMode;

/// `MINSTREL_MAX_STREAMS`.
pub(super) const MAX_STREAMS: usize = 4;
/// Groups at one width: streams × {long GI, short GI}.
pub(super) const NGROUPS: usize = 2 * MAX_STREAMS;
/// `MCS_GROUP_RATES`: slots per group (VHT MCS 0-9; HT uses 0-7).
pub(super) const GROUP_RATES: usize = 10;
/// Linux `AVG_PKT_SIZE`, bytes.
pub(super) const AVG_PKT_SIZE: u32 = 1200;
/// Linux `AVG_AMPDU_SIZE`, MPDUs.
pub(super) const AVG_AMPDU_SIZE: u32 = 16;

/// A rate index as Linux's `MI_RATE(group, idx)`: group in the upper bits, rate in the low 4.
/// Index 0 (group 0, rate 0) doubles as "no rate" in the sample lists, as in Linux.
pub(super) type RateIdx = u16;

pub(super) const fn mi_rate(group: usize, idx: usize) -> RateIdx {
    ((group << 4) | (idx & 0xf)) as RateIdx
}

pub(super) const fn rate_group(r: RateIdx) -> usize {
    (r >> 4) as usize
}

pub(super) const fn rate_idx(r: RateIdx) -> usize {
    (r & 0xf) as usize
}

/// Slot of the group of `streams` streams (1-4) and guard interval `sgi`.
pub(super) const fn group_slot(streams: u32, sgi: bool) -> usize {
    (sgi as usize) * MAX_STREAMS + streams as usize - 1
}

/// What one group is: its streams, its rates that exist (bit i = rate i), their codes and the
/// airtime of an average packet at each (ns; `u32::MAX` where the rate does not exist).
#[derive(Debug, Clone, Copy)]
pub(super) struct Group {
    pub streams: u8,
    pub supported: u16,
    pub rates: [Rate; GROUP_RATES],
    pub duration_ns: [u32; GROUP_RATES],
}

impl Group {
    const EMPTY: Group = Group {
        streams: 0,
        supported: 0,
        rates: [Rate(0); GROUP_RATES],
        duration_ns: [u32::MAX; GROUP_RATES],
    };
}

/// Per-packet airtime of the DATA field at `mode`: see the module comment.
pub(super) fn avg_packet_duration_ns(mode: McsMode) -> u32 {
    let psdu = AVG_PKT_SIZE * AVG_AMPDU_SIZE;
    let data = mode.txtime_ns(psdu) - mode.preamble_ns();
    (data / u64::from(AVG_AMPDU_SIZE)) as u32
}

/// The mode of rate `idx` in the group of `streams` streams and guard interval `sgi`;
/// None for a combination the standard leaves out (VHT MCS 9 at 20 MHz with 1 stream, ...).
fn mode_of(cfg: &MinstrelConfig, streams: u8, sgi: bool, idx: usize) -> Option<McsMode> {
    if cfg.vht {
        McsMode::vht(idx as u8, streams, cfg.width_mhz, sgi)
    } else if idx < 8 {
        McsMode::ht((streams - 1) * 8 + idx as u8, cfg.width_mhz, sgi)
    } else {
        None
    }
}

/// The groups of a station (Linux minstrel_ht_update_caps; the VHT validity mask of
/// minstrel_get_valid_vht_rates comes from the standard's own table via `McsMode::vht`).
/// Groups the station lacks (more streams, or short GI when unsupported) stay empty.
pub(super) fn build_groups(cfg: &MinstrelConfig) -> [Group; NGROUPS] {
    let mut groups = [Group::EMPTY; NGROUPS];
    let max_streams = cfg.max_streams.clamp(1, MAX_STREAMS as u8);
    for sgi in [false, true] {
        if sgi && !cfg.short_gi {
            continue;
        }
        for streams in 1..=max_streams {
            let g = &mut groups[group_slot(u32::from(streams), sgi)];
            g.streams = streams;
            for idx in 0..GROUP_RATES {
                if let Some(mode) = mode_of(cfg, streams, sgi, idx) {
                    g.supported |= 1 << idx;
                    g.rates[idx] = Rate::mcs(mode);
                    g.duration_ns[idx] = avg_packet_duration_ns(mode);
                }
            }
        }
    }
    groups
}

/// The index of `rate` among `groups`, None if it is not one of them (another width, a
/// non-HT rate, another family).
pub(super) fn lookup(groups: &[Group; NGROUPS], rate: Rate) -> Option<RateIdx> {
    let mode = rate.mcs_mode()?;
    let streams = mode.streams();
    if !(1..=MAX_STREAMS as u32).contains(&streams) {
        return None;
    }
    let g = group_slot(streams, mode.short_gi());
    let idx = if mode.is_vht() { usize::from(mode.index()) } else { usize::from(mode.index() % 8) };
    let group = &groups[g];
    (idx < GROUP_RATES && group.supported & (1 << idx) != 0 && group.rates[idx] == rate)
        .then_some(mi_rate(g, idx))
}

//! Minstrel-HT rate control (Linux mac80211 `net/mac80211/rc80211_minstrel_ht.c`, the
//! 5.11+ design by Felix Fietkau: sample lists of type INC / JUMP / SLOW refilled at every
//! statistics update, a noise-filtered moving average of the success probability, a sorted
//! set of the four best-throughput rates and a max-probability rate feeding a four-entry
//! multi-rate retry chain), as a pure per-peer state machine.
//!
//! What is kept of Linux, per peer:
//! * per-rate attempts/successes, folded every `update_interval` (50 ms) into `prob_avg` by
//!   Linux's second-order filter `minstrel_filter_avg_add` (the current kernel's average; the
//!   EWMA with `EWMA_LEVEL` 96/128 is only used for the average A-MPDU length);
//! * throughput estimate `minstrel_ht_get_tp_avg` (0 under 10 %, probability capped at 90 %),
//!   sorted best-four list, per-group lists, max-probability choice and its stream
//!   reduction, the sudden-death downgrade of `minstrel_ht_tx_status`;
//! * the rate table of `minstrel_ht_update_rates` (max_tp[0..3], max_prob) with tries from
//!   `minstrel_calc_retransmit`, and a probe at most every `MINSTREL_SAMPLE_INTERVAL` (20 ms)
//!   taking the first slot with one try (`minstrel_ht_get_rate`; mac80211 fills the later
//!   slots from the rate table).
//!
//! Left out: the legacy CCK/OFDM groups (our HT/VHT stations send MCSs only), A-MSDU length
//! advice (`minstrel_ht_get_max_amsdu_len`), STBC/LDPC flags, SMPS, debugfs/fixed rate, and
//! the RTS/CTS flag Linux sets on fallback entries (a [`ChainEntry`] carries no protection
//! flag; the fallback entries do get Linux's RTS/CTS try counts). Linux's one global random
//! sample table becomes one per peer, drawn from the `Rng` at the peer's first PPDU.
//! Linux works in µs and jiffies; here everything is ns.

mod groups;
mod sample;
mod stats;
#[cfg(test)]
mod tests;

use crate::engine::rng::Rng;
use crate::engine::time::SimTime;
use crate::mac::timing::Rate;
use groups::{mi_rate, rate_group, rate_idx, Group, RateIdx, GROUP_RATES, NGROUPS};
use sample::{SampleCategory, SAMPLE_COLUMNS, SAMPLE_TYPES};
use stats::tp_avg;

/// `MINSTREL_SCALE`: probabilities are fractions of 1 << 12.
const SCALE: u32 = 12;
/// `MAX_THR_RATES`.
const MAX_THR_RATES: usize = 4;
/// Linux `mp->update_interval = HZ / 20`.
pub const UPDATE_INTERVAL_NS: SimTime = 50_000_000;
/// Linux `MINSTREL_SAMPLE_INTERVAL = HZ / 50`.
pub const SAMPLE_INTERVAL_NS: SimTime = 20_000_000;
/// Linux `mp->segment_size` (6000 µs): the longest a chain entry's tries may take.
const SEGMENT_NS: u64 = 6_000_000;
/// Linux `mp->max_retry` default (hardware `max_rate_tries` unknown): 7.
const MAX_RETRY: u8 = 7;
/// Entries of the retry chain (`IEEE80211_TX_RATE_TABLE_SIZE`, and `hw->max_rates` of 4).
const MAX_RATES: usize = 4;

/// Linux's `mi->overhead` for a 5 GHz OFDM station: `ieee80211_frame_duration` of a 0-byte
/// frame at 6 Mbit/s (SIFS + preamble + SIGNAL + 3 symbols = 48 µs) plus that of a 10-byte
/// ACK (60 µs). A caller wanting Linux's numbers passes these.
pub const LINUX_OVERHEAD_NS: u64 = 108_000;
/// Linux's `mi->overhead_rtscts`: the overhead plus two ACK durations (RTS and CTS).
pub const LINUX_OVERHEAD_RTSCTS_NS: u64 = 228_000;

/// `MINSTREL_FRAC(val, div)`.
const fn frac(val: u64, div: u64) -> u32 {
    ((val << SCALE) / div) as u32
}

/// `MINSTREL_TRUNC`.
const fn trunc(val: u64) -> u64 {
    val >> SCALE
}

/// What the station can send: from the scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MinstrelConfig {
    /// 802.11ac (VHT groups, MCS 0-9) or 802.11n (HT groups, MCS 0-7 per stream).
    pub vht: bool,
    /// The channel width: the groups of this width only.
    pub width_mhz: u32,
    /// Short GI supported: both long- and short-GI groups exist; else long only.
    pub short_gi: bool,
    /// 1..=4 (antennas).
    pub max_streams: u8,
    pub cw_min: u32,
    pub cw_max: u32,
    pub slot_ns: u64,
    /// Airtime of one PPDU exchange besides the DATA field, ns (Linux's `mi->overhead`;
    /// the caller computes it, or passes [`LINUX_OVERHEAD_NS`]).
    pub overhead_ns: u64,
    /// The same with RTS/CTS ([`LINUX_OVERHEAD_RTSCTS_NS`] in Linux).
    pub overhead_rtscts_ns: u64,
}

/// One entry of the multi-rate retry chain: the rate and its tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChainEntry {
    pub rate: Rate,
    pub tries: u8,
}

/// Linux `struct minstrel_rate_stats`.
#[derive(Debug, Clone, Copy, Default)]
struct RateStats {
    attempts: u32,
    success: u32,
    last_attempts: u32,
    last_success: u32,
    att_hist: u64,
    succ_hist: u64,
    prob_avg: u16,
    prob_avg_1: u16,
    retry_count: u8,
    retry_count_rtscts: u8,
    retry_updated: bool,
}

/// Linux `struct minstrel_mcs_group_data`.
#[derive(Debug, Clone, Copy, Default)]
struct GroupData {
    /// Position in the sample table (row index within `column`).
    index: u8,
    column: u8,
    max_group_tp_rate: [RateIdx; MAX_THR_RATES],
    max_group_prob_rate: RateIdx,
    rates: [RateStats; GROUP_RATES],
}

/// Minstrel-HT's state for one peer (Linux `struct minstrel_ht_sta`): fixed arrays only.
#[derive(Debug, Clone)]
pub struct MinstrelHt {
    cfg: MinstrelConfig,
    groups: [Group; NGROUPS],
    data: [GroupData; NGROUPS],
    /// A-MPDU lengths summed and counted this interval, and their average (scaled).
    ampdu_len: u32,
    ampdu_packets: u32,
    avg_ampdu_len: u32,
    max_tp_rate: [RateIdx; MAX_THR_RATES],
    max_prob_rate: RateIdx,
    last_stats_update: SimTime,
    sample_seq: u8,
    sample_time: SimTime,
    sample: [SampleCategory; SAMPLE_TYPES],
    sample_table: [[u8; GROUP_RATES]; SAMPLE_COLUMNS],
    /// The sample table is drawn and the first statistics computed at the first PPDU.
    started: bool,
    /// The rate table of minstrel_ht_update_rates.
    table: [ChainEntry; MAX_RATES],
}

/// Linux `minstrel_calc_retransmit` for a rate with probability ≥ 10 %: the tries without
/// and with RTS/CTS that fit the segment size, given the data airtime of one try (`data_ns`:
/// per-packet duration × average A-MPDU length), the per-PPDU overheads and the backoff.
fn retransmit_counts(
    data_ns: u64,
    overhead_ns: u64,
    overhead_rtscts_ns: u64,
    (cw_min, cw_max, slot_ns): (u32, u32, u64),
) -> (u8, u8) {
    let (mut count, mut count_rts) = (2u8, 2u8);
    let mut cw = u64::from(cw_min);
    let cw_max = u64::from(cw_max);
    // Contention of the first two tries.
    let mut ctime = (slot_ns * cw) >> 1;
    cw = ((cw << 1) | 1).min(cw_max);
    ctime += (slot_ns * cw) >> 1;
    cw = ((cw << 1) | 1).min(cw_max);
    let mut tx_time = ctime + 2 * (overhead_ns + data_ns);
    let mut tx_time_rts = ctime + 2 * (overhead_rtscts_ns + data_ns);
    loop {
        let ctime = (slot_ns * cw) >> 1;
        cw = ((cw << 1) | 1).min(cw_max);
        tx_time += ctime + overhead_ns + data_ns;
        tx_time_rts += ctime + overhead_rtscts_ns + data_ns;
        if tx_time_rts < SEGMENT_NS {
            count_rts += 1;
        }
        if tx_time >= SEGMENT_NS {
            break;
        }
        count += 1;
        if count >= MAX_RETRY {
            break;
        }
    }
    (count, count_rts)
}

impl MinstrelHt {
    pub fn new(cfg: MinstrelConfig) -> MinstrelHt {
        let groups = groups::build_groups(&cfg);
        let lowest = mi_rate(0, 0);
        let lowest_rate = groups[0].rates[0];
        MinstrelHt {
            cfg,
            groups,
            data: [GroupData::default(); NGROUPS],
            ampdu_len: 0,
            ampdu_packets: 0,
            avg_ampdu_len: frac(1, 1),
            max_tp_rate: [lowest; MAX_THR_RATES],
            max_prob_rate: lowest,
            last_stats_update: 0,
            sample_seq: 0,
            sample_time: 0,
            sample: [SampleCategory::default(); SAMPLE_TYPES],
            sample_table: [[0; GROUP_RATES]; SAMPLE_COLUMNS],
            started: false,
            table: [ChainEntry { rate: lowest_rate, tries: 2 }; MAX_RATES],
        }
    }

    /// The chain for the next PPDU to this peer at `now` (Linux minstrel_ht_get_rate + the
    /// rate table set by minstrel_ht_update_rates): up to 4 entries, first used first; a
    /// sampling PPDU has the sample rate first with 1 try (as Linux). Also says whether this
    /// PPDU is a probe.
    pub fn rate_chain(&mut self, now: SimTime, rng: &mut Rng) -> ([ChainEntry; 4], usize, bool) {
        if !self.started {
            // Linux minstrel_ht_update_caps: first statistics and rate table at association.
            self.sample_table = sample::init_sample_table(rng);
            self.started = true;
            self.update_stats(now);
            self.update_rates();
        }
        let mut chain = self.table;
        if self.sample_time > now {
            return (chain, MAX_RATES, false);
        }
        self.sample_time = now + SAMPLE_INTERVAL_NS;
        let sample = self.get_sample_rate();
        if sample == 0 {
            return (chain, MAX_RATES, false);
        }
        chain[0] = ChainEntry { rate: self.rate_of(sample), tries: 1 };
        (chain, MAX_RATES, true)
    }

    /// The outcome of one PPDU (Linux minstrel_ht_tx_status): `tries[i]` = how many times
    /// the PPDU was sent at chain entry i, `ampdu_len` MPDUs were in it (1 for a single
    /// MPDU), `acked` of them acknowledged. Entries end at the first with 0 tries or a rate
    /// not of this peer's groups; the acknowledgements count for the last entry used.
    pub fn tx_status(
        &mut self,
        now: SimTime,
        chain: &[ChainEntry],
        tries: &[u8],
        ampdu_len: u32,
        acked: u32,
    ) {
        if !self.started {
            return; // nothing of ours was sent yet
        }
        let ampdu_len = ampdu_len.max(1);
        let acked = acked.min(ampdu_len);
        self.ampdu_packets += 1;
        self.ampdu_len += ampdu_len;

        let n = chain.len().min(tries.len()).min(MAX_RATES);
        let valid = |s: &Self, i: usize| -> Option<RateIdx> {
            (i < n && tries[i] > 0).then(|| groups::lookup(&s.groups, chain[i].rate)).flatten()
        };
        let mut i = 0;
        let mut cur = valid(self, 0);
        while let Some(idx) = cur {
            let next = if i + 1 < n { valid(self, i + 1) } else { None };
            let st = self.stats_mut(idx);
            if next.is_none() {
                st.success += acked;
            }
            st.attempts += u32::from(tries[i]) * ampdu_len;
            cur = next;
            i += 1;
        }

        // Sudden death of spatial multiplexing: fall back to fewer streams.
        let mut update = false;
        for (slot, primary) in [(0, true), (1, false)] {
            let st = self.stats(self.max_tp_rate[slot]);
            if st.attempts > 30 && st.success < st.attempts / 4 {
                let mut idx = self.max_tp_rate[slot];
                self.downgrade_rate(&mut idx, primary);
                self.max_tp_rate[slot] = idx;
                update = true;
            }
        }
        if now.saturating_sub(self.last_stats_update) > UPDATE_INTERVAL_NS {
            update = true;
            self.update_stats(now);
        }
        if update {
            self.update_rates();
        }
    }

    /// Current max throughput rate.
    pub fn max_tp_rate(&self) -> Rate {
        self.rate_of(self.max_tp_rate[0])
    }

    /// Current max probability rate.
    pub fn max_prob_rate(&self) -> Rate {
        self.rate_of(self.max_prob_rate)
    }

    fn rate_of(&self, idx: RateIdx) -> Rate {
        self.groups[rate_group(idx)].rates[rate_idx(idx)]
    }

    fn duration(&self, idx: RateIdx) -> u32 {
        self.groups[rate_group(idx)].duration_ns[rate_idx(idx)]
    }

    fn stats(&self, idx: RateIdx) -> &RateStats {
        &self.data[rate_group(idx)].rates[rate_idx(idx)]
    }

    fn stats_mut(&mut self, idx: RateIdx) -> &mut RateStats {
        &mut self.data[rate_group(idx)].rates[rate_idx(idx)]
    }

    fn prob(&self, idx: RateIdx) -> u32 {
        u32::from(self.stats(idx).prob_avg)
    }

    /// Linux minstrel_ht_avg_ampdu_len.
    fn avg_ampdu(&self) -> u32 {
        if self.avg_ampdu_len != 0 {
            return trunc(u64::from(self.avg_ampdu_len)) as u32;
        }
        match self.duration(self.max_tp_rate[0]) {
            d if d > 400_000 => 2,
            d if d > 250_000 => 4,
            d if d > 150_000 => 8,
            _ => 16,
        }
    }

    /// Throughput of rate `idx` at probability `prob`.
    fn tp(&self, idx: RateIdx, prob: u32) -> u32 {
        tp_avg(prob, self.duration(idx), self.cfg.overhead_ns, self.avg_ampdu())
    }

    /// Linux minstrel_calc_retransmit.
    fn calc_retransmit(&mut self, idx: RateIdx) {
        if self.prob(idx) < frac(1, 10) {
            let st = self.stats_mut(idx);
            st.retry_count = 1;
            st.retry_count_rtscts = 1;
            return;
        }
        let data_ns = u64::from(self.duration(idx)) * u64::from(self.avg_ampdu());
        let c = &self.cfg;
        let (count, count_rts) = retransmit_counts(
            data_ns,
            c.overhead_ns,
            c.overhead_rtscts_ns,
            (c.cw_min, c.cw_max, c.slot_ns),
        );
        let st = self.stats_mut(idx);
        st.retry_count = count;
        st.retry_count_rtscts = count_rts;
        st.retry_updated = true;
    }

    /// Linux minstrel_ht_set_rate: the chain entry at `offset` for rate `idx`.
    fn set_rate(&mut self, offset: usize, idx: RateIdx) -> ChainEntry {
        if !self.stats(idx).retry_updated {
            self.calc_retransmit(idx);
        }
        let st = self.stats(idx);
        let (count, count_rts) = if u32::from(st.prob_avg) < frac(20, 100) || st.retry_count == 0 {
            (2, 2)
        } else {
            (st.retry_count, st.retry_count_rtscts)
        };
        // Linux protects fallback entries with RTS/CTS and gives them the RTS/CTS count.
        let tries = if offset > 0 { count_rts } else { count };
        ChainEntry { rate: self.rate_of(idx), tries }
    }

    /// Linux minstrel_ht_update_rates: max_tp[0], max_tp[1], max_tp[2], max_prob.
    fn update_rates(&mut self) {
        for i in 0..MAX_RATES - 1 {
            self.table[i] = self.set_rate(i, self.max_tp_rate[i]);
        }
        self.table[MAX_RATES - 1] = self.set_rate(MAX_RATES - 1, self.max_prob_rate);
    }
}

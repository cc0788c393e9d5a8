//! Minstrel-HT's statistics (Linux rc80211_minstrel_ht.c minstrel_ht_update_stats and its
//! helpers): the per-interval fold of attempts into the averaged success probability, the
//! throughput estimate, and the choice of the best-throughput and max-probability rates.

use super::groups::{mi_rate, rate_group, RateIdx, GROUP_RATES, NGROUPS};
use super::{frac, trunc, MinstrelHt, RateStats, MAX_THR_RATES, SCALE};
use crate::engine::time::SimTime;

/// `EWMA_LEVEL` / `EWMA_DIV`: weight of the old value in the A-MPDU length average.
const EWMA_LEVEL: i64 = 96;
const EWMA_DIV: i64 = 128;
/// `MINSTREL_AVG_COEFF2`, `MINSTREL_AVG_COEFF3` (12-bit fixed point) and COEFF1 = 1 − C2 − C3.
const AVG_COEFF2: i32 = 0x1499;
const AVG_COEFF3: i32 = -0x92e;
const AVG_COEFF1: i32 = (1 << SCALE) - AVG_COEFF2 - AVG_COEFF3;

/// Linux `minstrel_ewma`: move `old` toward `new` by (DIV − weight)/DIV of the difference.
fn ewma(old: u32, new: u32, weight: i64) -> u32 {
    let diff = i64::from(new) - i64::from(old);
    (i64::from(old) + (EWMA_DIV - weight) * diff / EWMA_DIV) as u32
}

/// Linux `minstrel_filter_avg_add`: one step of the second-order low-pass filter of the
/// success probability (`prev_1` the output, `prev_2` the one before). Returns the output.
fn filter_avg_add(prev_1: &mut u16, prev_2: &mut u16, input: i32) -> i32 {
    let input = input.max(1);
    let out_1 = i32::from(*prev_1);
    let out_2 = i32::from(*prev_2);
    let val = if out_1 == 0 {
        // First sample: both taps start at it.
        *prev_2 = input as u16;
        input
    } else {
        let v = (AVG_COEFF1 * input + AVG_COEFF2 * out_1 + AVG_COEFF3 * out_2) >> SCALE;
        *prev_2 = out_1 as u16;
        if v > 1 << SCALE {
            1 << SCALE
        } else if v < 0 {
            1
        } else {
            v
        }
    };
    *prev_1 = val as u16;
    val
}

/// Linux `minstrel_ht_get_tp_avg`: expected throughput (Linux's units, ~packets per 10 ms)
/// of a rate with `duration_ns` per average packet at probability `prob` (scaled). The
/// product is taken in 64 bits (Linux's `int` product exceeds 2^31 above prob 2147).
pub(super) fn tp_avg(prob: u32, duration_ns: u32, overhead_ns: u64, ampdu_len: u32) -> u32 {
    if prob < frac(10, 100) {
        return 0;
    }
    let nsecs = overhead_ns / u64::from(ampdu_len.max(1)) + u64::from(duration_ns);
    let prob = prob.min(frac(90, 100));
    trunc(100 * (u64::from(prob) * 1_000_000 / nsecs.max(1))) as u32
}

impl MinstrelHt {
    /// Linux minstrel_ht_sort_best_tp_rates: insert `index` into the sorted `list`.
    fn sort_best_tp_rates(&self, index: RateIdx, list: &mut [RateIdx; MAX_THR_RATES]) {
        let cur_prob = self.prob(index);
        let cur_tp = self.tp(index, cur_prob);
        let mut j = MAX_THR_RATES;
        while j > 0 {
            let tmp_prob = self.prob(list[j - 1]);
            let tmp_tp = self.tp(list[j - 1], tmp_prob);
            if cur_tp < tmp_tp || (cur_tp == tmp_tp && cur_prob <= tmp_prob) {
                break;
            }
            j -= 1;
        }
        if j < MAX_THR_RATES - 1 {
            list.copy_within(j..MAX_THR_RATES - 1, j + 1);
        }
        if j < MAX_THR_RATES {
            list[j] = index;
        }
    }

    /// Linux minstrel_ht_set_best_prob_rate.
    fn set_best_prob_rate(&mut self, dest: &mut RateIdx, index: RateIdx) {
        let group = rate_group(index);
        let prob = self.prob(index);
        let tmp_tp = self.tp(*dest, self.prob(*dest));
        let max_tp = self.max_tp_rate[0];
        // Faster than the max-throughput rate but less likely to get through: skip.
        if self.duration(max_tp) > self.duration(index) && prob < self.prob(max_tp) {
            return;
        }
        let gpr = self.data[group].max_group_prob_rate;
        if prob > frac(75, 100) {
            let cur_tp = self.tp(index, prob);
            if cur_tp > tmp_tp {
                *dest = index;
            }
            if cur_tp > self.tp(gpr, self.prob(gpr)) {
                self.data[group].max_group_prob_rate = index;
            }
        } else {
            if prob > self.prob(*dest) {
                *dest = index;
            }
            if prob > self.prob(gpr) {
                self.data[group].max_group_prob_rate = index;
            }
        }
    }

    /// Linux minstrel_ht_prob_rate_reduce_streams: prefer a max-probability rate with fewer
    /// streams than the max-throughput rate, the best such by throughput.
    fn prob_rate_reduce_streams(&mut self) {
        let max_streams = self.groups[rate_group(self.max_tp_rate[0])].streams;
        let mut best_tp = 0;
        for g in 0..NGROUPS {
            if self.groups[g].supported == 0 {
                continue;
            }
            let gpr = self.data[g].max_group_prob_rate;
            let tp = self.tp(gpr, self.prob(gpr));
            if best_tp < tp && self.groups[g].streams < max_streams {
                self.max_prob_rate = gpr;
                best_tp = tp;
            }
        }
    }

    /// Linux minstrel_downgrade_rate: the best rate of the nearest lower group with no more
    /// streams.
    pub(super) fn downgrade_rate(&self, idx: &mut RateIdx, primary: bool) {
        let orig = rate_group(*idx);
        let mut g = orig;
        while g > 0 {
            g -= 1;
            if self.groups[g].supported == 0 || self.groups[g].streams > self.groups[orig].streams {
                continue;
            }
            *idx = self.data[g].max_group_tp_rate[if primary { 0 } else { 1 }];
            break;
        }
    }

    /// Linux minstrel_ht_calc_rate_stats: fold this interval's counts into the average.
    fn calc_rate_stats(st: &mut RateStats) {
        if st.attempts > 0 {
            let cur = frac(u64::from(st.success), u64::from(st.attempts));
            filter_avg_add(&mut st.prob_avg, &mut st.prob_avg_1, cur as i32);
            st.att_hist += u64::from(st.attempts);
            st.succ_hist += u64::from(st.success);
        }
        st.last_success = st.success;
        st.last_attempts = st.attempts;
        st.success = 0;
        st.attempts = 0;
    }

    /// Linux minstrel_ht_update_stats: new averages, best rates, sample lists.
    pub(super) fn update_stats(&mut self, now: SimTime) {
        if self.ampdu_packets > 0 {
            let cur = frac(u64::from(self.ampdu_len), u64::from(self.ampdu_packets));
            self.avg_ampdu_len = ewma(self.avg_ampdu_len, cur, EWMA_LEVEL);
            self.ampdu_len = 0;
            self.ampdu_packets = 0;
        }
        let start = mi_rate(0, 0);
        let mut tp_rates = [start; MAX_THR_RATES];
        let mut max_prob = start;
        for g in 0..NGROUPS {
            let supported = self.groups[g].supported;
            if supported == 0 {
                continue;
            }
            let mut group_tp = [mi_rate(g, 0); MAX_THR_RATES];
            let mut last_prob = 0u16;
            for i in (0..GROUP_RATES).rev() {
                if supported & (1 << i) == 0 {
                    continue;
                }
                let index = mi_rate(g, i);
                let st = &mut self.data[g].rates[i];
                st.retry_updated = false;
                Self::calc_rate_stats(st);
                // A rate never tried is taken to be as good as the best faster rate tried.
                if st.att_hist > 0 {
                    last_prob = last_prob.max(st.prob_avg);
                } else {
                    st.prob_avg = st.prob_avg.max(last_prob);
                }
                if self.tp(index, self.prob(index)) == 0 {
                    continue;
                }
                self.sort_best_tp_rates(index, &mut tp_rates);
                self.sort_best_tp_rates(index, &mut group_tp);
            }
            self.data[g].max_group_tp_rate = group_tp;
        }
        self.max_tp_rate = tp_rates;
        for g in 0..NGROUPS {
            let supported = self.groups[g].supported;
            if supported == 0 {
                continue;
            }
            self.data[g].max_group_prob_rate = mi_rate(g, 0);
            for i in 0..GROUP_RATES {
                if supported & (1 << i) != 0 {
                    self.set_best_prob_rate(&mut max_prob, mi_rate(g, i));
                }
            }
        }
        self.max_prob_rate = max_prob;
        self.prob_rate_reduce_streams();
        self.refill_sample_rates();
        self.last_stats_update = now;
        self.sample_time = now;
    }
}

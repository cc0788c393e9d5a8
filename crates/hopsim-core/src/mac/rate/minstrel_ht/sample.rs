//! Minstrel-HT's sampling (Linux rc80211_minstrel_ht.c, 5.11+): at every statistics update
//! three short lists of rates to probe are refilled,
//! * INC: per group in turn, the slowest rate faster than the current max-throughput rate
//!   (small steps up);
//! * JUMP: per group in turn, a rate drawn through the random sample table that is faster
//!   than the fastest of the chosen rates (big steps up);
//! * SLOW: rates met while filling JUMP that lie between the fastest and the slowest chosen
//!   rates and whose probability is not already above 95 % (checks downward);
//!
//! and each probe takes the next rate of the list the sequence INC, JUMP, INC, JUMP, INC,
//! SLOW names. A list emptied stays empty until the next update.

use super::groups::{mi_rate, RateIdx, GROUP_RATES, NGROUPS};
use super::{frac, MinstrelHt};
use crate::engine::rng::Rng;

/// `MINSTREL_SAMPLE_RATES`: rates per sample list.
pub(super) const SAMPLE_RATES: usize = 5;
/// `SAMPLE_COLUMNS`: columns of the sample table.
pub(super) const SAMPLE_COLUMNS: usize = 10;
/// `__MINSTREL_SAMPLE_TYPE_MAX`.
pub(super) const SAMPLE_TYPES: usize = 3;

const INC: usize = 0;
const JUMP: usize = 1;
const SLOW: usize = 2;

/// Linux `minstrel_sample_seq`.
const SAMPLE_SEQ: [usize; 6] = [INC, JUMP, INC, JUMP, INC, SLOW];

/// Linux `struct minstrel_sample_category`: the group last visited and the rates to probe
/// (0 = empty slot, as in Linux).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct SampleCategory {
    sample_group: u8,
    sample_rates: [RateIdx; SAMPLE_RATES],
}

/// Linux init_sample_table: each column a random permutation of the rate slots 0-9 (each
/// slot placed at a random position, moving on past taken ones). Two draws per column.
pub(super) fn init_sample_table(rng: &mut Rng) -> [[u8; GROUP_RATES]; SAMPLE_COLUMNS] {
    const EMPTY: u8 = 0xff;
    let mut table = [[EMPTY; GROUP_RATES]; SAMPLE_COLUMNS];
    for column in table.iter_mut() {
        let mut rnd = [0u8; 16];
        rnd[..8].copy_from_slice(&rng.next_u64().to_le_bytes());
        rnd[8..].copy_from_slice(&rng.next_u64().to_le_bytes());
        for (i, &r) in rnd.iter().enumerate().take(GROUP_RATES) {
            let mut pos = (i + usize::from(r)) % GROUP_RATES;
            while column[pos] != EMPTY {
                pos = (pos + 1) % GROUP_RATES;
            }
            column[pos] = i as u8;
        }
    }
    table
}

impl MinstrelHt {
    /// Linux minstrel_ht_get_sample_rate (with MRR): take the next rate of the list the
    /// sequence names; 0 if that list is empty.
    pub(super) fn get_sample_rate(&mut self) -> RateIdx {
        let seq = usize::from(self.sample_seq);
        self.sample_seq = ((seq + 1) % SAMPLE_SEQ.len()) as u8;
        let rates = &mut self.sample[SAMPLE_SEQ[seq]].sample_rates;
        match rates.iter_mut().find(|r| **r != 0) {
            Some(r) => std::mem::take(r),
            None => 0,
        }
    }

    /// Linux minstrel_ht_find_sample_rate.
    fn find_sample_rate(&self, kind: usize, idx: RateIdx) -> bool {
        self.sample[kind].sample_rates.iter().take_while(|&&r| r != 0).any(|&r| r == idx)
    }

    /// Linux minstrel_ht_move_sample_rates: keep the rates of list `kind` that still qualify
    /// (INC/JUMP: faster than `fast`; SLOW: strictly between `fast` and `slow`), packed at
    /// the front; returns how many.
    fn move_sample_rates(&mut self, kind: usize, fast: u32, slow: u32) -> usize {
        let mut j = 0;
        for i in 0..SAMPLE_RATES {
            let cur = self.sample[kind].sample_rates[i];
            if cur == 0 {
                continue;
            }
            let d = self.duration(cur);
            let valid = if kind == SLOW { d > fast && d < slow } else { d < fast };
            let rates = &mut self.sample[kind].sample_rates;
            if !valid {
                rates[i] = 0;
                continue;
            }
            if i == j {
                // Linux leaves j behind here (it only advances on a move); kept as is.
                continue;
            }
            rates[j] = cur;
            j += 1;
            rates[i] = 0;
        }
        j
    }

    /// Linux minstrel_ht_group_min_rate_offset: the slowest rate of `group` faster than
    /// `max_duration`.
    fn group_min_rate_offset(&self, group: usize, max_duration: u32) -> Option<usize> {
        let g = &self.groups[group];
        (0..GROUP_RATES).find(|&i| g.supported & (1 << i) != 0 && g.duration_ns[i] < max_duration)
    }

    /// Linux minstrel_ht_next_inc_rate: the next group's slowest rate faster than
    /// `fast_rate_dur` not yet listed; 0 if none.
    fn next_inc_rate(&mut self, fast_rate_dur: u32) -> RateIdx {
        let mut group = usize::from(self.sample[INC].sample_group);
        let mut found = 0;
        for _ in 0..NGROUPS {
            group = (group + 1) % NGROUPS;
            let Some(i) = self.group_min_rate_offset(group, fast_rate_dur) else {
                continue;
            };
            let index = mi_rate(group, i);
            if !self.find_sample_rate(INC, index) {
                found = index;
                break;
            }
        }
        self.sample[INC].sample_group = group as u8;
        found
    }

    /// Linux minstrel_ht_next_group_sample_rate: walk `group`'s place in the sample table
    /// to the next supported rate at or above slot `offset`.
    fn next_group_sample_rate(
        &mut self,
        group: usize,
        supported: u16,
        offset: usize,
    ) -> Option<RateIdx> {
        for _ in 0..GROUP_RATES {
            let mg = &mut self.data[group];
            let idx = usize::from(self.sample_table[usize::from(mg.column)][usize::from(mg.index)]);
            mg.index += 1;
            if usize::from(mg.index) >= GROUP_RATES {
                mg.index = 0;
                mg.column += 1;
                if usize::from(mg.column) >= SAMPLE_COLUMNS {
                    mg.column = 0;
                }
            }
            if idx < offset || supported & (1 << idx) == 0 {
                continue;
            }
            return Some(mi_rate(group, idx));
        }
        None
    }

    /// Linux minstrel_ht_next_jump_rate: a random rate faster than `fast_rate_dur` from the
    /// next group; rates met on the way that lie between fast and slow go to the SLOW list
    /// while it has room. 0 if none.
    fn next_jump_rate(
        &mut self,
        fast_rate_dur: u32,
        slow_rate_dur: u32,
        slow_ofs: &mut usize,
    ) -> RateIdx {
        let mut max_duration =
            if *slow_ofs >= SAMPLE_RATES { fast_rate_dur } else { slow_rate_dur };
        let mut group = usize::from(self.sample[JUMP].sample_group);
        let mut found = 0;
        for _ in 0..NGROUPS {
            group = (group + 1) % NGROUPS;
            let supported = self.groups[group].supported;
            if supported == 0 {
                continue;
            }
            let Some(offset) = self.group_min_rate_offset(group, max_duration) else {
                continue;
            };
            let Some(index) = self.next_group_sample_rate(group, supported, offset) else {
                continue;
            };
            let d = self.duration(index);
            let kind = if d < fast_rate_dur { JUMP } else { SLOW };
            if self.find_sample_rate(kind, index) {
                continue;
            }
            if kind == JUMP {
                found = index;
                break;
            }
            if *slow_ofs >= SAMPLE_RATES || d >= slow_rate_dur {
                continue;
            }
            // Slower rates already near-certain are not worth a probe.
            if self.prob(index) > frac(95, 100) {
                continue;
            }
            self.sample[SLOW].sample_rates[*slow_ofs] = index;
            *slow_ofs += 1;
            if *slow_ofs >= SAMPLE_RATES {
                max_duration = fast_rate_dur;
            }
        }
        self.sample[JUMP].sample_group = group as u8;
        found
    }

    /// Linux minstrel_ht_refill_sample_rates.
    pub(super) fn refill_sample_rates(&mut self) {
        let prob_dur = self.duration(self.max_prob_rate);
        let tp_dur = self.duration(self.max_tp_rate[0]);
        let tp2_dur = self.duration(self.max_tp_rate[1]);
        let fast = tp_dur.min(tp2_dur).min(prob_dur);
        let slow = tp_dur.max(tp2_dur).max(prob_dur);

        let mut i = self.move_sample_rates(INC, fast, slow);
        while i < SAMPLE_RATES {
            let r = self.next_inc_rate(tp_dur);
            self.sample[INC].sample_rates[i] = r;
            if r == 0 {
                break;
            }
            i += 1;
        }

        let mut i = self.move_sample_rates(JUMP, fast, slow);
        let mut j = self.move_sample_rates(SLOW, fast, slow);
        while i < SAMPLE_RATES {
            let r = self.next_jump_rate(fast, slow, &mut j);
            self.sample[JUMP].sample_rates[i] = r;
            if r == 0 {
                break;
            }
            i += 1;
        }
    }
}

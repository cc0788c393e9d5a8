//! Minstrel-HT's multi-rate retry chain per peer (minstrel_ht/): the chain a packet or an
//! A-MPDU was given, the tries spent at each entry, and the report back when it is done
//! (Linux mac80211: the rate table of `ieee80211_tx_info` and its status counts). A single
//! MPDU's attempts walk the chain entry by entry (tries[i] at entry i, the last entry after
//! that); an A-MPDU goes at the chain's first rate, and a BlockAck answer (or its absence) is
//! its status: `ampdu_len` MPDUs, so many acknowledged. Retransmitted MPDUs of an A-MPDU
//! travel in a later A-MPDU with a fresh chain.

use super::minstrel_ht::{ChainEntry, MinstrelConfig, MinstrelHt};
use super::{RateAlgo, RateControl};
use crate::engine::time::SimTime;
use crate::ids::NodeId;
use crate::mac::timing::Rate;

#[derive(Debug, Clone)]
pub(super) struct Mrr {
    minstrel: MinstrelHt,
    chain: [ChainEntry; 4],
    len: usize,
    tries: [u8; 4],
    /// A chain was drawn for the packet or PPDU in service and not yet reported.
    live: bool,
    /// That chain leads with a sample rate.
    probe: bool,
}

impl Mrr {
    pub(super) fn new(cfg: MinstrelConfig) -> Box<Mrr> {
        let none = ChainEntry { rate: Rate(0), tries: 0 };
        Box::new(Mrr {
            minstrel: MinstrelHt::new(cfg),
            chain: [none; 4],
            len: 0,
            tries: [0; 4],
            live: false,
            probe: false,
        })
    }

    /// The entry the next attempt of a single MPDU goes at.
    fn entry(&self) -> usize {
        let made: u32 = self.tries.iter().map(|&t| u32::from(t)).sum();
        let mut offered = 0u32;
        for i in 0..self.len {
            offered += u32::from(self.chain[i].tries);
            if made < offered {
                return i;
            }
        }
        self.len.saturating_sub(1)
    }
}

impl RateControl {
    fn mrr(&mut self, dst: NodeId) -> &mut Mrr {
        let RateAlgo::MinstrelHt(cfg) = self.algo else { unreachable!("Minstrel-HT only") };
        self.peer(dst).mrr.get_or_insert_with(|| Mrr::new(cfg))
    }

    /// A new packet for `dst` enters service: its chain is drawn at its first attempt.
    pub(super) fn mrr_start(&mut self, dst: NodeId) {
        let m = self.mrr(dst);
        m.live = false;
        m.tries = [0; 4];
    }

    /// The rate of the next attempt of the single MPDU in service to `dst`.
    pub(super) fn mrr_rate(&mut self, dst: NodeId, now: SimTime) -> Rate {
        let mut rng = self.rng.clone();
        let m = self.mrr(dst);
        if !m.live {
            (m.chain, m.len, m.probe) = m.minstrel.rate_chain(now, &mut rng);
            (m.live, m.tries) = (true, [0; 4]);
        }
        let rate = m.chain[m.entry()].rate;
        self.rng = rng;
        rate
    }

    /// The rate of an A-MPDU to `dst` about to be sent: a fresh chain's first entry, and
    /// whether it is a probe.
    pub(super) fn mrr_ppdu_rate(&mut self, dst: NodeId, now: SimTime) -> (Rate, bool) {
        self.mrr_start(dst);
        let rate = self.mrr_rate(dst, now);
        (rate, self.mrr(dst).probe)
    }

    /// One attempt of the single MPDU in service was made.
    pub(super) fn mrr_tried(&mut self, dst: NodeId) {
        let m = self.mrr(dst);
        if m.live {
            let i = m.entry();
            m.tries[i] = m.tries[i].saturating_add(1);
        }
    }

    /// The single MPDU in service is done: acknowledged or given up.
    pub(super) fn mrr_finish(&mut self, dst: NodeId, delivered: bool, now: SimTime) {
        let m = self.mrr(dst);
        if m.live {
            let n = m.len;
            m.minstrel.tx_status(now, &m.chain[..n], &m.tries[..n], 1, u32::from(delivered));
            m.live = false;
        }
    }

    /// An A-MPDU of `mpdus` went once at its chain's first rate; `acked` were acknowledged.
    pub(super) fn mrr_ampdu(&mut self, dst: NodeId, (mpdus, acked): (u32, u32), now: SimTime) {
        let m = self.mrr(dst);
        if m.live {
            m.minstrel.tx_status(now, &m.chain[..1], &[1], mpdus, acked);
            m.live = false;
        }
    }
}

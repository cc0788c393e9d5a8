//! The sender's retransmission queue and SACK scoreboard: one entry per outstanding segment
//! from snd_una to snd_max, with when it was last sent, whether it was resent, whether the
//! receiver SACKed it (RFC 2018), and the RFC 6675 section 3 questions asked of it: IsLost,
//! SetPipe and NextSeg's rule 1.

use super::rate_sample::TxRecord;
use crate::engine::time::SimTime;
use crate::ids::SeqNo;
use std::collections::VecDeque;

/// What the sender remembers of one outstanding segment.
#[derive(Debug, Clone, Copy, Default)]
pub struct SegState {
    pub sent_ns: SimTime,
    pub retransmitted: bool,
    pub sacked: bool,
    /// Retransmitted during the current SACK recovery (RFC 6675 HighRxt bookkeeping).
    pub rexmit_in_recovery: bool,
    /// Counted in the losses rate-based congestion control is told of (RFC 6675 IsLost).
    pub lost: bool,
    /// Delivery-rate state at the last transmission (`rate_sample.rs`; only when in use).
    pub tx: TxRecord,
}

#[derive(Clone)]
pub struct Scoreboard {
    /// snd_una: the first unacknowledged segment, the queue's front.
    una: SeqNo,
    segs: VecDeque<SegState>,
    /// RFC 6675 DupThresh: SACKed segments above one that make it lost.
    dupack_threshold: u32,
}

impl Scoreboard {
    pub fn new(capacity: usize, dupack_threshold: u32) -> Scoreboard {
        Scoreboard { una: SeqNo::ZERO, segs: VecDeque::with_capacity(capacity), dupack_threshold }
    }

    /// snd_una: the first unacknowledged segment.
    pub fn una(&self) -> SeqNo {
        self.una
    }

    /// snd_max: the next segment never sent.
    pub fn max(&self) -> SeqNo {
        self.una + self.segs.len() as u32
    }

    pub fn get(&self, seg: SeqNo) -> SegState {
        self.segs[(seg - self.una) as usize]
    }

    pub fn get_mut(&mut self, seg: SeqNo) -> &mut SegState {
        &mut self.segs[(seg - self.una) as usize]
    }

    /// The oldest outstanding segment (the one a fast retransmit or timeout resends).
    pub fn front(&self) -> SegState {
        self.segs.front().copied().unwrap_or_default()
    }

    /// `seg` leaves now: a retransmission below snd_max, else the next new segment.
    /// Returns whether it is a retransmission.
    pub fn record_send(&mut self, seg: SeqNo, now: SimTime) -> bool {
        if seg < self.max() {
            let st = self.get_mut(seg);
            st.retransmitted = true;
            st.sent_ns = now;
            true
        } else {
            debug_assert_eq!(seg, self.max());
            self.segs.push_back(SegState { sent_ns: now, ..SegState::default() });
            false
        }
    }

    /// Mark the SACK blocks `[start, end)` (clipped to what is outstanding).
    pub fn mark_sacked(&mut self, blocks: &[(SeqNo, SeqNo)]) {
        self.mark_sacked_with(blocks, |_| {});
    }

    /// The same, calling `newly` for each segment SACKed for the first time.
    pub fn mark_sacked_with(
        &mut self,
        blocks: &[(SeqNo, SeqNo)],
        mut newly: impl FnMut(&mut SegState),
    ) {
        let max = self.max();
        for &(a, b) in blocks {
            for seg in a.max(self.una).until(b.min(max)) {
                let s = self.get_mut(seg);
                if !s.sacked {
                    s.sacked = true;
                    newly(s);
                }
            }
        }
    }

    /// Segments newly deemed lost (RFC 6675 IsLost) since the last call: one pass from the
    /// top counting the SACKed segments above, as `pipe`.
    pub fn mark_lost(&mut self) -> u32 {
        let thresh = self.dupack_threshold as usize;
        let (mut sacked_above, mut newly) = (0, 0);
        for s in self.segs.iter_mut().rev() {
            if s.sacked {
                sacked_above += 1;
            } else if sacked_above >= thresh && !s.lost {
                s.lost = true;
                newly += 1;
            }
        }
        newly
    }

    /// A cumulative ACK up to `ack` (> snd_una) drops the acknowledged segments. Returns when
    /// the newest of them was sent if none was ever retransmitted: Karn's rule applied to the
    /// whole range (as Linux does), since an ACK that closes a repaired hole would time a
    /// segment that waited at the receiver during the repair.
    pub fn ack(&mut self, ack: SeqNo) -> Option<SimTime> {
        self.ack_with(ack, |_| {})
    }

    /// The same, calling `each` for every segment the ACK covers before dropping it.
    pub fn ack_with(&mut self, ack: SeqNo, mut each: impl FnMut(&mut SegState)) -> Option<SimTime> {
        let newly = (ack - self.una) as usize;
        self.segs.range_mut(..newly).for_each(&mut each);
        let clean = self.segs.range(..newly).all(|s| !s.retransmitted);
        let last_sent_ns = self.segs[newly - 1].sent_ns;
        self.segs.drain(..newly);
        self.una = ack;
        clean.then_some(last_sent_ns)
    }

    /// After a timeout: SACK information may be reneged (RFC 2018 section 8), start afresh.
    pub fn forget_sacks(&mut self) {
        for s in self.segs.iter_mut() {
            s.sacked = false;
            s.rexmit_in_recovery = false;
        }
    }

    /// A new recovery starts: nothing retransmitted in it yet.
    pub fn new_recovery(&mut self) {
        for s in self.segs.iter_mut() {
            s.rexmit_in_recovery = false;
        }
    }

    /// `seg` is (about to be) retransmitted in this recovery: it counts in the pipe again.
    pub fn mark_rexmit(&mut self, seg: SeqNo) {
        self.get_mut(seg).rexmit_in_recovery = true;
    }

    /// RFC 6675 IsLost: DupThresh segments above `seg` have been SACKed.
    pub fn is_lost(&self, seg: SeqNo) -> bool {
        let from = (seg - self.una) as usize;
        let sacked_above = self.segs.iter().skip(from + 1).filter(|s| s.sacked).count();
        sacked_above >= self.dupack_threshold as usize
    }

    /// RFC 6675 SetPipe: segments believed to be in the network (one pass from the top,
    /// counting SACKed segments above each one for IsLost).
    pub fn pipe(&self) -> u32 {
        let thresh = self.dupack_threshold as usize;
        let mut sacked_above = 0;
        let mut pipe = 0;
        for s in self.segs.iter().rev() {
            if s.sacked {
                sacked_above += 1;
                continue;
            }
            if sacked_above < thresh {
                pipe += 1; // (a) not lost
            }
            if s.rexmit_in_recovery {
                pipe += 1; // (b) retransmitted
            }
        }
        pipe
    }

    /// RFC 6675 NextSeg rule 1: the first segment not SACKed, not yet retransmitted in this
    /// recovery, and lost.
    pub fn next_lost(&self) -> Option<SeqNo> {
        self.una.until(self.max()).find(|&seg| {
            let s = self.get(seg);
            !s.sacked && !s.rexmit_in_recovery && self.is_lost(seg)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::tcp::test_support::s;

    /// Ten segments 0..10 outstanding, DupThresh 3.
    fn ten() -> Scoreboard {
        let mut b = Scoreboard::new(16, 3);
        for seg in s(0).until(s(10)) {
            assert!(!b.record_send(seg, 0));
        }
        b
    }

    #[test]
    fn is_lost_needs_dupthresh_sacked_segments_above() {
        // RFC 6675 section 4: "DupThresh ... discontiguous SACKed sequences" above the segment.
        let mut b = ten();
        b.mark_sacked(&[(s(2), s(4))]);
        assert!(!b.is_lost(s(0)), "two SACKed above");
        b.mark_sacked(&[(s(6), s(7))]);
        assert!(b.is_lost(s(0)) && b.is_lost(s(1)), "2, 3 and 6 SACKed above");
        assert!(!b.is_lost(s(4)), "only 6 SACKed above 4");
        assert_eq!(b.next_lost(), Some(s(0)));
    }

    #[test]
    fn pipe_counts_unlost_unsacked_and_retransmitted() {
        // RFC 6675 SetPipe: 0, 1 lost (3 SACKed above), 2 and 3 SACKed, 4..10 not lost.
        let mut b = ten();
        b.mark_sacked(&[(s(2), s(4)), (s(9), s(10))]);
        assert_eq!(b.pipe(), 5, "4..9 are in the network; 0 and 1 are lost");
        b.mark_rexmit(s(0));
        assert_eq!(b.pipe(), 6, "the retransmission of 0 counts (rule b)");
        assert_eq!(b.next_lost(), Some(s(1)), "0 already retransmitted in this recovery");
    }

    #[test]
    fn cumulative_ack_applies_karns_rule_to_the_range() {
        let mut b = ten();
        assert!(b.record_send(s(1), 5), "resending 1");
        assert_eq!(b.ack(s(1)), Some(0), "segment 0 was sent once");
        assert_eq!(b.ack(s(3)), None, "the range includes the resent 1");
        assert_eq!((b.una(), b.max()), (s(3), s(10)));
    }
}

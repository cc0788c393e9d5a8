//! ns-2.35's Vegas agent where its duplicate-ACK and timer handling differs from the Reno
//! recovery hopsim runs for Vegas otherwise (ns2 profile; tcp-vegas.cc `recv`, `timeout`;
//! tcp.cc `newtimer`). The window rules themselves are `cc/vegas.rs`.
//!
//! - A duplicate ACK retransmits snd_una when it finds it expired (fine-grained timeout) or
//!   when it is the `numdupacks_`-th, whether or not a recovery is under way; after a
//!   timeout only once the ACKs pass the highest segment sent before it (`bug_fix_`).
//! - The reduced window is inflated by the duplicates counted so far (`v_newcwnd_ +
//!   dupacks_`), and the count jumps to `numdupacks_` only if the segment had been sent once.
//! - Further duplicates beyond `numdupacks_` inflate by one each; the next new ACK deflates
//!   to `v_newcwnd_` after more than `numdupacks_` of them (to 0 after a timeout, which has
//!   cleared `v_newcwnd_`).
//! - The usable window may be 0 segments, and every new ACK restarts the retransmission timer
//!   (`newtimer`: `t_seqno_ > seqno` holds even with nothing outstanding); its expiry with
//!   nothing outstanding is a timeout like any other (`slow_start_restart_`), which is how a
//!   window of 0 ends.

use super::*;

impl TcpSender {
    /// ns-2's Vegas RTT sample (tcp-vegas.cc `recv`): the time since the last send of the
    /// segment this ACK names (the highest it covers), if that segment was sent only once;
    /// earlier segments of the range, resent or not, do not matter.
    pub(crate) fn ns2_vegas_sample(&self, ack: SeqNo, now: SimTime) -> Option<SimTime> {
        if !self.cfg.ns2_vegas {
            return None;
        }
        let una = self.board.una();
        if self.cfg.delay_growth && una == SeqNo::ZERO {
            // The first ACK: `firstrecv_` seeds the estimator with the time since segment 0
            // last left (`vegastime()` counts from `firstsent_`, set at each send of it).
            return Some(now - self.board.get(una).sent_ns);
        }
        let last = self.board.get(una + (ack - una - 1));
        (!last.retransmitted).then(|| now - last.sent_ns)
    }

    /// tcp-vegas.cc `recv`, a duplicate ACK (`dupacks_` already counted).
    pub(super) fn ns2_vegas_dup_ack(&mut self, cx: &mut TcpCtx) {
        let una = self.board.una();
        let threshold = self.cfg.dupack_threshold;
        if self.expired(una, cx.now) || self.dupacks == threshold {
            // `bug_fix_`: barred after a timeout until `highest_ack_ > recover_`.
            if !self.timeout_last || una > self.recover_timeout {
                let sent_once = !self.board.front().retransmitted; // v_transmits_ == 1
                self.enter_recovery(cx);
                if sent_once {
                    self.dupacks = threshold;
                }
            }
        } else if self.dupacks > threshold {
            self.w.inflate();
        }
    }

    /// `v_worried_ = MIN(2, t_seqno_ - last_ack_)`: new ACKs that check the next segment
    /// against the fine-grained timeout (last_ack_ is snd_una - 1).
    pub(super) fn ns2_vegas_worried(&self) -> u32 {
        2.min(self.snd_nxt - self.board.una() + 1)
    }
}

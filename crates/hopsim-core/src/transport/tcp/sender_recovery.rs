//! Loss recovery of the sender: duplicate ACKs, fast retransmit and the recovery that follows
//! (RFC 5681 Reno, RFC 6582 NewReno, RFC 6675 SACK with its scoreboard and pipe), Vegas'
//! fine-grained checks, and ns-2's limited transmit and Vegas rules in the ns2 profile.

use super::*;

impl TcpSender {
    /// A new ACK during fast recovery.
    pub(super) fn recovery_ack(&mut self, cx: &mut TcpCtx, ack: u32, newly: u32, dupacks: u32) {
        let full = ack >= self.recover;
        match self.cfg.recovery {
            Recovery::Reno => {
                // RFC 5681 step 6: the first new ACK ends recovery, deflating the window.
                self.in_recovery = false;
                self.cc.exit_recovery(&mut self.w, dupacks);
            }
            Recovery::NewReno if full => {
                // RFC 6582 3.2 step 3 (1): cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS).
                self.in_recovery = false;
                self.w.deflate_full(self.snd_max - self.snd_una);
            }
            Recovery::NewReno => {
                // Partial ACK (step 4): retransmit the first unacknowledged segment, deflate
                // by the amount acknowledged, add back one segment.
                self.partial_acks += 1;
                self.retransmit_una(cx);
                self.w.deflate_partial(newly);
            }
            Recovery::Sack if full => {
                self.in_recovery = false; // RFC 6675 section 5: cwnd stays at ssthresh
            }
            Recovery::Sack => {}
        }
    }

    /// Vegas' check on the first two new ACKs after a fast retransmit: if the next segment
    /// has been outstanding longer than the fine-grained timeout, resend it now.
    pub(super) fn check_worried(&mut self, cx: &mut TcpCtx) {
        if self.worried == 0 {
            return;
        }
        self.worried -= 1;
        if self.snd_una < self.snd_max && self.expired(self.snd_una, cx.now) {
            self.retransmit_una(cx);
        } else {
            self.worried = 0;
        }
    }

    pub(super) fn dup_ack(&mut self, cx: &mut TcpCtx) {
        self.dupacks += 1;
        if self.in_recovery {
            if self.cfg.recovery != Recovery::Sack {
                self.w.inflate(); // RFC 5681 step 4: inflate per duplicate ACK
            }
            if self.cfg.ns2_vegas && self.expired(self.snd_una, cx.now) {
                self.enter_recovery(cx); // tcp-vegas.cc: an expired segment is resent again
            }
            return;
        }
        let lost_by_sack = self.cfg.recovery == Recovery::Sack && self.is_lost(self.snd_una);
        // Vegas: the first duplicate suffices when the segment outlived the fine-grained timeout.
        let expired = self.expired(self.snd_una, cx.now);
        // RFC 6582 section 4 (and 6675 5): no new recovery for ACKs below `recover`, i.e.
        // duplicates of data sent before the last recovery or timeout.
        let guard = if self.cfg.ns2_vegas { self.recover_timeout } else { self.recover };
        if (self.dupacks == self.cfg.dupack_threshold || lost_by_sack || expired)
            && self.snd_una >= guard
        {
            self.dupacks = self.dupacks.max(self.cfg.dupack_threshold);
            self.enter_recovery(cx);
        } else if self.cfg.limited_transmit && self.dupacks < self.cfg.dupack_threshold {
            self.send_one(cx);
        }
    }

    /// ns-2 tcp.cc `send_one`: one new segment if it stays within the advertised window
    /// (`window_`, here with the CWL) and within cwnd + the duplicates seen.
    pub(super) fn send_one(&mut self, cx: &mut TcpCtx) {
        let outstanding = (self.snd_nxt - self.snd_una) as f64;
        let window = self.cwnd_cap().floor();
        if outstanding < window
            && outstanding + 1.0 <= self.w.cwnd() + self.dupacks as f64
            && self.has_data(self.snd_nxt, cx.now)
        {
            let seg = self.snd_nxt;
            self.snd_nxt += 1;
            self.transmit(cx, seg);
        }
    }

    pub(super) fn enter_recovery(&mut self, cx: &mut TcpCtx) {
        let loss = self.loss(cx.now);
        self.cc.enter_recovery(&mut self.w, &loss);
        if self.cc.fine_grained_timeout_ns().is_some() {
            self.worried = 2.min(self.snd_max - self.snd_una);
        }
        self.in_recovery = true;
        self.recover = self.snd_max;
        self.partial_acks = 0;
        self.stats.fast_retransmits += 1;
        for s in self.segs.iter_mut() {
            s.rexmit_in_recovery = false;
        }
        if self.cfg.recovery == Recovery::Sack {
            self.w.to_ssthresh(); // RFC 6675 step 4.2
            self.seg_state(self.snd_una).rexmit_in_recovery = true;
        }
        // (Reno, NewReno: the algorithm set cwnd = ssthresh + 3, RFC 5681 steps 2-3.)
        self.retransmit_una(cx);
        if self.cfg.ns2_vegas {
            self.rto.on_timeout(); // reset_rtx_timer(1): the coarse timer backs off
        }
        self.arm_rto(cx);
    }

    /// RFC 6675 IsLost: DupThresh segments above `seg` have been SACKed.
    pub(super) fn is_lost(&self, seg: u32) -> bool {
        let from = (seg - self.snd_una) as usize;
        let sacked_above = self.segs.iter().skip(from + 1).filter(|s| s.sacked).count();
        sacked_above >= self.cfg.dupack_threshold as usize
    }

    /// RFC 6675 SetPipe: segments believed to be in the network (one pass from the top,
    /// counting SACKed segments above each one for IsLost).
    pub(super) fn pipe(&self) -> u32 {
        let thresh = self.cfg.dupack_threshold as usize;
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

    /// RFC 6675 section 5 step (C): send while cwnd - pipe >= 1 segment, choosing by NextSeg.
    pub(super) fn sack_send(&mut self, cx: &mut TcpCtx) {
        let limit = self.send_window();
        loop {
            let pipe = self.pipe();
            if pipe >= limit {
                break;
            }
            // NextSeg rule 1: the first lost segment not yet retransmitted in this recovery.
            let lost = (self.snd_una..self.snd_max).find(|&seg| {
                let s = self.segs[(seg - self.snd_una) as usize];
                !s.sacked && !s.rexmit_in_recovery && self.is_lost(seg)
            });
            if let Some(seg) = lost {
                self.seg_state(seg).rexmit_in_recovery = true;
                self.transmit(cx, seg);
                continue;
            }
            // Rule 2: new data, if the receiver's window allows.
            let seg = self.snd_max;
            if seg - self.snd_una < self.cfg.receiver_window && self.has_data(seg, cx.now) {
                self.snd_nxt = seg + 1;
                self.transmit(cx, seg);
                continue;
            }
            break;
        }
    }
}

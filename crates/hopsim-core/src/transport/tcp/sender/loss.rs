//! When the sender detects a loss: duplicate ACKs and fast retransmit (RFC 5681 3.2), the
//! guard against a second recovery for one window (RFC 6582 section 4), new ACKs during
//! recovery, the retransmission timeout (RFC 6298), Vegas' fine-grained checks, and ns-2's
//! limited transmit and Vegas rules in the ns2 profile. *How* each kind of recovery treats
//! the window is `recovery.rs`.

use super::super::cc::Loss;
use super::super::recovery::AckInRecovery;
use super::*;
use crate::engine::sched::Firing;

impl TcpSender {
    /// A new ACK during fast recovery (after the scoreboard has dropped what it covers).
    pub(super) fn recovery_ack(&mut self, cx: &mut TcpCtx, ack: SeqNo, newly: u32, dupacks: u32) {
        let full = ack >= self.recover;
        let flight = self.board.max() - ack;
        let step = self.recovery.on_ack(&mut *self.cc, &mut self.w, full, newly, dupacks, flight);
        match step {
            AckInRecovery::Exit => self.in_recovery = false,
            AckInRecovery::RetransmitNext => self.retransmit_una(cx),
            AckInRecovery::Stay => {}
        }
    }

    /// Vegas' check on the first two new ACKs after a fast retransmit: if the next segment
    /// has been outstanding longer than the fine-grained timeout, resend it now.
    pub(super) fn check_worried(&mut self, cx: &mut TcpCtx) {
        if self.worried == 0 {
            return;
        }
        self.worried -= 1;
        let una = self.board.una();
        if una < self.board.max() && self.expired(una, cx.now) {
            if self.cfg.ns2_vegas {
                self.dupacks = self.cfg.dupack_threshold; // tcp-vegas.cc `recv`
            }
            self.retransmit_una(cx);
        } else {
            self.worried = 0;
        }
    }

    pub(super) fn dup_ack(&mut self, cx: &mut TcpCtx) {
        self.dupacks += 1;
        if self.cfg.ns2_vegas {
            return self.ns2_vegas_dup_ack(cx);
        }
        let una = self.board.una();
        if self.in_recovery {
            self.recovery.on_dupack(&mut self.w);
            return;
        }
        let lost_by_sack = self.recovery.uses_scoreboard() && self.board.is_lost(una);
        // Vegas: the first duplicate suffices when the segment outlived the fine-grained timeout.
        let expired = self.expired(una, cx.now);
        let guard = self.may_fast_retransmit(una);
        if (self.dupacks == self.cfg.dupack_threshold || lost_by_sack || expired) && guard {
            self.dupacks = self.dupacks.max(self.cfg.dupack_threshold);
            self.enter_recovery(cx);
        } else if self.cfg.limited_transmit && self.dupacks < self.cfg.dupack_threshold {
            self.send_one(cx);
        }
    }

    /// Whether duplicates of `una` may start a recovery (`RetransmitGuard`): none for data
    /// sent before the last recovery or timeout (RFC 6582 section 4, RFC 6675 section 5).
    fn may_fast_retransmit(&self, una: SeqNo) -> bool {
        match self.cfg.guard {
            RetransmitGuard::Rfc6582 => una >= self.recover,
            RetransmitGuard::Ns2 => una > self.recover || una == self.first_data(),
            RetransmitGuard::Ns2Sack1 => {
                !self.timeout_last || una > self.recover || una == self.first_data()
            }
        }
    }

    /// ns-2 tcp.cc `send_one`: one new segment if it stays within the advertised window
    /// (`window_`, here with the CWL) and within cwnd + the duplicates seen.
    fn send_one(&mut self, cx: &mut TcpCtx) {
        let outstanding = (self.snd_nxt - self.board.una()) as f64;
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

    /// Fast retransmit: the window per the recovery kind, then snd_una resent.
    pub(super) fn enter_recovery(&mut self, cx: &mut TcpCtx) {
        let loss = self.loss(cx.now);
        self.recovery.enter(&mut *self.cc, &mut self.w, &loss);
        let (una, max) = (self.board.una(), self.board.max());
        if self.cfg.ns2_vegas {
            self.worried = self.ns2_vegas_worried();
        } else if self.cc.fine_grained_timeout_ns().is_some() {
            self.worried = 2.min(max - una);
        }
        self.in_recovery = true;
        self.timeout_last = false;
        self.recover = max;
        self.stats.fast_retransmits += 1;
        self.board.new_recovery();
        if self.recovery.uses_scoreboard() {
            self.board.mark_rexmit(una); // RFC 6675 section 5 step 4.3: counts in the pipe
        }
        self.retransmit_una(cx);
        if self.cfg.ns2_vegas {
            self.rto.on_timeout(); // reset_rtx_timer(1): the coarse timer backs off
        }
        self.rto.cancel_timing();
        self.arm_rto(cx);
    }

    /// Has `seg` been outstanding longer than the congestion control's fine-grained timeout?
    pub(super) fn expired(&self, seg: SeqNo, now: SimTime) -> bool {
        let sent = self.board.get(seg).sent_ns;
        self.cc.fine_grained_timeout_ns().is_some_and(|t| now.saturating_sub(sent) >= t)
    }

    /// What a window reduction is worked out from (loss, or an ECN echo: ecn.rs).
    pub(super) fn loss(&self, now: SimTime) -> Loss {
        let una = self.board.front();
        Loss {
            now,
            flight: (self.board.max() - self.board.una()) as f64,
            usable: self.send_window() as f64,
            dupack_threshold: self.cfg.dupack_threshold,
            dupacks: self.dupacks,
            sent_ns: una.sent_ns,
            retransmitted: una.retransmitted,
        }
    }

    fn retransmit_una(&mut self, cx: &mut TcpCtx) {
        let seg = self.board.una();
        self.transmit(cx, seg);
        if self.snd_nxt == seg {
            self.snd_nxt = seg + 1;
        }
    }

    /// The retransmission timer expired (RFC 6298 5.4-5.7; RFC 5681 eq. 4 and loss window).
    pub fn on_timeout(&mut self, cx: &mut TcpCtx, generation: u32) {
        match self.timer.fire_at(generation, cx.now) {
            Firing::Stale => return,
            Firing::Postponed(at) => {
                let flow = self.cfg.flow;
                cx.timers.arm(at, flow, TcpTimer::Rto, generation);
                return;
            }
            Firing::Due => {}
        }
        // ns-2's Vegas times out with nothing outstanding too (`slow_start_restart_`).
        if self.board.una() == self.board.max() && !self.cfg.ns2_vegas {
            return;
        }
        self.stats.timeouts += 1;
        let loss = self.loss(cx.now);
        self.cc.on_timeout(&mut self.w, &loss);
        self.in_recovery = false;
        self.worried = 0;
        self.dupacks = 0;
        self.recover = self.board.max();
        self.recover_timeout = self.board.max();
        self.timeout_last = true;
        self.board.forget_sacks();
        self.rto.on_timeout();
        self.rto.cancel_timing();
        self.snd_nxt = self.board.una(); // go back N, as ns-2 does
        self.window_changed(cx.now);
        self.try_send(cx);
        if !self.timer.is_armed() {
            self.arm_rto(cx);
        }
    }
}

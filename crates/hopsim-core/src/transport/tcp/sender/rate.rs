//! The sender's side of delivery-rate estimation (`rate_sample.rs`) for rate-based
//! congestion control (BBR): records at each transmission, deliveries by cumulative ACK and
//! SACK, app-limited marks, and the per-ACK call with the sample, the flight and the loss
//! state (Linux `tcp_rate_skb_sent`, `tcp_rate_skb_delivered`, `tcp_rate_gen` and the
//! `cong_control` hook). Nothing here runs for algorithms that do not ask for samples.

use super::super::cc::{AckRate, CaState};
use super::*;

impl TcpSender {
    /// Draft section 3.2: record the delivery state in the segment just (re)sent; `idle`:
    /// nothing was outstanding before it.
    pub(super) fn rate_on_send(&mut self, seg: SeqNo, idle: bool, now: SimTime) {
        if let Some(r) = &mut self.rate {
            let s = self.board.get_mut(seg);
            s.tx = r.on_send(now, idle, s.tx);
        }
    }

    /// An ACK arrives: a new sample, and the flight before the ACK (RFC 6675 pipe).
    pub(super) fn rate_begin(&mut self) -> u32 {
        match &mut self.rate {
            Some(r) => {
                r.begin_ack();
                self.board.pipe()
            }
            None => 0,
        }
    }

    /// SACK blocks: each segment SACKed for the first time is delivered now.
    pub(super) fn mark_sacked(&mut self, sack: &[(SeqNo, SeqNo)], now: SimTime) {
        match &mut self.rate {
            Some(r) => self.board.mark_sacked_with(sack, |s| {
                r.on_delivered(&mut s.tx, s.sent_ns, s.retransmitted, now)
            }),
            None => self.board.mark_sacked(sack),
        }
    }

    /// A cumulative ACK: the segments it covers are delivered now (those not SACKed before).
    pub(super) fn ack_segments(&mut self, ack: SeqNo, now: SimTime) -> Option<SimTime> {
        match &mut self.rate {
            Some(r) => self
                .board
                .ack_with(ack, |s| r.on_delivered(&mut s.tx, s.sent_ns, s.retransmitted, now)),
            None => self.board.ack(ack),
        }
    }

    /// After the ACK is processed: the rate sample to congestion control, which sets cwnd.
    pub(super) fn rate_ack(&mut self, now: SimTime, prior_in_flight: u32) {
        let Some(r) = &mut self.rate else { return };
        let rs = r.generate();
        let delivered = r.delivered();
        let newly_lost = self.board.mark_lost();
        let in_flight = self.board.pipe();
        let state = if self.in_recovery {
            CaState::Recovery
        } else if self.board.una() < self.recover_timeout {
            CaState::Loss
        } else {
            CaState::Open
        };
        let srtt_ns = self.rto.srtt_ns();
        let a =
            AckRate { now, rs, delivered, prior_in_flight, in_flight, newly_lost, state, srtt_ns };
        self.cc.on_rate_sample(&mut self.w, &a);
        if self.cc.app_limited_now() {
            r.mark_app_limited(in_flight);
        }
    }

    /// Draft section 3.4: the window is open but there is nothing to send.
    pub(super) fn check_app_limited(&mut self, now: SimTime) {
        if self.rate.is_none() || self.has_data(self.snd_nxt.max(self.board.max()), now) {
            return;
        }
        let in_flight = self.board.pipe();
        if (in_flight as f64) < self.w.cwnd().min(self.cwnd_cap()) {
            if let Some(r) = &mut self.rate {
                r.mark_app_limited(in_flight);
            }
        }
    }
}

//! ECN at the TCP endpoints (RFC 3168 section 6.1), both ends ECN-capable from the start as
//! if negotiated in the handshake (6.1.1). The sender sends new data ECT(0), retransmissions
//! and pure ACKs Not-ECT (6.1.5, 6.1.4: the world builds the packets); an ACK with ECE cuts
//! the window as a loss would, per the congestion control (ssthresh, then cwnd = ssthresh,
//! 6.1.2), with no retransmission and no change to the duplicate-ACK count, at most once per
//! window: not during loss recovery, and only once an ACK covers data sent after the last
//! reduction (for ECN or loss), i.e. the segment that carried CWR reached the receiver (Linux
//! tcp_input.c `tcp_fastretrans_alert`: the CWR state is held until something above
//! `high_seq` is acknowledged). The first new segment after any reduction carries CWR. The
//! receiver sets ECE on every ACK from a CE arrival until a segment with CWR arrives (6.1.3),
//! and acknowledges a CE segment at once (Linux `__tcp_ecn_check_ce` enters quick-ACK mode:
//! "better not delay acks, sender can have a very low cwnd").

use super::TcpSender;
use crate::engine::time::SimTime;
use crate::ids::SeqNo;

/// The sender's ECN state.
#[derive(Debug, Clone, Default)]
pub struct EcnSender {
    pub enabled: bool,
    /// The ACK being processed carried ECE.
    ece: bool,
    /// Next new segment when the window was last cut for ECN.
    high_water: SeqNo,
    /// `recover` when the sender last looked: a change is a loss reduction (CWR due too).
    seen_recover: SeqNo,
    cwr_due: bool,
    /// Window reductions for ECE (RFC 3168 6.1.2).
    pub reactions: u64,
    /// ACKs that arrived with ECE.
    pub ece_acks: u64,
}

impl EcnSender {
    pub fn new(enabled: bool) -> EcnSender {
        EcnSender { enabled, ..EcnSender::default() }
    }
}

/// The receiver's ECN state.
#[derive(Debug, Clone, Copy, Default)]
pub struct EcnReceiver {
    pub enabled: bool,
    /// Set ECE on the ACKs (a CE segment arrived, no CWR since).
    echo: bool,
    /// Data segments that arrived marked CE.
    pub ce_received: u64,
}

impl EcnReceiver {
    pub fn new(enabled: bool) -> EcnReceiver {
        EcnReceiver { enabled, ..EcnReceiver::default() }
    }

    /// A data segment arrived with `ce` marked and `cwr` set: returns whether its ACK must go
    /// at once. CWR ends the echo before a CE on the same segment starts it again (6.1.3).
    pub fn on_segment(&mut self, ce: bool, cwr: bool) -> bool {
        if !self.enabled {
            return false;
        }
        if cwr {
            self.echo = false;
        }
        if ce {
            self.echo = true;
            self.ce_received += 1;
        }
        ce
    }

    /// ECE on the next ACK.
    pub fn ece(&self) -> bool {
        self.echo
    }
}

impl TcpSender {
    /// The ACK being processed carries ECE (`AckOptions::ece`, from `on_ack_with`).
    pub(super) fn note_ece(&mut self, ece: bool) {
        if self.ecn.enabled && ece {
            self.ecn.ece = true;
            self.ecn.ece_acks += 1;
        }
    }

    /// Does the next new segment carry CWR? True once after each window reduction (ECN, fast
    /// retransmit, timeout); the world asks when it builds a new (not retransmitted) segment.
    pub fn take_cwr(&mut self) -> bool {
        if !self.ecn.enabled {
            return false;
        }
        if self.recover != self.ecn.seen_recover {
            self.ecn.seen_recover = self.recover; // a loss cut the window
            self.ecn.cwr_due = true;
        }
        std::mem::take(&mut self.ecn.cwr_due)
    }

    /// In `on_ack`, after the ACK itself was processed (`ack`: its cumulative ACK): react to
    /// ECE (RFC 3168 6.1.2). cwnd = ssthresh overrides any growth this ACK gave.
    pub(super) fn ecn_on_ack(&mut self, now: SimTime, ack: SeqNo) {
        if !std::mem::take(&mut self.ecn.ece) {
            return;
        }
        // Once per window: the last reduction's data must be acknowledged past its end.
        let reduced_upto = self.recover.max(self.ecn.high_water);
        if self.in_recovery || ack <= reduced_upto {
            return;
        }
        let loss = self.loss(now);
        let ssthresh = self.cc.ssthresh_after_loss(&self.w, &loss);
        self.w.set_ssthresh(ssthresh);
        self.w.to_ssthresh();
        self.ecn.high_water = self.board.max();
        self.ecn.cwr_due = true;
        self.ecn.reactions += 1;
    }

    /// Make this sender ECN-capable (`tcp.ecn`).
    pub fn enable_ecn(&mut self) {
        self.ecn.enabled = true;
    }

    /// The ECN state (its counters).
    pub fn ecn(&self) -> &EcnSender {
        &self.ecn
    }
}

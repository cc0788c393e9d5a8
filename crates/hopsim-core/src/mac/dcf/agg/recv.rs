//! The recipient's side: QoS Data from a peer, alone or in an A-MPDU, goes through the peer's
//! scoreboard and reordering buffer (10.24.7.3, 10.24.7.6.2); MSDUs leave it in sequence
//! order. A lone MPDU is acknowledged by an ACK, an A-MPDU (implicit BlockAckReq) by a
//! compressed BlockAck after SIFS. The world hands the MAC its own copies of the decoded
//! MPDUs' packets, since the buffer may outlive the transmitter's.

use super::super::*;
use crate::mac::ampdu::BLOCK_ACK_BYTES;
use crate::mac::block_ack::recipient::Arrival;

impl Dcf {
    /// QoS Data addressed to this node ended at `at` with these MPDUs decoded: (sequence
    /// number, this node's copy of the packet). `frame` is the PPDU (an A-MPDU if
    /// `frame.mpdus` > 1).
    pub fn on_rx_qos_data(
        &mut self,
        cx: &mut MacCtx,
        at: SimTime,
        frame: &Frame,
        decoded: &[(u16, PacketId)],
    ) {
        if !self.cfg.ns2 && self.medium_rx_end(at, true) {
            self.arm_access(cx);
        }
        let t = self.cfg.timing;
        self.delivered_at = at;
        let agg = self.agg.as_deref_mut().expect("aggregation on");
        let mut up = std::mem::take(&mut agg.up);
        let r = agg.recipient((frame.src, frame.tid)).expect("the world checks reorders_from");
        let mut late_drops = 0;
        for &(seq, copy) in decoded {
            let lost = match r.on_mpdu(seq, copy, at, &mut up) {
                Arrival::Taken => continue,
                Arrival::Duplicate => false,
                Arrival::Late => true,
            };
            if lost {
                late_drops += 1;
            } else {
                self.counters.duplicates += 1;
            }
            let output = MacOutput::Discard { packet: copy, lost };
            cx.out.push(Tagged { output, node: self.node });
        }
        let (ssn, bitmap) = r.block_ack();
        for &packet in &up {
            let output = MacOutput::Received { packet, from: frame.src, copied: true };
            cx.out.push(Tagged { output, node: self.node });
        }
        up.clear();
        let agg = self.agg.as_deref_mut().expect("aggregation on");
        agg.up = up;
        agg.counters.late_drops += late_drops;
        let response = if frame.mpdus > 1 {
            agg.counters.block_acks_sent += 1;
            block_ack(self.node, frame, (ssn, bitmap), &t)
        } else {
            Frame::control(FrameKind::Ack, self.node, frame.src, 0, &t, frame.rate)
        };
        self.respond_after_sifs(cx, at, response);
        self.arm_reorder(cx);
    }

    /// A BlockAckReq from a peer: both windows move to its Starting Sequence Number, what
    /// the buffer lets go goes up, and a BlockAck answers after SIFS (10.24.7.3, 10.24.7.6.2).
    pub(in crate::mac::dcf) fn on_block_ack_req(
        &mut self,
        cx: &mut MacCtx,
        at: SimTime,
        frame: &Frame,
    ) {
        let t = self.cfg.timing;
        let Some(agg) = self.agg.as_deref_mut() else { return };
        let mut up = std::mem::take(&mut agg.up);
        let Some(r) = agg.recipient((frame.src, frame.tid)) else {
            agg.up = up;
            return; // no agreement with it: nothing to answer
        };
        r.on_bar(frame.seq, &mut up);
        let (ssn, bitmap) = r.block_ack();
        for &packet in &up {
            let output = MacOutput::Received { packet, from: frame.src, copied: true };
            cx.out.push(Tagged { output, node: self.node });
        }
        up.clear();
        agg.up = up;
        agg.counters.block_acks_sent += 1;
        // The BlockAck answers at the control-response rate of the BlockAckReq.
        let response = block_ack(self.node, frame, (ssn, bitmap), &t);
        self.respond_after_sifs(cx, at, response);
        self.arm_reorder(cx);
    }

    /// A BlockAck for this node's A-MPDU or BlockAckReq.
    pub(in crate::mac::dcf) fn on_block_ack(&mut self, cx: &mut MacCtx, frame: &Frame) {
        if self.phase != Phase::WaitBa || self.job().is_none_or(|j| j.dst != frame.src) {
            return;
        }
        self.timeout_timer.cancel();
        cx.timers.disarm(self.node, MacTimer::Timeout);
        self.rates.report_snr(frame.src, frame.snr_cdb);
        if let Some(agg) = self.agg.as_deref_mut() {
            agg.counters.block_acks_received += 1;
        }
        self.agg_settle(cx, Some((frame.seq, frame.bitmap)));
    }

    /// Arm the reorder timer for the earliest buffered MPDU's release, if sooner.
    fn arm_reorder(&mut self, cx: &mut MacCtx) {
        let Some(agg) = self.agg.as_deref_mut() else { return };
        let Some(timeout) = agg.cfg.reorder_timeout_ns else { return };
        let next = agg.inb.iter().filter_map(|(_, r)| r.next_release(timeout)).min();
        if let Some(at) = next {
            if agg.reorder_timer.deadline().is_none_or(|d| at < d) {
                let generation = agg.reorder_timer.arm(at);
                cx.timers.arm(at, self.node, MacTimer::Reorder, generation);
            }
        }
    }

    /// The reorder timer: every MPDU held for the timeout goes up with those after it.
    pub(in crate::mac::dcf) fn on_reorder_timer(&mut self, cx: &mut MacCtx, generation: u32) {
        let Some(agg) = self.agg.as_deref_mut() else { return };
        if !agg.reorder_timer.fire(generation) {
            return;
        }
        let timeout = agg.cfg.reorder_timeout_ns.expect("armed only with a timeout");
        let mut up = std::mem::take(&mut agg.up);
        for i in 0..agg.inb.len() {
            let (from, r) = &mut agg.inb[i];
            let before = up.len();
            r.on_timeout(cx.now, timeout, &mut up);
            agg.counters.reorder_timeouts += (up.len() - before) as u64;
            for &packet in &up[before..] {
                let output = MacOutput::Received { packet, from: from.0, copied: true };
                cx.out.push(Tagged { output, node: self.node });
            }
        }
        up.clear();
        agg.up = up;
        self.arm_reorder(cx);
    }
}

/// The compressed BlockAck (9.3.1.9) from `src` answering `eliciting` (an A-MPDU or a
/// BlockAckReq) at its control-response rate, Duration 0 (nothing follows it).
fn block_ack(
    src: NodeId,
    eliciting: &Frame,
    (ssn, bitmap): (u16, u64),
    t: &crate::mac::timing::Timing,
) -> Frame {
    Frame {
        kind: FrameKind::BlockAck,
        src,
        dst: eliciting.src,
        nav_ns: 0,
        bytes: BLOCK_ACK_BYTES,
        rate: t.response_rate(eliciting.rate),
        airtime_ns: t.block_ack_after_ns(eliciting.rate),
        seq: ssn,
        retry: false,
        packet: None,
        mpdus: 0,
        bitmap,
        snr_cdb: Frame::NO_SNR,
        tid: eliciting.tid,
    }
}

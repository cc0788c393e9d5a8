//! Frames sent SIFS after a reception, whatever carrier sense says (802.11-2016 10.3.2.3.2):
//! CTS, ACK, BlockAck, and DATA after a CTS.

use super::*;

impl Dcf {
    pub fn on_sifs_timer(&mut self, cx: &mut MacCtx, generation: u32) {
        if !self.sifs_timer.fire(generation) {
            return;
        }
        let Some(frame) = self.sifs_frame.take() else {
            return;
        };
        if frame.kind == FrameKind::Cts && !self.ns2_may_answer(cx.now) {
            return; // ns-2 check_pktCTRL: no CTS unless is_idle()
        }
        if frame.kind == FrameKind::Data && !self.ns2_may_answer(cx.now) {
            return self.ns2_data_deferred(cx); // ns-2 check_pktTx: no DATA unless is_idle()
        }
        match frame.kind {
            FrameKind::Cts => {
                self.counters.cts_sent += 1;
                self.ns2_await_data(cx.now, &frame);
            }
            FrameKind::Ack | FrameKind::BlockAck => self.counters.ack_sent += 1,
            FrameKind::Data => {
                self.counters.data_sent += 1;
                self.counters.mac_attempts += 1;
                if let Some(j) = self.job_mut().as_mut() {
                    j.data_sent = true;
                }
                self.phase = Phase::TxData;
            }
            FrameKind::Rts
            | FrameKind::BlockAckReq
            | FrameKind::AddbaRequest
            | FrameKind::AddbaResponse => unreachable!("never a response"),
        }
        self.transmit(cx, frame, true);
    }

    pub(super) fn respond_after_sifs(&mut self, cx: &mut MacCtx, at: SimTime, mut frame: Frame) {
        if matches!(frame.kind, FrameKind::Cts | FrameKind::Ack | FrameKind::BlockAck) {
            frame.snr_cdb = self.rx_snr_cdb;
        }
        let when = at + self.cfg.timing.sifs;
        self.sifs_frame = Some(frame);
        let generation = self.sifs_timer.arm(when);
        cx.timers.arm(when, self.node, MacTimer::Sifs, generation);
    }

    /// The receiver measured the frame about to be handed over (addressed to this node) at
    /// `snr_cdb` (0.01 dB; [`Frame::NO_SNR`] without a measure): its response carries it.
    #[inline]
    pub fn note_rx_snr(&mut self, snr_cdb: i16) {
        self.rx_snr_cdb = snr_cdb;
    }
}

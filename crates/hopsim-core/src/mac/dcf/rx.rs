//! What the DCF does with a frame that ended at this node: NAV, responses (CTS, ACK, DATA
//! after CTS), the end of its own exchanges, duplicate detection (802.11-2007 9.2.5-9.2.9).

use super::*;

impl Dcf {
    /// A frame ended at this node at time `at`; `ok` if it was decoded. Every listener of
    /// every frame comes here: the overheard and the lost are handled inline, a frame for
    /// this node in [`Dcf::on_rx_addressed`].
    #[inline]
    pub fn on_rx(&mut self, cx: &mut MacCtx, at: SimTime, frame: &Frame, ok: bool) {
        if !ok {
            self.note_rx_lost(at);
            debug_assert!(self.access_timer_holds(cx.now), "EIFS moved the access earlier");
            return;
        }
        // A cleared EIFS moves the access time earlier: the timer must never be late. Nothing
        // else here does (ns-2's EIFS is a NAV no good frame clears, dcf/ns2.rs).
        if !self.cfg.ns2 && self.medium_rx_end(at, true) {
            self.arm_access(cx);
        }
        debug_assert!(self.access_timer_holds(cx.now), "the access timer is late");
        if frame.dst != self.node && frame.dst != NodeId::BROADCAST {
            if self.tap && frame.kind == FrameKind::Data {
                let packet = frame.packet.expect("data frame carries a packet");
                let output = MacOutput::Overheard { packet, from: frame.src };
                cx.out.push(Tagged { output, node: self.node });
            }
            // Virtual carrier sense (9.2.5.4): NAV from the Duration field.
            let nav_end = at + frame.nav_ns;
            if nav_end > self.nav_until {
                self.nav_until = nav_end;
                self.note(cx, MacNote::Nav { until: nav_end });
                self.medium_busy(at, nav_end);
                if frame.kind == FrameKind::Rts {
                    self.nav_from_rts(cx, at, nav_end);
                }
            }
            return;
        }
        self.on_rx_addressed(cx, at, frame);
    }

    /// A frame ended at this node at `at` in error, or while the receiver was taken by
    /// another: EIFS follows (9.2.3.4; ns-2 sets it as a NAV). Most listeners of a frame only
    /// sense it, so this is the hot path of every frame's end. EIFS only ever moves the access
    /// time later, and a contending MAC's access timer is always armed: the timer needs
    /// nothing here, it finds the later time when it fires (dcf/access_timer.rs).
    #[inline(always)]
    pub fn note_rx_lost(&mut self, at: SimTime) {
        if self.cfg.ns2 {
            self.ns2_eifs_nav(at, at);
        } else {
            self.medium_rx_end(at, false);
        }
    }

    /// A frame for this node (or broadcast) was decoded at `at`.
    #[inline(never)]
    fn on_rx_addressed(&mut self, cx: &mut MacCtx, at: SimTime, frame: &Frame) {
        let t = self.cfg.timing;
        match frame.kind {
            FrameKind::Rts => {
                // Answer only if NAV is idle and no exchange of our own is under way.
                let free = matches!(self.phase, Phase::Idle | Phase::Contend);
                let awaiting_data = self.ns2_cts_until > at; // ns-2 recvRTS: tx_state_ MAC_CTS
                if free && !awaiting_data && self.nav_until <= at && self.sifs_frame.is_none() {
                    let nav_ns = t.cts_nav(frame.nav_ns);
                    let cts = Frame::control(
                        FrameKind::Cts,
                        self.node,
                        frame.src,
                        nav_ns,
                        &t,
                        frame.rate,
                    );
                    self.respond_after_sifs(cx, at, cts);
                }
            }
            FrameKind::Cts => {
                if self.phase == Phase::WaitCts && self.job().is_some_and(|j| j.dst == frame.src) {
                    self.timeout_timer.cancel();
                    cx.timers.disarm(self.node, MacTimer::Timeout);
                    self.rates.report_snr(frame.src, frame.snr_cdb);
                    let mut job = self.job().expect("job");
                    job.short_retries = 0; // SSRC reset on CTS (9.2.5.3)
                    *self.job_mut() = Some(job);
                    self.phase = Phase::SifsData;
                    let data = self.data_frame(&job);
                    self.respond_after_sifs(cx, at, data);
                }
            }
            FrameKind::Data => {
                let packet = frame.packet.expect("data frame carries a packet");
                if frame.dst == NodeId::BROADCAST {
                    self.delivered_at = at;
                    cx.out.push(Tagged {
                        output: MacOutput::Received { packet, from: frame.src, copied: false },
                        node: self.node,
                    });
                    return;
                }
                self.ns2_cts_until = 0; // ns-2 recvDATA: "our CTS got through"
                let ack = Frame::control(FrameKind::Ack, self.node, frame.src, 0, &t, frame.rate);
                self.respond_after_sifs(cx, at, ack);
                if self.is_duplicate(frame) {
                    self.counters.duplicates += 1;
                } else {
                    self.delivered_at = at;
                    cx.out.push(Tagged {
                        output: MacOutput::Received { packet, from: frame.src, copied: false },
                        node: self.node,
                    });
                }
            }
            FrameKind::BlockAck => self.on_block_ack(cx, frame),
            FrameKind::BlockAckReq => self.on_block_ack_req(cx, at, frame),
            FrameKind::AddbaRequest | FrameKind::AddbaResponse => {
                let ack = Frame::control(FrameKind::Ack, self.node, frame.src, 0, &t, frame.rate);
                self.respond_after_sifs(cx, at, ack);
                if frame.kind == FrameKind::AddbaRequest {
                    self.on_addba_request(cx, frame);
                } else {
                    self.on_addba_response(cx, frame);
                }
            }
            FrameKind::Ack => {
                if self.phase == Phase::WaitAck {
                    self.timeout_timer.cancel();
                    cx.timers.disarm(self.node, MacTimer::Timeout);
                    self.rates.report_snr(frame.src, frame.snr_cdb);
                    if self.agg_mgmt().is_some() {
                        return self.on_mgmt_acked(cx);
                    }
                    if self.job().is_some_and(|j| j.aggregate) {
                        // A lone MPDU of the Block Ack window: its own bit.
                        return self.agg_settle(cx, Some((frame_seq_of_lone(self), 1)));
                    }
                    let job = self.job_mut().take().expect("job");
                    self.rates.report_attempt(job.dst, job.rate, true, job.mpdu_bytes, cx.now);
                    self.rates.finish_packet(job.dst, job.mpdu_bytes, job.use_rts, true, cx.now);
                    self.counters.unicast_done += 1;
                    self.done(cx, &job, true);
                }
            }
        }
    }

    /// Duplicate detection by (transmitter, TID, sequence number) with the Retry bit (9.2.9;
    /// a QoS station keeps one entry per <TA, TID>, 10.3.2.14.3).
    fn is_duplicate(&mut self, frame: &Frame) -> bool {
        let key = (frame.src, frame.tid);
        match self.seen.binary_search_by_key(&key, |e| e.0) {
            Ok(i) => {
                let dup = frame.retry && self.seen[i].1 == frame.seq;
                self.seen[i].1 = frame.seq;
                dup
            }
            Err(i) => {
                self.seen.insert(i, (key, frame.seq));
                false
            }
        }
    }
}

/// The sequence number of the lone MPDU an aggregate job sent (its ACK names none).
fn frame_seq_of_lone(dcf: &Dcf) -> u16 {
    dcf.agg_frame().seq
}

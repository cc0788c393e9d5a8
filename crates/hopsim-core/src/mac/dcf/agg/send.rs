//! The originator's side: MPDUs join the peer's window when offered; when the medium is won
//! the A-MPDU is drafted from the window's waiting MPDUs (retransmissions first, being
//! older) and topped up with packets the node pulls from its queue, within the limits: the
//! maximum A-MPDU length, the MPDU count, the Block Ack window and aPPDUMaxTime (10.12.2,
//! 10.24.7.7). A lone MPDU goes as a QoS Data frame with Normal Ack, two or more as an A-MPDU
//! whose implicit BlockAckReq the recipient answers with a BlockAck after SIFS (ns-3.44's
//! WifiDefaultAckManager chooses alike).

use super::super::*;
use super::{Mpdu, Peer, PPDU_MAX_NS};
use crate::engine::time::SimDuration;
use crate::mac::ampdu::{subframe_bytes, BLOCK_ACK_REQ_BYTES};

impl Dcf {
    /// Aggregation is on and `dst` a unicast peer: the packet joins `dst`'s window.
    pub(in crate::mac::dcf) fn agg_offer(&mut self, peer: Peer, mpdu: Mpdu) -> Option<u16> {
        let agg = self.agg.as_deref_mut()?;
        if peer.0 == NodeId::BROADCAST || agg.setup(peer) != Some(super::addba::Setup::Established)
        {
            return None;
        }
        let o = agg.originator(peer);
        debug_assert!(o.has_room(), "an idle MAC has settled its window");
        Some(o.push(mpdu))
    }

    /// The medium is won for an aggregate job: draft the PSDU from the waiting MPDUs and ask
    /// the node for more (it answers with [`Dcf::add_msdu`] and [`Dcf::send_aggregate`]).
    /// Within a TXOP (`continuing` one, or one with a limit) the PSDU is also held to the
    /// time left (dcf/edcaf.rs).
    pub(in crate::mac::dcf) fn agg_win_access(
        &mut self,
        cx: &mut MacCtx,
        dst: NodeId,
        continuing: bool,
    ) {
        let peer = (dst, self.tid());
        let (rate, probe) = self.rates.ppdu_rate(dst, cx.now);
        if let Some(j) = self.job_mut().as_mut() {
            j.rate = rate;
        }
        self.psdu_budget_ns = self.txop_left(cx.now).map(|left| self.psdu_budget(left, rate));
        let agg = self.agg.as_deref_mut().expect("aggregation on");
        agg.probe = probe;
        if agg.bar_for_missed.contains(&peer) || agg.originator(peer).bar_due() {
            return self.send_bar(cx, peer);
        }
        agg.psdu.clear();
        agg.subframes.clear();
        let mut waiting = std::mem::take(&mut agg.waiting);
        waiting.clear();
        waiting.extend(agg.originator(peer).pending());
        // MSDUs may join the last MPDU if it has never been sent and none is left behind
        // (they would overtake it: dcf/amsdu.rs).
        let amsdu = self.cfg.amsdu.is_some();
        for &(seq, mpdu, again) in &waiting {
            if !self.agg_fits(mpdu.bytes) {
                self.growing = false;
                break;
            }
            self.agg_push(seq, mpdu);
            self.growing = amsdu && !again;
        }
        let agg = self.agg.as_deref_mut().expect("aggregation on");
        agg.waiting = waiting;
        let first_fits = agg.psdu.first().is_none_or(|&(_, m)| {
            self.psdu_budget_ns.is_none_or(|b| self.cfg.timing.airtime_ns(m.bytes, rate) <= b)
        });
        if continuing && !first_fits {
            // Not even one MPDU fits what is left of the TXOP: it ends (its MPDUs wait).
            self.phase = Phase::Contend;
            return self.txop_give_up(cx);
        }
        self.phase = Phase::Filling;
        let ac = Ac::of_up(peer.1);
        cx.out.push(Tagged { output: MacOutput::Fill { next_hop: dst, ac }, node: self.node });
    }

    /// The longest PSDU at `rate` whose exchange (an RTS/CTS if the threshold may call for
    /// one, SIFS and the BlockAck) ends within `left` of the TXOP.
    fn psdu_budget(&self, left: SimDuration, rate: crate::mac::timing::Rate) -> SimDuration {
        let t = &self.cfg.timing;
        let mut overhead = t.sifs + t.block_ack_after_ns(rate);
        if self.agg.as_deref().is_some_and(|a| self.cfg.rts_threshold_bytes < a.cfg.max_bytes) {
            overhead += t.rts_ns + t.sifs + t.cts_ns + t.sifs;
        }
        left.saturating_sub(overhead)
    }

    /// The draft's last MPDU with an MSDU of `msdu_bytes` more, if it may grow and the
    /// A-MSDU, the A-MPDU and the PPDU stay within their limits.
    fn agg_grown(&self, msdu_bytes: u32) -> Option<u32> {
        let agg = self.agg.as_deref().filter(|_| self.growing)?;
        let &(_, last) = agg.psdu.last()?;
        let bytes = self.amsdu_grown((last.msdus, last.bytes), msdu_bytes)?;
        self.agg_fits_grown(bytes).then_some(bytes)
    }

    /// Would an MSDU of `msdu_bytes` join the A-MPDU being drafted (in its last MPDU's
    /// A-MSDU, or as an MPDU of its own)?
    pub(in crate::mac::dcf) fn agg_wants(&self, job: &Job, msdu_bytes: u32) -> bool {
        let Some(agg) = self.agg.as_deref() else { return false };
        if self.growing && self.agg_grown(msdu_bytes).is_some() {
            return true;
        }
        let peer = (job.dst, self.tid());
        let has_room = agg.out.iter().any(|(p, o)| *p == peer && o.has_room());
        has_room && self.agg_fits(self.mpdu_bytes_of(msdu_bytes))
    }

    /// A packet of `msdu_bytes` for the job's peer, taken from the queue, joins the A-MPDU:
    /// in the last MPDU's A-MSDU (returning the packet it follows) or as a new MPDU.
    pub(in crate::mac::dcf) fn agg_add_msdu(
        &mut self,
        job: &Job,
        packet: PacketId,
        (msdu_bytes, now): (u32, SimTime),
    ) -> Option<PacketId> {
        let peer = (job.dst, self.tid());
        let grown = if self.growing { self.agg_grown(msdu_bytes) } else { None };
        let bytes = self.mpdu_bytes_of(msdu_bytes);
        if let Some(bytes) = grown {
            let rate_bps = (job.rate.mbps() * 1e6) as u64;
            let agg = self.agg.as_deref_mut().expect("aggregation on");
            let n = agg.psdu.len();
            let (seq, last) = &mut agg.psdu[n - 1];
            let after = std::mem::replace(&mut last.tail, packet);
            last.msdus += 1;
            last.bytes = bytes;
            let (seq, last) = (*seq, *last);
            agg.subframes[n - 1] =
                subframe_bytes(bytes, rate_bps, agg.cfg.density_ns, false) as u16;
            agg.originator(peer).replace(seq, last);
            return Some(after);
        }
        let agg = self.agg.as_deref_mut().expect("aggregation on");
        let mpdu = Mpdu { packet, tail: packet, msdus: 1, bytes, offered_ns: now };
        let seq = agg.originator(peer).push(mpdu);
        self.agg_push(seq, mpdu);
        self.growing = self.cfg.amsdu.is_some();
        None
    }

    /// The node has added what fits: send the PSDU (after an RTS if it is longer than the RTS
    /// threshold).
    pub(in crate::mac::dcf) fn agg_send(&mut self, cx: &mut MacCtx) {
        let mut job = self.job().expect("filling an aggregate");
        let t = self.cfg.timing;
        let (peer, tid) = ((job.dst, self.tid()), self.tid());
        let agg = self.agg.as_deref_mut().expect("aggregation on");
        let n = agg.psdu.len();
        debug_assert!(n >= 1, "the job's own MPDU is always waiting");
        let (first_seq, first) = agg.psdu[0];
        let frame = if n == 1 {
            // A lone MPDU: Normal Ack (its octets are the MPDU's alone).
            let retry = agg.out.iter().any(|(p, o)| {
                *p == peer && o.pending().any(|(s, _, again)| s == first_seq && again)
            });
            agg.subframes.clear();
            Frame {
                kind: FrameKind::Data,
                src: self.node,
                dst: job.dst,
                nav_ns: t.data_nav(job.rate),
                bytes: first.bytes,
                rate: job.rate,
                airtime_ns: t.airtime_ns(first.bytes, job.rate),
                seq: first_seq,
                retry,
                packet: Some(first.packet),
                mpdus: 0,
                bitmap: 0,
                snr_cdb: Frame::NO_SNR,
                tid,
            }
        } else {
            // The last subframe carries no padding.
            let last = agg.psdu[n - 1].1.bytes;
            agg.subframes[n - 1] = (crate::mac::ampdu::DELIMITER_BYTES + last) as u16;
            let bytes: u32 = agg.subframes.iter().map(|&b| u32::from(b)).sum();
            agg.counters.ampdus_sent += 1;
            agg.counters.ampdu_mpdus += n as u64;
            Frame {
                kind: FrameKind::Data,
                src: self.node,
                dst: job.dst,
                nav_ns: t.sifs + t.block_ack_after_ns(job.rate),
                bytes,
                rate: job.rate,
                airtime_ns: t.psdu_airtime_ns(bytes, job.rate),
                seq: first_seq,
                retry: false,
                packet: Some(first.packet),
                mpdus: n as u8,
                bitmap: 0,
                snr_cdb: Frame::NO_SNR,
                tid,
            }
        };
        let i = agg.out.binary_search_by_key(&peer, |e| e.0).expect("the job's peer");
        agg.out[i].1.mark_sent(agg.psdu.iter().map(|&(s, _)| s));
        agg.frame = Some(frame);
        job.mpdu_bytes = frame.bytes;
        job.use_rts = frame.bytes > self.cfg.rts_threshold_bytes;
        *self.job_mut() = Some(job);
        self.phase = Phase::Contend; // as if just won: send_rts / send_data take it from here
        if job.use_rts {
            self.send_rts(cx, job);
        } else {
            self.send_data(cx, job);
        }
    }

    /// A compressed BlockAckReq naming WinStartO (9.3.1.8), at the BlockAck's rate (ns-3's
    /// GetBlockAckTxVector): after a missed BlockAck, or to move the recipient's window past
    /// discarded MPDUs.
    fn send_bar(&mut self, cx: &mut MacCtx, peer: Peer) {
        let mut job = self.job().expect("an aggregate job");
        let t = self.cfg.timing;
        let (dst, tid) = peer;
        let agg = self.agg.as_deref_mut().expect("aggregation on");
        let ssn = agg.originator(peer).win_start();
        let rate = t.response_rate(job.rate);
        let frame = Frame {
            kind: FrameKind::BlockAckReq,
            src: self.node,
            dst,
            nav_ns: t.sifs + t.block_ack_after_ns(job.rate),
            bytes: BLOCK_ACK_REQ_BYTES,
            rate,
            airtime_ns: t.airtime_ns(BLOCK_ACK_REQ_BYTES, rate),
            seq: ssn,
            retry: false,
            packet: None,
            mpdus: 0,
            bitmap: 0,
            snr_cdb: Frame::NO_SNR,
            tid,
        };
        agg.frame = Some(frame);
        agg.counters.bars_sent += 1;
        job.use_rts = false;
        *self.job_mut() = Some(job);
        self.phase = Phase::TxData;
        self.transmit(cx, frame, false);
    }

    /// The frame of an aggregate job (sent after winning the medium or after a CTS).
    pub(in crate::mac::dcf) fn agg_frame(&self) -> Frame {
        self.agg.as_deref().and_then(|a| a.frame).expect("an aggregate was drafted")
    }

    /// What answers the aggregate job's frame: a BlockAck, or an ACK for a lone MPDU.
    pub(in crate::mac::dcf) fn agg_response_ns(&self, frame: &Frame) -> SimDuration {
        if frame.mpdus > 1 {
            self.cfg.timing.block_ack_after_ns(frame.rate)
        } else {
            self.cfg.timing.ack_after_ns(frame.rate)
        }
    }

    /// An MPDU's octets for an MSDU of `msdu_bytes` (QoS Data header and FCS).
    fn mpdu_bytes_of(&self, msdu_bytes: u32) -> u32 {
        self.cfg.timing.data_header_bytes() + msdu_bytes + crate::mac::timing::FCS_BYTES
    }

    /// Would an MPDU of `bytes` more keep the draft within every limit?
    fn agg_fits(&self, bytes: u32) -> bool {
        let (Some(agg), Some(job)) = (self.agg.as_deref(), self.job()) else { return false };
        let n = agg.psdu.len();
        if n == 0 {
            return true; // one MPDU may always go
        }
        if n >= usize::from(agg.cfg.max_mpdus) || agg.probe {
            return false;
        }
        let rate_bps = (job.rate.mbps() * 1e6) as u64;
        let so_far: u32 = agg.subframes.iter().map(|&b| u32::from(b)).sum();
        let total = so_far + subframe_bytes(bytes, rate_bps, agg.cfg.density_ns, true);
        let max_ns = self.psdu_budget_ns.map_or(PPDU_MAX_NS, |b| b.min(PPDU_MAX_NS));
        total <= agg.cfg.max_bytes && self.cfg.timing.psdu_airtime_ns(total, job.rate) <= max_ns
    }

    /// Would the draft with its last MPDU grown to `bytes` keep within every limit? (A lone
    /// MPDU is held to the PPDU's time alone.)
    fn agg_fits_grown(&self, bytes: u32) -> bool {
        let (Some(agg), Some(job)) = (self.agg.as_deref(), self.job()) else { return false };
        let n = agg.subframes.len();
        let rate_bps = (job.rate.mbps() * 1e6) as u64;
        let before: u32 = agg.subframes[..n - 1].iter().map(|&b| u32::from(b)).sum();
        let total = before + subframe_bytes(bytes, rate_bps, agg.cfg.density_ns, true);
        let max_ns = self.psdu_budget_ns.map_or(PPDU_MAX_NS, |b| b.min(PPDU_MAX_NS));
        let t = &self.cfg.timing;
        let airtime =
            if n == 1 { t.airtime_ns(bytes, job.rate) } else { t.psdu_airtime_ns(total, job.rate) };
        (n == 1 || total <= agg.cfg.max_bytes) && airtime <= max_ns
    }

    /// Append an MPDU to the draft (its subframe padded as an inner one; `send_aggregate`
    /// trims the last).
    fn agg_push(&mut self, seq: u16, mpdu: Mpdu) {
        let rate_bps = self.job().map_or(0, |j| (j.rate.mbps() * 1e6) as u64);
        let agg = self.agg.as_deref_mut().expect("aggregation on");
        let octets = subframe_bytes(mpdu.bytes, rate_bps, agg.cfg.density_ns, false);
        agg.psdu.push((seq, mpdu));
        agg.subframes.push(octets as u16);
    }

    /// The response to the aggregate job's frame came (`bitmap` from `ssn`; a lone MPDU's
    /// ACK is its own bit) or did not (`None`): settle the window, report the packets done,
    /// and contend again for what is left, or finish.
    pub(in crate::mac::dcf) fn agg_settle(
        &mut self,
        cx: &mut MacCtx,
        response: Option<(u16, u64)>,
    ) {
        let mut job = self.job().expect("an aggregate job");
        let limit = self.cfg.short_retry_limit;
        let peer = (job.dst, self.tid());
        let agg = self.agg.as_deref_mut().expect("aggregation on");
        let last = agg.frame.expect("a frame was sent");
        let was_bar = last.kind == FrameKind::BlockAckReq;
        if response.is_none() && last.mpdus > 1 {
            let mpdus = (u32::from(last.mpdus), 0);
            self.rates.report_ampdu(job.dst, last.rate, mpdus, last.airtime_ns, cx.now);
            let agg = self.agg.as_deref_mut().expect("aggregation on");
            // Ask before sending this peer and TID anything again: the MPDUs keep awaiting
            // their BlockAck. (Per TID: another category's function may win the medium
            // first, and its own exchange goes as usual.)
            if !agg.bar_for_missed.contains(&peer) {
                agg.bar_for_missed.push(peer);
            }
            self.counters.mac_retries += 1;
            self.txop.end();
            self.double_cw();
            self.phase = Phase::Contend;
            return self.draw_backoff(cx);
        }
        if was_bar {
            agg.bar_for_missed.retain(|&p| p != peer);
            job.short_retries += 1;
            let o = agg.originator(peer);
            // A BlockAckReq answered, or given up at the retry limit (the recipient's reorder
            // timeout then skips the gap).
            if response.is_some() || job.short_retries >= limit {
                o.bar_sent();
                job.short_retries = 0;
            }
            *self.job_mut() = Some(job);
        }
        let agg = self.agg.as_deref_mut().expect("aggregation on");
        let mut acked = std::mem::take(&mut agg.acked);
        let mut discarded = std::mem::take(&mut agg.discarded);
        // Under a Block Ack agreement an MPDU is given up only at its MSDU lifetime, never for
        // its failures (802.11-2020 10.23.2.12.1 counts retries of frames outside an
        // agreement; ns-3.44's IncrementRetryCountUnderBa is off).
        let (now, lifetime) = (cx.now, agg.cfg.msdu_lifetime_ns);
        let expired = |m: &Mpdu, _failures: u32| now.saturating_sub(m.offered_ns) >= lifetime;
        let o = agg.originator(peer);
        let settled = match response {
            Some(ba) => o.on_block_ack(ba, expired, &mut acked, &mut discarded),
            None => o.on_missed_block_ack(expired, &mut discarded),
        };
        let left = o.outstanding() + usize::from(o.bar_due());
        agg.counters.mpdus_failed += u64::from(settled.failed);
        for m in &acked {
            self.mpdu_done(cx, job.dst, m, true);
        }
        for m in &discarded {
            self.counters.retry_limit_drops += 1;
            self.mpdu_done(cx, job.dst, m, false);
        }
        acked.clear();
        discarded.clear();
        let agg = self.agg.as_deref_mut().expect("aggregation on");
        (agg.acked, agg.discarded) = (acked, discarded);
        if !was_bar {
            // A lone MPDU of the window is an A-MPDU of one for rate control.
            let mpdus = (u32::from(last.mpdus).max(1), settled.acked);
            self.rates.report_ampdu(job.dst, last.rate, mpdus, last.airtime_ns, cx.now);
        }
        let answered = settled.acked > 0 || (was_bar && response.is_some());
        if answered {
            self.efs[self.cur].reset_cw();
        } else {
            // Retries count failed RTS and DATA attempts (as `mac_attempts` counts them), not
            // an unanswered BlockAckReq.
            self.counters.mac_retries += u64::from(!was_bar);
            self.double_cw();
        }
        if left > 0 {
            // What failed waits in the window: for the next exchange of the TXOP if this one
            // was answered and time is left (as ns-3.44 goes on after a BlockAckReq), else
            // for the next access.
            self.phase = Phase::Contend;
            if answered && self.txop_continue(cx.now) {
                self.arm_access(cx);
            } else {
                self.txop.end();
                self.draw_backoff(cx);
            }
        } else {
            *self.job_mut() = None;
            self.finish(cx);
        }
    }

    /// The RTS before the aggregate job's frame went unanswered: its MPDUs wait again; at
    /// the short retry limit they count one failure each (and may be discarded).
    pub(in crate::mac::dcf) fn agg_rts_failed(&mut self, cx: &mut MacCtx) {
        let mut job = self.job().expect("an aggregate job");
        job.short_retries += 1;
        *self.job_mut() = Some(job);
        if job.short_retries >= self.cfg.short_retry_limit {
            let agg = self.agg.as_deref_mut().expect("aggregation on");
            if let Some(f) = agg.frame.as_mut() {
                f.mpdus = f.mpdus.min(1); // no BlockAckReq: nothing was sent
            }
            if let Some(j) = self.job_mut().as_mut() {
                j.short_retries = 0;
            }
            return self.agg_settle(cx, None);
        }
        let peer = (job.dst, self.tid());
        let agg = self.agg.as_deref_mut().expect("aggregation on");
        agg.originator(peer).unsend();
        self.counters.mac_retries += 1;
        self.double_cw();
        self.phase = Phase::Contend;
        self.draw_backoff(cx);
    }

    fn mpdu_done(&mut self, cx: &mut MacCtx, next_hop: NodeId, m: &Mpdu, acked: bool) {
        self.counters.unicast_done += 1;
        self.count_amsdu(m.msdus);
        let service_ns = cx.now - m.offered_ns;
        let output = MacOutput::Done { packet: m.packet, next_hop, acked, service_ns };
        cx.out.push(Tagged { output, node: self.node });
    }
}

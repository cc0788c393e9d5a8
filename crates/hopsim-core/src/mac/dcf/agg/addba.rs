//! Setting up a Block Ack agreement (IEEE 802.11-2016 10.24.2): the originator sends an ADDBA
//! Request (an Action frame, 9.6.5.2) before its first A-MPDU to a peer, the recipient
//! acknowledges it, makes its scoreboard and reordering buffer, and answers with an ADDBA
//! Response (9.6.5.3) when it next wins the medium, which the originator acknowledges; from
//! then on the originator aggregates. Without a Response within 5 ms of the Request's ACK the
//! originator sends without aggregation for 200 ms and then asks again (ns-3.44's QosTxop
//! AddBaResponseTimeout and FailedAddBaTimeout; ns-3 asks once two packets wait, hopsim at the
//! first unicast packet to a peer). Both frames carry the window: SSN of the originator's
//! next sequence number, the buffer size `mac.ampdu_max_mpdus`, no Block Ack timeout.

use super::super::*;
use super::Peer;
use crate::engine::time::{us, SimDuration};

/// Voice TIDs (UP 6, 7) are never aggregated (see `agg_needs_setup`).
#[inline]
pub(super) fn is_voice(tid: u8) -> bool {
    Ac::of_up(tid) == Ac::Vo
}

/// 9.6.5.2-3: MAC header 24, Category, Block Ack Action, Dialog Token, then (Request)
/// Block Ack Parameter Set, Timeout, Starting Sequence Control or (Response) Status, Block
/// Ack Parameter Set, Timeout; FCS 4: 37 octets either way.
pub const ADDBA_BYTES: u32 = 24 + 3 + 6 + 4;
/// ns-3.44 QosTxop: AddBaResponseTimeout, FailedAddBaTimeout.
const RESPONSE_TIMEOUT_NS: SimDuration = us(5_000);
const FAILED_BACKOFF_NS: SimDuration = us(200_000);

/// Where the agreement with a peer stands (originator side).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setup {
    /// The Request is on its way or acknowledged; the Response is awaited.
    Requested,
    Established,
    /// No Response came: no aggregation to this peer until `until`.
    Failed {
        until: SimTime,
    },
}

impl super::Agg {
    pub(super) fn setup(&self, peer: Peer) -> Option<Setup> {
        self.setups.binary_search_by_key(&peer, |e| e.0).ok().map(|i| self.setups[i].1)
    }

    fn set_setup(&mut self, peer: Peer, setup: Setup) {
        match self.setups.binary_search_by_key(&peer, |e| e.0) {
            Ok(i) => self.setups[i].1 = setup,
            Err(i) => self.setups.insert(i, (peer, setup)),
        }
    }
}

impl Dcf {
    /// A unicast packet for `peer` is offered: does an agreement have to be asked for first?
    /// (Then the Request is queued and the packet waits in the job.) Voice is never
    /// aggregated: neither ns-3.44 (`VO_MaxAmpduSize` 0) nor Linux (minstrel_ht's
    /// `minstrel_aggr_check` skips IEEE80211_AC_VO) sets up an agreement for it.
    pub(in crate::mac::dcf) fn agg_needs_setup(&mut self, peer: Peer, now: SimTime) -> bool {
        let (node, t) = (self.node, &self.cfg.timing);
        let (dst, tid) = peer;
        let unicast = dst != NodeId::BROADCAST && !is_voice(tid);
        let Some(agg) = self.agg.as_deref_mut().filter(|_| unicast) else {
            return false;
        };
        let size = agg.cfg.max_mpdus;
        match agg.setup(peer) {
            Some(Setup::Established | Setup::Requested) => false,
            Some(Setup::Failed { until }) if now < until => false,
            _ => {
                agg.set_setup(peer, Setup::Requested);
                let ssn = agg.originator(peer).win_start();
                let request = mgmt_frame(FrameKind::AddbaRequest, (node, peer), ssn, size, t);
                agg.mgmt_due.push(request);
                true
            }
        }
    }

    /// Is a management frame of the current function waiting for the medium?
    #[inline]
    pub(in crate::mac::dcf) fn agg_mgmt_due(&self) -> bool {
        self.agg_mgmt_due_for(self.tid())
    }

    /// Is a management frame of the function of `tid` waiting for the medium? (A DCF's
    /// frames all have TID 0.)
    #[inline]
    pub(in crate::mac::dcf) fn agg_mgmt_due_for(&self, tid: u8) -> bool {
        let Some(a) = self.agg.as_deref() else { return false };
        a.mgmt.is_none() && a.mgmt_due.iter().any(|f| self.same_function(f.tid, tid))
    }

    /// Do frames of these TIDs go through the same channel access function?
    #[inline]
    fn same_function(&self, a: u8, b: u8) -> bool {
        self.efs.len() == 1 || Ac::of_up(a) == Ac::of_up(b)
    }

    /// The medium is won for the first management frame of the current function.
    pub(in crate::mac::dcf) fn send_mgmt(&mut self, cx: &mut MacCtx) {
        self.efs[self.cur].access.clear_backoff();
        let tid = self.tid();
        let single = self.efs.len() == 1;
        let agg = self.agg.as_deref_mut().expect("aggregation on");
        let k = agg.mgmt_due.iter().position(|f| single || Ac::of_up(f.tid) == Ac::of_up(tid));
        let frame = agg.mgmt_due.remove(k.expect("a frame of this function waits"));
        agg.mgmt = Some(frame);
        self.phase = Phase::TxData;
        self.transmit(cx, frame, false);
    }

    /// The management frame in flight, if any.
    #[inline]
    pub(in crate::mac::dcf) fn agg_mgmt(&self) -> Option<Frame> {
        self.agg.as_deref().and_then(|a| a.mgmt)
    }

    /// It was acknowledged: a Request now awaits its Response; after a Response the MAC
    /// goes back to what it was doing.
    pub(in crate::mac::dcf) fn on_mgmt_acked(&mut self, cx: &mut MacCtx) {
        let agg = self.agg.as_deref_mut().expect("aggregation on");
        let frame = agg.mgmt.take().expect("a management frame was sent");
        agg.mgmt_retries = 0;
        self.efs[self.cur].reset_cw();
        let peer = (frame.dst, frame.tid);
        if frame.kind == FrameKind::AddbaRequest && agg.setup(peer) == Some(Setup::Requested) {
            self.phase = Phase::WaitAddba;
            let at = cx.now + RESPONSE_TIMEOUT_NS;
            let generation = self.timeout_timer.arm(at);
            return cx.timers.arm(at, self.node, MacTimer::Timeout, generation);
        }
        self.resume(cx);
    }

    /// No ACK for the management frame: again, up to the short retry limit; then a Request
    /// counts as refused, a Response is given up (the originator's wait times out).
    pub(in crate::mac::dcf) fn on_mgmt_timeout(&mut self, cx: &mut MacCtx) {
        let limit = self.cfg.short_retry_limit;
        let agg = self.agg.as_deref_mut().expect("aggregation on");
        let mut frame = agg.mgmt.take().expect("a management frame was sent");
        agg.mgmt_retries += 1;
        if agg.mgmt_retries < limit {
            frame.retry = true;
            agg.mgmt_due.insert(0, frame);
            self.double_cw();
        } else {
            agg.mgmt_retries = 0;
            if frame.kind == FrameKind::AddbaRequest {
                self.agreement_failed(cx.now, (frame.dst, frame.tid));
            }
            self.efs[self.cur].reset_cw();
        }
        self.resume(cx);
    }

    /// The ADDBA Response did not come in time.
    pub(in crate::mac::dcf) fn on_addba_timeout(&mut self, cx: &mut MacCtx) {
        if let Some(job) = self.job() {
            self.agreement_failed(cx.now, (job.dst, self.tid()));
        }
        self.resume(cx);
    }

    /// An ADDBA Request for this node: it is acknowledged (by the caller), the recipient's
    /// buffer is made from its SSN, and a Response waits for the medium.
    pub(in crate::mac::dcf) fn on_addba_request(&mut self, cx: &mut MacCtx, frame: &Frame) {
        let (node, t) = (self.node, self.cfg.timing);
        let Some(agg) = self.agg.as_deref_mut() else { return };
        let size = agg.cfg.max_mpdus;
        let peer = (frame.src, frame.tid);
        agg.start_recipient(peer, frame.seq);
        if !agg.mgmt_due.iter().any(|f| (f.dst, f.tid) == peer) {
            let response = mgmt_frame(FrameKind::AddbaResponse, (node, peer), 0, size, &t);
            agg.mgmt_due.push(response);
        }
        let i = self.ef_index(Ac::of_up(frame.tid));
        if self.phase == Phase::Idle {
            self.cur = i;
            self.phase = Phase::Contend;
            self.draw_backoff(cx);
        } else if i != self.cur && self.efs[i].job.is_none() {
            // Another function contends for the Response (its backoff drawn now).
            self.draw_backoff_for(cx, i, cx.now);
            self.arm_access(cx);
        }
    }

    /// An ADDBA Response for this node (acknowledged by the caller): the agreement stands,
    /// and a packet waiting for it joins the window.
    pub(in crate::mac::dcf) fn on_addba_response(&mut self, cx: &mut MacCtx, frame: &Frame) {
        let Some(agg) = self.agg.as_deref_mut() else { return };
        let peer = (frame.src, frame.tid);
        if agg.setup(peer) != Some(Setup::Requested) {
            return; // too late: the originator sends without aggregation for now
        }
        agg.set_setup(peer, Setup::Established);
        let i = self.ef_index(Ac::of_up(frame.tid));
        let Some(mut job) = self.efs[i].job.filter(|j| j.dst == frame.src && j.awaiting_agreement)
        else {
            return;
        };
        job.awaiting_agreement = false;
        let (packet, tail, msdus) = (job.packet, job.tail, job.msdus);
        let mpdu =
            super::Mpdu { packet, tail, msdus, bytes: job.mpdu_bytes, offered_ns: job.offered_ns };
        job.aggregate = self.agg_offer(peer, mpdu).is_some();
        self.efs[i].job = Some(job);
        if self.phase == Phase::WaitAddba && i == self.cur {
            self.timeout_timer.cancel();
            cx.timers.disarm(self.node, MacTimer::Timeout);
            self.resume(cx);
        }
    }

    /// No aggregation to `peer` for a while: a packet waiting for the agreement goes alone.
    fn agreement_failed(&mut self, now: SimTime, peer: Peer) {
        if let Some(agg) = self.agg.as_deref_mut() {
            agg.set_setup(peer, Setup::Failed { until: now + FAILED_BACKOFF_NS });
        }
        let i = self.ef_index(Ac::of_up(peer.1));
        if self.efs[i].job.is_some_and(|j| j.dst == peer.0 && j.awaiting_agreement) {
            let seq = self.agg_single_seq(peer);
            if let Some(j) = self.efs[i].job.as_mut() {
                j.awaiting_agreement = false;
                j.seq = seq.unwrap_or(j.seq);
            }
        }
    }

    /// The sequence number of a QoS Data frame to `peer` sent alone, outside an agreement:
    /// from the peer's numbering (None without aggregation, and for voice: the MAC's own
    /// counter).
    pub(in crate::mac::dcf) fn agg_single_seq(&mut self, peer: Peer) -> Option<u16> {
        let unicast = peer.0 != NodeId::BROADCAST && !is_voice(peer.1);
        let agg = self.agg.as_deref_mut().filter(|_| unicast)?;
        Some(agg.originator(peer).skip())
    }

    /// Back to contending for the job (or for a management frame), or idle.
    fn resume(&mut self, cx: &mut MacCtx) {
        let waiting_response = self.job().is_some_and(|j| j.awaiting_agreement)
            && self.agg.as_deref().is_some_and(|a| a.mgmt_due.is_empty());
        if waiting_response && self.phase == Phase::WaitAddba {
            return;
        }
        if self.job().is_some() || self.agg_mgmt_due() {
            self.phase = Phase::Contend;
            self.draw_backoff(cx);
        } else {
            self.finish(cx);
        }
    }
}

/// An ADDBA Request or Response from `src` to `dst` at the basic rate (9.6.5.2-3); `ssn`
/// rides in the sequence field, the buffer size is not needed by the receiving side here.
fn mgmt_frame(
    kind: FrameKind,
    (src, (dst, tid)): (NodeId, Peer),
    ssn: u16,
    _buffer: u16,
    t: &crate::mac::timing::Timing,
) -> Frame {
    let rate = t.basic_rate;
    Frame {
        kind,
        src,
        dst,
        nav_ns: t.data_nav(rate),
        bytes: ADDBA_BYTES,
        rate,
        airtime_ns: t.airtime_ns(ADDBA_BYTES, rate),
        seq: ssn,
        retry: false,
        packet: None,
        mpdus: 0,
        bitmap: 0,
        snr_cdb: Frame::NO_SNR,
        tid,
    }
}

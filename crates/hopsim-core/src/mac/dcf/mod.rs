//! The 802.11 DCF frame-exchange state machine (802.11-2007 9.2): RTS/CTS/DATA/ACK with an
//! RTS threshold, NAV from the Duration field, CTS/ACK timeouts, short and long retry counters
//! with binary exponential backoff, post-backoff after every exchange, and duplicate detection.
//!
//! The MAC talks to its neighbours only through [`MacCtx`]: it schedules its own timers and
//! pushes [`MacOutput`]s (frames to put on the air, packets to hand up, finished packets).

use super::edca::{Ac, EdcaParams};
use super::frame::{Frame, FrameKind};
use super::rate::{FailAverage, RateAlgo, RateControl};
use super::timing::Timing;
use crate::engine::rng::Rng;
use crate::engine::sched::Timer;
use crate::engine::time::{SimDuration, SimTime};
use crate::ids::{NodeId, PacketId};
use agg::Agg;

mod interface;
mod protection;
pub use interface::{MacCtx, MacNote, MacOutput, MacTimer, Tagged};
pub use protection::ErpProtection;

/// Static configuration of one MAC.
#[derive(Debug, Clone, Copy)]
pub struct DcfConfig {
    pub timing: Timing,
    pub cw_min: u32,
    pub cw_max: u32,
    pub rts_threshold_bytes: u32,
    pub short_retry_limit: u32,
    pub long_retry_limit: u32,
    pub rate_algo: RateAlgo,
    /// ns-2.35's Mac802_11 where it departs from the standard (dcf/ns2.rs): EIFS as a NAV,
    /// set by captured and erroneous frames, that also withholds CTS; backoff drawn from
    /// {0, ..., CW - 1} before every frame.
    pub ns2: bool,
    /// A-MPDU aggregation under Block Ack (802.11n), or none.
    pub agg: Option<AggConfig>,
    /// A-MSDU aggregation (dcf/amsdu.rs), or none.
    pub amsdu: Option<super::amsdu::AmsduConfig>,
    /// A QoS station's four EDCA functions (mac/edca.rs), indexed by access category; none:
    /// one DCF with `cw_min`, `cw_max` and the timing's DIFS.
    pub edca: Option<[EdcaParams; 4]>,
    /// 802.11g: the frame before each ERP-OFDM frame (dcf/protection.rs).
    pub erp_protection: ErpProtection,
    /// How the rate control averages each link's failures (mac/rate/estimate.rs).
    pub fail_average: FailAverage,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// No packet in service.
    Idle,
    /// Waiting for the backoff to complete.
    Contend,
    TxRts,
    /// ERP protection: the CTS to itself is on the air (dcf/protection.rs).
    TxCtsSelf,
    WaitCts,
    /// CTS received; DATA goes out after SIFS.
    SifsData,
    TxData,
    WaitAck,
    /// The medium is won for an A-MPDU; the node is adding packets (dcf/agg/send.rs).
    Filling,
    /// An A-MPDU was sent; its BlockAck is due.
    WaitBa,
    /// The ADDBA Request was acknowledged; its Response is awaited (dcf/agg/addba.rs).
    WaitAddba,
}

#[derive(Clone)]
pub struct Dcf {
    node: NodeId,
    cfg: DcfConfig,
    /// The channel access functions (dcf/edcaf.rs): one DCF, or four EDCAFs by category.
    efs: Vec<Edcaf>,
    /// The function whose exchange `phase` describes (the last to win the medium, or the one
    /// whose packet came to an idle MAC).
    cur: usize,
    phase: Phase,
    /// The TXOP the current function holds (dcf/edcaf.rs).
    txop: Txop,
    /// Functions (bits by index) that lost an internal collision at the last access.
    losers: u8,
    /// The longest PSDU the TXOP leaves room for, while an A-MPDU is drafted in one.
    psdu_budget_ns: Option<SimDuration>,
    /// The draft's last MPDU has never been sent: MSDUs may join it (dcf/amsdu.rs).
    growing: bool,
    /// The frame about to go continues a TXOP.
    txop_burst: bool,
    access_timer: Timer,
    timeout_timer: Timer,
    sifs_timer: Timer,
    sifs_frame: Option<Frame>,
    nav_until: SimTime,
    /// ns2 profile: EIFS as a NAV (dcf/ns2.rs).
    eifs_nav_until: SimTime,
    /// ns2 profile: end of the wait for the DATA after a CTS this node sent (`MAC_CTS`).
    ns2_cts_until: SimTime,
    next_seq: u16,
    /// Last sequence number received from each transmitter and TID (sorted).
    seen: Vec<((NodeId, u8), u16)>,
    rng: Rng,
    pub counters: MacCounters,
    pub rates: RateControl,
    /// Report `MacOutput::Note`s (the event trace is on).
    notes: bool,
    /// Report `MacOutput::Overheard` (ns2 profile DSR's promiscuous tap).
    tap: bool,
    /// When the last DATA frame delivered up ended at this node (see [`Dcf::offer`]).
    delivered_at: SimTime,
    /// SNR (0.01 dB) of the last frame addressed to this node: its response carries it.
    rx_snr_cdb: i16,
    nav_reset: Option<nav_reset::NavReset>,
    nav_reset_timer: Timer,
    /// A-MPDU and Block Ack state (boxed: most MACs have none).
    agg: Option<Box<Agg>>,
}

impl Dcf {
    pub fn new(node: NodeId, cfg: DcfConfig, rng: Rng, rate_rng: Rng) -> Dcf {
        let t = cfg.timing;
        Dcf {
            node,
            cfg,
            efs: Edcaf::all(&cfg, Self::cca_of(&cfg)),
            cur: if cfg.edca.is_some() { Ac::Be.index() } else { 0 },
            phase: Phase::Idle,
            txop: Txop::default(),
            losers: 0,
            psdu_budget_ns: None,
            growing: false,
            txop_burst: false,
            access_timer: Timer::default(),
            timeout_timer: Timer::default(),
            sifs_timer: Timer::default(),
            sifs_frame: None,
            nav_until: 0,
            eifs_nav_until: 0,
            ns2_cts_until: 0,
            next_seq: 0,
            seen: Vec::new(),
            rng,
            counters: MacCounters::default(),
            notes: false,
            tap: false,
            delivered_at: 0,
            rx_snr_cdb: Frame::NO_SNR,
            nav_reset: None,
            nav_reset_timer: Timer::default(),
            rates: RateControl::new(cfg.rate_algo, t, cfg.cw_min, rate_rng)
                .with_fail_average(cfg.fail_average),
            agg: cfg.agg.map(|a| Box::new(Agg::new(a))),
        }
    }

    /// How long a signal goes unsensed (timing.rs aCCATime; ns-2 has no such delay, dcf/ns2.rs).
    pub fn cca_ns(&self) -> SimTime {
        Self::cca_of(&self.cfg)
    }

    fn cca_of(cfg: &DcfConfig) -> SimTime {
        if cfg.ns2 {
            ns2::NS2_CCA_NS
        } else {
            cfg.timing.cca_ns()
        }
    }

    /// Ready to take the next packet of category `ac` from its interface queue (a DCF has
    /// one queue: any `ac` names it).
    #[inline]
    pub fn is_idle(&self, ac: Ac) -> bool {
        self.efs[self.ef_index(ac)].job.is_none()
    }

    pub fn nav_until(&self) -> SimTime {
        self.nav_until
    }

    /// Start serving `packet` of category `ac` for next hop `dst` (or [`NodeId::BROADCAST`]);
    /// `msdu_bytes` is the LLC/SNAP + network-layer length. `receiver` reads the PHY's report
    /// for a NAV reset whose deadline passed while the MAC was idle (dcf/nav_reset.rs).
    pub fn offer(
        &mut self,
        cx: &mut MacCtx,
        (packet, dst, msdu_bytes, ac): (PacketId, NodeId, u32, Ac),
        receiver: impl FnOnce() -> (SimTime, SimTime),
    ) {
        let i = self.ef_index(ac);
        debug_assert!(self.efs[i].job.is_none());
        if self.efs.iter().all(|e| e.job.is_none()) {
            self.nav_reset_on_offer(cx, receiver);
        }
        let mpdu_bytes =
            self.cfg.timing.data_header_bytes() + msdu_bytes + super::timing::FCS_BYTES;
        let seq = self.next_seq;
        self.next_seq = (self.next_seq + 1) & 0x0FFF;
        let use_rts = self.rts_by_threshold(dst, mpdu_bytes);
        if dst != NodeId::BROADCAST {
            self.rates.start_packet(dst, mpdu_bytes, use_rts, cx.now);
        }
        let (mut aggregate, mut awaiting_agreement, mut seq) = (false, false, seq);
        if self.agg.is_some() {
            let peer = (dst, self.efs[i].tid);
            let (tail, msdus, offered_ns) = (packet, 1, cx.now);
            let mpdu = agg::Mpdu { packet, tail, msdus, bytes: mpdu_bytes, offered_ns };
            aggregate = self.agg_offer(peer, mpdu).is_some();
            awaiting_agreement = !aggregate && self.agg_needs_setup(peer, cx.now);
            if !aggregate && !awaiting_agreement {
                seq = self.agg_single_seq(peer).unwrap_or(seq);
            }
        }
        self.efs[i].job = Some(Job {
            packet,
            tail: packet,
            msdus: 1,
            dst,
            mpdu_bytes,
            seq,
            // RTS/CTS for unicast MPDUs longer than the threshold (802.11-2007 9.2.6).
            use_rts,
            short_retries: 0,
            long_retries: 0,
            data_sent: false,
            offered_ns: cx.now,
            rate: self.cfg.timing.basic_rate,
            aggregate,
            awaiting_agreement,
        });
        if self.phase == Phase::Idle {
            self.cur = i;
        }
        if i == self.cur && self.phase == Phase::Idle {
            self.phase = Phase::Contend;
        }
        self.txop_on_offer(cx.now, i);
        // The packet of a DATA frame is delivered up, and may be forwarded at once, at the
        // transmitter's end-of-frame event: up to a propagation delay before the frame's last
        // bit reached this node. For channel access it is queued when that reception ended,
        // not during it (which would make it back off where the medium is idle, 9.2.5.1).
        let queued_at = cx.now.max(self.delivered_at);
        let ns2 = self.cfg.ns2;
        let a = &mut self.efs[i].access;
        // A post-backoff that ran out while there was nothing to send is over: it is never
        // timed, only computed when the next packet arrives.
        if a.access_time().is_some_and(|at| at <= queued_at) {
            a.clear_backoff();
        }
        // ns-2 `send` always draws a backoff (no immediate access, mac-802_11.cc).
        if a.backoff().is_none() && (ns2 || !a.try_immediate(queued_at)) {
            self.draw_backoff_for(cx, i, cx.now);
        }
        self.arm_access(cx);
    }

    /// The RTS threshold's rule: unicast MPDUs longer than it go after an RTS/CTS exchange.
    fn rts_by_threshold(&self, dst: NodeId, mpdu_bytes: u32) -> bool {
        dst != NodeId::BROADCAST && mpdu_bytes > self.cfg.rts_threshold_bytes
    }

    /// Report to the event trace (off unless asked: one branch).
    pub(super) fn note(&self, cx: &mut MacCtx, note: MacNote) {
        if self.notes {
            cx.out.push(Tagged { output: MacOutput::Note(note), node: self.node });
        }
    }

    /// Report decoded data frames addressed to other nodes (`MacOutput::Overheard`).
    pub fn set_tap(&mut self, on: bool) {
        self.tap = on;
    }

    /// Send `MacOutput::Note`s for the event trace.
    pub fn report_notes(&mut self, on: bool) {
        self.notes = on;
    }

    /// One of this MAC's timers fired (`generation`: its arming).
    pub fn on_timer(&mut self, cx: &mut MacCtx, timer: MacTimer, generation: u32) {
        match timer {
            MacTimer::Access => self.on_access_timer(cx, generation),
            MacTimer::Timeout => self.on_timeout(cx, generation),
            MacTimer::Sifs => self.on_sifs_timer(cx, generation),
            MacTimer::Reorder => self.on_reorder_timer(cx, generation),
            // The world passes the receiver's report: Dcf::on_nav_reset.
            MacTimer::NavReset => unreachable!("dispatched with the receiver's last RXSTART"),
        }
    }

    fn transmit(&mut self, cx: &mut MacCtx, frame: Frame, response: bool) {
        let response = response || std::mem::take(&mut self.txop_burst);
        self.medium_busy(cx.now, cx.now + frame.airtime_ns);
        cx.out.push(Tagged { output: MacOutput::Transmit { frame, response }, node: self.node });
    }

    fn send_rts(&mut self, cx: &mut MacCtx, job: Job) {
        let t = &self.cfg.timing;
        let nav_ns = if job.aggregate {
            let f = self.agg_frame();
            t.rts_nav_for(f.airtime_ns, self.agg_response_ns(&f))
        } else {
            t.rts_nav(t.airtime_ns(job.mpdu_bytes, job.rate), job.rate)
        };
        let t = &self.cfg.timing;
        let frame = Frame::control(FrameKind::Rts, self.node, job.dst, nav_ns, t, t.basic_rate);
        self.counters.rts_sent += 1;
        self.counters.mac_attempts += 1;
        self.phase = Phase::TxRts;
        self.transmit(cx, frame, false);
    }

    #[inline(always)]
    fn data_frame(&self, job: &Job) -> Frame {
        if job.aggregate {
            return self.agg_frame();
        }
        let t = &self.cfg.timing;
        let broadcast = job.dst == NodeId::BROADCAST;
        // Broadcast data goes at the basic rate (802.11-2007 9.6).
        let rate = if broadcast { t.basic_rate } else { job.rate };
        Frame {
            kind: FrameKind::Data,
            src: self.node,
            dst: job.dst,
            nav_ns: if broadcast { 0 } else { t.data_nav(rate) },
            bytes: job.mpdu_bytes,
            rate,
            airtime_ns: t.airtime_ns(job.mpdu_bytes, rate),
            seq: job.seq,
            retry: job.data_sent,
            packet: Some(job.packet),
            mpdus: 0,
            bitmap: 0,
            snr_cdb: Frame::NO_SNR,
            tid: self.efs[self.cur].tid,
        }
    }

    fn send_data(&mut self, cx: &mut MacCtx, job: Job) {
        let frame = self.data_frame(&job);
        if let Some(j) = self.job_mut().as_mut() {
            j.data_sent = true;
        }
        self.counters.data_sent += 1;
        self.counters.mac_attempts += 1;
        self.phase = Phase::TxData;
        self.transmit(cx, frame, false);
    }

    /// This node's own frame has left the air.
    pub fn on_tx_end(&mut self, cx: &mut MacCtx, frame: &Frame) {
        let t = self.cfg.timing;
        match (frame.kind, self.phase) {
            (FrameKind::Rts, Phase::TxRts) => {
                self.phase = Phase::WaitCts;
                let at = cx.now + self.response_timeout(t.cts_ns);
                let generation = self.timeout_timer.arm(at);
                cx.timers.arm(at, self.node, MacTimer::Timeout, generation);
            }
            (FrameKind::Cts, Phase::TxCtsSelf) => self.on_cts_to_self_end(cx),
            (FrameKind::Data, Phase::TxData) if frame.dst == NodeId::BROADCAST => {
                let job = self.job_mut().take().expect("job");
                self.done(cx, &job, true);
            }
            (FrameKind::AddbaRequest | FrameKind::AddbaResponse, Phase::TxData) => {
                self.phase = Phase::WaitAck;
                let at = cx.now + self.response_timeout(t.ack_after_ns(frame.rate));
                let generation = self.timeout_timer.arm(at);
                cx.timers.arm(at, self.node, MacTimer::Timeout, generation);
            }
            (FrameKind::Data, Phase::TxData) | (FrameKind::BlockAckReq, Phase::TxData)
                if frame.mpdus > 1 || frame.kind == FrameKind::BlockAckReq =>
            {
                self.phase = Phase::WaitBa;
                let at = cx.now + self.response_timeout(t.block_ack_after_ns(frame.rate));
                let generation = self.timeout_timer.arm(at);
                cx.timers.arm(at, self.node, MacTimer::Timeout, generation);
            }
            (FrameKind::Data, Phase::TxData) => {
                self.phase = Phase::WaitAck;
                let at = cx.now + self.response_timeout(t.ack_after_ns(frame.rate));
                let generation = self.timeout_timer.arm(at);
                cx.timers.arm(at, self.node, MacTimer::Timeout, generation);
            }
            _ => {} // CTS and ACK need nothing after them.
        }
    }

    /// End of an exchange (success or drop): reset CW, post-backoff (9.2.5.2).
    /// The packet of `job` is finished (acknowledged or broadcast, or dropped): tell the
    /// layer above, then contend again after a post-backoff.
    fn done(&mut self, cx: &mut MacCtx, job: &Job, acked: bool) {
        let service_ns = cx.now - job.offered_ns;
        let (packet, next_hop) = (job.packet, job.dst);
        self.count_amsdu(job.msdus);
        if !acked {
            self.txop.end(); // a failure ends the TXOP (10.22.2.2)
        }
        cx.out.push(Tagged {
            output: MacOutput::Done { packet, next_hop, acked, service_ns },
            node: self.node,
        });
        self.finish(cx);
    }

    fn finish(&mut self, cx: &mut MacCtx) {
        self.phase = Phase::Idle;
        self.efs[self.cur].reset_cw();
        self.draw_backoff(cx);
        self.txop_on_finish(cx.now);
    }

    /// Medium busy over [start, end) (a signal above the carrier-sense threshold).
    #[inline]
    pub fn on_medium_busy(&mut self, start: SimTime, end: SimTime) {
        self.medium_busy(start, end);
    }
}

mod rx;

mod respond;

mod agg;
pub use agg::{AggConfig, AggCounters};

mod amsdu;

mod timeout;

mod nav_reset;

mod ns2;

mod access_timer;
pub use access_timer::AccessCheck;

mod edcaf;
use edcaf::{Edcaf, Txop};

mod job;
use job::Job;
pub use job::MacCounters;

#[cfg(test)]
mod bench;
#[cfg(test)]
mod edca_tests;
#[cfg(test)]
mod ns2_tests;
#[cfg(test)]
mod relay_tests;
#[cfg(test)]
mod tests;

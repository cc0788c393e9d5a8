//! TCP sender, segment-based like ns-2's one-way agents (fixed MSS, sequence numbers counted
//! in segments; the wire carries byte numbers). Slow start and congestion avoidance come from
//! the congestion-control algorithm; fast retransmit and loss recovery follow the variant:
//! Reno (RFC 5681 3.2), NewReno (RFC 6582 partial ACKs) or SACK (RFC 6675 scoreboard and
//! pipe). Timeouts per RFC 6298 with go-back-N resending as ns-2 does.

use super::cc::{AckSample, CongestionControl, Loss};
use super::limits::{LimitPolicy, PathInfo};
use super::rto::RtoEstimator;
use super::stats::{LogHistogram, TimeWeighted, WindowHistogram};
use super::window::Window;

use super::TcpTimer;
use crate::sched::{Firing, Timer, TimerSink};
use crate::time::SimTime;
use std::collections::VecDeque;

/// How fast retransmit / fast recovery proceeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovery {
    /// RFC 5681 3.2: the first new ACK ends recovery (also ns-2's Vegas).
    Reno,
    /// RFC 6582: partial ACKs retransmit the next hole; recovery ends at `recover`.
    NewReno,
    /// RFC 6675: scoreboard, pipe and NextSeg.
    Sack,
}

/// What the sender needs to know, fixed for the connection.
#[derive(Debug, Clone)]
pub struct SenderConfig {
    pub flow: u32,
    pub recovery: Recovery,
    pub initial_window: f64,
    /// Congestion window limit policy (fixed, hop-based, delay-based, ...).
    pub limit_policy: LimitPolicy,
    pub receiver_window: u32,
    pub dupack_threshold: u32,
    /// Segments the application has to send (None: unlimited bulk data).
    pub total_segments: Option<u32>,
    /// No new data after this time (retransmissions continue).
    pub stop_ns: SimTime,
    /// Release segments evenly, one every SRTT / cwnd (TCP pacing).
    pub pacing: bool,
    /// ns-2's limited transmit (`singledup_`, on by default for its Reno, NewReno and Sack1
    /// agents): the first and second duplicate ACKs each release one new segment.
    pub limited_transmit: bool,
    /// ns-2's Vegas agent (tcp-vegas.cc `recv`): fast retransmits are barred only below the
    /// recovery point of a timeout, a duplicate finding the next segment expired resends it
    /// during recovery too, and each such retransmission backs the coarse timer off.
    pub ns2_vegas: bool,
    /// Measurement window for the time averages.
    pub window_ns: (SimTime, SimTime),
}

#[derive(Debug, Clone, Copy, Default)]
struct SegState {
    sent_ns: SimTime,
    retransmitted: bool,
    sacked: bool,
    /// Retransmitted during the current SACK recovery (RFC 6675 HighRxt bookkeeping).
    rexmit_in_recovery: bool,
}

/// A segment to put on the network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SendSegment {
    pub seg: u32,
    pub retransmission: bool,
}

pub struct TcpCtx<'a> {
    pub now: SimTime,
    pub timers: &'a mut dyn TimerSink<TcpTimer>,
    pub out: &'a mut Vec<SendSegment>,
}

/// Counters and averages of the sender (names as in the result document).
#[derive(Debug, Clone, Default)]
pub struct SenderStats {
    pub segments_sent: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
    pub acked_in_window: u64,
    pub rtt_ms: LogHistogram,
}

pub struct TcpSender {
    cfg: SenderConfig,
    cc: Box<dyn CongestionControl>,
    w: Window,
    snd_una: u32,
    snd_nxt: u32,
    snd_max: u32,
    segs: VecDeque<SegState>,
    dupacks: u32,
    in_recovery: bool,
    /// RFC 6582 "recover": snd_max when recovery (or the last timeout) began.
    recover: u32,
    /// snd_max at the last timeout (ns-2 Vegas' only fast-retransmit guard).
    recover_timeout: u32,
    /// Vegas: new ACKs after a fast retransmit on which the next segment is checked against
    /// the fine-grained timeout (ns-2 v_worried_).
    worried: u32,
    partial_acks: u32,
    rto: RtoEstimator,
    timer: Timer,
    pub stats: SenderStats,
    cwnd_avg: TimeWeighted,
    slow_start_time: TimeWeighted,
    /// The CWL in force (None: none), from the policy and what the ACKs tell of the path.
    limit: Option<f64>,
    limit_avg: TimeWeighted,
    /// Pacing: when the last segment left (None: nothing sent yet), and the timer.
    last_release_ns: Option<SimTime>,
    pace_timer: Timer,
    window_time: WindowHistogram,
}

impl TcpSender {
    pub fn new(cfg: SenderConfig, cc: Box<dyn CongestionControl>, rto: RtoEstimator) -> TcpSender {
        let cap = cfg.receiver_window as usize + 1;
        let ssthresh = cc.initial_ssthresh().unwrap_or(f64::INFINITY);
        let w = Window::new(cfg.initial_window, ssthresh);
        let window_ns = cfg.window_ns;
        let mut s = TcpSender {
            cfg,
            cc,
            w,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            segs: VecDeque::with_capacity(cap),
            dupacks: 0,
            in_recovery: false,
            recover: 0,
            recover_timeout: 0,
            worried: 0,
            partial_acks: 0,
            rto,
            timer: Timer::default(),
            stats: SenderStats::default(),
            cwnd_avg: TimeWeighted::new(0.0, window_ns),
            slow_start_time: TimeWeighted::new(1.0, window_ns),
            limit: None,
            limit_avg: TimeWeighted::new(0.0, window_ns),
            last_release_ns: None,
            pace_timer: Timer::default(),
            window_time: WindowHistogram::new(window_ns),
        };
        s.limit = s.cfg.limit_policy.limit(None);
        let cap = s.cwnd_cap();
        s.w.cap(cap);
        s.cwnd_avg = TimeWeighted::new(s.w.cwnd(), window_ns);
        s.limit_avg = TimeWeighted::new(s.cwnd_cap(), window_ns);
        s
    }

    /// The largest usable window: the CWL and the receiver's window (cwnd is not grown beyond
    /// what can be used, as ns-2's maxcwnd_ and RFC 7661 do).
    fn cwnd_cap(&self) -> f64 {
        let rwnd = self.cfg.receiver_window as f64;
        self.limit.map_or(rwnd, |m| m.min(rwnd))
    }

    /// Segments allowed in flight: floor(min(cwnd, CWL, rwnd)), at least one.
    fn send_window(&self) -> u32 {
        let limit = self.w.cwnd().min(self.cwnd_cap());
        (limit.floor() as u32).max(1)
    }

    fn has_data(&self, seg: u32, now: SimTime) -> bool {
        if seg < self.snd_max {
            return true; // retransmission
        }
        now < self.cfg.stop_ns && self.cfg.total_segments.is_none_or(|n| seg < n)
    }

    pub fn cwnd(&self) -> f64 {
        self.w.cwnd()
    }

    pub fn ssthresh(&self) -> f64 {
        self.w.ssthresh()
    }

    /// Segments acknowledged cumulatively.
    pub fn acked(&self) -> u32 {
        self.snd_una
    }

    pub fn highest_sent(&self) -> u32 {
        self.snd_max
    }

    pub fn avg_cwnd(&self, now: SimTime) -> Option<f64> {
        self.cwnd_avg.mean(now)
    }

    pub fn slow_start_fraction(&self, now: SimTime) -> Option<f64> {
        self.slow_start_time.mean(now)
    }

    /// Time-weighted average of the window limit in force (CWL and receiver window).
    pub fn avg_limit(&self, now: SimTime) -> Option<f64> {
        self.limit_avg.mean(now)
    }

    /// Share of the measurement window spent at each integer window (index = segments
    /// allowed in flight; index 0 = a fractional window below one segment).
    pub fn window_distribution(&self, now: SimTime) -> Vec<f64> {
        self.window_time.shares(now)
    }

    fn window_changed(&mut self, now: SimTime) {
        let cap = self.cwnd_cap();
        self.w.cap(cap);
        self.cwnd_avg.set(now, self.w.cwnd());
        self.slow_start_time.set(now, if self.w.in_slow_start() { 1.0 } else { 0.0 });
        self.limit_avg.set(now, self.cwnd_cap());
        self.window_time.set(now, self.w.cwnd().min(self.cwnd_cap()).floor() as usize);
    }

    /// Start sending (the application has data from now on).
    pub fn start(&mut self, cx: &mut TcpCtx) {
        self.window_changed(cx.now);
        self.try_send(cx);
    }

    fn seg_state(&mut self, seg: u32) -> &mut SegState {
        &mut self.segs[(seg - self.snd_una) as usize]
    }

    fn transmit(&mut self, cx: &mut TcpCtx, seg: u32) {
        let retransmission = seg < self.snd_max;
        if retransmission {
            let st = self.seg_state(seg);
            st.retransmitted = true;
            st.sent_ns = cx.now;
            self.stats.retransmissions += 1;
        } else {
            debug_assert_eq!(seg, self.snd_max);
            self.segs.push_back(SegState { sent_ns: cx.now, ..SegState::default() });
            self.snd_max += 1;
        }
        self.stats.segments_sent += 1;
        cx.out.push(SendSegment { seg, retransmission });
        if !self.timer.is_armed() {
            self.arm_rto(cx); // RFC 6298 (5.1)
        }
    }

    fn arm_rto(&mut self, cx: &mut TcpCtx) {
        let at = cx.now + self.rto.rto_ns();
        match self.timer.deadline() {
            // Restarted later than the queued event: that event re-queues itself when it fires.
            Some(d) if at >= d => self.timer.postpone(at),
            _ => {
                let generation = self.timer.arm(at);
                let flow = self.cfg.flow;
                cx.timers.arm(at, flow, TcpTimer::Rto, generation);
            }
        }
    }

    /// Send what the window allows (go-back-N from snd_nxt; SACK recovery uses the pipe).
    fn try_send(&mut self, cx: &mut TcpCtx) {
        if self.in_recovery && self.cfg.recovery == Recovery::Sack {
            self.sack_send(cx);
            return;
        }
        let window = self.send_window();
        while self.snd_nxt - self.snd_una < window && self.has_data(self.snd_nxt, cx.now) {
            if !self.may_release(cx) {
                break;
            }
            let seg = self.snd_nxt;
            self.snd_nxt += 1;
            self.transmit(cx, seg);
        }
    }

    /// The gap between paced segments: SRTT / cwnd. Pacing applies when configured, and
    /// always while the window is below one segment (a fractional window is a rate: one
    /// segment per RTT / cwnd). None before the first RTT sample.
    fn release_interval_ns(&self) -> Option<SimTime> {
        let window = self.w.cwnd().min(self.cwnd_cap());
        if !(self.cfg.pacing || window < 1.0) {
            return None;
        }
        let srtt = self.rto.srtt_ns()?;
        Some((srtt / window.max(1e-3)) as SimTime)
    }

    /// May a segment leave now? If not, the pacing timer is set for when it may.
    fn may_release(&mut self, cx: &mut TcpCtx) -> bool {
        let gap = self.release_interval_ns();
        if let (Some(gap), Some(last)) = (gap, self.last_release_ns) {
            let at = last + gap;
            if cx.now < at {
                if !self.pace_timer.is_armed() {
                    let generation = self.pace_timer.arm(at);
                    cx.timers.arm(at, self.cfg.flow, TcpTimer::Pace, generation);
                }
                return false;
            }
        }
        self.last_release_ns = Some(cx.now);
        true
    }

    /// The pacing timer fired: release what the window allows.
    pub fn on_pace_timer(&mut self, cx: &mut TcpCtx, generation: u32) {
        if self.pace_timer.fire(generation) {
            self.try_send(cx);
        }
    }

    /// An acknowledgment arrived: cumulative `ack` (next expected segment) and SACK blocks.
    /// `path` carries what this ACK tells of the path, for path-based window limits.
    pub fn on_ack(
        &mut self,
        cx: &mut TcpCtx,
        ack: u32,
        sack: &[(u32, u32)],
        path: Option<&PathInfo>,
    ) {
        if ack > self.snd_max {
            return; // acknowledges data never sent: ignore (RFC 793)
        }
        if let Some(limit) = self.cfg.limit_policy.limit(path) {
            // Follows the path: a route change shows in the next ACK's hop counts and delays.
            self.limit = Some(limit);
        }
        for &(a, b) in sack {
            for seg in a.max(self.snd_una)..b.min(self.snd_max) {
                self.seg_state(seg).sacked = true;
            }
        }
        if ack > self.snd_una {
            self.new_ack(cx, ack);
        } else if ack == self.snd_una && self.snd_una < self.snd_max {
            self.dup_ack(cx);
        }
        self.window_changed(cx.now);
        self.try_send(cx);
    }

    fn new_ack(&mut self, cx: &mut TcpCtx, ack: u32) {
        let newly = ack - self.snd_una;
        // Karn's rule, applied to the whole acknowledged range (as Linux does): an ACK that
        // covers any retransmitted segment gives no sample, since it may close a repaired hole
        // and would time a segment that waited at the receiver during the repair.
        let acked = self.segs.range(..newly as usize);
        let clean = acked.clone().all(|s| !s.retransmitted);
        let last = self.segs[(ack - 1 - self.snd_una) as usize];
        let rtt = clean.then(|| cx.now - last.sent_ns);
        if let Some(r) = rtt {
            self.rto.sample(r);
            self.stats.rtt_ms.record(r as f64 / 1e6);
        }
        if cx.now >= self.cfg.window_ns.0 && cx.now < self.cfg.window_ns.1 {
            self.stats.acked_in_window += newly as u64;
        }
        self.segs.drain(..newly as usize);
        self.snd_una = ack;
        self.snd_nxt = self.snd_nxt.max(ack);
        let dupacks = std::mem::take(&mut self.dupacks);
        if self.in_recovery {
            self.recovery_ack(cx, ack, newly, dupacks);
        } else {
            let sample = AckSample {
                now: cx.now,
                acked: newly,
                rtt_ns: rtt,
                snd_max: self.snd_max,
                snd_una: self.snd_una,
            };
            self.cc.on_new_ack(&mut self.w, &sample);
        }
        self.check_worried(cx);
        // RFC 6298 (5.2, 5.3): restart the timer while data is outstanding.
        if self.snd_una < self.snd_max {
            if !(self.in_recovery
                && self.cfg.recovery == Recovery::NewReno
                && self.partial_acks > 1)
            {
                self.arm_rto(cx);
            }
        } else {
            self.timer.cancel();
        }
    }

    /// Has `seg` been outstanding longer than the congestion control's fine-grained timeout?
    fn expired(&self, seg: u32, now: SimTime) -> bool {
        let sent = self.segs[(seg - self.snd_una) as usize].sent_ns;
        self.cc.fine_grained_timeout_ns().is_some_and(|t| now.saturating_sub(sent) >= t)
    }

    fn loss(&self, now: SimTime) -> Loss {
        let una = self.segs.front().copied().unwrap_or_default();
        Loss {
            now,
            flight: (self.snd_max - self.snd_una) as f64,
            usable: self.send_window() as f64,
            dupack_threshold: self.cfg.dupack_threshold,
            sent_ns: una.sent_ns,
            retransmitted: una.retransmitted,
        }
    }

    fn retransmit_una(&mut self, cx: &mut TcpCtx) {
        let seg = self.snd_una;
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
        if self.snd_una == self.snd_max {
            return;
        }
        self.stats.timeouts += 1;
        let loss = self.loss(cx.now);
        self.cc.on_timeout(&mut self.w, &loss);
        self.in_recovery = false;
        self.worried = 0;
        self.dupacks = 0;
        self.recover = self.snd_max;
        self.recover_timeout = self.snd_max;
        for s in self.segs.iter_mut() {
            s.sacked = false; // SACK information may be reneged: start afresh
            s.rexmit_in_recovery = false;
        }
        self.rto.on_timeout();
        self.snd_nxt = self.snd_una; // go back N, as ns-2 does
        self.window_changed(cx.now);
        self.try_send(cx);
        if !self.timer.is_armed() {
            self.arm_rto(cx);
        }
    }
}

#[path = "sender_recovery.rs"]
mod recovery;

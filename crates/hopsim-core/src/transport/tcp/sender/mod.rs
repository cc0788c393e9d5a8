//! TCP sender, segment-based like ns-2's one-way agents (fixed MSS, sequence numbers counted
//! in segments; the wire carries byte numbers). This file is the ACK clock: what may be sent,
//! new ACKs, the retransmission timer. Around it: the window (`window.rs`, the one place cwnd
//! changes), congestion control (`cc/`), duplicate ACKs and timeouts (`sender/loss.rs`), the
//! kinds of loss recovery (`recovery.rs`: RFC 5681 Reno, RFC 6582 NewReno, RFC 6675 SACK),
//! the retransmission queue and SACK scoreboard (`scoreboard.rs`), pacing (`pacing.rs`) and
//! statistics (`stats.rs`). Timeouts per RFC 6298 with go-back-N resending as ns-2 does.

use super::cc::{AckSample, CongestionControl};
use super::limits::{LimitPolicy, PathInfo};
use super::pacing::Pacer;
use super::rate_sample::RateSampler;
use super::recovery::Recovery;
use super::rto::RtoEstimator;
use super::scoreboard::Scoreboard;
use super::stats::WindowStats;
use super::timestamps::{ts_clock, ts_elapsed_ns, TsRecent};
use super::window::Window;
use super::TcpTimer;
use crate::engine::sched::Timer;
use crate::engine::time::SimTime;
use crate::ids::{FlowId, SeqNo};

pub use super::stats::SenderStats;

/// What the sender needs to know, fixed for the connection.
#[derive(Debug, Clone)]
pub struct SenderConfig {
    pub flow: FlowId,
    pub recovery: Recovery,
    pub initial_window: f64,
    /// Congestion window limit policy (fixed, hop-based, delay-based, ...).
    pub limit_policy: LimitPolicy,
    /// The largest window the receiver may advertise (ns-2 `window_`, fixed; the socket
    /// buffer's bound under autotuning).
    pub receiver_window: u32,
    /// The window the receiver advertises before its first ACK (under autotuning, its
    /// initial window; else `receiver_window`).
    pub initial_receiver_window: u32,
    /// RFC 7323: RTT samples from the echoed timestamps (`timestamps.rs`).
    pub timestamps: bool,
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
    /// Which duplicate ACKs may start a fast retransmit after a recovery or a timeout.
    pub guard: RetransmitGuard,
    /// ns-2's `syn_` with `delay_growth_` (`syn.rs`): a window of one until segment 0 is
    /// acknowledged, `initial_window` from then on.
    pub delay_growth: bool,
    /// Segment 0 is ns-2's SYN, without data (tcp.cc `output`; not the Vegas agent's).
    pub syn: bool,
    /// Measurement window for the time averages.
    pub window_ns: (SimTime, SimTime),
}

/// The guard against a second fast retransmit for data sent before the last recovery or
/// timeout (RFC 6582 section 4; ns-2's `bug_fix_`). `recover` is snd_max when that recovery
/// or timeout began.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetransmitGuard {
    /// RFC 6582 section 4: the duplicates must acknowledge `recover`, i.e. snd_una >= recover.
    Rfc6582,
    /// ns-2's Reno and NewReno agents (tcp-reno.cc, tcp-newreno.cc `dupack_action`, "careful"
    /// with `lessCareful_` false): `highest_ack_ > recover_`, the highest segment sent back
    /// then acknowledged and one more (snd_una > recover); or `highest_ack_ == 0`
    /// (`bugfix_ss_`: only the SYN acknowledged, the first data segment missing, `syn.rs`;
    /// without a SYN, no segment acknowledged). Reno's `allow_fast_retransmit` (the
    /// last action a fast retransmit) never applies: its first new ACK ends that state and
    /// resets the duplicate count.
    Ns2,
    /// ns-2's Sack1 agent (tcp-sack1.cc `dupack_action`, `recv`): as `Ns2`, but the end of a
    /// fast recovery clears `recover_`, so only a timeout's recovery point bars.
    Ns2Sack1,
}

/// What an ACK carries beyond the cumulative ACK and SACK blocks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AckOptions {
    /// The window advertised, in segments (None: unchanged).
    pub window: Option<u32>,
    /// RFC 7323 (TSval, TSecr) of the ACK.
    pub ts: Option<(u32, u32)>,
    /// RFC 3168 ECN-Echo (`ecn.rs`).
    pub ece: bool,
}

/// A segment to put on the network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SendSegment {
    pub seg: SeqNo,
    pub retransmission: bool,
}

pub use super::TcpCtx;

#[derive(Clone)]
pub struct TcpSender {
    cfg: SenderConfig,
    cc: Box<dyn CongestionControl>,
    w: Window,
    /// Outstanding segments snd_una..snd_max with their SACK state.
    board: Scoreboard,
    /// Next segment to send (go-back-N rewinds it to snd_una).
    snd_nxt: SeqNo,
    dupacks: u32,
    in_recovery: bool,
    recovery: Recovery,
    /// RFC 6582 "recover": snd_max when recovery (or the last timeout) began.
    recover: SeqNo,
    /// snd_max at the last timeout (ns-2 Vegas' only fast-retransmit guard).
    recover_timeout: SeqNo,
    /// The last window action was a timeout, not a fast retransmit (ns-2 `last_cwnd_action_`
    /// == CWND_ACTION_TIMEOUT): ns-2's Vegas guard applies only then.
    timeout_last: bool,
    /// Vegas: new ACKs after a fast retransmit on which the next segment is checked against
    /// the fine-grained timeout (ns-2 v_worried_).
    worried: u32,
    rto: RtoEstimator,
    timer: Timer,
    pub stats: SenderStats,
    window_stats: WindowStats,
    /// The CWL in force (None: none), from the policy and what the ACKs tell of the path.
    limit: Option<f64>,
    pacer: Pacer,
    /// The receiver's advertised window (segments).
    peer_window: u32,
    /// RFC 7323 TS.Recent: the receiver's newest TSval, echoed on data.
    ts_recent: TsRecent,
    /// ECN (RFC 3168), `ecn.rs`.
    ecn: ecn::EcnSender,
    /// Delivery-rate estimation, for congestion control that asks for it (BBR).
    rate: Option<RateSampler>,
}

impl TcpSender {
    pub fn new(cfg: SenderConfig, cc: Box<dyn CongestionControl>, rto: RtoEstimator) -> TcpSender {
        let board = Scoreboard::new(cfg.receiver_window as usize + 1, cfg.dupack_threshold);
        let ssthresh = cc.initial_ssthresh().unwrap_or(f64::INFINITY);
        let mut w = Window::new(Self::opening_window(&cfg), ssthresh);
        let limit = cfg.limit_policy.limit(None);
        let peer_window = cfg.initial_receiver_window.min(cfg.receiver_window);
        let cap = Self::cap_of(limit, peer_window);
        let rate = cc.wants_rate_samples().then(RateSampler::default);
        w.cap(cap);
        TcpSender {
            recovery: cfg.recovery,
            pacer: Pacer::new(cfg.pacing),
            window_stats: WindowStats::new(&w, cap, cfg.window_ns),
            cfg,
            cc,
            w,
            board,
            snd_nxt: SeqNo::ZERO,
            dupacks: 0,
            in_recovery: false,
            recover: SeqNo::ZERO,
            recover_timeout: SeqNo::ZERO,
            timeout_last: false,
            worried: 0,
            rto,
            timer: Timer::default(),
            stats: SenderStats::default(),
            limit,
            peer_window,
            ts_recent: TsRecent::default(),
            ecn: ecn::EcnSender::default(),
            rate,
        }
    }

    fn cap_of(limit: Option<f64>, receiver_window: u32) -> f64 {
        let rwnd = receiver_window as f64;
        limit.map_or(rwnd, |m| m.min(rwnd))
    }

    /// The largest usable window: the CWL and the receiver's window.
    fn cwnd_cap(&self) -> f64 {
        Self::cap_of(self.limit, self.peer_window)
    }

    /// RFC 7323 (TSval, TSecr) for a segment leaving now (None: timestamps off).
    pub fn ts_option(&self, now: SimTime) -> Option<(u32, u32)> {
        self.cfg.timestamps.then(|| (ts_clock(now), self.ts_recent.echo()))
    }

    /// Segments allowed in flight: floor(min(cwnd, CWL, rwnd)), at least one (ns-2's Vegas:
    /// none below a window of one, `window()`; `ns2_vegas.rs`).
    fn send_window(&self) -> u32 {
        let limit = self.w.cwnd().min(self.cwnd_cap());
        (limit.floor() as u32).max(u32::from(!self.cfg.ns2_vegas))
    }

    fn has_data(&self, seg: SeqNo, now: SimTime) -> bool {
        if seg < self.board.max() {
            return true; // retransmission
        }
        now < self.cfg.stop_ns && self.cfg.total_segments.is_none_or(|n| seg < SeqNo::ZERO + n)
    }

    pub fn cwnd(&self) -> f64 {
        self.w.cwnd()
    }

    /// Tests: the congestion control's fine-grained timeout (Vegas).
    #[cfg(test)]
    pub fn fine_grained_timeout_ns(&self) -> Option<crate::engine::time::SimDuration> {
        self.cc.fine_grained_timeout_ns()
    }

    pub fn ssthresh(&self) -> f64 {
        self.w.ssthresh()
    }

    /// The retransmission timer's estimates (SRTT, RTO).
    pub fn rto(&self) -> &RtoEstimator {
        &self.rto
    }

    /// snd_una: the first segment not acknowledged cumulatively.
    pub fn snd_una(&self) -> SeqNo {
        self.board.una()
    }

    /// snd_max: the next segment never sent.
    pub fn highest_sent(&self) -> SeqNo {
        self.board.max()
    }

    pub fn avg_cwnd(&self, now: SimTime) -> Option<f64> {
        self.window_stats.avg_cwnd(now)
    }

    pub fn slow_start_fraction(&self, now: SimTime) -> Option<f64> {
        self.window_stats.slow_start_fraction(now)
    }

    /// Time-weighted average of the window limit in force (CWL and receiver window).
    pub fn avg_limit(&self, now: SimTime) -> Option<f64> {
        self.window_stats.avg_limit(now)
    }

    /// Share of the measurement window spent at each integer window (index = segments
    /// allowed in flight; index 0 = a fractional window below one segment).
    pub fn window_distribution(&self, now: SimTime) -> Vec<f64> {
        self.window_stats.window_distribution(now)
    }

    /// After any change: cap the window at what can be used, and record it.
    fn window_changed(&mut self, now: SimTime) {
        let cap = self.cwnd_cap();
        self.w.cap(cap);
        self.window_stats.record(now, &self.w, cap);
    }

    /// Start sending (the application has data from now on).
    pub fn start(&mut self, cx: &mut TcpCtx) {
        self.window_changed(cx.now);
        self.try_send(cx);
    }

    fn transmit(&mut self, cx: &mut TcpCtx, seg: SeqNo) {
        let idle = self.board.una() == self.board.max();
        let retransmission = self.board.record_send(seg, cx.now);
        self.rate_on_send(seg, idle, cx.now);
        if retransmission {
            self.stats.retransmissions += 1;
        } else {
            self.rto.on_send_new(seg, cx.now);
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

    /// Send what the window allows: go-back-N from snd_nxt, or during SACK recovery by the
    /// pipe (RFC 6675 section 5 step C).
    fn try_send(&mut self, cx: &mut TcpCtx) {
        if self.in_recovery && self.recovery.uses_scoreboard() {
            self.sack_send(cx);
            return;
        }
        let window = self.send_window();
        while self.snd_nxt - self.board.una() < window && self.has_data(self.snd_nxt, cx.now) {
            if !self.may_release(cx) {
                break;
            }
            let seg = self.snd_nxt;
            self.snd_nxt += 1;
            self.transmit(cx, seg);
        }
        self.check_app_limited(cx.now);
    }

    /// RFC 6675 section 5 step (C): send while cwnd - pipe >= 1 segment, choosing by NextSeg.
    fn sack_send(&mut self, cx: &mut TcpCtx) {
        let limit = self.send_window();
        let paced = self.cc.pacing_gap_ns().is_some();
        while self.board.pipe() < limit {
            if paced && !self.may_release(cx) {
                break; // a rate-based pacer paces retransmissions too
            }
            // NextSeg rule 1: the first lost segment not yet retransmitted in this recovery.
            if let Some(seg) = self.board.next_lost() {
                self.board.mark_rexmit(seg);
                self.transmit(cx, seg);
                continue;
            }
            // Rule 2: new data, if the receiver's window allows.
            let seg = self.board.max();
            if seg - self.board.una() < self.peer_window && self.has_data(seg, cx.now) {
                self.snd_nxt = seg + 1;
                self.transmit(cx, seg);
                continue;
            }
            break;
        }
    }

    /// May a segment leave now (pacing, `pacing.rs`)?
    fn may_release(&mut self, cx: &mut TcpCtx) -> bool {
        if let Some(gap_ns) = self.cc.pacing_gap_ns() {
            return self.pacer.release_after(cx.now, Some(gap_ns), cx.timers, self.cfg.flow);
        }
        let window = self.w.cwnd().min(self.cwnd_cap());
        let srtt = self.rto.srtt_ns();
        self.pacer.may_release(cx.now, window, srtt, cx.timers, self.cfg.flow)
    }

    /// The pacing timer fired: release what the window allows.
    pub fn on_pace_timer(&mut self, cx: &mut TcpCtx, generation: u32) {
        if self.pacer.fire(generation) {
            self.try_send(cx);
        }
    }

    /// An acknowledgment arrived: cumulative `ack` (next expected segment) and SACK blocks.
    /// `path` carries what this ACK tells of the path, for path-based window limits.
    pub fn on_ack(
        &mut self,
        cx: &mut TcpCtx,
        ack: SeqNo,
        sack: &[(SeqNo, SeqNo)],
        path: Option<&PathInfo>,
    ) {
        self.on_ack_with(cx, ack, sack, path, AckOptions::default());
    }

    /// As [`Self::on_ack`], with the ACK's window and timestamps.
    pub fn on_ack_with(
        &mut self,
        cx: &mut TcpCtx,
        ack: SeqNo,
        sack: &[(SeqNo, SeqNo)],
        path: Option<&PathInfo>,
        opts: AckOptions,
    ) {
        if ack > self.board.max() {
            return; // acknowledges data never sent: ignore (RFC 793)
        }
        if let Some(w) = opts.window {
            self.peer_window = w.clamp(1, self.cfg.receiver_window);
        }
        if let Some((ts_val, _)) = opts.ts {
            self.ts_recent.on_ack(ts_val);
        }
        self.note_ece(opts.ece);
        if let Some(limit) = self.cfg.limit_policy.limit(path) {
            // Follows the path: a route change shows in the next ACK's hop counts and delays.
            self.limit = Some(limit);
        }
        let prior_in_flight = self.rate_begin();
        self.mark_sacked(sack, cx.now);
        if ack > self.board.una() {
            // RFC 7323 4.1 (RTTM): every ACK of new data with a valid echo is a sample.
            let ts_rtt = match opts.ts {
                Some((_, ecr)) if self.cfg.timestamps && ecr != 0 => {
                    Some(ts_elapsed_ns(cx.now, ecr).max(1))
                }
                _ => None,
            };
            self.new_ack(cx, ack, ts_rtt);
        } else if ack == self.board.una() && ack < self.board.max() {
            self.dup_ack(cx);
        }
        self.ecn_on_ack(cx.now, ack);
        self.rate_ack(cx.now, prior_in_flight);
        self.window_changed(cx.now);
        self.try_send(cx);
    }

    /// `ts_rtt`: the sample of the echoed timestamp, which replaces Karn's rule.
    fn new_ack(&mut self, cx: &mut TcpCtx, ack: SeqNo, ts_rtt: Option<SimTime>) {
        if self.cfg.ns2_vegas {
            self.syn_growth(self.board.una()); // tcp-vegas.cc: before the ACK is taken in
        }
        let newly = ack - self.board.una();
        let vegas_rtt = self.ns2_vegas_sample(ack, cx.now);
        let seq_rtt = self.ack_segments(ack, cx.now).map(|sent_ns| cx.now - sent_ns); // Karn
        let rtt = if self.cfg.timestamps { ts_rtt } else { seq_rtt };
        if let Some(r) = rtt {
            if !self.rto.times_itself() {
                self.rto.sample(r);
            }
            self.stats.rtt_ms.record(r as f64 / 1e6);
        }
        self.rto.on_ack(ack, cx.now);
        // ns-2's Vegas times the segment the ACK names, whatever came before it.
        let cc_rtt = if self.cfg.ns2_vegas { vegas_rtt } else { rtt };
        if cx.now >= self.cfg.window_ns.0 && cx.now < self.cfg.window_ns.1 {
            self.stats.acked_in_window += newly as u64;
        }
        self.snd_nxt = self.snd_nxt.max(ack);
        let dupacks = std::mem::take(&mut self.dupacks);
        let was_in_recovery = self.in_recovery;
        if self.cfg.ns2_vegas {
            // tcp-vegas.cc `recv`: every new ACK ends the recovery; the window is deflated
            // after more than `numdupacks_` duplicates, in a recovery or not.
            self.in_recovery = false;
            self.cc.exit_recovery(&mut self.w, dupacks);
        } else if was_in_recovery {
            self.recovery_ack(cx, ack, newly, dupacks);
        }
        // ns-2's Vegas (tcp-vegas.cc `recv`) runs its per-ACK block on every new ACK, the
        // one that ends recovery included (after the deflation).
        if !was_in_recovery || (self.cfg.ns2_vegas && !self.in_recovery) {
            let sample = AckSample {
                now: cx.now,
                acked: newly,
                rtt_ns: cc_rtt,
                // ns-2's Vegas counts from t_seqno_, which a timeout rewinds (tcp-vegas.cc).
                snd_max: if self.cfg.ns2_vegas { self.snd_nxt } else { self.board.max() },
                snd_una: ack,
            };
            self.cc.on_new_ack(&mut self.w, &sample);
        }
        if !self.cfg.ns2_vegas {
            self.syn_growth(ack); // tcp-reno.cc, tcp-newreno.cc, tcp-sack1.cc: after
        }
        self.check_worried(cx);
        // RFC 6298 (5.2, 5.3): restart the timer while data is outstanding (ns-2's Vegas:
        // on every new ACK, tcp.cc `newtimer`).
        if ack < self.board.max() || self.cfg.ns2_vegas {
            if !self.in_recovery || self.recovery.restarts_timer() {
                self.arm_rto(cx);
            }
        } else {
            self.timer.cancel();
        }
    }
}

mod loss;
mod ns2_vegas;
mod syn;

pub mod ecn;
mod rate;
mod steer;

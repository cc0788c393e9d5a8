//! BBR v1 (Cardwell, Cheng, Gunn, Hassas Yeganeh, Jacobson, "BBR: Congestion-Based
//! Congestion Control", ACM Queue 2016; draft-cardwell-iccrg-bbr-congestion-control-00;
//! Linux `tcp_bbr.c`), in segments. A model of the path, the bottleneck bandwidth BtlBw
//! (windowed maximum of the delivery-rate samples over 10 rounds, `bbr_filter.rs`) and the
//! round-trip propagation time RTprop (minimum RTT over 10 s), sets the pacing rate
//! (pacing_gain x BtlBw) and cwnd (cwnd_gain x BDP plus a quantization allowance). The state
//! machine STARTUP -> DRAIN -> PROBE_BW <-> PROBE_RTT varies the gains (section 4.3). Loss
//! recovery is SACK's; BBR sets cwnd on every ACK with packet conservation in the first
//! round of recovery and restores the cwnd of before recovery when it ends (4.2.3.4).

use super::bbr_filter::WindowedMax;
use super::{AckRate, AckSample, CaState, CongestionControl, Loss, Window};
use crate::engine::rng::Rng;
use crate::engine::time::{SimDuration, SimTime};

/// 2/ln 2: the smallest gain that doubles the delivery rate each round (section 4.3.1).
pub const HIGH_GAIN: f64 = 2.885_390_081_777_927; // 2 / ln 2
/// PROBE_BW's pacing gains per phase (4.3.3): probe, drain, then cruise for six phases.
pub const PACING_GAIN_CYCLE: [f64; 8] = [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
/// BtlBw filter window in rounds (4.1.1) and RTprop filter window (4.1.2).
pub const BTLBW_FILTER_ROUNDS: u64 = 10;
pub const RTPROP_FILTER_NS: SimDuration = 10_000_000_000;
/// PROBE_RTT lasts at least 200 ms (and one round) at a cwnd of 4 (4.3.4).
pub const PROBE_RTT_DURATION_NS: SimDuration = 200_000_000;
pub const MIN_PIPE_CWND: f64 = 4.0;
/// STARTUP ends after 3 rounds without 25% bandwidth growth (4.3.2.2).
pub const FULL_BW_THRESH: f64 = 1.25;
pub const FULL_BW_COUNT: u32 = 3;
/// Quantization allowance: 3 send quanta (4.2.3.2). A segment-based sender without TSO
/// releases one segment per pacing gap, so a send quantum is one segment.
pub const QUANTA_SEGMENTS: f64 = 3.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BbrState {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

#[derive(Debug, Clone)]
pub struct Bbr {
    state: BbrState,
    pacing_gain: f64,
    cwnd_gain: f64,
    /// BtlBw samples, segments per second, keyed by round.
    btl_bw: WindowedMax,
    rtprop_ns: Option<SimDuration>,
    rtprop_stamp_ns: SimTime,
    rtprop_expired: bool,
    /// Round counting (4.1.1.3): a round ends when a segment sent after its start is ACKed.
    next_round_delivered: u64,
    round_start: bool,
    round_count: u64,
    filled_pipe: bool,
    full_bw: f64,
    full_bw_count: u32,
    cycle_index: usize,
    cycle_stamp_ns: SimTime,
    probe_rtt_done_ns: Option<SimTime>,
    probe_rtt_round_done: bool,
    /// cwnd before recovery or PROBE_RTT, restored after (4.2.3.4, 4.3.4.4).
    prior_cwnd: f64,
    packet_conservation: bool,
    /// C.delivered when recovery began: conservation ends after that round.
    conservation_until: u64,
    prev_ca_state: CaState,
    pacing_rate_sps: f64,
    has_seen_rtt: bool,
    initial_cwnd: f64,
    rng: Rng,
}

impl Bbr {
    /// BBRInit (4.4): STARTUP, the pacing rate from the initial window over 1 ms until an RTT
    /// is known (Linux `bbr_init_pacing_rate_from_rtt`). `rng` draws PROBE_BW's first phase.
    pub fn new(initial_cwnd: f64, rng: Rng) -> Bbr {
        Bbr {
            state: BbrState::Startup,
            pacing_gain: HIGH_GAIN,
            cwnd_gain: HIGH_GAIN,
            btl_bw: WindowedMax::new(BTLBW_FILTER_ROUNDS),
            rtprop_ns: None,
            rtprop_stamp_ns: 0,
            rtprop_expired: false,
            next_round_delivered: 0,
            round_start: false,
            round_count: 0,
            filled_pipe: false,
            full_bw: 0.0,
            full_bw_count: 0,
            cycle_index: 0,
            cycle_stamp_ns: 0,
            probe_rtt_done_ns: None,
            probe_rtt_round_done: false,
            prior_cwnd: 0.0,
            packet_conservation: false,
            conservation_until: 0,
            prev_ca_state: CaState::Open,
            pacing_rate_sps: HIGH_GAIN * initial_cwnd / 1e-3,
            has_seen_rtt: false,
            initial_cwnd,
            rng,
        }
    }

    pub fn state(&self) -> BbrState {
        self.state
    }

    pub fn pacing_gain(&self) -> f64 {
        self.pacing_gain
    }

    pub fn cwnd_gain(&self) -> f64 {
        self.cwnd_gain
    }

    /// BtlBw, segments per second.
    pub fn btl_bw_sps(&self) -> f64 {
        self.btl_bw.get()
    }

    pub fn rtprop_ns(&self) -> Option<SimDuration> {
        self.rtprop_ns
    }

    pub fn pacing_rate_sps(&self) -> f64 {
        self.pacing_rate_sps
    }

    pub fn round_count(&self) -> u64 {
        self.round_count
    }

    pub fn filled_pipe(&self) -> bool {
        self.filled_pipe
    }

    /// BBRInflight(gain) (4.2.3.2): gain x BDP rounded up to whole segments, plus the
    /// quantization allowance; the initial window while RTprop is unknown.
    pub fn inflight(&self, gain: f64) -> f64 {
        match self.rtprop_ns {
            None => self.initial_cwnd,
            Some(rtprop) => {
                let bdp = self.btl_bw.get() * rtprop as f64 / 1e9;
                (gain * bdp).ceil() + QUANTA_SEGMENTS
            }
        }
    }

    // --- BBRUpdateModelAndState (4.4) ---

    /// BBRUpdateRound and BBRUpdateBtlBw (4.1.1.3, 4.1.1.5).
    fn update_btl_bw(&mut self, a: &AckRate) {
        self.round_start = false;
        let Some(prior) = a.rs.prior_delivered else { return };
        if prior >= self.next_round_delivered {
            self.next_round_delivered = a.delivered;
            self.round_count += 1;
            self.round_start = true;
        }
        if prior >= self.conservation_until {
            self.packet_conservation = false; // one round of recovery is over
        }
        if let Some(rate) = a.rs.delivery_rate_sps {
            // App-limited samples only raise the estimate (they underestimate the path).
            if rate >= self.btl_bw.get() || !a.rs.is_app_limited {
                self.btl_bw.update(self.round_count, rate);
            }
        }
    }

    /// BBRCheckCyclePhase, BBRIsNextCyclePhase (4.3.3.5).
    fn check_cycle_phase(&mut self, a: &AckRate) {
        if self.state != BbrState::ProbeBw {
            return;
        }
        let full_length =
            self.rtprop_ns.is_some_and(|r| a.now.saturating_sub(self.cycle_stamp_ns) > r);
        let prior = a.prior_in_flight as f64;
        let next = if self.pacing_gain == 1.0 {
            full_length
        } else if self.pacing_gain > 1.0 {
            // Probe until the extra data is in flight (or losses say the pipe is full).
            full_length && (a.newly_lost > 0 || prior >= self.inflight(self.pacing_gain))
        } else {
            // Drain until the queue the probe made is gone.
            full_length || prior <= self.inflight(1.0)
        };
        if next {
            self.advance_cycle_phase(a.now);
        }
    }

    fn advance_cycle_phase(&mut self, now: SimTime) {
        self.cycle_stamp_ns = now;
        self.cycle_index = (self.cycle_index + 1) % PACING_GAIN_CYCLE.len();
        self.pacing_gain = PACING_GAIN_CYCLE[self.cycle_index];
    }

    /// BBRCheckFullPipe (4.3.2.2): three rounds without 25% growth, not app-limited.
    fn check_full_pipe(&mut self, a: &AckRate) {
        if self.filled_pipe || !self.round_start || a.rs.is_app_limited {
            return;
        }
        if self.btl_bw.get() >= self.full_bw * FULL_BW_THRESH {
            self.full_bw = self.btl_bw.get();
            self.full_bw_count = 0;
            return;
        }
        self.full_bw_count += 1;
        if self.full_bw_count >= FULL_BW_COUNT {
            self.filled_pipe = true;
        }
    }

    /// BBRCheckDrain (4.3.2.3): DRAIN once the pipe is full, PROBE_BW once the queue is gone.
    fn check_drain(&mut self, w: &mut Window, a: &AckRate) {
        if self.state == BbrState::Startup && self.filled_pipe {
            self.state = BbrState::Drain;
            self.pacing_gain = 1.0 / HIGH_GAIN;
            self.cwnd_gain = HIGH_GAIN;
            // As Linux: ssthresh records the estimated BDP once slow start (STARTUP) ends.
            w.set_ssthresh(self.inflight(1.0));
        }
        if self.state == BbrState::Drain && a.in_flight as f64 <= self.inflight(1.0) {
            self.enter_probe_bw(a.now);
        }
    }

    /// BBREnterProbeBW (4.3.3.6): a random first phase other than the drain phase 3/4.
    fn enter_probe_bw(&mut self, now: SimTime) {
        self.state = BbrState::ProbeBw;
        self.pacing_gain = 1.0;
        self.cwnd_gain = 2.0;
        let n = PACING_GAIN_CYCLE.len();
        self.cycle_index = n - 1 - self.rng.up_to(n as u32 - 2) as usize;
        self.advance_cycle_phase(now);
    }

    /// BBRUpdateRTprop (4.1.2.3).
    fn update_rtprop(&mut self, a: &AckRate) {
        self.rtprop_expired = a.now > self.rtprop_stamp_ns + RTPROP_FILTER_NS;
        if let Some(rtt) = a.rs.rtt_ns {
            if self.rtprop_ns.is_none_or(|r| rtt <= r) || self.rtprop_expired {
                self.rtprop_ns = Some(rtt);
                self.rtprop_stamp_ns = a.now;
            }
        }
    }

    /// BBRCheckProbeRTT, BBRHandleProbeRTT (4.3.4.4).
    fn check_probe_rtt(&mut self, w: &mut Window, a: &AckRate) {
        if self.state != BbrState::ProbeRtt && self.rtprop_expired {
            self.prior_cwnd = self.save_cwnd(w.cwnd(), a.state);
            self.state = BbrState::ProbeRtt;
            self.pacing_gain = 1.0;
            self.cwnd_gain = 1.0;
            self.probe_rtt_done_ns = None;
        }
        if self.state != BbrState::ProbeRtt {
            return;
        }
        match self.probe_rtt_done_ns {
            None if a.in_flight as f64 <= MIN_PIPE_CWND => {
                // The queue is drained: hold for 200 ms and one round from here.
                self.probe_rtt_done_ns = Some(a.now + PROBE_RTT_DURATION_NS);
                self.probe_rtt_round_done = false;
                self.next_round_delivered = a.delivered;
            }
            None => {}
            Some(done) => {
                if self.round_start {
                    self.probe_rtt_round_done = true;
                }
                if self.probe_rtt_round_done && a.now > done {
                    self.rtprop_stamp_ns = a.now;
                    w.set_cwnd(w.cwnd().max(self.prior_cwnd)); // BBRRestoreCwnd
                    if self.filled_pipe {
                        self.enter_probe_bw(a.now);
                    } else {
                        self.state = BbrState::Startup;
                        self.pacing_gain = HIGH_GAIN;
                        self.cwnd_gain = HIGH_GAIN;
                    }
                }
            }
        }
    }

    /// BBRSaveCwnd: the cwnd to come back to, unless already reduced by recovery or PROBE_RTT.
    fn save_cwnd(&self, cwnd: f64, ca: CaState) -> f64 {
        if ca == CaState::Open && self.state != BbrState::ProbeRtt {
            cwnd
        } else {
            self.prior_cwnd.max(cwnd)
        }
    }

    // --- BBRUpdateControlParameters (4.4) ---

    /// BBRSetPacingRate (4.2.1): never lowered before the pipe is full.
    fn set_pacing_rate(&mut self) {
        let rate = self.pacing_gain * self.btl_bw.get();
        if rate > 0.0 && (self.filled_pipe || rate > self.pacing_rate_sps) {
            self.pacing_rate_sps = rate;
        }
    }

    /// BBRModulateCwndForRecovery and the recovery transitions (4.2.3.4; Linux
    /// `bbr_set_cwnd_to_recover_or_restore`): the cwnd to start from on this ACK.
    fn recovery_cwnd(&mut self, cwnd: f64, a: &AckRate) -> f64 {
        let delivered = a.rs.newly_delivered as f64;
        let mut cwnd = cwnd;
        if a.newly_lost > 0 {
            cwnd = (cwnd - a.newly_lost as f64).max(1.0);
        }
        if a.state == CaState::Recovery && self.prev_ca_state != CaState::Recovery {
            // Fast recovery starts: packet conservation for one round, from what is in flight.
            self.packet_conservation = true;
            self.conservation_until = a.delivered;
            cwnd = a.in_flight as f64 + delivered.max(1.0);
        } else if self.prev_ca_state != CaState::Open && a.state == CaState::Open {
            cwnd = cwnd.max(self.prior_cwnd); // recovery over: BBRRestoreCwnd
            self.packet_conservation = false;
        }
        self.prev_ca_state = a.state;
        if self.packet_conservation {
            cwnd = cwnd.max(a.in_flight as f64 + delivered);
        }
        cwnd
    }

    /// BBRSetCwnd (4.2.3.5): towards cwnd_gain x BDP + quanta by what each ACK delivers.
    fn set_cwnd(&mut self, w: &mut Window, a: &AckRate) {
        let target = self.inflight(self.cwnd_gain);
        let delivered = a.rs.newly_delivered as f64;
        let mut cwnd = self.recovery_cwnd(w.cwnd(), a);
        if !self.packet_conservation {
            if self.filled_pipe {
                cwnd = (cwnd + delivered).min(target);
            } else if cwnd < target || (a.delivered as f64) < self.initial_cwnd {
                cwnd += delivered;
            }
            cwnd = cwnd.max(MIN_PIPE_CWND);
        }
        if self.state == BbrState::ProbeRtt {
            cwnd = cwnd.min(MIN_PIPE_CWND); // BBRModulateCwndForProbeRTT
        }
        w.set_cwnd(cwnd);
    }
}

impl CongestionControl for Bbr {
    fn clone_box(&self) -> Box<dyn CongestionControl> {
        Box::new(self.clone())
    }

    fn name(&self) -> &'static str {
        "bbr"
    }

    /// BBR's window follows its model on every ACK ([`Self::on_rate_sample`]), not here.
    fn on_new_ack(&mut self, _w: &mut Window, _ack: &AckSample) {}

    /// BBR keeps no loss-based threshold (Linux `bbr_ssthresh` leaves it unchanged).
    fn ssthresh_after_loss(&mut self, w: &Window, _loss: &Loss) -> f64 {
        w.ssthresh()
    }

    /// Fast recovery begins: remember the cwnd (Linux `bbr_ssthresh` -> `bbr_save_cwnd`);
    /// the cut to what is in flight comes with this ACK's rate sample.
    fn enter_sack_recovery(&mut self, w: &mut Window, _loss: &Loss) {
        self.prior_cwnd = self.save_cwnd(w.cwnd(), self.prev_ca_state);
    }

    fn enter_recovery(&mut self, w: &mut Window, loss: &Loss) {
        self.enter_sack_recovery(w, loss);
    }

    /// 4.2.3.4: upon a retransmission timeout, save cwnd and send one segment.
    fn on_timeout(&mut self, w: &mut Window, _loss: &Loss) {
        self.prior_cwnd = self.save_cwnd(w.cwnd(), self.prev_ca_state);
        w.set_cwnd(1.0);
    }

    fn wants_rate_samples(&self) -> bool {
        true
    }

    /// BBRUpdateOnACK (4.4): the model and state, then pacing rate and cwnd.
    fn on_rate_sample(&mut self, w: &mut Window, a: &AckRate) {
        if !self.has_seen_rtt {
            if let Some(srtt) = a.srtt_ns {
                self.has_seen_rtt = true;
                let nominal = self.initial_cwnd / (srtt / 1e9);
                self.pacing_rate_sps = HIGH_GAIN * nominal;
            }
        }
        self.update_btl_bw(a);
        self.check_cycle_phase(a);
        self.check_full_pipe(a);
        self.check_drain(w, a);
        self.update_rtprop(a);
        self.check_probe_rtt(w, a);
        self.set_pacing_rate();
        self.set_cwnd(w, a);
    }

    fn pacing_gap_ns(&self) -> Option<SimDuration> {
        Some((1e9 / self.pacing_rate_sps) as SimDuration)
    }

    /// BBRHandleProbeRTT: "ignore low rate samples during ProbeRTT".
    fn app_limited_now(&self) -> bool {
        self.state == BbrState::ProbeRtt
    }

    fn min_window(&self) -> f64 {
        MIN_PIPE_CWND
    }
}

#[cfg(test)]
mod tests;

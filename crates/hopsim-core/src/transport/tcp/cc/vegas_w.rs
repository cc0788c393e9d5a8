//! Vegas-W (Ding, Wang, Xu, Zhang, Chen: "Improve throughput of TCP-Vegas in multihop ad hoc
//! networks", Computer Communications 2008; seed 004). Vegas with, in the paper's terms:
//!
//! - Slower start (eq. 1): while W < W_th the window grows by one segment only after more than
//!   N_s ACKs that arrive with Delta < gamma; when Delta > gamma, W_th = W - 1 and W = W (1 - p).
//! - Moderate congestion avoidance (eq. 2): +1/W after more than N_CA ACKs with Delta < alpha;
//!   hold while alpha <= Delta <= beta; -1/W per ACK while Delta > beta.
//! - W_th update on a new ACK, once per RTT (Algorithm 1): after more than NS_CA stable periods
//!   (alpha <= Delta <= beta) at the largest stable window W_s, W_th = W.
//! - W_th on timeout: after more than TO_ss consecutive timeouts with W < W_th, W_th - 1
//!   (instead of Vegas' halving).
//! - Fractional window: after N_fw consecutive timeouts at a window of one segment, W = 0.5,
//!   sent by a rate-control timer at one segment per RTT / W (the sender paces windows below
//!   one segment); any increase from there goes back to 1.
//! - Minimum window 1 (legacy Vegas: 2). Fine-grained retransmission as Vegas.
//!
//! Where the paper is silent or ambiguous the choices are in docs/research/tcp-rules.md
//! section 1 (ns-2 boundaries > gamma, < alpha, > beta; count-then-test counters).

use super::vegas::{reduced_window, VegasClock};
use super::{AckSample, CongestionControl, Loss, Window};
use crate::engine::time::{SimDuration, SimTime};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VegasWParams {
    pub alpha: f64,
    pub beta: f64,
    pub gamma: f64,
    /// Slow-start decrease factor p (W = W (1 - p)).
    pub p: f64,
    pub n_fw: u32,
    pub n_s: u32,
    pub n_ca: u32,
    pub ns_ca: u32,
    pub to_ss: u32,
}

impl Default for VegasWParams {
    /// The paper's defaults (section 5).
    fn default() -> Self {
        VegasWParams {
            alpha: 1.0,
            beta: 3.0,
            gamma: 1.0,
            p: 1.0 / 8.0,
            n_fw: 2,
            n_s: 10,
            n_ca: 100,
            ns_ca: 100,
            to_ss: 2,
        }
    }
}

const MIN_WINDOW: f64 = 1.0;
const FRACTIONAL_WINDOW: f64 = 0.5;

#[derive(Debug, Clone)]
pub struct VegasW {
    p: VegasWParams,
    clock: VegasClock,
    delta: Option<f64>,
    n_s: u32,
    n_ca: u32,
    ns_ca: u32,
    w_s: f64,
    to_ss: u32,
    /// Consecutive timeouts at a window of one segment or less.
    timeouts_at_one: u32,
    initial_ssthresh: f64,
    new_cwnd: f64,
    last_reduction_ns: SimTime,
}

impl VegasW {
    pub fn new(p: VegasWParams, receiver_window: f64) -> VegasW {
        VegasW {
            p,
            clock: VegasClock::default(),
            delta: None,
            n_s: 0,
            n_ca: 0,
            ns_ca: 0,
            w_s: 0.0,
            to_ss: 0,
            timeouts_at_one: 0,
            initial_ssthresh: receiver_window,
            new_cwnd: 0.0,
            last_reduction_ns: 0,
        }
    }

    /// Grow by `inc`; from a fractional window any increase goes to one segment.
    fn grow(w: &mut Window, inc: f64) {
        if w.cwnd() < MIN_WINDOW {
            w.set_cwnd(MIN_WINDOW);
        } else {
            w.grow(inc);
        }
    }

    /// Algorithm 1 (once per RTT) and the slow-start exit of eq. 1.
    fn period(&mut self, w: &mut Window, delta: f64, now: SimTime) {
        if w.in_slow_start() {
            if delta > self.p.gamma {
                w.set_ssthresh((w.cwnd() - 1.0).max(MIN_WINDOW));
                w.set_cwnd((w.cwnd() * (1.0 - self.p.p)).max(MIN_WINDOW));
                self.n_s = 0;
                self.last_reduction_ns = now;
            }
        } else if delta > self.p.beta {
            self.ns_ca = 0;
        } else if delta >= self.p.alpha {
            if w.cwnd() > self.w_s {
                self.ns_ca = 0;
                self.w_s = w.cwnd();
            }
            self.ns_ca += 1;
            if self.ns_ca > self.p.ns_ca {
                w.set_ssthresh(w.cwnd());
                self.ns_ca = 0;
            }
        }
    }
}

impl CongestionControl for VegasW {
    fn clone_box(&self) -> Box<dyn CongestionControl> {
        Box::new(self.clone())
    }

    fn name(&self) -> &'static str {
        "vegas_w"
    }

    fn initial_ssthresh(&self) -> Option<f64> {
        Some(self.initial_ssthresh)
    }

    fn on_new_ack(&mut self, w: &mut Window, ack: &AckSample) {
        self.to_ss = 0;
        self.timeouts_at_one = 0;
        if let Some(d) = self.clock.period_diff(ack) {
            self.delta = Some(d);
            self.period(w, d, ack.now);
        }
        let Some(d) = self.delta else { return };
        let in_use = w.cwnd() - ack.outstanding() <= 2.0;
        if w.in_slow_start() {
            if d < self.p.gamma {
                self.n_s += 1;
                if self.n_s > self.p.n_s {
                    self.n_s = 0;
                    if in_use {
                        Self::grow(w, 1.0);
                    }
                }
            }
        } else if d < self.p.alpha {
            self.n_ca += 1;
            if self.n_ca > self.p.n_ca {
                self.n_ca = 0;
                if in_use {
                    Self::grow(w, 1.0 / w.cwnd());
                }
            }
        } else if d > self.p.beta {
            w.set_cwnd((w.cwnd() - 1.0 / w.cwnd()).max(MIN_WINDOW));
            self.last_reduction_ns = ack.now;
        }
    }

    fn ssthresh_after_loss(&mut self, w: &Window, _loss: &Loss) -> f64 {
        w.ssthresh() // W_th moves only by Algorithm 1 and the timeout rule
    }

    fn enter_recovery(&mut self, w: &mut Window, loss: &Loss) {
        if self.last_reduction_ns <= loss.sent_ns {
            self.new_cwnd = reduced_window(loss, MIN_WINDOW);
            w.set_cwnd(self.new_cwnd + loss.dupack_threshold as f64);
            self.last_reduction_ns = loss.now;
        }
        self.clock.back_off(loss.retransmitted);
    }

    fn exit_recovery(&mut self, w: &mut Window, _dupacks: u32) {
        if self.new_cwnd > 0.0 && w.cwnd() > self.new_cwnd {
            w.set_cwnd(self.new_cwnd);
        }
    }

    fn on_timeout(&mut self, w: &mut Window, loss: &Loss) {
        if w.in_slow_start() {
            self.to_ss += 1;
            if self.to_ss > self.p.to_ss {
                w.set_ssthresh((w.ssthresh() - 1.0).max(MIN_WINDOW));
                self.to_ss = 0;
            }
        }
        if w.cwnd() <= MIN_WINDOW {
            self.timeouts_at_one += 1;
        }
        w.set_cwnd(if self.timeouts_at_one >= self.p.n_fw {
            FRACTIONAL_WINDOW
        } else {
            MIN_WINDOW
        });
        self.new_cwnd = 0.0;
        self.last_reduction_ns = loss.now;
        self.n_s = 0;
    }

    fn fine_grained_timeout_ns(&self) -> Option<SimDuration> {
        self.clock.timeout_ns()
    }

    fn min_window(&self) -> f64 {
        MIN_WINDOW
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::SeqNo;
    use crate::transport::tcp::cc::reno::ack;
    use crate::transport::tcp::test_support::s;

    const MS: u64 = 1_000_000;

    fn loss(now: u64) -> Loss {
        Loss {
            now,
            flight: 1.0,
            usable: 1.0,
            dupack_threshold: 3,
            dupacks: 3,
            sent_ns: 0,
            retransmitted: false,
        }
    }

    /// Put the controller in a state with a known Delta: one period at BaseRTT, then ACKs.
    fn primed(w: &mut Window) -> (VegasW, u64, SeqNo) {
        let mut cc = VegasW::new(VegasWParams::default(), 20.0);
        cc.on_new_ack(w, &ack(100 * MS, 1, s(1), s(2), Some(100 * MS)));
        (cc, 100 * MS, s(1))
    }

    #[test]
    fn slower_start_keeps_the_window_for_n_s_qualifying_acks() {
        let mut w = Window::new(2.0, 20.0);
        let (mut cc, t, mut una) = primed(&mut w);
        cc.clock.hold_period();
        cc.n_s = 0;
        cc.delta = Some(0.0); // < gamma: every new ACK qualifies
        let start = w.cwnd();
        for i in 1..=10 {
            una += 1;
            cc.on_new_ack(&mut w, &ack(t + i, 1, una, una + 1, None));
            assert_eq!(w.cwnd(), start, "unchanged after {i} qualifying ACKs");
        }
        una += 1;
        cc.on_new_ack(&mut w, &ack(t + 11, 1, una, una + 1, None));
        assert_eq!(w.cwnd(), start + 1.0, "the 11th (> N_s) adds one segment");
    }

    #[test]
    fn slow_start_exit_sets_w_th_and_cuts_by_p() {
        let mut cc = VegasW::new(VegasWParams::default(), 20.0);
        let mut w = Window::new(8.0, 20.0);
        cc.period(&mut w, 2.0, 0);
        assert_eq!(w.ssthresh(), 7.0, "W_th = W - 1");
        assert_eq!(w.cwnd(), 7.0, "W (1 - 1/8)");
    }

    #[test]
    fn algorithm_1_sets_w_th_after_ns_ca_stable_periods() {
        let mut cc = VegasW::new(VegasWParams::default(), 20.0);
        let mut w = Window::new(4.0, 3.0);
        for i in 1..=100 {
            cc.period(&mut w, 2.0, 0);
            assert_eq!(w.ssthresh(), 3.0, "period {i}");
        }
        assert_eq!(cc.ns_ca, 100);
        cc.period(&mut w, 2.0, 0);
        assert_eq!(w.ssthresh(), 4.0, "W_th = W on the 101st stable period");
        assert_eq!(cc.ns_ca, 0);
        // A larger stable window restarts the count; Delta > beta clears it.
        cc.period(&mut w, 2.0, 0);
        w.set_cwnd(5.0);
        cc.period(&mut w, 2.0, 0);
        assert_eq!((cc.ns_ca, cc.w_s), (1, 5.0));
        cc.period(&mut w, 4.0, 0);
        assert_eq!(cc.ns_ca, 0);
    }

    #[test]
    fn moderate_congestion_avoidance() {
        let mut w = Window::new(3.0, 2.0);
        let (mut cc, t, mut una) = primed(&mut w);
        cc.clock.hold_period();
        cc.n_ca = 0;
        cc.delta = Some(0.0);
        let start = w.cwnd();
        for i in 0..100 {
            una += 1;
            cc.on_new_ack(&mut w, &ack(t + i, 1, una, una + 2, None));
        }
        assert_eq!(w.cwnd(), start, "hold for N_CA qualifying ACKs");
        una += 1;
        cc.on_new_ack(&mut w, &ack(t + 200, 1, una, una + 2, None));
        assert!((w.cwnd() - (start + 1.0 / start)).abs() < 1e-12);
        cc.delta = Some(4.0);
        let before = w.cwnd();
        cc.on_new_ack(&mut w, &ack(t + 300, 1, una + 1, una + 3, None));
        assert!((w.cwnd() - (before - 1.0 / before)).abs() < 1e-12, "-1/W while Delta > beta");
    }

    #[test]
    fn timeouts_lower_w_th_and_lead_to_a_half_segment_window() {
        let mut cc = VegasW::new(VegasWParams::default(), 20.0);
        let mut w = Window::new(5.0, 10.0);
        cc.on_timeout(&mut w, &loss(1));
        assert_eq!(w.cwnd(), 1.0);
        cc.on_timeout(&mut w, &loss(2));
        assert_eq!(w.cwnd(), 1.0, "one timeout at W = 1");
        cc.on_timeout(&mut w, &loss(3));
        assert_eq!(w.cwnd(), 0.5, "N_fw = 2 timeouts at W = 1: fractional window");
        assert_eq!(w.ssthresh(), 9.0, "3 consecutive timeouts in slow start (> TO_ss): W_th - 1");
        // A new ACK that increases the window brings it back to one segment.
        let mut g = w;
        VegasW::grow(&mut g, 1.0);
        assert_eq!(g.cwnd(), 1.0);
    }
}

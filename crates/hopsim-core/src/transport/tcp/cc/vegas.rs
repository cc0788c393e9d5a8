//! TCP Vegas (Brakmo & Peterson, IEEE JSAC 13(8), 1995), as ns-2's tcp-vegas.cc implements it:
//!
//! - BaseRTT = the smallest RTT seen (or the period RTT when only one segment was in transit).
//! - Once per RTT (the first new ACK at or beyond the segment sent at the start of the period):
//!   Actual = segments sent in the period / its mean RTT; Expected = (t_seqno - last_ack) /
//!   BaseRTT; diff = (Expected - Actual) x BaseRTT, in segments, rounded half up.
//! - Congestion avoidance: +1 segment over the next RTT if diff < alpha, -1 at once if
//!   diff > beta, hold otherwise.
//! - Slow start: grow (+1 per ACK) only every other RTT; leave when diff > gamma, cutting the
//!   window by 1/8 and setting ssthresh to 2.
//! - Fine-grained retransmission: a segment outstanding longer than the fine-grained timeout
//!   (1.0625 x (SRTT + 2 mdev)) is retransmitted on the first duplicate ACK, and checked again on
//!   the first two new ACKs after it.
//! - Milder loss reaction: the window falls to 3/4 (1/2 if the segment was already resent,
//!   2 if it was 3 or less), only if it was not changed since the segment was sent; after a
//!   timeout the window restarts at 2. The minimum window is 2.
//!
//! Parameters alpha, beta, gamma: ns-2 defaults 1, 3, 1.

use super::{AckSample, CongestionControl, Loss, Window};
use crate::engine::time::{SimDuration, SimTime};
use crate::ids::SeqNo;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VegasParams {
    pub alpha: f64,
    pub beta: f64,
    pub gamma: f64,
}

/// Per-RTT measurement shared by Vegas and Vegas-W.
#[derive(Debug, Clone)]
pub struct VegasClock {
    base_rtt_ns: f64,
    sum_rtt_ns: f64,
    count_rtt: u32,
    beg_seq: SeqNo,
    beg_time: SimTime,
    /// Fine-grained RTT estimator (ns-2 v_sa_, v_sd_: 8 x SRTT and 4 x mdev).
    sa: f64,
    sd: f64,
    timeout_ns: f64,
    started: bool,
    /// Periods (RTTs) measured so far.
    pub periods: u64,
}

impl Default for VegasClock {
    fn default() -> Self {
        VegasClock {
            base_rtt_ns: f64::INFINITY,
            sum_rtt_ns: 0.0,
            count_rtt: 0,
            beg_seq: SeqNo::ZERO,
            beg_time: 0,
            sa: 0.0,
            sd: 0.0,
            timeout_ns: f64::INFINITY,
            started: false,
            periods: 0,
        }
    }
}

impl VegasClock {
    /// Run the once-per-RTT computation if this ACK ends a period: returns diff (segments).
    pub fn period_diff(&mut self, ack: &AckSample) -> Option<f64> {
        let first = !self.started;
        if first {
            // ns-2 seeds the measurement with the first ACK's own sample.
            self.started = true;
            self.note_sample(ack.rtt_ns);
            self.beg_time = ack.now.saturating_sub(ack.rtt_ns.unwrap_or(0));
        }
        // ns-2: the ACKed sequence number (last_ack) has reached v_begseq_.
        if ack.snd_una <= self.beg_seq {
            self.note_sample(ack.rtt_ns);
            return None;
        }
        let rtt = if self.count_rtt > 0 {
            self.sum_rtt_ns / self.count_rtt as f64
        } else {
            ack.now.saturating_sub(self.beg_time) as f64
        };
        self.sum_rtt_ns = 0.0;
        self.count_rtt = 0;
        self.periods += 1;
        let sent_in_period = ack.snd_max.saturating_sub(self.beg_seq) as f64;
        let mut diff = None;
        if rtt > 0.0 {
            if rtt < self.base_rtt_ns || sent_in_period <= 1.0 {
                self.base_rtt_ns = rtt;
            }
            let actual = sent_in_period / rtt;
            // ns-2: (t_seqno_ - last_ack_) with last_ack_ the highest sequence acknowledged.
            let expected = (ack.snd_max - ack.snd_una + 1) as f64 / self.base_rtt_ns;
            diff = Some(((expected - actual) * self.base_rtt_ns + 0.5).floor());
        }
        self.beg_seq = ack.snd_max;
        self.beg_time = ack.now;
        // The ACK's own sample counts towards the next period.
        if !first {
            self.note_sample(ack.rtt_ns);
        }
        diff
    }

    fn note_sample(&mut self, rtt_ns: Option<SimDuration>) {
        let Some(r) = rtt_ns else { return };
        let r = r as f64;
        self.sum_rtt_ns += r;
        self.count_rtt += 1;
        self.base_rtt_ns = self.base_rtt_ns.min(r);
        if self.sa == 0.0 {
            self.sa = 8.0 * r;
            self.sd = r;
            self.timeout_ns = 1.5 * r;
        } else {
            let err = r - self.sa / 8.0;
            self.sa += err;
            self.sd += err.abs() - self.sd / 4.0;
            self.timeout_ns = (self.sa / 4.0 + self.sd) / 2.0 * (1.0 + 1.0 / 16.0);
        }
    }

    /// Back the fine-grained timeout off after a retransmission it triggered.
    pub fn back_off(&mut self, retransmitted_before: bool) {
        self.timeout_ns *= if retransmitted_before { 2.0 } else { 1.0 + 1.0 / 8.0 };
    }

    /// Tests: no period ends until further notice (so a fixed Delta can be examined).
    #[cfg(test)]
    pub fn hold_period(&mut self) {
        self.started = true;
        self.beg_seq = SeqNo::MAX;
    }

    pub fn timeout_ns(&self) -> Option<SimDuration> {
        self.timeout_ns.is_finite().then_some(self.timeout_ns as SimDuration)
    }
}

/// Vegas' milder reaction to a loss found by duplicate ACKs (ns-2 tcp-vegas.cc): the usable
/// window falls to 3/4, to 1/2 if the lost segment had been resent, and windows of 3 or less
/// to 2 (never below `min_window`, and never raised).
pub fn reduced_window(loss: &Loss, min_window: f64) -> f64 {
    let win = loss.usable;
    if win <= 3.0 {
        win.clamp(min_window, 2.0f64.max(min_window))
    } else if loss.retransmitted {
        (win / 2.0).floor()
    } else {
        win - (win / 4.0).floor()
    }
}

#[derive(Debug, Clone)]
pub struct Vegas {
    p: VegasParams,
    clock: VegasClock,
    /// Window increment applied per new ACK during the current RTT.
    incr: f64,
    grow_this_rtt: bool,
    initial_ssthresh: f64,
    /// Window after the fast retransmit, restored when recovery ends.
    new_cwnd: f64,
    last_reduction_ns: SimTime,
    dupack_threshold: u32,
    /// ns-2.35's tcp-vegas.cc where hopsim's reading differed (ns2 profile): no deflation
    /// after exactly `numdupacks_` duplicates, `t_cwnd_changed_` moved only by a fast
    /// retransmit or a timeout (and compared strictly), growth while cwnd - outstanding <= 3.
    pub ns2: bool,
}

const MIN_WINDOW: f64 = 2.0;

impl Vegas {
    /// ns-2.35's tcp-vegas.cc (ns2 profile): its readings (the `ns2` field) and its start:
    /// `reset()` sets `v_inc_flag_` to 1, so the first period of slow start, which toggles
    /// it, does not grow: the window grows every other RTT from the second.
    pub fn with_ns2(mut self, ns2: bool) -> Vegas {
        self.ns2 = ns2;
        self.grow_this_rtt = ns2;
        self
    }

    pub fn new(p: VegasParams, receiver_window: f64) -> Vegas {
        Vegas {
            p,
            clock: VegasClock::default(),
            incr: 0.0,
            grow_this_rtt: false,
            initial_ssthresh: receiver_window,
            new_cwnd: 0.0,
            last_reduction_ns: 0,
            dupack_threshold: 3,
            ns2: false,
        }
    }
}

impl CongestionControl for Vegas {
    fn clone_box(&self) -> Box<dyn CongestionControl> {
        Box::new(self.clone())
    }

    fn name(&self) -> &'static str {
        "vegas"
    }

    fn initial_ssthresh(&self) -> Option<f64> {
        Some(self.initial_ssthresh) // ns-2: ssthresh_ starts at the advertised window
    }

    fn on_new_ack(&mut self, w: &mut Window, ack: &AckSample) {
        if let Some(diff) = self.clock.period_diff(ack) {
            if w.in_slow_start() {
                self.grow_this_rtt = !self.grow_this_rtt;
                if !self.grow_this_rtt {
                    self.incr = 0.0;
                } else if diff > self.p.gamma {
                    w.set_ssthresh(MIN_WINDOW);
                    w.set_cwnd((w.cwnd() - w.cwnd() / 8.0).max(MIN_WINDOW));
                    if !self.ns2 {
                        self.last_reduction_ns = ack.now;
                    }
                    self.incr = 0.0;
                } else {
                    self.incr = 1.0;
                }
            } else if diff > self.p.beta {
                w.set_cwnd((w.cwnd() - 1.0).max(MIN_WINDOW));
                if !self.ns2 {
                    self.last_reduction_ns = ack.now;
                }
                self.incr = 0.0;
            } else if diff < self.p.alpha {
                self.incr = 1.0 / w.cwnd();
            } else {
                self.incr = 0.0;
            }
        }
        if self.incr == 1.0 && w.cwnd() >= w.ssthresh() {
            self.incr = 0.0; // slow start never crosses ssthresh
        }
        // Grow only while the window is being used (ns-2 compares with t_seqno_ - last_ack_
        // after last_ack_ moved: one more).
        let slack = if self.ns2 { 3.0 } else { 2.0 };
        if w.cwnd() - ack.outstanding() <= slack {
            w.grow(self.incr);
        }
    }

    fn ssthresh_after_loss(&mut self, _w: &Window, loss: &Loss) -> f64 {
        (loss.flight / 2.0).floor().max(MIN_WINDOW)
    }

    fn enter_recovery(&mut self, w: &mut Window, loss: &Loss) {
        self.dupack_threshold = loss.dupack_threshold;
        let cut = if self.ns2 {
            self.last_reduction_ns < loss.sent_ns
        } else {
            self.last_reduction_ns <= loss.sent_ns
        };
        if cut {
            self.new_cwnd = reduced_window(loss, MIN_WINDOW);
            // ns-2 inflates by the duplicates seen: 1 when an expired segment is resent on
            // the first (tcp-vegas.cc `recv`, `cwnd_ = v_newcwnd_ + dupacks_`).
            let inflation = if self.ns2 { loss.dupacks } else { loss.dupack_threshold };
            w.set_cwnd(self.new_cwnd + inflation as f64);
            self.last_reduction_ns = loss.now;
        }
        self.clock.back_off(loss.retransmitted);
    }

    fn exit_recovery(&mut self, w: &mut Window, dupacks: u32) {
        if self.ns2 {
            // tcp-vegas.cc `recv`, on every new ACK: only after more than numdupacks_
            // duplicates, and to v_newcwnd_ even when a timeout has cleared it to 0.
            if dupacks > self.dupack_threshold && w.cwnd() > self.new_cwnd {
                w.set_cwnd(self.new_cwnd);
                w.set_ssthresh(MIN_WINDOW);
            }
            return;
        }
        if self.new_cwnd > 0.0 && w.cwnd() > self.new_cwnd {
            w.set_cwnd(self.new_cwnd);
            w.set_ssthresh(MIN_WINDOW);
        }
    }

    fn on_timeout(&mut self, w: &mut Window, loss: &Loss) {
        self.dupack_threshold = loss.dupack_threshold;
        w.set_ssthresh((loss.usable / 2.0).floor().max(MIN_WINDOW));
        w.set_cwnd(MIN_WINDOW); // ns-2 v_slowstart_
        self.new_cwnd = 0.0;
        self.last_reduction_ns = loss.now;
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
    use crate::transport::tcp::cc::reno::ack;
    use crate::transport::tcp::test_support::s;

    const MS: u64 = 1_000_000;

    fn vegas() -> Vegas {
        Vegas::new(VegasParams { alpha: 1.0, beta: 3.0, gamma: 1.0 }, 64.0)
    }

    /// ACK-clocked transfer with a fixed RTT: each ACK frees one segment and the sender keeps
    /// floor(cwnd) outstanding. Returns the window at the end of each measured period. With W
    /// outstanding and a steady window, a period gives diff = W + 1 - W x BaseRTT / RTT
    /// (ns-2 counts t_seqno - last_ack).
    struct Feed {
        t: u64,
        una: SeqNo,
    }

    impl Feed {
        fn periods(&mut self, cc: &mut Vegas, w: &mut Window, rtt_ms: u64, n: u64) -> Vec<f64> {
            let mut ends = vec![];
            let target = cc.clock.periods + n;
            while cc.clock.periods < target {
                self.t += 10 * MS;
                self.una += 1;
                let snd_max = self.una + w.cwnd().floor() as u32;
                let before = cc.clock.periods;
                cc.on_new_ack(w, &ack(self.t, 1, self.una, snd_max, Some(rtt_ms * MS)));
                if cc.clock.periods > before {
                    ends.push(w.cwnd());
                }
            }
            ends
        }
    }

    #[test]
    fn congestion_avoidance_holds_between_alpha_and_beta_and_moves_by_one_otherwise() {
        let mut cc = vegas();
        let mut w = Window::new(8.0, 2.0);
        let mut f = Feed { t: 0, una: s(0) };
        f.periods(&mut cc, &mut w, 100, 1); // BaseRTT = 100 ms
                                            // RTT 125 ms: diff = 9 - 8 x 0.8 = 2.6 -> 3, within [alpha, beta]: hold.
        f.periods(&mut cc, &mut w, 125, 2);
        let held = f.periods(&mut cc, &mut w, 125, 3);
        assert!(held.windows(2).all(|p| p[0] == p[1]), "holds: {held:?}");
        // RTT 250 ms: diff = 9 - 8 x 0.4 = 5.8 > beta: one segment less per period.
        let w0 = w.cwnd();
        let down = f.periods(&mut cc, &mut w, 250, 2);
        assert_eq!(down, vec![w0 - 1.0, w0 - 2.0], "-1 per RTT while diff > beta");
    }

    #[test]
    fn grows_about_one_segment_per_rtt_below_alpha() {
        let mut cc = Vegas::new(VegasParams { alpha: 3.0, beta: 5.0, gamma: 1.0 }, 64.0);
        let mut w = Window::new(4.0, 2.0);
        let mut f = Feed { t: 0, una: s(0) };
        let ends = f.periods(&mut cc, &mut w, 100, 6);
        // No queueing: diff <= 1 < alpha, +1/cwnd per ACK over a window of ACKs.
        for p in ends.windows(2).skip(1) {
            assert!((p[1] - p[0] - 1.0).abs() < 0.25, "{ends:?}");
        }
    }

    #[test]
    fn slow_start_grows_every_other_rtt_and_exits_with_a_one_eighth_cut() {
        let mut cc = vegas();
        let mut w = Window::new(2.0, 64.0);
        let mut f = Feed { t: 0, una: s(0) };
        let ends = f.periods(&mut cc, &mut w, 100, 6);
        // A growth period adds one segment per ACK (the first of them lands on the ACK that
        // closes the period before, as in ns-2): big and small steps alternate.
        let big: Vec<bool> = ends.windows(2).map(|p| p[1] - p[0] > 1.0).collect();
        assert!(big.windows(2).all(|g| g[0] != g[1]), "growth alternates: {ends:?}");
        assert!(ends[ends.len() - 1] < 2.0 * 2f64.powi(4), "about doubling every other RTT");
        // Queueing (RTT 3 x BaseRTT): diff > gamma ends slow start at the next growth period
        // (within two periods), cutting the window by 1/8.
        for _ in 0..2 {
            let before = w.cwnd();
            f.periods(&mut cc, &mut w, 300, 1);
            if w.ssthresh() == 2.0 {
                assert_eq!(w.cwnd(), before - before / 8.0);
                return;
            }
            assert_eq!(w.cwnd(), before, "no growth in the period between");
        }
        panic!("slow start did not end: {w:?}");
    }

    // tcp-vegas.cc `reset` (v_inc_flag_ = 1) and `recv` (toggled at each period's end in slow
    // start): ns-2's first period does not grow; the standard reading grows in it.
    #[test]
    fn ns2_slow_start_grows_from_the_second_period() {
        for ns2 in [false, true] {
            let mut cc = vegas().with_ns2(ns2);
            let mut w = Window::new(2.0, 64.0);
            let mut f = Feed { t: 0, una: s(0) };
            let ends = f.periods(&mut cc, &mut w, 100, 2);
            let first_grew = ends[0] > 2.0;
            assert_eq!(first_grew, !ns2, "ns2 = {ns2}: {ends:?}");
            assert!(ends[1] > 2.0, "ns2 = {ns2}: grows in one of the first two: {ends:?}");
        }
    }

    // ns-2.35 tcp-vegas.cc `recv` (ns2 profile): the next new ACK deflates the window to
    // v_newcwnd_ only if dupacks_ > numdupacks_; with exactly three it stays inflated.
    #[test]
    fn ns2_exactly_three_duplicates_leave_the_window_inflated() {
        let mut cc = vegas();
        cc.ns2 = true;
        let loss = Loss {
            now: 10,
            flight: 4.0,
            usable: 4.0,
            dupack_threshold: 3,
            dupacks: 3,
            sent_ns: 5,
            retransmitted: false,
        };
        let mut w = Window::new(4.0, 64.0);
        cc.enter_recovery(&mut w, &loss);
        assert_eq!(w.cwnd(), 3.0 + 3.0);
        cc.exit_recovery(&mut w, 3);
        assert_eq!((w.cwnd(), w.ssthresh()), (6.0, 64.0), "exactly 3: no deflation");
        let mut w = Window::new(4.0, 64.0);
        let mut cc2 = vegas();
        cc2.ns2 = true;
        cc2.enter_recovery(&mut w, &loss);
        w.inflate(); // a fourth duplicate inflates
        cc2.exit_recovery(&mut w, 4);
        assert_eq!((w.cwnd(), w.ssthresh()), (3.0, 2.0), "more than 3: v_newcwnd_, ssthresh 2");
    }

    // t_cwnd_changed_ < v_sendtime_: a segment sent at the very time of the last cut does
    // not cut again (the standard reading, <=, does).
    #[test]
    fn ns2_a_second_trigger_for_the_same_retransmission_cuts_nothing() {
        let loss = Loss {
            now: 10,
            flight: 8.0,
            usable: 8.0,
            dupack_threshold: 3,
            dupacks: 3,
            sent_ns: 5,
            retransmitted: false,
        };
        for (ns2, expect) in [(true, 6.0 + 3.0), (false, 4.0 + 3.0)] {
            let mut cc = vegas();
            cc.ns2 = ns2;
            let mut w = Window::new(8.0, 64.0);
            cc.enter_recovery(&mut w, &loss);
            w.set_cwnd(8.0);
            // The retransmission went out at 10, when the window was cut.
            let again = Loss { now: 20, sent_ns: 10, retransmitted: true, ..loss };
            cc.enter_recovery(&mut w, &again);
            assert_eq!(w.cwnd(), if ns2 { 8.0 } else { expect }, "ns2 = {ns2}");
        }
    }

    #[test]
    fn milder_loss_reaction_and_timeout_to_two() {
        let mut cc = vegas();
        let mut w = Window::new(8.0, 2.0);
        let loss = Loss {
            now: 10,
            flight: 8.0,
            usable: 8.0,
            dupack_threshold: 3,
            dupacks: 3,
            sent_ns: 5,
            retransmitted: false,
        };
        cc.enter_recovery(&mut w, &loss);
        assert_eq!(w.cwnd(), 6.0 + 3.0, "3/4 of the window, inflated by the duplicates");
        cc.exit_recovery(&mut w, 3);
        assert_eq!(w.cwnd(), 6.0);
        let mut w = Window::new(3.0, 2.0);
        cc.enter_recovery(&mut w, &Loss { now: 20, sent_ns: 15, usable: 3.0, ..loss });
        cc.exit_recovery(&mut w, 3);
        assert_eq!(w.cwnd(), 2.0, "windows of 3 or less fall to 2");
        // A loss of a segment sent before the last reduction changes nothing.
        let mut w = Window::new(6.0, 2.0);
        cc.enter_recovery(&mut w, &Loss { now: 25, sent_ns: 18, usable: 6.0, ..loss });
        assert_eq!(w.cwnd(), 6.0);
        cc.on_timeout(&mut w, &Loss { now: 30, usable: 6.0, ..loss });
        assert_eq!((w.cwnd(), w.ssthresh()), (2.0, 3.0));
    }
}

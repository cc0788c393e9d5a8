//! The ns2 profile's Vegas sender against scripts read from ns-2.35's tcp-vegas.cc `recv`,
//! `timeout`, `output` and tcp.cc `newack`, `rtt_update`, `reset_rtx_timer`, with explicit
//! times. `ns2`: the ns2 profile's agent (with ns-2's coarse timer); else the standard one.

use super::config::{TcpSpec, TcpVariant};
use super::congestion_control;
use super::rto::RtoEstimator;
use super::sender::{SendSegment, SenderConfig, TcpCtx, TcpSender};
use super::test_support::{self, s, MS};
use super::TcpTimer;
use crate::engine::rng::{Purpose, Rng};
use crate::engine::sched::Scheduler;
use crate::ids::SeqNo;

struct Script {
    tx: TcpSender,
    sched: Scheduler<(TcpTimer, u32)>,
    out: Vec<SendSegment>,
}

impl Script {
    /// Vegas with `iw` segments sent at t = 0. ns-2's timer: 10 ms ticks, phase 0, minrto
    /// 200 ms, rtxcur_init_ 1 s.
    fn new(iw: f64, ns2: bool) -> Script {
        let spec = TcpSpec { variant: TcpVariant::Vegas, ..TcpSpec::default() };
        let cfg = SenderConfig {
            initial_window: iw,
            ns2_vegas: ns2,
            ..test_support::sender_config(&spec)
        };
        let rto = match ns2 {
            true => RtoEstimator::ns2(1000 * MS, 200 * MS, 60_000 * MS, 10 * MS, 0),
            false => test_support::rto(),
        };
        let cc = congestion_control(&spec, ns2, Rng::derive(1, Purpose::Transport, 0));
        let mut h = Script {
            tx: TcpSender::new(cfg, cc, rto),
            sched: Scheduler::with_capacity(8),
            out: vec![],
        };
        let mut cx = TcpCtx { now: 0, timers: &mut h.sched, out: &mut h.out };
        h.tx.start(&mut cx);
        h
    }

    fn sent(&mut self) -> Vec<(SeqNo, bool)> {
        self.out.drain(..).map(|s| (s.seg, s.retransmission)).collect()
    }

    fn ack(&mut self, at_ms: u64, ack: SeqNo) -> Vec<(SeqNo, bool)> {
        let mut cx = TcpCtx { now: at_ms * MS, timers: &mut self.sched, out: &mut self.out };
        self.tx.on_ack(&mut cx, ack, &[], None);
        self.sent()
    }

    /// Fire the live retransmission timer: (when, what was sent).
    fn timeout(&mut self) -> (u64, Vec<(SeqNo, bool)>) {
        while let Some((t, (TcpTimer::Rto, generation))) = self.sched.pop() {
            let before = self.tx.stats.timeouts;
            let mut cx = TcpCtx { now: t, timers: &mut self.sched, out: &mut self.out };
            self.tx.on_timeout(&mut cx, generation);
            if self.tx.stats.timeouts > before {
                return (t, self.sent());
            }
        }
        panic!("no live RTO timer");
    }
}

// tcp-vegas.cc `recv` (bug_fix_): after a timeout a fast retransmit needs highest_ack_ >
// recover_ = maxseq_, i.e. snd_una beyond the highest segment sent before the timeout.
//   0..3 sent; timeout: 0, 1 resent; ACK 4 (all of 0..3) sends 4, 5; three duplicates of 4
//   -> no fast retransmit (4 is past maxseq_ = 3, but highest_ack_ = 3 is not);
//   ACK 5, three duplicates of 5 -> 5 resent.
#[test]
fn ns2_vegas_after_a_timeout_waits_for_an_ack_beyond_the_old_highest_segment() {
    for ns2 in [true, false] {
        let mut h = Script::new(4.0, ns2);
        h.sent();
        let (t, resent) = h.timeout();
        assert_eq!(resent, vec![(s(0), true), (s(1), true)]);
        let t = t / MS;
        h.ack(t + 100, s(4));
        for i in 1..=3 {
            h.ack(t + 100 + i, s(4));
        }
        assert_eq!(h.tx.stats.fast_retransmits, u64::from(!ns2), "ns2 = {ns2}");
        if ns2 {
            h.ack(t + 200, s(5));
            let mut out = vec![];
            for i in 1..=3 {
                out.extend(h.ack(t + 200 + i, s(5)));
            }
            assert_eq!(h.tx.stats.fast_retransmits, 1);
            assert!(out.contains(&(s(5), true)), "{out:?}");
        }
    }
}

// tcp-vegas.cc `recv`: the fine-grained RTT sample is the segment the ACK names (the highest
// it covers) if v_transmits_ of that segment is 1, and the per-ACK block runs on the ACK that
// ends recovery too. The standard profile's Karn rule drops the sample when any segment of
// the range was resent, and its recovery-ending ACK skips Vegas.
//   0..3 sent at 0; three duplicates of 0 at 10-12 ms -> 0 resent; ACK 4 at 400 ms.
#[test]
fn ns2_vegas_times_the_acknowledged_segment_even_after_a_retransmission_below_it() {
    for ns2 in [true, false] {
        let mut h = Script::new(4.0, ns2);
        h.sent();
        for t in 10..13 {
            h.ack(t, s(0));
        }
        assert_eq!(h.tx.stats.fast_retransmits, 1);
        assert_eq!(h.tx.ns2_vegas_sample(s(4), 400 * MS), ns2.then_some(400 * MS));
        h.ack(400, s(4));
        // First sample 400 ms: v_timeout_ = 1.5 x 400 ms (hopsim's seeding).
        let fine = h.tx.fine_grained_timeout_ns();
        assert_eq!(fine, ns2.then_some(600 * MS), "ns2 = {ns2}");
    }
}

// tcp.cc `output`, `newack`, `rtt_update`: one timed segment, ticks, no G term.
//   0..3 sent at 0 (0 timed); ACK 1 at 100 ms: 10 ticks, RTO 10 + 4 x 5 = 30 ticks; 4, 5
//   sent then (4 timed). ACK 2 at 150 ms covers no timed segment: no sample, RTO still
//   300 ms from then. The standard estimator takes both samples (100 and 150 ms).
#[test]
fn ns2_vegas_coarse_timer_times_one_segment_in_ticks() {
    let mut fired = vec![];
    for ns2 in [true, false] {
        let mut h = Script::new(4.0, ns2);
        h.sent();
        h.ack(100, s(1));
        h.ack(150, s(2));
        fired.push(h.timeout().0);
    }
    assert_eq!(fired[0], 450 * MS, "150 ms + 300 ms");
    // RFC 6298: SRTT 100 -> 106.25, RTTVAR 50 -> 50: RTO 306.25 ms.
    assert_eq!(fired[1], 150 * MS + 306_250_000);
}

// reset_rtx_timer(1) on Vegas' fast retransmit: backoff x2 and the timing cancelled; the
// backoff ends only when a segment timed after it is acknowledged.
//   0..3 sent, 0 timed; ACK 1 at 100 ms (RTO 300 ms); 4 sent (timed); three duplicates of 1
//   -> 1 resent, RTO 600 ms, timing off; ACK 5 at 400 ms (covers 4, timed before the
//   retransmit, now cancelled): no sample, RTO stays 600 ms.
#[test]
fn ns2_vegas_backoff_outlives_acks_of_untimed_segments() {
    let mut h = Script::new(4.0, true);
    h.sent();
    h.ack(100, s(1));
    for t in 110..113 {
        h.ack(t, s(1));
    }
    assert_eq!(h.tx.stats.fast_retransmits, 1);
    h.ack(400, s(5));
    assert_eq!(h.timeout().0, 1000 * MS, "400 ms + 2 x 300 ms");
}

// tcp-vegas.cc `recv`: the reduced window is inflated by the duplicates counted so far
// (`cwnd_ = v_newcwnd_ + dupacks_`), 1 when the first duplicate finds snd_una expired; the
// count then jumps to numdupacks_ (the segment had been sent once), so the next duplicate
// inflates by one and the next new ACK deflates to v_newcwnd_ with ssthresh 2. The standard
// profile inflates by the threshold.
//   0 sent at 0; ACK 1 at 100 ms (sample 100 ms: fine timeout 150 ms; ns-2's first period of
//   slow start does not grow, `v_inc_flag_` starting at 1: cwnd 1, 1 sent; the standard
//   grows: 1 and 2); duplicate of 1 at 400 ms: 1 expired -> resent, v_newcwnd_ = 2 (a window
//   of 3 or less), cwnd 2 + 1, 2 and 3 sent; duplicate at 401 ms: cwnd 4, 4 sent; ACK 5 at
//   600 ms: cwnd 2, ssthresh 2 (then Vegas' own +1/2: the period's diff is 0).
#[test]
fn ns2_vegas_inflates_by_the_duplicates_seen_not_the_threshold() {
    for (ns2, entered) in [(true, 3.0), (false, 5.0)] {
        let mut h = Script::new(1.0, ns2);
        h.sent();
        let first = if ns2 { vec![(s(1), false)] } else { vec![(s(1), false), (s(2), false)] };
        assert_eq!(h.ack(100, s(1)), first, "ns2 = {ns2}");
        let out = h.ack(400, s(1));
        assert_eq!(out[0], (s(1), true), "ns2 = {ns2}");
        assert_eq!(h.tx.cwnd(), entered, "ns2 = {ns2}");
        h.ack(401, s(1));
        assert_eq!(h.tx.cwnd(), entered + 1.0, "ns2 = {ns2}");
        if ns2 {
            assert_eq!(out[1..], [(s(2), false), (s(3), false)]);
            h.ack(600, s(5));
            assert_eq!((h.tx.cwnd(), h.tx.ssthresh()), (2.5, 2.0));
        }
    }
}

// tcp-vegas.cc `timeout` clears v_newcwnd_; duplicates the `bug_fix_` guard bars from a fast
// retransmit still inflate past numdupacks_, and the next new ACK deflates to v_newcwnd_ = 0
// (`recv`). A window of 0 sends nothing (tcp.cc `window()`), every new ACK restarts the timer
// even with nothing outstanding (`newtimer`), and its expiry is a timeout like any other
// (`slow_start_restart_`), which reopens the window at 2 (v_slowstart_).
//   0..3 sent at 0; timeout at 1 s: cwnd 2, 0 and 1 resent; four duplicates of 0: the fourth
//   inflates to 3 and 2 is resent; ACK 1: cwnd 0, nothing sent; ACK 2, ACK 3 (all acknowledged):
//   nothing sent; the timer expires: 3 resent, 4 sent.
#[test]
fn ns2_vegas_window_of_zero_after_a_timeout_ends_with_the_next_timeout() {
    let mut h = Script::new(4.0, true);
    h.sent();
    let (t, _) = h.timeout();
    let t = t / MS;
    let mut out = vec![];
    for i in 1..=4 {
        out.extend(h.ack(t + 10 + i, s(0)));
    }
    assert_eq!(h.tx.stats.fast_retransmits, 0, "barred by bug_fix_");
    assert_eq!(out, vec![(s(2), true)], "the fourth duplicate inflates to 3");
    assert_eq!(h.ack(t + 100, s(1)), vec![]);
    assert_eq!((h.tx.cwnd(), h.tx.ssthresh()), (0.0, 2.0), "deflated to v_newcwnd_ = 0");
    assert_eq!(h.ack(t + 150, s(2)), vec![]);
    assert_eq!(h.ack(t + 200, s(3)), vec![]);
    let (_, sent) = h.timeout();
    assert_eq!(h.tx.stats.timeouts, 2);
    assert_eq!(sent, vec![(s(3), true), (s(4), false)]);
}

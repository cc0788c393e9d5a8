//! Sender reactions to ACK, duplicate ACK, partial ACK and timeout sequences, written from
//! RFC 5681, RFC 6582, RFC 6675 and RFC 6298.

use super::config::{TcpSpec, TcpVariant};
use super::limits::LimitPolicy;
use super::sender::{RetransmitGuard, SendSegment, SenderConfig, TcpCtx, TcpSender};
use super::test_support::{self, s};
use super::TcpTimer;
use super::{congestion_control, sack_option_bytes};
use crate::engine::rng::{Purpose, Rng};
use crate::engine::sched::Scheduler;
use crate::ids::SeqNo;

const MS: u64 = 1_000_000;

struct Harness {
    tx: TcpSender,
    sched: Scheduler<(TcpTimer, u32)>,
    out: Vec<SendSegment>,
    now: u64,
}

impl Harness {
    fn new(variant: TcpVariant, initial_window: f64, max_window: Option<f64>) -> Harness {
        Harness::with_pacing(variant, initial_window, max_window, false)
    }

    fn with_pacing(
        variant: TcpVariant,
        initial_window: f64,
        max_window: Option<f64>,
        pacing: bool,
    ) -> Harness {
        Harness::with_options(variant, initial_window, max_window, pacing, false)
    }

    /// `ns2`: the ns2 profile's sender (limited transmit for AIMD variants, ssthresh from
    /// the window).
    fn with_options(
        variant: TcpVariant,
        initial_window: f64,
        max_window: Option<f64>,
        pacing: bool,
        ns2: bool,
    ) -> Harness {
        let cfg = SenderConfig {
            initial_window,
            limit_policy: max_window.map_or(LimitPolicy::None, LimitPolicy::Fixed),
            pacing,
            limited_transmit: ns2 && variant != TcpVariant::Vegas,
            ns2_vegas: ns2 && variant == TcpVariant::Vegas,
            guard: match (ns2, variant) {
                (true, TcpVariant::Reno | TcpVariant::NewReno) => RetransmitGuard::Ns2,
                (true, TcpVariant::Sack) => RetransmitGuard::Ns2Sack1,
                _ => RetransmitGuard::Rfc6582,
            },
            ..test_support::sender_config(&TcpSpec { variant, ..TcpSpec::default() })
        };
        let rto = test_support::rto();
        let mut h = Harness {
            tx: TcpSender::new(
                cfg,
                congestion_control(
                    &TcpSpec { variant, ..TcpSpec::default() },
                    ns2,
                    Rng::derive(1, Purpose::Transport, 0),
                ),
                rto,
            ),
            sched: Scheduler::with_capacity(8),
            out: Vec::new(),
            now: 0,
        };
        let mut cx = TcpCtx { now: 0, timers: &mut h.sched, out: &mut h.out };
        h.tx.start(&mut cx);
        h
    }

    fn sent(&mut self) -> Vec<(SeqNo, bool)> {
        self.out.drain(..).map(|s| (s.seg, s.retransmission)).collect()
    }

    fn ack(&mut self, ack: SeqNo, sack: &[(SeqNo, SeqNo)]) -> Vec<(SeqNo, bool)> {
        self.now += MS;
        let mut cx = TcpCtx { now: self.now, timers: &mut self.sched, out: &mut self.out };
        self.tx.on_ack(&mut cx, ack, sack, None);
        self.sent()
    }

    /// Fire the pending retransmission timer.
    fn timeout(&mut self) -> Vec<(SeqNo, bool)> {
        let mut fired = false;
        while let Some((t, ev)) = self.sched.pop() {
            if let (TcpTimer::Rto, generation) = ev {
                self.now = t;
                let mut cx = TcpCtx { now: t, timers: &mut self.sched, out: &mut self.out };
                let before = self.tx.stats.timeouts;
                self.tx.on_timeout(&mut cx, generation);
                if self.tx.stats.timeouts > before {
                    fired = true;
                    break;
                }
            }
        }
        assert!(fired, "a live RTO timer was pending");
        self.sent()
    }
}

fn new_segs(r: std::ops::Range<SeqNo>) -> Vec<(SeqNo, bool)> {
    r.start.until(r.end).map(|seg| (seg, false)).collect()
}

#[test]
fn slow_start_opens_one_segment_per_ack_then_avoidance() {
    let mut h = Harness::new(TcpVariant::NewReno, 2.0, None);
    assert_eq!(h.sent(), new_segs(s(0)..s(2)), "initial window of two segments");
    assert_eq!(h.ack(s(1), &[]), new_segs(s(2)..s(4)), "cwnd 3: one freed + one more");
    assert_eq!(h.ack(s(2), &[]), new_segs(s(4)..s(6)));
    assert_eq!(h.tx.cwnd(), 4.0);
}

/// Fill the pipe to 10 segments outstanding with cwnd 10 (initial window 10).
fn ten_outstanding(variant: TcpVariant) -> Harness {
    let mut h = Harness::new(variant, 10.0, None);
    assert_eq!(h.sent(), new_segs(s(0)..s(10)));
    h
}

#[test]
fn three_duplicate_acks_trigger_fast_retransmit_and_inflation() {
    let mut h = ten_outstanding(TcpVariant::Reno);
    // Segment 0 lost; segments 1.. arrive and each produces a duplicate ACK for 0.
    assert_eq!(h.ack(s(0), &[]), vec![]);
    assert_eq!(h.ack(s(0), &[]), vec![]);
    assert_eq!(h.ack(s(0), &[]), vec![(s(0), true)], "fast retransmit on the third duplicate");
    assert_eq!(h.tx.ssthresh(), 5.0, "FlightSize 10 / 2");
    assert_eq!(h.tx.cwnd(), 8.0, "ssthresh + 3");
    assert_eq!(h.tx.stats.fast_retransmits, 1);
    // Each further duplicate inflates by one; new data once cwnd exceeds the outstanding 10.
    for _ in 0..2 {
        assert_eq!(h.ack(s(0), &[]), vec![]);
    }
    assert_eq!(h.ack(s(0), &[]), new_segs(s(10)..s(11)));
    // Reno leaves recovery on the first new ACK, deflating to ssthresh (RFC 5681 step 6).
    h.ack(s(11), &[]);
    assert_eq!(h.tx.cwnd(), 5.0);
}

#[test]
fn newreno_partial_ack_retransmits_next_hole_and_full_ack_exits() {
    let mut h = ten_outstanding(TcpVariant::NewReno);
    // Segments 0 and 4 lost.
    for _ in 0..3 {
        h.ack(s(0), &[]);
    }
    assert_eq!(h.tx.cwnd(), 8.0);
    // Retransmitted 0 arrives: cumulative ACK to 4 (partial: recover = 10).
    let sent = h.ack(s(4), &[]);
    assert_eq!(sent[0], (s(4), true), "partial ACK: retransmit the next hole at once");
    // cwnd deflated by the 4 acknowledged segments, plus one: 8 - 4 + 1 = 5.
    assert_eq!(h.tx.cwnd(), 5.0);
    assert_eq!(h.tx.stats.fast_retransmits, 1, "no new fast retransmit for the second hole");
    // Retransmitted 4 arrives: everything up to 10 acknowledged: full ACK.
    let flight = (h.tx.highest_sent() - s(10)) as f64;
    h.ack(s(10), &[]);
    assert_eq!(h.tx.cwnd(), 5.0_f64.min(flight.max(1.0) + 1.0), "RFC 6582 3.2 step 3 option 1");
}

#[test]
fn sack_recovery_repairs_several_holes_in_one_round_trip() {
    let mut h = ten_outstanding(TcpVariant::Sack);
    // 0 and 2 lost: receiver reports blocks as 1, 3, 4, 5 arrive.
    assert_eq!(h.ack(s(0), &[(s(1), s(2))]), vec![]);
    assert_eq!(h.ack(s(0), &[(s(3), s(4)), (s(1), s(2))]), vec![]);
    let sent = h.ack(s(0), &[(s(3), s(5)), (s(1), s(2))]);
    assert_eq!(sent.first(), Some(&(s(0), true)), "3 SACKed above 0: lost, retransmitted");
    assert_eq!(h.tx.cwnd(), 5.0, "RFC 6675: cwnd = ssthresh");
    // pipe = 4 outstanding above + the retransmission = 5 = cwnd: nothing may go yet.
    assert_eq!(h.ack(s(0), &[(s(3), s(6)), (s(1), s(2))]), vec![]);
    // One more SACKed segment leaves the network: pipe 4 < cwnd 5, the next lost segment goes,
    // without waiting for a partial ACK as NewReno would.
    assert_eq!(h.ack(s(0), &[(s(3), s(7)), (s(1), s(2))]), vec![(s(2), true)]);
    assert_eq!(h.tx.stats.fast_retransmits, 1);
}

#[test]
fn sack_option_length_is_a_multiple_of_four() {
    assert_eq!(sack_option_bytes(0), 0);
    assert_eq!(sack_option_bytes(1), 12);
    assert_eq!(sack_option_bytes(3), 28);
}

#[test]
fn timeout_collapses_window_backs_off_and_goes_back_n() {
    let mut h = ten_outstanding(TcpVariant::NewReno);
    let sent = h.timeout();
    assert_eq!(sent, vec![(s(0), true)], "loss window of one segment");
    assert_eq!(h.tx.cwnd(), 1.0);
    assert_eq!(h.tx.ssthresh(), 5.0);
    assert_eq!(h.tx.stats.timeouts, 1);
    let t1 = h.now;
    let sent = h.timeout();
    assert_eq!(sent, vec![(s(0), true)]);
    assert_eq!(h.now - t1, 2000 * MS, "RTO doubled (initial 1 s)");
    // The ACK of the retransmission is not an RTT sample (Karn); slow start resumes and the
    // rest is resent from snd_una.
    assert_eq!(h.ack(s(1), &[]), vec![(s(1), true), (s(2), true)]);
    assert!(h.tx.stats.rtt_ms.count() == 0);
}

#[test]
fn duplicate_acks_after_a_timeout_do_not_start_fast_retransmit() {
    let mut h = ten_outstanding(TcpVariant::NewReno);
    h.timeout();
    for _ in 0..5 {
        h.ack(s(0), &[]);
    }
    assert_eq!(h.tx.stats.fast_retransmits, 0, "RFC 6582 section 4: ACK below recover");
}

#[test]
fn fractional_window_limit_caps_segments_in_flight() {
    let mut h = Harness::new(TcpVariant::NewReno, 2.0, Some(2.5));
    assert_eq!(h.sent(), new_segs(s(0)..s(2)));
    assert_eq!(h.ack(s(1), &[]), new_segs(s(2)..s(3)), "floor(2.5) = 2 in flight");
    assert_eq!(h.ack(s(3), &[]), new_segs(s(3)..s(5)));
    assert!(h.tx.cwnd() <= 2.5);
}

#[test]
fn rtt_samples_feed_the_estimator() {
    let mut h = Harness::new(TcpVariant::NewReno, 1.0, None);
    h.sent();
    h.ack(s(1), &[]);
    assert_eq!(h.tx.stats.rtt_ms.count(), 1);
    assert!((h.tx.stats.rtt_ms.mean().unwrap() - 1.0).abs() < 1e-9);
}

/// Fire pacing timers until `until`, collecting what they release with the times.
fn pace_until(h: &mut Harness, until: u64) -> Vec<(u64, SeqNo)> {
    let mut released = vec![];
    while let Some(t) = h.sched.peek_time() {
        if t > until {
            break;
        }
        let (t, ev) = h.sched.pop().unwrap();
        if let (TcpTimer::Pace, generation) = ev {
            h.now = t;
            let mut cx = TcpCtx { now: t, timers: &mut h.sched, out: &mut h.out };
            h.tx.on_pace_timer(&mut cx, generation);
            released.extend(h.out.drain(..).map(|s| (t, s.seg)));
        }
    }
    released
}

#[test]
fn pacing_spreads_a_window_over_the_round_trip() {
    let mut h = Harness::with_pacing(TcpVariant::NewReno, 1.0, None, true);
    assert_eq!(h.sent(), new_segs(s(0)..s(1)), "no RTT sample yet: no pacing");
    // RTT 1 ms; slow start: cwnd 2 allows two segments, but only one leaves now.
    assert_eq!(h.ack(s(1), &[]), new_segs(s(1)..s(2)));
    let t0 = h.now;
    let later = pace_until(&mut h, t0 + 10 * MS);
    // SRTT 1 ms / cwnd 2 = 0.5 ms between segments.
    assert_eq!(later, vec![(t0 + MS / 2, s(2))]);
}

#[test]
fn fractional_window_is_a_rate_of_one_segment_per_rtt_over_cwnd() {
    // A window of 0.5 segment (Vegas-W after repeated timeouts) with pacing off.
    let mut h = Harness::new(TcpVariant::NewReno, 1.0, Some(0.5));
    assert_eq!(h.sent(), new_segs(s(0)..s(1)));
    assert_eq!(h.ack(s(1), &[]), vec![], "released by the rate timer, not the ACK clock");
    let later = pace_until(&mut h, 10 * MS);
    // One segment every SRTT / 0.5 = 2 ms after the previous one (sent at 0).
    assert_eq!(later.first(), Some(&(2 * MS, s(1))));
}

// ns-2.35 (ns2 profile), written from tcp.cc `send_one` and `slowdown`, tcp-newreno.cc `recv`:
//
//   segments 0..4 in flight, 0 lost
//   dup 1 -> segment 4 (limited transmit)    dup 2 -> segment 5    dup 3 -> 0 again
#[test]
fn ns2_limited_transmit_sends_one_new_segment_per_early_duplicate() {
    let mut h = Harness::with_options(TcpVariant::NewReno, 4.0, None, false, true);
    assert_eq!(h.sent(), new_segs(s(0)..s(4)));
    assert_eq!(h.ack(s(0), &[]), new_segs(s(4)..s(5)), "first duplicate: one new segment");
    assert_eq!(h.ack(s(0), &[]), new_segs(s(5)..s(6)), "second duplicate: one more");
    assert_eq!(h.ack(s(0), &[]), vec![(s(0), true)], "third: fast retransmit");
    assert_eq!(h.tx.ssthresh(), 2.0, "half the window of 4 (not of the 6 in flight)");
    // Without the profile (RFC 5681 without RFC 3042): nothing before the third duplicate.
    let mut std = Harness::new(TcpVariant::NewReno, 4.0, None);
    std.sent();
    assert_eq!(std.ack(s(0), &[]), vec![]);
    assert_eq!(std.ack(s(0), &[]), vec![]);
    assert_eq!(std.ack(s(0), &[]), vec![(s(0), true), (s(4), false)], "cwnd 2 + 3 > 4 in flight");
    assert_eq!(std.tx.ssthresh(), 2.0);
}

#[test]
fn ns2_limited_transmit_stays_within_the_window_limit() {
    // window_ = 4 (the CWL): t_seqno_ <= highest_ack_ + wnd_ forbids a fifth segment.
    let mut h = Harness::with_options(TcpVariant::Reno, 4.0, Some(4.0), false, true);
    assert_eq!(h.sent(), new_segs(s(0)..s(4)));
    assert_eq!(h.ack(s(0), &[]), vec![]);
    assert_eq!(h.ack(s(0), &[]), vec![]);
    assert_eq!(h.ack(s(0), &[]), vec![(s(0), true)]);
}

#[test]
fn ns2_vegas_has_no_limited_transmit() {
    let mut h = Harness::with_options(TcpVariant::Vegas, 4.0, None, false, true);
    let first = h.sent();
    assert!(!first.is_empty());
    let out = h.ack(s(0), &[]);
    assert!(out.iter().all(|s| s.1), "no new segment on an early duplicate: {out:?}");
}

// tcp-vegas.cc: the fast retransmit calls reset_rtx_timer(1), which backs the coarse timer off.
//   0..4 sent, 0 lost; three duplicates -> 0 resent; then silence until the RTO fires
#[test]
fn ns2_vegas_fast_retransmit_backs_the_coarse_timer_off() {
    let mut fired = Vec::new();
    for ns2 in [false, true] {
        let mut h = Harness::with_options(TcpVariant::Vegas, 4.0, None, false, ns2);
        h.sent();
        for _ in 0..3 {
            h.ack(s(0), &[]);
        }
        assert_eq!(h.tx.stats.fast_retransmits, 1);
        h.timeout();
        fired.push(h.now);
    }
    // The initial RTO is 1 s: the standard profile fires 1 s after the retransmission,
    // ns-2's Vegas 2 s after it.
    assert_eq!(fired[1] - fired[0], 1000 * MS, "{fired:?}");
}

// tcp-vegas.cc guards fast retransmit only with the recovery point of a timeout:
//   0..8 sent, 0 and 2 lost: 3 dups -> 0 resent; ACK 2 (0, 1 arrived); 3 dups for 2 ->
//   ns-2 resends 2 at once, the standard (RFC 6582 section 4 guard) waits for the timer.
#[test]
fn ns2_vegas_may_fast_retransmit_twice_in_one_window() {
    for ns2 in [false, true] {
        let mut h = Harness::with_options(TcpVariant::Vegas, 8.0, None, false, ns2);
        h.sent();
        for _ in 0..3 {
            h.ack(s(0), &[]);
        }
        h.ack(s(2), &[]);
        let mut resent = Vec::new();
        for _ in 0..3 {
            resent.extend(h.ack(s(2), &[]).into_iter().filter(|s| s.1));
        }
        assert_eq!(resent.contains(&(s(2), true)), ns2, "ns2 = {ns2}: {resent:?}");
    }
}

// ns-2's guard (tcp-newreno.cc `dupack_action`, `highest_ack_ > recover_`) is one segment
// stricter than RFC 6582's (snd_una >= recover): the ACK must pass the highest segment sent
// at the timeout. A spurious timeout, its originals' ACKs late:
//   0..9 sent; RTO -> 0 resent (recover_ = 9); ACK 10 (the originals) -> 10, 11 sent;
//   3 dups of 10 (the receiver's copies of the go-back-N) -> RFC 6582: 10 resent; ns-2: no
//   ACK 11 -> 3 dups of 11 -> both resend 11
#[test]
fn ns2_newreno_bars_fast_retransmit_until_the_ack_passes_the_timeouts_highest() {
    for ns2 in [false, true] {
        let mut h = Harness::with_options(TcpVariant::NewReno, 10.0, None, false, ns2);
        assert_eq!(h.sent(), new_segs(s(0)..s(10)));
        assert_eq!(h.timeout(), vec![(s(0), true)]);
        assert_eq!(h.ack(s(10), &[]), new_segs(s(10)..s(12)));
        for _ in 0..3 {
            h.ack(s(10), &[]);
        }
        assert_eq!(h.tx.stats.fast_retransmits, u64::from(!ns2), "ns2 = {ns2}");
        // RFC 6582: ACK 11 is partial and resends 11 at once; ns-2 waits for three dups.
        let mut resent: Vec<_> = h.ack(s(11), &[]).into_iter().filter(|s| s.1).collect();
        for _ in 0..3 {
            resent.extend(h.ack(s(11), &[]).into_iter().filter(|s| s.1));
        }
        assert!(resent.contains(&(s(11), true)), "ns2 = {ns2}: {resent:?}");
    }
}

// After a fast recovery that ended, duplicates of its last segment: ns-2's Reno and NewReno
// wait (highest_ack_ = recover_), its Sack1 has cleared recover_ at the end of the recovery
// (tcp-sack1.cc `recv`) and resends.
//   0..9 sent, 0 lost: dups 1, 2 -> 10, 11 (limited transmit); dup 3 -> 0 resent
//   (recover_ = 11); ACK 12 ends it; 3 dups of 12
#[test]
fn ns2_guard_after_a_completed_recovery_per_agent() {
    for (variant, ns2, resends) in [
        (TcpVariant::NewReno, true, false),
        (TcpVariant::Reno, true, false),
        (TcpVariant::Sack, true, true),
    ] {
        let mut h = Harness::with_options(variant, 10.0, None, false, ns2);
        assert_eq!(h.sent(), new_segs(s(0)..s(10)));
        for _ in 0..3 {
            h.ack(s(0), &[]);
        }
        assert_eq!(h.tx.stats.fast_retransmits, 1, "{variant:?}");
        h.ack(s(12), &[]);
        for _ in 0..3 {
            h.ack(s(12), &[]);
        }
        let label = format!("{variant:?} ns2 = {ns2}");
        assert_eq!(h.tx.stats.fast_retransmits, 1 + u64::from(resends), "{label}");
    }
}

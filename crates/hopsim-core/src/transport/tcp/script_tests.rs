//! Scripted exchanges with the sender, in the style of smoltcp's socket tests: each test is a
//! packet trace read top to bottom, `recv!` an ACK from the peer, `send!` what the sender
//! must put on the wire in answer, `timeout!` its retransmission timer. Segments are counted
//! from 0, an ACK names the next segment expected, SACK blocks are `start..end`. Expectations
//! come from the RFC text cited beside them, not from running the code.

use super::congestion_control;
use super::limits::LimitPolicy;
use super::sender::{SendSegment, SenderConfig, TcpCtx, TcpSender};
use super::test_support::{self, s};
use super::TcpTimer;
use crate::engine::rng::{Purpose, Rng};
use crate::engine::sched::Scheduler;
use crate::ids::SeqNo;
use crate::transport::tcp::config::{TcpSpec, TcpVariant};

const MS: u64 = 1_000_000;

/// The sender and its surroundings; the clock moves 1 ms per ACK unless a timer fires.
struct Peer {
    tx: TcpSender,
    sched: Scheduler<(TcpTimer, u32)>,
    out: Vec<SendSegment>,
    now_ns: u64,
}

impl Peer {
    /// A bulk sender with initial window `iw`, receiver window 64, DupThresh 3, initial
    /// RTO 1 s (RFC 6298 2.1), the standard (not ns-2) profile.
    fn new(variant: TcpVariant, iw: f64, limit: LimitPolicy) -> Peer {
        let cfg = SenderConfig {
            initial_window: iw,
            limit_policy: limit,
            ..test_support::sender_config(&TcpSpec { variant, ..TcpSpec::default() })
        };
        let cc = congestion_control(
            &TcpSpec { variant, ..TcpSpec::default() },
            false,
            Rng::derive(1, Purpose::Transport, 0),
        );
        let rto = test_support::rto();
        let mut p = Peer {
            tx: TcpSender::new(cfg, cc, rto),
            sched: Scheduler::with_capacity(8),
            out: Vec::new(),
            now_ns: 0,
        };
        let mut cx = TcpCtx { now: 0, timers: &mut p.sched, out: &mut p.out };
        p.tx.start(&mut cx);
        p
    }

    fn ack(&mut self, ack: SeqNo, sack: &[(SeqNo, SeqNo)]) {
        self.now_ns += MS;
        let mut cx = TcpCtx { now: self.now_ns, timers: &mut self.sched, out: &mut self.out };
        self.tx.on_ack(&mut cx, ack, sack, None);
    }

    /// Run the scheduler to the next live retransmission timeout.
    fn timeout(&mut self) {
        let before = self.tx.stats.timeouts;
        while self.tx.stats.timeouts == before {
            let (t, ev) = self.sched.pop().expect("a retransmission timer is pending");
            if let (TcpTimer::Rto, generation) = ev {
                self.now_ns = t;
                let mut cx = TcpCtx { now: t, timers: &mut self.sched, out: &mut self.out };
                self.tx.on_timeout(&mut cx, generation);
            }
        }
    }

    /// What went on the wire since the last look: (segment, retransmission).
    fn wire(&mut self) -> Vec<(SeqNo, bool)> {
        self.out.drain(..).map(|s| (s.seg, s.retransmission)).collect()
    }
}

/// Segments of one kind on the wire: `new 4`, `new 4..6`, `rexmit 0` (segment numbers as
/// literals, made [`SeqNo`]s here).
trait Segs {
    fn segs(self) -> Vec<SeqNo>;
}
impl Segs for u32 {
    fn segs(self) -> Vec<SeqNo> {
        vec![s(self)]
    }
}
impl Segs for std::ops::Range<u32> {
    fn segs(self) -> Vec<SeqNo> {
        s(self.start).until(s(self.end)).collect()
    }
}
fn on_wire(kind: &str, segs: impl Segs) -> Vec<(SeqNo, bool)> {
    let rexmit = match kind {
        "new" => false,
        "rexmit" => true,
        _ => panic!("send!: `new` or `rexmit`, not `{kind}`"),
    };
    segs.segs().into_iter().map(|seg| (seg, rexmit)).collect()
}

/// An ACK from the peer reaches the sender: `recv!(p, ack 3)`, `recv!(p, dupack 0)` (asserts
/// it repeats snd_una), `recv!(p, dupack 0, sack [3..5, 1..2])`.
macro_rules! recv {
    ($p:expr, ack $ack:literal $(, sack [$($a:literal..$b:literal),*])?) => {
        $p.ack(s($ack), &[$($((s($a), s($b))),*)?])
    };
    ($p:expr, dupack $ack:literal $(, sack [$($a:literal..$b:literal),*])?) => {{
        assert_eq!($p.tx.snd_una(), s($ack), "line {}: not a duplicate", line!());
        $p.ack(s($ack), &[$($((s($a), s($b))),*)?])
    }};
}

/// What the sender put on the wire since the last `send!`, in order: `send!(p, nothing)`,
/// `send!(p, new 4..6)`, `send!(p, rexmit 0, new 10)`.
macro_rules! send {
    ($p:expr, nothing) => {
        assert_eq!($p.wire(), vec![], "line {}", line!())
    };
    ($p:expr, $($kind:ident $segs:expr),+) => {{
        let mut want = Vec::new();
        $(want.extend(on_wire(stringify!($kind), $segs));)+
        assert_eq!($p.wire(), want, "line {}", line!());
    }};
}

/// The retransmission timer fires, at `at_ms` milliseconds.
macro_rules! timeout {
    ($p:expr, at_ms $t:literal) => {{
        $p.timeout();
        assert_eq!($p.now_ns, $t * MS, "line {}: RTO fired at another time", line!());
    }};
}

#[test]
fn slow_start_adds_one_segment_per_ack() {
    // RFC 5681 3.1: in slow start cwnd grows by at most SMSS per ACK, so an ACK for one
    // segment releases two, and an ACK for two segments releases three (no byte counting).
    let mut p = Peer::new(TcpVariant::NewReno, 1.0, LimitPolicy::None);
    send!(p, new 0);
    recv!(p, ack 1);
    send!(p, new 1..3);
    recv!(p, ack 2);
    send!(p, new 3..5);
    recv!(p, ack 4);
    send!(p, new 5..8);
    assert_eq!(p.tx.cwnd(), 4.0);
}

#[test]
fn reno_fast_retransmit_inflates_then_deflates_on_the_first_new_ack() {
    // Segment 0 lost out of 0..10; 1..9 each bring a duplicate ACK.
    let mut p = Peer::new(TcpVariant::Reno, 10.0, LimitPolicy::None);
    send!(p, new 0..10);
    recv!(p, dupack 0);
    recv!(p, dupack 0);
    send!(p, nothing);
    // RFC 5681 3.2 steps 2-3: on the third duplicate, ssthresh = max(FlightSize / 2, 2) = 5,
    // retransmit, cwnd = ssthresh + 3.
    recv!(p, dupack 0);
    send!(p, rexmit 0);
    assert_eq!((p.tx.ssthresh(), p.tx.cwnd()), (5.0, 8.0));
    // Step 4: +1 per further duplicate; step 5: new data once cwnd exceeds the 10 in flight.
    recv!(p, dupack 0);
    recv!(p, dupack 0);
    send!(p, nothing);
    recv!(p, dupack 0);
    send!(p, new 10);
    recv!(p, dupack 0);
    send!(p, new 11);
    recv!(p, dupack 0);
    send!(p, new 12);
    recv!(p, dupack 0);
    send!(p, new 13);
    // Step 6: the ACK of the retransmission (all of 0..10) deflates cwnd to ssthresh; 10..14
    // are in flight, so one new segment fits.
    recv!(p, ack 10);
    assert_eq!(p.tx.cwnd(), 5.0);
    send!(p, new 14);
}

#[test]
fn newreno_partial_ack_resends_the_next_hole_and_full_ack_ends_recovery() {
    // Segments 0 and 5 lost out of 0..10: 1..4 and 6..9 bring eight duplicates.
    let mut p = Peer::new(TcpVariant::NewReno, 10.0, LimitPolicy::None);
    send!(p, new 0..10);
    recv!(p, dupack 0);
    recv!(p, dupack 0);
    recv!(p, dupack 0);
    send!(p, rexmit 0); // RFC 6582 3.2 step 2: recover = 10 (highest sent), cwnd = 5 + 3
    for _ in 0..2 {
        recv!(p, dupack 0);
    }
    send!(p, nothing); // step 3: cwnd 10, 10 in flight
    for _ in 0..3 {
        recv!(p, dupack 0);
    }
    send!(p, new 10..13);
    // Step 4: the retransmission of 0 arrives, the ACK stops at the hole at 5: a partial ACK.
    // Retransmit 5 at once, deflate cwnd by the 5 segments acknowledged, add back one:
    // 13 - 5 + 1 = 9, and 5..13 (8) are in flight: one new segment.
    recv!(p, ack 5);
    send!(p, rexmit 5, new 13);
    assert_eq!(p.tx.cwnd(), 9.0);
    assert_eq!(p.tx.stats.fast_retransmits, 1, "still the same recovery");
    // Step 3 option (1): a full ACK (>= recover) ends recovery with
    // cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS) = min(5, 0 + 1 + 1) = 2.
    recv!(p, ack 14);
    assert_eq!(p.tx.cwnd(), 2.0);
    send!(p, new 14..16);
}

#[test]
fn newreno_takes_no_second_recovery_for_one_window() {
    // RFC 6582 section 4: duplicates of data sent before the last timeout (below `recover`)
    // do not start a fast retransmit.
    let mut p = Peer::new(TcpVariant::NewReno, 10.0, LimitPolicy::None);
    send!(p, new 0..10);
    timeout!(p, at_ms 1000);
    send!(p, rexmit 0);
    for _ in 0..4 {
        recv!(p, dupack 0);
    }
    send!(p, nothing);
}

#[test]
fn sack_recovery_chooses_segments_by_pipe_and_next_seg() {
    // Segments 0 and 2 lost out of 0..10; the receiver reports what it holds.
    let mut p = Peer::new(TcpVariant::Sack, 10.0, LimitPolicy::None);
    send!(p, new 0..10);
    recv!(p, dupack 0, sack [1..2]);
    recv!(p, dupack 0, sack [3..4, 1..2]);
    send!(p, nothing);
    // RFC 6675 section 5 step 4: the third duplicate enters recovery, cwnd = ssthresh =
    // FlightSize / 2 = 5, and the first segment is resent.
    recv!(p, dupack 0, sack [3..5, 1..2]);
    send!(p, rexmit 0);
    assert_eq!(p.tx.cwnd(), 5.0);
    // Step C: SetPipe = 6..10 (4, not lost) + the resent 0 = 5 = cwnd: nothing may go, though
    // 2 is now lost (3 SACKed above it).
    recv!(p, dupack 0, sack [3..6, 1..2]);
    send!(p, nothing);
    // pipe = 7..10 + resent 0 = 4 < 5: NextSeg rule 1, the first lost segment not yet resent.
    recv!(p, dupack 0, sack [3..7, 1..2]);
    send!(p, rexmit 2);
    // pipe = 8..10 + resent 0 and 2 = 4: nothing lost is left to resend, NextSeg rule 2 sends
    // new data.
    recv!(p, dupack 0, sack [3..8, 1..2]);
    send!(p, new 10);
    // A cumulative ACK below the recovery point (10) keeps recovery going (section 5 step B);
    // pipe = 8..11 + resent 2 = 4: one new segment.
    recv!(p, ack 2, sack [3..8]);
    send!(p, new 11);
    // An ACK at or beyond the recovery point ends it; cwnd stays at ssthresh = 5 with one
    // segment (11) in flight.
    recv!(p, ack 11);
    assert_eq!(p.tx.cwnd(), 5.0);
    send!(p, new 12..16);
    assert_eq!(p.tx.stats.fast_retransmits, 1);
}

#[test]
fn sack_enters_recovery_when_the_scoreboard_finds_a_loss() {
    // RFC 6675 section 5: recovery starts when DupAcks >= DupThresh *or* IsLost(HighACK + 1):
    // one duplicate SACKing three segments above the hole suffices.
    let mut p = Peer::new(TcpVariant::Sack, 10.0, LimitPolicy::None);
    send!(p, new 0..10);
    recv!(p, dupack 0, sack [1..4]);
    send!(p, rexmit 0);
}

#[test]
fn rto_backs_off_and_resends_go_back_n() {
    let mut p = Peer::new(TcpVariant::NewReno, 10.0, LimitPolicy::None);
    send!(p, new 0..10);
    // RFC 6298 2.1 and 5.4-5.6: no ACK within the initial RTO of 1 s: resend the first
    // segment, double the RTO. RFC 5681 3.1 eq. 4: ssthresh = FlightSize / 2, cwnd = 1.
    timeout!(p, at_ms 1000);
    send!(p, rexmit 0);
    assert_eq!((p.tx.ssthresh(), p.tx.cwnd()), (5.0, 1.0));
    timeout!(p, at_ms 3000); // 2 s later
    send!(p, rexmit 0);
    // Karn (RFC 6298 section 3): the ACK of a retransmission is no RTT sample, the backed-off
    // RTO (4 s) stays. Slow start: cwnd 2, the rest is resent from snd_una (go-back-N, as
    // ns-2's agents do).
    recv!(p, ack 1);
    send!(p, rexmit 1..3);
    assert_eq!(p.tx.stats.rtt_ms.count(), 0);
    timeout!(p, at_ms 7001); // 5.3: restarted by the ACK at 3001 ms, with RTO 4 s
    send!(p, rexmit 1);
}

#[test]
fn window_limit_caps_the_flight() {
    // RFC 5681 section 3: never more in flight than min(cwnd, rwnd); here the congestion
    // window limit (CWL) of 4 segments plays the part of rwnd, as ns-2's window_.
    let mut p = Peer::new(TcpVariant::NewReno, 2.0, LimitPolicy::Fixed(4.0));
    send!(p, new 0..2);
    recv!(p, ack 1);
    send!(p, new 2..4); // cwnd 3
    recv!(p, ack 2);
    send!(p, new 4..6); // cwnd 4: 2..6 in flight
    recv!(p, ack 3);
    send!(p, new 6); // slow start would allow 5; the limit keeps the flight at 4
    assert_eq!(p.tx.cwnd(), 4.0, "cwnd does not grow beyond what can be used");
    recv!(p, ack 7);
    send!(p, new 7..11);
}

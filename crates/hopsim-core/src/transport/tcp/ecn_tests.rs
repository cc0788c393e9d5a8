//! The sender's and receiver's ECN rules on scripted ACKs, from RFC 3168 section 6.1.

use super::config::{TcpSpec, TcpVariant};
use super::congestion_control;
use super::ecn::EcnReceiver;
use super::sender::{AckOptions, SendSegment, SenderConfig, TcpCtx, TcpSender};
use super::test_support::{self, s};
use super::TcpTimer;
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
    /// An ECN-capable sender with `initial_window` segments sent.
    fn new(variant: TcpVariant, initial_window: f64) -> Harness {
        Harness::with_ecn(variant, initial_window, true)
    }

    fn with_ecn(variant: TcpVariant, initial_window: f64, ecn: bool) -> Harness {
        let spec = TcpSpec { variant, ecn, ..TcpSpec::default() };
        let cfg = SenderConfig { initial_window, ..test_support::sender_config(&spec) };
        let rto = test_support::rto();
        let mut tx = TcpSender::new(
            cfg,
            congestion_control(&spec, false, Rng::derive(1, Purpose::Transport, 0)),
            rto,
        );
        if ecn {
            tx.enable_ecn();
        }
        let mut h = Harness { tx, sched: Scheduler::with_capacity(8), out: Vec::new(), now: 0 };
        let mut cx = TcpCtx { now: 0, timers: &mut h.sched, out: &mut h.out };
        h.tx.start(&mut cx);
        h.out.clear();
        h
    }

    /// An ACK arrives (with ECE or not): the segments it releases (number, retransmission).
    fn ack(&mut self, ack: SeqNo, ece: bool) -> Vec<(SeqNo, bool)> {
        self.now += MS;
        let mut cx = TcpCtx { now: self.now, timers: &mut self.sched, out: &mut self.out };
        let opts = AckOptions { ece, ..AckOptions::default() };
        self.tx.on_ack_with(&mut cx, ack, &[], None, opts);
        self.out.drain(..).map(|s| (s.seg, s.retransmission)).collect()
    }
}

#[test]
fn ece_halves_the_window_once_without_retransmitting_and_cwr_goes_on_the_next_new_segment() {
    let mut h = Harness::new(TcpVariant::NewReno, 10.0);
    assert!(!h.tx.take_cwr(), "no reduction yet");
    // ACK of segment 0 with ECE: 9 still in flight, ssthresh = max(9 / 2, 2) = 4.5 (RFC 5681
    // eq. 4 as for a loss) and cwnd = ssthresh; nothing is resent.
    let sent = h.ack(s(1), true);
    assert!(sent.iter().all(|s| !s.1), "no retransmission for a mark: {sent:?}");
    assert_eq!((h.tx.cwnd(), h.tx.ssthresh()), (4.5, 4.5));
    assert_eq!(h.tx.ecn().reactions, 1);
    assert_eq!(h.tx.stats.retransmissions, 0);
    assert!(h.tx.take_cwr(), "CWR on the first new segment after the reduction");
    assert!(!h.tx.take_cwr(), "and only on that one");
    // The receiver keeps echoing until it sees CWR: ECE on the ACKs of the rest of this
    // window (up to segment 10, the first sent after the cut) changes nothing.
    let mut sent_after = Vec::new();
    for ack in 2..=10 {
        sent_after.extend(h.ack(s(ack), true));
    }
    assert_eq!(h.tx.ecn().reactions, 1, "at most once per window of data");
    assert!(h.tx.cwnd() > 4.5 && h.tx.ssthresh() == 4.5, "congestion avoidance goes on");
    assert!(sent_after.iter().all(|s| !s.1));
    assert_eq!(h.tx.ecn().ece_acks, 10);
    // An ACK beyond segment 10 (sent after the cut, with CWR): a new CE is a new event.
    let cwnd = h.tx.cwnd();
    h.ack(s(11), true);
    assert_eq!(h.tx.ecn().reactions, 2);
    assert!(h.tx.cwnd() < cwnd);
}

#[test]
fn duplicate_acks_with_ece_count_as_usual_and_recovery_ignores_ece() {
    let mut h = Harness::new(TcpVariant::NewReno, 10.0);
    h.ack(s(1), false);
    // Three duplicates of 1, the first with ECE: it cuts the window, and the third still
    // triggers fast retransmit (the dupack count is unchanged).
    h.ack(s(1), true);
    assert_eq!(h.tx.ecn().reactions, 1);
    h.ack(s(1), false);
    let sent = h.ack(s(1), false);
    assert_eq!(sent.first(), Some(&(s(1), true)), "fast retransmit on the third duplicate");
    assert_eq!(h.tx.stats.fast_retransmits, 1);
    // In recovery, ECE changes nothing.
    let (cwnd, ssthresh) = (h.tx.cwnd(), h.tx.ssthresh());
    h.ack(s(1), true);
    assert_eq!(h.tx.ecn().reactions, 1);
    assert_eq!(h.tx.ssthresh(), ssthresh);
    assert_eq!(h.tx.cwnd(), cwnd + 1.0, "only the usual inflation by the duplicate");
    assert!(h.tx.take_cwr(), "CWR after the reductions");
}

#[test]
fn cubic_takes_its_own_decrease_for_ece() {
    // RFC 9438 4.6: on ECE as on loss, ssthresh = flight x 0.7.
    let mut h = Harness::new(TcpVariant::Cubic, 10.0);
    h.ack(s(1), true);
    assert!((h.tx.ssthresh() - 9.0 * 0.7).abs() < 1e-12);
    assert_eq!(h.tx.cwnd(), h.tx.ssthresh());
}

#[test]
fn a_sender_without_ecn_ignores_ece() {
    let mut h = Harness::with_ecn(TcpVariant::NewReno, 10.0, false);
    h.ack(s(1), true);
    assert_eq!(h.tx.cwnd(), 11.0, "slow start goes on");
    assert_eq!((h.tx.ecn().reactions, h.tx.ecn().ece_acks), (0, 0));
    assert!(!h.tx.take_cwr());
}

#[test]
fn the_receiver_echoes_from_a_ce_arrival_until_cwr() {
    let mut r = EcnReceiver::new(true);
    assert!(!r.on_segment(false, false));
    assert!(!r.ece());
    assert!(r.on_segment(true, false), "a CE segment is acknowledged at once");
    assert!(r.ece());
    assert!(!r.on_segment(false, false));
    assert!(r.ece(), "ECE on every ACK until CWR");
    r.on_segment(false, true);
    assert!(!r.ece(), "CWR ends the echo");
    r.on_segment(true, true);
    assert!(r.ece(), "CE on the CWR segment itself starts it again");
    assert_eq!(r.ce_received, 2);
    let mut off = EcnReceiver::new(false);
    assert!(!off.on_segment(true, false) && !off.ece(), "not ECN-capable: no echo");
}

//! The linux host's receiver and sender together on scripted exchanges, from Linux's
//! tcp_input.c (quick ACKs, delayed ACKs, window growth) and RFC 7323 (timestamps).

use super::linux::{ATO_MAX_S, MAX_QUICKACKS, TIMEOUT_INIT_S};
use super::quick_ack::QuickAckConfig;
use super::receiver::{AckInfo, AckPolicy, ReceiverExtras, TcpReceiver};
use super::rto::RtoEstimator;
use super::sender::{AckOptions, SendSegment, SenderConfig, TcpCtx, TcpSender};
use super::test_support::{self, s};
use super::timestamps::ts_clock;
use super::{congestion_control, TcpSpec, TcpTimer};
use crate::engine::rng::{Purpose, Rng};
use crate::engine::sched::Scheduler;
use crate::engine::time::SimTime;
use crate::ids::{FlowId, SeqNo};

const MS: SimTime = 1_000_000;

fn linux_receiver() -> TcpReceiver {
    let spec = TcpSpec::linux();
    let quick = QuickAckConfig {
        ato_min_ns: 40 * MS,
        ato_max_ns: (ATO_MAX_S * 1e9) as SimTime,
        rto_ns: (TIMEOUT_INIT_S * 1e9) as SimTime,
        max_quickacks: MAX_QUICKACKS,
    };
    TcpReceiver::new(
        FlowId(0),
        AckPolicy::Delayed { timeout_ns: 40 * MS },
        true,
        spec.receiver_window,
    )
    .with_extras(ReceiverExtras {
        quick_ack: Some(quick),
        autotune_from: Some(spec.initial_receive_window),
        timestamps: true,
    })
}

/// Segment `seg` arrives at `now` carrying TSval = its send time `sent`: the ACK sent at once.
fn data(
    r: &mut TcpReceiver,
    sched: &mut Scheduler<(TcpTimer, u32)>,
    seg: SeqNo,
    sent: SimTime,
    now: SimTime,
) -> Option<AckInfo> {
    let mut out = Vec::new();
    r.on_data(&mut TcpCtx { now, timers: sched, out: &mut out }, seg, Some((ts_clock(sent), 0)));
    out.pop()
}

#[test]
fn quick_acks_for_half_the_initial_window_then_every_second_segment() {
    let (mut r, mut sched) = (linux_receiver(), Scheduler::with_capacity(8));
    let acked: Vec<SeqNo> = (0..14)
        .filter_map(|k| data(&mut r, &mut sched, s(k), k as SimTime * MS, k as SimTime * MS))
        .map(|a| a.next_expected)
        .collect();
    // rcv_wnd 10 at the first data: 10 / 2 = 5 quick ACKs, then every second full segment.
    assert_eq!(acked, [1, 2, 3, 4, 5, 7, 9, 11, 13].map(s));
    // Segment 13 is held: the delayed-ACK timer runs with the ATO (arrivals 1 ms apart,
    // below ATO_MIN / 2, keep it at its 40 ms minimum).
    let armed = std::iter::from_fn(|| sched.pop());
    let (at, (timer, _)) = armed.max_by_key(|&(_, (_, generation))| generation).unwrap();
    assert_eq!((timer, at), (TcpTimer::DelAck, 13 * MS + 40 * MS), "the live timer");
}

#[test]
fn the_window_grows_and_a_delayed_ack_echoes_the_first_of_its_segments() {
    let (mut r, mut sched) = (linux_receiver(), Scheduler::with_capacity(8));
    let mut last = None;
    for k in 0..8 {
        last = data(&mut r, &mut sched, s(k), 100 * MS + k as SimTime, 200 * MS).or(last);
    }
    let ack = last.expect("ACKs were sent");
    assert_eq!(ack.next_expected, s(7), "5 quick ACKs, then 7; 8 is held");
    // tcp_grow_window: 10 + 2 per in-order segment, 7 segments in when the ACK left.
    assert_eq!(ack.window, 10 + 2 * 7);
    // The ACK for 5 and 6 echoes segment 5's TSval (RFC 7323 4.3), not 6's.
    assert_eq!(ack.ts.map(|t| t.1), Some(ts_clock(100 * MS + 5)));
}

struct Sender {
    tx: TcpSender,
    sched: Scheduler<(TcpTimer, u32)>,
    out: Vec<SendSegment>,
}

fn linux_sender(timestamps: bool) -> Sender {
    let spec = TcpSpec { timestamps, ..TcpSpec::linux() };
    let cfg = SenderConfig {
        receiver_window: spec.receiver_window,
        initial_receiver_window: spec.initial_receive_window,
        timestamps,
        ..test_support::sender_config(&spec)
    };
    let rto = RtoEstimator::new(1000 * MS, 200 * MS, 120_000 * MS, 200 * MS);
    let mut s = Sender {
        tx: TcpSender::new(
            cfg,
            congestion_control(&spec, false, Rng::derive(1, Purpose::Transport, 0)),
            rto,
        ),
        sched: Scheduler::with_capacity(8),
        out: Vec::new(),
    };
    s.tx.start(&mut TcpCtx { now: 0, timers: &mut s.sched, out: &mut s.out });
    s
}

impl Sender {
    fn ack(&mut self, now: SimTime, ack: SeqNo, sack: &[(SeqNo, SeqNo)], opts: AckOptions) {
        let mut cx = TcpCtx { now, timers: &mut self.sched, out: &mut self.out };
        self.tx.on_ack_with(&mut cx, ack, sack, None, opts);
    }
}

#[test]
fn the_initial_window_is_ten_and_the_advertised_window_limits_the_sender() {
    let mut snd = linux_sender(true);
    assert_eq!(snd.out.len(), 10, "RFC 6928");
    snd.out.clear();
    // The receiver advertises 8: cwnd is not grown beyond what can be used (window.rs).
    snd.ack(50 * MS, s(1), &[], AckOptions { window: Some(8), ts: None, ece: false });
    assert_eq!(snd.tx.cwnd(), 8.0);
    assert_eq!(snd.tx.highest_sent(), s(10), "no new segment: 9 in flight, above 8");
    snd.ack(60 * MS, s(3), &[], AckOptions { window: Some(14), ts: None, ece: false });
    assert_eq!(snd.tx.highest_sent(), s(3) + 10, "snd_una + cwnd 8 + 2 acked segments");
}

#[test]
fn timestamps_give_an_rtt_sample_for_an_ack_that_covers_a_retransmission() {
    for timestamps in [false, true] {
        let mut snd = linux_sender(timestamps);
        let ts = |sent: SimTime| timestamps.then(|| (0, ts_clock(sent)));
        // Segment 0 is lost; 1, 2, 3 are SACKed: fast retransmit of 0 at 40 ms.
        for (k, end) in [(1u32, 2u32), (2, 3), (3, 4)] {
            let opts = AckOptions { window: Some(20), ts: ts(0), ece: false };
            snd.ack(30 * MS + k as SimTime * MS, s(0), &[(s(1), s(end))], opts);
        }
        assert!(snd.out.iter().any(|x| x.seg == s(0) && x.retransmission), "fast retransmit");
        let before = snd.tx.stats.rtt_ms.count();
        // The ACK of the retransmission echoes its TSval (sent at 33 ms): RTT 20 ms.
        snd.ack(53 * MS, s(4), &[], AckOptions { window: Some(20), ts: ts(33 * MS), ece: false });
        let samples = snd.tx.stats.rtt_ms.count() - before;
        if timestamps {
            assert_eq!(samples, 1, "RFC 7323: the echo is unambiguous");
            assert!((snd.tx.stats.rtt_ms.max().unwrap() - 20.0).abs() < 1e-3);
        } else {
            assert_eq!(samples, 0, "Karn: no sample from a retransmitted segment");
        }
    }
}

#[test]
fn a_small_fixed_window_is_opened_at_once_not_held_by_the_delayed_ack() {
    // SO_RCVBUF of one segment (no autotuning): every segment fills the window, the read
    // frees it, and tcp_cleanup_rbuf acknowledges at once (new window 1 >= 2 x 0 left).
    for window in [1u32, 2] {
        let quick = QuickAckConfig {
            ato_min_ns: 40 * MS,
            ato_max_ns: 500 * MS,
            rto_ns: 1000 * MS,
            max_quickacks: MAX_QUICKACKS,
        };
        let mut r =
            TcpReceiver::new(FlowId(0), AckPolicy::Delayed { timeout_ns: 40 * MS }, true, window)
                .with_extras(ReceiverExtras {
                    quick_ack: Some(quick),
                    autotune_from: None,
                    timestamps: false,
                });
        let mut sched = Scheduler::with_capacity(8);
        let acked = (0..20u32)
            .filter(|&k| data(&mut r, &mut sched, s(k), 0, k as SimTime * MS).is_some())
            .count();
        assert_eq!(acked, 20, "window {window}: every segment ACKed at once");
    }
    // ns-2's TCPSink has no such rule: with delayed ACKs a window of one waits for the timer.
    let mut r = TcpReceiver::new(FlowId(0), AckPolicy::Delayed { timeout_ns: 40 * MS }, true, 1);
    let mut sched = Scheduler::with_capacity(8);
    assert!(data(&mut r, &mut sched, s(0), 0, 0).is_none());
}

//! ns-2's one-way start (`sender/syn.rs`), scripted from tcp.cc `output`,
//! `set_initial_window`, tcp-vegas.cc `output` and the agents' `recv` (ns-default.tcl: `syn_`
//! true, `delay_growth_` true). Each script sends segment 0 at t = 0 (the Reno agents' SYN,
//! Vegas' first data); ACK n acknowledges everything below segment n.
//!
//!   Reno agents:  SYN ──ACK 1──▶ cwnd = windowInit_ ──▶ 1 .. windowInit_
//!   Vegas agent:  0 ──ACK 1──▶ cwnd 1 ──▶ 1 ──ACK 2──▶ windowInit_, +1 ──▶ 2, 3, 4

use super::config::{TcpSpec, TcpVariant};
use super::rto::RtoEstimator;
use super::sender::{RetransmitGuard, SendSegment, SenderConfig, TcpCtx, TcpSender};
use super::test_support::{self, s, MS};
use super::{congestion_control, recovery, TcpTimer};
use crate::engine::rng::{Purpose, Rng};
use crate::engine::sched::Scheduler;
use crate::ids::SeqNo;

struct Syn {
    tx: TcpSender,
    sched: Scheduler<(TcpTimer, u32)>,
    out: Vec<SendSegment>,
    now: u64,
}

impl Syn {
    /// The ns2 profile's agent for `variant` with ns-2's start and `windowInit_` = `iw`.
    fn new(variant: TcpVariant, iw: f64) -> Syn {
        let spec = TcpSpec { variant, ..TcpSpec::default() };
        let vegas = variant == TcpVariant::Vegas;
        let cfg = SenderConfig {
            initial_window: iw,
            recovery: recovery(&spec).for_ns2(),
            limited_transmit: !vegas,
            ns2_vegas: vegas,
            guard: match variant {
                TcpVariant::Sack => RetransmitGuard::Ns2Sack1,
                _ if vegas => RetransmitGuard::Rfc6582,
                _ => RetransmitGuard::Ns2,
            },
            delay_growth: true,
            syn: !vegas,
            ..test_support::sender_config(&spec)
        };
        let rto = match vegas {
            true => RtoEstimator::ns2(1000 * MS, 200 * MS, 60_000 * MS, 10 * MS, 0),
            false => test_support::rto(),
        };
        let cc = congestion_control(&spec, true, Rng::derive(1, Purpose::Transport, 0));
        let mut h = Syn {
            tx: TcpSender::new(cfg, cc, rto),
            sched: Scheduler::with_capacity(8),
            out: vec![],
            now: 0,
        };
        h.tx.start(&mut TcpCtx { now: 0, timers: &mut h.sched, out: &mut h.out });
        h
    }

    fn sent(&mut self) -> Vec<(SeqNo, bool)> {
        self.out.drain(..).map(|s| (s.seg, s.retransmission)).collect()
    }

    fn ack(&mut self, ack: SeqNo) -> Vec<(SeqNo, bool)> {
        self.now += 10 * MS;
        let mut cx = TcpCtx { now: self.now, timers: &mut self.sched, out: &mut self.out };
        self.tx.on_ack(&mut cx, ack, &[], None);
        self.sent()
    }

    fn timeout(&mut self) -> Vec<(SeqNo, bool)> {
        while let Some((t, (timer, generation))) = self.sched.pop() {
            if timer == TcpTimer::Rto {
                self.now = t;
                let mut cx = TcpCtx { now: t, timers: &mut self.sched, out: &mut self.out };
                let before = self.tx.stats.timeouts;
                self.tx.on_timeout(&mut cx, generation);
                if self.tx.stats.timeouts > before {
                    return self.sent();
                }
            }
        }
        panic!("no live retransmission timer");
    }
}

fn new(segs: &[u32]) -> Vec<(SeqNo, bool)> {
    segs.iter().map(|&n| (s(n), false)).collect()
}

#[test]
fn the_reno_agents_send_the_syn_alone_then_their_initial_window() {
    for variant in [TcpVariant::Reno, TcpVariant::NewReno, TcpVariant::Sack] {
        let mut h = Syn::new(variant, 4.0);
        assert_eq!(h.sent(), new(&[0]), "{variant:?}: the SYN alone, window 1");
        assert_eq!(h.tx.first_data(), s(1));
        // Slow start would give 2; `delay_growth_` sets windowInit_ after the ACK.
        assert_eq!(h.ack(s(1)), new(&[1, 2, 3, 4]), "{variant:?}");
        assert_eq!(h.tx.cwnd(), 4.0, "{variant:?}");
        assert_eq!(h.ack(s(2)), new(&[5, 6]), "{variant:?}: slow start from there");
    }
}

#[test]
fn the_vegas_agent_sends_its_first_two_segments_alone_then_three() {
    let mut h = Syn::new(TcpVariant::Vegas, 2.0);
    assert_eq!(h.sent(), new(&[0]));
    assert_eq!(h.tx.first_data(), s(0), "no SYN: segment 0 carries data");
    // The first ACK: `last_ack_` was -1, so no reset; the first period ends without growth.
    assert_eq!(h.ack(s(1)), new(&[1]));
    assert_eq!(h.tx.cwnd(), 1.0);
    // `last_ack_` == 0: cwnd = windowInit_ (2) first, then the growing period adds one.
    assert_eq!(h.ack(s(2)), new(&[2, 3, 4]));
    assert_eq!(h.tx.cwnd(), 3.0);
}

#[test]
fn a_lost_syn_is_resent_and_the_first_data_segment_may_still_be_fast_retransmitted() {
    let mut h = Syn::new(TcpVariant::NewReno, 4.0);
    assert_eq!(h.sent(), new(&[0]));
    assert_eq!(h.timeout(), vec![(s(0), true)], "the SYN goes again");
    assert_eq!(h.ack(s(1)), new(&[1, 2, 3, 4]), "its ACK still sets windowInit_");
    // Segment 1 lost. The timeout's recovery point is 1 (snd_una > recover fails), but
    // `bugfix_ss_` lets duplicates of the SYN's ACK (`highest_ack_` 0) retransmit.
    assert_eq!(h.ack(s(1)), new(&[5]), "limited transmit");
    assert_eq!(h.ack(s(1)), new(&[6]), "limited transmit");
    assert_eq!(h.ack(s(1)), vec![(s(1), true)], "fast retransmit of the first data segment");
}

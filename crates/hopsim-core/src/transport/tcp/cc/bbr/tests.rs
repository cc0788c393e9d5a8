//! BBR against the draft (draft-cardwell-iccrg-bbr-congestion-control-00) on a scripted path:
//! one bottleneck of a fixed rate with a FIFO queue and a fixed propagation delay, ACKs of
//! every segment fed back with the delivery-rate samples of `rate_sample.rs`, segments
//! released at BBR's pacing rate within its cwnd.

use super::*;
use crate::engine::rng::Purpose;
use crate::transport::tcp::cc::RateSample;
use crate::transport::tcp::rate_sample::{RateSampler, TxRecord};
use std::collections::VecDeque;

const MS: u64 = 1_000_000;

/// The scripted path and a segment-based sender driven by BBR alone.
struct Path {
    bbr: Bbr,
    w: Window,
    rate: RateSampler,
    /// Outstanding segments from `una`: record and send time.
    segs: VecDeque<(TxRecord, SimTime)>,
    una: u32,
    now: SimTime,
    next_send_ns: SimTime,
    link_free_ns: SimTime,
    /// ACK arrivals (time), in order: one per segment, no loss.
    acks: VecDeque<SimTime>,
    /// Bottleneck service time per segment (ns) and one-way propagation (send to ACK minus
    /// service), each a step function of time: (from_ns, value).
    service_ns: Vec<(SimTime, u64)>,
    prop_ns: Vec<(SimTime, u64)>,
    log: Vec<Entry>,
}

/// What BBR shows after each ACK.
struct Entry {
    t: SimTime,
    state: BbrState,
    gain: f64,
    pacing_rate: f64,
    btl_bw: f64,
    cwnd: f64,
    round: u64,
    /// The ACK's rate sample unless app-limited, and its RTT sample.
    sample: Option<f64>,
    rtt_ns: Option<SimDuration>,
}

fn at(steps: &[(SimTime, u64)], t: SimTime) -> u64 {
    steps.iter().rev().find(|s| s.0 <= t).map_or(steps[0].1, |s| s.1)
}

impl Path {
    /// 1000 segments/s (1 ms each) and 49 ms of propagation: RTprop 50 ms, BDP 50 segments.
    fn new(seed: u64) -> Path {
        Path {
            bbr: Bbr::new(2.0, Rng::derive(seed, Purpose::Transport, 0)),
            w: Window::new(2.0, f64::INFINITY),
            rate: RateSampler::default(),
            segs: VecDeque::new(),
            una: 0,
            now: 0,
            next_send_ns: 0,
            link_free_ns: 0,
            acks: VecDeque::new(),
            service_ns: vec![(0, MS)],
            prop_ns: vec![(0, 49 * MS)],
            log: Vec::new(),
        }
    }

    fn in_flight(&self) -> u32 {
        self.segs.len() as u32
    }

    fn send(&mut self) {
        let prev = TxRecord::default();
        let tx = self.rate.on_send(self.now, self.segs.is_empty(), prev);
        self.segs.push_back((tx, self.now));
        let departs = self.now.max(self.link_free_ns) + at(&self.service_ns, self.now);
        self.link_free_ns = departs;
        self.acks.push_back(departs + at(&self.prop_ns, departs));
        self.next_send_ns = self.now + self.bbr.pacing_gap_ns().unwrap();
    }

    fn ack(&mut self) {
        let prior_in_flight = self.in_flight();
        self.rate.begin_ack();
        let (mut tx, sent) = self.segs.pop_front().unwrap();
        self.una += 1;
        self.rate.on_delivered(&mut tx, sent, false, self.now);
        let rs = self.rate.generate();
        let a = AckRate {
            now: self.now,
            rs,
            delivered: self.rate.delivered(),
            prior_in_flight,
            in_flight: self.in_flight(),
            newly_lost: 0,
            state: CaState::Open,
            srtt_ns: Some(50e6),
        };
        self.bbr.on_rate_sample(&mut self.w, &a);
        if self.bbr.app_limited_now() {
            self.rate.mark_app_limited(self.in_flight());
        }
        let b = &self.bbr;
        self.log.push(Entry {
            t: self.now,
            state: b.state(),
            gain: b.pacing_gain(),
            pacing_rate: b.pacing_rate_sps(),
            btl_bw: b.btl_bw_sps(),
            cwnd: self.w.cwnd(),
            round: b.round_count(),
            sample: rs.delivery_rate_sps.filter(|_| !rs.is_app_limited),
            rtt_ns: rs.rtt_ns,
        });
    }

    /// Run the ACK clock until `end_ns`.
    fn run(&mut self, end_ns: SimTime) {
        self.run_events(end_ns);
        self.now = end_ns;
    }

    fn run_events(&mut self, end_ns: SimTime) {
        loop {
            let open = (self.in_flight() as f64) < self.w.cwnd().floor();
            let t_send = open.then(|| self.next_send_ns.max(self.now));
            let t_ack = self.acks.front().copied();
            match (t_send, t_ack) {
                (Some(s), a) if a.is_none_or(|a| s < a) => {
                    if s > end_ns {
                        return;
                    }
                    self.now = s;
                    self.send();
                }
                (_, Some(a)) => {
                    if a > end_ns {
                        return;
                    }
                    self.now = a;
                    self.acks.pop_front();
                    self.ack();
                }
                _ => unreachable!("nothing in flight and the window closed"),
            }
        }
    }

    /// State changes as (time, new state).
    fn states(&self) -> Vec<(SimTime, BbrState, u64)> {
        let mut out: Vec<(SimTime, BbrState, u64)> = vec![(0, BbrState::Startup, 0)];
        for e in &self.log {
            if e.state != out.last().unwrap().1 {
                out.push((e.t, e.state, e.round));
            }
        }
        out
    }
}

#[test]
fn startup_drain_probe_bw_with_two_bdp_and_the_bottleneck_rate() {
    let mut p = Path::new(1);
    p.run(3_000 * MS);
    let states: Vec<BbrState> = p.states().iter().map(|s| s.1).collect();
    assert_eq!(states, [BbrState::Startup, BbrState::Drain, BbrState::ProbeBw], "4.3");
    // Full pipe (4.3.2.2): the delivery rate doubles per round from 2 segments per round
    // trip to the BDP of 50 in about log2(50 / 2) = 5 rounds, then three rounds without 25%
    // growth.
    let s = p.states();
    assert!((6..=10).contains(&s[1].2), "STARTUP took {} rounds", s[1].2);
    // The samples measure the bottleneck, never more (section 3.3 of the rate draft).
    let samples: Vec<f64> = p.log.iter().filter_map(|e| e.sample).collect();
    let max = samples.iter().cloned().fold(0.0, f64::max);
    assert!((max - 1000.0).abs() < 1e-6, "max sample {max} segments/s");
    assert!((p.bbr.btl_bw_sps() - 1000.0).abs() < 1e-6);
    assert_eq!(p.bbr.rtprop_ns(), Some(50 * MS));
    // 4.2.3: cwnd = cwnd_gain x BDP + 3 quanta = 2 x 50 + 3 in PROBE_BW.
    let probe_bw: Vec<f64> = p.log.iter().filter(|e| e.t > 1_500 * MS).map(|e| e.cwnd).collect();
    assert!(probe_bw.iter().all(|&c| c == 103.0), "{:?}", &probe_bw[..5]);
}

#[test]
fn probe_bw_cycles_through_the_eight_pacing_gains() {
    let mut p = Path::new(2);
    p.run(6_000 * MS);
    let cycle: Vec<(SimTime, f64)> =
        p.log.iter().filter(|e| e.state == BbrState::ProbeBw).map(|e| (e.t, e.gain)).collect();
    // Pacing rate = pacing_gain x BtlBw at every ACK (4.2.1), the filter being full.
    for e in p.log.iter().filter(|e| e.state == BbrState::ProbeBw && e.t > 1_000 * MS) {
        let want = e.gain * e.btl_bw;
        assert!(
            (e.pacing_rate - want).abs() < 1e-9,
            "{} = {} x {}",
            e.pacing_rate,
            e.gain,
            e.btl_bw
        );
    }
    // Phases in the cycle's order (4.3.3.5), each at least RTprop except the drain phase,
    // which may end once the queue is gone.
    let mut phases: Vec<(SimTime, f64)> = Vec::new();
    for &(t, g) in &cycle {
        if phases.last().is_none_or(|l| l.1 != g)
            || g == 1.0 && t - phases.last().unwrap().0 > 51 * MS
        {
            phases.push((t, g));
        }
    }
    let pos = |g: f64| PACING_GAIN_CYCLE.iter().position(|&x| x == g).unwrap();
    for pair in phases.windows(2) {
        let (a, b) = (pair[0].1, pair[1].1);
        assert!(a == 1.0 || pos(b) == (pos(a) + 1) % 8, "{a} -> {b}");
        if a == 1.25 {
            assert!(pair[1].0 - pair[0].0 > 50 * MS, "probe phase shorter than RTprop");
        }
    }
    let probes = phases.iter().filter(|p| p.1 == 1.25).count();
    // 8 phases of ~RTprop each: one probe per ~400 ms over ~5 s.
    assert!((9..=14).contains(&probes), "{probes} probe phases");
}

#[test]
fn the_first_probe_bw_phase_is_random_but_never_the_drain_phase() {
    let mut seen = [0u32; 8];
    for seed in 0..200 {
        let mut b = Bbr::new(2.0, Rng::derive(seed, Purpose::Transport, 0));
        b.enter_probe_bw(0);
        seen[b.cycle_index] += 1;
        let mut again = Bbr::new(2.0, Rng::derive(seed, Purpose::Transport, 0));
        again.enter_probe_bw(0);
        assert_eq!(again.cycle_index, b.cycle_index, "deterministic per seed");
    }
    assert_eq!(seen[1], 0, "4.3.3.6: never start in the 3/4 phase");
    assert!(seen.iter().enumerate().all(|(i, &n)| i == 1 || n > 10), "{seen:?}");
}

#[test]
fn a_bandwidth_step_down_is_forgotten_after_ten_rounds() {
    let mut p = Path::new(3);
    p.service_ns.push((3_000 * MS, 2 * MS)); // 500 segments/s from t = 3 s
    p.run(3_000 * MS);
    assert!((p.bbr.btl_bw_sps() - 1000.0).abs() < 1e-6);
    let round_at_step = p.bbr.round_count();
    let mut by_round = Vec::new();
    while p.bbr.round_count() < round_at_step + 16 {
        let r = p.bbr.round_count();
        p.run(p.now + MS);
        if p.bbr.round_count() != r {
            by_round.push((p.bbr.round_count() - round_at_step, p.bbr.btl_bw_sps()));
        }
    }
    // The last 1000/s samples come from segments sent before the step (up to a round on):
    // the filter holds them for 10 rounds (4.1.1.5), then only the new rate is left.
    for &(r, bw) in &by_round {
        if r <= 10 {
            assert!((bw - 1000.0).abs() < 1e-6, "round {r}: {bw}");
        }
        if r >= 13 {
            assert!(bw <= 500.0 + 1e-6, "round {r}: still {bw}");
        }
    }
}

#[test]
fn probe_rtt_when_the_min_rtt_is_ten_seconds_old() {
    let mut p = Path::new(4);
    // From 2 s cross traffic keeps 5 ms in the queue: the 50 ms minimum is never seen again
    // (not even in PROBE_RTT).
    p.prop_ns.push((2_000 * MS, 54 * MS));
    p.run(14_000 * MS);
    let s = p.states();
    let seq: Vec<BbrState> = s.iter().map(|x| x.1).collect();
    assert_eq!(
        &seq[..5],
        [
            BbrState::Startup,
            BbrState::Drain,
            BbrState::ProbeBw,
            BbrState::ProbeRtt,
            BbrState::ProbeBw
        ]
    );
    // PROBE_RTT 10 s after the minimum was last seen (4.1.2.3; here DRAIN leaves the three
    // quanta queued, so PROBE_BW does not see 50 ms again), at the first ACK after that.
    let last_min = p.log.iter().rev().find(|e| e.rtt_ns == Some(50 * MS)).map(|e| e.t).unwrap();
    let entered = s[3].0;
    let late = entered as i64 - (last_min + RTPROP_FILTER_NS) as i64;
    assert!(late > 0 && late <= 2 * MS as i64, "entered {late} ns after the 10 s");
    // 4.3.4: cwnd 4 while in it; it lasts 200 ms after the flight drains, and a round.
    let during: Vec<&Entry> = p.log.iter().filter(|e| e.state == BbrState::ProbeRtt).collect();
    assert!(during.iter().all(|e| e.cwnd <= MIN_PIPE_CWND));
    let left = s[4].0;
    assert!(left - entered >= 200 * MS, "lasted {} ms", (left - entered) / MS);
    assert!(left - entered < 200 * MS + 3 * 55 * MS, "lasted {} ms", (left - entered) / MS);
    // The new minimum (55 ms) is adopted once the old one expired.
    assert_eq!(p.bbr.rtprop_ns(), Some(55 * MS));
}

/// An ACK delivering `delivered` segments, the newest sent when `prior` had been delivered.
fn ack_rate(in_flight: u32, delivered: u32, state: CaState, total: u64, prior: u64) -> AckRate {
    AckRate {
        now: 0,
        rs: RateSample {
            newly_delivered: delivered,
            prior_delivered: Some(prior),
            ..RateSample::default()
        },
        delivered: total + delivered as u64,
        prior_in_flight: in_flight + delivered,
        in_flight,
        newly_lost: 0,
        state,
        srtt_ns: None,
    }
}

#[test]
fn recovery_conserves_packets_for_a_round_and_restores_the_window() {
    // In PROBE_BW with a model of 1000 segments/s over 100 ms: target 2 x 100 + 3.
    let mut b = Bbr::new(2.0, Rng::derive(5, Purpose::Transport, 0));
    b.btl_bw.update(0, 1000.0);
    b.rtprop_ns = Some(100 * MS);
    b.filled_pipe = true;
    b.enter_probe_bw(0);
    b.pacing_gain = 1.0;
    assert_eq!(b.inflight(2.0), 203.0);
    let mut w = Window::new(40.0, f64::INFINITY);
    let loss = Loss {
        now: 0,
        flight: 40.0,
        usable: 40.0,
        dupack_threshold: 3,
        dupacks: 3,
        sent_ns: 0,
        retransmitted: false,
    };
    b.enter_sack_recovery(&mut w, &loss);
    assert_eq!(w.cwnd(), 40.0, "the cut comes with the ACK's sample");
    // 4.2.3.4: cwnd = packets in flight + max(delivered, 1) on entry ...
    b.on_rate_sample(&mut w, &ack_rate(30, 1, CaState::Recovery, 100, 60));
    assert_eq!(w.cwnd(), 31.0);
    // ... then at least in flight + delivered for the rest of the round (segments sent
    // before recovery began) ...
    b.on_rate_sample(&mut w, &ack_rate(29, 2, CaState::Recovery, 101, 60));
    assert_eq!(w.cwnd(), 31.0);
    b.on_rate_sample(&mut w, &ack_rate(33, 1, CaState::Recovery, 103, 61));
    assert_eq!(w.cwnd(), 34.0);
    // ... and the window before recovery once it ends.
    b.on_rate_sample(&mut w, &ack_rate(20, 5, CaState::Open, 104, 102));
    assert_eq!(w.cwnd(), 40.0 + 5.0, "restored, then grown by what was delivered");
    // A timeout: one segment, the window before it restored once the repair is done.
    b.on_timeout(&mut w, &loss);
    assert_eq!(w.cwnd(), 1.0);
    b.on_rate_sample(&mut w, &ack_rate(1, 1, CaState::Loss, 110, 110));
    assert!(w.cwnd() >= MIN_PIPE_CWND && w.cwnd() < 10.0);
    b.on_rate_sample(&mut w, &ack_rate(2, 1, CaState::Open, 111, 111));
    assert_eq!(w.cwnd(), 46.0);
}

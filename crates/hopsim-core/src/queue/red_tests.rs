//! RED against Floyd & Jacobson (1993): the average (Figure 2, with the idle decay) in
//! closed form, and the drop probability with the count spacing (section 7) as the
//! distribution of the gaps between drops over many arrivals (fixed seed, binomial bounds).

use super::red::Decision;
use super::*;
use crate::engine::rng::{Purpose, Rng};

fn cfg() -> RedConfig {
    RedConfig {
        min_th_packets: 5.0,
        max_th_packets: 15.0,
        max_p: 0.1,
        w_q: 0.002,
        gentle: true,
        wait: false,
        packet_time_ns: 1_000_000,
        ecn: false,
    }
}

fn red(c: RedConfig) -> Red {
    Red::new(c, Rng::derive(7, Purpose::Queue, 0))
}

#[test]
fn the_average_is_an_ewma_of_the_queue_and_decays_over_idle_time() {
    let w: f64 = 0.002;
    let mut r = red(cfg());
    // n arrivals finding 10 packets: avg_n = 10 (1 - (1 - w)^n).
    for n in 1..=500u64 {
        r.update_avg(n * 1000, 10);
        let expected = 10.0 * (1.0 - (1.0 - w).powi(n as i32));
        assert!((r.avg() - expected).abs() < 1e-9, "n = {n}: {} vs {expected}", r.avg());
    }
    // Idle for 250 packet times (s = 1 ms): avg <- (1 - w)^250 avg (Figure 2, m = 250).
    let before = r.avg();
    r.queue_empty(1_000_000);
    r.update_avg(251_000_000, 0);
    let expected = before * (1.0 - w).powi(250);
    assert!((r.avg() - expected).abs() < 1e-12, "{} vs {expected}", r.avg());
    // Without the idle period a zero sample moves it by w only.
    let before = r.avg();
    r.update_avg(252_000_000, 0);
    assert!((r.avg() - (1.0 - w) * before).abs() < 1e-12);
}

/// The gaps (arrivals from one drop to the next) of `n` arrivals at a constant average.
fn gaps(c: RedConfig, qlen: usize, n: usize) -> Vec<usize> {
    let mut r = red(RedConfig { w_q: 1.0, ..c }); // avg = the queue found
    let (mut out, mut since) = (Vec::new(), 0);
    for k in 0..n {
        since += 1;
        if r.on_arrival(k as u64, qlen, false) == Decision::Drop {
            out.push(since);
            since = 0;
        }
    }
    out.remove(0); // the first gap starts from count = -1
    out
}

/// Counts of each gap value 1..=max within 5 binomial standard deviations of `p` each.
fn check_uniform(gaps: &[usize], values: std::ops::RangeInclusive<usize>) {
    let n = gaps.len() as f64;
    let p = 1.0 / values.clone().count() as f64;
    let sd = (n * p * (1.0 - p)).sqrt();
    for v in values.clone() {
        let c = gaps.iter().filter(|&&g| g == v).count() as f64;
        assert!((c - n * p).abs() < 5.0 * sd, "gap {v}: {c} of {n}, expected {}", n * p);
    }
    assert!(gaps.iter().all(|g| values.contains(g)), "a gap outside {values:?}");
}

#[test]
fn drops_are_spaced_uniformly_by_the_count() {
    // avg = 10 between 5 and 15: p_b = 0.1 * 5 / 10 = 0.05. With p_a = p_b / (1 - count p_b),
    // P(gap >= k) = (1 - k p_b) / (1 - p_b): the gap is uniform on 1..=19.
    let g = gaps(cfg(), 10, 400_000);
    check_uniform(&g, 1..=19);
    let mean = g.iter().sum::<usize>() as f64 / g.len() as f64;
    let se = (30.0 / g.len() as f64).sqrt(); // variance of uniform 1..=19: (19^2 - 1) / 12
    assert!((mean - 10.0).abs() < 5.0 * se, "mean gap {mean}");
}

#[test]
fn ns2_wait_keeps_at_least_one_over_p_b_arrivals_between_drops() {
    // red.cc drop_early with wait_: p_a = p_b / (2 - count p_b) from count = 1 / p_b = 20:
    // the gap is uniform on 20..=39.
    let g = gaps(RedConfig { wait: true, ..cfg() }, 10, 400_000);
    check_uniform(&g, 20..=39);
}

#[test]
fn gentle_red_rises_to_one_at_twice_max_th_and_drops_everything_beyond() {
    let mut r = red(RedConfig { w_q: 1.0, ..cfg() });
    r.update_avg(0, 20);
    // p_b = max_p + (1 - max_p) (20 - 15) / 15 = 0.4.
    assert!((r.p_b().unwrap() - 0.4).abs() < 1e-12);
    // Gap 1 with p_a = 0.4 / 0.6, gap 2 otherwise (p_a = 0.4 / 0.2 > 1): mean 4/3.
    let g = gaps(cfg(), 20, 300_000);
    let ones = g.iter().filter(|&&x| x == 1).count() as f64;
    let n = g.len() as f64;
    let sd = (n * (2.0 / 3.0) * (1.0 / 3.0)).sqrt();
    assert!((ones - n * 2.0 / 3.0).abs() < 5.0 * sd, "{ones} of {n}");
    assert!(g.iter().all(|&x| x <= 2));
    let mut r = red(RedConfig { w_q: 1.0, ..cfg() });
    assert!((0..100).all(|k| r.on_arrival(k, 30, true) == Decision::Drop), "forced");
    let mut r = red(RedConfig { w_q: 1.0, gentle: false, ..cfg() });
    assert!((0..100).all(|k| r.on_arrival(k, 15, false) == Decision::Drop), "max_th");
}

#[test]
fn below_min_th_nothing_is_dropped() {
    let mut r = red(RedConfig { w_q: 1.0, ..cfg() });
    assert!((0..10_000).all(|k| r.on_arrival(k, 4, false) == Decision::Enqueue));
}

#[test]
fn with_ecn_an_early_drop_of_an_ect_packet_is_a_mark_and_forced_drops_stay() {
    let c = RedConfig { w_q: 1.0, ecn: true, ..cfg() };
    let (mut a, mut b) = (red(c), red(c));
    for k in 0..10_000 {
        let (x, y) = (a.on_arrival(k, 10, true), b.on_arrival(k, 10, false));
        // Same random stream: the mark falls exactly where the drop would.
        assert_eq!(x == Decision::Mark, y == Decision::Drop, "arrival {k}");
        assert_ne!(x, Decision::Drop);
    }
    let mut q = IfQueue::with_discipline(2, Discipline::Red(Box::new(red(c))));
    let p = super::droptail_tests::ids(3);
    let ect = |t| Arrival { now_ns: t, bytes: 1500, ect: true, flow_key: [0, 0, 1] };
    q.push(Queued { packet: p[0], next_hop: NodeId(1) }, false, ect(0));
    q.push(Queued { packet: p[1], next_hop: NodeId(1) }, false, ect(0));
    let third = Queued { packet: p[2], next_hop: NodeId(1) };
    // avg = 2 < min_th: no early action, but the queue is full: a drop, not a mark.
    assert_eq!(q.push(third, false, ect(0)), Verdict::Dropped(third, Cause::Full));
}

use super::*;
use crate::engine::rng::Purpose;

fn control(algo: RateAlgo) -> RateControl {
    let t = Timing::new(Rate(10), Rate(20), 0);
    RateControl::new(algo, t, 31, Rng::derive(1, Purpose::RateControl, 0))
}

fn ok(rc: &mut RateControl, dst: u32, n: u32) {
    for _ in 0..n {
        let r = rc.data_rate(NodeId(dst), 0);
        rc.report_attempt(NodeId(dst), r, true, 1000, 0);
    }
}

fn fail(rc: &mut RateControl, dst: u32, n: u32) {
    for _ in 0..n {
        let r = rc.data_rate(NodeId(dst), 0);
        rc.report_attempt(NodeId(dst), r, false, 1000, 0);
    }
}

#[test]
fn arf_steps_down_after_two_failures_and_up_after_ten_successes() {
    let mut rc = control(RateAlgo::Arf);
    assert_eq!(rc.data_rate(NodeId(5), 0), Rate(110), "ARF starts at the top rate");
    fail(&mut rc, 5, 1);
    assert_eq!(rc.data_rate(NodeId(5), 0), Rate(110), "one failure is not enough");
    fail(&mut rc, 5, 1);
    assert_eq!(rc.data_rate(NodeId(5), 0), Rate(55));
    fail(&mut rc, 5, 2);
    assert_eq!(rc.data_rate(NodeId(5), 0), Rate(20));
    ok(&mut rc, 5, 9);
    assert_eq!(rc.data_rate(NodeId(5), 0), Rate(20));
    ok(&mut rc, 5, 1);
    assert_eq!(rc.data_rate(NodeId(5), 0), Rate(55), "10 successes: up one rate");
    // The probe at 5.5 fails: straight back to 2 (no second failure needed).
    fail(&mut rc, 5, 1);
    assert_eq!(rc.data_rate(NodeId(5), 0), Rate(20));
    // Another destination has its own state.
    assert_eq!(rc.data_rate(NodeId(9), 0), Rate(110));
}

#[test]
fn arf_timer_raises_the_rate_after_fifteen_attempts() {
    let mut rc = control(RateAlgo::Arf);
    fail(&mut rc, 1, 2); // 5.5
                         // Alternate success/failure: never 10 in a row, never 2 failures in a row.
    for _ in 0..7 {
        ok(&mut rc, 1, 1);
        fail(&mut rc, 1, 1);
    }
    assert_eq!(rc.data_rate(NodeId(1), 0), Rate(55), "14 attempts");
    ok(&mut rc, 1, 1);
    assert_eq!(
        rc.data_rate(NodeId(1), 0),
        Rate(110),
        "the 15th attempt since the change fires the timer"
    );
}

#[test]
fn aarf_doubles_its_threshold_when_probes_fail() {
    let mut rc = control(RateAlgo::Aarf);
    fail(&mut rc, 1, 2); // down to 5.5, thresholds 10/15
    ok(&mut rc, 1, 10); // up to 11: a probe
    fail(&mut rc, 1, 1); // failed probe: back to 5.5, success threshold 20
    assert_eq!(rc.data_rate(NodeId(1), 0), Rate(55));
    // Alternating keeps the timer running; succeed in a row instead.
    ok(&mut rc, 1, 19);
    assert_eq!(rc.data_rate(NodeId(1), 0), Rate(55), "19 < 20 successes");
    ok(&mut rc, 1, 1);
    assert_eq!(rc.data_rate(NodeId(1), 0), Rate(110));
    fail(&mut rc, 1, 1); // probe fails again: threshold 40
    ok(&mut rc, 1, 39);
    assert_eq!(rc.data_rate(NodeId(1), 0), Rate(55));
    ok(&mut rc, 1, 1);
    assert_eq!(rc.data_rate(NodeId(1), 0), Rate(110));
    // Two failures in a row (not a probe) reset it to 10.
    ok(&mut rc, 1, 1);
    fail(&mut rc, 1, 2);
    assert_eq!(rc.data_rate(NodeId(1), 0), Rate(55));
    ok(&mut rc, 1, 10);
    assert_eq!(rc.data_rate(NodeId(1), 0), Rate(110));
}

#[test]
fn sample_rate_settles_on_the_fastest_rate_that_delivers() {
    // 11 and 5.5 Mbit/s always fail, 2 always works: SampleRate ends up at 2 Mbit/s and
    // still samples the others now and then (but not the excluded ones for 10 s).
    let mut rc = control(RateAlgo::Sample);
    let mut used = [0u32; 4];
    for k in 0..400u64 {
        let now = k * 10_000_000; // a packet every 10 ms
        rc.start_packet(NodeId(3), 1000, true, now);
        let r = rc.data_rate(NodeId(3), 0);
        let works = r.0 <= 20;
        used[rc.ladder().position(|l| l == r).unwrap()] += 1;
        rc.report_attempt(NodeId(3), r, works, 1000, now);
        rc.finish_packet(NodeId(3), 1000, true, works, now);
    }
    assert!(used[1] > 300, "most packets at 2 Mbit/s: {used:?}");
    assert!(used[2] + used[3] < 40, "samples of failing rates stay rare: {used:?}");
    assert!(used[0] < 60, "1 Mbit/s is slower than 2 when 2 works: {used:?}");
}

#[test]
fn constant_rate_is_constant_and_stats_count_attempts() {
    let mut rc = control(RateAlgo::Constant(Rate(55)));
    fail(&mut rc, 2, 5);
    ok(&mut rc, 2, 3);
    assert_eq!(rc.data_rate(NodeId(2), 0), Rate(55));
    let stats = rc.stats();
    let airtime_ns = 8 * rc.timing.airtime_ns(1000, Rate(55));
    let count = RateCount { rate: Rate(55), attempts: 8, acked: 3, airtime_ns };
    assert_eq!(stats, vec![(NodeId(2), vec![count])]);
}

#[test]
fn a_failed_sample_is_retried_at_the_best_rate() {
    // 2 Mbit/s works, faster rates fail: once 2 is the best rate, every sampled packet
    // tries its sample rate once and then goes back to 2 for its retries.
    let mut rc = control(RateAlgo::Sample);
    let mut retried_at_best = 0;
    for k in 0..200u64 {
        let now = k * 10_000_000;
        rc.start_packet(NodeId(3), 1000, false, now);
        let first = rc.data_rate(NodeId(3), 0);
        let works = first.0 <= 20;
        rc.report_attempt(NodeId(3), first, works, 1000, now);
        if !works {
            let second = rc.data_rate(NodeId(3), 0);
            if k > 50 {
                assert!(second.0 <= 20, "retry of a failed sample at {:?}", second);
                retried_at_best += 1;
            }
            rc.report_attempt(NodeId(3), second, second.0 <= 20, 1000, now);
            rc.finish_packet(NodeId(3), 1000, false, second.0 <= 20, now);
        } else {
            rc.finish_packet(NodeId(3), 1000, false, true, now);
        }
    }
    assert!(retried_at_best > 0, "samples happened");
}

/// One frame to `dst` at `t_ns`: `failures` failed attempts, then delivered or dropped.
fn frame(rc: &mut RateControl, dst: u32, failures: u32, delivered: bool, t_ns: u64) {
    let r = Rate(20);
    for _ in 0..failures {
        rc.report_attempt(NodeId(dst), r, false, 1000, t_ns);
    }
    if delivered {
        rc.report_attempt(NodeId(dst), r, true, 1000, t_ns);
    }
    rc.finish_packet(NodeId(dst), 1000, false, delivered, t_ns);
}

#[test]
fn failures_averaged_over_attempts_weigh_an_eighth_each() {
    let mut rc = control(RateAlgo::Constant(Rate(20)));
    assert_eq!(rc.link_estimate(NodeId(4)), (Rate(20), 0.0), "nothing sent: no failures");
    frame(&mut rc, 4, 1, true, 0);
    // 0 -> 1/8 (the failure) -> 7/64 (the success).
    let (_, fer) = rc.link_estimate(NodeId(4));
    assert!((fer - 7.0 / 64.0).abs() < 1e-12, "{fer}");
}

#[test]
fn failures_averaged_over_time_follow_ns3s_station_info() {
    // ns-3 WifiRemoteStationInfo: at each frame's end, failAvg = x (1 - c) + c failAvg with
    // c = exp(-dt / 1 s); x = r / (r + 1) after r retries, 1 when dropped.
    let mut rc = control(RateAlgo::Constant(Rate(20))).with_fail_average(FailAverage::Time);
    let sec = 1_000_000_000;
    frame(&mut rc, 4, 1, true, sec); // one retry, 1 s after the start: x = 1/2
    let mut want = 0.5 * (1.0 - (-1.0f64).exp());
    let fer = |rc: &RateControl| rc.link_estimate(NodeId(4)).1;
    assert!((fer(&rc) - want).abs() < 1e-12, "{} vs {want}", fer(&rc));
    frame(&mut rc, 4, 0, true, sec + sec / 1000); // 1 ms later, clean: barely moves
    want *= (-0.001f64).exp();
    assert!((fer(&rc) - want).abs() < 1e-12, "{} vs {want}", fer(&rc));
    frame(&mut rc, 4, 7, false, 3 * sec + sec / 1000); // dropped 2 s later: x = 1
    want = (1.0 - (-2.0f64).exp()) + (-2.0f64).exp() * want;
    assert!((fer(&rc) - want).abs() < 1e-12, "{} vs {want}", fer(&rc));
    // Attempts alone (no frame ended) change nothing in this average.
    rc.report_attempt(NodeId(4), Rate(20), false, 1000, 4 * sec);
    assert!((fer(&rc) - want).abs() < 1e-12);
}

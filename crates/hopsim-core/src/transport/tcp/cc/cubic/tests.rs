//! CUBIC against RFC 9438, on a scripted ACK clock: a fixed RTT, one ACK per segment, the
//! window's ACKs spread over each RTT.

use super::*;
use crate::transport::tcp::cc::reno::ack;
use crate::transport::tcp::test_support::{dupack_loss, s};

const MS: u64 = 1_000_000;

/// A loss at window `cwnd` (all of it in flight), and the end of its recovery: cwnd =
/// ssthresh (RFC 6675 section 5).
fn after_loss(cc: &mut Cubic, cwnd: f64) -> Window {
    let w = Window::new(cwnd, 1e9);
    let ssthresh = cc.ssthresh_after_loss(&w, &dupack_loss(cwnd));
    Window::new(ssthresh, ssthresh)
}

/// ACKs for `rtts` round trips of `rtt_ns` from time `from_ns`; the window at the start of
/// each round trip, as (seconds since `from_ns`, cwnd).
fn clock(cc: &mut Cubic, w: &mut Window, rtt_ns: u64, from_ns: u64, rtts: u32) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let mut now = from_ns;
    for _ in 0..rtts {
        out.push(((now - from_ns) as f64 / 1e9, w.cwnd()));
        let n = w.cwnd().floor().max(1.0) as u64;
        for i in 0..n {
            cc.on_new_ack(w, &ack(now + i * rtt_ns / n, 1, s(0), s(0), Some(rtt_ns)));
        }
        now += rtt_ns;
    }
    out
}

/// W_est after `rtts` round trips from `start` (RFC 9438 4.3): alpha per RTT, 1 once it
/// reaches the window before the loss.
fn w_est(start: f64, prior: f64, rtts: usize) -> f64 {
    (0..rtts).fold(start, |w, _| w + if w >= prior { 1.0 } else { ALPHA })
}

#[test]
fn the_window_follows_w_cubic_after_a_loss() {
    // RFC 9438 4.2: W_max = 100, cwnd_epoch = 70, so K = cbrt(30 / 0.4) = 4.217 s.
    let mut cc = Cubic::default();
    let mut w = after_loss(&mut cc, 100.0);
    assert_eq!(w.cwnd(), 70.0, "4.6: ssthresh = flight_size x 0.7");
    let trace = clock(&mut cc, &mut w, 100 * MS, 1_000 * MS, 80);
    let k = cc.k_s().expect("an epoch started");
    assert!((k - (30.0_f64 / 0.4).cbrt()).abs() < 1e-9, "K = {k}");
    for (i, &(t, cwnd)) in trace.iter().enumerate().skip(5) {
        let w_cubic = cc.w_cubic(t).unwrap();
        let ahead = cc.w_cubic(t + 0.1).unwrap();
        // 4.4-4.5: each RTT the window moves towards W_cubic one RTT ahead; 4.3: never
        // below what Reno would have.
        let reno = w_est(70.0, 100.0, i);
        let (lo, hi) = (w_cubic.max(reno) - 2.0, ahead.max(reno) + 1.0);
        assert!(cwnd > lo && cwnd < hi, "t = {t}: {cwnd} not in [{lo}, {hi}]");
    }
    // Concave: it levels off near W_max around K; convex beyond (growing faster).
    let at =
        |t: f64| trace.iter().min_by(|a, b| (a.0 - t).abs().total_cmp(&(b.0 - t).abs())).unwrap().1;
    assert!((at(k) - 100.0).abs() < 2.0, "cwnd at K: {}", at(k));
    let (early, plateau, late) =
        (at(1.0) - at(0.5), at(k + 0.25) - at(k - 0.25), at(7.5) - at(7.0));
    assert!(early > plateau && late > plateau, "{early} {plateau} {late}");
}

#[test]
fn a_short_rtt_path_grows_like_reno_the_reno_friendly_region() {
    // RFC 9438 4.3: with W_max = 20 and a 10 ms RTT, W_cubic barely moves in 0.3 s while
    // a Reno flow with CUBIC's decrease adds alpha = 3 (1 - 0.7) / (1 + 0.7) per RTT.
    let mut cc = Cubic::default();
    let mut w = after_loss(&mut cc, 20.0);
    let trace = clock(&mut cc, &mut w, 10 * MS, 0, 30);
    let (t, cwnd) = *trace.last().unwrap();
    let w_cubic = cc.w_cubic(t).unwrap();
    assert!(cwnd > w_cubic + 1.0, "Reno-friendly: {cwnd} above W_cubic {w_cubic}");
    // 29 RTTs from 14: alpha per RTT up to 20, then 1 (the window's ACKs are whole
    // segments, so a little less).
    let reno = w_est(14.0, 20.0, 29);
    assert!(cwnd <= reno + 0.5 && cwnd > reno - 2.0, "{cwnd} vs W_est {reno}");
    // Past the window before the loss, W_est grows by one segment per RTT (alpha = 1).
    let trace = clock(&mut cc, &mut w, 10 * MS, 300 * MS, 20);
    let grown = trace.last().unwrap().1 - trace[10].1;
    assert!((grown - 9.0).abs() < 1.5, "{grown} segments in 9 RTTs");
}

#[test]
fn fast_convergence_releases_bandwidth_on_a_second_loss_below_w_max() {
    // RFC 9438 4.7: a loss below the previous W_max sets W_max = cwnd (1 + beta) / 2.
    let mut cc = Cubic::default();
    after_loss(&mut cc, 100.0);
    assert_eq!(cc.w_max(), 100.0);
    let w = Window::new(80.0, 1e9);
    let ssthresh = cc.ssthresh_after_loss(&w, &dupack_loss(60.0));
    assert!((cc.w_max() - 80.0 * 0.85).abs() < 1e-12);
    assert!((ssthresh - 42.0).abs() < 1e-12, "4.6: from the flight, 60 x 0.7");
    assert_eq!(
        cc.ssthresh_after_loss(&Window::new(2.0, 1e9), &dupack_loss(1.0)),
        2.0,
        "at least 2"
    );
}

#[test]
fn slow_start_is_standard_and_a_stage_without_loss_starts_convex() {
    let mut cc = Cubic::default();
    let mut w = Window::new(2.0, 10.0);
    cc.on_new_ack(&mut w, &ack(0, 1, s(1), s(3), Some(100 * MS)));
    assert_eq!(w.cwnd(), 3.0, "+1 per ACK below ssthresh (RFC 5681)");
    let mut w = Window::new(10.0, 10.0);
    cc.on_new_ack(&mut w, &ack(0, 1, s(1), s(11), Some(100 * MS)));
    assert_eq!(cc.k_s(), Some(0.0), "W_max = cwnd when slow start ends: K = 0");
}

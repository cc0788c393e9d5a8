//! BIC against the paper's increase function (Xu, Harfoush, Rhee 2004, section 3) with
//! Linux 2.6.8's constants, on a scripted ACK clock: one ACK per segment, a window of ACKs
//! per round trip.

use super::*;
use crate::transport::tcp::cc::reno::ack;
use crate::transport::tcp::test_support::{dupack_loss, s};

/// The paper's increase per RTT at window `cwnd` with W_max `max`: binary search (with
/// B = 4, a quarter of the distance) clamped to [Smin, Smax] below W_max, max probing (the
/// distance from W_max over B - 1, from Smin up to Smax) above it, Reno at 14 and below.
/// Linux measures distances in whole segments: a distance / B below 2 segments is already
/// the Smin step, as are the first B segments above W_max.
fn paper_increase(cwnd: f64, max: f64) -> f64 {
    let (b, s_min, s_max) = (B as f64, B as f64 / FUNC_OF_MIN_INCR as f64, S_MAX as f64);
    let cwnd = cwnd.floor();
    if cwnd <= LOW_WINDOW as f64 {
        1.0
    } else if cwnd < max {
        let dist = ((max - cwnd) / b).floor();
        if dist < 2.0 {
            s_min
        } else {
            dist.min(s_max)
        }
    } else if cwnd < max + b {
        s_min
    } else {
        ((cwnd - max) / (b - 1.0)).min(s_max)
    }
}

/// One RTT of ACKs (one per segment of the window at its start); the window after it.
fn rtt(cc: &mut Bic, w: &mut Window) -> f64 {
    for _ in 0..w.cwnd().floor() as u32 {
        cc.on_new_ack(w, &ack(0, 1, s(0), s(0), None));
    }
    w.cwnd()
}

/// Each RTT's growth is the paper's increase function: between its values at the window at
/// the RTT's start and at its end (Linux applies it per ACK, so the step shrinks during the
/// RTT as the window nears W_max), within `slack` (whole-segment steps every cnt ACKs).
fn follows_the_paper(cc: &mut Bic, w: &mut Window, rtts: usize, slack: f64) -> Vec<f64> {
    let max = cc.w_max() as f64;
    let mut trace = vec![w.cwnd()];
    for k in 1..=rtts {
        let before = w.cwnd();
        let cwnd = rtt(cc, w);
        let (a, b) = (paper_increase(before, max), paper_increase(cwnd, max));
        let grown = cwnd - before;
        assert!(
            grown >= a.min(b) - slack && grown <= a.max(b) + slack,
            "RTT {k} at {before} (W_max {max}): grew {grown}, the paper's step {a:.2} to {b:.2}"
        );
        trace.push(cwnd);
    }
    trace
}

#[test]
fn after_a_loss_the_window_searches_towards_w_max_then_probes_beyond() {
    let mut cc = Bic::default();
    let cut = cc.ssthresh_after_loss(&Window::new(400.0, 1e9), &dupack_loss(400.0));
    assert_eq!(cut, 350.0, "cwnd - cwnd / 8 (beta 7/8)");
    assert_eq!(cc.w_max(), 400);
    let mut w = Window::new(cut, cut); // SACK recovery ends at ssthresh
    let trace = follows_the_paper(&mut cc, &mut w, 70, 1.0);
    // Binary search: each RTT covers about a quarter of what is left to W_max, so the
    // window approaches it fast and then stays just below it (the plateau) ...
    assert!(trace[1] - 350.0 >= 9.0 && trace[2] - trace[1] >= 6.0, "{trace:?}");
    let plateau = trace.iter().filter(|&&c| (c - 400.0).abs() < 4.0).count();
    assert!(plateau >= 8, "{plateau} RTTs within 4 segments of W_max: {trace:?}");
    // ... then max probing: slow just above W_max, faster further away, Smax far beyond.
    let above: Vec<f64> = trace.windows(2).filter(|p| p[0] > 410.0).map(|p| p[1] - p[0]).collect();
    assert!(above.windows(2).take(4).all(|g| g[1] > g[0]), "accelerating: {above:?}");
    assert!((above.last().unwrap() - 32.0).abs() < 2.0, "Smax far above W_max: {above:?}");
}

#[test]
fn far_below_w_max_the_increase_is_smax_and_low_windows_grow_as_reno() {
    let mut cc = Bic::default();
    cc.ssthresh_after_loss(&Window::new(1000.0, 1e9), &dupack_loss(1000.0));
    let mut w = Window::new(500.0, 500.0); // e.g. after a timeout's slow start
    let trace = follows_the_paper(&mut cc, &mut w, 3, 1.0);
    assert!((trace[3] - 596.0).abs() < 3.0, "32 per RTT: {trace:?}");
    // Reno region: one segment per RTT at 14 segments and below, whatever W_max says.
    let mut w = Window::new(10.0, 10.0);
    follows_the_paper(&mut cc, &mut w, 4, 0.0);
    assert_eq!(w.cwnd(), 14.0);
    assert_eq!(
        cc.ssthresh_after_loss(&Window::new(12.0, 1e9), &dupack_loss(12.0)),
        6.0,
        "Reno's half"
    );
}

#[test]
fn fast_convergence_lowers_w_max_when_the_window_shrinks() {
    let mut cc = Bic::default();
    cc.ssthresh_after_loss(&Window::new(400.0, 1e9), &dupack_loss(400.0));
    cc.ssthresh_after_loss(&Window::new(320.0, 1e9), &dupack_loss(320.0));
    assert_eq!(cc.w_max(), 300, "320 (1 + 7/8) / 2: releases bandwidth for a new flow");
    let mut cc = Bic { fast_convergence: false, ..Bic::default() };
    cc.ssthresh_after_loss(&Window::new(400.0, 1e9), &dupack_loss(400.0));
    cc.ssthresh_after_loss(&Window::new(320.0, 1e9), &dupack_loss(320.0));
    assert_eq!(cc.w_max(), 320);
}

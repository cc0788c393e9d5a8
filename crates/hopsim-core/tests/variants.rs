//! The studies' TCP variants and window limits on chains (issue 4). Runs check invariants.

mod common;

use hopsim_core::RunResult;

struct Mean {
    goodput_kbps: f64,
    retransmissions: f64,
    avg_cwnd: f64,
    avg_limit: f64,
}

/// Mean over seeds of one flow per run on an h-hop chain.
fn chain(hops: u32, spacing_m: f64, tcp: &str, seeds: &[u64]) -> Mean {
    let runs: Vec<RunResult> = seeds
        .iter()
        .map(|seed| {
            common::run_checked(&format!(
                "duration_s = 100.0\nwarmup_s = 10.0\nseed = {seed}\n[tcp]\n{tcp}\n\
                 [topology]\nkind = \"chain\"\nhops = {hops}\nspacing_m = {spacing_m}\n\
                 [[flows]]\nsrc = 0\ndst = {hops}\ntransport = \"tcp\"\n"
            ))
        })
        .collect();
    let n = runs.len() as f64;
    let tcp = |r: &RunResult| r.flows[0].tcp.clone().expect("TCP flow");
    Mean {
        goodput_kbps: runs.iter().map(|r| r.flows[0].goodput_kbps).sum::<f64>() / n,
        retransmissions: runs.iter().map(|r| tcp(r).retransmissions as f64).sum::<f64>() / n,
        avg_cwnd: runs.iter().map(|r| tcp(r).avg_cwnd.unwrap()).sum::<f64>() / n,
        avg_limit: runs.iter().map(|r| tcp(r).avg_window_limit.unwrap()).sum::<f64>() / n,
    }
}

/// DSN 2005 (ElRakabawy, Lindemann, Vernon): on the 200 m chain at 2 Mbit/s with RTS/CTS,
/// Vegas with alpha = 2 beats NewReno at 8 hops with far fewer retransmissions, its window
/// stays at a few segments while NewReno's grows far beyond h/4.
#[test]
fn vegas_beats_newreno_at_eight_hops_with_far_fewer_retransmissions() {
    let seeds = [1, 2, 3];
    let newreno = chain(8, 200.0, "variant = \"newreno\"", &seeds);
    let vegas = chain(8, 200.0, "variant = \"vegas\"\nalpha = 2.0\nbeta = 2.0", &seeds);
    assert!(
        vegas.goodput_kbps > newreno.goodput_kbps,
        "{} vs {}",
        vegas.goodput_kbps,
        newreno.goodput_kbps
    );
    assert!(
        vegas.retransmissions < 0.25 * newreno.retransmissions,
        "{} vs {}",
        vegas.retransmissions,
        newreno.retransmissions
    );
    assert!(vegas.avg_cwnd < 6.0, "a few segments: {}", vegas.avg_cwnd);
    assert!(newreno.avg_cwnd > 2.0 * 8.0 / 4.0, "far beyond h/4: {}", newreno.avg_cwnd);
}

/// Chen et al.: on the 250 m chain the hop-based limit is at least as good as no limit, and the
/// hop- and delay-based limits come close to each other on long chains.
#[test]
fn hop_based_limit_is_no_worse_than_unlimited_and_near_delay_based_on_long_chains() {
    let seeds = [1, 2];
    for hops in [4, 7, 10, 15] {
        let none = chain(hops, 250.0, "variant = \"reno\"", &seeds);
        let hop = chain(hops, 250.0, "variant = \"reno\"\nwindow_limit = \"hop_based\"", &seeds);
        assert!(
            hop.goodput_kbps >= none.goodput_kbps,
            "{hops} hops: {} vs {}",
            hop.goodput_kbps,
            none.goodput_kbps
        );
        if hops >= 10 {
            let delay =
                chain(hops, 250.0, "variant = \"reno\"\nwindow_limit = \"delay_based\"", &seeds);
            let rel = (delay.avg_limit - hop.avg_limit).abs() / hop.avg_limit;
            assert!(rel < 0.2, "{hops} hops: limits {} vs {}", delay.avg_limit, hop.avg_limit);
        }
    }
}

/// Ding et al.: with one flow Vegas-W is within 10% of Vegas.
#[test]
fn vegas_w_matches_vegas_with_one_flow() {
    let seeds = [1, 2];
    let vegas = chain(7, 200.0, "variant = \"vegas\"", &seeds);
    let vegas_w = chain(7, 200.0, "variant = \"vegas_w\"", &seeds);
    let rel = (vegas_w.goodput_kbps - vegas.goodput_kbps).abs() / vegas.goodput_kbps;
    assert!(rel < 0.10, "{} vs {}", vegas_w.goodput_kbps, vegas.goodput_kbps);
}

#[test]
fn few_and_paced_newreno_run_clean() {
    let few = chain(6, 200.0, "variant = \"few\"", &[1]);
    let paced = chain(6, 200.0, "variant = \"newreno\"\npacing = true", &[1]);
    assert!(few.goodput_kbps > 0.0 && paced.goodput_kbps > 0.0);
}

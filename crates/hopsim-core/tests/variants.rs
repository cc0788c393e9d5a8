//! The studies' TCP variants and window limits on chains (issue 4). Runs check invariants.

mod common;

use hopsim_core::RunResult;

struct Mean {
    goodput_kbps: f64,
    retransmissions: f64,
    avg_cwnd: f64,
    avg_limit: f64,
}

/// Mean over seeds of one flow per run on an h-hop chain with static routes.
fn chain(hops: u32, spacing_m: f64, tcp: &str, seeds: &[u64]) -> Mean {
    chain_with(hops, spacing_m, tcp, seeds, "static", "")
}

/// The same with a routing protocol and extra scenario text; totals over the flows' goodput,
/// means of the first flow's window figures.
fn chain_with(
    hops: u32,
    spacing_m: f64,
    tcp: &str,
    seeds: &[u64],
    routing: &str,
    extra: &str,
) -> Mean {
    let runs: Vec<RunResult> = seeds
        .iter()
        .map(|seed| {
            common::run_checked(&format!(
                "duration_s = 100.0\nwarmup_s = 10.0\nseed = {seed}\n[routing]\nprotocol = \"{routing}\"\n\
                 [tcp]\n{tcp}\n[topology]\nkind = \"chain\"\nhops = {hops}\nspacing_m = {spacing_m}\n\
                 [[flows]]\nsrc = 0\ndst = {hops}\ntransport = \"tcp\"\n{extra}"
            ))
        })
        .collect();
    let n = runs.len() as f64;
    let tcp = |r: &RunResult| r.flows[0].tcp.clone().expect("TCP flow");
    Mean {
        goodput_kbps: runs.iter().flat_map(|r| r.flows.iter().map(|f| f.goodput_kbps)).sum::<f64>()
            / n,
        retransmissions: runs.iter().map(|r| tcp(r).retransmissions as f64).sum::<f64>() / n,
        avg_cwnd: runs.iter().map(|r| tcp(r).avg_cwnd.unwrap()).sum::<f64>() / n,
        avg_limit: runs.iter().map(|r| tcp(r).avg_window_limit.unwrap()).sum::<f64>() / n,
    }
}

/// DSN 2005 (ElRakabawy, Lindemann, Vernon): on the 200 m chain at 2 Mbit/s with RTS/CTS,
/// Vegas with alpha = 2 beats NewReno at 8 hops with far fewer retransmissions, its window
/// stays at a few segments while NewReno's grows far beyond h/4. With on-demand routing, as
/// in the study: retry-limit drops become route errors and rediscoveries.
#[test]
fn vegas_beats_newreno_at_eight_hops_with_far_fewer_retransmissions() {
    // Ten seeds: one run's retransmissions range from 22 to 195 here, too wide for three.
    let seeds: Vec<u64> = (1..=10).collect();
    let newreno = chain_with(8, 200.0, "variant = \"newreno\"", &seeds, "aodv", "");
    let vegas =
        chain_with(8, 200.0, "variant = \"vegas\"\nalpha = 2.0\nbeta = 2.0", &seeds, "aodv", "");
    assert!(
        vegas.goodput_kbps > newreno.goodput_kbps,
        "{} vs {}",
        vegas.goodput_kbps,
        newreno.goodput_kbps
    );
    assert!(
        vegas.retransmissions < 0.6 * newreno.retransmissions,
        "{} vs {}",
        vegas.retransmissions,
        newreno.retransmissions
    );
    assert!(vegas.avg_cwnd < 6.0, "a few segments: {}", vegas.avg_cwnd);
    assert!(newreno.avg_cwnd > 2.0 * 8.0 / 4.0, "far beyond h/4: {}", newreno.avg_cwnd);
}

/// Chen et al.: on the 250 m chain (TCP Reno, on-demand routing as in ns-2 MANET runs) the
/// hop- and delay-based limits give at least the goodput of no limit, and their average limits
/// come close to each other on long chains.
#[test]
fn window_limits_are_no_worse_than_unlimited_and_agree_on_long_chains() {
    let seeds = [1, 2];
    let run = |hops, limit: &str| {
        let tcp = format!("variant = \"reno\"\nwindow_limit = \"{limit}\"");
        chain_with(hops, 250.0, &tcp, &seeds, "aodv", "")
    };
    for hops in [4, 7, 10, 15] {
        let none = run(hops, "none");
        let hop = run(hops, "hop_based");
        let delay = run(hops, "delay_based");
        for (name, m) in [("hop", &hop), ("delay", &delay)] {
            assert!(
                m.goodput_kbps >= none.goodput_kbps,
                "{hops} hops {name}: {} vs {}",
                m.goodput_kbps,
                none.goodput_kbps
            );
        }
        if hops >= 10 {
            let rel = (delay.avg_limit - hop.avg_limit).abs() / hop.avg_limit;
            assert!(rel < 0.2, "{hops} hops: limits {} vs {}", delay.avg_limit, hop.avg_limit);
        }
    }
}

/// Ding et al.: with several flows between the same two nodes of a 7-hop chain, Vegas-W gets
/// more total goodput than Vegas (their setup: 2 Mbit/s, 1024 B, 250 m / 500 m ranges,
/// on-demand routing). Holds here with 4 flows; with 8 the two are even (see the notes).
#[test]
fn vegas_w_beats_vegas_with_four_flows() {
    let seeds = [1, 2, 3];
    let flow = "[[flows]]\nsrc = 0\ndst = 7\ntransport = \"tcp\"\npayload_bytes = 1024\n";
    // The first flow is the chain's own; `extra` continues its table, then adds three more.
    let extra = format!(
        "payload_bytes = 1024\n{}[radio]\nrx_range_m = 250.0\ncs_range_m = 500.0\n",
        flow.repeat(3)
    );
    let run = |variant: &str| {
        let tcp = format!("variant = \"{variant}\"");
        chain_with(7, 200.0, &tcp, &seeds, "aodv", &extra)
    };
    let (vegas, vegas_w) = (run("vegas"), run("vegas_w"));
    assert!(
        vegas_w.goodput_kbps > vegas.goodput_kbps,
        "{} vs {}",
        vegas_w.goodput_kbps,
        vegas.goodput_kbps
    );
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

/// CUBIC (RFC 9438) over one hop whose only losses are the sender's queue overflowing: it
/// cuts its window by 30% where SACK's Reno halves it, and climbs back to W_max in K, so its
/// average window is larger at the same goodput, and it runs clean.
#[test]
fn cubic_keeps_a_larger_window_than_reno_through_queue_losses() {
    let tcp = |v: &str| format!("variant = \"{v}\"\nreceiver_window = 200");
    let extra = "[mac]\nqueue_packets = 20";
    let cubic = chain_with(1, 200.0, &tcp("cubic"), &[1, 2], "static", extra);
    let sack = chain_with(1, 200.0, &tcp("sack"), &[1, 2], "static", extra);
    assert!(cubic.retransmissions > 0.0 && sack.retransmissions > 0.0, "queue losses happen");
    assert!(cubic.avg_cwnd > sack.avg_cwnd, "{} vs {}", cubic.avg_cwnd, sack.avg_cwnd);
    assert!(cubic.goodput_kbps > 0.9 * sack.goodput_kbps);
}

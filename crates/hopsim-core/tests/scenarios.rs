//! Scenario-level checks of the core: determinism, invariants on varied topologies, and the
//! MAC against first-principles timing. (The full theory suite is in the pytest tests.)

mod common;

use hopsim_core::{run, scenario::parse_toml};

fn chain(hops: u32, extra: &str) -> String {
    format!(
        "duration_s = 20.0\nwarmup_s = 2.0\n[topology]\nkind = \"chain\"\nhops = {hops}\nspacing_m = 200.0\n\
         {extra}\n[[flows]]\nsrc = 0\ndst = {hops}\n"
    )
}

#[test]
fn same_seed_same_bits_other_seed_other_result() {
    let text = chain(4, "");
    let a = serde_json::to_string(&common::run_checked(&text)).unwrap();
    let b = serde_json::to_string(&common::run_checked(&text)).unwrap();
    assert_eq!(a, b);
    let c = serde_json::to_string(&common::run_checked(&format!("seed = 2\n{text}"))).unwrap();
    assert_ne!(a, c);
}

/// Cycle of one saturated sender: DIFS + mean backoff (CWmin/2 slots) + exchange, in us
/// (Jun, Peddabachagari, Sichitiu 2003), with 802.11b long-preamble frame times.
fn tmt_kbps(payload: u32, rate_mbps: f64, rts: bool, prop_us: f64) -> f64 {
    let t = |bytes: u32, r: f64| 192.0 + (8.0 * bytes as f64 / r).ceil();
    let data = t(payload + 8 + 8 + 20 + 24 + 4, rate_mbps);
    let mut cycle = 50.0 + 15.5 * 20.0 + data + 10.0 + t(14, 1.0) + 2.0 * prop_us;
    if rts {
        cycle += t(20, 1.0) + 10.0 + t(14, 1.0) + 10.0 + 2.0 * prop_us;
    }
    payload as f64 * 8.0 / cycle * 1000.0
}

#[test]
fn one_hop_saturated_matches_theoretical_maximum() {
    for (rate, rts) in [(2.0, true), (11.0, false)] {
        let threshold = if rts { 0 } else { 3000 };
        let r = common::run_checked(&format!(
            "duration_s = 30.0\n[topology]\nkind = \"chain\"\nhops = 1\nspacing_m = 200.0\n\
             [mac]\ndata_rate_mbps = {rate}\nrts_threshold_bytes = {threshold}\n[[flows]]\nsrc = 0\ndst = 1\n"
        ));
        let expect = tmt_kbps(1460, rate, rts, 200.0 / 299.792458);
        let got = r.flows[0].goodput_kbps;
        assert!((got / expect - 1.0).abs() < 0.01, "rate {rate} rts {rts}: {got} vs {expect}");
        assert_eq!(r.totals.collisions, 0);
        assert_eq!(r.totals.mac_retries, 0);
    }
}

#[test]
fn hidden_terminals_collide_on_a_four_hop_chain() {
    let one = common::run_checked(&chain(1, ""));
    assert_eq!(one.totals.collisions, 0);
    let four = common::run_checked(&chain(4, ""));
    assert!(four.totals.collisions > 0);
    assert!(four.totals.mac_retries > 0);
    // Retry-limit drops on a static chain are false route failures: the next hop is in range.
    assert!(four.totals.link_failures > 0);
    assert_eq!(four.totals.false_route_failures, four.totals.link_failures);
    assert_eq!(four.flows[0].false_route_failures, four.totals.false_route_failures);
}

#[test]
fn invariants_hold_on_grid_and_random_topologies_under_load() {
    let grid =
        "duration_s = 10.0\n[topology]\nkind = \"grid\"\nrows = 4\ncols = 4\nspacing_m = 200.0\n\
                [mac]\nrts_threshold_bytes = 3000\n\
                [[flows]]\nsrc = 0\ndst = 15\n[[flows]]\nsrc = 12\ndst = 3\ninterval_s = 0.005\n\
                [[flows]]\nsrc = 5\ndst = 6\npayload_bytes = 200\n";
    let r = common::run_checked(grid);
    assert!(r.flows.iter().all(|f| f.packets_delivered > 0));
    let random = "duration_s = 10.0\nseed = 4\n[topology]\nkind = \"random\"\nnodes = 30\narea_m = [600.0, 600.0]\n\
                  [radio]\nrx_range_m = 250.0\ncs_range_m = 550.0\n\
                  [[flows]]\nsrc = 0\ndst = 1\n[[flows]]\nsrc = 2\ndst = 3\ninterval_s = 0.01\n";
    common::run_checked(random);
}

#[test]
fn flows_stop_and_start_on_time() {
    let r = common::run_checked(
        "duration_s = 10.0\n[topology]\nkind = \"chain\"\nhops = 1\nspacing_m = 100.0\n\
         [[flows]]\nsrc = 0\ndst = 1\ninterval_s = 0.1\nstart_s = 2.0\nstop_s = 4.0\n",
    );
    // Sends at 2.0, 2.1, ..., 3.9 s.
    assert_eq!(r.flows[0].packets_sent, 20);
    assert_eq!(r.flows[0].packets_delivered, 20);
}

#[test]
fn unconnected_flow_is_rejected_before_the_run() {
    let s = parse_toml(
        "[topology]\nkind = \"positions\"\npositions = [[0.0, 0.0], [1000.0, 0.0]]\n[[flows]]\nsrc = 0\ndst = 1\n",
    )
    .unwrap();
    let e = run(&s).unwrap_err();
    assert_eq!(e.key, "flows.0.dst");
    assert!(e.message.contains("cannot reach"), "{}", e.message);
}

#[test]
fn random_traffic_on_a_reseeded_connected_placement() {
    // 30 nodes in 1500 m x 300 m are often disconnected at 250 m range: reseed until not.
    let text = "duration_s = 20.0\nseed = 7\n[topology]\nkind = \"random\"\nnodes = 30\n\
                area_m = [1500.0, 300.0]\nconnected = \"reseed\"\n\
                [traffic]\nrandom_flows = 5\ntransport = \"tcp\"\n[traffic.tcp]\nvariant = \"sack\"\n";
    let r = common::run_checked(text);
    assert_eq!(r.flows.len(), 5);
    assert!(r.flows.iter().all(|f| f.src != f.dst && f.transport == "tcp"));
    assert!(r.flows.iter().any(|f| f.goodput_kbps > 0.0));
    // Same seed, same flows and results; the pairs are drawn per flow.
    let again = common::run_checked(text);
    assert_eq!(serde_json::to_string(&r).unwrap(), serde_json::to_string(&again).unwrap());
}

#[test]
fn disconnected_random_placement_is_rejected_when_asked() {
    let s = parse_toml(
        "[topology]\nkind = \"random\"\nnodes = 5\narea_m = [5000.0, 5000.0]\nconnected = \"reject\"\n\
         [traffic]\nrandom_flows = 1\n",
    )
    .unwrap();
    let e = run(&s).unwrap_err();
    assert_eq!(e.key, "topology.connected");
    assert!(e.message.contains("not connected"), "{}", e.message);
}

#[test]
fn random_waypoint_breaks_static_routes_with_real_route_failures() {
    let text = "duration_s = 60.0\nseed = 3\n[topology]\nkind = \"random\"\nnodes = 20\n\
                area_m = [1000.0, 300.0]\nconnected = \"reseed\"\n\
                [mobility]\nmodel = \"random_waypoint\"\nspeed_min_mps = 10.0\nspeed_max_mps = 20.0\n\
                [traffic]\nrandom_flows = 4\ninterval_s = 0.05\n";
    let r = common::run_checked(text);
    assert!(r.totals.link_failures > 0);
    assert!(
        r.totals.false_route_failures < r.totals.link_failures,
        "moving nodes leave range: real failures too ({} of {})",
        r.totals.false_route_failures,
        r.totals.link_failures
    );
    let again = common::run_checked(text);
    assert_eq!(serde_json::to_string(&r).unwrap(), serde_json::to_string(&again).unwrap());
}

#[test]
fn setdest_trace_moves_a_node_out_of_range() {
    let dir = std::env::temp_dir().join(format!("hopsim-setdest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("scen.tcl");
    // Node 1 starts 200 m from node 0 and walks away at 20 m/s from t = 5 s.
    std::fs::write(
        &file,
        "$node_(0) set X_ 0.0\n$node_(0) set Y_ 0.0\n$node_(1) set X_ 200.0\n$node_(1) set Y_ 0.0\n\
         $ns_ at 5.0 \"$node_(1) setdest 1000.0 0.0 20.0\"\n",
    )
    .unwrap();
    let text = format!(
        "duration_s = 20.0\n[topology]\nkind = \"positions\"\npositions = [[0.0, 0.0], [1.0, 0.0]]\n\
         [mobility]\nmodel = \"setdest\"\ntrace_file = \"{}\"\n[[flows]]\nsrc = 0\ndst = 1\ninterval_s = 0.1\n",
        file.display()
    );
    let r = common::run_checked(&text);
    // In range until 250 m, i.e. 2.5 s after leaving: about 7.5 s of 10 packets/s arrive.
    let delivered = r.flows[0].packets_delivered;
    assert!((70..=80).contains(&delivered), "{delivered}");
    assert!(r.totals.link_failures > 0 && r.totals.false_route_failures == 0);
    assert_eq!(r.nodes[1].x_m, 200.0, "start positions from the trace");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn aodv_rediscovers_routes_as_nodes_move() {
    let text = "duration_s = 60.0\nseed = 5\n[routing]\nprotocol = \"aodv\"\n\
                [topology]\nkind = \"random\"\nnodes = 25\narea_m = [1000.0, 300.0]\nconnected = \"reseed\"\n\
                [mobility]\nmodel = \"random_waypoint\"\nspeed_min_mps = 1.0\nspeed_max_mps = 10.0\n\
                [traffic]\nrandom_flows = 4\ninterval_s = 0.1\npayload_bytes = 512\n";
    let aodv = common::run_checked(text);
    let fixed = common::run_checked(&text.replace("protocol = \"aodv\"", "protocol = \"static\""));
    let delivered =
        |r: &hopsim_core::RunResult| r.flows.iter().map(|f| f.packets_delivered).sum::<u64>();
    assert!(aodv.totals.routing_packets > 0);
    assert!(delivered(&aodv) > delivered(&fixed), "{} vs {}", delivered(&aodv), delivered(&fixed));
    let again = common::run_checked(text);
    assert_eq!(serde_json::to_string(&aodv).unwrap(), serde_json::to_string(&again).unwrap());
}

/// Issue 5: 50 nodes moving by random waypoint (5 m/s, no pause) in 1500 m x 300 m, ten TCP
/// flows over DSR for 300 s: every byte in order once (checked by run_checked), and route
/// failures both false (contention) and real (nodes moved apart).
#[test]
fn tcp_over_dsr_with_fifty_moving_nodes() {
    let text = "duration_s = 300.0\nseed = 2\n[routing]\nprotocol = \"dsr\"\n\
                [topology]\nkind = \"random\"\nnodes = 50\narea_m = [1500.0, 300.0]\nconnected = \"reseed\"\n\
                [mobility]\nmodel = \"random_waypoint\"\nspeed_max_mps = 5.0\n\
                [tcp]\nvariant = \"reno\"\nmax_rto_s = 2.0\n\
                [traffic]\nrandom_flows = 10\ntransport = \"tcp\"\n";
    let r = common::run_checked(text);
    let t = &r.totals;
    assert!(r.flows.iter().map(|f| f.goodput_kbps).sum::<f64>() > 0.0);
    assert!(t.false_route_failures > 0, "{t:?}");
    assert!(t.link_failures > t.false_route_failures, "real failures too: {t:?}");
    assert!(t.routing_packets > 0);
    assert_eq!(r.route_failures, t.link_failures, "network totals at the top level");
    let again = common::run_checked(text);
    assert_eq!(serde_json::to_string(&r).unwrap(), serde_json::to_string(&again).unwrap());
}

/// The studies' finding: NewReno over DSR on a long chain suffers false route failures, fewer
/// with a congestion window limit of 2.
#[test]
fn a_small_window_limit_means_fewer_false_route_failures_over_dsr() {
    let run = |limit: &str| {
        common::run_checked(&format!(
            "duration_s = 100.0\n[routing]\nprotocol = \"dsr\"\n[topology]\nkind = \"chain\"\nhops = 8\n\
             spacing_m = 200.0\n[tcp]\nvariant = \"newreno\"\n{limit}\n\
             [[flows]]\nsrc = 0\ndst = 8\ntransport = \"tcp\"\n"
        ))
    };
    let open = run("");
    let limited = run("max_window = 2.0");
    assert!(open.totals.false_route_failures > 0);
    assert!(
        limited.totals.false_route_failures < open.totals.false_route_failures,
        "{} vs {}",
        limited.totals.false_route_failures,
        open.totals.false_route_failures
    );
}

#[test]
fn moving_nodes_must_stay_connected_when_asked() {
    // Sparse and fast: some second of the run is partitioned under every placement drawn.
    let s = parse_toml(
        "duration_s = 100.0\n[topology]\nkind = \"random\"\nnodes = 6\narea_m = [3000.0, 300.0]\n\
         connected = \"reject\"\n[mobility]\nmodel = \"random_waypoint\"\nspeed_min_mps = 10.0\n\
         speed_max_mps = 20.0\n[traffic]\nrandom_flows = 1\n",
    )
    .unwrap();
    let e = run(&s).unwrap_err();
    assert_eq!(e.key, "topology.connected");
    assert!(e.message.contains("throughout"), "{}", e.message);
    // Dense enough: a re-seeded placement stays connected for the whole run.
    let r = common::run_checked(
        "duration_s = 100.0\n[topology]\nkind = \"random\"\nnodes = 30\narea_m = [800.0, 300.0]\n\
         connected = \"reseed\"\n[mobility]\nmodel = \"random_waypoint\"\nspeed_max_mps = 5.0\n\
         [traffic]\nrandom_flows = 2\ninterval_s = 0.2\n",
    );
    assert_eq!(r.flows.len(), 2);
}

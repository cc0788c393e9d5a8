//! HWMP in a run (issue 36): on-demand paths for TCP on a chain, shortest paths on a grid,
//! the proactive modes' paths to the root before any data, and the control elements counted
//! by kind.

mod common;

use hopsim_core::ids::NodeId;
use hopsim_core::prepare;
use hopsim_core::scenario::parse_toml;

fn scenario(topology: &str, routing: &str, flow: &str, duration_s: f64) -> String {
    format!(
        "duration_s = {duration_s}\n[topology]\n{topology}\n[routing]\nprotocol = \"hwmp\"\n\
         {routing}\n[[flows]]\n{flow}\n"
    )
}

const CHAIN4: &str = "kind = \"chain\"\nhops = 4\nspacing_m = 200.0";

#[test]
fn tcp_over_an_on_demand_path_along_a_chain_is_deterministic() {
    let toml = scenario(CHAIN4, "", "src = 0\ndst = 4\ntransport = \"tcp\"", 30.0);
    let (a, b) = (common::run_checked(&toml), common::run_checked(&toml));
    let f = &a.flows[0];
    assert!(f.goodput_kbps > 50.0, "{}", f.goodput_kbps);
    assert!(f.paths.iter().any(|p| p.nodes == [0, 1, 2, 3, 4]), "{:?}", f.paths);
    assert_eq!(f.goodput_kbps, b.flows[0].goodput_kbps);
    // The discovery: a PREQ flooded (each of the 4 others forwards it once) and a PREP back
    // along the 4 hops, at least.
    let sent =
        |kind: &str| a.routing_messages.iter().find(|m| m.kind == kind).map_or(0, |m| m.messages);
    assert!(sent("hwmp_preq") >= 4 && sent("hwmp_prep") >= 4, "{:?}", a.routing_messages);
    // Elements travel in action frames: 2 octets of category and action, and the element
    // (PREQ with one target 39 octets, PREP 33).
    let bytes = |kind: &str| a.routing_messages.iter().find(|m| m.kind == kind).unwrap().bytes;
    assert_eq!(bytes("hwmp_preq"), sent("hwmp_preq") * (2 + 39));
    assert_eq!(bytes("hwmp_prep"), sent("hwmp_prep") * (2 + 33));
}

#[test]
fn discovered_paths_on_a_grid_are_shortest() {
    // A 4x4 grid, 200 m apart: equal links, so the least airtime is the fewest hops.
    let grid = "kind = \"grid\"\nrows = 4\ncols = 4\nspacing_m = 200.0";
    let flow = "src = 0\ndst = 15\ntransport = \"udp\"\ninterval_s = 0.5";
    let mut w = prepare(&parse_toml(&scenario(grid, "", flow, 10.0)).unwrap()).unwrap();
    w.run_until(5_000_000_000).unwrap();
    let route = w.route_now(NodeId(0), NodeId(15));
    assert_eq!(route.len(), 7, "{route:?}");
    for pair in route.windows(2) {
        let (x, y) = (pair[0], pair[1]);
        assert_eq!((x / 4).abs_diff(y / 4) + (x % 4).abs_diff(y % 4), 1, "{route:?}");
    }
}

#[test]
fn proactive_modes_give_every_node_a_path_to_the_root_before_any_data() {
    // Root 0 of a 5-node chain; the one flow (one datagram from 1 to 0, at 1000 s) sends
    // nothing in the run: paths come from the root's announcements alone.
    let idle = "src = 1\ndst = 0\ntransport = \"udp\"\ninterval_s = 1000.0\nstart_s = 19.0";
    for mode in ["proactive_preq", "proactive_preq_prep", "rann"] {
        let routing = format!("hwmp_root_mode = \"{mode}\"\nhwmp_root = 0");
        let toml = scenario(CHAIN4, &routing, idle, 20.0);
        let mut w = prepare(&parse_toml(&toml).unwrap()).unwrap();
        w.run_until(15_000_000_000).unwrap();
        for n in 1..5u32 {
            let route = w.route_now(NodeId(n), NodeId(0));
            let want: Vec<u32> = (0..=n).rev().collect();
            assert_eq!(route, want, "{mode}: {n} -> root");
        }
        // With a PREP (and RANN's PREQ answered by the root), the root has paths back.
        let back = w.route_now(NodeId(0), NodeId(4));
        assert_eq!(back.len(), if mode == "proactive_preq" { 0 } else { 5 }, "{mode}: {back:?}");
    }
}

#[test]
fn hwmp_keys_are_refused_by_name_where_they_do_not_apply() {
    let flow = "src = 0\ndst = 1\ntransport = \"udp\"";
    let cases = [
        ("protocol = \"aodv\"\nhwmp_root = 0", "routing.hwmp_root"),
        ("protocol = \"hwmp\"\nhwmp_root = 0", "routing.hwmp_root"),
        ("protocol = \"hwmp\"\nhwmp_root_mode = \"rann\"", "routing.hwmp_root"),
        ("protocol = \"hwmp\"\nhwmp_root_mode = \"rann\"\nhwmp_root = 9", "routing.hwmp_root"),
        (
            "protocol = \"hwmp\"\nhwmp_active_path_timeout_s = 0.0",
            "routing.hwmp_active_path_timeout_s",
        ),
        ("protocol = \"olsr\"\nhwmp_fail_average = \"time\"", "routing.hwmp_fail_average"),
        ("protocol = \"hwmp\"\nhwmp_fail_average = \"frames\"", "routing.hwmp_fail_average"),
    ];
    for (routing, key) in cases {
        let toml = format!("[topology]\n{CHAIN4}\n[routing]\n{routing}\n[[flows]]\n{flow}\n");
        let e = parse_toml(&toml)
            .and_then(|v| hopsim_core::scenario::validate(&v))
            .expect_err("refused");
        assert_eq!(e.key, key, "{routing}: {e}");
    }
}

//! The routes a flow took (`path`, `paths` of the result) under each routing protocol.

mod common;

use hopsim_core::observe::metrics::FlowResult;

fn chain(protocol: &str, extra: &str) -> String {
    format!(
        "duration_s = 20.0\nwarmup_s = 0.0\n[topology]\nkind = \"chain\"\nhops = 4\n\
         spacing_m = 200.0\n[routing]\nprotocol = \"{protocol}\"\n{extra}\n\
         [[flows]]\nsrc = 0\ndst = 4\ntransport = \"udp\"\ninterval_s = 0.05\n"
    )
}

fn total_share(f: &FlowResult) -> f64 {
    f.paths.iter().map(|p| p.time_share).sum()
}

#[test]
fn a_static_route_holds_the_whole_window() {
    let r = common::run_checked(&chain("static", ""));
    let f = &r.flows[0];
    assert_eq!(f.path.as_deref(), Some(&[0, 1, 2, 3, 4][..]));
    assert_eq!(f.paths.len(), 1);
    assert_eq!(f.paths[0].nodes, vec![0, 1, 2, 3, 4]);
    assert_eq!(f.paths[0].time_share, 1.0);
}

#[test]
fn on_demand_routing_reports_the_chain_and_the_wait_for_it() {
    for protocol in ["aodv", "dsr"] {
        let r = common::run_checked(&chain(protocol, ""));
        let f = &r.flows[0];
        // On a chain the only route is the chain itself; before the first discovery ends the
        // source has none, which is a small share of the 20 s (a discovery takes ms).
        assert_eq!(f.path.as_deref(), Some(&[0, 1, 2, 3, 4][..]), "{protocol}");
        assert!((total_share(f) - 1.0).abs() < 1e-12, "{protocol}: {:?}", f.paths);
        let route = f.paths.iter().find(|p| p.nodes == [0, 1, 2, 3, 4]).expect("the chain");
        assert!(route.time_share > 0.95, "{protocol}: {:?}", f.paths);
        let none = f.paths.iter().find(|p| p.nodes.is_empty()).expect("the first discovery");
        assert!(none.time_share > 0.0 && none.time_share < 0.01, "{protocol}: {:?}", f.paths);
    }
}

#[test]
fn routes_in_a_fast_manet_are_loop_free_and_end_to_end() {
    // Nodes at up to 10 m/s in a strip: routes break and change; each one reported
    // runs from the flow's source to its destination without a loop, and `path` is the
    // route held longest.
    let r = common::run_checked(
        "duration_s = 60.0\nwarmup_s = 5.0\nseed = 5\n[routing]\nprotocol = \"aodv\"\n\
         [topology]\nkind = \"random\"\nnodes = 25\narea_m = [1000.0, 300.0]\n\
         connected = \"reseed\"\n[mobility]\nmodel = \"random_waypoint\"\nspeed_min_mps = 1.0\n\
         speed_max_mps = 10.0\n[traffic]\nrandom_flows = 4\ninterval_s = 0.1\npayload_bytes = 512\n",
    );
    for f in &r.flows {
        assert!((total_share(f) - 1.0).abs() < 1e-9 || f.paths.is_empty(), "{:?}", f.paths);
        for p in &f.paths {
            if !p.nodes.is_empty() {
                assert_eq!((p.nodes[0], *p.nodes.last().unwrap()), (f.src, f.dst));
                let mut seen = p.nodes.clone();
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), p.nodes.len(), "no loops: {:?}", p.nodes);
            }
        }
        let longest = f.paths.iter().find(|p| !p.nodes.is_empty()).map(|p| &p.nodes);
        assert_eq!(f.path.as_ref(), longest, "{:?}", f.paths);
    }
}

#[test]
fn etx_sources_have_no_route_while_links_are_measured() {
    // ETX holds every packet until its routes freeze at etx_warmup_s (5 s of 20 s): that
    // time is "no route", then the frozen route holds (on a chain, the chain).
    let r = common::run_checked(&chain("etx", "etx_warmup_s = 5.0"));
    let f = &r.flows[0];
    let none = f.paths.iter().find(|p| p.nodes.is_empty()).expect("the warm-up");
    assert!((none.time_share - 0.25).abs() < 0.01, "{:?}", f.paths);
    assert_eq!(f.paths.len(), 2, "only the frozen route besides: {:?}", f.paths);
    assert_eq!(f.path.as_deref(), Some(&[0, 1, 2, 3, 4][..]));
}

/// The route in use at the end is credited up to the end time, not to the last event
/// processed: the clock of a finished run reads its end time.
#[test]
fn a_finished_run_reads_its_end_time() {
    let scenario = hopsim_core::scenario::parse_toml(&chain("aodv", "")).expect("parses");
    let mut world = hopsim_core::prepare(&scenario).expect("builds");
    world.run().expect("runs");
    assert_eq!(world.now(), 20_000_000_000);
}

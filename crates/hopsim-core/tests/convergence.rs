//! When each flow's source first held a complete route, and how often its route changed
//! (issue 36): a static route at once, a reactive one after its discovery, OLSR's once links
//! are symmetric and the topology has flooded.

mod common;

fn chain(protocol: &str) -> String {
    format!(
        "duration_s = 30.0\n[topology]\nkind = \"chain\"\nhops = 4\nspacing_m = 200.0\n\
         [routing]\nprotocol = \"{protocol}\"\n[[flows]]\nsrc = 0\ndst = 4\n\
         transport = \"udp\"\ninterval_s = 0.05\nstart_s = 0.2\n"
    )
}

#[test]
fn first_routes_follow_each_protocols_mechanism() {
    let first = |protocol: &str| {
        let r = common::run_checked(&chain(protocol));
        let f = &r.flows[0];
        assert_eq!(r.convergence_s, f.first_route_s, "one flow: the run's is the flow's");
        (f.first_route_s.expect("a route"), f.route_changes)
    };
    // Static: the route exists before the first datagram (sent at start_s).
    assert_eq!(first("static"), (0.2, 0));
    // Reactive: the first datagram waits for the discovery (a request flooded over four
    // hops and the reply back: well under a second at 2 Mbit/s), sampled at the next send.
    let mut reactive: f64 = 0.0;
    for protocol in ["aodv", "dsr", "hwmp"] {
        let (t, _) = first(protocol);
        assert!(t > 0.2 && t < 1.0, "{protocol}: {t}");
        reactive = reactive.max(t);
    }
    // OLSR: a link is symmetric only once each end has heard a HELLO naming it (RFC 3626
    // 7.1.1; HELLOs every 2 s, the first spread over one interval), and the far end is known
    // only from a TC (every 5 s, sent once a node has selectors): later than any discovery,
    // yet within a few TC intervals.
    let (t, _) = first("olsr");
    assert!(t > reactive && t < 15.0, "olsr: {t} (reactive {reactive})");
}

//! TCP over the chain: every run also checks the invariants (packet conservation, every byte
//! handed to the application once and in order).

mod common;

fn chain_tcp(hops: u32, tcp: &str, extra: &str) -> String {
    format!(
        "duration_s = 60.0\nwarmup_s = 5.0\n{extra}\n[topology]\nkind = \"chain\"\nhops = {hops}\nspacing_m = 200.0\n\
         [[flows]]\nsrc = 0\ndst = {hops}\ntransport = \"tcp\"\n[flows.tcp]\n{tcp}\n"
    )
}

#[test]
fn fixed_transfer_completes_intact_under_loss_for_every_variant() {
    for variant in ["reno", "newreno", "sack"] {
        let text =
            chain_tcp(3, &format!("variant = \"{variant}\""), "[radio]\nframe_error_rate = 0.2\n")
                .replace("transport = \"tcp\"", "transport = \"tcp\"\nbytes = 292000");
        let r = common::run_checked(&text);
        let t = r.flows[0].tcp.as_ref().unwrap();
        assert_eq!(t.bytes_delivered, 292_000, "{variant}");
        assert!(t.transfer_completed_s.is_some(), "{variant}");
        assert!(r.totals.frame_errors > 0);
    }
}

#[test]
fn flows_in_both_directions_share_the_chain() {
    let text = "duration_s = 60.0\nwarmup_s = 5.0\n[topology]\nkind = \"chain\"\nhops = 4\nspacing_m = 200.0\n\
                [[flows]]\nsrc = 0\ndst = 4\ntransport = \"tcp\"\n\
                [[flows]]\nsrc = 4\ndst = 1\ntransport = \"tcp\"\n[flows.tcp]\nvariant = \"sack\"\ndelayed_ack = true\n\
                [[flows]]\nsrc = 2\ndst = 0\ninterval_s = 0.2\n";
    let r = common::run_checked(text);
    for f in &r.flows {
        assert!(f.goodput_kbps > 0.0, "flow {} starved", f.id);
    }
}

#[test]
fn tcp_runs_are_deterministic() {
    let text = chain_tcp(4, "variant = \"sack\"\nack_thinning = true", "");
    let a = serde_json::to_string(&common::run_checked(&text)).unwrap();
    let b = serde_json::to_string(&common::run_checked(&text)).unwrap();
    assert_eq!(a, b);
}

#[test]
fn tcp_over_aodv_and_dsr_on_a_static_chain_is_close_to_static_routing() {
    for protocol in ["aodv", "dsr"] {
        for variant in ["newreno", "vegas"] {
            let base = chain_tcp(7, &format!("variant = \"{variant}\""), "");
            let stat = common::run_checked(&base);
            let routing = format!("[routing]\nprotocol = \"{protocol}\"\n[topology]");
            let dynamic = common::run_checked(&base.replace("[topology]", &routing));
            let (g_s, g_d) = (stat.flows[0].goodput_kbps, dynamic.flows[0].goodput_kbps);
            let t = &dynamic.totals;
            println!(
                "{variant} {protocol}: static {g_s:.1} dynamic {g_d:.1} routing {} pkts, failures {} false {}",
                t.routing_packets, t.link_failures, t.false_route_failures
            );
            assert!(g_d > 0.7 * g_s, "{variant} over {protocol}: {g_d} vs static {g_s}");
            assert!(t.routing_packets > 0);
        }
    }
}

#[test]
fn aodv_hello_messages_are_an_option() {
    let base = chain_tcp(4, "variant = \"newreno\"", "[routing]\nprotocol = \"aodv\"");
    let plain = common::run_checked(&base);
    let text = base.replace("protocol = \"aodv\"", "protocol = \"aodv\"\nhello = true");
    let hello = common::run_checked(&text);
    // RFC 3561 6.9: a node on an active route broadcasts a HELLO each HELLO_INTERVAL (1 s) in
    // which it sent no other broadcast: at most one a second from each of the 5 nodes over
    // the 60 s, fewer where a RREQ stood in for one. Counted in the event trace.
    let dir = std::env::temp_dir().join(format!("hopsim-hello-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("trace.csv");
    let scenario = hopsim_core::scenario::parse_toml(&text).unwrap();
    let options = hopsim_core::RunOptions { event_trace: Some(path.clone()), ..Default::default() };
    let mut world = hopsim_core::prepare_with(&scenario, &options).unwrap();
    world.run().unwrap();
    drop(world);
    let trace = std::fs::read_to_string(&path).unwrap();
    let hellos = trace.lines().filter(|l| l.contains(",route_beacon,")).count();
    std::fs::remove_dir_all(&dir).ok();
    assert!((200..=300).contains(&hellos), "{hellos} HELLOs");
    assert!(hello.totals.routing_packets >= plain.totals.routing_packets);
    assert!(hello.flows[0].goodput_kbps > 0.8 * plain.flows[0].goodput_kbps);
}

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
fn tcp_over_aodv_on_a_static_chain_is_close_to_static_routing() {
    for variant in ["newreno", "vegas"] {
        let base = chain_tcp(7, &format!("variant = \"{variant}\""), "");
        let stat = common::run_checked(&base);
        let aodv = common::run_checked(
            &base.replace("[topology]", "[routing]\nprotocol = \"aodv\"\n[topology]"),
        );
        let (g_s, g_a) = (stat.flows[0].goodput_kbps, aodv.flows[0].goodput_kbps);
        println!(
            "{variant}: static {g_s:.1} aodv {g_a:.1} routing {} pkts, lf {} false {}",
            aodv.totals.routing_packets,
            aodv.totals.link_failures,
            aodv.totals.false_route_failures
        );
        assert!(g_a > 0.7 * g_s, "{variant}: AODV {g_a} vs static {g_s}");
        assert!(aodv.totals.routing_packets > 0);
    }
}

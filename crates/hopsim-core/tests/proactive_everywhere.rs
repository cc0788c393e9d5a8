//! OLSR and HWMP run wherever the other protocols do (issue 36): with nodes moving (random
//! waypoint) and on every PHY, each run conserving its packets (`run_checked`) and carrying
//! traffic.

mod common;

const MANET: &str = r#"
duration_s = 40.0
warmup_s = 5.0
seed = 5
[topology]
kind = "random"
nodes = 20
area_m = [1000.0, 300.0]
connected = "reseed"
[mobility]
model = "random_waypoint"
speed_min_mps = 1.0
speed_max_mps = 10.0
[traffic]
random_flows = 3
interval_s = 0.1
payload_bytes = 512
"#;

#[test]
fn moving_nodes_keep_finding_routes() {
    for protocol in ["olsr", "hwmp"] {
        let toml = format!("{MANET}[routing]\nprotocol = \"{protocol}\"\n");
        let r = common::run_checked(&toml);
        let delivered: u64 = r.flows.iter().map(|f| f.packets_delivered).sum();
        let sent: u64 = r.flows.iter().map(|f| f.packets_sent).sum();
        assert!(delivered * 2 > sent, "{protocol}: {delivered} of {sent} delivered");
        assert!(r.flows.iter().all(|f| f.first_route_s.is_some()), "{protocol}");
    }
}

#[test]
fn every_phy_carries_tcp_over_both() {
    // Rates the default radio decodes over 30 m links at each standard.
    for (standard, rate) in [
        ("80211b", "11.0"),
        ("80211a", "12.0"),
        ("80211g", "12.0"),
        ("80211n", "\"mcs4\""),
        ("80211ac", "\"mcs4\""),
    ] {
        for protocol in ["olsr", "hwmp"] {
            let toml = format!(
                "duration_s = 20.0\n[topology]\nkind = \"chain\"\nhops = 3\nspacing_m = 30.0\n\
                 [radio]\nstandard = \"{standard}\"\n[mac]\ndata_rate_mbps = {rate}\n\
                 [routing]\nprotocol = \"{protocol}\"\n[[flows]]\nsrc = 0\ndst = 3\n\
                 transport = \"tcp\"\nstart_s = 8.0\n"
            );
            let r = common::run_checked(&toml);
            let f = &r.flows[0];
            assert!(f.goodput_kbps > 100.0, "{standard} {protocol}: {}", f.goodput_kbps);
        }
    }
}

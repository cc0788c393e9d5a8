//! 802.11n A-MPDU aggregation under Block Ack in whole runs (docs/models.md 20.1): every
//! packet accounted for (sent = delivered + dropped + in flight), no invariant broken, under
//! hidden terminals, RTS/CTS, routing and mobility; TCP data arrives in order at the
//! receiver (the reordering buffer); and with aggregation off nothing of it shows.

mod common;

use common::run_checked;
use serde_json::Value;

fn totals(r: &hopsim_core::RunResult) -> Value {
    serde_json::to_value(r).unwrap()["totals"].clone()
}

/// A 4-hop chain 30 m apart (two hops apart hidden), TCP one way, 2.9 Mbit/s of UDP the other.
fn chain(extra_mac: &str) -> String {
    format!(
        "duration_s = 8.0\nwarmup_s = 1.0\nseed = 5\n\
         [radio]\nstandard = \"80211n\"\n\
         [mac]\ndata_rate_mbps = \"mcs4\"\n{extra_mac}\n\
         [topology]\nkind = \"chain\"\nhops = 4\nspacing_m = 30.0\n\
         [routing]\nprotocol = \"static\"\n\
         [[flows]]\nsrc = 0\ndst = 4\ntransport = \"tcp\"\n\
         [[flows]]\nsrc = 4\ndst = 1\ntransport = \"udp\"\ninterval_s = 0.004\n"
    )
}

#[test]
fn hidden_terminal_chains_account_for_every_packet() {
    for mac in ["", "rts_threshold_bytes = 0", "rts_threshold_bytes = 3000\nampdu_max_mpdus = 7"] {
        let r = run_checked(&chain(mac));
        let t = totals(&r);
        assert!(t["ampdus_sent"].as_u64().unwrap() > 100, "{mac}: {t}");
        assert!(t["block_acks_received"].as_u64().unwrap() > 100, "{mac}");
        // Hidden terminals cost MPDUs, which are sent again: TCP still gets its data.
        assert!(t["mpdus_failed"].as_u64().unwrap() > 0, "{mac}");
        assert!(r.flows[0].goodput_kbps > 500.0, "{mac}: {}", r.flows[0].goodput_kbps);
        let mean = t["mean_ampdu_mpdus"].as_f64().unwrap();
        let most = if mac.contains("= 7") { 7.0 } else { 64.0 };
        assert!(mean >= 2.0 && mean <= most, "{mac}: {mean}");
    }
}

#[test]
fn aodv_and_moving_nodes_with_aggregation_account_for_every_packet() {
    let r = run_checked(
        "duration_s = 20.0\nwarmup_s = 2.0\nseed = 9\n\
         [radio]\nstandard = \"80211n\"\n\
         [mac]\ndata_rate_mbps = \"mcs2\"\n\
         [topology]\nkind = \"random\"\nnodes = 20\narea_m = [150.0, 150.0]\nconnected = \"reseed\"\n\
         [routing]\nprotocol = \"aodv\"\n\
         [mobility]\nmodel = \"random_waypoint\"\nspeed_min_mps = 1.0\nspeed_max_mps = 5.0\npause_s = 2.0\n\
         [[flows]]\nsrc = 0\ndst = 7\ntransport = \"tcp\"\n\
         [[flows]]\nsrc = 3\ndst = 12\ntransport = \"tcp\"\n\
         [[flows]]\nsrc = 15\ndst = 2\ntransport = \"udp\"\ninterval_s = 0.005\n",
    );
    assert!(totals(&r)["ampdus_sent"].as_u64().unwrap() > 0);
}

#[test]
fn without_aggregation_no_block_ack_keys_appear() {
    let r = run_checked(&chain("ampdu_max_bytes = 0"));
    let t = totals(&r);
    assert!(t.get("ampdus_sent").is_none(), "{t}");
    assert!(t["ack_sent"].as_u64().unwrap() > 0);
}

//! A-MSDU aggregation in whole runs (docs/models.md 20.2): every packet accounted for (sent =
//! delivered + dropped + in flight, each MSDU of an A-MSDU on its own), no invariant broken,
//! with and without A-MPDUs, under hidden terminals, frame errors, RTS/CTS, two access
//! categories, routing and mobility; and reruns give the same result.

mod common;

use common::run_checked;
use serde_json::Value;

fn totals(r: &hopsim_core::RunResult) -> Value {
    serde_json::to_value(r).unwrap()["totals"].clone()
}

/// A 4-hop chain 30 m apart (two hops apart hidden), TCP one way, UDP of another category
/// the other.
fn chain(extra_mac: &str) -> String {
    format!(
        "duration_s = 6.0\nwarmup_s = 1.0\nseed = 7\n\
         [radio]\nstandard = \"80211n\"\nframe_error_rate = 0.02\n\
         [mac]\ndata_rate_mbps = \"mcs4\"\n{extra_mac}\n\
         [topology]\nkind = \"chain\"\nhops = 4\nspacing_m = 30.0\n\
         [routing]\nprotocol = \"static\"\n\
         [[flows]]\nsrc = 0\ndst = 4\ntransport = \"tcp\"\n\
         [[flows]]\nsrc = 4\ndst = 1\ntransport = \"udp\"\ninterval_s = 0.02\n\
         payload_bytes = 300\naccess_category = \"VI\"\n"
    )
}

#[test]
fn lossy_hidden_terminal_chains_account_for_every_msdu() {
    for mac in [
        "amsdu_max_bytes = 7935\nampdu_max_bytes = 0",
        "amsdu_max_bytes = 7935\nampdu_max_bytes = 65535",
        "amsdu_max_bytes = 3839\nampdu_max_bytes = 65535\nrts_threshold_bytes = 2000",
        "amsdu_max_bytes = 7935\nampdu_max_bytes = 0\nrts_threshold_bytes = 0",
    ] {
        let text = chain(mac);
        let r = run_checked(&text);
        let t = totals(&r);
        let (amsdus, msdus) = (t["amsdus"].as_u64().unwrap(), t["amsdu_msdus"].as_u64().unwrap());
        assert!(amsdus > 50 && msdus >= 2 * amsdus, "{mac}: {t}");
        assert!(r.flows[0].goodput_kbps > 300.0, "{mac}: {}", r.flows[0].goodput_kbps);
        let again = run_checked(&text);
        assert_eq!(serde_json::to_value(&again).unwrap(), serde_json::to_value(&r).unwrap());
    }
}

#[test]
fn aodv_and_moving_nodes_with_a_msdus_account_for_every_msdu() {
    let r = run_checked(
        "duration_s = 20.0\nwarmup_s = 2.0\nseed = 9\n\
         [radio]\nstandard = \"80211ac\"\nchannel_width_mhz = 40\n\
         [mac]\ndata_rate_mbps = \"mcs2\"\namsdu_max_bytes = 11398\n\
         [topology]\nkind = \"random\"\nnodes = 20\narea_m = [150.0, 150.0]\nconnected = \"reseed\"\n\
         [routing]\nprotocol = \"aodv\"\n\
         [mobility]\nmodel = \"random_waypoint\"\nspeed_min_mps = 1.0\nspeed_max_mps = 5.0\npause_s = 2.0\n\
         [[flows]]\nsrc = 0\ndst = 7\ntransport = \"tcp\"\n\
         [[flows]]\nsrc = 3\ndst = 12\ntransport = \"tcp\"\n\
         [[flows]]\nsrc = 15\ndst = 2\ntransport = \"udp\"\ninterval_s = 0.001\n",
    );
    assert!(totals(&r)["amsdus"].as_u64().unwrap() > 0);
}

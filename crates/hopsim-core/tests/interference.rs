//! Outside interferers in whole runs (docs/models.md 24): on a 4-hop chain with TCP both
//! ways, in capture and SINR reception, with fading and Gauss-Markov links, and among moving
//! DSR nodes: every packet accounted for, no invariant broken (debug builds check the
//! engine's assertions too), reruns identical, and the interferers cost goodput.

mod common;

use common::run_checked;
use serde_json::Value;

fn doc(r: &hopsim_core::RunResult) -> Value {
    serde_json::to_value(r).unwrap()
}

/// Two interferers over the chain's middle: one bursty, one periodic that stops early.
const SOURCES: &str = "[[interference]]\nx_m = 300.0\ny_m = 80.0\npower_dbm = 15.0\n\
     on_mean_s = 0.004\noff_mean_s = 0.012\n\
     [[interference]]\nx_m = 450.0\ny_m = -60.0\npower_dbm = 20.0\n\
     on_mean_s = 0.008\noff_mean_s = 0.008\nprocess = \"periodic\"\nstart_s = 2.0\nstop_s = 9.0\n";

fn chain(radio: &str, interference: &str) -> String {
    format!(
        "duration_s = 15.0\nwarmup_s = 1.0\nseed = 4\n\
         [radio]\n{radio}\n\
         [topology]\nkind = \"chain\"\nhops = 4\nspacing_m = 150.0\n\
         [routing]\nprotocol = \"static\"\n\
         [[flows]]\nsrc = 0\ndst = 4\ntransport = \"tcp\"\n\
         [[flows]]\nsrc = 4\ndst = 1\ntransport = \"tcp\"\n\
         {interference}"
    )
}

fn goodput_kbps(d: &Value) -> f64 {
    d["flows"].as_array().unwrap().iter().map(|f| f["goodput_kbps"].as_f64().unwrap()).sum()
}

#[test]
fn interfered_chains_keep_every_invariant() {
    for radio in [
        "",
        "reception = \"sinr\"",
        "fading = \"rayleigh\"",
        "reception = \"sinr\"\nfading = \"ricean\"\n[radio.gauss_markov]\nsigma_db = 4.0",
    ] {
        let text = chain(radio, SOURCES);
        let d = doc(&run_checked(&text));
        let sources = d["interference"].as_array().expect("the interferers' results");
        assert_eq!(sources.len(), 2);
        for s in sources {
            assert!(
                s["periods"].as_u64().unwrap() > 10 && s["nodes_reached"].as_u64().unwrap() > 0
            );
        }
        // The periodic one is on half of its 7 s.
        let occ = sources[1]["occupancy"].as_f64().unwrap();
        assert!((occ - 0.5).abs() < 0.01, "{radio}: {occ}");
        let clean = doc(&run_checked(&chain(radio, "")));
        assert!(clean.get("interference").is_none());
        assert!(goodput_kbps(&d) < 0.95 * goodput_kbps(&clean), "{radio}: no cost");
        assert!(goodput_kbps(&d) > 10.0, "{radio}: nothing carried");
        assert_eq!(doc(&run_checked(&text)), d, "{radio}: a rerun differs");
    }
}

#[test]
fn moving_nodes_among_interferers() {
    let d = doc(&run_checked(
        "duration_s = 20.0\nwarmup_s = 2.0\nseed = 2\n\
         [radio]\nreception = \"sinr\"\n\
         [topology]\nkind = \"random\"\nnodes = 15\narea_m = [600.0, 600.0]\nconnected = \"reseed\"\n\
         [routing]\nprotocol = \"dsr\"\n\
         [mobility]\nmodel = \"random_waypoint\"\nspeed_min_mps = 1.0\nspeed_max_mps = 10.0\npause_s = 1.0\n\
         [[flows]]\nsrc = 0\ndst = 7\ntransport = \"tcp\"\n\
         [[flows]]\nsrc = 3\ndst = 12\ntransport = \"udp\"\ninterval_s = 0.01\n\
         [[interference]]\nx_m = 300.0\ny_m = 300.0\npower_dbm = 20.0\non_mean_s = 0.01\noff_mean_s = 0.03\n",
    ));
    assert!(d["interference"][0]["periods"].as_u64().unwrap() > 100);
    // Reached as the nodes move: at least one node at the end, at most all.
    let reached = d["interference"][0]["nodes_reached"].as_u64().unwrap();
    assert!((1..=15).contains(&reached), "{reached}");
}

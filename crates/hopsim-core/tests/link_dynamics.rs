//! Links over time in whole runs (docs/models.md 23): Gauss-Markov shadowing and
//! Gilbert-Elliott losses under hidden terminals, TCP both ways, capture and SINR reception,
//! fading, DSR and moving nodes: every packet accounted for, no invariant broken (debug
//! builds check the engine's assertions too), reruns identical, and losses counted only with
//! the Gilbert-Elliott table.

mod common;

use common::run_checked;
use serde_json::Value;

fn doc(r: &hopsim_core::RunResult) -> Value {
    serde_json::to_value(r).unwrap()
}

fn chain(radio: &str) -> String {
    format!(
        "duration_s = 15.0\nwarmup_s = 1.0\nseed = 4\n\
         [radio]\n{radio}\n\
         [topology]\nkind = \"chain\"\nhops = 4\nspacing_m = 150.0\n\
         [routing]\nprotocol = \"static\"\n\
         [[flows]]\nsrc = 0\ndst = 4\ntransport = \"tcp\"\n\
         [[flows]]\nsrc = 4\ndst = 1\ntransport = \"tcp\"\n"
    )
}

#[test]
fn lossy_correlated_chains_keep_every_invariant() {
    let gm = "[radio.gauss_markov]\nsigma_db = 4.0\ncoherence_s = 0.3";
    let gm_sym = "[radio.gauss_markov]\nsigma_db = 6.0\ncoherence_s = 0.05\nsymmetric = true";
    let ge = "[radio.gilbert_elliott]\ngood_mean_s = 0.5\nbad_mean_s = 0.05\nloss_good = 0.01";
    for radio in [
        gm.to_string(),
        format!("reception = \"sinr\"\n{gm_sym}"),
        ge.to_string(),
        format!("reception = \"sinr\"\nfading = \"rayleigh\"\n{gm}\n{ge}"),
        format!("{gm_sym}\n{ge}\nsymmetric = true"),
    ] {
        let text = chain(&radio);
        let r = run_checked(&text);
        let d = doc(&r);
        let losses = &d["totals"]["channel_losses"];
        assert_eq!(losses.is_u64(), radio.contains("gilbert_elliott"), "{radio}: {losses}");
        if let Some(n) = losses.as_u64() {
            assert!(n > 0, "{radio}");
        }
        assert!(r.flows.iter().any(|f| f.goodput_kbps > 10.0), "{radio}: nothing carried");
        assert_eq!(doc(&run_checked(&text)), d, "{radio}: a rerun differs");
    }
}

#[test]
fn moving_nodes_with_correlated_links() {
    run_checked(
        "duration_s = 20.0\nwarmup_s = 2.0\nseed = 2\n\
         [radio]\nreception = \"sinr\"\n\
         [radio.gauss_markov]\nsigma_db = 5.0\ncoherence_s = 0.5\n\
         [radio.gilbert_elliott]\ngood_mean_s = 2.0\nbad_mean_s = 0.1\n\
         [topology]\nkind = \"random\"\nnodes = 15\narea_m = [600.0, 600.0]\nconnected = \"reseed\"\n\
         [routing]\nprotocol = \"dsr\"\n\
         [mobility]\nmodel = \"random_waypoint\"\nspeed_min_mps = 1.0\nspeed_max_mps = 10.0\npause_s = 1.0\n\
         [[flows]]\nsrc = 0\ndst = 7\ntransport = \"tcp\"\n\
         [[flows]]\nsrc = 3\ndst = 12\ntransport = \"udp\"\ninterval_s = 0.01\n",
    );
}

//! Engine benchmark: events per second and simulated seconds per wall second for the 7-hop
//! paced-UDP chain and a 100-node random topology with 10 flows. `cargo bench -p hopsim-core`.
//! `HOPSIM_BENCH_FILE=scenario.toml cargo bench -p hopsim-core` times that scenario instead
//! (for profiling a case of your own: `perf record` on the bench binary).

use hopsim_core::{prepare, scenario::parse_toml};
use std::time::Instant;

const CHAIN7: &str = r#"
duration_s = 1000.0
[topology]
kind = "chain"
hops = 7
spacing_m = 200.0
[mac]
data_rate_mbps = 2.0
[[flows]]
src = 0
dst = 7
payload_bytes = 1460
interval_s = 0.05
"#;

fn random100() -> String {
    let mut s = String::from(
        "duration_s = 200.0\nseed = 3\n[topology]\nkind = \"random\"\nnodes = 100\narea_m = [1000.0, 1000.0]\n",
    );
    // Ten flows between fixed pairs; pairs that happen to be unconnected are skipped below.
    for i in 0..40u32 {
        s.push_str(&format!(
            "[[flows]]\nsrc = {}\ndst = {}\ninterval_s = 0.1\npayload_bytes = 512\n",
            i,
            99 - i
        ));
    }
    s
}

fn bench(name: &str, text: &str) {
    // `cargo bench -p hopsim-core -- NAME` runs only the benchmarks whose name contains NAME.
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
        return;
    }
    let scenario = parse_toml(text).expect("benchmark scenario parses");
    let mut best = f64::INFINITY;
    let mut events = 0;
    for _ in 0..3 {
        let mut world = prepare(&scenario).expect("benchmark scenario is valid");
        let t0 = Instant::now();
        world.run().expect("within budget");
        let wall = t0.elapsed().as_secs_f64();
        events = world.events();
        best = best.min(wall);
    }
    println!(
        "{name}: {events} events in {best:.3} s wall: {:.2} M events/s, {:.0} simulated s per wall s",
        events as f64 / best / 1e6,
        scenario.duration_s / best
    );
}

/// Keep the first ten flows whose endpoints are connected in this random placement.
fn connected_random100() -> String {
    let text = random100();
    let mut scenario = parse_toml(&text).expect("parses");
    let all = scenario.flows.clone();
    scenario.flows.clear();
    for f in all {
        scenario.flows.push(f);
        if prepare(&scenario).is_err() {
            scenario.flows.pop();
        }
        if scenario.flows.len() == 10 {
            break;
        }
    }
    assert_eq!(scenario.flows.len(), 10, "ten connected pairs");
    toml::to_string(&scenario).expect("serialises")
}

fn main() {
    if let Ok(path) = std::env::var("HOPSIM_BENCH_FILE") {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        bench(&path, &text);
        return;
    }
    bench("chain7_paced_udp_50ms_1000s", CHAIN7);
    // Paced near the chain's capacity (1460 B every 30 ms, about 390 kbit/s offered).
    bench("chain7_paced_udp_30ms_1000s", &CHAIN7.replace("interval_s = 0.05", "interval_s = 0.03"));
    if std::env::args().skip(1).all(|a| a.starts_with('-') || "random100".contains(a.as_str())) {
        bench("random100_10flows_200s", &connected_random100());
    }
    // The studies' workload: one NewReno bulk transfer over the 7-hop chain.
    let tcp = CHAIN7.replace("interval_s = 0.05", "transport = \"tcp\"");
    bench("chain7_tcp_newreno_1000s", &tcp);
    // The same over AODV and over DSR (route discovery, the routing glue per packet).
    bench("chain7_tcp_aodv_1000s", &format!("{tcp}[routing]\nprotocol = \"aodv\"\n"));
    bench("chain7_tcp_dsr_1000s", &format!("{tcp}[routing]\nprotocol = \"dsr\"\n"));
}

//! Issue 12's defects, one regression test each: inputs that once panicked, hung, ran away or
//! were read inexactly are now refused with the key named, or stopped by the run's budget.

use hopsim_core::engine::budget::Budget;
use hopsim_core::scenario::{parse_json, parse_toml, validate};
use hopsim_core::{prepare_json, run_json, validate_json, validate_json_within, RunOptions, World};

const CHAIN: &str =
    "duration_s = 10.0\n[topology]\nkind = \"chain\"\nhops = 2\nspacing_m = 200.0\n\
                     [[flows]]\nsrc = 0\ndst = 2\n";

fn rejected(text: &str) -> hopsim_core::ScenarioError {
    let s = parse_toml(text).expect("parses");
    validate(&s).expect_err("must be rejected")
}

fn with(table: &str) -> String {
    format!("{CHAIN}{table}")
}

#[test]
fn impossible_radio_values_are_refused() {
    // Once: index out of bounds in phy/error_rate/mod.rs (an infinite SINR).
    let e = rejected(&with(
        "[radio]\nfrequency_hz = 1e-300\npropagation = \"log_distance\"\nreception = \"sinr\"\n",
    ));
    assert_eq!(e.key, "radio.frequency_hz");
    assert!(e.message.contains("1e-300"), "{}", e.message);
    assert_eq!(rejected(&with("[radio]\nfrequency_hz = -1.0\n")).key, "radio.frequency_hz");
    assert_eq!(rejected(&with("[radio]\nantenna_height_m = -1.5\n")).key, "radio.antenna_height_m");
}

#[test]
fn a_timer_past_the_clock_is_refused() {
    // Once: "event scheduled in the past" (the sum overflowed the nanosecond clock).
    let e = rejected(&with("[tcp]\ndelayed_ack = true\ndelayed_ack_timeout_s = 1.8e19\n"));
    assert_eq!(e.key, "tcp.delayed_ack_timeout_s");
}

#[test]
fn random_waypoint_speeds_are_bounded() {
    let moving = |speed: &str| {
        format!(
            "duration_s = 10.0\n[topology]\nkind = \"random\"\nnodes = 5\narea_m = [300.0, 300.0]\n\
             [mobility]\nmodel = \"random_waypoint\"\n{speed}\n[routing]\nprotocol = \"aodv\"\n\
             [[flows]]\nsrc = 0\ndst = 1\n"
        )
    };
    // Once: memory past 4 GB within seconds.
    assert_eq!(rejected(&moving("speed_max_mps = 1e300")).key, "mobility.speed_max_mps");
    // Once: a hang (every draw below 1 mm/s was redrawn for ever).
    assert_eq!(rejected(&moving("speed_max_mps = 1e-9")).key, "mobility.speed_max_mps");
    // The slowest allowed speed runs.
    run_json(
        &serde_json::to_string(&parse_toml(&moving("speed_max_mps = 0.01")).unwrap()).unwrap(),
    )
    .expect("slowest allowed speed runs");
}

#[test]
fn fast_moving_nodes_in_a_tiny_area_stop_at_the_memory_budget() {
    let text = "duration_s = 1e7\n[topology]\nkind = \"random\"\nnodes = 3\narea_m = [1.0, 1.0]\n\
                [mobility]\nmodel = \"random_waypoint\"\nspeed_max_mps = 1000.0\n[routing]\n\
                protocol = \"aodv\"\n[[flows]]\nsrc = 0\ndst = 1\n";
    let s = parse_toml(text).unwrap();
    validate(&s).unwrap();
    let budget = Budget { max_memory_mb: 16.0, ..Budget::default() };
    let e = World::build_within(&s, budget).err().expect("over the memory budget");
    assert_eq!(e.key, "mobility.speed_max_mps");
    assert!(e.message.contains("16 MB") && e.message.contains("max_memory_mb"), "{}", e.message);
}

fn json(text: &str) -> String {
    serde_json::to_string(&parse_toml(text).unwrap()).unwrap()
}

#[test]
fn a_paced_flow_too_fast_for_the_budget_is_refused_before_it_starts() {
    // Once: a run that would take hours, with no warning.
    let text = "duration_s = 100.0\n[topology]\nkind = \"chain\"\nhops = 2\nspacing_m = 200.0\n\
                [[flows]]\nsrc = 0\ndst = 2\ninterval_s = 1e-9\n";
    let t0 = std::time::Instant::now();
    let e = run_json(&json(text)).unwrap_err();
    assert!(t0.elapsed().as_secs_f64() < 1.0, "refused before it starts");
    assert_eq!(e.key, "flows.0.interval_s");
    assert!(e.message.contains("1e11") || e.message.contains("1.000e11"), "{}", e.message);
    // 1000 packets fit a budget of 2000 events, not one of 500.
    let text = text.replace("1e-9", "0.1");
    let opts = |n| RunOptions { max_events: Some(n), ..RunOptions::default() };
    assert_eq!(prepare_json(&json(&text), &opts(500)).err().unwrap().key, "flows.0.interval_s");
    assert!(prepare_json(&json(&text), &opts(2000)).is_ok());
    // Validation with options checks the same budget (sweeps check every point this way).
    let e = validate_json_within(&json(&text), &opts(500)).unwrap_err();
    assert_eq!(e.key, "flows.0.interval_s");
    assert!(validate_json_within(&json(&text), &opts(2000)).is_ok());
    assert!(validate_json(&json(&text)).is_ok(), "the default budget holds 1000 packets");
}

#[test]
fn a_run_that_reaches_its_event_budget_stops_with_the_cause() {
    let opts = RunOptions { max_events: Some(1000), ..RunOptions::default() };
    let (_, mut world) = prepare_json(&json(CHAIN), &opts).unwrap();
    let e = world.run().unwrap_err();
    assert_eq!(e.key, "max_events");
    assert!(world.events() == 1000, "stops at the budget exactly: {}", world.events());
    assert!(e.message.contains("1000 events"), "{}", e.message);
}

#[test]
fn the_budget_never_changes_a_result() {
    let default = run_json(&json(CHAIN)).unwrap();
    let (scenario, mut world) = prepare_json(&json(CHAIN), &RunOptions::default()).unwrap();
    let events = {
        world.run().unwrap();
        world.events()
    };
    let tight =
        RunOptions { max_events: Some(events), max_memory_mb: Some(64.0), ..RunOptions::default() };
    let (_, mut w) = prepare_json(&json(CHAIN), &tight).unwrap();
    w.run().expect("exactly enough events");
    assert_eq!(hopsim_core::result_json(&mut w, &scenario), default);
}

#[test]
fn floats_are_read_exactly() {
    // Once: 0.020074614997501326 resolved to 0.02007461499750133 (serde_json's fast path).
    for v in [0.020074614997501326_f64, 0.1 + 0.2, 1.0 / 3.0, 2.2250738585072014e-308, 914e6] {
        let text = format!(
            r#"{{"topology": {{"kind": "chain", "hops": 2, "spacing_m": 200.0}}, "duration_s": {v:e},
               "flows": [{{"src": 0, "dst": 2}}]}}"#
        );
        assert_eq!(parse_json(&text).unwrap().duration_s.to_bits(), v.to_bits(), "{v:e}");
        let text = text.replace(&format!("{v:e}"), &format!("{v}"));
        assert_eq!(parse_json(&text).unwrap().duration_s.to_bits(), v.to_bits(), "{v}");
    }
}

/// Every input the fuzzers ever found (and each defect of issue 12) as a scenario file in
/// fuzz/regressions/: each ends cleanly under the fuzzers' budget, refused or stopped with an
/// error naming its key, or run to its end.
#[test]
fn fuzz_regressions_end_cleanly() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/regressions");
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    assert!(files.len() >= 10, "the regression corpus is missing");
    let opts = RunOptions {
        max_events: Some(300_000),
        max_memory_mb: Some(256.0),
        ..RunOptions::default()
    };
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let t0 = std::time::Instant::now();
        let outcome = prepare_json(&text, &opts).and_then(|(_, mut w)| w.run());
        if let Err(e) = outcome {
            assert!(e.message.contains(&e.key), "{}: {}", f.display(), e.message);
        }
        assert!(t0.elapsed().as_secs_f64() < 5.0, "{} took {:?}", f.display(), t0.elapsed());
    }
}

#[test]
fn the_state_of_many_flows_counts_against_the_memory_budget() {
    // Found by the fuzzer: 100,000 random TCP flows on a 3-node chain took 1.8 GB while
    // its budget was 256 MB (flow state was not counted).
    let text = "duration_s = 1.0\n[topology]\nkind = \"chain\"\nhops = 2\nspacing_m = 200.0\n\
                [traffic]\nrandom_flows = 100000\ntransport = \"tcp\"\n";
    let opts = RunOptions { max_memory_mb: Some(256.0), ..RunOptions::default() };
    let e = prepare_json(&json(text), &opts).err().expect("refused");
    assert_eq!(e.key, "traffic.random_flows");
    assert!(e.message.contains("the state of 100000 flows"), "{}", e.message);
    // 1,000 flows fit (about 20 MB).
    assert!(prepare_json(&json(&text.replace("100000", "1000")), &opts).is_ok());
}

#[test]
fn a_flow_that_sends_almost_nothing_is_warned_about() {
    // `interval_s = 50` meant as 50 ms: two datagrams in 100 s.
    let text = "duration_s = 100.0\nwarmup_s = 10.0\n[topology]\nkind = \"chain\"\nhops = 2\n\
                spacing_m = 200.0\n[[flows]]\nsrc = 0\ndst = 2\ninterval_s = 50.0\n";
    let r = hopsim_core::run(&parse_toml(text).unwrap()).unwrap();
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    let w = &r.warnings[0];
    assert!(w.contains("flow 0 sends about 1 datagram(s)") && w.contains("50 ms is 0.05"), "{w}");
    // 0.05 s: 1800 datagrams in the window, no warning; 9 s: 10, none either (the limit).
    let fine = hopsim_core::run(&parse_toml(&text.replace("50.0", "0.05")).unwrap()).unwrap();
    assert!(fine.warnings.is_empty(), "{:?}", fine.warnings);
    let ten = hopsim_core::run(&parse_toml(&text.replace("50.0", "9.0")).unwrap()).unwrap();
    assert!(ten.warnings.is_empty(), "{:?}", ten.warnings);
}

//! Helpers shared by the scenario-level tests.
#![allow(dead_code)]

use hopsim_core::{run, scenario::parse_toml, RunResult};

/// Run a TOML scenario and check the invariants every run must satisfy.
pub fn run_checked(toml_text: &str) -> RunResult {
    let scenario = parse_toml(toml_text).expect("scenario parses");
    let result = run(&scenario).expect("scenario is valid");
    assert!(
        result.invariants.violations.is_empty(),
        "invariant violations: {:?}",
        result.invariants.violations
    );
    for f in &result.flows {
        assert_eq!(f.packets_sent, f.packets_delivered + f.packets_dropped + f.packets_in_flight);
    }
    result
}

//! The golden set: the result documents of the scenarios in `tests/golden/` (every routing
//! protocol, mobility, SINR and fading, auto rate, ETX, every TCP variant and window limit,
//! delayed ACK and ACK thinning, pacing, the ns2 profile, the time series) must stay
//! bit-identical: a refactor that changes any number fails here. A change of results that is
//! meant goes in a commit of its own, with the expectations re-recorded by
//! `HOPSIM_BLESS=1 cargo test --release --test golden` and the reason in the message.

use std::path::{Path, PathBuf};

use hopsim_core::scenario::parse_toml;
use hopsim_core::{prepare_with, result_json, RunOptions};
use serde_json::Value;

/// Scenarios also run with the time series on (its samples are part of the expectation).
const WITH_SERIES: &[&str] = &["tcp-newreno", "udp-paced-chain7"];
const SERIES_INTERVAL_S: f64 = 1.0;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// The result document of `toml` without the fields that name the build (`hopsim_version`).
fn result_of(toml: &str, series: bool) -> Value {
    let scenario = parse_toml(toml).expect("golden scenarios are valid");
    let options = RunOptions {
        series_interval_s: series.then_some(SERIES_INTERVAL_S),
        ..RunOptions::default()
    };
    let mut world = prepare_with(&scenario, &options).expect("golden scenarios build");
    world.run().expect("golden scenarios run within the default budget");
    let mut doc: Value = serde_json::from_str(&result_json(&mut world, &scenario)).unwrap();
    doc.as_object_mut().unwrap().remove("hopsim_version");
    doc
}

/// The first place where `a` and `b` differ, as a dotted path with both values.
fn first_difference(a: &Value, b: &Value, at: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<_> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| match (x.get(k), y.get(k)) {
                (Some(p), Some(q)) => first_difference(p, q, &format!("{at}.{k}")),
                (p, q) => Some(format!("{at}.{k}: {p:?} vs {q:?}")),
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_difference(p, q, &format!("{at}[{i}]"))),
        _ if a == b => None,
        _ => Some(format!("{at}: expected {a} but got {b}")),
    }
}

#[test]
fn golden_results_stay_bit_identical() {
    let bless = std::env::var_os("HOPSIM_BLESS").is_some();
    let mut cases: Vec<(String, bool)> = std::fs::read_dir(golden_dir())
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            let stem = path.file_stem()?.to_str()?.to_string();
            (path.extension()? == "toml").then_some(stem)
        })
        .flat_map(|stem| {
            let series = WITH_SERIES.contains(&stem.as_str());
            std::iter::once((stem.clone(), false)).chain(series.then_some((stem, true)))
        })
        .collect();
    cases.sort();
    assert!(cases.len() >= 30, "the golden set covers every feature: {} cases", cases.len());
    // Two threads: the runs are independent and deterministic whatever their order.
    let (left, right) = cases.split_at(cases.len() / 2);
    let run = |part: &[(String, bool)]| -> Vec<String> {
        part.iter().filter_map(|(stem, series)| check(stem, *series, bless)).collect()
    };
    let failures: Vec<String> = std::thread::scope(|s| {
        let a = s.spawn(|| run(left));
        let b = s.spawn(|| run(right));
        let mut all = a.join().unwrap();
        all.extend(b.join().unwrap());
        all
    });
    assert!(failures.is_empty(), "golden results changed:\n{}", failures.join("\n"));
}

/// Compare one case with its expectation (or record it when blessing); the failure, if any.
fn check(stem: &str, series: bool, bless: bool) -> Option<String> {
    let dir = golden_dir();
    let toml = std::fs::read_to_string(dir.join(format!("{stem}.toml"))).unwrap();
    let actual = result_of(&toml, series);
    let expected_path = dir.join(format!("{stem}{}.json", if series { ".series" } else { "" }));
    if bless {
        let text = serde_json::to_string_pretty(&actual).unwrap() + "\n";
        std::fs::write(&expected_path, text).unwrap();
        return None;
    }
    let Ok(text) = std::fs::read_to_string(&expected_path) else {
        return Some(format!(
            "{stem}: no expectation {expected_path:?} (HOPSIM_BLESS=1 records it)"
        ));
    };
    let expected: Value = serde_json::from_str(&text).unwrap();
    first_difference(&expected, &actual, stem)
}

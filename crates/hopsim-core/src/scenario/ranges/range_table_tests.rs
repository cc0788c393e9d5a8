//! The range table covers every numeric key, each bound is enforced by validation under the
//! key's own name, and docs/interfaces.md prints the table as it is.

use super::{range_of, RANGES};
use crate::scenario::{parse_json, validate};
use serde_json::{json, Value};

/// A scenario of the given topology with every optional numeric key set.
fn full(topology: Value, routing: &str) -> Value {
    json!({
        "duration_s": 100.0, "warmup_s": 1.0, "seed": 3,
        "topology": topology,
        "radio": {"tx_power_dbm": 20.0, "rx_range_m": 250.0, "cs_range_m": 550.0,
                  "reference_loss_db": 40.0, "propagation": "log_distance",
                  "gauss_markov": {}, "gilbert_elliott": {},
                  "link_trace": {"file": "t.csv", "offset_s": 1.0}},
        "routing": {"protocol": routing},
        "tcp": {"max_window": 4.0},
        "queue": {"discipline": "red"},
        "flows": [{"src": 0, "dst": 1, "transport": "udp", "interval_s": 0.01, "start_s": 1.0,
                   "stop_s": 50.0, "bytes": 100000}],
        "traffic": {"random_flows": 1, "transport": "tcp"},
        "mobility": {"model": "random_waypoint"},
        "interference": [{"x_m": 10.0, "y_m": 5.0, "power_dbm": 10.0, "on_mean_s": 0.01,
                          "off_mean_s": 0.02, "start_s": 1.0, "stop_s": 50.0}],
    })
}

fn chain() -> Value {
    full(json!({"kind": "chain", "hops": 2, "spacing_m": 200.0}), "etx")
}

/// Bases in which each key is present and used.
fn bases() -> Vec<Value> {
    let mut testbed = full(json!({"kind": "testbed", "nodes": 8, "testbed": {}}), "aodv");
    testbed["topology"]["testbed"] = json!({"buildings": 2, "building_size_m": [40.0, 30.0],
        "building_spacing_m": 70.0, "wall_loss_db": 10.0, "wall_sigma_db": 4.0});
    vec![
        chain(),
        full(json!({"kind": "grid", "rows": 2, "cols": 2, "spacing_m": 200.0}), "aodv"),
        full(json!({"kind": "positions", "positions": [[0.0, 0.0], [100.0, 0.0]]}), "dsr"),
        full(json!({"kind": "random", "nodes": 4, "area_m": [300.0, 300.0]}), "aodv"),
        full(json!({"kind": "chain", "hops": 3, "spacing_m": 200.0}), "olsr"),
        full(json!({"kind": "chain", "hops": 3, "spacing_m": 200.0}), "hwmp"),
        testbed,
    ]
}

fn leaves(v: &Value, path: String, out: &mut Vec<(String, f64)>) {
    match v {
        Value::Object(m) => m.iter().for_each(|(k, x)| leaves(x, join(&path, k), out)),
        Value::Array(a) => {
            a.iter().enumerate().for_each(|(i, x)| leaves(x, join(&path, &i.to_string()), out))
        }
        Value::Number(n) => out.push((path, n.as_f64().unwrap())),
        _ => {}
    }
}

fn join(path: &str, k: &str) -> String {
    if path.is_empty() {
        k.to_string()
    } else {
        format!("{path}.{k}")
    }
}

/// The table key of a concrete dotted key (`flows.0.tcp.min_rto_s` -> `tcp.min_rto_s`).
fn pattern(key: &str) -> String {
    let parts: Vec<&str> = key.split('.').collect();
    let numeric = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    let tail = |from: usize| {
        parts[from..].iter().filter(|p| !numeric(p)).cloned().collect::<Vec<_>>().join(".")
    };
    match parts.as_slice() {
        ["flows", _, "tcp", ..] => format!("tcp.{}", tail(3)),
        ["traffic", "tcp", ..] => format!("tcp.{}", tail(2)),
        ["traffic", "random_flows"] => key.to_string(),
        ["flows", _, ..] => format!("flows.N.{}", tail(2)),
        ["traffic", ..] => format!("flows.N.{}", tail(1)),
        ["topology", "positions", ..] => "topology.positions.N".to_string(),
        ["interference", _, ..] => format!("interference.N.{}", tail(2)),
        _ => parts.iter().filter(|p| !numeric(p)).cloned().collect::<Vec<_>>().join("."),
    }
}

/// Numbers without a range: seeds are any u64; the rates are a set, checked as such.
const NOT_RANGES: [&str; 4] =
    ["seed", "topology.seed", "mac.data_rate_mbps", "mac.basic_rate_mbps"];

#[test]
fn every_numeric_key_has_a_range() {
    let mut seen = std::collections::BTreeSet::new();
    for base in bases() {
        let s = parse_json(&base.to_string()).expect("base parses");
        validate(&s).expect("base is valid");
        let mut out = Vec::new();
        leaves(&serde_json::to_value(&s).unwrap(), String::new(), &mut out);
        for (key, _) in out {
            let p = pattern(&key);
            if !NOT_RANGES.contains(&p.as_str()) {
                assert!(RANGES.iter().any(|r| r.key == p), "no range for {key} ({p})");
                // Validation finds the same entry from the key alone.
                assert_eq!(super::covering(&key).map(|r| r.key), Some(p.as_str()), "{key}");
                seen.insert(p);
            }
        }
    }
    for r in RANGES {
        assert!(seen.contains(r.key), "{} is in the table but in no scenario", r.key);
    }
}

fn set(doc: &mut Value, key: &str, v: f64) {
    let mut at = doc;
    let parts: Vec<&str> = key.split('.').collect();
    for p in &parts[..parts.len() - 1] {
        at = match p.parse::<usize>() {
            Ok(i) => &mut at[i],
            Err(_) => &mut at[*p],
        };
    }
    let last = parts[parts.len() - 1];
    let number = if v.fract() == 0.0 && v.abs() < 1e15 { json!(v as i64) } else { json!(v) };
    match last.parse::<usize>() {
        Ok(i) => at[i] = number,
        Err(_) => at[last] = number,
    }
}

/// Every bound of every key: just outside is rejected naming that key; the bound itself (and
/// the default inside) does not fail on that key.
#[test]
fn each_bound_is_enforced_under_the_keys_own_name() {
    let mut checked = 0;
    for base in bases() {
        let s = parse_json(&base.to_string()).unwrap();
        let mut out = Vec::new();
        leaves(&serde_json::to_value(&s).unwrap(), String::new(), &mut out);
        for (key, _) in out {
            let p = pattern(&key);
            if NOT_RANGES.contains(&p.as_str()) {
                continue;
            }
            let r = range_of(&p);
            let step = |x: f64| x.abs().max(1.0);
            for (v, inside) in
                [(r.min - step(r.min), false), (r.max + step(r.max), false), (r.max * 10.0, false)]
            {
                let mut doc = serde_json::to_value(&s).unwrap();
                set(&mut doc, &key, v);
                let err = match parse_json(&doc.to_string()) {
                    Ok(sc) => validate(&sc).err(),
                    Err(e) => Some(e), // negative into an unsigned key: a type error
                };
                let err = err.unwrap_or_else(|| panic!("{key} = {v} accepted"));
                assert!(!inside);
                assert_eq!(err.key, key, "{key} = {v}: {}", err.message);
                checked += 1;
            }
        }
    }
    assert!(checked > 300, "{checked}");
}

#[test]
fn docs_print_the_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/interfaces.md");
    let docs = std::fs::read_to_string(path).expect("docs/interfaces.md");
    let table = super::docs_table();
    assert!(
        docs.contains(&table),
        "docs/interfaces.md must contain the range table as ranges.rs prints it:\n{table}"
    );
}

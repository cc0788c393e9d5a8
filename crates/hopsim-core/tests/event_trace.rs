//! The event trace against the result document of the same run: every counter the result
//! reports (frames sent by kind, drops by reason, collisions, frame errors, link failures,
//! TCP segments, retransmissions, timeouts and ACKs) equals the number of its rows. Run over
//! golden scenarios that cover every routing protocol, mobility, both profiles, frame errors
//! and every TCP recovery kind; turning the trace on must not change the result.

use hopsim_core::{prepare_with, result_json, RunOptions};
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;

const SCENARIOS: [&str; 10] = [
    "routing-aodv-chain",
    "routing-aodv-ns2",
    "routing-dsr-ns2",
    "manet-dsr-tcp",
    "manet-aodv-waypoint",
    "routing-etx",
    "udp-frame-errors",
    "tcp-sack",
    "tcp-reno",
    "grid-two-flows",
];

struct Trace {
    rows: Vec<HashMap<&'static str, String>>,
    /// Rows counted by the columns the checks select on.
    counts: HashMap<Vec<(&'static str, String)>, u64>,
}

const KEYS: [&str; 6] = ["node", "layer", "event", "frame_kind", "reason", "flow"];

impl Trace {
    fn count(&self, want: &[(&str, &str)]) -> u64 {
        self.counts
            .iter()
            .filter(|(k, _)| want.iter().all(|(c, v)| k.iter().any(|(kc, kv)| kc == c && kv == v)))
            .map(|(_, n)| n)
            .sum()
    }
}

fn run(stem: &str, trace: Option<PathBuf>) -> Value {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let toml = std::fs::read_to_string(dir.join(format!("{stem}.toml"))).unwrap();
    let scenario = hopsim_core::scenario::parse_toml(&toml).unwrap();
    let options = RunOptions { event_trace: trace, ..RunOptions::default() };
    let mut world = prepare_with(&scenario, &options).unwrap();
    world.run().unwrap();
    let mut doc: Value = serde_json::from_str(&result_json(&mut world, &scenario)).unwrap();
    doc["engine"] = Value::Null; // wall time
    doc
}

fn read(path: &PathBuf) -> Trace {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&'static str> = lines
        .next()
        .unwrap()
        .split(',')
        .map(|h| &*Box::leak(h.to_string().into_boxed_str()))
        .collect();
    assert_eq!(header, hopsim_core::observe::events::COLUMNS);
    let rows = lines
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            assert_eq!(cells.len(), header.len(), "{l}");
            header.iter().copied().zip(cells.iter().map(|c| c.to_string())).collect()
        })
        .collect::<Vec<HashMap<&'static str, String>>>();
    let mut counts = HashMap::new();
    for r in &rows {
        let key = KEYS.iter().map(|&k| (k, r[k].clone())).collect::<Vec<_>>();
        *counts.entry(key).or_default() += 1;
    }
    Trace { rows, counts }
}

#[test]
fn trace_rows_match_the_result_counters() {
    let tmp = std::env::temp_dir().join(format!("hopsim-event-trace-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for stem in SCENARIOS {
        let path = tmp.join(format!("{stem}.csv"));
        let traced = run(stem, Some(path.clone()));
        assert_eq!(traced, run(stem, None), "{stem}: the trace changed the result");
        let t = read(&path);
        check_nodes(stem, &traced, &t);
        check_flows(stem, &traced, &t);
        check_frames(stem, &t);
    }
    std::fs::remove_dir_all(&tmp).ok();
}

fn check_nodes(stem: &str, doc: &Value, t: &Trace) {
    for n in doc["nodes"].as_array().unwrap() {
        let id = n["id"].to_string();
        let node = ("node", id.as_str());
        let c = |k: &str| n[k].as_u64().unwrap();
        for (kind, key) in [("rts", "rts_sent"), ("cts", "cts_sent"), ("data", "data_sent")] {
            let start = [node, ("event", "frame_start"), ("frame_kind", kind)];
            assert_eq!(t.count(&start), c(key), "{stem} node {id} {key}");
        }
        let start = [node, ("event", "frame_start"), ("frame_kind", "ack")];
        assert_eq!(t.count(&start), c("ack_sent"), "{stem} node {id} ack_sent");
        let drop = |layer: &'static str, reason: &'static str| {
            t.count(&[node, ("layer", layer), ("event", "drop"), ("reason", reason)])
        };
        assert_eq!(drop("mac", "retry_limit"), c("retry_limit_drops"), "{stem} node {id}");
        assert_eq!(drop("ifq", "queue_full"), c("queue_drops"), "{stem} node {id}");
        assert_eq!(drop("ifq", "queue_purge"), c("queue_purge_drops"), "{stem} node {id}");
        assert_eq!(drop("net", "ttl"), c("ttl_drops"), "{stem} node {id}");
        let no_route = ["no_route", "bad_source_route", "route_timeout", "salvage_limit"]
            .iter()
            .map(|r| drop("net", r))
            .sum::<u64>();
        assert_eq!(no_route, c("no_route_drops"), "{stem} node {id} no_route_drops");
        let failures = t.count(&[node, ("event", "link_failure")]);
        assert_eq!(failures, c("link_failures"), "{stem} node {id}");
        let errors = t.count(&[node, ("event", "rx_error"), ("reason", "frame_error")]);
        assert_eq!(errors, c("frame_errors"), "{stem} node {id}");
    }
    // Collisions count frames addressed to the node (or broadcast): the frame's start row
    // names its receiver (empty: broadcast).
    let receiver: HashMap<&str, &str> = t
        .rows
        .iter()
        .filter(|r| r["event"] == "frame_start")
        .map(|r| (r["frame"].as_str(), r["peer"].as_str()))
        .collect();
    let mut collided: HashMap<&str, u64> = HashMap::new();
    for r in t.rows.iter().filter(|r| r["reason"] == "collision") {
        let to = receiver[r["frame"].as_str()];
        if to.is_empty() || to == r["node"] {
            *collided.entry(r["node"].as_str()).or_default() += 1;
        }
    }
    for n in doc["nodes"].as_array().unwrap() {
        let id = n["id"].to_string();
        let got = collided.get(id.as_str()).copied().unwrap_or(0);
        assert_eq!(got, n["collisions"].as_u64().unwrap(), "{stem} node {id} collisions");
    }
}

fn check_flows(stem: &str, doc: &Value, t: &Trace) {
    for f in doc["flows"].as_array().unwrap() {
        let id = f["id"].to_string();
        let flow = ("flow", id.as_str());
        let sent = ["send", "retransmission", "ack"]
            .iter()
            .map(|e| {
                t.count(&[flow, ("event", e), ("node", &f["src"].to_string())])
                    + t.count(&[flow, ("event", e), ("node", &f["dst"].to_string())])
            })
            .sum::<u64>();
        assert_eq!(sent, f["packets_sent"].as_u64().unwrap(), "{stem} flow {id} packets_sent");
        if f["transport"] != "tcp" {
            continue;
        }
        let c = |k: &str| f[k].as_u64().unwrap();
        let retx = t.count(&[flow, ("event", "retransmission")]);
        assert_eq!(retx, c("retransmissions"), "{stem} flow {id}");
        let new = t.count(&[flow, ("event", "send"), ("layer", "transport")]);
        assert_eq!(new + retx, c("segments_sent"), "{stem} flow {id} segments_sent");
        assert_eq!(t.count(&[flow, ("event", "timeout")]), c("timeouts"), "{stem} flow {id}");
        assert_eq!(t.count(&[flow, ("event", "ack")]), c("acks_sent"), "{stem} flow {id}");
    }
}

/// Every frame that starts ends, once, at its transmitter (or is still on the air when the
/// run ends).
fn check_frames(stem: &str, t: &Trace) {
    let mut open: HashMap<&str, i32> = HashMap::new();
    for r in &t.rows {
        match r["event"].as_str() {
            "frame_start" => *open.entry(r["frame"].as_str()).or_default() += 1,
            "frame_end" => *open.entry(r["frame"].as_str()).or_default() -= 1,
            _ => {}
        }
    }
    assert!(open.values().all(|&v| v == 0 || v == 1), "{stem}: a frame ended twice or unstarted");
}

//! The schema table against the keys the result types serialise: a result with every optional
//! part filled in is built by hand (a new field in a result type fails to compile here until
//! it is added), serialised, and its keys compared level by level with the table.

use super::*;
use crate::observe::metrics::*;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

fn full_result() -> RunResult {
    let scenario = crate::scenario::parse_json(
        r#"{"topology": {"kind": "chain", "hops": 2, "spacing_m": 200.0}}"#,
    )
    .expect("scenario parses");
    let rtt_ms = RttResult {
        mean: Some(1.0),
        min: Some(1.0),
        max: Some(1.0),
        p50: None,
        p95: None,
        samples: 1,
    };
    let tcp = TcpResult {
        variant: "newreno",
        throughput_pps: 1.0,
        segments_sent: 1,
        retransmissions: 0,
        timeouts: 0,
        fast_retransmits: 0,
        acks_sent: 1,
        avg_cwnd: Some(1.0),
        avg_window_limit: None,
        window_distribution: vec![0.0, 1.0],
        window_limit: "none",
        slow_start_fraction: Some(0.5),
        rtt_ms,
        bytes_delivered: 1,
        transfer_completed_s: None,
        ecn: Some(EcnResult { ecn_reactions: 1, ece_acks: 1, ce_received: 1 }),
    };
    let flow = FlowResult {
        id: 0,
        src: 0,
        dst: 2,
        transport: "tcp",
        hops: 2,
        payload_bytes: 1460,
        goodput_kbps: 1.0,
        packets_sent: 1,
        packets_delivered: 1,
        packets_dropped: 0,
        packets_in_flight: 0,
        mean_delay_ms: None,
        link_failures: 0,
        route_failures: 0,
        false_route_failures: 0,
        path: Some(vec![0, 1, 2]),
        paths: vec![RouteShare { nodes: vec![0, 1, 2], time_share: 1.0 }],
        route_changes: 0,
        first_route_s: Some(0.5),
        tcp: Some(tcp),
    };
    let node = NodeResult {
        id: 0,
        x_m: 0.0,
        y_m: 0.0,
        counters: MacTotals {
            queue: Some(QueueResult::default()),
            aggregation: Some(AggResult::default()),
            amsdu: Some(AmsduResult::default()),
            internal_collisions: Some(0),
            channel_losses: Some(0),
            ..MacTotals::default()
        },
        rate_stats: vec![LinkRateResult {
            dst: 1,
            rate_mbps: 65.0,
            attempts: 1,
            acked: 1,
            mcs: Some(7),
            spatial_streams: Some(1),
            airtime_s: Some(0.000224),
        }],
    };
    let mut series = Series::new(1, 1);
    series.time_s.push(1.0);
    series.flow.push(0);
    series.cwnd.push(None);
    series.goodput_kbps.push(0.0);
    series.delivered_bytes.push(0);
    RunResult {
        hopsim_version: crate::VERSION,
        seed: 1,
        duration_s: 1.0,
        warmup_s: 0.0,
        scenario: serde_json::value::to_raw_value(&scenario).unwrap(),
        flows: vec![flow],
        nodes: vec![node],
        totals: MacTotals {
            queue: Some(QueueResult::default()),
            aggregation: Some(AggResult::default()),
            amsdu: Some(AmsduResult::default()),
            internal_collisions: Some(0),
            channel_losses: Some(0),
            ..MacTotals::default()
        },
        invariants: InvariantResult { violations: vec!["x".into()], violation_count: 1 },
        engine: EngineResult { events: 1, sim_time_s: 1.0 },
        route_failures: 0,
        false_route_failures: 0,
        routing_packets: 0,
        routing_bytes: 0,
        convergence_s: Some(1.0),
        routing_messages: vec![RoutingMessageResult { kind: "olsr_tc", messages: 1, bytes: 16 }],
        etx_links: Some(vec![EtxLinkResult {
            from: 0,
            to: 1,
            delivery: 1.0,
            reverse_delivery: 1.0,
            etx: 1.0,
        }]),
        interference: Some(vec![InterferenceResult {
            periods: 1,
            on_s: 1.0,
            occupancy: 1.0,
            nodes_reached: 1,
        }]),
        series: Some(series),
        warnings: vec!["w".into()],
    }
}

fn object<'a>(v: &'a Value, path: &[&str]) -> &'a Map<String, Value> {
    let mut v = v;
    for part in path {
        v = match v {
            Value::Array(items) => &items[0],
            Value::Object(map) => &map[*part],
            _ => panic!("{path:?}: not an object"),
        };
        if let Value::Array(items) = v {
            v = &items[0];
        }
    }
    v.as_object().unwrap_or_else(|| panic!("{path:?}: not an object"))
}

/// The keys of an object, a nested object's keys dotted (`rtt_ms.p50`) where the table lists
/// them so.
fn keys(map: &Map<String, Value>, dotted: &[&str]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (k, v) in map {
        out.insert(k.clone());
        if let (true, Value::Object(inner)) = (dotted.contains(&k.as_str()), v) {
            out.extend(inner.keys().map(|i| format!("{k}.{i}")));
        }
    }
    out
}

fn table(level: &str) -> BTreeSet<String> {
    fields(level).map(|f| f.name.to_string()).collect()
}

#[test]
fn the_table_lists_every_serialised_key_and_no_other() {
    let doc = serde_json::to_value(full_result()).expect("result serialises");
    let totals = keys(object(&doc, &["totals"]), &[]);
    let node: BTreeSet<String> =
        keys(object(&doc, &["nodes"]), &[]).difference(&totals).cloned().collect();
    let levels: Vec<(&str, BTreeSet<String>)> = vec![
        ("run", keys(object(&doc, &[]), &[])),
        ("flow", keys(object(&doc, &["flows"]), &["rtt_ms"])),
        ("flow.paths", keys(object(&doc, &["flows", "paths"]), &[])),
        ("node", node),
        ("node.rate_stats", keys(object(&doc, &["nodes", "rate_stats"]), &[])),
        ("totals", totals),
        ("invariants", keys(object(&doc, &["invariants"]), &[])),
        ("engine", keys(object(&doc, &["engine"]), &[])),
        ("routing_messages", keys(object(&doc, &["routing_messages"]), &[])),
        ("etx_links", keys(object(&doc, &["etx_links"]), &[])),
        ("interference", keys(object(&doc, &["interference"]), &[])),
        ("series", keys(object(&doc, &["series"]), &[])),
    ];
    let names: Vec<&str> = levels.iter().map(|(l, _)| *l).collect();
    assert_eq!(names, LEVELS.iter().map(|(l, _)| *l).collect::<Vec<_>>());
    for (level, serialised) in levels {
        assert_eq!(table(level), serialised, "level {level}: table (left) vs result (right)");
    }
}

#[test]
fn a_real_run_has_no_key_outside_the_table() {
    let scenario = crate::scenario::parse_json(
        r#"{"topology": {"kind": "chain", "hops": 2, "spacing_m": 200.0}, "duration_s": 3.0,
            "routing": {"protocol": "etx", "etx_warmup_s": 1.0},
            "flows": [{"src": 0, "dst": 2}]}"#,
    )
    .expect("scenario parses");
    let doc = serde_json::to_value(crate::run(&scenario).expect("runs")).expect("serialises");
    assert!(table("run").is_superset(&keys(object(&doc, &[]), &[])));
    assert!(table("flow").is_superset(&keys(object(&doc, &["flows"]), &["rtt_ms"])));
    assert!(table("totals").is_superset(&keys(object(&doc, &["totals"]), &[])));
}

#[test]
fn every_entry_is_well_formed() {
    let kinds = ["int", "float", "text", "object", "list[int]", "list[float]", "list[text]"];
    let mut seen = BTreeSet::new();
    for f in RESULT_SCHEMA {
        assert!(LEVELS.iter().any(|(l, _)| *l == f.level), "{f:?}: unknown level");
        assert!(kinds.contains(&f.kind) || f.kind == "list[object]", "{f:?}: unknown kind");
        assert!(seen.insert((f.level, f.name)), "{f:?}: listed twice");
        assert!(!f.description.is_empty() && !f.description.contains('\n'), "{f:?}");
        // Sweep metrics are numbers: per-flow ones combine by sum or mean, totals by name.
        match f.metric {
            "" => {}
            "sum" | "mean" => assert!(f.level == "flow" && matches!(f.kind, "int" | "float")),
            "total" => assert!(f.level == "totals" && matches!(f.kind, "int" | "float")),
            other => panic!("{f:?}: unknown metric {other:?}"),
        }
    }
    // Every network total is a metric.
    assert!(fields("totals").all(|f| f.metric == "total"));
}

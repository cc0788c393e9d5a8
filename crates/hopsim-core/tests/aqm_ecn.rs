//! ECN end to end over an AQM (RFC 3168 with RFC 8289 CoDel, RED and RFC 8290 FQ-CoDel): a TCP flow over a
//! 2-hop chain (the source's queue is the bottleneck: under drop-tail the window fills it to
//! about 175 ms; on longer chains one flow is held back by its own MAC losses first) gets CE
//! marks instead of drops, cuts its window at most once per round trip
//! for them, and the same AQM drops instead when the flow is not ECN-capable. The event
//! trace has a row for every AQM drop and mark, and the pcap carries the ECN bits.

mod common;

use hopsim_core::{prepare_with, result_json, RunOptions, RunResult};
use serde_json::Value;

/// RED's thresholds are set low (2 and 6 packets), below the wired-link defaults (5 and 15):
/// a wireless hop drains a queue slowly, so a few packets are already tens of milliseconds.
fn scenario(discipline: &str, ecn: bool, variant: &str) -> String {
    let red = if discipline == "red" {
        "red_min_th_packets = 2.0\nred_max_th_packets = 6.0\n"
    } else {
        ""
    };
    format!(
        "duration_s = 60.0\nwarmup_s = 5.0\nseed = 3\n\
         [topology]\nkind = \"chain\"\nhops = 2\nspacing_m = 200.0\n\
         [queue]\ndiscipline = \"{discipline}\"\n{red}\
         [[flows]]\nsrc = 0\ndst = 2\ntransport = \"tcp\"\n\
         [flows.tcp]\nvariant = \"{variant}\"\necn = {ecn}\nreceiver_window = 64\n"
    )
}

fn ecn_of(r: &RunResult) -> (u64, u64, u64) {
    let doc = serde_json::to_value(r).unwrap();
    let f = &doc["flows"][0];
    let n = |k: &str| f[k].as_u64().unwrap_or_else(|| panic!("{k} missing"));
    (n("ecn_reactions"), n("ece_acks"), n("ce_received"))
}

fn totals(r: &RunResult, key: &str) -> f64 {
    serde_json::to_value(r).unwrap()["totals"][key].as_f64().unwrap()
}

#[test]
fn an_ecn_flow_is_marked_not_dropped_and_reacts_at_most_once_per_round_trip() {
    for discipline in ["codel", "red", "fq_codel"] {
        let on = common::run_checked(&scenario(discipline, true, "newreno"));
        let off = common::run_checked(&scenario(discipline, false, "newreno"));
        let (reactions, ece_acks, ce_received) = ecn_of(&on);
        let marks = totals(&on, "ecn_marks");
        println!(
            "{discipline}: ECN on: marks {marks}, AQM drops {}, CE received {ce_received}, \
             ECE ACKs {ece_acks}, reactions {reactions}, retransmissions {}; ECN off: AQM drops \
             {}, marks {}, retransmissions {}",
            totals(&on, "aqm_drops"),
            on.flows[0].tcp.as_ref().unwrap().retransmissions,
            totals(&off, "aqm_drops"),
            totals(&off, "ecn_marks"),
            off.flows[0].tcp.as_ref().unwrap().retransmissions,
        );
        assert!(marks > 0.0, "{discipline}: the AQM marks the ECT data");
        // Every CE reached the receiver (or was lost on a later hop): no more than marked.
        assert!(ce_received as f64 <= marks && ce_received > 0, "{discipline}");
        // The receiver echoes ECE on every ACK until CWR arrives: at least one ECE ACK per
        // reaction, and more ECE ACKs than CE segments when marks come in bursts is allowed.
        assert!(reactions > 0 && ece_acks >= reactions, "{discipline}");
        // At most one reduction per window of data, so per round trip at least.
        let t = on.flows[0].tcp.as_ref().unwrap();
        let min_rtt_s = t.rtt_ms.min.unwrap() / 1e3;
        assert!((reactions as f64) <= 60.0 / min_rtt_s, "{discipline}: {reactions} reactions");
        // ECN off: the same AQM drops instead of marking.
        assert_eq!(totals(&off, "ecn_marks"), 0.0, "{discipline}");
        assert!(totals(&off, "aqm_drops") > totals(&on, "aqm_drops"), "{discipline}");
        let t_off = off.flows[0].tcp.as_ref().unwrap();
        assert!(t.retransmissions < t_off.retransmissions, "{discipline}: marks cost no resend");
        assert!(serde_json::to_value(&off).unwrap()["flows"][0].get("ecn_reactions").is_none());
    }
}

#[test]
fn queueing_delay_is_lower_under_codel_than_drop_tail() {
    let droptail = common::run_checked(&scenario("droptail", false, "newreno"));
    let codel = common::run_checked(&scenario("codel", true, "newreno"));
    let (d, c) = (totals(&droptail, "queue_delay_mean_ms"), totals(&codel, "queue_delay_mean_ms"));
    println!("mean queueing delay: drop-tail {d:.1} ms, CoDel {c:.1} ms");
    // CoDel keeps the standing queue near its 5 ms target; drop-tail lets the window fill it.
    assert!(c < d / 2.0, "CoDel {c} ms vs drop-tail {d} ms");
    assert_eq!(totals(&droptail, "aqm_drops"), 0.0);
    assert!(totals(&droptail, "queue_delay_samples") > 1000.0);
}

#[test]
fn the_event_trace_has_a_row_for_every_aqm_drop_and_mark() {
    let dir = std::env::temp_dir().join(format!("hopsim-aqm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (discipline, ecn) in [("codel", true), ("codel", false), ("red", true), ("fq_codel", false)]
    {
        let path = dir.join(format!("{discipline}-{ecn}.csv"));
        let text = scenario(discipline, ecn, "sack");
        let s = hopsim_core::scenario::parse_toml(&text).unwrap();
        let options = RunOptions { event_trace: Some(path.clone()), ..RunOptions::default() };
        let mut world = prepare_with(&s, &options).unwrap();
        world.run().unwrap();
        let doc: Value = serde_json::from_str(&result_json(&mut world, &s)).unwrap();
        drop(world);
        let csv = std::fs::read_to_string(&path).unwrap();
        let rows = |event: &str| {
            csv.lines()
                .filter(|l| {
                    let c: Vec<&str> = l.split(',').collect();
                    c[2] == "ifq" && c[3] == event && c[14] == discipline
                })
                .count() as u64
        };
        assert_eq!(rows("drop"), doc["totals"]["aqm_drops"].as_u64().unwrap(), "{discipline}");
        assert_eq!(rows("mark"), doc["totals"]["ecn_marks"].as_u64().unwrap(), "{discipline}");
        assert!(rows("mark") + rows("drop") > 0);
    }
    std::fs::remove_dir_all(&dir).ok();
}

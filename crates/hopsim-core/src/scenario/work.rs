//! The work a scenario asks for before anything happens on the air, each figure with the key
//! behind it: what the run budget (`budget.rs`) checks before a world is built.

use super::{node_count, Connectivity, MobilityModel, RoutingProtocol, Scenario, Transport};
use crate::engine::budget::{
    Need, ROUTE_ENTRY_BYTES, SERIES_SAMPLE_BYTES, TCP_FLOW_BYTES, UDP_FLOW_BYTES,
};
use crate::error::fmt_num;

impl Scenario {
    /// See [`needs`].
    pub fn needs(&self, series_interval_s: Option<f64>) -> Vec<Need> {
        needs(self, series_interval_s)
    }
}

/// What a validated scenario needs before anything happens on the air: the packets of every
/// paced UDP flow, routing's periodic messages, the time series, the pairs placement examines
/// and static routing's tables.
fn needs(s: &Scenario, series_interval_s: Option<f64>) -> Vec<Need> {
    let n = node_count(&s.topology) as f64;
    let d = s.duration_s;
    let mut out = vec![Need {
        key: "topology".into(),
        value: format!("{n} nodes"),
        events: n * n,
        bytes: 0.0,
        why: "placing the nodes examines every pair".into(),
    }];
    let flows = s.flows.iter().enumerate().map(|(i, f)| (format!("flows.{i}"), f.clone(), 1.0));
    let traffic =
        s.traffic.iter().map(|t| ("traffic".to_string(), t.flow(0, 1), t.random_flows as f64));
    let mut state_bytes = 0.0;
    let mut flow_count = 0.0;
    for (prefix, f, count) in flows.chain(traffic) {
        flow_count += count;
        state_bytes +=
            count * if f.transport == Transport::Tcp { TCP_FLOW_BYTES } else { UDP_FLOW_BYTES };
        if f.transport == Transport::Udp && f.interval_s > 0.0 {
            let span = f.stop_s.unwrap_or(d).min(d) - f.start_s;
            let mut packets = (span / f.interval_s).max(0.0);
            if f.bytes > 0 {
                packets = packets.min((f.bytes as f64 / f.payload_bytes as f64).ceil());
            }
            out.push(Need {
                key: format!("{prefix}.interval_s"),
                value: fmt_num(f.interval_s),
                events: packets * count,
                bytes: 0.0,
                why: format!(
                    "{:.3e} packets, one every {} s for {} s",
                    packets * count,
                    fmt_num(f.interval_s),
                    fmt_num(span)
                ),
            });
        }
    }
    out.push(Need {
        key: if s.traffic.is_some() { "traffic.random_flows".into() } else { "flows".into() },
        value: format!("{flow_count} flows"),
        events: 0.0,
        bytes: state_bytes,
        why: format!("the state of {flow_count} flows"),
    });
    let rt = &s.routing;
    if rt.hello && rt.protocol == RoutingProtocol::Aodv {
        out.push(Need {
            key: "routing.hello_interval_s".into(),
            value: fmt_num(rt.hello_interval_s),
            events: n * d / rt.hello_interval_s,
            bytes: 0.0,
            why: format!("a HELLO from each of {n} nodes every {} s", rt.hello_interval_s),
        });
    }
    if rt.protocol == RoutingProtocol::Etx {
        out.push(Need {
            key: "routing.etx_probe_interval_s".into(),
            value: fmt_num(rt.etx_probe_interval_s),
            events: n * rt.etx_warmup_s / rt.etx_probe_interval_s,
            bytes: 0.0,
            why: format!("a probe from each of {n} nodes every {} s", rt.etx_probe_interval_s),
        });
    }
    let moving = s.mobility.model != MobilityModel::Static;
    let checked = !matches!(s.topology.connected, None | Some(Connectivity::Ignore));
    if moving && checked {
        out.push(Need {
            key: "topology.connected".into(),
            value: format!("{:?}", s.topology.connected.expect("checked")).to_lowercase(),
            events: n * n * d.max(1.0),
            bytes: 0.0,
            why: format!("connectivity of {n} moving nodes checked every second for {d} s"),
        });
    }
    if let Some(every_s) = series_interval_s {
        let samples = d / every_s
            * (s.flows.len() as f64 + s.traffic.as_ref().map_or(0.0, |t| t.random_flows as f64));
        out.push(Need {
            key: "series_interval_s".into(),
            value: fmt_num(every_s),
            events: d / every_s,
            bytes: samples * SERIES_SAMPLE_BYTES,
            why: format!("{samples:.3e} samples of the time series"),
        });
    }
    for (i, x) in s.interference.iter().enumerate() {
        // Two events a period, each reaching at most every node.
        let span = x.stop_s.unwrap_or(d).min(d) - x.start_s;
        let periods = (span / (x.on_mean_s + x.off_mean_s)).max(0.0);
        out.push(Need {
            key: format!("interference.{i}.on_mean_s"),
            value: fmt_num(x.on_mean_s),
            events: 2.0 * periods * (1.0 + n),
            bytes: 0.0,
            why: format!(
                "{periods:.3e} periods on the air of {} s and {} s silent, each reaching up to \
                 {n} nodes",
                fmt_num(x.on_mean_s),
                fmt_num(x.off_mean_s)
            ),
        });
    }
    if rt.protocol == RoutingProtocol::Static {
        // One table per destination, an entry per node; at most every node a destination.
        let pairs =
            s.flows.len() as f64 + s.traffic.as_ref().map_or(0.0, |t| t.random_flows as f64);
        let tables = (2.0 * pairs).min(n);
        out.push(Need {
            key: if s.traffic.is_some() { "traffic.random_flows".into() } else { "flows".into() },
            value: format!("{pairs} flows"),
            events: tables * n,
            bytes: tables * n * ROUTE_ENTRY_BYTES,
            why: format!("static routes to {tables} destinations from {n} nodes"),
        });
    }
    out
}

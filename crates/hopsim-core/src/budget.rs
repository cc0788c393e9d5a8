//! The work budget of one run: how many events it may process and how much memory its growing
//! structures may take. A scenario whose known work already exceeds the budget is refused
//! before anything is built ([`Budget::check_scenario`]); the world counts what it builds
//! (mobility legs, links, route tables) and, while it runs, its events and its queues, and
//! stops with an error naming the cause the moment a limit is passed. The budget never
//! changes a result: a run that fits gives the same numbers whatever the limits.
//!
//! Work is counted in events; building the world counts one per pair of nodes it examines
//! (placement, connectivity), which costs about as much as an event.

use crate::error::{fmt_num, ScenarioError};
use crate::scenario::{RoutingProtocol, Scenario, Transport};

/// About eight minutes at this engine's 10 million events per second.
pub const DEFAULT_MAX_EVENTS: u64 = 5_000_000_000;
pub const DEFAULT_MAX_MEMORY_MB: f64 = 4096.0;

/// Limits of one run (run options `max_events`, `max_memory_mb`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    pub max_events: u64,
    pub max_memory_mb: f64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { max_events: DEFAULT_MAX_EVENTS, max_memory_mb: DEFAULT_MAX_MEMORY_MB }
    }
}

/// Work a scenario needs whatever happens on the air, and the key that asks for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Need {
    pub key: String,
    pub value: String,
    pub events: f64,
    pub bytes: f64,
    /// How the figure follows from the key, for the message.
    pub why: String,
}

const MB: f64 = 1024.0 * 1024.0;
/// Bytes of one route table entry (next hop and hop count) of static routing.
const ROUTE_ENTRY_BYTES: f64 = 8.0;
/// Bytes of one sample of the time series (time, flow, cwnd, goodput, bytes).
const SERIES_SAMPLE_BYTES: f64 = 48.0;
/// Bytes of one flow's state, rounded up from the peak memory of 20,000 flows on a 2-hop
/// chain (TCP: sender, receiver and their statistics ~19 KB; UDP: source and sink ~2.7 KB).
const TCP_FLOW_BYTES: f64 = 20_000.0;
const UDP_FLOW_BYTES: f64 = 3_000.0;

impl Budget {
    pub fn max_bytes(&self) -> f64 {
        self.max_memory_mb * MB
    }

    /// Refuse a scenario whose known needs exceed the budget, naming the key behind the
    /// largest one.
    pub fn check_scenario(
        &self,
        s: &Scenario,
        series_interval_s: Option<f64>,
    ) -> Result<(), ScenarioError> {
        let needs = needs(s, series_interval_s);
        let events: f64 = needs.iter().map(|n| n.events).sum();
        if events > self.max_events as f64 {
            let top = needs.iter().max_by(|a, b| a.events.total_cmp(&b.events)).expect("some need");
            return Err(self.over_events(top, events));
        }
        let bytes: f64 = needs.iter().map(|n| n.bytes).sum();
        if bytes > self.max_bytes() {
            let top = needs.iter().max_by(|a, b| a.bytes.total_cmp(&b.bytes)).expect("some need");
            return Err(self.over_memory(&top.key, &top.value, bytes, &top.why));
        }
        Ok(())
    }

    fn over_events(&self, need: &Need, total: f64) -> ScenarioError {
        ScenarioError::invalid(
            &need.key,
            &need.value,
            &format!(
                "the run needs at least {total:.3e} events ({}), over its budget of {} events \
                 (about {} minutes); change the scenario, or raise the budget with the run \
                 option max_events (hopsim run/sweep --max-events)",
                need.why,
                self.max_events,
                (self.max_events / 10_000_000).div_ceil(60),
            ),
        )
    }

    /// The error of memory over the budget, caused by `key` = `value`.
    pub fn over_memory(&self, key: &str, value: &str, bytes: f64, why: &str) -> ScenarioError {
        ScenarioError::invalid(
            key,
            value,
            &format!(
                "the run needs at least {:.0} MB of memory ({why}), over its budget of {} MB; \
                 change the scenario, or raise the budget with the run option max_memory_mb \
                 (hopsim run/sweep --max-memory-mb)",
                bytes / MB,
                self.max_memory_mb
            ),
        )
    }

    /// The error of a run stopped after `events` events.
    pub fn stopped_at_events(&self, events: u64, now_s: f64) -> ScenarioError {
        ScenarioError {
            key: "max_events".into(),
            message: format!(
                "run stopped at {now_s:.3} s of simulated time after {events} events: over its \
                 budget of {} events (run option max_events; hopsim run/sweep --max-events); \
                 shorten duration_s, or raise the budget",
                self.max_events
            ),
        }
    }

    /// The error of a run whose structures grew past the memory budget.
    pub fn stopped_at_memory(&self, bytes: f64, now_s: f64, what: &str) -> ScenarioError {
        ScenarioError {
            key: "max_memory_mb".into(),
            message: format!(
                "run stopped at {now_s:.3} s of simulated time: {what} took {:.0} MB, over its \
                 memory budget of {} MB (run option max_memory_mb; hopsim run/sweep \
                 --max-memory-mb)",
                bytes / MB,
                self.max_memory_mb
            ),
        }
    }
}

/// What a validated scenario needs before anything happens on the air: the packets of every
/// paced UDP flow, routing's periodic messages, the time series, the pairs placement examines
/// and static routing's tables.
pub fn needs(s: &Scenario, series_interval_s: Option<f64>) -> Vec<Need> {
    let n = crate::scenario::node_count(&s.topology) as f64;
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
    let moving = s.mobility.model != crate::scenario::MobilityModel::Static;
    let checked =
        !matches!(s.topology.connected, None | Some(crate::scenario::Connectivity::Ignore));
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

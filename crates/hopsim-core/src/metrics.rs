//! Counters and the result document. Field names are part of the public interface
//! (docs/interfaces.md).

use crate::scenario::Scenario;
use crate::time::ns_to_secs;
use crate::world::World;
use serde::Serialize;

/// Counters kept by the layers above the MAC, per node.
#[derive(Debug, Clone, Copy, Default)]
pub struct NodeCounters {
    /// Frames addressed to this node (or broadcast), strong enough to decode, lost to overlap.
    pub collisions: u64,
    pub queue_drops: u64,
    pub no_route_drops: u64,
    pub ttl_drops: u64,
    /// Retry-limit drops reported to routing.
    pub link_failures: u64,
}

/// Invariant violations found during a run (the first few are kept verbatim).
#[derive(Debug, Clone, Default)]
pub struct Invariants {
    pub violations: Vec<String>,
    pub count: u64,
}

const KEPT_VIOLATIONS: usize = 20;

impl Invariants {
    pub fn violate(&mut self, what: String) {
        self.count += 1;
        if self.violations.len() < KEPT_VIOLATIONS {
            self.violations.push(what);
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct FlowResult {
    pub id: u32,
    pub src: u32,
    pub dst: u32,
    pub transport: &'static str,
    pub hops: u32,
    pub payload_bytes: u32,
    pub goodput_kbps: f64,
    pub packets_sent: u64,
    pub packets_delivered: u64,
    pub packets_dropped: u64,
    pub packets_in_flight: u64,
    pub mean_delay_ms: Option<f64>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct MacTotals {
    pub mac_attempts: u64,
    pub mac_retries: u64,
    pub retry_limit_drops: u64,
    pub collisions: u64,
    pub queue_drops: u64,
    pub no_route_drops: u64,
    pub ttl_drops: u64,
    pub link_failures: u64,
    pub link_drop_probability: f64,
    pub rts_sent: u64,
    pub cts_sent: u64,
    pub data_sent: u64,
    pub ack_sent: u64,
    #[serde(skip)]
    unicast_done: u64,
}

impl MacTotals {
    fn add(&mut self, o: &MacTotals) {
        self.mac_attempts += o.mac_attempts;
        self.mac_retries += o.mac_retries;
        self.retry_limit_drops += o.retry_limit_drops;
        self.collisions += o.collisions;
        self.queue_drops += o.queue_drops;
        self.no_route_drops += o.no_route_drops;
        self.ttl_drops += o.ttl_drops;
        self.link_failures += o.link_failures;
        self.rts_sent += o.rts_sent;
        self.cts_sent += o.cts_sent;
        self.data_sent += o.data_sent;
        self.ack_sent += o.ack_sent;
        self.unicast_done += o.unicast_done;
        self.link_drop_probability = ratio(self.retry_limit_drops, self.unicast_done);
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct NodeResult {
    pub id: u32,
    pub x_m: f64,
    pub y_m: f64,
    #[serde(flatten)]
    pub counters: MacTotals,
}

#[derive(Debug, Clone, Serialize)]
pub struct InvariantResult {
    pub violations: Vec<String>,
    pub violation_count: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct EngineResult {
    pub events: u64,
    pub sim_time_s: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct RunResult {
    pub hopsim_version: &'static str,
    pub seed: u64,
    pub duration_s: f64,
    pub warmup_s: f64,
    pub scenario: Scenario,
    pub flows: Vec<FlowResult>,
    pub nodes: Vec<NodeResult>,
    pub totals: MacTotals,
    pub invariants: InvariantResult,
    pub engine: EngineResult,
}

pub(crate) fn collect(world: &World, scenario: &Scenario) -> RunResult {
    let (warmup_ns, end_ns) = world.window_ns();
    let window_s = ns_to_secs(end_ns - warmup_ns);
    let mut in_flight = vec![0u64; world.flows().len()];
    for p in world.packets().iter_live() {
        // A copy its next hop already accepted is accounted for by that hop's copy.
        if !p.handed_over {
            in_flight[p.flow as usize] += 1;
        }
    }
    let mut invariants = world.invariants().clone();
    let flows: Vec<FlowResult> = world
        .flows()
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let r = FlowResult {
                id: i as u32,
                src: f.source.src,
                dst: f.source.dst,
                transport: "udp",
                hops: f.hops,
                payload_bytes: f.source.payload_bytes,
                goodput_kbps: f.sink.window_payload_bytes as f64 * 8.0 / window_s / 1000.0,
                packets_sent: f.source.packets_sent(),
                packets_delivered: f.sink.packets_delivered,
                packets_dropped: f.dropped,
                packets_in_flight: in_flight[i],
                mean_delay_ms: f.sink.mean_delay_ms(),
            };
            if r.packets_sent != r.packets_delivered + r.packets_dropped + r.packets_in_flight {
                invariants.violate(format!(
                    "flow {i}: packets not conserved: sent {} != delivered {} + dropped {} + in flight {}",
                    r.packets_sent, r.packets_delivered, r.packets_dropped, r.packets_in_flight
                ));
            }
            r
        })
        .collect();
    let mut totals = MacTotals::default();
    let nodes: Vec<NodeResult> = world
        .nodes()
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let m = n.mac.counters;
            let c = n.counters;
            let counters = MacTotals {
                mac_attempts: m.mac_attempts,
                mac_retries: m.mac_retries,
                retry_limit_drops: m.retry_limit_drops,
                collisions: c.collisions,
                queue_drops: c.queue_drops,
                no_route_drops: c.no_route_drops,
                ttl_drops: c.ttl_drops,
                link_failures: c.link_failures,
                link_drop_probability: ratio(m.retry_limit_drops, m.unicast_done),
                rts_sent: m.rts_sent,
                cts_sent: m.cts_sent,
                data_sent: m.data_sent,
                ack_sent: m.ack_sent,
                unicast_done: m.unicast_done,
            };
            totals.add(&counters);
            let [x_m, y_m] = world.positions()[i];
            NodeResult {
                id: i as u32,
                x_m,
                y_m,
                counters,
            }
        })
        .collect();
    RunResult {
        hopsim_version: crate::VERSION,
        seed: scenario.seed,
        duration_s: scenario.duration_s,
        warmup_s: scenario.warmup_s,
        scenario: scenario.clone(),
        flows,
        nodes,
        totals,
        invariants: InvariantResult {
            violations: invariants.violations,
            violation_count: invariants.count,
        },
        engine: EngineResult {
            events: world.events(),
            sim_time_s: ns_to_secs(world.now()),
        },
    }
}

//! Counters and the result document. Field names are part of the public interface
//! (docs/interfaces.md).

use crate::scenario::Scenario;
use crate::scenario::WindowLimit;
use crate::time::ns_to_secs;
use crate::time::SimTime;
use crate::transport::tcp::variant_name;
use crate::world::{FlowApp, FlowState, Series, TcpFlow, World};
use serde::Serialize;

/// Counters kept by the layers above the MAC, per node.
#[derive(Debug, Clone, Copy, Default)]
pub struct NodeCounters {
    /// Frames addressed to this node (or broadcast), strong enough to decode, lost to overlap.
    pub collisions: u64,
    pub queue_drops: u64,
    /// Packets taken out of the interface queue because their next hop failed (ns2 profile).
    pub queue_purge_drops: u64,
    pub no_route_drops: u64,
    pub ttl_drops: u64,
    /// Retry-limit drops reported to routing.
    pub link_failures: u64,
    /// Link failures while the next hop was within decode range.
    pub false_route_failures: u64,
    /// Frames lost to injected errors (`radio.frame_error_rate`).
    pub frame_errors: u64,
    /// Routing control packets sent (and their IP bytes) and received.
    pub routing_sent: u64,
    pub routing_bytes: u64,
    pub routing_received: u64,
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
    /// Application payload delivered in order inside the window, kbit/s.
    pub goodput_kbps: f64,
    /// Network-layer packets of the flow (TCP: data segments and ACKs).
    pub packets_sent: u64,
    pub packets_delivered: u64,
    pub packets_dropped: u64,
    pub packets_in_flight: u64,
    pub mean_delay_ms: Option<f64>,
    /// Link failures (retry-limit drops) of this flow's packets, and the false ones.
    /// `route_failures` is the same count under the name the routing studies use.
    pub link_failures: u64,
    pub route_failures: u64,
    pub false_route_failures: u64,
    /// The route, node by node: the fixed one (static and ETX routing), or the one in use
    /// longest (AODV, DSR; absent if the flow never had a complete route).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<u32>>,
    /// Every route the flow's data took, with the share of the measurement window it was in
    /// use, the largest first; an empty `nodes` is the time without a complete route.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<RouteShare>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub tcp: Option<TcpResult>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RouteShare {
    pub nodes: Vec<u32>,
    pub time_share: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct RttResult {
    pub mean: Option<f64>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub p50: Option<f64>,
    pub p95: Option<f64>,
    pub samples: u64,
}

/// TCP metrics of a flow (present for TCP flows only).
#[derive(Debug, Clone, Serialize)]
pub struct TcpResult {
    pub variant: &'static str,
    /// Segments newly acknowledged per second inside the window.
    pub throughput_pps: f64,
    pub segments_sent: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
    pub acks_sent: u64,
    pub avg_cwnd: Option<f64>,
    /// Time-weighted window limit in force (CWL policy and receiver window), segments.
    pub avg_window_limit: Option<f64>,
    /// Share of time at each integer window allowed in flight (index = segments; 0 means a
    /// fractional window below one segment).
    pub window_distribution: Vec<f64>,
    pub window_limit: &'static str,
    pub slow_start_fraction: Option<f64>,
    pub rtt_ms: RttResult,
    pub bytes_delivered: u64,
    /// Time the last byte of a fixed-size transfer was acknowledged.
    pub transfer_completed_s: Option<f64>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct MacTotals {
    pub mac_attempts: u64,
    pub mac_retries: u64,
    pub retry_limit_drops: u64,
    pub collisions: u64,
    pub queue_drops: u64,
    pub queue_purge_drops: u64,
    pub no_route_drops: u64,
    pub ttl_drops: u64,
    pub link_failures: u64,
    /// Same as `link_failures`: failures reported to routing (the studies' route failures).
    pub route_failures: u64,
    pub false_route_failures: u64,
    pub frame_errors: u64,
    /// Routing overhead: control packets and bytes sent.
    pub routing_packets: u64,
    pub routing_bytes: u64,
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
        self.queue_purge_drops += o.queue_purge_drops;
        self.no_route_drops += o.no_route_drops;
        self.ttl_drops += o.ttl_drops;
        self.link_failures += o.link_failures;
        self.route_failures += o.route_failures;
        self.false_route_failures += o.false_route_failures;
        self.routing_packets += o.routing_packets;
        self.routing_bytes += o.routing_bytes;
        self.frame_errors += o.frame_errors;
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
    /// Unicast DATA attempts and acknowledgements per next hop and rate (rates used only).
    pub rate_stats: Vec<LinkRateResult>,
}

#[derive(Debug, Clone, Serialize)]
pub struct LinkRateResult {
    pub dst: u32,
    pub rate_mbps: f64,
    pub attempts: u64,
    pub acked: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct EtxLinkResult {
    pub from: u32,
    pub to: u32,
    pub delivery: f64,
    pub reverse_delivery: f64,
    pub etx: f64,
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
    /// Network totals of route failures and routing overhead (also in `totals`).
    pub route_failures: u64,
    pub false_route_failures: u64,
    pub routing_packets: u64,
    pub routing_bytes: u64,
    /// ETX routing: every link whose probes got through both ways.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub etx_links: Option<Vec<EtxLinkResult>>,
    /// Per-flow time series, when asked for (run option `series_interval_s`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub series: Option<Series>,
    /// Problems that did not stop the run (e.g. a trace file that could not be written).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

pub(crate) fn collect(world: &World, scenario: &Scenario) -> RunResult {
    let (warmup_ns, end_ns) = world.window_ns();
    let window_s = ns_to_secs(end_ns - warmup_ns);
    let mut in_flight = vec![0u64; world.flows().len()];
    for p in world.packets().iter_live() {
        // A copy its next hop already accepted is accounted for by that hop's copy.
        if !p.handed_over && p.flow != crate::net::packet::NO_FLOW {
            in_flight[p.flow as usize] += 1;
        }
    }
    let mut invariants = world.invariants().clone();
    let flows: Vec<FlowResult> = world
        .flows()
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mut r = flow_result(i as u32, f, in_flight[i], window_s, end_ns);
            let shares = world.route_shares(i as u32);
            r.path = world.fixed_path(f.src, f.dst).or_else(|| {
                shares.iter().find(|(nodes, _)| !nodes.is_empty()).map(|(n, _)| n.clone())
            });
            r.paths = shares
                .into_iter()
                .map(|(nodes, time_share)| RouteShare { nodes, time_share })
                .collect();
            if r.packets_sent != r.packets_delivered + r.packets_dropped + r.packets_in_flight {
                invariants.violate(format!(
                    "flow {i}: packets not conserved: sent {} != delivered {} + dropped {} + in flight {}",
                    r.packets_sent, r.packets_delivered, r.packets_dropped, r.packets_in_flight
                ));
            }
            if let FlowApp::Tcp(t) = &f.app {
                check_tcp_delivery(i, t, &mut invariants);
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
                queue_purge_drops: c.queue_purge_drops,
                no_route_drops: c.no_route_drops,
                ttl_drops: c.ttl_drops,
                link_failures: c.link_failures,
                route_failures: c.link_failures,
                false_route_failures: c.false_route_failures,
                routing_packets: c.routing_sent,
                routing_bytes: c.routing_bytes,
                frame_errors: c.frame_errors,
                link_drop_probability: ratio(m.retry_limit_drops, m.unicast_done),
                rts_sent: m.rts_sent,
                cts_sent: m.cts_sent,
                data_sent: m.data_sent,
                ack_sent: m.ack_sent,
                unicast_done: m.unicast_done,
            };
            totals.add(&counters);
            let [x_m, y_m] = world.positions()[i];
            let mut rate_stats = Vec::new();
            for (dst, attempts, acked) in n.mac.rates.stats() {
                for (k, rate) in crate::mac::rate::RATES.iter().enumerate() {
                    if attempts[k] > 0 {
                        rate_stats.push(LinkRateResult {
                            dst,
                            rate_mbps: rate.mbps(),
                            attempts: attempts[k],
                            acked: acked[k],
                        });
                    }
                }
            }
            NodeResult { id: i as u32, x_m, y_m, counters, rate_stats }
        })
        .collect();
    let (route_failures, false_route_failures) =
        (totals.route_failures, totals.false_route_failures);
    let (routing_packets, routing_bytes) = (totals.routing_packets, totals.routing_bytes);
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
        engine: EngineResult { events: world.events(), sim_time_s: ns_to_secs(end_ns) },
        route_failures,
        false_route_failures,
        routing_packets,
        routing_bytes,
        etx_links: world.etx_links().map(|links| {
            links
                .into_iter()
                .map(|l| EtxLinkResult {
                    from: l.from,
                    to: l.to,
                    delivery: l.delivery,
                    reverse_delivery: l.reverse_delivery,
                    etx: l.etx,
                })
                .collect()
        }),
        series: world.series().cloned(),
        warnings: world.warnings().to_vec(),
    }
}

fn flow_result(id: u32, f: &FlowState, in_flight: u64, window_s: f64, now: SimTime) -> FlowResult {
    let mut r = FlowResult {
        id,
        src: f.src,
        dst: f.dst,
        transport: "udp",
        hops: f.hops,
        payload_bytes: 0,
        goodput_kbps: 0.0,
        packets_sent: f.packets_sent,
        packets_delivered: f.packets_delivered,
        packets_dropped: f.dropped,
        packets_in_flight: in_flight,
        mean_delay_ms: None,
        link_failures: f.link_failures,
        route_failures: f.link_failures,
        false_route_failures: f.false_route_failures,
        path: None,
        paths: Vec::new(),
        tcp: None,
    };
    match &f.app {
        FlowApp::Udp { source, sink } => {
            r.payload_bytes = source.payload_bytes;
            r.goodput_kbps = sink.window_payload_bytes as f64 * 8.0 / window_s / 1000.0;
            r.mean_delay_ms = sink.mean_delay_ms();
        }
        FlowApp::Tcp(t) => {
            r.transport = "tcp";
            r.payload_bytes = t.mss;
            r.goodput_kbps = t.window_bytes as f64 * 8.0 / window_s / 1000.0;
            r.mean_delay_ms =
                (t.delay_count > 0).then(|| t.delay_sum_ns as f64 / t.delay_count as f64 / 1e6);
            let st = &t.sender.stats;
            let h = &st.rtt_ms;
            r.tcp = Some(TcpResult {
                variant: variant_name(t.spec.variant),
                throughput_pps: st.acked_in_window as f64 / window_s,
                segments_sent: st.segments_sent,
                retransmissions: st.retransmissions,
                timeouts: st.timeouts,
                fast_retransmits: st.fast_retransmits,
                acks_sent: t.receiver.acks_sent,
                avg_cwnd: t.sender.avg_cwnd(now),
                avg_window_limit: t.sender.avg_limit(now),
                window_distribution: t.sender.window_distribution(now),
                window_limit: match t.spec.window_limit {
                    None | Some(WindowLimit::None) => "none",
                    Some(WindowLimit::Fixed) => "fixed",
                    Some(WindowLimit::HopBased) => "hop_based",
                    Some(WindowLimit::HopK) => "hop_k",
                    Some(WindowLimit::DelayBased) => "delay_based",
                    Some(WindowLimit::Fu) => "fu",
                    Some(WindowLimit::Kawadia) => "kawadia",
                },
                slow_start_fraction: t.sender.slow_start_fraction(now),
                rtt_ms: RttResult {
                    mean: h.mean(),
                    min: h.min(),
                    max: h.max(),
                    p50: h.quantile(0.5),
                    p95: h.quantile(0.95),
                    samples: h.count(),
                },
                bytes_delivered: t.delivered_bytes,
                transfer_completed_s: t.completed_ns.map(ns_to_secs),
            });
        }
    }
    r
}

/// TCP delivered each byte once and in order: the receiver never runs ahead of what was sent,
/// and a finished fixed-size transfer delivered exactly its bytes.
fn check_tcp_delivery(i: usize, t: &TcpFlow, invariants: &mut Invariants) {
    let delivered_segments = t.receiver.next_expected();
    if delivered_segments > t.sender.highest_sent() {
        invariants.violate(format!(
            "flow {i}: receiver delivered {delivered_segments} segments but only {} were sent",
            t.sender.highest_sent()
        ));
    }
    let expected_bytes: u64 = (0..delivered_segments).map(|s| t.segment_bytes(s) as u64).sum();
    if expected_bytes != t.delivered_bytes {
        invariants.violate(format!(
            "flow {i}: {} bytes handed to the application, {expected_bytes} expected",
            t.delivered_bytes
        ));
    }
    if let Some(n) = t.total_segments {
        if delivered_segments > n {
            invariants.violate(format!(
                "flow {i}: {delivered_segments} segments delivered of a {n}-segment transfer"
            ));
        }
    }
}

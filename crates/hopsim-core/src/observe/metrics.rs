//! Counters and the result document. Field names are part of the public interface
//! (docs/interfaces.md).

use crate::engine::time::SimTime;
use crate::mac::dcf::AggCounters;
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
    /// Frames lost to a link's Gilbert-Elliott state.
    pub channel_losses: u64,
    /// Routing control packets sent (and their IP bytes) and received.
    pub routing_sent: u64,
    pub routing_bytes: u64,
    pub routing_received: u64,
    /// The routing messages sent (each hop), by kind, with their bytes.
    pub routing_messages: crate::net::router::ControlTally,
    /// Drops of the AQM (RED early or forced, CoDel at dequeue) and its ECN marks.
    pub aqm_drops: u64,
    pub ecn_marks: u64,
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
    /// Times the route the source sampled changed over the run (the first is no change),
    /// and when the source first held a complete route as it sent (None: never).
    pub route_changes: u64,
    pub first_route_s: Option<f64>,
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
    /// ECN at the endpoints (flows with `tcp.ecn` only).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub ecn: Option<EcnResult>,
}

/// ECN counters of a TCP flow (RFC 3168).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct EcnResult {
    /// Window reductions for ECN-Echo (at most one per window of data).
    pub ecn_reactions: u64,
    /// ACKs that arrived at the sender with ECE.
    pub ece_acks: u64,
    /// Data segments that reached the receiver marked CE.
    pub ce_received: u64,
}

/// The interface queue's AQM counters and the queueing delay (with a `[queue]` table).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct QueueResult {
    pub aqm_drops: u64,
    pub ecn_marks: u64,
    /// Sojourn time of the packets that left the queue (enqueue to dequeue), ms.
    pub queue_delay_mean_ms: Option<f64>,
    pub queue_delay_p95_ms: Option<f64>,
    pub queue_delay_p99_ms: Option<f64>,
    pub queue_delay_max_ms: Option<f64>,
    pub queue_delay_samples: u64,
}

impl QueueResult {
    pub(crate) fn from_parts(
        aqm_drops: u64,
        ecn_marks: u64,
        h: &crate::transport::tcp::stats::LogHistogram,
    ) -> QueueResult {
        QueueResult {
            aqm_drops,
            ecn_marks,
            queue_delay_mean_ms: h.mean(),
            queue_delay_p95_ms: h.quantile(0.95),
            queue_delay_p99_ms: h.quantile(0.99),
            queue_delay_max_ms: h.max(),
            queue_delay_samples: h.count(),
        }
    }
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
    pub(crate) unicast_done: u64,
    /// EDCA internal collisions (802.11-2020 10.22.2.4), with flows in two or more categories.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub internal_collisions: Option<u64>,
    /// Frames lost to the links' Gilbert-Elliott states (with `[radio.gilbert_elliott]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel_losses: Option<u64>,
    /// AQM counters and queueing delay (with a `[queue]` table).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub queue: Option<QueueResult>,
    /// A-MPDU and Block Ack counters (802.11n with `mac.ampdu_max_bytes` > 0).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub aggregation: Option<AggResult>,
    /// A-MSDU counters (802.11n/ac with `mac.amsdu_max_bytes` > 0).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub amsdu: Option<AmsduResult>,
}

/// What A-MSDU aggregation did: MPDUs finished that carried an A-MSDU, their MSDUs, and the
/// mean A-MSDU size.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct AmsduResult {
    pub amsdus: u64,
    pub amsdu_msdus: u64,
    /// amsdu_msdus / amsdus.
    pub mean_amsdu_msdus: f64,
}

impl AmsduResult {
    pub(crate) fn of(amsdus: u64, amsdu_msdus: u64) -> AmsduResult {
        AmsduResult { amsdus, amsdu_msdus, mean_amsdu_msdus: ratio(amsdu_msdus, amsdus) }
    }
}

/// What A-MPDU aggregation did (docs/interfaces.md, result fields): the MAC's counts and the
/// mean A-MPDU size.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct AggResult {
    #[serde(flatten)]
    pub counts: AggCounters,
    /// ampdu_mpdus / ampdus_sent.
    pub mean_ampdu_mpdus: f64,
}

impl AggResult {
    pub(crate) fn of(counts: AggCounters) -> AggResult {
        AggResult { counts, mean_ampdu_mpdus: ratio(counts.ampdu_mpdus, counts.ampdus_sent) }
    }

    pub(crate) fn add(&mut self, o: &AggResult) {
        self.counts.add(&o.counts);
        self.mean_ampdu_mpdus = ratio(self.counts.ampdu_mpdus, self.counts.ampdus_sent);
    }
}

impl MacTotals {
    pub(crate) fn add(&mut self, o: &MacTotals) {
        self.mac_attempts += o.mac_attempts;
        self.mac_retries += o.mac_retries;
        self.retry_limit_drops += o.retry_limit_drops;
        self.collisions += o.collisions;
        if let (Some(t), Some(x)) = (self.internal_collisions.as_mut(), o.internal_collisions) {
            *t += x;
        }
        if let (Some(t), Some(x)) = (self.channel_losses.as_mut(), o.channel_losses) {
            *t += x;
        }
        if let Some(x) = o.amsdu {
            let t = self.amsdu.get_or_insert_with(Default::default);
            *t = AmsduResult::of(t.amsdus + x.amsdus, t.amsdu_msdus + x.amsdu_msdus);
        }
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
        if let Some(a) = &o.aggregation {
            self.aggregation.get_or_insert_with(AggResult::default).add(a);
        }
        if let Some(q) = &o.queue {
            // The delay of the totals comes from the merged histograms (`world/result.rs`).
            let t = self.queue.get_or_insert_with(QueueResult::default);
            t.aqm_drops += q.aqm_drops;
            t.ecn_marks += q.ecn_marks;
        }
        self.link_drop_probability = ratio(self.retry_limit_drops, self.unicast_done);
    }
}

pub(crate) fn ratio(a: u64, b: u64) -> f64 {
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
    /// An HT or VHT rate's MCS index, streams and airtime (absent for non-HT rates, so that
    /// 802.11b/a/g results keep their form).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mcs: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spatial_streams: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub airtime_s: Option<f64>,
}

/// Routing messages of one kind sent over the run (each hop of a forwarded one).
#[derive(Debug, Clone, Serialize)]
pub struct RoutingMessageResult {
    pub kind: &'static str,
    pub messages: u64,
    /// Bytes of the messages themselves (no packet, UDP or IP header).
    pub bytes: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct EtxLinkResult {
    pub from: u32,
    pub to: u32,
    pub delivery: f64,
    pub reverse_delivery: f64,
    pub etx: f64,
}

/// One outside interferer (`[[interference]]`) over the run.
#[derive(Debug, Clone, Serialize)]
pub struct InterferenceResult {
    pub periods: u64,
    pub on_s: f64,
    /// Share of its active span (start_s to stop_s) it was on the air.
    pub occupancy: f64,
    pub nodes_reached: u32,
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
    /// The scenario as run (defaults filled in), serialised by the caller: the result types
    /// do not depend on the scenario model.
    pub scenario: Box<serde_json::value::RawValue>,
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
    /// When every flow's source had first held a complete route (the latest `first_route_s`;
    /// None if a flow never had one).
    pub convergence_s: Option<f64>,
    /// Routing messages by kind (protocols with control messages, once one was sent).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub routing_messages: Vec<RoutingMessageResult>,
    /// ETX routing: every link whose probes got through both ways.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub etx_links: Option<Vec<EtxLinkResult>>,
    /// Every outside interferer, in the order of `[[interference]]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interference: Option<Vec<InterferenceResult>>,
    /// Per-flow time series, when asked for (run option `series_interval_s`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub series: Option<Series>,
    /// Problems that did not stop the run (e.g. a trace file that could not be written).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// The optional time series of a run (run option `series_interval_s`): per flow and
/// sample, long format, stored column-wise (`World::sample` fills it).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Series {
    #[serde(skip)]
    pub(crate) interval_ns: SimTime,
    #[serde(skip)]
    pub(crate) last_bytes: Vec<u64>,
    pub time_s: Vec<f64>,
    pub flow: Vec<u32>,
    pub cwnd: Vec<Option<f64>>,
    pub goodput_kbps: Vec<f64>,
    pub delivered_bytes: Vec<u64>,
}

impl Series {
    pub fn new(interval_ns: SimTime, flows: usize) -> Series {
        Series { interval_ns: interval_ns.max(1), last_bytes: vec![0; flows], ..Series::default() }
    }
}

impl Series {
    /// Bytes of the samples, for the run's memory budget.
    pub fn memory_bytes(&self) -> usize {
        self.time_s.len() * (8 + 4 + 16 + 8 + 8)
    }

    pub fn last_time_ns(&self) -> SimTime {
        self.time_s.last().map_or(0, |&t| (t * 1e9).round() as SimTime)
    }
}

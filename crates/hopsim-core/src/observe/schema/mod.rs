//! The result schema: every key of the result document (`metrics.rs`) with its level, kind,
//! unit, how a sweep metric reads it and a one-line meaning. This table is the one home of
//! those facts: the Python package (`hopsim.schema`), the sweep metrics, the CLI's help and the
//! table in docs/interfaces.md are read from it, and the tests below keep it equal to the keys
//! the result types serialise.

/// One key of the result document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The record the key belongs to (see [`LEVELS`]).
    pub level: &'static str,
    /// The key; `rtt_ms.p50` names a key of a nested object.
    pub name: &'static str,
    /// `int`, `float`, `text`, `object`, `list[int]`, `list[float]`, `list[text]`,
    /// `list[object]`.
    pub kind: &'static str,
    /// Whether the value may be `null`.
    pub nullable: bool,
    /// Unit of the value ("" for names, ids and objects).
    pub unit: &'static str,
    /// How a sweep metric reads it: `sum` or `mean` over the run's flows (flow keys), `total`
    /// (`totals.NAME`), "" (not a metric).
    pub metric: &'static str,
    /// When the key is there: "" always, else the condition (e.g. `tcp` flows only).
    pub present: &'static str,
    pub description: &'static str,
}

/// The levels of the document, in order, each with where it sits. Nodes carry the `node`
/// keys and every `totals` counter (their own counts).
pub const LEVELS: &[(&str, &str)] = &[
    ("run", "the document's top level"),
    ("flow", "each element of `flows`"),
    ("flow.paths", "each element of a flow's `paths`"),
    ("node", "each element of `nodes` (with every `totals` counter, per node)"),
    ("node.rate_stats", "each element of a node's `rate_stats`"),
    ("totals", "`totals`: the node counters summed over the nodes"),
    ("invariants", "`invariants`"),
    ("engine", "`engine`"),
    ("routing_messages", "each element of `routing_messages`"),
    ("etx_links", "each element of `etx_links`"),
    ("interference", "each element of `interference`"),
    ("series", "`series`: columns of equal length, one row per flow per sample"),
];

const fn f(
    level: &'static str,
    name: &'static str,
    kind: &'static str,
    unit: &'static str,
    metric: &'static str,
    description: &'static str,
) -> Field {
    Field { level, name, kind, nullable: false, unit, metric, present: "", description }
}

impl Field {
    const fn nullable(mut self) -> Field {
        self.nullable = true;
        self
    }

    const fn when(mut self, present: &'static str) -> Field {
        self.present = present;
        self
    }
}

const RUN: &str = "run";
const FLOW: &str = "flow";
const TOTALS: &str = "totals";
const INT: &str = "int";
const FLOAT: &str = "float";
const TEXT: &str = "text";
const OBJECT: &str = "object";
const TCP: &str = "tcp flows";
const ECN: &str = "tcp flows with tcp.ecn";
const QUEUE: &str = "a [queue] table";
const MCS: &str = "rows of HT and VHT rates (802.11n, 802.11ac)";
const QOS_MIX: &str = "a flow with `access_category` other than BE";
const AGG: &str = "802.11n or 802.11ac with `mac.ampdu_max_bytes` > 0";
const AMSDU: &str = "802.11n or 802.11ac with `mac.amsdu_max_bytes` > 0";

/// Every key of the result document, level by level.
#[rustfmt::skip]
pub const RESULT_SCHEMA: &[Field] = &[
    f(RUN, "hopsim_version", TEXT, "", "", "version of the simulator that ran"),
    f(RUN, "seed", INT, "", "", "seed of the random streams"),
    f(RUN, "duration_s", FLOAT, "s", "", "simulated time of the run"),
    f(RUN, "warmup_s", FLOAT, "s", "", "start of the measurement window"),
    f(RUN, "scenario", OBJECT, "", "", "the fully resolved scenario"),
    f(RUN, "flows", "list[object]", "", "", "one record per flow"),
    f(RUN, "nodes", "list[object]", "", "", "one record per node"),
    f(RUN, "totals", OBJECT, "", "", "the node counters summed over the nodes"),
    f(RUN, "invariants", OBJECT, "", "", "invariant violations found during the run"),
    f(RUN, "engine", OBJECT, "", "", "what the event engine did"),
    f(RUN, "route_failures", INT, "failures", "", "network total of route failures (also in `totals`)"),
    f(RUN, "false_route_failures", INT, "failures", "", "network total of false route failures (also in `totals`)"),
    f(RUN, "routing_packets", INT, "packets", "", "routing control packets sent (also in `totals`)"),
    f(RUN, "routing_bytes", INT, "bytes", "", "IP bytes of the routing control packets sent (also in `totals`)"),
    f(RUN, "convergence_s", FLOAT, "s", "", "when every flow's source had first held a complete route (the latest first_route_s)").nullable(),
    f(RUN, "routing_messages", "list[object]", "", "", "routing messages sent, by kind (each hop of a forwarded one)").when("routing = aodv, dsr, olsr or hwmp, once a message was sent"),
    f(RUN, "etx_links", "list[object]", "", "", "every link whose ETX probes got through both ways").when("routing = etx"),
    f(RUN, "interference", "list[object]", "", "", "every outside interferer, in the order of the scenario's").when("[[interference]]"),
    f(RUN, "series", OBJECT, "", "", "per-flow time series").when("run option series_interval_s"),
    f(RUN, "warnings", "list[text]", "", "", "problems that did not stop the run (e.g. a trace file not written)").when("a warning"),

    f(FLOW, "id", INT, "", "", "flow id (its index in the scenario)"),
    f(FLOW, "src", INT, "", "", "source node"),
    f(FLOW, "dst", INT, "", "", "destination node"),
    f(FLOW, "transport", TEXT, "", "", "`\"tcp\"` or `\"udp\"`"),
    f(FLOW, "hops", INT, "hops", "mean", "hops of the shortest path over decode links at time 0"),
    f(FLOW, "payload_bytes", INT, "bytes", "mean", "application payload per packet"),
    f(FLOW, "goodput_kbps", FLOAT, "kbit/s", "sum", "payload bits delivered in order to the application inside the window, per second"),
    f(FLOW, "packets_sent", INT, "packets", "sum", "network-layer packets of the flow sent (TCP: data segments and ACKs; whole run)"),
    f(FLOW, "packets_delivered", INT, "packets", "sum", "packets of the flow that reached their destination (whole run)"),
    f(FLOW, "packets_dropped", INT, "packets", "sum", "packets of the flow dropped on the way (whole run)"),
    f(FLOW, "packets_in_flight", INT, "packets", "sum", "packets of the flow still in the network at the end"),
    f(FLOW, "mean_delay_ms", FLOAT, "ms", "mean", "mean one-way delay of the data packets arriving inside the window").nullable(),
    f(FLOW, "link_failures", INT, "failures", "sum", "retry-limit drops of the flow's packets"),
    f(FLOW, "route_failures", INT, "failures", "sum", "the same count as `link_failures`, under the routing studies' name"),
    f(FLOW, "false_route_failures", INT, "failures", "sum", "link failures while the next hop was within decode range"),
    f(FLOW, "path", "list[int]", "", "", "the route node by node: the fixed one (static, etx) or the one in use longest (aodv, dsr)").when("a route"),
    f(FLOW, "paths", "list[object]", "", "", "every route the flow's data took, with its share of the window, the largest first").when("a route"),
    f(FLOW, "route_changes", INT, "changes", "sum", "times the route the source sampled as it sent changed over the run (the first route is no change)"),
    f(FLOW, "first_route_s", FLOAT, "s", "", "when the source first held a complete route as it sent").nullable(),
    f(FLOW, "variant", TEXT, "", "", "`\"reno\"`, `\"newreno\"`, `\"sack\"`, `\"vegas\"`, `\"vegas_w\"`, `\"few\"`, `\"cubic\"`, `\"bic\"` or `\"bbr\"`").when(TCP),
    f(FLOW, "throughput_pps", FLOAT, "segments/s", "sum", "segments newly acknowledged (cumulatively) at the sender inside the window, per second").when(TCP),
    f(FLOW, "segments_sent", INT, "segments", "sum", "data segments transmitted, retransmissions included (whole run)").when(TCP),
    f(FLOW, "retransmissions", INT, "segments", "sum", "data segments transmitted again (fast retransmit, NewReno partial ACK, SACK recovery, after a timeout)").when(TCP),
    f(FLOW, "timeouts", INT, "timeouts", "sum", "retransmission timer expiries with data outstanding").when(TCP),
    f(FLOW, "fast_retransmits", INT, "events", "sum", "entries into fast retransmit / fast recovery").when(TCP),
    f(FLOW, "acks_sent", INT, "ACKs", "sum", "ACKs the receiver sent, duplicate ACKs included").when(TCP),
    f(FLOW, "avg_cwnd", FLOAT, "segments", "mean", "time-weighted mean congestion window over the window (`null` if the run ended before `warmup_s`)").nullable().when(TCP),
    f(FLOW, "avg_window_limit", FLOAT, "segments", "mean", "time-weighted mean of the limit in force, min(CWL, `receiver_window`) (so `receiver_window` without a CWL); `null` as above").nullable().when(TCP),
    f(FLOW, "window_distribution", "list[float]", "fraction", "", "element i: share of the window's time with floor(min(cwnd, limit)) = i segments allowed in flight (element 0: a fractional window below one segment); sums to 1; empty if the run ended before `warmup_s`").when(TCP),
    f(FLOW, "window_limit", TEXT, "", "", "the CWL policy in force: `\"none\"`, `\"fixed\"`, `\"hop_based\"`, `\"hop_k\"`, `\"delay_based\"`, `\"fu\"` or `\"kawadia\"`").when(TCP),
    f(FLOW, "slow_start_fraction", FLOAT, "fraction", "mean", "share of the window's time with cwnd < ssthresh (`null` as above)").nullable().when(TCP),
    f(FLOW, "rtt_ms", OBJECT, "ms", "", "RTT samples of the whole run").when(TCP),
    f(FLOW, "rtt_ms.mean", FLOAT, "ms", "mean", "mean RTT (`null` without samples)").nullable().when(TCP),
    f(FLOW, "rtt_ms.min", FLOAT, "ms", "mean", "smallest RTT (`null` without samples)").nullable().when(TCP),
    f(FLOW, "rtt_ms.max", FLOAT, "ms", "mean", "largest RTT (`null` without samples)").nullable().when(TCP),
    f(FLOW, "rtt_ms.p50", FLOAT, "ms", "mean", "median RTT, within 0.5% (`null` without samples)").nullable().when(TCP),
    f(FLOW, "rtt_ms.p95", FLOAT, "ms", "mean", "95th percentile RTT, within 0.5% (`null` without samples)").nullable().when(TCP),
    f(FLOW, "rtt_ms.samples", INT, "samples", "mean", "RTT samples taken").when(TCP),
    f(FLOW, "bytes_delivered", INT, "bytes", "sum", "application bytes delivered in order to the receiver (whole run)").when(TCP),
    f(FLOW, "ecn_reactions", INT, "reductions", "sum", "window reductions for ECN-Echo (RFC 3168 6.1.2: at most one per window of data, no retransmission)").when(ECN),
    f(FLOW, "ece_acks", INT, "ACKs", "sum", "ACKs that reached the sender with ECE set").when(ECN),
    f(FLOW, "ce_received", INT, "segments", "sum", "data segments that reached the receiver marked CE").when(ECN),
    f(FLOW, "transfer_completed_s", FLOAT, "s", "mean", "when the ACK of the last byte of a fixed-size transfer arrived; `null` for bulk flows and unfinished transfers").nullable().when(TCP),

    f("flow.paths", "nodes", "list[int]", "", "", "the route node by node; empty: the time without a complete route"),
    f("flow.paths", "time_share", FLOAT, "fraction", "", "share of the window the route was in use (sampled at each data packet sent)"),

    f("node", "id", INT, "", "", "node id"),
    f("node", "x_m", FLOAT, "m", "", "x position at time 0"),
    f("node", "y_m", FLOAT, "m", "", "y position at time 0"),
    f("node", "rate_stats", "list[object]", "", "", "unicast DATA attempts and acknowledgements per next hop and rate (rates used only)"),

    f("node.rate_stats", "dst", INT, "", "", "next hop"),
    f("node.rate_stats", "rate_mbps", FLOAT, "Mbit/s", "", "data rate"),
    f("node.rate_stats", "attempts", INT, "frames", "", "DATA transmissions at this rate"),
    f("node.rate_stats", "acked", INT, "frames", "", "of them acknowledged (an A-MPDU: any of its MPDUs)"),
    f("node.rate_stats", "mcs", INT, "", "", "the MCS index (HT 0-31, VHT 0-9)").when(MCS),
    f("node.rate_stats", "spatial_streams", INT, "", "", "spatial streams of the MCS").when(MCS),
    f("node.rate_stats", "airtime_s", FLOAT, "s", "", "airtime of those PPDUs").when(MCS),

    f(TOTALS, "mac_attempts", INT, "frames", "total", "RTS and DATA frames transmitted"),
    f(TOTALS, "mac_retries", INT, "frames", "total", "retransmissions (RTS or DATA)"),
    f(TOTALS, "retry_limit_drops", INT, "packets", "total", "unicast packets the MAC gave up on at the retry limit"),
    f(TOTALS, "collisions", INT, "frames", "total", "frames addressed to the node (or broadcast), strong enough to decode, lost to overlap with another frame"),
    f(TOTALS, "queue_drops", INT, "packets", "total", "packets dropped at a full interface queue"),
    f(TOTALS, "queue_purge_drops", INT, "packets", "total", "packets taken out of the interface queue because their next hop failed (ns2 profile)"),
    f(TOTALS, "no_route_drops", INT, "packets", "total", "packets dropped for want of a route"),
    f(TOTALS, "ttl_drops", INT, "packets", "total", "packets dropped when their TTL ran out"),
    f(TOTALS, "link_failures", INT, "failures", "total", "retry-limit drops reported to routing"),
    f(TOTALS, "route_failures", INT, "failures", "total", "the same count as `link_failures`, under the routing studies' name"),
    f(TOTALS, "false_route_failures", INT, "failures", "total", "link failures while the next hop was within decode range"),
    f(TOTALS, "frame_errors", INT, "frames", "total", "decodable, uncollided frames lost to `radio.frame_error_rate`, counted at every listener"),
    f(TOTALS, "routing_packets", INT, "packets", "total", "routing control packets sent"),
    f(TOTALS, "routing_bytes", INT, "bytes", "total", "IP bytes of the routing control packets sent"),
    f(TOTALS, "link_drop_probability", FLOAT, "fraction", "total", "retry_limit_drops / unicast packets the MAC finished (acknowledged or dropped)"),
    f(TOTALS, "rts_sent", INT, "frames", "total", "RTS frames sent"),
    f(TOTALS, "cts_sent", INT, "frames", "total", "CTS frames sent"),
    f(TOTALS, "data_sent", INT, "frames", "total", "DATA frames sent, retransmissions included"),
    f(TOTALS, "ack_sent", INT, "frames", "total", "MAC ACK frames sent"),
    f(TOTALS, "channel_losses", INT, "frames", "total", "decodable, uncollided frames lost to a link's Gilbert-Elliott state or its trace, counted at every listener").when("[radio.gilbert_elliott] or [radio.link_trace]"),
    f(TOTALS, "internal_collisions", INT, "events", "total", "EDCA internal collisions: a category's backoff ended with a higher one's in the same slot, and it backed off (802.11-2020 10.22.2.4)").when(QOS_MIX),
    f(TOTALS, "aqm_drops", INT, "packets", "total", "packets the AQM dropped (RED early or above its range, CoDel at dequeue); full-queue drops are `queue_drops`").when(QUEUE),
    f(TOTALS, "ecn_marks", INT, "packets", "total", "ECN-capable packets the AQM marked CE instead of dropping").when(QUEUE),
    f(TOTALS, "queue_delay_mean_ms", FLOAT, "ms", "total", "mean sojourn time (enqueue to dequeue) of the packets that left the interface queue, over the node's (totals: every node's) packets (`null` without any)").nullable().when(QUEUE),
    f(TOTALS, "queue_delay_p95_ms", FLOAT, "ms", "total", "95th percentile of that sojourn time, within 0.5% (`null` as above)").nullable().when(QUEUE),
    f(TOTALS, "queue_delay_p99_ms", FLOAT, "ms", "total", "99th percentile of that sojourn time, within 0.5% (`null` as above)").nullable().when(QUEUE),
    f(TOTALS, "queue_delay_max_ms", FLOAT, "ms", "total", "largest sojourn time (`null` as above)").nullable().when(QUEUE),
    f(TOTALS, "queue_delay_samples", INT, "packets", "total", "packets that left the interface queue for the MAC").when(QUEUE),
    f(TOTALS, "ampdus_sent", INT, "frames", "total", "A-MPDUs of two or more MPDUs sent").when(AGG),
    f(TOTALS, "ampdu_mpdus", INT, "frames", "total", "MPDUs sent in those A-MPDUs").when(AGG),
    f(TOTALS, "mean_ampdu_mpdus", FLOAT, "frames", "total", "ampdu_mpdus / ampdus_sent: the mean A-MPDU size in MPDUs").when(AGG),
    f(TOTALS, "block_acks_sent", INT, "frames", "total", "BlockAck frames sent").when(AGG),
    f(TOTALS, "block_acks_received", INT, "frames", "total", "BlockAck frames received by the A-MPDUs' originators").when(AGG),
    f(TOTALS, "mpdus_failed", INT, "frames", "total", "MPDUs a BlockAck (or ACK) left unacknowledged, or whose response was lost").when(AGG),
    f(TOTALS, "bars_sent", INT, "frames", "total", "BlockAckReq frames sent: after a missed BlockAck, or to skip discarded MPDUs").when(AGG),
    f(TOTALS, "late_drops", INT, "packets", "total", "MSDUs lost because they reached the reordering buffer after it had given their gap up").when(AGG),
    f(TOTALS, "reorder_timeouts", INT, "packets", "total", "MSDUs the reordering buffer released past a gap at `mac.reorder_timeout_s`").when(AGG),
    f(TOTALS, "amsdus", INT, "frames", "total", "MPDUs finished (acknowledged or given up) that carried an A-MSDU of two or more MSDUs").when(AMSDU),
    f(TOTALS, "amsdu_msdus", INT, "packets", "total", "MSDUs in those A-MSDUs").when(AMSDU),
    f(TOTALS, "mean_amsdu_msdus", FLOAT, "packets", "total", "amsdu_msdus / amsdus: the mean A-MSDU size in MSDUs").when(AMSDU),

    f("invariants", "violations", "list[text]", "", "", "the first violations, verbatim (empty when every check held)"),
    f("invariants", "violation_count", INT, "violations", "", "violations found"),

    f("engine", "events", INT, "events", "", "events the engine processed"),
    f("engine", "sim_time_s", FLOAT, "s", "", "simulated time the engine reached"),

    f("routing_messages", "kind", TEXT, "", "", "the message kind: aodv_rreq, aodv_rrep, aodv_rerr, aodv_hello (an RREP for the sender itself, RFC 3561 6.9), dsr_rreq, dsr_rrep, dsr_rerr, olsr_hello, olsr_tc, hwmp_preq, hwmp_prep, hwmp_perr, hwmp_rann"),
    f("routing_messages", "messages", INT, "messages", "", "messages of the kind sent (OLSR packs several in one packet)"),
    f("routing_messages", "bytes", INT, "bytes", "", "bytes of those messages (without packet, UDP or IP headers; HWMP: the action frame's body)"),

    f("etx_links", "from", INT, "", "", "sending node"),
    f("etx_links", "to", INT, "", "", "receiving node"),
    f("etx_links", "delivery", FLOAT, "fraction", "", "share of the probes delivered from `from` to `to`"),
    f("etx_links", "reverse_delivery", FLOAT, "fraction", "", "share of the probes delivered the other way"),
    f("etx_links", "etx", FLOAT, "transmissions", "", "expected transmissions, 1 / (delivery × reverse_delivery)"),

    f("interference", "periods", INT, "periods", "", "periods on the air begun in the run"),
    f("interference", "on_s", FLOAT, "s", "", "time on the air"),
    f("interference", "occupancy", FLOAT, "fraction", "", "share of its span (start_s to stop_s) on the air"),
    f("interference", "nodes_reached", INT, "nodes", "", "nodes its energy reaches as a signal (for moving nodes, in its last period)"),

    f("series", "time_s", FLOAT, "s", "", "sample time"),
    f("series", "flow", INT, "", "", "flow id"),
    f("series", "cwnd", FLOAT, "segments", "", "congestion window (`null` for UDP flows)").nullable(),
    f("series", "goodput_kbps", FLOAT, "kbit/s", "", "payload bits delivered in order during the sample interval, per second"),
    f("series", "delivered_bytes", INT, "bytes", "", "payload delivered in order since the start"),
];

/// The keys of one level, in table order.
pub fn fields(level: &str) -> impl Iterator<Item = &'static Field> + '_ {
    RESULT_SCHEMA.iter().filter(move |f| f.level == level)
}

#[cfg(test)]
mod tests;

//! The result document from the world's state at the end of a run: per flow, per node and
//! network totals (the types are in `metrics.rs`), with the invariants every run must keep.

use super::World;
use crate::engine::time::{ns_to_secs, SimTime};
use crate::ids::{FlowId, NodeId, SeqNo};
use crate::observe::metrics::{
    ratio, AggResult, AmsduResult, EcnResult, EngineResult, EtxLinkResult, FlowResult,
    InvariantResult, Invariants, LinkRateResult, MacTotals, NodeResult, QueueResult, RouteShare,
    RoutingMessageResult, RttResult, RunResult, TcpResult,
};
use crate::transport::flow::{FlowApp, FlowState, TcpFlow};
use crate::transport::tcp::config::WindowLimit;
use crate::transport::tcp::stats::LogHistogram;
use crate::transport::tcp::variant_name;

pub(crate) fn collect(world: &World, scenario: Box<serde_json::value::RawValue>) -> RunResult {
    let (warmup_ns, end_ns) = (world.cx.cfg.warmup_ns, world.cx.cfg.end_ns);
    let window_s = ns_to_secs(end_ns - warmup_ns);
    let mut in_flight = vec![0u64; world.cx.flows.len()];
    for p in world.cx.packets.iter_live() {
        // A copy its next hop already accepted is accounted for by that hop's copy.
        if !p.handed_over && !p.flow.is_none() {
            in_flight[p.flow.index()] += 1;
        }
    }
    let mut invariants = world.cx.invariants.clone();
    let flows: Vec<FlowResult> = world
        .cx
        .flows
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mut r = flow_result(i as u32, f, in_flight[i], window_s, end_ns);
            let shares = world.route_shares(FlowId(i as u32));
            r.path = fixed_path(world, f.src, f.dst).or_else(|| {
                shares.iter().find(|(nodes, _)| !nodes.is_empty()).map(|(n, _)| numbers(n))
            });
            r.paths = shares
                .into_iter()
                .map(|(nodes, time_share)| RouteShare { nodes: numbers(&nodes), time_share })
                .collect();
            r.route_changes = world.route_changes(FlowId(i as u32));
            r.first_route_s = world.first_route_ns(FlowId(i as u32)).map(ns_to_secs);
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
    // Internal collisions need two categories: shown when a flow is marked other than BE.
    let qos_mix = world.cx.flows.iter().any(|f| f.dscp != 0);
    let ge = world.fading.dynamics.has_loss();
    let mut totals = MacTotals {
        internal_collisions: qos_mix.then_some(0),
        channel_losses: ge.then_some(0),
        ..Default::default()
    };
    let mut all_delays: Option<Box<LogHistogram>> = None;
    let nodes: Vec<NodeResult> = world
        .nodes
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
                internal_collisions: qos_mix.then_some(m.internal_collisions),
                channel_losses: ge.then_some(c.channel_losses),
                aggregation: n.mac.agg_counters().map(AggResult::of),
                amsdu: n.mac.amsdu_on().then(|| AmsduResult::of(m.amsdus, m.amsdu_msdus)),
                queue: n.queue_delay_ms.as_ref().map(|h| {
                    all_delays.get_or_insert_with(Box::default).merge(h);
                    QueueResult::from_parts(c.aqm_drops, c.ecn_marks, h)
                }),
            };
            totals.add(&counters);
            let [x_m, y_m] = world.positions[i];
            let mut rate_stats = Vec::new();
            for (dst, counts) in n.mac.rates.stats() {
                for c in counts {
                    let mcs = c.rate.mcs_mode();
                    rate_stats.push(LinkRateResult {
                        dst: dst.0,
                        rate_mbps: c.rate.mbps(),
                        attempts: c.attempts,
                        acked: c.acked,
                        mcs: mcs.map(|m| m.index()),
                        spatial_streams: mcs.map(|m| m.streams() as u8),
                        airtime_s: mcs.map(|_| c.airtime_ns as f64 * 1e-9),
                    });
                }
            }
            NodeResult { id: i as u32, x_m, y_m, counters, rate_stats }
        })
        .collect();
    if let (Some(t), Some(h)) = (totals.queue.as_mut(), &all_delays) {
        *t = QueueResult::from_parts(t.aqm_drops, t.ecn_marks, h);
    }
    let (route_failures, false_route_failures) =
        (totals.route_failures, totals.false_route_failures);
    let (routing_packets, routing_bytes) = (totals.routing_packets, totals.routing_bytes);
    let first_routes: Option<Vec<f64>> = flows.iter().map(|f| f.first_route_s).collect();
    let convergence_s = first_routes.and_then(|t| t.into_iter().reduce(f64::max));
    let mut tally = crate::net::router::ControlTally::default();
    world.nodes.iter().for_each(|n| tally.merge(&n.counters.routing_messages));
    let routing_messages = tally
        .sent()
        .map(|(k, messages, bytes)| RoutingMessageResult { kind: k.name(), messages, bytes })
        .collect();
    RunResult {
        hopsim_version: crate::VERSION,
        seed: world.run_info.seed,
        duration_s: world.run_info.duration_s,
        warmup_s: world.run_info.warmup_s,
        scenario,
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
        convergence_s,
        routing_messages,
        etx_links: world.etx.as_ref().map(|e| e.table.links()).map(|links| {
            links
                .into_iter()
                .map(|l| EtxLinkResult {
                    from: l.from.0,
                    to: l.to.0,
                    delivery: l.delivery,
                    reverse_delivery: l.reverse_delivery,
                    etx: l.etx,
                })
                .collect()
        }),
        interference: world.interference.as_ref().map(|i| i.results()),
        series: world.series.clone(),
        warnings: world.warnings.to_vec(),
    }
}

fn flow_result(id: u32, f: &FlowState, in_flight: u64, window_s: f64, now: SimTime) -> FlowResult {
    let mut r = FlowResult {
        id,
        src: f.src.0,
        dst: f.dst.0,
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
        route_changes: 0,
        first_route_s: None,
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
                ecn: t.spec.ecn.then(|| EcnResult {
                    ecn_reactions: t.sender.ecn().reactions,
                    ece_acks: t.sender.ecn().ece_acks,
                    ce_received: t.ecn_echo.ce_received,
                }),
            });
        }
    }
    r
}

/// TCP delivered each byte once and in order: the receiver never runs ahead of what was sent,
/// and a finished fixed-size transfer delivered exactly its bytes.
fn check_tcp_delivery(i: usize, t: &TcpFlow, invariants: &mut Invariants) {
    let rcv_nxt = t.receiver.next_expected();
    let delivered_segments = rcv_nxt - SeqNo::ZERO;
    if rcv_nxt > t.sender.highest_sent() {
        invariants.violate(format!(
            "flow {i}: receiver delivered {delivered_segments} segments but only {} were sent",
            t.sender.highest_sent()
        ));
    }
    let expected_bytes: u64 = SeqNo::ZERO.until(rcv_nxt).map(|s| t.segment_bytes(s) as u64).sum();
    if expected_bytes != t.delivered_bytes {
        invariants.violate(format!(
            "flow {i}: {} bytes handed to the application, {expected_bytes} expected",
            t.delivered_bytes
        ));
    }
    if let Some(n) = t.total_segments {
        let data_segments = rcv_nxt - t.first_data().min(rcv_nxt);
        if data_segments > n {
            invariants.violate(format!(
                "flow {i}: {data_segments} segments delivered of a {n}-segment transfer"
            ));
        }
    }
}

/// The frozen route of a flow (static and ETX routing), as a node sequence.
fn fixed_path(world: &World, src: NodeId, dst: NodeId) -> Option<Vec<u32>> {
    if !world.nodes[src.index()].router.fixed() {
        return None;
    }
    world.cx.routes.path(src, dst).map(|p| numbers(&p))
}

/// A route as the result document writes it: node numbers.
fn numbers(path: &[NodeId]) -> Vec<u32> {
    path.iter().map(|n| n.0).collect()
}

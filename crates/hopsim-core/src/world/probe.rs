//! One flow's counters as they stand, read cheaply between the steps of a controller (the
//! Gymnasium environments of `hopsim.gym`, issue 35): cumulative, so that a step's figures
//! are differences of two probes. Reading changes nothing (routes as the tables hold them).

use super::World;
use crate::ids::{FlowId, NodeId};
use crate::transport::flow::FlowApp;

/// A flow's cumulative counters now; the TCP ones are 0 (NaN for times) for UDP.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct FlowProbe {
    pub now_ns: u64,
    /// Application payload delivered in order at the destination.
    pub delivered_bytes: u64,
    pub cwnd_segments: f64,
    /// Infinite while still at its initial, unbounded value.
    pub ssthresh_segments: f64,
    /// The window limit in force (0: none).
    pub window_limit_segments: f64,
    pub srtt_ms: f64,
    pub rto_ms: f64,
    pub rtt_samples: u64,
    pub rtt_sum_ms: f64,
    /// The least RTT sample so far (NaN before the first).
    pub min_rtt_ms: f64,
    pub segments_sent: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
    /// Packets in the source's interface queue(s).
    pub source_queue_packets: u64,
    /// Hops of the route the tables hold now (0: no complete route).
    pub hops: u32,
    pub route_changes: u64,
    /// The transfer of a fixed size is complete.
    pub completed: bool,
}

impl World {
    /// Node `node`'s MAC retries so far (0 for a node that does not exist).
    pub fn mac_retries(&self, node: NodeId) -> u64 {
        self.nodes.get(node.index()).map_or(0, |n| n.mac.counters.mac_retries)
    }

    /// The flows, in the scenario's order.
    pub fn flows(&self) -> &[crate::transport::flow::FlowState] {
        &self.cx.flows
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Flow `flow`'s counters now; `route` is scratch for the route (no allocation once it
    /// has grown). None for a flow that does not exist.
    pub fn probe_flow(&self, flow: usize, route: &mut Vec<NodeId>) -> Option<FlowProbe> {
        let f = self.cx.flows.get(flow)?;
        let now = self.cx.sched.now();
        self.current_route(now, f.src, f.dst, route);
        let mut p = FlowProbe {
            now_ns: now,
            source_queue_packets: self.nodes[f.src.index()].queued() as u64,
            hops: route.len().saturating_sub(1) as u32,
            route_changes: self.route_changes(FlowId(flow as u32)),
            srtt_ms: f64::NAN,
            rto_ms: f64::NAN,
            min_rtt_ms: f64::NAN,
            ..FlowProbe::default()
        };
        match &f.app {
            FlowApp::Udp { sink, .. } => p.delivered_bytes = sink.total_payload_bytes,
            FlowApp::Tcp(t) => {
                let s = &t.sender;
                p.delivered_bytes = t.delivered_bytes;
                p.completed = t.completed_ns.is_some();
                p.cwnd_segments = s.cwnd();
                p.ssthresh_segments = s.ssthresh();
                p.window_limit_segments = s.window_limit().unwrap_or(0.0);
                p.srtt_ms = s.rto().srtt_ns().map_or(f64::NAN, |ns| ns * 1e-6);
                p.rto_ms = s.rto().rto_ns() as f64 * 1e-6;
                p.rtt_samples = s.stats.rtt_ms.count();
                p.rtt_sum_ms = s.stats.rtt_ms.sum();
                p.min_rtt_ms = s.stats.rtt_ms.min().unwrap_or(f64::NAN);
                p.segments_sent = s.stats.segments_sent;
                p.retransmissions = s.stats.retransmissions;
                p.timeouts = s.stats.timeouts;
            }
        }
        Some(p)
    }
}

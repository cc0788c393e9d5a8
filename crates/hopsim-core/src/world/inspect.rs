//! A paused run seen (issue 35): the live state a controller reads between steps. Reading
//! changes nothing: routes are read as the tables hold them (`paths.rs`), never looked up
//! (an AODV lookup would refresh the route's lifetime). The changes are in `steer.rs`.

use serde::Serialize;

use super::World;
use crate::engine::time::ns_to_secs;
use crate::transport::flow::FlowApp;

/// One flow as it stands; the TCP fields are absent (null) for UDP.
#[derive(Debug, Clone, Serialize)]
pub struct LiveFlow {
    pub flow: usize,
    pub src: u32,
    pub dst: u32,
    /// Application payload the destination has received in order.
    pub delivered_bytes: u64,
    pub cwnd_segments: Option<f64>,
    /// Absent while still at its initial, unbounded value (RFC 5681 3.1).
    pub ssthresh_segments: Option<f64>,
    pub srtt_ms: Option<f64>,
    pub rto_ms: Option<f64>,
    /// snd_una: segments acknowledged cumulatively.
    pub segments_acked: Option<u32>,
    pub segments_sent: Option<u64>,
    pub retransmissions: Option<u64>,
    pub timeouts: Option<u64>,
    pub fast_retransmits: Option<u64>,
    /// The window limit in force (absent: none).
    pub window_limit_segments: Option<f64>,
    /// The route from source to destination as the tables hold it now (empty: none).
    pub route: Vec<u32>,
    /// Times the route of its data changed.
    pub route_changes: u64,
}

/// One node as it stands.
#[derive(Debug, Clone, Serialize)]
pub struct LiveNode {
    pub node: u32,
    /// Packets in its interface queue(s).
    pub queue_packets: usize,
    pub mac_retries: u64,
    pub retry_limit_drops: u64,
    pub queue_drops: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct LiveState {
    pub now_s: f64,
    pub flows: Vec<LiveFlow>,
    pub nodes: Vec<LiveNode>,
}

impl World {
    /// [`World::live_state`] as JSON.
    pub fn live_state_json(&self) -> String {
        serde_json::to_string(&self.live_state()).expect("the live state serialises")
    }

    /// The route from `src` to `dst` as the tables hold it now, node ids in order (empty:
    /// none); nothing is refreshed by reading it.
    pub fn route_now(&self, src: crate::ids::NodeId, dst: crate::ids::NodeId) -> Vec<u32> {
        let mut out = Vec::new();
        self.current_route(self.cx.sched.now(), src, dst, &mut out);
        out.into_iter().map(|n| n.0).collect()
    }

    /// Every flow's and node's state now (nothing is changed by reading it).
    pub fn live_state(&self) -> LiveState {
        let flows = self.cx.flows.iter().enumerate().map(|(i, f)| {
            let mut out = LiveFlow {
                flow: i,
                src: f.src.0,
                dst: f.dst.0,
                delivered_bytes: 0,
                cwnd_segments: None,
                ssthresh_segments: None,
                srtt_ms: None,
                rto_ms: None,
                segments_acked: None,
                segments_sent: None,
                retransmissions: None,
                timeouts: None,
                fast_retransmits: None,
                window_limit_segments: None,
                route: self.route_now(f.src, f.dst),
                route_changes: self.route_changes(crate::ids::FlowId(i as u32)),
            };
            match &f.app {
                FlowApp::Udp { sink, .. } => out.delivered_bytes = sink.total_payload_bytes,
                FlowApp::Tcp(t) => {
                    let s = &t.sender;
                    out.delivered_bytes = t.delivered_bytes;
                    out.cwnd_segments = Some(s.cwnd());
                    out.ssthresh_segments =
                        Some(s.ssthresh()).filter(|v| v.is_finite() && *v < 1e9);
                    out.srtt_ms = s.rto().srtt_ns().map(|ns| ns * 1e-6);
                    out.rto_ms = Some(s.rto().rto_ns() as f64 * 1e-6);
                    out.segments_acked = Some(s.snd_una().get());
                    out.segments_sent = Some(s.stats.segments_sent);
                    out.retransmissions = Some(s.stats.retransmissions);
                    out.timeouts = Some(s.stats.timeouts);
                    out.fast_retransmits = Some(s.stats.fast_retransmits);
                    out.window_limit_segments = s.window_limit();
                }
            }
            out
        });
        let nodes = self.nodes.iter().map(|n| LiveNode {
            node: n.id.0,
            queue_packets: n.queues.iter().map(|q| q.len()).sum(),
            mac_retries: n.mac.counters.mac_retries,
            retry_limit_drops: n.mac.counters.retry_limit_drops,
            queue_drops: n.counters.queue_drops,
        });
        LiveState {
            now_s: ns_to_secs(self.cx.sched.now()),
            flows: flows.collect(),
            nodes: nodes.collect(),
        }
    }
}

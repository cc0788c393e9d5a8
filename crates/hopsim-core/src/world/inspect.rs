//! A paused run seen and steered (issue 35): the live state a controller reads between steps
//! (reading changes nothing; a route lookup would refresh AODV's expiry, so routes are not
//! offered), and the changes a paused run accepts.

use serde::Serialize;

use super::World;
use crate::engine::time::ns_to_secs;
use crate::error::ScenarioError;
use crate::scenario::{ranges, KeyPath};
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

    /// Change flow `flow`'s window limit from now on: a fixed CWL of `segments` (as
    /// `tcp.max_window`, fractional allowed), or none (`None` or 0). Refused, naming the key,
    /// for a flow that does not exist, a UDP flow, or a value outside `tcp.max_window`'s range.
    pub fn set_window_limit(
        &mut self,
        flow: usize,
        segments: Option<f64>,
    ) -> Result<(), ScenarioError> {
        let n = self.cx.flows.len();
        let at = KeyPath::root().field("flows").index(flow);
        let Some(f) = self.cx.flows.get_mut(flow) else {
            return Err(ScenarioError::invalid("flow", flow, &format!("a flow index 0..{n}")));
        };
        let FlowApp::Tcp(t) = &mut f.app else {
            return Err(at
                .field("transport")
                .invalid("\"udp\"", "a window limit needs a TCP flow"));
        };
        if let Some(w) = segments {
            ranges::check(&KeyPath::root().field("tcp").field("max_window"), w)?;
        }
        let now = self.cx.sched.now();
        t.sender.set_fixed_limit(segments.filter(|w| *w > 0.0), now);
        Ok(())
    }
}

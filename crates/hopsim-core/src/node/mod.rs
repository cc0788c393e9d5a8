//! A node: its radio, MAC, interface queue and router, the packets it keeps while it looks
//! for a route, and the per-node state the glue between them keeps (the frame on the air,
//! counters, random streams, Chen et al.'s link delay estimates). A node does its own work:
//! it routes, queues, purges and salvages, hands frames to its MAC and takes back what the
//! MAC finishes, and runs the transport endpoints of the flows that start or end here,
//! through a context the world lends it (`ctx.rs`). The world moves frames between nodes.

mod ctx;
mod forward;
mod queue;
mod route_wait;
mod routing;
mod salvage;
mod transport;

pub use ctx::{GlueConfig, NodeCtx, NodeOutput, NodeTimers, Scratch};
pub use route_wait::{RouteWait, WAITING_MAX, WAITING_TIMEOUT_S};

use crate::engine::rng::Rng;
use crate::engine::time::SimTime;
use crate::ids::{FlowId, NodeId, PacketId};
use crate::mac::dcf::Dcf;
use crate::mac::frame::Frame;
use crate::net::router::Router;
use crate::observe::metrics::NodeCounters;
use crate::phy::radio::FrameRef;
use crate::phy::receiver::Receiver;
use crate::queue::IfQueue;

#[derive(Clone)]
pub struct Node {
    pub id: NodeId,
    pub radio: Receiver,
    pub mac: Dcf,
    /// The interface queue: one, or one per EDCA category (indexed as `mac::edca::Ac`).
    pub queues: Vec<IfQueue>,
    /// Sojourn time of each packet leaving the queue, ms (with a `[queue]` table only).
    pub queue_delay_ms: Option<Box<crate::transport::tcp::stats::LogHistogram>>,
    /// The frame on the air from this node, with its identity.
    pub tx_frame: Option<(Frame, FrameRef)>,
    pub tx_serial: u32,
    pub counters: NodeCounters,
    /// The routing protocol here, and the packets this node keeps until it finds a route.
    pub router: Router,
    pub route_wait: RouteWait,
    /// Saturated flows originating here (refilled whenever the MAC takes a packet).
    pub saturated_flows: Vec<FlowId>,
    /// How many packets of each saturated flow wait in the queue: 1, or for an aggregating
    /// MAC as many as one A-MPDU may carry (always enough for the next access).
    pub saturation_depth: u32,
    /// Injected frame errors (`radio.frame_error_rate`).
    pub error_rng: Rng,
    /// Next IP identification of packets originated here.
    pub next_ident: u16,
    /// Broadcast jitter of routing control packets.
    pub routing_rng: Rng,
    /// Per-frame fading of this node's transmissions.
    pub fading_rng: Rng,
    /// Smoothed per-packet MAC transmission delay to each next hop used (ns), Chen et al.'s
    /// per-hop delay estimate.
    pub link_delay: Vec<(NodeId, f64)>,
    /// ns2: while a MAC failure is handled, the packets that handling sends wait here (with
    /// their next hop; None: routing control) and reach the queue only after the MAC has
    /// taken its next packet (forward.rs `on_mac_done`).
    pub deferring: bool,
    pub deferred: Vec<(PacketId, Option<NodeId>)>,
}

impl Node {
    /// The current per-packet transmission delay estimate to `next_hop` (0: none yet).
    pub fn link_delay_ns(&self, next_hop: NodeId) -> u64 {
        self.link_delay.iter().find(|e| e.0 == next_hop).map_or(0, |e| e.1 as u64)
    }

    /// EWMA with weight 1/8 per new sample (the TCP SRTT gain, RFC 6298).
    pub fn note_link_delay(&mut self, next_hop: NodeId, sample_ns: SimTime) {
        match self.link_delay.iter_mut().find(|e| e.0 == next_hop) {
            Some(e) => e.1 += (sample_ns as f64 - e.1) / 8.0,
            None => self.link_delay.push((next_hop, sample_ns as f64)),
        }
    }

    /// The IP identification of the next packet originated here.
    fn take_ident(&mut self) -> u16 {
        let ident = self.next_ident;
        self.next_ident = ident.wrapping_add(1);
        ident
    }
}

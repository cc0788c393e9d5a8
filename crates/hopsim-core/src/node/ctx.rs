//! What a node needs from outside for one call, and what it reports back. The world lends
//! its shared parts (the clock and timers, the packet arena, the flows' endpoints and
//! counters, the traces) for the call and drains the node's outputs after it: lending is
//! setting the time and passing one pointer.

use crate::engine::sched::TimerSink;
use crate::engine::time::SimTime;
use crate::ids::NodeId;
use crate::mac::dcf::{MacCtx, MacTimer, Tagged};
use crate::net::packet::{FlowId, PacketArena, PacketId};
use crate::net::router::{RouteAction, RouteTimer};
use crate::net::routing::StaticRoutes;
use crate::observe::event_rows::Trace;
use crate::observe::events::{EventKind, Layer, Reason};
use crate::observe::metrics::Invariants;
use crate::observe::trace::writer::PcapTracer;
use crate::queue::Queued;
use crate::transport::flow::FlowState;
use crate::transport::tcp::endpoint::TcpScratch;
use crate::transport::tcp::TcpTimer;
use crate::transport::{AppTimer, Emit};

/// Where a node arms the timers of its layers and of the endpoints it runs.
pub trait NodeTimers:
    TimerSink<MacTimer, NodeId>
    + TimerSink<RouteTimer, NodeId>
    + TimerSink<TcpTimer, FlowId>
    + TimerSink<AppTimer, FlowId>
{
}

impl<T> NodeTimers for T where
    T: TimerSink<MacTimer, NodeId>
        + TimerSink<RouteTimer, NodeId>
        + TimerSink<TcpTimer, FlowId>
        + TimerSink<AppTimer, FlowId>
{
}

/// Settings of the glue every node shares.
#[derive(Debug, Clone, Copy)]
pub struct GlueConfig {
    /// Spacing of packets released when a route is found (ns-2 AODV ARP_DELAY, DSR
    /// arp_timeout; 0: at once).
    pub release_spacing_ns: SimTime,
    /// The ns2 profile: DSR salvaging at a failed next hop (`salvage.rs`).
    pub ns2: bool,
    /// The measurement window [warmup, end) and the end of the run.
    pub warmup_ns: SimTime,
    pub end_ns: SimTime,
    /// HWMP: the 802.11s bytes every data MSDU carries on a mesh link (0 otherwise), and the
    /// PHY's overhead O of the airtime metric (IEEE 802.11-2012 13.9).
    pub mesh_header_bytes: u32,
    pub airtime_overhead_us: f64,
}

/// Buffers reused from call to call (taken while in use, so a nested call gets its own).
#[derive(Clone, Default)]
pub struct Scratch {
    pub route_out: Vec<RouteAction>,
    pub aqm_dropped: Vec<Queued>,
    pub tcp: TcpScratch,
    pub emitted: Vec<Emit>,
}

impl Scratch {
    /// With room for what one call usually needs, so that steady state allocates nothing.
    pub fn with_capacity() -> Scratch {
        Scratch {
            route_out: Vec::with_capacity(8),
            aqm_dropped: Vec::with_capacity(8),
            tcp: TcpScratch::with_capacity(32, 4),
            emitted: Vec::with_capacity(32),
        }
    }
}

/// What a node reports to the world, drained after each call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeOutput {
    /// The source of `flow` handed a data packet to the network: its route is sampled
    /// (`world/paths.rs`; routing tables are only read).
    DataSent { flow: FlowId },
    /// An ETX probe from `from` was received (`world/etx.rs` counts it).
    ProbeHeard { from: NodeId },
}

/// The parts of the world every node works with, lent to one node at a time (the world
/// owns it; `now` is set before each call). The timers come last so that a node sees them
/// as `dyn NodeTimers` and never names the world's event type: the world's
/// `&mut NodeCtx<Scheduler<Event>>` is a node's `&mut NodeCtx`.
#[derive(Clone)]
pub struct NodeCtx<T: ?Sized = dyn NodeTimers> {
    pub now: SimTime,
    /// MAC outputs, tagged with their node, handled by the world in order.
    pub mac_out: Vec<Tagged>,
    pub packets: PacketArena,
    /// Every flow's endpoints and network counters.
    pub flows: Vec<FlowState>,
    /// Static (or frozen ETX) routes.
    pub routes: StaticRoutes,
    pub trace: Trace,
    pub pcap: Option<PcapTracer>,
    pub invariants: Invariants,
    pub scratch: Scratch,
    pub cfg: GlueConfig,
    /// What the node of the current call reported.
    pub out: Vec<NodeOutput>,
    /// The OLSR messages and HWMP elements in flight (`net/store.rs`).
    pub olsr: crate::net::olsr::OlsrStore,
    pub hwmp: crate::net::store::MessageStore<crate::net::hwmp::msg::HwmpMsg>,
    pub sched: T,
}

impl NodeCtx {
    /// The MAC's context for one call.
    #[inline]
    pub fn mac(&mut self) -> MacCtx<'_> {
        MacCtx { now: self.now, timers: &mut self.sched, out: &mut self.mac_out }
    }

    /// Is `now` inside the measurement window?
    pub fn in_window(&self) -> bool {
        self.now >= self.cfg.warmup_ns && self.now < self.cfg.end_ns
    }

    /// A packet is lost: counted against its flow and freed.
    pub fn drop_packet(&mut self, packet: PacketId) {
        let flow = self.packets.get(packet).flow;
        if !flow.is_none() {
            self.flows[flow.index()].dropped += 1;
        }
        self.packets.free(packet);
    }

    /// `packet` left the interface queue of `node` other than to its MAC (dropped, purged):
    /// an own datagram no longer counts as queued at its source.
    pub fn left_queue(&mut self, node: NodeId, packet: PacketId) {
        let p = self.packets.get(packet);
        if p.is_own_datagram(node) {
            self.flows[p.flow.index()].queued_at_source -= 1;
        }
    }

    /// A trace row about the packet `packet` at `node`.
    #[inline]
    pub fn trace_id(
        &mut self,
        node: NodeId,
        what: (Layer, EventKind),
        packet: PacketId,
        reason: Option<Reason>,
    ) {
        self.trace.id(&self.packets, (self.now, node), what, packet, reason);
    }
}

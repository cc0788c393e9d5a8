//! One routing interface for every node, whatever the protocol: static shortest paths, AODV,
//! DSR or ETX behind the `Router` enum (as smoltcp puts its congestion controllers behind an
//! enum). The node's glue asks it to route a packet (forward, deliver, hold, drop with a
//! reason), hands it control messages, link failures and timers, and carries out the
//! `RouteAction`s it lists. The protocol state machines (`aodv.rs`, `dsr.rs`) keep their own
//! action types; this file translates them into one vocabulary.

use super::aodv::{AodvAction, AodvConfig, AodvNode, FailedPacket};
use super::dsr::{DsrAction, DsrConfig, DsrMsg, DsrNode, SrcRoute};
use super::hwmp::msg::HwmpMsg;
use super::hwmp::HwmpTimer;
use super::olsr::OlsrStore;
use super::packet::{Packet, PacketId, INITIAL_TTL};
use super::routing::StaticRoutes;
use super::store::MessageStore;
use crate::engine::time::{SimDuration, SimTime};
use crate::ids::NodeId;

/// What routing needs from outside for one call: the time, the node it runs at, the static
/// (or frozen ETX) route tables, and where to list what it wants done.
pub struct RouteCtx<'a> {
    pub now: SimTime,
    pub me: NodeId,
    pub routes: &'a StaticRoutes,
    pub out: &'a mut Vec<RouteAction>,
    /// The OLSR messages and HWMP elements the packets in flight carry.
    pub olsr: &'a mut OlsrStore,
    pub hwmp: &'a mut MessageStore<HwmpMsg>,
}

/// The fate of a packet at a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// The packet is for this node.
    Deliver,
    /// Queue it for `next_hop`; with `release_older`, packets waiting here for the same
    /// destination go first (none is overtaken by a younger one).
    Forward {
        next_hop: NodeId,
        release_older: bool,
    },
    /// Keep it here until a route is found (a source's discovery, AODV's local repair, ETX's
    /// warm-up).
    Hold,
    Drop(DropReason),
}

/// Why routing lost a packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropReason {
    /// No route to the destination here (ns-2 trace reason NRTE).
    NoRoute,
    /// A DSR source route that does not pass through this node, or ends here early.
    BadSourceRoute,
}

/// A packet with a DSR source route reached this node (its own copy for this hop).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrival {
    /// Route it on; `control`: it carries a routing message this node read in passing.
    Continue {
        control: bool,
    },
    /// A routing message addressed here, read and consumed.
    Consumed,
    Drop(DropReason),
}

/// What becomes of a packet whose next hop the MAC gave up on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Lost (unless the next hop had accepted it already).
    Lost,
    /// It waits here for a repaired route (ns-2 AODV `local_rt_repair`).
    Wait,
    /// ns-2 DSR `xmitFailed`: it and every packet queued for that hop are salvaged.
    Salvage,
}

/// What a router asks its node to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RouteAction {
    /// Send `msg` to neighbour `to` (NodeId::BROADCAST for floods) after `delay_ns` and a
    /// random jitter of up to `jitter_ns` (both 0: at once).
    Send { msg: Control, to: NodeId, delay_ns: SimDuration, jitter_ns: SimDuration },
    /// Send a DSR reply or error along `route`, which starts at this node.
    SendRouted { msg: DsrMsg, route: SrcRoute },
    /// Call `send_queued` after a random jitter of up to `jitter_ns` (OLSR's messages go
    /// together then).
    SendQueued { jitter_ns: SimDuration },
    /// Arm routing timer `timer` at `at` (HWMP's).
    Arm { timer: RouteTimer, at: SimTime },
    /// Call `on_timer(dst)` at `at`.
    Timer { dst: NodeId, at: SimTime },
    /// A route to `dst` exists: release the packets waiting for it; `paced`: spaced by the
    /// glue's release spacing, each routed at once (ns-2 AODV `recvReply`, DSR
    /// `acceptRouteReply`), else all at once (ns-2 DSR `sendBufferCheck`).
    RouteFound { dst: NodeId, paced: bool },
    /// Discovery of `dst` failed: drop the packets waiting for it.
    Unreachable { dst: NodeId },
    /// Drop the packet for `dst` this node forwards (not its own) that has waited longest
    /// (ns-2 DSR's salvaging forwarder, net/dsr/salvage.rs).
    DropOldestWaiting { dst: NodeId },
    /// Drop every packet queued here for `next_hop` (ns-2 AODV `ifqueue->filter`).
    PurgeQueue { next_hop: NodeId },
}

/// Routing's timers at a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RouteTimer {
    /// A route discovery for `dst` (AODV, DSR): `Router::on_timer`.
    Discovery {
        dst: NodeId,
    },
    /// AODV's periodic HELLO.
    Hello,
    /// ETX: the node broadcasts its next probe.
    EtxProbe,
    /// OLSR's periodic HELLO and TC (RFC 3626 sections 6.2 and 9.3).
    OlsrHello,
    OlsrTc,
    /// OLSR's queued messages go out (`RouteAction::SendQueued`).
    OlsrSend,
    /// One of HWMP's timers (`RouteAction::Arm`).
    Hwmp(HwmpTimer),
    /// A jittered routing control packet goes to the interface queue.
    ControlRelease {
        packet: PacketId,
    },
    /// A packet that waited for a route goes to `next_hop`, routed when the route was found
    /// (ns-2 releases them ARP_DELAY or arp_timeout apart).
    RouteRelease {
        packet: PacketId,
        next_hop: NodeId,
    },
}

/// What an observer sees of the route from a node, without using it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RouteView {
    /// The whole path is known here (written to the caller's buffer).
    Whole,
    /// Only the next hop is known here (AODV: follow the next hops).
    NextHop(NodeId),
    None,
}

/// AODV at one node, with its HELLO settings (interval, allowed losses) when they are on.
#[derive(Clone)]
pub struct AodvRouter {
    node: AodvNode,
    hello: Option<(SimDuration, u32)>,
    scratch: Vec<AodvAction>,
}

/// DSR at one node; `ns2`: ns-2's send-buffer release order and salvaging.
#[derive(Clone)]
pub struct DsrRouter {
    node: DsrNode,
    ns2: bool,
    scratch: Vec<DsrAction>,
}

/// The routing protocol of one node.
#[derive(Clone)]
pub enum Router {
    /// Shortest paths by hop count, computed once (`routing.rs`).
    Static,
    /// ETX: sources hold their packets until the routes are frozen after the probes
    /// (`frozen`), then the frozen tables serve as static routes.
    Etx {
        frozen: bool,
    },
    Aodv(AodvRouter),
    Dsr(DsrRouter),
    Olsr(Box<OlsrRouter>),
    Hwmp(Box<HwmpRouter>),
}

impl Router {
    pub fn aodv(me: NodeId, cfg: AodvConfig, hello: Option<(SimDuration, u32)>) -> Router {
        let scratch = Vec::with_capacity(8);
        Router::Aodv(AodvRouter { node: AodvNode::new(me, cfg), hello, scratch })
    }

    pub fn dsr(me: NodeId, cfg: DsrConfig) -> Router {
        let (node, scratch) = (DsrNode::new(me, cfg), Vec::with_capacity(8));
        Router::Dsr(DsrRouter { node, ns2: cfg.ns2, scratch })
    }

    /// Routes fixed for the whole run (static, ETX once frozen) rather than discovered.
    pub fn fixed(&self) -> bool {
        matches!(self, Router::Static | Router::Etx { .. })
    }

    /// Route `p` at this node. DSR puts a cached source route on a packet that has none.
    pub fn route(&mut self, cx: &mut RouteCtx, p: &mut Packet) -> Decision {
        if p.dst == cx.me {
            return Decision::Deliver;
        }
        let own = p.src == cx.me && !p.flow.is_none();
        match self {
            Router::Static => table_hop(cx, p.dst),
            Router::Etx { frozen: false } if p.src == cx.me => Decision::Hold,
            Router::Etx { .. } => table_hop(cx, p.dst),
            Router::Aodv(a) => {
                let d = a.route(cx.now, p.dst, own);
                a.flush(cx.out);
                d
            }
            Router::Dsr(d) => {
                let decision = d.route(cx.now, cx.me, p, own);
                d.flush(cx.out);
                decision
            }
            Router::Olsr(o) => o.route(cx, p.dst),
            Router::Hwmp(h) => h.route(cx, p.dst, own),
        }
    }

    /// A packet carrying a DSR source route reached this node: move along the route, learn
    /// from it, consume a reply or error addressed here. Other routers route it on.
    pub fn on_arrival(&mut self, cx: &mut RouteCtx, p: &mut Packet) -> Arrival {
        let Router::Dsr(d) = self else { return Arrival::Continue { control: false } };
        let carried = p.dsr();
        let Some((route, at)) = p.route.as_mut() else {
            return Arrival::Continue { control: false };
        };
        *at += 1;
        if route.get(*at as usize) != Some(cx.me) {
            return Arrival::Drop(DropReason::BadSourceRoute);
        }
        let arrived = route.last() == cx.me;
        let arrival = match carried {
            Some(msg) => {
                d.node.receive_in_transit(msg, arrived, &mut d.scratch);
                if let (true, DsrMsg::Rerr { from, to }) = (arrived, msg) {
                    d.node.hold_error(from, to, cx.now);
                }
                if arrived {
                    Arrival::Consumed
                } else {
                    d.node.snoop_forwarded_control(route);
                    Arrival::Continue { control: true }
                }
            }
            None if p.flow_only => Arrival::Continue { control: false }, // no route on the air
            None => {
                d.node.learn_from(route); // routes seen in forwarded data
                Arrival::Continue { control: false }
            }
        };
        d.node.release_cached(cx.now, &mut d.scratch);
        d.flush(cx.out);
        arrival
    }

    /// A packet with a source route sent by neighbour `from` to another node was overheard
    /// (ns-2 DSR's promiscuous tap, dsragent.cc `tap`).
    pub fn tap(&mut self, cx: &mut RouteCtx, p: &Packet, from: NodeId) {
        let Router::Dsr(d) = self else { return };
        // A flow-only packet carries no route (ns-2 `processFlowARS` then, which never
        // shortens: a flow packet's route index is 0, dsragent.cc `handleFlowForwarding`).
        let Some((route, _)) = p.route.as_ref().filter(|_| !p.flow_only) else { return };
        let heard = super::dsr::Overheard { route, from, src: p.src, msg: p.dsr() };
        d.node.tap(heard, cx.now, &mut d.scratch);
        d.node.release_cached(cx.now, &mut d.scratch);
        d.flush(cx.out);
    }

    /// A routing message from neighbour `from` (AODV's, or a flooded DSR Route Request);
    /// `link_metric`: the airtime metric of the link with `from` (IEEE 802.11-2012 13.9, the
    /// glue's from the MAC), which HWMP accumulates and the others ignore.
    pub fn on_control(&mut self, cx: &mut RouteCtx, msg: Control, from: NodeId, link_metric: u32) {
        match (self, msg) {
            (Router::Aodv(a), Control::Aodv(m)) => {
                a.node.receive(m, from, cx.now, &mut a.scratch);
                a.flush(cx.out);
            }
            (Router::Dsr(d), Control::Dsr(m)) => {
                d.node.receive_request(m, &mut d.scratch);
                d.node.release_cached(cx.now, &mut d.scratch);
                d.flush(cx.out);
            }
            (Router::Olsr(o), Control::Olsr(r)) => o.on_packet(cx, r, from),
            (Router::Hwmp(h), Control::Hwmp(r)) => h.on_element(cx, r, from, link_metric),
            _ => {} // another protocol's message: not understood here
        }
    }

    /// Any frame from `from` was received (AODV HELLO's neighbour liveness, RFC 3561 6.9;
    /// HWMP: the previous hop of a packet to forward).
    pub fn heard(&mut self, from: NodeId, now: SimTime) {
        match self {
            Router::Aodv(a) if a.hello.is_some() => a.node.heard(from, now),
            Router::Hwmp(h) => h.heard(from),
            _ => {}
        }
    }

    /// One of HWMP's timers fired.
    pub fn hwmp_timer(&mut self, cx: &mut RouteCtx, timer: HwmpTimer) {
        if let Router::Hwmp(h) = self {
            h.on_timer(cx, timer);
        }
    }

    /// AODV's periodic HELLO; the interval to the next one (None: no HELLOs here).
    pub fn hello(&mut self, cx: &mut RouteCtx) -> Option<SimDuration> {
        let Router::Aodv(a) = self else { return None };
        let (interval, loss) = a.hello?;
        a.node.hello(cx.now, interval, loss, &mut a.scratch);
        a.flush(cx.out);
        Some(interval)
    }

    /// OLSR's HELLO (`tc` false) or TC timer; the interval to the next (None: not OLSR).
    pub fn olsr_timer(&mut self, cx: &mut RouteCtx, tc: bool) -> Option<SimDuration> {
        let Router::Olsr(o) = self else { return None };
        Some(o.on_timer(cx, tc))
    }

    /// OLSR's jittered send of its queued messages.
    pub fn send_queued(&mut self, cx: &mut RouteCtx) {
        if let Router::Olsr(o) = self {
            o.send_queued(cx);
        }
    }

    /// The MAC gave up on `next_hop` for `p`.
    pub fn on_link_failure(&mut self, cx: &mut RouteCtx, next_hop: NodeId, p: &Packet) -> Failure {
        match self {
            Router::Static | Router::Etx { .. } => Failure::Lost, // the routes stay
            Router::Olsr(o) => {
                o.link_failed(cx, next_hop);
                Failure::Lost
            }
            Router::Hwmp(h) => {
                h.link_failed(cx, next_hop);
                Failure::Lost
            }
            Router::Aodv(a) => {
                let data = p.aodv().is_none();
                let forwards = (INITIAL_TTL - p.ttl.min(INITIAL_TTL)) as u32;
                let fate =
                    a.node.packet_failed(next_hop, p.dst, data, forwards, cx.now, &mut a.scratch);
                a.flush(cx.out);
                if fate == FailedPacket::Wait {
                    Failure::Wait
                } else {
                    Failure::Lost
                }
            }
            Router::Dsr(d) => {
                let header = p.route.as_ref().map(|(r, at)| (r, *at as usize));
                d.node.link_failed(next_hop, header, &mut d.scratch);
                d.flush(cx.out);
                if d.ns2 {
                    Failure::Salvage
                } else {
                    Failure::Lost
                }
            }
        }
    }

    /// ns-2 DSR salvaging at a forwarder: true when a cached route serves `dst`, else a
    /// discovery for it starts (the packet waits).
    pub fn salvage_route(&mut self, cx: &mut RouteCtx, dst: NodeId) -> bool {
        let Router::Dsr(d) = self else { return false };
        if d.node.route_to(dst).is_some() {
            return true;
        }
        d.node.discover_for_salvage(dst, cx.now, &mut d.scratch);
        d.flush(cx.out);
        false
    }

    /// A discovery timer for `dst` fired; `waiting`: packets wait for `dst` at this node.
    pub fn on_timer(&mut self, cx: &mut RouteCtx, dst: NodeId, waiting: bool) {
        match self {
            Router::Aodv(a) => {
                a.node.on_timer(dst, cx.now, waiting, &mut a.scratch);
                a.flush(cx.out);
            }
            Router::Dsr(d) => {
                d.node.on_timer(dst, cx.now, waiting, &mut d.scratch);
                d.flush(cx.out);
            }
            Router::Static | Router::Etx { .. } | Router::Olsr(_) | Router::Hwmp(_) => {}
        }
    }

    /// ETX: the probes are over and the tables frozen; sources stop holding.
    pub fn freeze(&mut self) {
        if let Router::Etx { frozen } = self {
            *frozen = true;
        }
    }

    /// The route from `me` to `dst` as the tables hold it now, without using it; a whole
    /// path goes to `path`.
    pub fn view(
        &self,
        now: SimTime,
        me: NodeId,
        dst: NodeId,
        routes: &StaticRoutes,
        path: &mut Vec<NodeId>,
    ) -> RouteView {
        match self {
            Router::Dsr(d) => match d.node.route_to(dst) {
                Some(route) => {
                    path.extend(route.nodes());
                    RouteView::Whole
                }
                None => RouteView::None,
            },
            // ETX measures links first: the sources hold their packets.
            Router::Etx { frozen: false } => RouteView::None,
            Router::Static | Router::Etx { .. } => match routes.path(me, dst) {
                Some(p) => {
                    path.extend(p);
                    RouteView::Whole
                }
                None => RouteView::None,
            },
            Router::Aodv(a) => a.node.route(dst, now).map_or(RouteView::None, RouteView::NextHop),
            Router::Olsr(o) => {
                o.node.route(dst, now).map_or(RouteView::None, |r| RouteView::NextHop(r.0))
            }
            Router::Hwmp(h) => {
                h.node.route(dst, now).map_or(RouteView::None, |r| RouteView::NextHop(r.next_hop))
            }
        }
    }
}

/// Static and frozen ETX routes: the table's next hop, or no route.
fn table_hop(cx: &RouteCtx, dst: NodeId) -> Decision {
    match cx.routes.next_hop(cx.me, dst) {
        Some(next_hop) => Decision::Forward { next_hop, release_older: false },
        None => Decision::Drop(DropReason::NoRoute),
    }
}

mod aodv;
mod control;
mod dsr;
mod hwmp;
mod olsr;
pub use control::{Control, ControlKind, ControlTally};
pub use hwmp::HwmpRouter;
pub use olsr::OlsrRouter;

#[cfg(test)]
mod tests;

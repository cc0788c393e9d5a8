//! The routing glue of every node: the node's `Router` (`net/router.rs`) decides, this file
//! carries out its decisions and actions: packets waiting for a route, control packets with
//! their jitter, discovery timers, queue purges.

use super::World;
use crate::engine::sched::TimerSink;
use crate::engine::time::{secs_to_ns, SimTime};
use crate::net::aodv::BROADCAST;
use crate::net::packet::{Packet, PacketId, NO_FLOW, UDP_HEADER_BYTES};
use crate::net::router::{Control, Decision, DropReason, RouteAction, RouteTimer};
use crate::observe::events::{EventKind, Layer, Reason};
use crate::queue::{Queued, Verdict};

/// Packets a source keeps while it looks for a route (ns-2 AODV_RTQ_MAX_LEN, AODV_RTQ_TIMEOUT).
const WAITING_MAX: usize = 64;
const WAITING_TIMEOUT_S: f64 = 30.0;

/// Run `f` on the router of `node` with a context; its actions are left in `world.route_out`
/// (taken, so that carrying them out may route again).
macro_rules! with_router {
    ($world:expr, $now:expr, $node:expr, |$router:ident, $cx:ident| $body:expr) => {{
        let mut out = std::mem::take(&mut $world.route_out);
        let result = {
            let $router = &mut $world.nodes[$node as usize].router;
            let $cx = &mut crate::net::router::RouteCtx {
                now: $now,
                me: $node,
                routes: &$world.routes,
                out: &mut out,
            };
            $body
        };
        (result, out)
    }};
}
pub(super) use with_router;

impl World {
    /// Route `packet` at `node`: deliver it, or its next hop; None when it was delivered,
    /// dropped or put aside to wait for a route (the router may have started a discovery).
    pub(super) fn next_hop_for(
        &mut self,
        now: SimTime,
        node: u32,
        packet: PacketId,
    ) -> Option<u32> {
        let (decision, mut out) =
            with_router!(self, now, node, |r, cx| r.route(cx, self.packets.get_mut(packet)));
        // The decision first (packets that waited go before this one), then the actions.
        let hop = match decision {
            Decision::Deliver => {
                let p = *self.packets.get(packet);
                self.packets.free(packet);
                self.deliver_local(now, &p);
                None
            }
            Decision::Forward { next_hop, release_older } => {
                if release_older {
                    let dst = self.packets.get(packet).dst;
                    self.release_older(now, node, dst);
                }
                Some(next_hop)
            }
            Decision::Hold => {
                self.wait_for_route(now, node, packet);
                None
            }
            Decision::Drop(reason) => {
                self.routing_drop(node, packet, reason);
                None
            }
        };
        self.apply_routing(now, node, &mut out);
        self.route_out = out;
        hop
    }

    /// Routing lost `packet` at `node`.
    pub(super) fn routing_drop(&mut self, node: u32, packet: PacketId, reason: DropReason) {
        let now = self.sched.now();
        let why = Some(super::events::drop_reason(reason));
        self.trace_id(now, node, Layer::Net, EventKind::Drop, packet, why);
        match reason {
            DropReason::NoRoute | DropReason::BadSourceRoute => {
                self.nodes[node as usize].counters.no_route_drops += 1
            }
        }
        self.drop_packet(packet);
    }

    /// A routing message from neighbour `from` arrived at `node`.
    pub(super) fn control_received(&mut self, now: SimTime, node: u32, msg: Control, from: u32) {
        self.nodes[node as usize].counters.routing_received += 1;
        let ((), mut out) = with_router!(self, now, node, |r, cx| r.on_control(cx, msg, from));
        self.apply_routing(now, node, &mut out);
        self.route_out = out;
    }

    /// Drop every packet queued at `node` for `next_hop` (ns-2 AODV `ifqueue->filter`).
    fn purge_queue(&mut self, node: u32, next_hop: u32) {
        let mut taken = Vec::new();
        let now = self.sched.now();
        self.nodes[node as usize].queue.take_for(next_hop, now, &mut taken);
        for item in taken {
            self.nodes[node as usize].counters.queue_purge_drops += 1;
            let purge = Some(Reason::QueuePurge);
            self.trace_id(now, node, Layer::Ifq, EventKind::Drop, item.packet, purge);
            let d = *self.packets.get(item.packet);
            if d.src == node && d.tcp.is_none() && d.flow != NO_FLOW {
                self.flows[d.flow as usize].queued_at_source -= 1;
            }
            self.drop_packet(item.packet);
        }
    }

    /// A route to `dst` exists: packets that waited for it go first, so none is overtaken.
    pub(super) fn release_older(&mut self, now: SimTime, node: u32, dst: u32) {
        let waiting = &self.nodes[node as usize].route_wait;
        if !waiting.is_empty() && waiting.iter().any(|&id| self.packets.get(id).dst == dst) {
            self.release_waiting(now, node, dst, true);
        }
    }

    /// Keep a source's packet until a route is found (bounded in number and age).
    pub(super) fn wait_for_route(&mut self, now: SimTime, node: u32, packet: PacketId) {
        self.expire_waiting(now, node);
        if self.nodes[node as usize].route_wait.len() >= WAITING_MAX {
            self.nodes[node as usize].counters.no_route_drops += 1;
            self.trace_id(now, node, Layer::Net, EventKind::Drop, packet, Some(Reason::NoRoute));
            self.drop_packet(packet);
        } else {
            self.nodes[node as usize].route_wait.push_back(packet);
            self.trace_id(now, node, Layer::Net, EventKind::Hold, packet, None);
        }
    }

    /// Drop packets that waited too long for a route (all of them: a packet released and
    /// put back can sit behind younger ones).
    pub(super) fn expire_waiting(&mut self, now: SimTime, node: u32) {
        let limit = secs_to_ns(WAITING_TIMEOUT_S);
        let mut waiting = std::mem::take(&mut self.nodes[node as usize].route_wait);
        waiting.retain(|&id| {
            let fresh = now.saturating_sub(self.packets.get(id).created_ns) < limit;
            if !fresh {
                self.nodes[node as usize].counters.no_route_drops += 1;
                if let Some(t) = self.events.as_mut() {
                    let what = (Layer::Net, EventKind::Drop);
                    let mut r = super::events::packet_row(now, node, what, self.packets.get(id));
                    r.reason = Some(Reason::RouteTimeout);
                    t.write(&r);
                }
                let flow = self.packets.get(id).flow;
                if flow != NO_FLOW {
                    self.flows[flow as usize].dropped += 1;
                }
                self.packets.free(id);
            }
            fresh
        });
        self.nodes[node as usize].route_wait = waiting;
    }

    /// Packets waiting for `dst` go on (route found) or are dropped (discovery failed).
    pub(super) fn release_waiting(&mut self, now: SimTime, node: u32, dst: u32, found: bool) {
        self.expire_waiting(now, node);
        let waiting = std::mem::take(&mut self.nodes[node as usize].route_wait);
        let mut keep = std::collections::VecDeque::with_capacity(waiting.len());
        let mut go = Vec::new();
        for id in waiting {
            if self.packets.get(id).dst == dst {
                go.push(id);
            } else {
                keep.push_back(id);
            }
        }
        self.nodes[node as usize].route_wait = keep;
        for (k, id) in go.into_iter().enumerate() {
            if found && k > 0 && self.release_spacing_ns > 0 {
                let at = now + k as u64 * self.release_spacing_ns;
                self.arm_route(at, node, RouteTimer::RouteRelease { packet: id });
            } else if found {
                self.trace_id(now, node, Layer::Net, EventKind::Release, id, None);
                self.route_and_enqueue(now, node, id);
            } else {
                self.nodes[node as usize].counters.no_route_drops += 1;
                self.trace_id(now, node, Layer::Net, EventKind::Drop, id, Some(Reason::NoRoute));
                self.drop_packet(id);
            }
        }
    }

    pub(super) fn release_after(&mut self, now: SimTime, node: u32, packet: PacketId, delay: u64) {
        if delay == 0 {
            self.release_control(now, node, packet);
        } else {
            self.arm_route(now + delay, node, RouteTimer::ControlRelease { packet });
        }
    }

    /// The jitter of a control packet: uniform up to `max_delay_ns` (0: none).
    pub(super) fn control_delay(&mut self, node: u32, max_delay_ns: u64) -> u64 {
        let n = &mut self.nodes[node as usize];
        if max_delay_ns > 0 {
            (n.routing_rng.uniform() * max_delay_ns as f64) as u64
        } else {
            0
        }
    }

    /// A routing control packet from `node` to `to` (a neighbour, or BROADCAST).
    pub(super) fn control_packet(
        &mut self,
        now: SimTime,
        node: u32,
        to: u32,
        bytes: u32,
    ) -> PacketId {
        let n = &mut self.nodes[node as usize];
        let ident = n.next_ident;
        n.next_ident = n.next_ident.wrapping_add(1);
        let mut p = Packet {
            control: true,
            ident,
            ..Packet::new(NO_FLOW, 0, node, to, bytes, UDP_HEADER_BYTES, now)
        };
        self.number(&mut p);
        self.packets.alloc(p)
    }

    /// A control packet enters the interface queue of `node`, ahead of data.
    pub(super) fn release_control(&mut self, now: SimTime, node: u32, packet: PacketId) {
        let to = self.packets.get(packet).dst;
        let next_hop = if to == BROADCAST { BROADCAST } else { to };
        let arrival = self.arrival(now, packet);
        let verdict =
            self.nodes[node as usize].queue.push(Queued { packet, next_hop }, true, arrival);
        let pushed = match verdict {
            Verdict::Dropped(d, _) => Some(d),
            Verdict::Queued | Verdict::Marked => None,
        };
        if pushed.is_none_or(|d| d.packet != packet) {
            self.trace_enqueue(now, node, packet, next_hop);
        }
        if let Some(dropped) = pushed {
            self.nodes[node as usize].counters.queue_drops += 1;
            let full = Some(Reason::QueueFull);
            self.trace_id(now, node, Layer::Ifq, EventKind::Drop, dropped.packet, full);
            let d = *self.packets.get(dropped.packet);
            if d.src == node && d.tcp.is_none() && d.flow != NO_FLOW {
                self.flows[d.flow as usize].queued_at_source -= 1;
            }
            self.drop_packet(dropped.packet);
        }
        self.pump(now, node);
    }

    /// Arm a routing timer of `node` (`net/router.rs` `RouteTimer`).
    pub(super) fn arm_route(&mut self, at: SimTime, node: u32, timer: RouteTimer) {
        self.sched.arm(at, node, timer, 0);
    }

    /// The periodic HELLO of `node` (AODV with `routing.hello`).
    pub(super) fn hello(&mut self, now: SimTime, node: u32) {
        let (interval, mut out) = with_router!(self, now, node, |r, cx| r.hello(cx));
        self.apply_routing(now, node, &mut out);
        self.route_out = out;
        if let Some(interval) = interval {
            if now + interval.max(1) < self.end_ns {
                self.arm_route(now + interval.max(1), node, RouteTimer::Hello);
            }
        }
    }

    /// A discovery timer of `node` for `dst`.
    pub(super) fn route_timer(&mut self, now: SimTime, node: u32, dst: u32) {
        let ((), mut out) = with_router!(self, now, node, |r, cx| r.on_timer(cx, dst));
        self.expire_waiting(now, node);
        self.apply_routing(now, node, &mut out);
        self.route_out = out;
    }

    /// Carry out what the router of `node` asked for, in order.
    pub(super) fn apply_routing(&mut self, now: SimTime, node: u32, out: &mut Vec<RouteAction>) {
        for action in out.drain(..) {
            match action {
                RouteAction::Send { msg, to, jitter_ns } => {
                    let delay = self.control_delay(node, jitter_ns);
                    let packet = self.control_packet(now, node, to, msg.bytes());
                    let p = self.packets.get_mut(packet);
                    match msg {
                        Control::Aodv(m) => p.aodv = Some(m),
                        Control::Dsr(m) => p.dsr = Some(m),
                    }
                    self.trace_control(now, node, msg, packet);
                    self.release_after(now, node, packet, delay);
                }
                RouteAction::SendRouted { msg, route } => {
                    // A DSR reply or error travels by source route to the end of `route`.
                    if route.len() >= 2 {
                        let packet = self.control_packet(now, node, route.last(), msg.bytes());
                        let q = self.packets.get_mut(packet);
                        q.dsr = Some(msg);
                        q.route = Some((route, 0));
                        q.option_bytes = route.option_bytes();
                        self.trace_control(now, node, Control::Dsr(msg), packet);
                        self.route_and_enqueue(now, node, packet);
                    }
                }
                RouteAction::Timer { dst, at } => {
                    self.arm_route(at, node, RouteTimer::Discovery { dst })
                }
                RouteAction::RouteFound { dst } => self.release_waiting(now, node, dst, true),
                RouteAction::Unreachable { dst } => self.release_waiting(now, node, dst, false),
                RouteAction::PurgeQueue { next_hop } => self.purge_queue(node, next_hop),
            }
        }
    }
}

//! The packets a node keeps while it looks for a route (ns-2 AODV's `aodv_rqueue`, DSR's
//! send buffer): bounded in number and age, released in order when a route is found (ns-2
//! spaces them out), dropped when the discovery fails.

use super::ctx::NodeCtx;
use super::Node;
use crate::engine::time::{secs_to_ns, SimTime};
use crate::ids::PacketId;
use crate::ids::{FlowId, NodeId};
use crate::net::packet::PacketArena;
use crate::net::router::RouteTimer;
use crate::observe::event_rows::packet_row;
use crate::observe::events::{EventKind, Layer, Reason};
use std::collections::VecDeque;

/// ns-2 aodv_rqueue.h `AODV_RTQ_MAX_LEN`: packets kept at most.
pub const WAITING_MAX: usize = 64;
/// ns-2 aodv_rqueue.h `AODV_RTQ_TIMEOUT`: how long a packet may wait, seconds.
pub const WAITING_TIMEOUT_S: f64 = 30.0;

/// Packets waiting for a route, oldest first.
#[derive(Clone, Debug, Default)]
pub struct RouteWait {
    packets: VecDeque<PacketId>,
}

impl RouteWait {
    pub fn len(&self) -> usize {
        self.packets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }

    /// Does a packet of `flow` wait here?
    pub fn holds_flow(&self, flow: FlowId, packets: &PacketArena) -> bool {
        self.packets.iter().any(|&id| packets.get(id).flow == flow)
    }

    /// Does a packet for `dst` wait here?
    pub fn holds_dst(&self, dst: NodeId, packets: &PacketArena) -> bool {
        self.packets.iter().any(|&id| packets.get(id).dst == dst)
    }

    /// Take out the packets that waited `WAITING_TIMEOUT_S` or more at `now` (all of them: a
    /// packet released and put back can sit behind younger ones), in order.
    fn take_expired(&mut self, now: SimTime, packets: &PacketArena) -> Vec<PacketId> {
        let limit = secs_to_ns(WAITING_TIMEOUT_S);
        let mut expired = Vec::new();
        self.packets.retain(|&id| {
            let fresh = now.saturating_sub(packets.get(id).created_ns) < limit;
            if !fresh {
                expired.push(id);
            }
            fresh
        });
        expired
    }

    /// Take out the packets for `dst`, in order.
    fn take_for(&mut self, dst: NodeId, packets: &PacketArena) -> Vec<PacketId> {
        let mut go = Vec::new();
        self.packets.retain(|&id| {
            let match_dst = packets.get(id).dst == dst;
            if match_dst {
                go.push(id);
            }
            !match_dst
        });
        go
    }

    /// Take out the packet for `dst` from another source that has waited longest.
    fn take_oldest_forwarded(
        &mut self,
        dst: NodeId,
        me: NodeId,
        packets: &PacketArena,
    ) -> Option<PacketId> {
        let i = self.packets.iter().position(|&id| {
            let p = packets.get(id);
            p.dst == dst && p.src != me
        })?;
        self.packets.remove(i)
    }

    /// Every waiting packet, taken out in order.
    pub fn take_all(&mut self) -> VecDeque<PacketId> {
        std::mem::take(&mut self.packets)
    }
}

impl Node {
    /// Keep a packet of this node's until a route is found. A full buffer drops the newcomer;
    /// ns-2's drop the packet that has waited longest and keep the newcomer (aodv_rqueue.cc
    /// `enque`: `remove_head`, DROP_RTR_QFULL; dsragent.cc `stickPacketInSendBuffer`: "kill
    /// somebody", the oldest).
    pub(super) fn wait_for_route(&mut self, cx: &mut NodeCtx, packet: PacketId) {
        self.expire_waiting(cx);
        let mut dropped = None;
        if self.route_wait.len() >= WAITING_MAX {
            dropped = match cx.cfg.ns2 {
                true => self.route_wait.packets.pop_front(),
                false => Some(packet),
            };
        }
        if let Some(old) = dropped {
            self.counters.no_route_drops += 1;
            let what = (Layer::Net, EventKind::Drop);
            cx.trace_id(self.id, what, old, Some(Reason::NoRoute));
            cx.drop_packet(old);
        }
        if dropped != Some(packet) {
            self.route_wait.packets.push_back(packet);
            cx.trace_id(self.id, (Layer::Net, EventKind::Hold), packet, None);
        }
    }

    /// Drop the packets that waited too long for a route.
    pub(super) fn expire_waiting(&mut self, cx: &mut NodeCtx) {
        for id in self.route_wait.take_expired(cx.now, &cx.packets) {
            self.counters.no_route_drops += 1;
            if cx.trace.on() {
                let what = (Layer::Net, EventKind::Drop);
                let mut r = packet_row(cx.now, self.id, what, cx.packets.get(id));
                r.reason = Some(Reason::RouteTimeout);
                cx.trace.row(&r);
            }
            cx.drop_packet(id);
        }
    }

    /// ns-2 DSR's salvaging forwarder gives up one packet for `dst`: the one of another source
    /// that has waited longest (its send buffer's slot order, taken as arrival order).
    pub(super) fn drop_oldest_waiting(&mut self, cx: &mut NodeCtx, dst: NodeId) {
        self.expire_waiting(cx);
        if let Some(id) = self.route_wait.take_oldest_forwarded(dst, self.id, &cx.packets) {
            self.counters.no_route_drops += 1;
            cx.trace_id(self.id, (Layer::Net, EventKind::Drop), id, Some(Reason::NoRoute));
            cx.drop_packet(id);
        }
    }

    /// A route to `dst` exists: packets that waited for it go first, so none is overtaken.
    pub(super) fn release_older(&mut self, cx: &mut NodeCtx, dst: NodeId) {
        let waiting = &self.route_wait.packets;
        if !waiting.is_empty() && waiting.iter().any(|&id| cx.packets.get(id).dst == dst) {
            self.release_waiting(cx, dst, Some(true));
        }
    }

    /// Packets waiting for `dst` go on (route found: `Some(paced)`, spaced by the release
    /// spacing or not) or are dropped (discovery failed: `None`).
    pub(super) fn release_waiting(&mut self, cx: &mut NodeCtx, dst: NodeId, paced: Option<bool>) {
        self.expire_waiting(cx);
        let go = self.route_wait.take_for(dst, &cx.packets);
        let found = paced.is_some();
        let spacing_ns = if paced == Some(true) { cx.cfg.release_spacing_ns } else { 0 };
        for (k, id) in go.into_iter().enumerate() {
            if found && k > 0 && spacing_ns > 0 {
                // ns-2 routes them all now and hands each to the link layer later, whatever
                // becomes of the route meanwhile (aodv.cc `recvReply` -> `forward(rt, p,
                // delay)`; dsragent.cc `acceptRouteReply` -> `sendOutPacketWithRoute`).
                let Some(next_hop) = self.next_hop_for(cx, id) else { continue };
                let at = cx.now + k as u64 * spacing_ns;
                self.arm_route(cx, at, RouteTimer::RouteRelease { packet: id, next_hop });
            } else if found {
                cx.trace_id(self.id, (Layer::Net, EventKind::Release), id, None);
                self.route_and_enqueue(cx, id);
            } else {
                self.counters.no_route_drops += 1;
                let what = (Layer::Net, EventKind::Drop);
                cx.trace_id(self.id, what, id, Some(Reason::NoRoute));
                cx.drop_packet(id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::packet::Packet;

    /// ns-2 DSR drops only a forwarded packet this way (`getRouteForPacket` drops when
    /// `p.src != net_id`); a node's own packets keep waiting for their discovery.
    #[test]
    fn the_oldest_forwarded_packet_for_the_destination_is_the_one_given_up() {
        let mut arena = PacketArena::with_capacity(4);
        let mut wait = RouteWait::default();
        let me = NodeId(2);
        let mut add = |src: u32, dst: u32| {
            let p = Packet::new(FlowId(0), 0, NodeId(src), NodeId(dst), 1000, 20, 0);
            let id = arena.alloc(p);
            wait.packets.push_back(id);
            id
        };
        let (own, other_dst, first, second) = (add(2, 9), add(0, 5), add(0, 9), add(1, 9));
        assert_eq!(wait.take_oldest_forwarded(NodeId(9), me, &arena), Some(first));
        assert_eq!(wait.take_oldest_forwarded(NodeId(9), me, &arena), Some(second));
        assert_eq!(wait.take_oldest_forwarded(NodeId(9), me, &arena), None, "own packet stays");
        assert_eq!(wait.packets, [own, other_dst]);
    }
}

//! The routing layer of every node: static shortest paths, or AODV with its control packets,
//! discovery timers and the packets waiting for a route.

use super::World;
use crate::event::Event;
use crate::net::aodv::{AodvAction, AodvMsg, FailedPacket, BROADCAST};
use crate::net::packet::{Packet, PacketId, INITIAL_TTL, NO_FLOW, UDP_HEADER_BYTES};
use crate::queue::Queued;
use crate::time::{secs_to_ns, SimTime};

/// Packets a source keeps while it looks for a route (ns-2 AODV_RTQ_MAX_LEN, AODV_RTQ_TIMEOUT).
const WAITING_MAX: usize = 64;
const WAITING_TIMEOUT_S: f64 = 30.0;

impl World {
    /// Next hop for `packet` at `node`; None when it was dropped or put aside to wait for a
    /// route (AODV starts a discovery then).
    pub(super) fn next_hop_for(
        &mut self,
        now: SimTime,
        node: u32,
        packet: PacketId,
    ) -> Option<u32> {
        let p = *self.packets.get(packet);
        if self.dsr.is_some() {
            return self.dsr_next_hop(now, node, packet);
        }
        if self.etx_holding() && p.src == node {
            self.wait_for_route(now, node, packet);
            return None;
        }
        let Some(aodv) = self.aodv.as_mut() else {
            let hop = self.routes.next_hop(node, p.dst);
            if hop.is_none() {
                self.nodes[node as usize].counters.no_route_drops += 1;
                self.drop_packet(packet);
            }
            return hop;
        };
        if let Some(hop) = aodv[node as usize].next_hop(p.dst, now) {
            self.release_older(now, node, p.dst);
            return Some(hop);
        }
        let mut out = std::mem::take(&mut self.aodv_out);
        if p.src == node && p.flow != NO_FLOW {
            aodv[node as usize].discover(p.dst, now, &mut out);
            self.wait_for_route(now, node, packet);
        } else if aodv[node as usize].repairing(p.dst) {
            // ns-2 rt_resolve: a local repair is under way here; the packet waits for it (and
            // rt_purge asks again for destinations with waiting packets).
            aodv[node as usize].discover(p.dst, now, &mut out);
            self.wait_for_route(now, node, packet);
        } else {
            // A forwarder without a route (6.11 case ii): drop and report upstream.
            self.nodes[node as usize].counters.no_route_drops += 1;
            self.drop_packet(packet);
            self.aodv.as_mut().expect("aodv")[node as usize]
                .no_route_for_forwarding(p.dst, &mut out);
        }
        self.apply_aodv(now, node, &mut out);
        self.aodv_out = out;
        None
    }

    /// A routing control message from neighbour `from` arrived at `node`.
    pub(super) fn control_received(&mut self, now: SimTime, node: u32, msg: AodvMsg, from: u32) {
        self.nodes[node as usize].counters.routing_received += 1;
        let Some(aodv) = self.aodv.as_mut() else { return };
        let mut out = std::mem::take(&mut self.aodv_out);
        aodv[node as usize].receive(msg, from, now, &mut out);
        self.apply_aodv(now, node, &mut out);
        self.aodv_out = out;
    }

    /// The MAC of `node` gave up on `packet` for `next_hop`; true when routing keeps the
    /// packet (it waits for a repaired route), false when it is lost.
    pub(super) fn routing_link_failed(
        &mut self,
        now: SimTime,
        node: u32,
        next_hop: u32,
        packet: PacketId,
    ) -> bool {
        let Some(aodv) = self.aodv.as_mut() else { return false };
        let p = *self.packets.get(packet);
        let data = p.aodv.is_none();
        let forwards = (INITIAL_TTL - p.ttl.min(INITIAL_TTL)) as u32;
        let mut out = std::mem::take(&mut self.aodv_out);
        let fate =
            aodv[node as usize].packet_failed(next_hop, p.dst, data, forwards, now, &mut out);
        self.apply_aodv(now, node, &mut out);
        self.aodv_out = out;
        fate == FailedPacket::Wait
    }

    /// Drop every packet queued at `node` for `next_hop` (ns-2 AODV `ifqueue->filter`).
    fn purge_queue(&mut self, node: u32, next_hop: u32) {
        let mut taken = Vec::new();
        self.nodes[node as usize].queue.take_for(next_hop, &mut taken);
        for item in taken {
            self.nodes[node as usize].counters.queue_purge_drops += 1;
            let d = *self.packets.get(item.packet);
            if d.src == node && d.tcp.is_none() && d.flow != NO_FLOW {
                self.flows[d.flow as usize].queued_at_source -= 1;
            }
            self.drop_packet(item.packet);
        }
    }

    /// The periodic HELLO of `node` (AODV with `routing.hello`).
    pub(super) fn aodv_hello(&mut self, now: SimTime, node: u32) {
        let (Some(aodv), Some((interval, loss))) = (self.aodv.as_mut(), self.hello) else {
            return;
        };
        let mut out = std::mem::take(&mut self.aodv_out);
        aodv[node as usize].hello(now, interval, loss, &mut out);
        self.apply_aodv(now, node, &mut out);
        self.aodv_out = out;
        if now + interval.max(1) < self.end_ns {
            self.sched.schedule(now + interval.max(1), Event::Hello { node });
        }
    }

    /// A route to `dst` exists: packets that waited for it go first, so none is overtaken.
    pub(super) fn release_older(&mut self, now: SimTime, node: u32, dst: u32) {
        let waiting = &self.route_wait[node as usize];
        if !waiting.is_empty() && waiting.iter().any(|&id| self.packets.get(id).dst == dst) {
            self.release_waiting(now, node, dst, true);
        }
    }

    /// Keep a source's packet until a route is found (bounded in number and age).
    pub(super) fn wait_for_route(&mut self, now: SimTime, node: u32, packet: PacketId) {
        self.expire_waiting(now, node);
        if self.route_wait[node as usize].len() >= WAITING_MAX {
            self.nodes[node as usize].counters.no_route_drops += 1;
            self.drop_packet(packet);
        } else {
            self.route_wait[node as usize].push_back(packet);
        }
    }

    pub(super) fn route_timer(&mut self, now: SimTime, node: u32, dst: u32) {
        if self.dsr.is_some() {
            self.dsr_timer(now, node, dst);
            return;
        }
        let Some(aodv) = self.aodv.as_mut() else { return };
        let mut out = std::mem::take(&mut self.aodv_out);
        aodv[node as usize].on_timer(dst, now, &mut out);
        self.expire_waiting(now, node);
        self.apply_aodv(now, node, &mut out);
        self.aodv_out = out;
    }

    /// Drop packets that waited too long for a route (all of them: a packet released and
    /// put back can sit behind younger ones).
    pub(super) fn expire_waiting(&mut self, now: SimTime, node: u32) {
        let limit = secs_to_ns(WAITING_TIMEOUT_S);
        let mut waiting = std::mem::take(&mut self.route_wait[node as usize]);
        waiting.retain(|&id| {
            let fresh = now.saturating_sub(self.packets.get(id).created_ns) < limit;
            if !fresh {
                self.nodes[node as usize].counters.no_route_drops += 1;
                let flow = self.packets.get(id).flow;
                if flow != NO_FLOW {
                    self.flows[flow as usize].dropped += 1;
                }
                self.packets.free(id);
            }
            fresh
        });
        self.route_wait[node as usize] = waiting;
    }

    /// Carry out what the routing protocol of `node` asked for.
    fn apply_aodv(&mut self, now: SimTime, node: u32, out: &mut Vec<AodvAction>) {
        for action in out.drain(..) {
            match action {
                AodvAction::Send { msg, to, delay_ns } => {
                    self.send_control(now, node, msg, to, delay_ns)
                }
                AodvAction::Timer { dst, at } => {
                    self.sched.schedule(at, Event::RouteTimer { node, dst })
                }
                AodvAction::RouteFound { dst } => self.release_waiting(now, node, dst, true),
                AodvAction::Unreachable { dst } => self.release_waiting(now, node, dst, false),
                AodvAction::PurgeQueue { next_hop } => self.purge_queue(node, next_hop),
            }
        }
    }

    /// Packets waiting for `dst` go on (route found) or are dropped (discovery failed).
    pub(super) fn release_waiting(&mut self, now: SimTime, node: u32, dst: u32, found: bool) {
        self.expire_waiting(now, node);
        let waiting = std::mem::take(&mut self.route_wait[node as usize]);
        let mut keep = std::collections::VecDeque::with_capacity(waiting.len());
        let mut go = Vec::new();
        for id in waiting {
            if self.packets.get(id).dst == dst {
                go.push(id);
            } else {
                keep.push_back(id);
            }
        }
        self.route_wait[node as usize] = keep;
        for (k, id) in go.into_iter().enumerate() {
            if found && k > 0 && self.release_spacing_ns > 0 {
                let at = now + k as u64 * self.release_spacing_ns;
                self.sched.schedule(at, Event::RouteRelease { node, packet: id });
            } else if found {
                self.route_and_enqueue(now, node, id);
            } else {
                self.nodes[node as usize].counters.no_route_drops += 1;
                self.drop_packet(id);
            }
        }
    }

    /// Put an AODV packet on its way: at once, or after a random jitter up to `max_delay`.
    fn send_control(&mut self, now: SimTime, node: u32, msg: AodvMsg, to: u32, max_delay_ns: u64) {
        let delay = self.control_delay(node, max_delay_ns);
        let packet = self.control_packet(now, node, to, msg.bytes());
        self.packets.get_mut(packet).aodv = Some(msg);
        self.release_after(now, node, packet, delay);
    }

    pub(super) fn release_after(&mut self, now: SimTime, node: u32, packet: PacketId, delay: u64) {
        if delay == 0 {
            self.release_control(now, node, packet);
        } else {
            self.sched.schedule(now + delay, Event::ControlRelease { node, packet });
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
        self.packets.alloc(Packet {
            control: true,
            ident,
            ..Packet::new(NO_FLOW, 0, node, to, bytes, UDP_HEADER_BYTES, now)
        })
    }

    /// A control packet enters the interface queue of `node`, ahead of data.
    pub(super) fn release_control(&mut self, now: SimTime, node: u32, packet: PacketId) {
        let to = self.packets.get(packet).dst;
        let next_hop = if to == BROADCAST { BROADCAST } else { to };
        if let Some(dropped) =
            self.nodes[node as usize].queue.push(Queued { packet, next_hop }, true)
        {
            self.nodes[node as usize].counters.queue_drops += 1;
            let d = *self.packets.get(dropped.packet);
            if d.src == node && d.tcp.is_none() && d.flow != NO_FLOW {
                self.flows[d.flow as usize].queued_at_source -= 1;
            }
            self.drop_packet(dropped.packet);
        }
        self.pump(now, node);
    }
}

//! DSR in the world: source routes put on packets at their source, followed hop by hop, learned
//! by the nodes they pass, and Route Errors sent back to the source on link failure.

use super::World;
use crate::event::Event;
use crate::net::aodv::BROADCAST;
use crate::net::dsr::{DsrAction, DsrMsg, SrcRoute};
use crate::net::packet::{PacketId, NO_FLOW};
use crate::time::SimTime;

/// ns-2 dsragent.cc `dsr_salvage_max_attempts`: a packet is salvaged at most this often.
const NS2_SALVAGE_MAX: u8 = 15;

impl World {
    /// Next hop of a packet under DSR: from its source route, or a cached route put on it at
    /// its source; without one the source keeps it and starts a discovery.
    pub(super) fn dsr_next_hop(
        &mut self,
        now: SimTime,
        node: u32,
        packet: PacketId,
    ) -> Option<u32> {
        let p = *self.packets.get(packet);
        if let Some((route, at)) = p.route {
            let at = at as usize;
            if route.get(at) == Some(node) {
                if let Some(next) = route.get(at + 1) {
                    return Some(next);
                }
            }
            self.nodes[node as usize].counters.no_route_drops += 1;
            self.drop_packet(packet);
            return None;
        }
        let dsr = self.dsr.as_mut().expect("dsr");
        if let Some(route) = dsr[node as usize].route_to(p.dst) {
            let q = self.packets.get_mut(packet);
            q.route = Some((route, 0));
            q.option_bytes = route.option_bytes();
            if !self.ns2 {
                // ns-2 lets new packets overtake the ones its send buffer releases later.
                self.release_older(now, node, p.dst);
            }
            return route.get(1);
        }
        if p.src == node && p.flow != NO_FLOW {
            let mut out = std::mem::take(&mut self.dsr_out);
            dsr[node as usize].discover(p.dst, now, &mut out);
            self.wait_for_route(now, node, packet);
            self.apply_dsr(now, node, &mut out);
            self.dsr_out = out;
        } else {
            self.nodes[node as usize].counters.no_route_drops += 1;
            self.drop_packet(packet);
        }
        None
    }

    /// A packet that carries a source route arrived at `node` (a copy made for this hop): move
    /// its position along the route, let DSR learn from it, and consume it if it is a reply or
    /// error addressed here. Returns false when the packet was consumed or dropped.
    pub(super) fn dsr_arrived(&mut self, now: SimTime, node: u32, packet: PacketId) -> bool {
        let Some(dsr) = self.dsr.as_mut() else { return true };
        let p = self.packets.get_mut(packet);
        let Some((route, at)) = p.route.as_mut() else { return true };
        *at += 1;
        if route.get(*at as usize) != Some(node) {
            self.nodes[node as usize].counters.no_route_drops += 1;
            self.drop_packet(packet);
            return false;
        }
        let route = *route;
        let arrived = route.last() == node;
        let mut out = std::mem::take(&mut self.dsr_out);
        match p.dsr {
            Some(msg) => {
                self.nodes[node as usize].counters.routing_received += 1;
                dsr[node as usize].receive_in_transit(msg, arrived, &mut out);
            }
            None => dsr[node as usize].learn_from(&route), // routes seen in forwarded data
        }
        let consumed = arrived && self.packets.get(packet).dsr.is_some();
        if consumed {
            self.packets.free(packet);
        }
        self.apply_dsr(now, node, &mut out);
        self.dsr_out = out;
        !consumed
    }

    /// A broadcast Route Request from a neighbour arrived at `node`.
    pub(super) fn dsr_request_received(&mut self, now: SimTime, node: u32, msg: DsrMsg) {
        self.nodes[node as usize].counters.routing_received += 1;
        let Some(dsr) = self.dsr.as_mut() else { return };
        let mut out = std::mem::take(&mut self.dsr_out);
        dsr[node as usize].receive_request(msg, &mut out);
        self.apply_dsr(now, node, &mut out);
        self.dsr_out = out;
    }

    /// The MAC of `node` gave up on `next_hop` for `packet`.
    pub(super) fn dsr_link_failed(
        &mut self,
        now: SimTime,
        node: u32,
        next_hop: u32,
        packet: PacketId,
    ) {
        let Some(dsr) = self.dsr.as_mut() else { return };
        let header = self.packets.get(packet).route;
        let mut out = std::mem::take(&mut self.dsr_out);
        dsr[node as usize].link_failed(
            next_hop,
            header.as_ref().map(|(r, at)| (r, *at as usize)),
            &mut out,
        );
        self.apply_dsr(now, node, &mut out);
        self.dsr_out = out;
    }

    /// ns-2 `undeliverablePkt`: a packet whose next hop failed goes on if it can. Its own
    /// source re-routes it (cache, or send buffer and discovery); a forwarder salvages it with
    /// a cached route (at most `NS2_SALVAGE_MAX` times) or keeps it while it asks its
    /// neighbours. Routing control is not salvaged here. True when the packet lives on.
    pub(super) fn dsr_salvage(&mut self, now: SimTime, node: u32, packet: PacketId) -> bool {
        let p = *self.packets.get(packet);
        if p.dsr.is_some() || p.flow == NO_FLOW {
            return false;
        }
        {
            let q = self.packets.get_mut(packet);
            q.route = None;
            q.option_bytes = 0;
        }
        if p.src == node {
            self.route_and_enqueue(now, node, packet); // handlePktWithoutSR
            return true;
        }
        if p.salvaged >= NS2_SALVAGE_MAX {
            self.nodes[node as usize].counters.no_route_drops += 1; // ns-2 drop reason SAL
            return false;
        }
        self.packets.get_mut(packet).salvaged += 1;
        let dsr = self.dsr.as_mut().expect("dsr");
        if dsr[node as usize].route_to(p.dst).is_some() {
            self.route_and_enqueue(now, node, packet);
        } else {
            let mut out = std::mem::take(&mut self.dsr_out);
            dsr[node as usize].discover_for_salvage(p.dst, now, &mut out);
            self.wait_for_route(now, node, packet);
            self.apply_dsr(now, node, &mut out);
            self.dsr_out = out;
        }
        true
    }

    /// ns-2 `xmitFailed`: every packet queued for the dead next hop is taken out and goes
    /// through `dsr_salvage` (lost when it cannot).
    pub(super) fn dsr_purge_and_salvage(&mut self, now: SimTime, node: u32, next_hop: u32) {
        let mut taken = Vec::new();
        self.nodes[node as usize].queue.take_for(next_hop, &mut taken);
        for item in taken {
            let d = *self.packets.get(item.packet);
            if d.src == node && d.tcp.is_none() && d.flow != NO_FLOW {
                self.flows[d.flow as usize].queued_at_source -= 1;
            }
            if !self.dsr_salvage(now, node, item.packet) {
                self.nodes[node as usize].counters.queue_purge_drops += 1;
                self.drop_packet(item.packet);
            }
        }
    }

    pub(super) fn dsr_timer(&mut self, now: SimTime, node: u32, dst: u32) {
        let Some(dsr) = self.dsr.as_mut() else { return };
        let mut out = std::mem::take(&mut self.dsr_out);
        dsr[node as usize].on_timer(dst, now, &mut out);
        self.expire_waiting(now, node);
        self.apply_dsr(now, node, &mut out);
        self.dsr_out = out;
    }

    fn apply_dsr(&mut self, now: SimTime, node: u32, out: &mut Vec<DsrAction>) {
        for action in out.drain(..) {
            match action {
                DsrAction::Flood { msg, jitter_ns } => {
                    let delay = self.control_delay(node, jitter_ns);
                    let packet = self.control_packet(now, node, BROADCAST, msg.bytes());
                    self.packets.get_mut(packet).dsr = Some(msg);
                    self.release_after(now, node, packet, delay);
                }
                DsrAction::Unicast { msg, route } => self.dsr_unicast(now, node, msg, route),
                DsrAction::Timer { dst, at } => {
                    self.sched.schedule(at, Event::RouteTimer { node, dst })
                }
                DsrAction::RouteFound { dst } => self.release_waiting(now, node, dst, true),
                DsrAction::Unreachable { dst } => self.release_waiting(now, node, dst, false),
            }
        }
    }

    /// A reply or error travels by source route from `node` to the end of `route`.
    fn dsr_unicast(&mut self, now: SimTime, node: u32, msg: DsrMsg, route: SrcRoute) {
        if route.len() < 2 {
            return;
        }
        let packet = self.control_packet(now, node, route.last(), msg.bytes());
        let q = self.packets.get_mut(packet);
        q.dsr = Some(msg);
        q.route = Some((route, 0));
        q.option_bytes = route.option_bytes();
        self.route_and_enqueue(now, node, packet);
    }
}

//! Source-routed packets in the world: a hop's copy moves along its DSR source route (the
//! router learns from it and consumes replies and errors addressed to it), and ns-2's
//! salvaging of packets whose next hop failed (`dsragent.cc` `xmitFailed`,
//! `undeliverablePkt`).

use super::routing::with_router;
use super::World;
use crate::engine::time::SimTime;
use crate::net::packet::{PacketId, NO_FLOW};
use crate::net::router::Arrival;
use crate::observe::events::{EventKind, Layer, Reason};

/// ns-2 dsragent.cc `dsr_salvage_max_attempts`: a packet is salvaged at most this often.
const NS2_SALVAGE_MAX: u8 = 15;

impl World {
    /// A hop's copy of a packet arrived at `node`: the router moves it along its source route
    /// (if it has one). Returns false when the packet was consumed or dropped here.
    pub(super) fn routed_arrival(&mut self, now: SimTime, node: u32, packet: PacketId) -> bool {
        if self.packets.get(packet).route.is_none() {
            return true;
        }
        let (arrival, mut out) =
            with_router!(self, now, node, |r, cx| r.on_arrival(cx, self.packets.get_mut(packet)));
        let goes_on = match arrival {
            Arrival::Continue { control } => {
                self.nodes[node as usize].counters.routing_received += control as u64;
                true
            }
            Arrival::Consumed => {
                self.nodes[node as usize].counters.routing_received += 1;
                self.packets.free(packet);
                false
            }
            Arrival::Drop(reason) => {
                self.routing_drop(node, packet, reason);
                false
            }
        };
        self.apply_routing(now, node, &mut out);
        self.route_out = out;
        goes_on
    }

    /// ns-2 `undeliverablePkt`: a packet whose next hop failed goes on if it can. Its own
    /// source re-routes it (cache, or send buffer and discovery); a forwarder salvages it with
    /// a cached route (at most `NS2_SALVAGE_MAX` times) or keeps it while it asks its
    /// neighbours. Routing control is not salvaged here. True when the packet lives on.
    pub(super) fn salvage(&mut self, now: SimTime, node: u32, packet: PacketId) -> bool {
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
            let sal = Some(Reason::SalvageLimit);
            self.trace_id(now, node, Layer::Net, EventKind::Drop, packet, sal);
            return false;
        }
        self.packets.get_mut(packet).salvaged += 1;
        let (cached, mut out) = with_router!(self, now, node, |r, cx| r.salvage_route(cx, p.dst));
        if cached {
            self.route_out = out;
            self.route_and_enqueue(now, node, packet);
        } else {
            self.wait_for_route(now, node, packet);
            self.apply_routing(now, node, &mut out);
            self.route_out = out;
        }
        true
    }

    /// ns-2 `xmitFailed`: every packet queued for the dead next hop is taken out and goes
    /// through `salvage` (lost when it cannot).
    pub(super) fn purge_and_salvage(&mut self, now: SimTime, node: u32, next_hop: u32) {
        let mut taken = Vec::new();
        self.nodes[node as usize].queue.take_for(next_hop, now, &mut taken);
        for item in taken {
            let d = *self.packets.get(item.packet);
            if d.src == node && d.tcp.is_none() && d.flow != NO_FLOW {
                self.flows[d.flow as usize].queued_at_source -= 1;
            }
            if !self.salvage(now, node, item.packet) {
                self.nodes[node as usize].counters.queue_purge_drops += 1;
                let purge = Some(Reason::QueuePurge);
                self.trace_id(now, node, Layer::Ifq, EventKind::Drop, item.packet, purge);
                self.drop_packet(item.packet);
            }
        }
    }
}

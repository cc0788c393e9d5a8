//! Source-routed packets at a node: a hop's copy moves along its DSR source route (the
//! router learns from it and consumes replies and errors addressed here), and ns-2's
//! salvaging of packets whose next hop failed (`dsragent.cc` `xmitFailed`,
//! `undeliverablePkt`).

use super::ctx::NodeCtx;
use super::Node;
use crate::ids::{NodeId, PacketId};
use crate::net::router::Arrival;
use crate::observe::events::{EventKind, Layer, Reason};

/// ns-2 dsragent.cc `dsr_salvage_max_attempts`: a packet is salvaged at most this often.
const NS2_SALVAGE_MAX: u8 = 15;

impl Node {
    /// A hop's copy of a source-routed packet arrived here: the router moves it along its
    /// route. Returns false when the packet was consumed or dropped here.
    pub(super) fn routed_arrival(&mut self, cx: &mut NodeCtx, packet: PacketId) -> bool {
        debug_assert!(cx.packets.get(packet).route.is_some(), "a source-routed packet");
        let (arrival, out) =
            self.routed(cx, |r, rcx, packets| r.on_arrival(rcx, packets.get_mut(packet)));
        let goes_on = match arrival {
            Arrival::Continue { control } => {
                self.counters.routing_received += control as u64;
                true
            }
            Arrival::Consumed => {
                self.counters.routing_received += 1;
                cx.packets.free(packet);
                false
            }
            Arrival::Drop(reason) => {
                self.routing_drop(cx, packet, reason);
                false
            }
        };
        self.routing_done(cx, out);
        goes_on
    }

    /// ns-2 `undeliverablePkt`: a packet whose next hop failed goes on if it can. Its own
    /// source re-routes it (cache, or send buffer and discovery); a forwarder salvages it with
    /// a cached route (at most `NS2_SALVAGE_MAX` times) or keeps it while it asks its
    /// neighbours. Routing control is not salvaged here. True when the packet lives on.
    pub(super) fn salvage(&mut self, cx: &mut NodeCtx, packet: PacketId) -> bool {
        let p = *cx.packets.get(packet);
        if p.dsr().is_some() || p.flow.is_none() {
            return false;
        }
        {
            let q = cx.packets.get_mut(packet);
            q.route = None;
            q.option_bytes = 0;
        }
        if p.src == self.id {
            self.route_and_enqueue(cx, packet); // handlePktWithoutSR
            return true;
        }
        if p.salvaged >= NS2_SALVAGE_MAX {
            self.counters.no_route_drops += 1; // ns-2 drop reason SAL
            let what = (Layer::Net, EventKind::Drop);
            cx.trace_id(self.id, what, packet, Some(Reason::SalvageLimit));
            return false;
        }
        cx.packets.get_mut(packet).salvaged += 1;
        let (cached, out) = self.routed(cx, |r, rcx, _| r.salvage_route(rcx, p.dst));
        if cached {
            cx.scratch.route_out = out;
            self.route_and_enqueue(cx, packet);
        } else {
            self.wait_for_route(cx, packet);
            self.routing_done(cx, out);
        }
        true
    }

    /// ns-2 `xmitFailed`: every packet queued for the dead next hop is taken out and goes
    /// through `salvage` (lost when it cannot).
    pub(super) fn purge_and_salvage(&mut self, cx: &mut NodeCtx, next_hop: NodeId) {
        let mut taken = Vec::new();
        for q in &mut self.queues {
            q.take_for(next_hop, cx.now, &mut taken);
        }
        for item in taken {
            cx.left_queue(self.id, item.packet);
            if !self.salvage(cx, item.packet) {
                self.counters.queue_purge_drops += 1;
                let what = (Layer::Ifq, EventKind::Drop);
                cx.trace_id(self.id, what, item.packet, Some(Reason::QueuePurge));
                cx.drop_packet(item.packet);
            }
        }
    }
}

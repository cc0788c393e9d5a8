//! The stack above the MAC: interface queue, static routing, UDP sources and sinks.

use super::World;
use crate::event::Event;
use crate::mac::dcf::MacCtx;
use crate::mac::timing::LLC_SNAP_BYTES;
use crate::net::packet::{Packet, PacketId, INITIAL_TTL, UDP_HEADER_BYTES};
use crate::queue::Queued;
use crate::time::SimTime;

impl World {
    /// A paced source's send timer, or the start of a saturated source.
    pub(super) fn app_send(&mut self, now: SimTime, flow: u32) {
        let f = &self.flows[flow as usize];
        if !f.source.active_at(now) {
            return;
        }
        if let Some(next) = f.source.next_send(now) {
            self.sched.schedule(next, Event::AppSend { flow });
        }
        self.originate(now, flow);
    }

    /// The application of `flow` hands one datagram to the network layer at its source.
    fn originate(&mut self, now: SimTime, flow: u32) {
        let f = &mut self.flows[flow as usize];
        let seq = f.source.take_seq();
        let (src, dst) = (f.source.src, f.source.dst);
        let packet = self.packets.alloc(Packet {
            flow,
            seq,
            src,
            dst,
            payload_bytes: f.source.payload_bytes,
            transport_header_bytes: UDP_HEADER_BYTES,
            created_ns: now,
            ttl: INITIAL_TTL,
            control: false,
            handed_over: false,
        });
        self.route_and_enqueue(now, src, packet);
    }

    /// Network layer at `node`: deliver locally or queue for the next hop.
    fn route_and_enqueue(&mut self, now: SimTime, node: u32, packet: PacketId) {
        let p = *self.packets.get(packet);
        if p.dst == node {
            let (warmup, end) = (self.warmup_ns, self.end_ns);
            self.flows[p.flow as usize].sink.deliver(
                p.payload_bytes,
                now - p.created_ns,
                now >= warmup && now < end,
            );
            self.packets.free(packet);
            return;
        }
        let Some(next_hop) = self.routes.next_hop(node, p.dst) else {
            self.nodes[node as usize].counters.no_route_drops += 1;
            self.drop_packet(packet);
            return;
        };
        let local = p.src == node;
        let n = &mut self.nodes[node as usize];
        match n.queue.push(Queued { packet, next_hop }, p.control) {
            None => {
                if local {
                    self.flows[p.flow as usize].queued_at_source += 1;
                }
            }
            Some(dropped) => {
                n.counters.queue_drops += 1;
                let dropped_local = self.packets.get(dropped.packet).src == node;
                if dropped.packet != packet && dropped_local {
                    let fl = self.packets.get(dropped.packet).flow;
                    self.flows[fl as usize].queued_at_source -= 1;
                }
                if dropped.packet != packet && local {
                    self.flows[p.flow as usize].queued_at_source += 1;
                }
                self.drop_packet(dropped.packet);
            }
        }
        self.pump(now, node);
    }

    /// A packet is lost: counted against its flow and freed.
    fn drop_packet(&mut self, packet: PacketId) {
        let flow = self.packets.get(packet).flow;
        self.flows[flow as usize].dropped += 1;
        self.packets.free(packet);
    }

    /// Give the MAC its next packet if it is idle; refill saturated sources.
    pub(super) fn pump(&mut self, now: SimTime, node: u32) {
        let n = &mut self.nodes[node as usize];
        if !n.mac.is_idle() {
            return;
        }
        let Some(item) = n.queue.pop() else { return };
        let p = *self.packets.get(item.packet);
        if p.src == node {
            self.flows[p.flow as usize].queued_at_source -= 1;
        }
        let msdu_bytes = LLC_SNAP_BYTES + p.ip_bytes();
        let mut cx = MacCtx {
            now,
            sched: &mut self.sched,
            out: &mut self.out,
        };
        self.nodes[node as usize]
            .mac
            .offer(&mut cx, item.packet, item.next_hop, msdu_bytes);
        // Saturated sources always keep one packet waiting in their queue.
        for k in 0..self.nodes[node as usize].saturated_flows.len() {
            let flow = self.nodes[node as usize].saturated_flows[k];
            let f = &self.flows[flow as usize];
            if f.queued_at_source == 0 && f.source.active_at(now) {
                self.originate(now, flow);
            }
        }
    }

    /// The MAC of `node` accepted a data packet from `from`: a new copy for this hop.
    pub(super) fn mac_received(&mut self, now: SimTime, node: u32, packet: PacketId, from: u32) {
        let _ = from;
        let original = self.packets.get_mut(packet);
        original.handed_over = true;
        let mut copy = *original;
        copy.handed_over = false;
        copy.ttl = copy.ttl.saturating_sub(1);
        let copy_id = self.packets.alloc(copy);
        if copy.ttl == 0 && copy.dst != node {
            self.nodes[node as usize].counters.ttl_drops += 1;
            self.drop_packet(copy_id);
            return;
        }
        self.route_and_enqueue(now, node, copy_id);
    }

    /// The MAC of `node` finished a packet: acknowledged, or dropped at the retry limit
    /// (a link failure, reported to routing; static routes keep the route).
    pub(super) fn mac_done(
        &mut self,
        now: SimTime,
        node: u32,
        packet: PacketId,
        next_hop: u32,
        acked: bool,
    ) {
        let _ = next_hop;
        if acked {
            self.packets.free(packet);
        } else {
            self.nodes[node as usize].counters.link_failures += 1;
            if self.packets.get(packet).handed_over {
                // The next hop has it (only its ACKs were lost): nothing is lost end to end.
                self.packets.free(packet);
            } else {
                self.drop_packet(packet);
            }
        }
        self.pump(now, node);
    }
}

//! The stack above the MAC: interface queue, static routing, UDP sources and sinks.

use super::event::{Event, FlowTimer};
use super::routing::with_router;
use super::{FlowApp, World};
use crate::engine::time::SimTime;
use crate::mac::dcf::MacCtx;
use crate::mac::timing::LLC_SNAP_BYTES;
use crate::net::packet::{Packet, PacketId, NO_FLOW, UDP_HEADER_BYTES};
use crate::net::router::{Control, Failure};
use crate::observe::events::{EventKind, Layer, Reason};
use crate::queue::{Class, Queued, Verdict};

impl World {
    /// A paced source's send timer, or the start of a saturated UDP source or a TCP flow.
    pub(super) fn app_send(&mut self, now: SimTime, flow: u32) {
        match &self.flows[flow as usize].app {
            FlowApp::Tcp(_) => self.tcp_start(now, flow),
            FlowApp::Udp { source, .. } => {
                if !source.active_at(now) {
                    return;
                }
                if let Some(next) = source.next_send(now) {
                    self.sched.schedule(next, Event::Flow { flow, timer: FlowTimer::App });
                }
                self.originate_udp(now, flow);
            }
        }
    }

    /// The UDP application of `flow` hands one datagram to the network layer at its source.
    fn originate_udp(&mut self, now: SimTime, flow: u32) {
        let f = &mut self.flows[flow as usize];
        let FlowApp::Udp { source, .. } = &mut f.app else { unreachable!("UDP flow") };
        let seq = source.take_seq();
        let payload_bytes = source.payload_bytes;
        let (src, dst) = (f.src, f.dst);
        let p = Packet::new(flow, seq, src, dst, payload_bytes, UDP_HEADER_BYTES, now);
        self.originate(now, p, EventKind::Send);
    }

    /// A transport endpoint at `packet.src` sends a packet of its flow (`event`, for the
    /// trace: a new packet, a retransmission or an ACK).
    pub(super) fn originate(&mut self, now: SimTime, mut packet: Packet, event: EventKind) {
        self.flows[packet.flow as usize].packets_sent += 1;
        if packet.src == self.flows[packet.flow as usize].src {
            self.note_route(now, packet.flow); // the data direction (not TCP's ACKs)
        }
        let src = packet.src;
        let node = &mut self.nodes[src as usize];
        packet.ident = node.next_ident;
        node.next_ident = node.next_ident.wrapping_add(1);
        self.number(&mut packet);
        let layer = if packet.tcp.is_some() { Layer::Transport } else { Layer::App };
        self.trace_packet(now, src, (layer, event), &packet, None, packet.dst);
        self.trace_ip_packet(src, now, &packet);
        let id = self.packets.alloc(packet);
        self.route_and_enqueue(now, src, id);
    }

    /// Network layer at `node`: deliver locally or queue for the next hop.
    pub(super) fn route_and_enqueue(&mut self, now: SimTime, node: u32, packet: PacketId) {
        let Some(next_hop) = self.next_hop_for(now, node, packet) else { return };
        // Chen et al. section 4.2: each node adds its delay estimate to the next hop.
        let est = self.nodes[node as usize].link_delay_ns(next_hop);
        let p = self.packets.get_mut(packet);
        p.delay_total_ns += est;
        p.delay_max_ns = p.delay_max_ns.max(est);
        // The few fields needed below, not a copy of the whole packet.
        let flow = p.flow;
        let local = p.src == node && p.tcp.is_none() && flow != NO_FLOW;
        let class = if p.control {
            Class::Control
        } else if p.tcp.is_some() && p.payload_bytes == 0 {
            Class::Ack
        } else {
            Class::Data
        };
        let arrival = self.arrival(now, packet);
        let verdict =
            self.nodes[node as usize].queue.push_class(Queued { packet, next_hop }, class, arrival);
        match verdict {
            Verdict::Queued | Verdict::Marked => {
                if local {
                    self.flows[flow as usize].queued_at_source += 1;
                }
                self.trace_enqueue(now, node, packet, next_hop);
                if verdict == Verdict::Marked {
                    self.mark_ce(now, node, packet);
                }
            }
            Verdict::Dropped(dropped, cause) => {
                if dropped.packet != packet {
                    self.trace_enqueue(now, node, packet, next_hop);
                }
                self.count_queue_drop(now, node, dropped.packet, cause);
                let dp = self.packets.get(dropped.packet);
                let dropped_local = dp.src == node && dp.tcp.is_none() && dp.flow != NO_FLOW;
                if dropped.packet != packet && dropped_local {
                    let fl = self.packets.get(dropped.packet).flow;
                    self.flows[fl as usize].queued_at_source -= 1;
                }
                if dropped.packet != packet && local {
                    self.flows[flow as usize].queued_at_source += 1;
                }
                self.drop_packet(dropped.packet);
            }
        }
        self.pump(now, node);
    }

    /// A packet is lost: counted against its flow and freed.
    pub(super) fn drop_packet(&mut self, packet: PacketId) {
        let flow = self.packets.get(packet).flow;
        if flow != NO_FLOW {
            self.flows[flow as usize].dropped += 1;
        }
        self.packets.free(packet);
    }

    /// Give the MAC its next packet if it is idle; refill saturated sources.
    pub(super) fn pump(&mut self, now: SimTime, node: u32) {
        let n = &mut self.nodes[node as usize];
        if !n.mac.is_idle() {
            return;
        }
        let Some(item) = self.dequeue(now, node) else { return };
        if self.tracing() {
            let p = *self.packets.get(item.packet);
            self.trace_dequeue(now, node, &p, item.next_hop);
        }
        let p = self.packets.get(item.packet);
        let (ip_bytes, control, flow) = (p.ip_bytes(), p.control, p.flow);
        let local = p.src == node && p.tcp.is_none() && flow != NO_FLOW;
        if control {
            // Routing overhead: every control packet transmission (each hop of a relayed one).
            let c = &mut self.nodes[node as usize].counters;
            c.routing_sent += 1;
            c.routing_bytes += ip_bytes as u64;
        }
        if local {
            self.flows[flow as usize].queued_at_source -= 1;
        }
        let msdu_bytes = LLC_SNAP_BYTES + ip_bytes;
        let mut cx = MacCtx { now, timers: &mut self.sched, out: &mut self.out };
        self.nodes[node as usize].mac.offer(&mut cx, item.packet, item.next_hop, msdu_bytes);
        self.refill_saturated(now, node);
    }

    /// Saturated sources always keep one packet waiting in their queue.
    pub(super) fn refill_saturated(&mut self, now: SimTime, node: u32) {
        for k in 0..self.nodes[node as usize].saturated_flows.len() {
            let flow = self.nodes[node as usize].saturated_flows[k];
            let f = &self.flows[flow as usize];
            let active = matches!(&f.app, FlowApp::Udp { source, .. } if source.active_at(now));
            // Packets waiting for a route count as queued: no refill while a discovery runs.
            let waiting = self.nodes[node as usize]
                .route_wait
                .iter()
                .any(|&id| self.packets.get(id).flow == flow);
            if f.queued_at_source == 0 && active && !waiting {
                self.originate_udp(now, flow);
            }
        }
    }

    /// A packet reached its destination node: hand it to the transport endpoint.
    pub(super) fn deliver_local(&mut self, now: SimTime, p: &Packet) {
        self.trace_ip_packet(p.dst, now, p);
        let in_window = now >= self.warmup_ns && now < self.end_ns;
        let f = &mut self.flows[p.flow as usize];
        f.packets_delivered += 1;
        if let FlowApp::Udp { sink, .. } = &mut f.app {
            sink.deliver(p.payload_bytes, now - p.created_ns, in_window);
            self.trace_packet(now, p.dst, (Layer::App, EventKind::Receive), p, None, p.src);
        } else {
            self.tcp_arrival(now, p);
        }
    }

    /// The MAC of `node` accepted a data packet from `from`: a new copy for this hop.
    pub(super) fn mac_received(&mut self, now: SimTime, node: u32, packet: PacketId, from: u32) {
        self.nodes[node as usize].router.heard(from, now);
        let p = self.packets.get(packet);
        if p.etx_probe {
            self.etx_heard(node, from);
            return;
        }
        // Routing control from a neighbour (AODV's, a flooded DSR Route Request): consumed by
        // the router of this node, never forwarded as such.
        let control = match (p.aodv, p.dsr, p.route) {
            (Some(msg), _, _) => Some(Control::Aodv(msg)),
            (None, Some(msg), None) => Some(Control::Dsr(msg)),
            _ => None,
        };
        if let Some(msg) = control {
            self.control_received(now, node, msg, from);
            return;
        }
        let original = self.packets.get_mut(packet);
        original.handed_over = true;
        let mut copy = *original;
        copy.handed_over = false;
        copy.ttl = copy.ttl.saturating_sub(1);
        let copy_id = self.packets.alloc(copy);
        if copy.ttl == 0 && copy.dst != node {
            self.nodes[node as usize].counters.ttl_drops += 1;
            self.trace_id(now, node, Layer::Net, EventKind::Drop, copy_id, Some(Reason::Ttl));
            self.drop_packet(copy_id);
            return;
        }
        if !self.routed_arrival(now, node, copy_id) {
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
        service_ns: SimTime,
    ) {
        if acked {
            // Chen et al.'s per-hop delay: head of the queue to the MAC ACK (successes only).
            self.nodes[node as usize].note_link_delay(next_hop, service_ns);
            self.packets.free(packet);
        } else {
            // A link failure reported to routing. It is a *false* route failure when the next
            // hop was still within decode range (always, on a static topology): contention or
            // hidden terminals, not distance, exhausted the retries.
            let still_in_range = match self.motion.as_mut() {
                Some(m) => m.in_decode_range(node, next_hop, now),
                None => self.channel.decodable(node, next_hop),
            };
            let retry = Some(Reason::RetryLimit);
            self.trace_id(now, node, Layer::Mac, EventKind::Drop, packet, retry);
            self.trace_id(now, node, Layer::Net, EventKind::LinkFailure, packet, None);
            let counters = &mut self.nodes[node as usize].counters;
            counters.link_failures += 1;
            counters.false_route_failures += still_in_range as u64;
            let flow = self.packets.get(packet).flow;
            if flow != NO_FLOW {
                self.flows[flow as usize].link_failures += 1;
                self.flows[flow as usize].false_route_failures += still_in_range as u64;
            }
            let (failure, mut out) = with_router!(self, now, node, |r, cx| {
                r.on_link_failure(cx, next_hop, self.packets.get(packet))
            });
            self.apply_routing(now, node, &mut out);
            self.route_out = out;
            if failure == Failure::Salvage {
                // ns-2 xmitFailed: the packet and every queued one for that hop are
                // re-routed at their source or salvaged (world/dsr.rs).
                let handed = self.packets.get(packet).handed_over;
                let kept = !handed && self.salvage(now, node, packet);
                self.purge_and_salvage(now, node, next_hop);
                if !kept && !handed {
                    self.drop_packet(packet);
                } else if handed {
                    self.packets.free(packet);
                }
                self.pump(now, node);
                return;
            }
            let kept = failure == Failure::Wait;
            if kept && !self.packets.get(packet).handed_over {
                // A local repair (ns-2 AODV): the packet waits here for the new route.
                self.wait_for_route(now, node, packet);
            } else if self.packets.get(packet).handed_over {
                // The next hop has it (only its ACKs were lost): nothing is lost end to end.
                self.packets.free(packet);
            } else {
                self.drop_packet(packet);
            }
        }
        self.pump(now, node);
    }

    #[cold]
    #[inline(never)]
    fn trace_dequeue(&mut self, now: SimTime, node: u32, p: &Packet, next_hop: u32) {
        let queued = self.nodes[node as usize].queue.len() as f64;
        let mut r = super::events::packet_row(now, node, (Layer::Ifq, EventKind::Dequeue), p);
        (r.peer, r.value) = (next_hop, queued);
        self.trace_row(&r);
    }

    #[inline]
    pub(super) fn trace_enqueue(
        &mut self,
        now: SimTime,
        node: u32,
        packet: PacketId,
        next_hop: u32,
    ) {
        if self.tracing() {
            self.trace_enqueue_cold(now, node, packet, next_hop);
        }
    }

    /// The trace's row for a packet entering the queue of `node` for `next_hop`.
    #[cold]
    #[inline(never)]
    fn trace_enqueue_cold(&mut self, now: SimTime, node: u32, packet: PacketId, next_hop: u32) {
        let p = *self.packets.get(packet);
        let queued = self.nodes[node as usize].queue.len() as f64;
        let mut r = super::events::packet_row(now, node, (Layer::Ifq, EventKind::Enqueue), &p);
        (r.peer, r.value) = (next_hop, queued);
        self.trace_row(&r);
    }
}

//! A node's network layer between its router, its interface queue and its MAC: a packet is
//! routed (delivered, queued for its next hop, held or dropped), the MAC is given the head of
//! the queue whenever it is idle, and what the MAC finishes comes back here: a packet from a
//! neighbour, or one acknowledged or given up at the retry limit (a link failure).

use super::ctx::NodeCtx;
use super::Node;
use crate::ids::{NodeId, PacketId};
use crate::mac::edca::Ac;
use crate::mac::timing::LLC_SNAP_BYTES;
use crate::net::packet::Packet;
use crate::net::router::{Control, Failure};
use crate::observe::events::{EventKind, Layer, Reason};
use crate::queue::{Class, Queued, Verdict};

impl Node {
    /// Route `packet` here: deliver it, or queue it for its next hop.
    pub fn route_and_enqueue(&mut self, cx: &mut NodeCtx, packet: PacketId) {
        let Some(next_hop) = self.next_hop_for(cx, packet) else { return };
        self.enqueue_for(cx, packet, next_hop);
    }

    /// Queue `packet` for `next_hop`, chosen by routing now or earlier.
    pub(super) fn enqueue_for(&mut self, cx: &mut NodeCtx, packet: PacketId, next_hop: NodeId) {
        if self.deferring {
            self.deferred.push((packet, Some(next_hop)));
            return;
        }
        // Chen et al. section 4.2: each node adds its delay estimate to the next hop.
        let est = self.link_delay_ns(next_hop);
        let p = cx.packets.get_mut(packet);
        p.delay_total_ns += est;
        p.delay_max_ns = p.delay_max_ns.max(est);
        // The few fields needed below, not a copy of the whole packet.
        let flow = p.flow;
        let local = p.is_own_datagram(self.id);
        let class = if p.control {
            Class::Control
        } else if p.tcp.is_some() && p.payload_bytes == 0 {
            Class::Ack
        } else {
            Class::Data
        };
        let arrival = super::queue::arrival(cx, packet);
        let k = self.queue_of(cx, packet);
        let verdict = self.queues[k].push_class(Queued { packet, next_hop }, class, arrival);
        match verdict {
            Verdict::Queued | Verdict::Marked => {
                if local {
                    cx.flows[flow.index()].queued_at_source += 1;
                }
                self.trace_enqueue(cx, packet, next_hop);
                if verdict == Verdict::Marked {
                    self.mark_ce(cx, packet);
                }
            }
            Verdict::Dropped(dropped, cause) => {
                if dropped.packet != packet {
                    self.trace_enqueue(cx, packet, next_hop);
                }
                self.count_queue_drop(cx, dropped.packet, cause);
                if dropped.packet != packet {
                    cx.left_queue(self.id, dropped.packet);
                    if local {
                        cx.flows[flow.index()].queued_at_source += 1;
                    }
                }
                cx.drop_packet(dropped.packet);
            }
        }
        self.pump(cx);
    }

    /// Give each idle channel access function of the MAC the next packet of its queue
    /// (highest category first); refill saturated sources.
    pub fn pump(&mut self, cx: &mut NodeCtx) {
        for k in (0..self.queues.len()).rev() {
            let ac = self.ac_of_queue(k);
            if !self.mac.is_idle(ac) {
                continue;
            }
            let Some(item) = self.dequeue(cx, k) else { continue };
            let msdu_bytes = self.handed_to_mac(cx, item, k);
            let radio = &self.radio;
            let job = (item.packet, item.next_hop, msdu_bytes, ac);
            self.mac.offer(&mut cx.mac(), job, || radio.nav_reset_report());
            self.refill_saturated(cx);
        }
    }

    /// The MAC won the medium for an A-MPDU or A-MSDU of category `ac` to `next_hop`: the
    /// packets of its queue for that hop that fit join it, in queue order, and it goes.
    pub fn fill_aggregate(&mut self, cx: &mut NodeCtx, next_hop: NodeId, ac: Ac) {
        let k = if self.queues.len() == 1 { 0 } else { ac.index() };
        while let Some(packet) = self.queues[k].peek_for(next_hop) {
            let msdu_bytes = LLC_SNAP_BYTES + cx.packets.get(packet).ip_bytes();
            if !self.mac.aggregate_wants(msdu_bytes) {
                break;
            }
            let Some(d) = self.queues[k].take_first_for(next_hop, cx.now) else { break };
            if let Some(h) = self.queue_delay_ms.as_mut() {
                h.record(d.sojourn_ns as f64 / 1e6);
            }
            self.handed_to_mac(cx, d.item, k);
            if let Some(after) = self.mac.add_msdu(d.item.packet, msdu_bytes, cx.now) {
                cx.packets.link_msdu(after, d.item.packet); // one A-MSDU (mac/amsdu.rs)
            }
        }
        self.mac.send_aggregate(&mut cx.mac());
        self.refill_saturated(cx);
    }

    /// A packet leaves queue `k` for the MAC: traced and counted. Returns its MSDU length.
    fn handed_to_mac(&mut self, cx: &mut NodeCtx, item: Queued, k: usize) -> u32 {
        if cx.trace.on() {
            let p = *cx.packets.get(item.packet);
            let hop_len = (item.next_hop, self.queues[k].len());
            cx.trace.queue((cx.now, self.id), EventKind::Dequeue, &p, hop_len);
        }
        let p = cx.packets.get(item.packet);
        let (ip_bytes, control, flow) = (p.ip_bytes(), p.control, p.flow);
        // A mesh action frame carries its body alone; other MSDUs an LLC/SNAP header (and,
        // on a mesh link, the mesh header).
        let msdu_bytes = match p.hwmp() {
            Some(_) => ip_bytes,
            None => LLC_SNAP_BYTES + ip_bytes + cx.cfg.mesh_header_bytes,
        };
        let local = p.is_own_datagram(self.id);
        if control {
            // Routing overhead: every control packet transmission (each hop of a relayed one).
            self.counters.routing_sent += 1;
            self.counters.routing_bytes += ip_bytes as u64;
            if let Some(msg) = control_of(p) {
                msg.tally(&mut self.counters.routing_messages);
            }
        }
        if local {
            cx.flows[flow.index()].queued_at_source -= 1;
        }
        msdu_bytes
    }

    /// The MAC accepted a data packet from neighbour `from` (of an A-MSDU, each of its
    /// MSDUs in order): a new copy for this hop (made here, or already this node's when
    /// `copied`: a reordering buffer's, world/ampdu.rs).
    #[inline]
    pub fn on_mac_received(
        &mut self,
        cx: &mut NodeCtx,
        packet: PacketId,
        from: NodeId,
        copied: bool,
    ) {
        let next = Self::next_received(cx, packet, copied);
        self.msdu_received(cx, packet, from, copied);
        if next.is_some() {
            self.amsdu_received(cx, next, from, copied);
        }
    }

    /// The MSDUs after the first of an A-MSDU (mac/amsdu.rs): this node's copies leave their
    /// chain, the transmitter's stay in theirs.
    #[cold]
    #[inline(never)]
    fn amsdu_received(
        &mut self,
        cx: &mut NodeCtx,
        mut next: Option<PacketId>,
        from: NodeId,
        copied: bool,
    ) {
        while let Some(p) = next {
            next = Self::next_received(cx, p, copied);
            self.msdu_received(cx, p, from, copied);
        }
    }

    #[inline(always)]
    fn next_received(cx: &mut NodeCtx, p: PacketId, copied: bool) -> Option<PacketId> {
        if copied {
            cx.packets.unlink_msdu(p)
        } else {
            cx.packets.next_msdu(p)
        }
    }

    #[inline(always)]
    fn msdu_received(&mut self, cx: &mut NodeCtx, packet: PacketId, from: NodeId, copied: bool) {
        self.router.heard(from, cx.now);
        let p = cx.packets.get(packet);
        // Routing control from a neighbour (AODV's, a flooded DSR Route Request): consumed by
        // the router of this node, never forwarded as such; and ETX probes.
        let control = match p.route {
            None => control_of(p),
            Some(_) => p.aodv().map(Control::Aodv), // a DSR message on a source route: routed on
        };
        if p.etx_probe || control.is_some() {
            if p.etx_probe {
                cx.out.push(super::NodeOutput::ProbeHeard { from });
            }
            if copied {
                cx.packets.free(packet);
            }
            if let Some(msg) = control {
                self.control_received(cx, msg, from);
            }
            return;
        }
        let copy_id = if copied {
            packet
        } else {
            let original = cx.packets.get_mut(packet);
            original.handed_over = true;
            let mut copy: Packet = *original;
            copy.handed_over = false;
            cx.packets.alloc(copy)
        };
        let copy = cx.packets.get_mut(copy_id);
        copy.ttl = copy.ttl.saturating_sub(1);
        let copy = *copy;
        if copy.ttl == 0 && copy.dst != self.id {
            self.counters.ttl_drops += 1;
            let what = (Layer::Net, EventKind::Drop);
            cx.trace_id(self.id, what, copy_id, Some(Reason::Ttl));
            cx.drop_packet(copy_id);
            return;
        }
        // A source-routed (DSR) packet moves along its route first.
        if copy.route.is_some() && !self.routed_arrival(cx, copy_id) {
            return;
        }
        self.route_and_enqueue(cx, copy_id);
    }

    /// The MAC decoded a data frame from `from` addressed to another node (ns-2 DSR's
    /// promiscuous tap): routing may learn from its source route.
    pub fn on_mac_overheard(&mut self, cx: &mut NodeCtx, packet: PacketId, from: NodeId) {
        let mut next = Some(packet);
        while let Some(id) = next {
            next = cx.packets.next_msdu(id);
            let p = *cx.packets.get(id);
            if p.route.is_some() {
                self.with_router(cx, |r, rcx, _| r.tap(rcx, &p, from));
            }
        }
    }

    /// The MAC finished a packet: acknowledged, or dropped at the retry limit (a link
    /// failure, reported to routing; static routes keep the route). `in_range`: the next hop
    /// was still within decode range, which makes a failure a *false* route failure
    /// (always, on a static topology): contention or hidden terminals, not distance,
    /// exhausted the retries.
    #[inline]
    pub fn on_mac_done(
        &mut self,
        cx: &mut NodeCtx,
        (packet, next_hop): (PacketId, NodeId),
        acked: bool,
        service_ns: u64,
        in_range: bool,
    ) {
        let next = cx.packets.unlink_msdu(packet);
        self.msdu_done(cx, (packet, next_hop), acked, service_ns, in_range);
        if next.is_some() {
            self.amsdu_done(cx, (next, next_hop), acked, service_ns, in_range);
        }
        self.pump(cx);
        if !self.deferred.is_empty() {
            self.send_deferred(cx);
        }
    }

    /// The MSDUs after the first of an A-MSDU, each a packet on its own again (mac/amsdu.rs).
    #[cold]
    #[inline(never)]
    fn amsdu_done(
        &mut self,
        cx: &mut NodeCtx,
        (mut next, next_hop): (Option<PacketId>, NodeId),
        acked: bool,
        service_ns: u64,
        in_range: bool,
    ) {
        while let Some(p) = next {
            next = cx.packets.unlink_msdu(p);
            self.msdu_done(cx, (p, next_hop), acked, service_ns, in_range);
        }
    }

    #[inline(always)]
    fn msdu_done(
        &mut self,
        cx: &mut NodeCtx,
        (packet, next_hop): (PacketId, NodeId),
        acked: bool,
        service_ns: u64,
        in_range: bool,
    ) {
        if acked {
            // Chen et al.'s per-hop delay: head of the queue to the MAC ACK (successes only).
            self.note_link_delay(next_hop, service_ns);
            let p = cx.packets.get(packet);
            if !p.handed_over && !p.flow.is_none() && next_hop != NodeId::BROADCAST {
                // Acknowledged but never accepted: the next hop's MAC took the frame for a
                // retransmission of one it had (802.11-2007 9.2.9: Retry bit and the same
                // sequence number, which wraps at 4096) after the first attempt was lost.
                let what = (Layer::Mac, EventKind::Drop);
                cx.trace_id(self.id, what, packet, Some(Reason::Duplicate));
                cx.drop_packet(packet);
            } else {
                cx.packets.free(packet);
            }
        } else {
            // ns-2: the MAC's failure callback runs (the packet dropped or salvaged, the queue
            // filtered), then the MAC takes its next packet from the queue (`tx_resume` ->
            // the queue's `resume`), and only then does what the callback sent reach the queue:
            // it was scheduled 0 s ahead (aodv.cc `sendError`, `sendRequest`: `schedule(target_,
            // p, 0.)`; dsragent.cc `sendOutPacketWithRoute`: `schedule(ll, p, 0)`).
            self.deferring = cx.cfg.ns2;
            self.link_failed(cx, packet, next_hop, in_range);
            self.deferring = false;
        }
    }

    /// What a MAC failure's handling sent, now that the MAC has taken its next packet.
    fn send_deferred(&mut self, cx: &mut NodeCtx) {
        let mut sent = std::mem::take(&mut self.deferred);
        for (p, hop) in sent.drain(..) {
            match hop {
                Some(hop) => self.enqueue_for(cx, p, hop),
                None => self.release_control(cx, p),
            }
        }
        self.deferred = sent; // its capacity kept
    }

    /// The link to `next_hop` failed with `packet` (see `on_mac_done`).
    fn link_failed(
        &mut self,
        cx: &mut NodeCtx,
        packet: PacketId,
        next_hop: NodeId,
        in_range: bool,
    ) {
        let me = self.id;
        cx.trace_id(me, (Layer::Mac, EventKind::Drop), packet, Some(Reason::RetryLimit));
        cx.trace_id(me, (Layer::Net, EventKind::LinkFailure), packet, None);
        self.counters.link_failures += 1;
        self.counters.false_route_failures += in_range as u64;
        let flow = cx.packets.get(packet).flow;
        if !flow.is_none() {
            cx.flows[flow.index()].link_failures += 1;
            cx.flows[flow.index()].false_route_failures += in_range as u64;
        }
        let failure = self.with_router(cx, |r, rcx, packets| {
            r.on_link_failure(rcx, next_hop, packets.get(packet))
        });
        let handed = cx.packets.get(packet).handed_over;
        if failure == Failure::Salvage {
            // ns-2 xmitFailed: the packet and every queued one for that hop are re-routed
            // at their source or salvaged (salvage.rs).
            let kept = !handed && self.salvage(cx, packet);
            self.purge_and_salvage(cx, next_hop);
            if !kept && !handed {
                cx.drop_packet(packet);
            } else if handed {
                cx.packets.free(packet);
            }
        } else if failure == Failure::Wait && !handed {
            // A local repair (ns-2 AODV): the packet waits here for the new route.
            self.wait_for_route(cx, packet);
        } else if handed {
            // The next hop has it (only its ACKs were lost): nothing is lost end to end.
            cx.packets.free(packet);
        } else {
            cx.drop_packet(packet);
        }
    }

    /// The trace's row for a packet entering the queue for `next_hop`.
    #[inline]
    pub(super) fn trace_enqueue(&self, cx: &mut NodeCtx, packet: PacketId, next_hop: NodeId) {
        if cx.trace.on() {
            let p = *cx.packets.get(packet);
            let at = (cx.now, self.id);
            let k = self.queue_of(cx, packet);
            cx.trace.queue(at, EventKind::Enqueue, &p, (next_hop, self.queues[k].len()));
        }
    }
}

/// The routing message a packet carries, if any.
fn control_of(p: &Packet) -> Option<Control> {
    p.routing_msg
}

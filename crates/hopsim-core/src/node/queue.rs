//! What follows the interface queue's decisions at a node: AQM drops and ECN marks counted
//! and traced, packets dropped at dequeue freed, the sojourn time of every packet leaving
//! the queue recorded (`[queue]` table only).

use super::ctx::NodeCtx;
use super::Node;
use crate::ids::PacketId;
use crate::mac::edca::Ac;
use crate::net::packet::Ecn;
use crate::observe::events::{EventKind, Layer, Reason};
use crate::queue::{Arrival, Cause, Discipline, Queued};

/// What the queue is told of a packet arriving.
pub(super) fn arrival(cx: &NodeCtx, packet: PacketId) -> Arrival {
    let p = cx.packets.get(packet);
    Arrival {
        now_ns: cx.now,
        bytes: p.ip_bytes(),
        ect: p.ecn.is_ect(),
        flow_key: [p.flow.0, p.src.0, p.dst.0],
    }
}

impl Node {
    /// The queue of `packet`: the only one, or its category's (the DS field's user
    /// priority, mac/edca.rs).
    #[inline]
    pub(super) fn queue_of(&self, cx: &NodeCtx, packet: PacketId) -> usize {
        if self.queues.len() == 1 {
            0
        } else {
            Ac::of_dscp(cx.packets.get(packet).dscp).index()
        }
    }

    /// The category queue `k` holds (a single queue holds them all: best effort).
    #[inline]
    pub(super) fn ac_of_queue(&self, k: usize) -> Ac {
        if self.queues.len() == 1 {
            Ac::Be
        } else {
            Ac::from_index(k)
        }
    }

    /// Packets in the interface queues.
    pub fn queued(&self) -> usize {
        self.queues.iter().map(|q| q.len()).sum()
    }

    /// The trace's reason for an AQM action here.
    fn aqm_reason(&self) -> Reason {
        match self.queues[0].discipline() {
            Discipline::Codel(_) => Reason::Codel,
            Discipline::FqCodel(_) => Reason::FqCodel,
            _ => Reason::Red,
        }
    }

    /// A packet dropped by the queue: counted and traced (the caller frees it).
    pub(super) fn count_queue_drop(&mut self, cx: &mut NodeCtx, p: PacketId, c: Cause) {
        let reason = match c {
            Cause::Full => {
                self.counters.queue_drops += 1;
                Reason::QueueFull
            }
            Cause::Aqm => {
                self.counters.aqm_drops += 1;
                self.aqm_reason()
            }
        };
        cx.trace_id(self.id, (Layer::Ifq, EventKind::Drop), p, Some(reason));
    }

    /// The AQM marks `packet` Congestion Experienced (RFC 3168 section 5).
    pub(super) fn mark_ce(&mut self, cx: &mut NodeCtx, packet: PacketId) {
        cx.packets.get_mut(packet).ecn = Ecn::Ce;
        self.counters.ecn_marks += 1;
        let why = Some(self.aqm_reason());
        cx.trace_id(self.id, (Layer::Ifq, EventKind::Mark), packet, why);
    }

    /// The next packet of queue `k` for the MAC, after what the AQM drops on the way.
    pub(super) fn dequeue(&mut self, cx: &mut NodeCtx, k: usize) -> Option<Queued> {
        let mut dropped = std::mem::take(&mut cx.scratch.aqm_dropped);
        let out = self.queues[k].pop(cx.now, &mut dropped);
        let any_dropped = !dropped.is_empty();
        for d in dropped.drain(..) {
            self.count_queue_drop(cx, d.packet, Cause::Aqm);
            cx.left_queue(self.id, d.packet);
            cx.drop_packet(d.packet);
        }
        cx.scratch.aqm_dropped = dropped;
        let Some(d) = out else {
            if any_dropped {
                self.refill_saturated(cx); // the drops may have emptied a source's queue
            }
            return None;
        };
        if d.marked {
            self.mark_ce(cx, d.item.packet);
        }
        if let Some(h) = self.queue_delay_ms.as_mut() {
            h.record(d.sojourn_ns as f64 / 1e6);
        }
        Some(d.item)
    }
}

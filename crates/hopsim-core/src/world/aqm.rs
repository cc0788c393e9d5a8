//! The interface queue's disciplines in the world: building each node's (RED's idle packet
//! time from the DCF timing), and what follows the queue's decisions: AQM drops and ECN
//! marks counted and traced, packets dropped at dequeue freed, the sojourn time of every
//! packet leaving the queue recorded (`[queue]` table only).

use super::World;
use crate::engine::rng::{Purpose, Rng};
use crate::engine::time::{secs_to_ns, SimTime};
use crate::mac::timing::{airtime_ns, Timing, FCS_BYTES, LLC_SNAP_BYTES, MAC_HEADER_BYTES};
use crate::net::packet::{Ecn, PacketId, NO_FLOW};
use crate::observe::events::{EventKind, Layer, Reason};
use crate::queue::{
    Arrival, Cause, Codel, CodelConfig, Discipline, FqCodel, FqCodelConfig, Queued, Red, RedConfig,
};
use crate::scenario::{QueueDiscipline, Scenario};

/// The interface MTU (IP bytes): CoDel's `maxpacket` (RFC 8289 5.3).
const MTU_BYTES: u32 = 1500;

/// The discipline of node `id`'s queue.
pub(super) fn discipline(s: &Scenario, timing: &Timing, id: u32) -> Discipline {
    let Some(q) = &s.queue else { return Discipline::DropTail };
    let codel = CodelConfig {
        target_ns: secs_to_ns(q.codel_target_s),
        interval_ns: secs_to_ns(q.codel_interval_s),
        mtu_bytes: MTU_BYTES,
        ecn: q.ecn,
    };
    match q.discipline {
        QueueDiscipline::DropTail => Discipline::DropTail,
        QueueDiscipline::Red => Discipline::Red(Box::new(Red::new(
            RedConfig {
                min_th_packets: q.red_min_th_packets,
                max_th_packets: q.red_max_th_packets,
                max_p: q.red_max_p,
                w_q: q.red_w_q,
                gentle: q.red_gentle,
                wait: q.red_wait,
                packet_time_ns: packet_time_ns(timing, s.mac.cw_min),
                ecn: q.ecn,
            },
            Rng::derive(s.seed, Purpose::Queue, id as u64),
        ))),
        QueueDiscipline::Codel => Discipline::Codel(Codel::new(codel)),
        QueueDiscipline::FqCodel => Discipline::FqCodel(Box::new(FqCodel::new(FqCodelConfig {
            codel,
            quantum_bytes: q.fq_codel_quantum_bytes,
            flows: q.fq_codel_flows as usize,
        }))),
    }
}

/// RED's s, "the typical transmission time" of a packet (Floyd & Jacobson section 4; ns-2
/// derives it from the link's bandwidth, red.cc `ptc_`): here one DCF exchange of an MTU
/// packet without contention, DIFS + the mean initial backoff (CW_min / 2 slots) + DATA at
/// the data rate + SIFS + ACK.
pub(super) fn packet_time_ns(t: &Timing, cw_min: u32) -> u64 {
    let data = airtime_ns(MAC_HEADER_BYTES + LLC_SNAP_BYTES + MTU_BYTES + FCS_BYTES, t.data_rate);
    t.difs + cw_min as u64 * t.slot / 2 + data + t.sifs + t.ack_ns
}

impl World {
    /// What the queue is told of a packet arriving.
    pub(super) fn arrival(&self, now: SimTime, packet: PacketId) -> Arrival {
        let p = self.packets.get(packet);
        Arrival {
            now_ns: now,
            bytes: p.ip_bytes(),
            ect: p.ecn.is_ect(),
            flow_key: [p.flow, p.src, p.dst],
        }
    }

    /// The trace's reason for an AQM action at `node`.
    fn aqm_reason(&self, node: u32) -> Reason {
        match self.nodes[node as usize].queue.discipline() {
            Discipline::Codel(_) => Reason::Codel,
            Discipline::FqCodel(_) => Reason::FqCodel,
            _ => Reason::Red,
        }
    }

    /// A packet dropped by the queue of `node`: counted and traced (the caller frees it).
    pub(super) fn count_queue_drop(&mut self, now: SimTime, node: u32, p: PacketId, c: Cause) {
        let reason = match c {
            Cause::Full => {
                self.nodes[node as usize].counters.queue_drops += 1;
                Reason::QueueFull
            }
            Cause::Aqm => {
                self.nodes[node as usize].counters.aqm_drops += 1;
                self.aqm_reason(node)
            }
        };
        self.trace_id(now, node, Layer::Ifq, EventKind::Drop, p, Some(reason));
    }

    /// The AQM of `node` marks `packet` Congestion Experienced (RFC 3168 section 5).
    pub(super) fn mark_ce(&mut self, now: SimTime, node: u32, packet: PacketId) {
        self.packets.get_mut(packet).ecn = Ecn::Ce;
        self.nodes[node as usize].counters.ecn_marks += 1;
        let why = Some(self.aqm_reason(node));
        self.trace_id(now, node, Layer::Ifq, EventKind::Mark, packet, why);
    }

    /// The next packet of `node`'s queue for its MAC, after what the AQM drops on the way.
    pub(super) fn dequeue(&mut self, now: SimTime, node: u32) -> Option<Queued> {
        let mut dropped = std::mem::take(&mut self.aqm_dropped);
        let out = self.nodes[node as usize].queue.pop(now, &mut dropped);
        let any_dropped = !dropped.is_empty();
        for d in dropped.drain(..) {
            self.count_queue_drop(now, node, d.packet, Cause::Aqm);
            let p = self.packets.get(d.packet);
            if p.src == node && p.tcp.is_none() && p.flow != NO_FLOW {
                self.flows[p.flow as usize].queued_at_source -= 1;
            }
            self.drop_packet(d.packet);
        }
        self.aqm_dropped = dropped;
        let Some(d) = out else {
            if any_dropped {
                self.refill_saturated(now, node); // the drops may have emptied a source's queue
            }
            return None;
        };
        if d.marked {
            self.mark_ce(now, node, d.item.packet);
        }
        if let Some(h) = self.nodes[node as usize].queue_delay_ms.as_mut() {
            h.record(d.sojourn_ns as f64 / 1e6);
        }
        Some(d.item)
    }
}

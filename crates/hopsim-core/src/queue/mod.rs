//! Interface queue. The container is drop-tail with routing control packets first (ns-2's
//! Queue/DropTail/PriQueue with Prefer_Routing_Protocols: control goes to the head, and if the
//! queue then overflows the tail packet is dropped), or, for DSR in the ns2 profile, ns-2's
//! CMUPriQueue (queue/dsr-priqueue.cc): strict-priority bands of `IFQ_MAXLEN` packets each,
//! routing control first, then TCP ACKs, then everything else, FIFO within a band, a full band
//! refusing the newcomer. An active queue management discipline (`red.rs`, `codel.rs`) may
//! drop or ECN-mark data packets on top of it; routing control bypasses it (strict priority).

mod codel;
mod fq_codel;
mod red;

pub use codel::{Codel, CodelConfig};
pub use fq_codel::{FqCodel, FqCodelConfig};
pub use red::{Red, RedConfig};

use crate::ids::NodeId;
use crate::net::packet::PacketId;
use std::collections::VecDeque;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Queued {
    pub packet: PacketId,
    pub next_hop: NodeId,
}

/// What a packet is to the queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Routing control.
    Control,
    /// A TCP acknowledgement (ns-2 PT_ACK: CMUPriQueue's IFQ_LOWDELAY band).
    Ack,
    Data,
}

/// What the queue needs to know of an arriving packet besides its identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrival {
    pub now_ns: u64,
    /// IP bytes (CoDel's "queue holds less than one MTU" check, RFC 8289 section 5.4).
    pub bytes: u32,
    /// ECN-capable transport: the AQM may mark it CE instead of dropping it (RFC 3168 5).
    pub ect: bool,
    /// The flow it belongs to for FQ-CoDel: flow id, IP source, IP destination.
    pub flow_key: [u32; 3],
}

/// Why a packet left the queue without being sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// No room (the queue limit, or a full CMUPriQueue band).
    Full,
    /// An early drop of the AQM (RED's random drop or forced drop above the thresholds,
    /// CoDel's drop at dequeue).
    Aqm,
}

/// The queue's decision on an arrival.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Queued,
    /// Queued, and the AQM marks it CE (RED at enqueue, RFC 3168 section 7).
    Marked,
    /// This packet was dropped (the newcomer, or the tail to make room for control).
    Dropped(Queued, Cause),
}

/// A packet leaving the queue for the MAC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dequeued {
    pub item: Queued,
    /// Time it waited in the queue.
    pub sojourn_ns: u64,
    /// CoDel marked it CE at a drop point (RFC 8289 section 5, "ECN").
    pub marked: bool,
}

/// The AQM of the queue's data packets.
#[derive(Debug, Clone)]
pub enum Discipline {
    DropTail,
    Red(Box<Red>),
    Codel(Codel),
    FqCodel(Box<FqCodel>),
}

/// A queued packet with what the disciplines need.
#[derive(Debug, Clone, Copy)]
struct Slot {
    item: Queued,
    enq_ns: u64,
    bytes: u32,
    ect: bool,
    control: bool,
}

/// ns-2 dsr-priqueue.h IFQ_MAXLEN: each band's length (CMUPriQueue ignores `limit_`).
pub const CMU_BAND_PACKETS: usize = 50;

#[derive(Clone, Debug)]
pub struct IfQueue {
    items: VecDeque<Slot>,
    limit: usize,
    /// CMUPriQueue: control and ACK bands (`items` is the data band).
    bands: Option<[VecDeque<Slot>; 2]>,
    discipline: Discipline,
    /// IP bytes of the packets in `items` (CoDel's `bytes()`).
    bytes: u64,
}

impl IfQueue {
    pub fn new(limit: usize) -> IfQueue {
        IfQueue::with_discipline(limit, Discipline::DropTail)
    }

    /// A queue of `limit` packets whose data packets go through `discipline`.
    pub fn with_discipline(limit: usize, discipline: Discipline) -> IfQueue {
        let items = VecDeque::with_capacity(limit + 1);
        IfQueue { items, limit, bands: None, discipline, bytes: 0 }
    }

    /// ns-2's CMUPriQueue: three bands of `CMU_BAND_PACKETS` (control, ACKs, the rest).
    pub fn cmu_priority() -> IfQueue {
        let band = || VecDeque::with_capacity(CMU_BAND_PACKETS);
        IfQueue {
            items: VecDeque::with_capacity(CMU_BAND_PACKETS),
            limit: CMU_BAND_PACKETS,
            bands: Some([band(), band()]),
            discipline: Discipline::DropTail,
            bytes: 0,
        }
    }

    /// Hold at most `packets` from now on (Linux's txqueuelen, ns-2's `limit_` set mid-run):
    /// what is queued stays, arrivals find no room until it drains below. Err names why not:
    /// the bands of ns-2's CMUPriQueue are fixed, and RED's thresholds must stay below it.
    pub fn set_limit(&mut self, packets: usize) -> Result<(), &'static str> {
        self.check_limit(packets)?;
        self.limit = packets;
        Ok(())
    }

    /// Would [`IfQueue::set_limit`] accept `packets`?
    pub fn check_limit(&self, packets: usize) -> Result<(), &'static str> {
        if self.bands.is_some() {
            return Err(
                "the ns2 profile's CMUPriQueue has fixed bands of 50 (ns-2 ignores limit_)",
            );
        }
        if let Discipline::Red(red) = &self.discipline {
            if red.min_th_packets() >= packets as f64 {
                return Err("RED's min_th must stay below the queue limit");
            }
        }
        Ok(())
    }

    /// The most packets it holds.
    pub fn limit(&self) -> usize {
        self.limit
    }

    pub fn discipline(&self) -> &Discipline {
        &self.discipline
    }

    fn slot(item: Queued, a: Arrival, control: bool) -> Slot {
        Slot { item, enq_ns: a.now_ns, bytes: a.bytes, ect: a.ect, control }
    }

    /// Enqueue a packet of `class`.
    pub fn push_class(&mut self, item: Queued, class: Class, a: Arrival) -> Verdict {
        if let Some(bands) = self.bands.as_mut() {
            let band = match class {
                Class::Control => &mut bands[0],
                Class::Ack => &mut bands[1],
                Class::Data => &mut self.items,
            };
            if band.len() >= CMU_BAND_PACKETS {
                return Verdict::Dropped(item, Cause::Full); // prq_enqueue: drops the arrival
            }
            band.push_back(Self::slot(item, a, class == Class::Control));
            if class == Class::Data {
                self.bytes += a.bytes as u64; // `bytes` counts `items`, here the data band
            }
            return Verdict::Queued;
        }
        self.push(item, class == Class::Control, a)
    }

    /// Enqueue; control goes to the head and bypasses the AQM.
    pub fn push(&mut self, item: Queued, control: bool, a: Arrival) -> Verdict {
        if self.bands.is_some() {
            let class = if control { Class::Control } else { Class::Data };
            return self.push_class(item, class, a);
        }
        if control {
            self.items.push_front(Self::slot(item, a, true));
            self.bytes += a.bytes as u64;
            if let Discipline::FqCodel(fq) = &mut self.discipline {
                if self.items.len() + fq.len() > self.limit && !fq.is_empty() {
                    let victim = fq.drop_from_fattest().expect("a packet queued");
                    return Verdict::Dropped(victim, Cause::Full);
                }
            }
            if self.items.len() > self.limit {
                let tail = self.items.pop_back().expect("over the limit");
                self.bytes -= tail.bytes as u64;
                return Verdict::Dropped(tail.item, Cause::Full);
            }
            return Verdict::Queued;
        }
        let mut verdict = Verdict::Queued;
        if let Discipline::Red(red) = &mut self.discipline {
            // RED decides on every data arrival from the queue length it finds (before it).
            match red.on_arrival(a.now_ns, self.items.len(), a.ect) {
                red::Decision::Enqueue => {}
                red::Decision::Mark => verdict = Verdict::Marked,
                red::Decision::Drop => return Verdict::Dropped(item, Cause::Aqm),
            }
        }
        if let Discipline::FqCodel(fq) = &mut self.discipline {
            // Control stays in `items` (at the head), data goes to the flow queues.
            let room = self.limit - self.items.len().min(self.limit);
            return match fq.enqueue(Self::slot(item, a, false), a.flow_key, room) {
                None => Verdict::Queued,
                Some(victim) => Verdict::Dropped(victim, Cause::Full),
            };
        }
        if self.items.len() >= self.limit {
            if let Discipline::Red(red) = &mut self.discipline {
                red.forced_drop(); // ns-2 red.cc: an overflow is a forced drop (count = 0)
            }
            return Verdict::Dropped(item, Cause::Full);
        }
        self.items.push_back(Self::slot(item, a, false));
        self.bytes += a.bytes as u64;
        verdict
    }

    /// Take out every packet for `next_hop`, in queue order (ns-2 `PriQueue::filter`).
    /// (CMUPriQueue `prq_get_nexthop`: every band, highest priority first.)
    pub fn take_for(&mut self, next_hop: NodeId, now_ns: u64, out: &mut Vec<Queued>) {
        fn take(q: &mut VecDeque<Slot>, next_hop: NodeId, out: &mut Vec<Queued>) -> u64 {
            let mut kept = VecDeque::with_capacity(q.capacity());
            let mut bytes = 0;
            for s in q.drain(..) {
                if s.item.next_hop == next_hop {
                    out.push(s.item);
                    bytes += s.bytes as u64;
                } else {
                    kept.push_back(s);
                }
            }
            *q = kept;
            bytes
        }
        if let Some(bands) = self.bands.as_mut() {
            for band in bands.iter_mut() {
                take(band, next_hop, out);
            }
        }
        self.bytes -= take(&mut self.items, next_hop, out);
        if let Discipline::FqCodel(fq) = &mut self.discipline {
            fq.take_for(next_hop, out);
        }
        self.note_if_empty(now_ns);
    }

    /// The first packet for `next_hop` in queue order (an A-MPDU's next MPDU; the scenario
    /// checks allow aggregation only with drop-tail and without CMUPriQueue's bands).
    pub fn peek_for(&self, next_hop: NodeId) -> Option<PacketId> {
        debug_assert!(self.bands.is_none() && matches!(self.discipline, Discipline::DropTail));
        self.items.iter().find(|s| s.item.next_hop == next_hop).map(|s| s.item.packet)
    }

    /// Take out the first packet for `next_hop` (see [`IfQueue::peek_for`]).
    pub fn take_first_for(&mut self, next_hop: NodeId, now_ns: u64) -> Option<Dequeued> {
        let i = self.items.iter().position(|s| s.item.next_hop == next_hop)?;
        let s = self.items.remove(i).expect("found above");
        self.bytes -= s.bytes as u64;
        self.note_if_empty(now_ns);
        Some(Dequeued { item: s.item, sojourn_ns: now_ns - s.enq_ns, marked: false })
    }

    /// The next packet for the MAC. CoDel may drop data packets on the way (into `dropped`,
    /// in the order dropped).
    pub fn pop(&mut self, now_ns: u64, dropped: &mut Vec<Queued>) -> Option<Dequeued> {
        if let Some(bands) = self.bands.as_mut() {
            for band in bands.iter_mut() {
                if let Some(s) = band.pop_front() {
                    return Some(Dequeued {
                        item: s.item,
                        sojourn_ns: now_ns - s.enq_ns,
                        marked: false,
                    });
                }
            }
        }
        let out = if let (Discipline::FqCodel(fq), true) =
            (&mut self.discipline, self.items.is_empty())
        {
            fq.dequeue(now_ns, dropped)
        } else if matches!(self.discipline, Discipline::Codel(_))
            && self.items.front().is_some_and(|s| !s.control)
        {
            self.codel_pop(now_ns, dropped)
        } else {
            self.take_head().map(|s| (s, false))
        };
        self.note_if_empty(now_ns);
        out.map(|(s, marked)| Dequeued { item: s.item, sojourn_ns: now_ns - s.enq_ns, marked })
    }

    fn take_head(&mut self) -> Option<Slot> {
        let s = self.items.pop_front()?;
        self.bytes -= s.bytes as u64;
        Some(s)
    }

    /// CoDel's dequeue (RFC 8289 section 5), on the data packets behind any control.
    fn codel_pop(&mut self, now_ns: u64, dropped: &mut Vec<Queued>) -> Option<(Slot, bool)> {
        let Discipline::Codel(mut codel) =
            std::mem::replace(&mut self.discipline, Discipline::DropTail)
        else {
            unreachable!("CoDel queue")
        };
        let out = codel.dequeue(now_ns, self, dropped);
        self.discipline = Discipline::Codel(codel);
        out
    }

    /// RED's idle period starts when the queue empties (Floyd & Jacobson, Figure 2 q_time).
    fn note_if_empty(&mut self, now_ns: u64) {
        if self.items.is_empty() {
            if let Discipline::Red(red) = &mut self.discipline {
                red.queue_empty(now_ns);
            }
        }
    }

    pub fn len(&self) -> usize {
        let fq = match &self.discipline {
            Discipline::FqCodel(fq) => fq.len(),
            _ => 0,
        };
        self.items.len() + self.bands.as_ref().map_or(0, |b| b[0].len() + b[1].len()) + fq
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod codel_tests;
#[cfg(test)]
mod droptail_tests;
#[cfg(test)]
mod fq_codel_tests;
#[cfg(test)]
mod red_tests;

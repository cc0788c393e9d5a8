//! Interface queue: drop-tail with routing control packets first (ns-2's
//! Queue/DropTail/PriQueue with Prefer_Routing_Protocols: control goes to the head, and if the
//! queue then overflows the tail packet is dropped), or, for DSR in the ns2 profile, ns-2's
//! CMUPriQueue (queue/dsr-priqueue.cc): strict-priority bands of `IFQ_MAXLEN` packets each,
//! routing control first, then TCP ACKs, then everything else, FIFO within a band, a full band
//! refusing the newcomer.

use crate::net::packet::PacketId;
use std::collections::VecDeque;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Queued {
    pub packet: PacketId,
    pub next_hop: u32,
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

/// ns-2 dsr-priqueue.h IFQ_MAXLEN: each band's length (CMUPriQueue ignores `limit_`).
pub const CMU_BAND_PACKETS: usize = 50;

#[derive(Debug)]
pub struct IfQueue {
    items: VecDeque<Queued>,
    limit: usize,
    /// CMUPriQueue: control and ACK bands (`items` is the data band).
    bands: Option<[VecDeque<Queued>; 2]>,
}

impl IfQueue {
    pub fn new(limit: usize) -> IfQueue {
        IfQueue { items: VecDeque::with_capacity(limit + 1), limit, bands: None }
    }

    /// ns-2's CMUPriQueue: three bands of `CMU_BAND_PACKETS` (control, ACKs, the rest).
    pub fn cmu_priority() -> IfQueue {
        let band = || VecDeque::with_capacity(CMU_BAND_PACKETS);
        IfQueue {
            items: VecDeque::with_capacity(CMU_BAND_PACKETS),
            limit: CMU_BAND_PACKETS,
            bands: Some([band(), band()]),
        }
    }

    /// Enqueue; returns the packet dropped to make room, if any (the newcomer for data).
    pub fn push_class(&mut self, item: Queued, class: Class) -> Option<Queued> {
        if let Some(bands) = self.bands.as_mut() {
            let band = match class {
                Class::Control => &mut bands[0],
                Class::Ack => &mut bands[1],
                Class::Data => &mut self.items,
            };
            if band.len() >= CMU_BAND_PACKETS {
                return Some(item); // prq_enqueue: a full band drops the arrival
            }
            band.push_back(item);
            return None;
        }
        self.push(item, class == Class::Control)
    }

    /// Enqueue; returns the packet dropped to make room, if any (the newcomer for data).
    pub fn push(&mut self, item: Queued, control: bool) -> Option<Queued> {
        if self.bands.is_some() {
            let class = if control { Class::Control } else { Class::Data };
            return self.push_class(item, class);
        }
        if control {
            self.items.push_front(item);
            if self.items.len() > self.limit {
                return self.items.pop_back();
            }
            None
        } else if self.items.len() >= self.limit {
            Some(item)
        } else {
            self.items.push_back(item);
            None
        }
    }

    /// Take out every packet for `next_hop`, in queue order (ns-2 `PriQueue::filter`).
    /// (CMUPriQueue `prq_get_nexthop`: every band, highest priority first.)
    pub fn take_for(&mut self, next_hop: u32, out: &mut Vec<Queued>) {
        fn take(q: &mut VecDeque<Queued>, next_hop: u32, out: &mut Vec<Queued>) {
            let mut kept = VecDeque::with_capacity(q.capacity());
            for item in q.drain(..) {
                if item.next_hop == next_hop {
                    out.push(item);
                } else {
                    kept.push_back(item);
                }
            }
            *q = kept;
        }
        if let Some(bands) = self.bands.as_mut() {
            for band in bands.iter_mut() {
                take(band, next_hop, out);
            }
        }
        take(&mut self.items, next_hop, out);
    }

    pub fn pop(&mut self) -> Option<Queued> {
        if let Some(bands) = self.bands.as_mut() {
            for band in bands.iter_mut() {
                if let Some(item) = band.pop_front() {
                    return Some(item);
                }
            }
        }
        self.items.pop_front()
    }

    pub fn len(&self) -> usize {
        self.items.len() + self.bands.as_ref().map_or(0, |b| b[0].len() + b[1].len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::packet::{Packet, PacketArena};

    fn ids(n: usize) -> Vec<PacketId> {
        let mut a = PacketArena::with_capacity(n);
        (0..n).map(|i| a.alloc(Packet::new(0, i as u32, 0, 1, 1, 8, 0))).collect()
    }

    #[test]
    fn drop_tail_and_control_first() {
        let p = ids(4);
        let q = |i: usize| Queued { packet: p[i], next_hop: 1 };
        let mut iq = IfQueue::new(2);
        assert_eq!(iq.push(q(0), false), None);
        assert_eq!(iq.push(q(1), false), None);
        assert_eq!(iq.push(q(2), false), Some(q(2)), "full: newcomer dropped");
        assert_eq!(iq.push(q(3), true), Some(q(1)), "control at head, tail dropped");
        assert_eq!(iq.pop(), Some(q(3)));
        assert_eq!(iq.pop(), Some(q(0)));
        assert!(iq.is_empty());
    }

    #[test]
    fn cmu_bands_serve_control_then_acks_then_data_and_refuse_when_a_band_is_full() {
        let p = ids(CMU_BAND_PACKETS + 3);
        let q = |i: usize| Queued { packet: p[i], next_hop: 1 };
        let mut iq = IfQueue::cmu_priority();
        for i in 0..CMU_BAND_PACKETS {
            assert_eq!(iq.push_class(q(i), Class::Data), None);
        }
        let full = CMU_BAND_PACKETS;
        assert_eq!(iq.push_class(q(full), Class::Data), Some(q(full)), "data band full");
        assert_eq!(iq.push_class(q(full + 1), Class::Ack), None, "ACK band has room");
        assert_eq!(iq.push_class(q(full + 2), Class::Control), None);
        assert_eq!(iq.len(), CMU_BAND_PACKETS + 2);
        assert_eq!(iq.pop(), Some(q(full + 2)), "control first");
        assert_eq!(iq.pop(), Some(q(full + 1)), "then the ACK");
        assert_eq!(iq.pop(), Some(q(0)), "then data, FIFO");
    }

    #[test]
    fn take_for_removes_one_next_hop_and_keeps_the_order_of_the_rest() {
        let p = ids(5);
        let mut iq = IfQueue::new(10);
        for (i, hop) in [1, 2, 1, 3, 2].into_iter().enumerate() {
            iq.push(Queued { packet: p[i], next_hop: hop }, false);
        }
        let mut out = Vec::new();
        iq.take_for(2, &mut out);
        assert_eq!(out.iter().map(|q| q.packet).collect::<Vec<_>>(), vec![p[1], p[4]]);
        let rest: Vec<_> = std::iter::from_fn(|| iq.pop()).map(|q| q.next_hop).collect();
        assert_eq!(rest, vec![1, 1, 3]);
    }
}

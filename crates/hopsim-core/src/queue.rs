//! Interface queue: drop-tail with routing control packets first (ns-2's
//! Queue/DropTail/PriQueue with Prefer_Routing_Protocols: control goes to the head, and if the
//! queue then overflows the tail packet is dropped).

use crate::net::packet::PacketId;
use std::collections::VecDeque;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Queued {
    pub packet: PacketId,
    pub next_hop: u32,
}

#[derive(Debug)]
pub struct IfQueue {
    items: VecDeque<Queued>,
    limit: usize,
}

impl IfQueue {
    pub fn new(limit: usize) -> IfQueue {
        IfQueue { items: VecDeque::with_capacity(limit + 1), limit }
    }

    /// Enqueue; returns the packet dropped to make room, if any (the newcomer for data).
    pub fn push(&mut self, item: Queued, control: bool) -> Option<Queued> {
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
    pub fn take_for(&mut self, next_hop: u32, out: &mut Vec<Queued>) {
        let mut kept = VecDeque::with_capacity(self.items.capacity());
        for item in self.items.drain(..) {
            if item.next_hop == next_hop {
                out.push(item);
            } else {
                kept.push_back(item);
            }
        }
        self.items = kept;
    }

    pub fn pop(&mut self) -> Option<Queued> {
        self.items.pop_front()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Queued> {
        self.items.iter()
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

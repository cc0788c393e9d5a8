//! FQ-CoDel (RFC 8290): packets hashed by flow into `flows` queues (here the 5-tuple is the
//! flow id with the IP source and destination, so a TCP flow's data and its ACKs are two
//! flows), each queue with its own CoDel; deficit round robin over them with a quantum of
//! bytes (section 4.2), queues with new traffic first (the new list) and then the old ones;
//! when the whole queue is over its limit, the head packet of the queue with the most bytes
//! is dropped (section 4.1). CoDel's "at most one MTU queued" check uses the bytes of the
//! whole queue, as Linux passes the qdisc's backlog (`fq_codel_dequeue`).

use super::codel::{Codel, CodelConfig, CodelQueue};
use super::{Queued, Slot};
use crate::ids::NodeId;
use std::collections::VecDeque;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FqCodelConfig {
    pub codel: CodelConfig,
    /// DRR quantum (RFC 8290 section 5.1: 1514 bytes, an Ethernet MTU with its header).
    pub quantum_bytes: u32,
    /// Flow queues (RFC 8290 section 5.1 and Linux: 1024).
    pub flows: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum List {
    None,
    New,
    Old,
}

#[derive(Debug, Clone)]
struct FlowQueue {
    slots: VecDeque<Slot>,
    bytes: u64,
    credit: i64,
    list: List,
}

#[derive(Debug, Clone)]
pub struct FqCodel {
    cfg: FqCodelConfig,
    queues: Vec<FlowQueue>,
    codels: Vec<Codel>,
    new_flows: VecDeque<u32>,
    old_flows: VecDeque<u32>,
    bytes: u64,
    len: usize,
}

/// One flow queue as CoDel sees it, keeping the totals in step.
struct View<'a> {
    q: &'a mut FlowQueue,
    bytes: &'a mut u64,
    len: &'a mut usize,
}

impl CodelQueue for View<'_> {
    fn take_head(&mut self) -> Option<Slot> {
        let s = self.q.slots.pop_front()?;
        self.q.bytes -= s.bytes as u64;
        *self.bytes -= s.bytes as u64;
        *self.len -= 1;
        Some(s)
    }

    fn bytes(&self) -> u64 {
        *self.bytes
    }
}

impl FqCodel {
    pub fn new(cfg: FqCodelConfig) -> FqCodel {
        let q = FlowQueue { slots: VecDeque::new(), bytes: 0, credit: 0, list: List::None };
        FqCodel {
            queues: vec![q; cfg.flows],
            codels: vec![Codel::new(cfg.codel); cfg.flows],
            new_flows: VecDeque::with_capacity(cfg.flows),
            old_flows: VecDeque::with_capacity(cfg.flows),
            bytes: 0,
            len: 0,
            cfg,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The queue of a flow key (flow id, IP source, IP destination).
    pub fn queue_of(&self, key: [u32; 3]) -> usize {
        // A fixed mix (SplitMix64's finaliser) of the three; Linux adds a random perturbation.
        let mut h = (key[0] as u64) << 32 ^ (key[1] as u64) << 16 ^ key[2] as u64;
        h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((h ^ (h >> 31)) % self.cfg.flows as u64) as usize
    }

    /// Section 4.1: enqueue; over `limit` packets, the head of the fattest queue is dropped.
    pub(super) fn enqueue(&mut self, s: Slot, key: [u32; 3], limit: usize) -> Option<Queued> {
        let i = self.queue_of(key);
        let q = &mut self.queues[i];
        q.slots.push_back(s);
        q.bytes += s.bytes as u64;
        self.bytes += s.bytes as u64;
        self.len += 1;
        if q.list == List::None {
            // A new flow: served before the old ones, with a full quantum.
            q.list = List::New;
            q.credit = self.cfg.quantum_bytes as i64;
            self.new_flows.push_back(i as u32);
        }
        if self.len <= limit {
            return None;
        }
        self.drop_from_fattest()
    }

    /// The head packet of the queue holding the most bytes, taken out (RFC 8290 4.1).
    pub(super) fn drop_from_fattest(&mut self) -> Option<Queued> {
        let fattest = self
            .new_flows
            .iter()
            .chain(self.old_flows.iter())
            .copied()
            .max_by_key(|&j| (self.queues[j as usize].bytes, std::cmp::Reverse(j)))?;
        let q = &mut self.queues[fattest as usize];
        let victim = q.slots.pop_front()?;
        q.bytes -= victim.bytes as u64;
        self.bytes -= victim.bytes as u64;
        self.len -= 1;
        Some(victim.item)
    }

    /// Section 4.2: the next packet by DRR over the new, then the old queues, each through
    /// its CoDel; packets CoDel drops go to `dropped`.
    pub(super) fn dequeue(
        &mut self,
        now_ns: u64,
        dropped: &mut Vec<Queued>,
    ) -> Option<(Slot, bool)> {
        loop {
            let (i, from_new) = match (self.new_flows.front(), self.old_flows.front()) {
                (Some(&i), _) => (i as usize, true),
                (None, Some(&i)) => (i as usize, false),
                (None, None) => return None,
            };
            let list = if from_new { &mut self.new_flows } else { &mut self.old_flows };
            if self.queues[i].credit <= 0 {
                // Its quantum is spent: a new quantum, to the end of the old queues.
                list.pop_front();
                self.queues[i].credit += self.cfg.quantum_bytes as i64;
                self.queues[i].list = List::Old;
                self.old_flows.push_back(i as u32);
                continue;
            }
            let mut view =
                View { q: &mut self.queues[i], bytes: &mut self.bytes, len: &mut self.len };
            match self.codels[i].dequeue(now_ns, &mut view, dropped) {
                Some((s, marked)) => {
                    self.queues[i].credit -= s.bytes as i64;
                    return Some((s, marked));
                }
                None => {
                    // Empty: a new queue goes to the end of the old ones (so that a flow
                    // cannot stay "new" by sending one packet at a time), an old one leaves.
                    list.pop_front();
                    if from_new {
                        self.queues[i].list = List::Old;
                        self.old_flows.push_back(i as u32);
                    } else {
                        self.queues[i].list = List::None;
                    }
                }
            }
        }
    }

    /// Take out every packet for `next_hop` (ns-2's queue filter after a link failure).
    pub(super) fn take_for(&mut self, next_hop: NodeId, out: &mut Vec<Queued>) {
        for &i in self.new_flows.iter().chain(self.old_flows.iter()) {
            let q = &mut self.queues[i as usize];
            let (mut bytes, mut n) = (0u64, 0usize);
            q.slots.retain(|s| {
                let take = s.item.next_hop == next_hop;
                if take {
                    out.push(s.item);
                    bytes += s.bytes as u64;
                    n += 1;
                }
                !take
            });
            q.bytes -= bytes;
            self.bytes -= bytes;
            self.len -= n;
        }
    }

    /// Bytes queued in flow `i` (tests).
    pub fn flow_bytes(&self, i: usize) -> u64 {
        self.queues[i].bytes
    }
}

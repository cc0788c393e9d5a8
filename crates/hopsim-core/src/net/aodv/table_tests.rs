//! AODV's route table against a reference kept in a BTreeMap (key order, as the table was
//! before it became a hash map): random route updates, uses, precursors, RERRs received,
//! link failures, HELLO checks and expiry, on both tables; every output must be the same,
//! in the same order, and so must the tables after each step.
use super::*;
use crate::engine::rng::{Purpose, Rng};
use std::collections::BTreeMap;

const MS: u64 = 1_000_000;
const TIMEOUT_NS: u64 = 10_000 * MS;
const HELLO_NS: u64 = 1_000 * MS;
const HELLO_LOSS: u32 = 2;

/// The reference: RFC 3561's table rules written plainly over a BTreeMap.
#[derive(Default)]
struct Reference {
    routes: BTreeMap<NodeId, Route>,
    heard: BTreeMap<NodeId, SimTime>,
    ns2: bool,
    /// ns2: the next 0.5 s purge tick not yet applied.
    next_purge: u64,
}

impl Reference {
    /// ns-2 `rt_purge` on every tick up to `now`: expired up routes go down, number + 1.
    fn purge(&mut self, now: u64) {
        if !self.ns2 || now < self.next_purge {
            return;
        }
        let tick = now / (500 * MS) * (500 * MS);
        for r in self.routes.values_mut() {
            if r.valid && r.expires_ns < tick {
                (r.valid, r.seq, r.last_hop_count) = (false, r.seq.wrapping_add(1), r.hops);
            }
        }
        self.next_purge = tick + 500 * MS;
    }

    fn update(
        &mut self,
        dst: NodeId,
        hop: NodeId,
        hops: u8,
        seq: Option<u32>,
        life: u64,
        now: u64,
    ) -> bool {
        let Some(r) = self.routes.get_mut(&dst) else {
            let route = Route {
                next_hop: hop,
                hops,
                seq: seq.unwrap_or(0),
                valid_seq: seq.is_some(),
                valid: true,
                repairing: false,
                last_hop_count: u8::MAX,
                expires_ns: now + life,
                precursors: vec![],
            };
            self.routes.insert(dst, route);
            return true;
        };
        let take = match seq {
            None => !r.valid || (!r.valid_seq && hops < r.hops),
            Some(s) if !r.valid_seq || newer(s, r.seq) => true,
            Some(s) => s == r.seq && (hops < r.hops || (!r.valid && !r.repairing)),
        };
        if take {
            (r.next_hop, r.hops, r.valid, r.repairing) = (hop, hops, true, false);
            if let Some(s) = seq {
                (r.seq, r.valid_seq) = (s, true);
            }
            if self.ns2 {
                r.expires_ns = now + life;
            }
        }
        if !self.ns2 && r.valid && r.next_hop == hop {
            r.expires_ns = r.expires_ns.max(now + life);
        }
        take
    }

    fn next_hop(&mut self, dst: NodeId, now: u64) -> Option<NodeId> {
        if self.ns2 {
            self.purge(now);
            let r = self.routes.get_mut(&dst).filter(|r| r.valid)?;
            r.expires_ns = now + TIMEOUT_NS;
            return Some(r.next_hop);
        }
        let r = self.routes.get_mut(&dst)?;
        if r.valid && r.expires_ns > now {
            r.expires_ns = r.expires_ns.max(now + TIMEOUT_NS);
            return Some(r.next_hop);
        }
        (r.valid, r.last_hop_count) = (false, r.hops);
        None
    }

    fn add_precursor(&mut self, dst: NodeId, p: NodeId) {
        if let Some(r) = self.routes.get_mut(&dst).filter(|r| !r.precursors.contains(&p)) {
            r.precursors.push(p);
        }
    }

    fn rerr(dst: NodeId, dst_seq: u32) -> AodvAction {
        AodvAction::Send { msg: AodvMsg::Rerr { dst, dst_seq }, to: NodeId::BROADCAST, delay_ns: 0 }
    }

    /// RERRs in destination order: the BTreeMap's own order.
    fn link_failed(&mut self, hop: NodeId, out: &mut Vec<AodvAction>) {
        for (&dst, r) in self.routes.iter_mut() {
            if r.valid && r.next_hop == hop {
                (r.valid, r.last_hop_count, r.seq) = (false, r.hops, r.seq.wrapping_add(1));
                if self.ns2 || !r.precursors.is_empty() {
                    out.push(Self::rerr(dst, r.seq));
                }
            }
            if self.ns2 {
                r.precursors.retain(|&p| p != hop);
            }
        }
    }

    fn receive_rerr(&mut self, dst: NodeId, seq: u32, from: NodeId, out: &mut Vec<AodvAction>) {
        let Some(r) = self.routes.get_mut(&dst) else { return };
        if !r.valid || r.next_hop != from || (self.ns2 && newer(r.seq, seq)) {
            return;
        }
        (r.valid, r.last_hop_count, r.seq) = (false, r.hops, seq);
        if self.ns2 {
            out.push(AodvAction::PurgeQueue { next_hop: from });
        }
        if !r.precursors.is_empty() {
            if self.ns2 {
                r.precursors.clear();
            }
            out.push(Self::rerr(dst, seq));
        }
    }

    /// The HELLO check: every next hop of a live route silent too long breaks, in hop order.
    fn hello(&mut self, me: NodeId, seq: u32, now: u64, out: &mut Vec<AodvAction>) {
        let limit = HELLO_LOSS as u64 * HELLO_NS;
        let live: Vec<NodeId> = self
            .routes
            .values()
            .filter(|r| r.valid && r.expires_ns > now)
            .map(|r| r.next_hop)
            .collect();
        if !live.is_empty() {
            let msg =
                AodvMsg::Rrep { dst: me, dst_seq: seq, orig: me, hops: 0, lifetime_ns: limit };
            out.push(AodvAction::Send { msg, to: NodeId::BROADCAST, delay_ns: 0 });
        }
        let silent: std::collections::BTreeSet<NodeId> = live
            .into_iter()
            .filter(|h| self.heard.get(h).is_some_and(|&t| now.saturating_sub(t) > limit))
            .collect();
        for hop in silent {
            self.link_failed(hop, out);
        }
    }
}

/// One random run of `steps` operations on a node and the reference; panics on a difference.
fn run(seed: u64, ns2: bool, steps: usize) -> usize {
    let mut rng = Rng::derive(seed, Purpose::Routing, ns2 as u64);
    let cfg = AodvConfig { ns2, ..AodvConfig::default() };
    let (me, nodes) = (NodeId(0), 40);
    let mut node = AodvNode::new(me, cfg);
    let mut reference = Reference { ns2, ..Reference::default() };
    let (mut out, mut expected) = (Vec::new(), Vec::new());
    let mut now = 0;
    let mut longest = 0; // the most RERRs one step produced
    for step in 0..steps {
        now += rng.up_to(400) as u64 * MS;
        let (dst, hop) = (NodeId(1 + rng.up_to(nodes - 1)), NodeId(1 + rng.up_to(7)));
        out.clear();
        expected.clear();
        match rng.up_to(10) {
            0..=3 => {
                let hops = 1 + rng.up_to(6) as u8;
                let seq = (rng.up_to(3) > 0).then(|| rng.up_to(6));
                let life = (1 + rng.up_to(20_000) as u64) * MS;
                let got = node.update(dst, hop, hops, seq, life, now);
                assert_eq!(got, reference.update(dst, hop, hops, seq, life, now), "step {step}");
            }
            4 => assert_eq!(node.next_hop(dst, now), reference.next_hop(dst, now), "step {step}"),
            5 => {
                node.add_precursor(dst, hop);
                reference.add_precursor(dst, hop);
            }
            6 => {
                node.link_failed(hop, &mut out);
                reference.link_failed(hop, &mut expected);
            }
            7 => {
                let seq = rng.up_to(8);
                node.receive(AodvMsg::Rerr { dst, dst_seq: seq }, hop, now, &mut out);
                reference.purge(now);
                reference.receive_rerr(dst, seq, hop, &mut expected);
            }
            8 => {
                node.heard(hop, now);
                reference.heard.insert(hop, now);
            }
            _ => {
                node.hello(now, HELLO_NS, HELLO_LOSS, &mut out);
                reference.hello(me, node.seq, now, &mut expected);
            }
        }
        assert_eq!(out, expected, "seed {seed} step {step}: outputs and their order");
        let table: BTreeMap<NodeId, Route> =
            node.routes.iter().map(|(&d, r)| (d, r.clone())).collect();
        assert_eq!(table, reference.routes, "seed {seed} step {step}: the tables");
        let rerrs =
            out.iter().filter(|a| matches!(a, AodvAction::Send { msg: AodvMsg::Rerr { .. }, .. }));
        longest = longest.max(rerrs.count());
    }
    longest
}

#[test]
fn the_hash_table_acts_as_the_ordered_table_did() {
    for ns2 in [false, true] {
        let longest = (0..20).map(|seed| run(seed, ns2, 2_000)).max().unwrap();
        // Several RERRs from one step: their order is tested, not just their set.
        assert!(longest >= 4, "ns2 {ns2}: at most {longest} RERRs per step");
    }
}

//! ETX routing (De Couto, Aguayo, Bicket, Morris, MobiCom 2003): every node broadcasts a
//! probe every `etx_probe_interval_s` (jittered by up to +-10%) during a warm-up; the
//! delivery ratio of the link a -> b is d(a, b) = probes b heard from a / probes a sent;
//! ETX(a, b) = 1 / (d(a, b) d(b, a)) (the data frame and its ACK must both get through);
//! a route's metric is the sum over its links. At the end of the warm-up the shortest ETX
//! paths are computed (Dijkstra) and frozen, as the testbed study froze its OLSR-ETX routes.
//!
//! The ratios are measured over the whole warm-up rather than a sliding 10 s window, and the
//! neighbours' counts are read directly instead of being carried back in the probes: the
//! routes are what the probes measured, without the protocol's bookkeeping.

use super::routing::StaticRoutes;
use crate::ids::NodeId;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// In a next-hop or hop-count table: unreachable (the encoding of `StaticRoutes`' tables).
const NONE: u32 = u32::MAX;

#[derive(Debug, Clone)]
pub struct EtxTable {
    n: usize,
    sent: Vec<u32>,
    /// heard[rx * n + tx]: probes `rx` received from `tx`.
    heard: Vec<u32>,
}

/// A measured link for the results: delivery ratios both ways and its ETX.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EtxLink {
    pub from: NodeId,
    pub to: NodeId,
    pub delivery: f64,
    pub reverse_delivery: f64,
    pub etx: f64,
}

#[derive(PartialEq)]
struct Item {
    cost: f64,
    hops: u32,
    node: NodeId,
}
impl Eq for Item {}
impl Ord for Item {
    fn cmp(&self, other: &Self) -> Ordering {
        // Min-heap on cost, then hops, then node id: deterministic ties.
        other
            .cost
            .total_cmp(&self.cost)
            .then(other.hops.cmp(&self.hops))
            .then(other.node.cmp(&self.node))
    }
}
impl PartialOrd for Item {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl EtxTable {
    pub fn new(n: usize) -> EtxTable {
        EtxTable { n, sent: vec![0; n], heard: vec![0; n * n] }
    }

    pub fn note_sent(&mut self, node: NodeId) {
        self.sent[node.index()] += 1;
    }

    pub fn note_heard(&mut self, rx: NodeId, tx: NodeId) {
        self.heard[rx.index() * self.n + tx.index()] += 1;
    }

    /// d(a, b): the share of a's probes that b received.
    pub fn delivery(&self, a: NodeId, b: NodeId) -> f64 {
        let sent = self.sent[a.index()];
        if sent == 0 {
            return 0.0;
        }
        (self.heard[b.index() * self.n + a.index()] as f64 / sent as f64).min(1.0)
    }

    /// ETX of the link a -> b, None if either direction delivered nothing.
    pub fn etx(&self, a: NodeId, b: NodeId) -> Option<f64> {
        let d = self.delivery(a, b) * self.delivery(b, a);
        (d > 0.0).then(|| 1.0 / d)
    }

    /// Every link with probes through in both directions.
    pub fn links(&self) -> Vec<EtxLink> {
        let mut out = Vec::new();
        for a in (0..self.n as u32).map(NodeId) {
            for b in (0..self.n as u32).map(NodeId) {
                if let (true, Some(etx)) = (a != b, self.etx(a, b)) {
                    out.push(EtxLink {
                        from: a,
                        to: b,
                        delivery: self.delivery(a, b),
                        reverse_delivery: self.delivery(b, a),
                        etx,
                    });
                }
            }
        }
        out
    }

    /// Shortest-ETX next hops towards `dst` from every node (Dijkstra from the destination
    /// over the reversed links), with hop counts and path costs.
    pub fn towards(&self, dst: NodeId) -> (Vec<u32>, Vec<u32>, Vec<f64>) {
        let n = self.n;
        let mut next = vec![NONE; n];
        let mut hops = vec![NONE; n];
        let mut cost = vec![f64::INFINITY; n];
        let mut done = vec![false; n];
        let mut heap = BinaryHeap::new();
        cost[dst.index()] = 0.0;
        hops[dst.index()] = 0;
        next[dst.index()] = dst.0;
        heap.push(Item { cost: 0.0, hops: 0, node: dst });
        while let Some(Item { cost: c, hops: h, node: v }) = heap.pop() {
            if done[v.index()] {
                continue;
            }
            done[v.index()] = true;
            for u in (0..n as u32).map(NodeId) {
                if u == v || done[u.index()] {
                    continue;
                }
                let Some(w) = self.etx(u, v) else { continue };
                let (cu, hu) = (c + w, h + 1);
                let better = cu < cost[u.index()] - 1e-12
                    || ((cu - cost[u.index()]).abs() <= 1e-12 && hu < hops[u.index()]);
                if better {
                    cost[u.index()] = cu;
                    hops[u.index()] = hu;
                    next[u.index()] = v.0;
                    heap.push(Item { cost: cu, hops: hu, node: u });
                }
            }
        }
        (next, hops, cost)
    }

    /// Frozen routes towards each destination in `destinations`.
    pub fn routes(&self, destinations: &[NodeId]) -> StaticRoutes {
        let tables: Vec<(NodeId, Vec<u32>, Vec<u32>)> = destinations
            .iter()
            .map(|&d| {
                let (next, hops, _) = self.towards(d);
                (d, next, hops)
            })
            .collect();
        StaticRoutes::from_tables(self.n, tables)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four nodes: 0-1-2 good links, 0-2 a lossy direct link, 3 isolated.
    fn table(direct: u32) -> EtxTable {
        let mut t = EtxTable::new(4);
        for _ in 0..10 {
            for node in 0..4 {
                t.note_sent(NodeId(node));
            }
        }
        for _ in 0..10 {
            for (a, b) in [(0, 1), (1, 0), (1, 2), (2, 1)] {
                t.note_heard(NodeId(b), NodeId(a));
            }
        }
        for _ in 0..direct {
            t.note_heard(NodeId(2), NodeId(0));
            t.note_heard(NodeId(0), NodeId(2));
        }
        t
    }

    #[test]
    fn etx_is_one_over_the_product_of_delivery_ratios() {
        let t = table(5);
        assert_eq!(t.delivery(NodeId(0), NodeId(1)), 1.0);
        assert_eq!(t.delivery(NodeId(0), NodeId(2)), 0.5);
        assert_eq!(t.etx(NodeId(0), NodeId(2)), Some(4.0));
        assert_eq!(t.etx(NodeId(0), NodeId(1)), Some(1.0));
        assert_eq!(t.etx(NodeId(0), NodeId(3)), None);
    }

    #[test]
    fn routes_avoid_a_lossy_direct_link_unless_it_is_good_enough() {
        // d = 0.5 both ways: ETX 4 > 2 via the relay -> two hops.
        let r = table(5).routes(&[NodeId(2)]);
        assert_eq!(r.next_hop(NodeId(0), NodeId(2)), Some(NodeId(1)));
        assert_eq!(r.hops(NodeId(0), NodeId(2)), Some(2));
        // d = 0.9 both ways: ETX 1.23 < 2 -> direct.
        let r = table(9).routes(&[NodeId(2)]);
        assert_eq!(r.next_hop(NodeId(0), NodeId(2)), Some(NodeId(2)));
        assert_eq!(r.next_hop(NodeId(3), NodeId(2)), None);
    }
}

//! The routing table (RFC 3626 section 10): symmetric neighbours at one hop, strict two-hop
//! neighbours at two, then the topology set, hop by hop from h = 2, each destination through
//! the first tuple found whose last hop is at the hop before it, the tuples in the order they
//! entered the set (as ns-3's `RoutingTableComputation` walks its topology set). Computed
//! when a route is asked for after the sets changed or a tuple expired (`routes.rs`).
//! Indexed by node id (ids are dense) and kept between computations, with the topology set
//! by last hop, so that steady state allocates nothing.

use super::msg::WILL_NEVER;
use crate::engine::time::SimTime;
use crate::ids::NodeId;

/// The topology tuples (section 4.4) of one last hop: the ANSN of its last TC and the
/// destinations it advertised, each with until when it holds and its place in the set's
/// order (a number from `OlsrNode`'s counter, given when the tuple is made). No
/// destinations: no tuples.
#[derive(Debug, Clone, Default)]
pub struct Advertised {
    pub ansn: u16,
    pub dests: Vec<Tuple>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tuple {
    pub dest: NodeId,
    pub until: SimTime,
    pub order: u64,
}

#[derive(Debug, Clone, Default)]
pub struct RouteTable {
    /// By destination id: (next hop, hops).
    routes: Vec<Option<(NodeId, u32)>>,
    /// The nodes at the current level and the next (scratch), and per destination id the
    /// earliest tuple's (order, next hop) at the current level.
    level: Vec<NodeId>,
    next_level: Vec<NodeId>,
    best: Vec<(u64, NodeId)>,
}

impl RouteTable {
    pub fn get(&self, dst: NodeId) -> Option<(NodeId, u32)> {
        self.routes.get(dst.index()).copied().flatten()
    }

    fn set(&mut self, dst: NodeId, route: (NodeId, u32)) {
        if dst.index() >= self.routes.len() {
            self.routes.resize(dst.index() + 1, None);
        }
        self.routes[dst.index()] = Some(route);
    }

    /// Section 10 from the symmetric neighbours with their willingness (in id order), the
    /// two-hop tuples (neighbour, node) and the topology set by last hop, of whose tuples
    /// only those holding at `now` count.
    pub fn compute(
        &mut self,
        me: NodeId,
        symmetric: &[(NodeId, u8)],
        two_hop: impl Iterator<Item = (NodeId, NodeId)>,
        topology: &[Advertised],
        now: SimTime,
    ) {
        self.routes.iter_mut().for_each(|r| *r = None);
        for &(n, _) in symmetric {
            self.set(n, (n, 1));
        }
        let willing = |via: NodeId| {
            let i = symmetric.binary_search_by_key(&via, |s| s.0);
            i.is_ok_and(|i| symmetric[i].1 != WILL_NEVER)
        };
        let (mut level, mut next_level) =
            (std::mem::take(&mut self.level), std::mem::take(&mut self.next_level));
        level.clear();
        for (via, z) in two_hop {
            if z != me && willing(via) && self.get(z).is_none() {
                self.set(z, (via, 2));
                level.push(z);
            }
        }
        // Step 3, level by level from h = 2: a destination not yet routed takes, of the
        // tuples whose last hop is at h, the one that comes first in the set's order (the
        // one section 10's loop over the whole set meets first).
        if self.best.len() < self.routes.len() {
            self.best.resize(self.routes.len(), (u64::MAX, NodeId(0)));
        }
        let mut h = 2;
        while !level.is_empty() {
            next_level.clear();
            for &last in &level {
                let (Some(adv), Some((next, _))) = (topology.get(last.index()), self.get(last))
                else {
                    continue;
                };
                for t in &adv.dests {
                    if t.dest == me || t.until < now || self.get(t.dest).is_some() {
                        continue;
                    }
                    if t.dest.index() >= self.best.len() {
                        self.best.resize(t.dest.index() + 1, (u64::MAX, NodeId(0)));
                    }
                    let b = &mut self.best[t.dest.index()];
                    if b.0 == u64::MAX {
                        next_level.push(t.dest);
                    }
                    if t.order < b.0 {
                        *b = (t.order, next);
                    }
                }
            }
            for &dest in &next_level {
                let (_, next) =
                    std::mem::replace(&mut self.best[dest.index()], (u64::MAX, NodeId(0)));
                self.set(dest, (next, h + 1));
            }
            std::mem::swap(&mut level, &mut next_level);
            h += 1;
        }
        (self.level, self.next_level) = (level, next_level);
    }
}

//! The routing table (RFC 3626 section 10): symmetric neighbours at one hop, strict two-hop
//! neighbours at two, then the topology set, hop by hop, each destination through the first
//! node found at the hop before it. Recomputed whenever the neighbourhood or the topology
//! changes (`OlsrNode::refresh`). Indexed by node id (ids are dense), kept between
//! computations so that steady state allocates nothing.

use std::collections::{BTreeMap, BTreeSet};

use super::msg::WILL_NEVER;
use crate::ids::NodeId;

#[derive(Debug, Clone, Default)]
pub struct RouteTable {
    /// By destination id: (next hop, hops).
    routes: Vec<Option<(NodeId, u32)>>,
}

impl RouteTable {
    pub fn next_hop(&self, dst: NodeId) -> Option<NodeId> {
        self.get(dst).map(|r| r.0)
    }

    pub fn get(&self, dst: NodeId) -> Option<(NodeId, u32)> {
        self.routes.get(dst.index()).copied().flatten()
    }

    fn set(&mut self, dst: NodeId, route: (NodeId, u32)) {
        if dst.index() >= self.routes.len() {
            self.routes.resize(dst.index() + 1, None);
        }
        self.routes[dst.index()] = Some(route);
    }

    /// Section 10 from the symmetric neighbours (with willingness), the two-hop tuples
    /// (neighbour, node) and the topology tuples (destination, last hop).
    pub fn compute(
        &mut self,
        me: NodeId,
        symmetric: &BTreeMap<NodeId, u8>,
        two_hop: &BTreeSet<(NodeId, NodeId)>,
        topology: &[(NodeId, NodeId)],
    ) {
        self.routes.iter_mut().for_each(|r| *r = None);
        for &n in symmetric.keys() {
            self.set(n, (n, 1));
        }
        for &(via, z) in two_hop {
            let willing = symmetric.get(&via).is_some_and(|w| *w != WILL_NEVER);
            if z != me && willing && self.get(z).is_none() {
                self.set(z, (via, 2));
            }
        }
        let mut h = 2;
        loop {
            let mut added = false;
            for &(dest, last) in topology {
                if dest == me || self.get(dest).is_some() {
                    continue;
                }
                if let Some((next, hops)) = self.get(last) {
                    if hops == h {
                        self.set(dest, (next, h + 1));
                        added = true;
                    }
                }
            }
            if !added {
                break;
            }
            h += 1;
        }
    }
}

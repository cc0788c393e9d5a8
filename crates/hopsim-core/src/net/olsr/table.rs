//! The routing table (RFC 3626 section 10): symmetric neighbours at one hop, strict two-hop
//! neighbours at two, then the topology set, hop by hop from h = 2, each destination through
//! the first node found at the hop before it (breadth first: the order nodes were reached,
//! neighbours and two-hop tuples in id order). Recomputed whenever the neighbourhood or the
//! topology changes (`OlsrNode::refresh`). Indexed by node id (ids are dense) and kept
//! between computations, with the topology set by last hop, so that steady state allocates
//! nothing.

use super::msg::WILL_NEVER;
use crate::engine::time::SimTime;
use crate::ids::NodeId;

/// The topology tuples (section 4.4) of one last hop: the ANSN of its last TC and the
/// destinations it advertised, each until when it holds. No destinations: no tuples.
#[derive(Debug, Clone, Default)]
pub struct Advertised {
    pub ansn: u16,
    pub dests: Vec<(NodeId, SimTime)>,
}

#[derive(Debug, Clone, Default)]
pub struct RouteTable {
    /// By destination id: (next hop, hops).
    routes: Vec<Option<(NodeId, u32)>>,
    /// Nodes in the order they were reached (scratch).
    reached: Vec<NodeId>,
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
        self.reached.push(dst);
    }

    /// Section 10 from the symmetric neighbours with their willingness (in id order), the
    /// two-hop tuples (neighbour, node) and the topology set by last hop.
    pub fn compute(
        &mut self,
        me: NodeId,
        symmetric: &[(NodeId, u8)],
        two_hop: impl Iterator<Item = (NodeId, NodeId)>,
        topology: &[Advertised],
    ) {
        self.routes.iter_mut().for_each(|r| *r = None);
        self.reached.clear();
        for &(n, _) in symmetric {
            self.set(n, (n, 1));
        }
        let willing = |via: NodeId| {
            let i = symmetric.binary_search_by_key(&via, |s| s.0);
            i.is_ok_and(|i| symmetric[i].1 != WILL_NEVER)
        };
        for (via, z) in two_hop {
            if z != me && willing(via) && self.get(z).is_none() {
                self.set(z, (via, 2));
            }
        }
        // Step 3: destinations advertised by a node at h hops are at h + 1, from h = 2.
        let mut i = 0;
        while let Some(&last) = self.reached.get(i) {
            i += 1;
            let Some((next, h)) = self.get(last).filter(|r| r.1 >= 2) else { continue };
            let Some(adv) = topology.get(last.index()) else { continue };
            for &(dest, _) in &adv.dests {
                if dest != me && self.get(dest).is_none() {
                    self.set(dest, (next, h + 1));
                }
            }
        }
    }
}

//! Static routing: shortest paths by hop count over the decode-range graph, computed once by
//! breadth-first search from each destination that traffic uses.

use crate::ids::NodeId;
use crate::phy::channel::Channel;
use std::collections::VecDeque;

/// In a table: no route (the node cannot reach the destination). Tables keep plain node
/// numbers (4 bytes a node, where `Option<NodeId>` would take 8).
const NONE: u32 = u32::MAX;

#[derive(Debug, Clone)]
pub struct StaticRoutes {
    /// For each node, the index of its table in `tables`, or NONE.
    table_of: Vec<u32>,
    /// Per destination: next hop and hop count for every node (NONE if unreachable).
    tables: Vec<(Vec<u32>, Vec<u32>)>,
}

impl StaticRoutes {
    /// Routes towards each node in `destinations`.
    pub fn build(channel: &Channel, destinations: &[NodeId]) -> StaticRoutes {
        let n = channel.node_count();
        let mut table_of = vec![NONE; n];
        let mut tables = Vec::new();
        for &d in destinations {
            if table_of[d.index()] != NONE {
                continue;
            }
            table_of[d.index()] = tables.len() as u32;
            tables.push(bfs_towards(channel, d));
        }
        StaticRoutes { table_of, tables }
    }

    /// Routes from precomputed tables: (destination, next hops, hop counts) for `n` nodes.
    pub fn from_tables(n: usize, tables: Vec<(NodeId, Vec<u32>, Vec<u32>)>) -> StaticRoutes {
        let mut table_of = vec![NONE; n];
        let mut out = Vec::with_capacity(tables.len());
        for (dst, next, hops) in tables {
            if table_of[dst.index()] == NONE {
                table_of[dst.index()] = out.len() as u32;
                out.push((next, hops));
            }
        }
        StaticRoutes { table_of, tables: out }
    }

    /// The node sequence from `src` to `dst` along the routes, if there is one.
    pub fn path(&self, src: NodeId, dst: NodeId) -> Option<Vec<NodeId>> {
        let mut path = vec![src];
        let mut at = src;
        while at != dst {
            at = self.next_hop(at, dst)?;
            path.push(at);
            if path.len() > self.table_of.len() + 1 {
                return None; // cannot happen with shortest-path tables; never loop
            }
        }
        Some(path)
    }

    fn table(&self, dst: NodeId) -> Option<&(Vec<u32>, Vec<u32>)> {
        let t = *self.table_of.get(dst.index())?;
        (t != NONE).then(|| &self.tables[t as usize])
    }

    /// Next hop from `node` towards `dst`, if `dst` is reachable.
    pub fn next_hop(&self, node: NodeId, dst: NodeId) -> Option<NodeId> {
        let hop = self.table(dst)?.0[node.index()];
        (hop != NONE).then_some(NodeId(hop))
    }

    /// Hop count of the route from `node` to `dst`.
    pub fn hops(&self, node: NodeId, dst: NodeId) -> Option<u32> {
        let h = self.table(dst)?.1[node.index()];
        (h != NONE).then_some(h)
    }
}

/// Hop counts between single pairs, as `StaticRoutes::build`'s tables give them, without the
/// tables: breadth-first search from the destination that stops when it reaches the source.
/// For protocols that find their routes while they run, which need at build time only the
/// connectivity of each flow and its hop count (reported per flow).
#[derive(Debug, Clone)]
pub struct HopCounter {
    /// Per node, the search that last reached it (`search`: the current one).
    reached_in: Vec<u32>,
    search: u32,
    /// (node, hops from the destination), reused between searches.
    queue: VecDeque<(NodeId, u32)>,
}

impl HopCounter {
    pub fn new(node_count: usize) -> HopCounter {
        HopCounter { reached_in: vec![0; node_count], search: 0, queue: VecDeque::new() }
    }

    /// `StaticRoutes::build(channel, &[dst]).hops(src, dst)`: the same search, stopped early.
    pub fn hops(&mut self, channel: &Channel, src: NodeId, dst: NodeId) -> Option<u32> {
        if src == dst {
            return Some(0);
        }
        self.search = self.search.wrapping_add(1);
        if self.search == 0 {
            // Wrapped: marks of 4 billion searches ago would look current.
            self.reached_in.fill(0);
            self.search = 1;
        }
        self.queue.clear();
        self.reached_in[dst.index()] = self.search;
        self.queue.push_back((dst, 0));
        while let Some((v, hops)) = self.queue.pop_front() {
            for u in channel.decode_neighbours(v) {
                if self.reached_in[u.index()] != self.search {
                    // BFS reaches a node first by a shortest path: its count is final.
                    if u == src {
                        return Some(hops + 1);
                    }
                    self.reached_in[u.index()] = self.search;
                    self.queue.push_back((u, hops + 1));
                }
            }
        }
        None
    }
}

/// BFS from `dst` over symmetric decode links; a node's next hop is the neighbour that
/// discovered it (neighbours are visited in node-id order, so ties break deterministically).
fn bfs_towards(channel: &Channel, dst: NodeId) -> (Vec<u32>, Vec<u32>) {
    let n = channel.node_count();
    let mut next = vec![NONE; n];
    let mut hops = vec![NONE; n];
    let mut queue = VecDeque::with_capacity(n);
    hops[dst.index()] = 0;
    next[dst.index()] = dst.0;
    queue.push_back(dst);
    while let Some(v) = queue.pop_front() {
        for u in channel.decode_neighbours(v) {
            if hops[u.index()] == NONE {
                hops[u.index()] = hops[v.index()] + 1;
                next[u.index()] = v.0;
                queue.push_back(u);
            }
        }
    }
    (next, hops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::links::LinkModel;

    fn channel(pos: &[[f64; 2]]) -> Channel {
        let radio = crate::phy::config::Radio::default();
        Channel::build(pos, &LinkModel::new(&radio, 1, Default::default()))
    }

    #[test]
    fn chain_routes_hop_by_hop() {
        let pos: Vec<[f64; 2]> = (0..8).map(|i| [i as f64 * 200.0, 0.0]).collect();
        let r = StaticRoutes::build(&channel(&pos), &[NodeId(7), NodeId(0)]);
        assert_eq!(r.next_hop(NodeId(0), NodeId(7)), Some(NodeId(1)));
        assert_eq!(r.next_hop(NodeId(6), NodeId(7)), Some(NodeId(7)));
        assert_eq!(r.hops(NodeId(0), NodeId(7)), Some(7));
        assert_eq!(r.next_hop(NodeId(7), NodeId(0)), Some(NodeId(6)));
        assert_eq!(r.next_hop(NodeId(0), NodeId(3)), None, "no table built for 3");
    }

    #[test]
    fn hop_counter_agrees_with_the_full_tables() {
        use crate::engine::rng::{Purpose, Rng};
        let mut rng = Rng::derive(7, Purpose::Topology, 0);
        let (mut found, mut missing) = (0, 0);
        for _ in 0..8 {
            // Sparse enough for several components and long paths.
            let pos: Vec<[f64; 2]> =
                (0..60).map(|_| [rng.uniform() * 2500.0, rng.uniform() * 1500.0]).collect();
            let ch = channel(&pos);
            let all: Vec<NodeId> = (0..60).map(NodeId).collect();
            let tables = StaticRoutes::build(&ch, &all);
            // One counter for every pair: searches must not see each other's marks.
            let mut counter = HopCounter::new(60);
            for src in 0..60 {
                for dst in 0..60 {
                    let h = counter.hops(&ch, NodeId(src), NodeId(dst));
                    assert_eq!(h, tables.hops(NodeId(src), NodeId(dst)), "{src} -> {dst}");
                    if h.is_some() {
                        found += 1;
                    } else {
                        missing += 1;
                    }
                }
            }
        }
        assert!(found > 1000 && missing > 1000, "both answers tested: {found} {missing}");
    }

    #[test]
    fn shortcut_is_taken_and_partition_detected() {
        // 0 - 1 - 2 with 0 and 2 240 m apart: direct; node 3 far away.
        let pos = [[0.0, 0.0], [120.0, 10.0], [240.0, 0.0], [5000.0, 0.0]];
        let r = StaticRoutes::build(&channel(&pos), &[NodeId(2), NodeId(3)]);
        assert_eq!(r.next_hop(NodeId(0), NodeId(2)), Some(NodeId(2)));
        assert_eq!(r.hops(NodeId(0), NodeId(2)), Some(1));
        assert_eq!(r.next_hop(NodeId(0), NodeId(3)), None);
    }
}

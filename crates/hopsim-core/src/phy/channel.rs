//! Who hears whom: for each transmitter, the listeners above the carrier-sense threshold with
//! their received power and propagation delay, precomputed once for a static topology so that
//! a frame on the air costs no distance work.

use super::links::{Link, LinkModel};
use crate::ids::NodeId;
use crate::phy::propagation::distance_m;

#[derive(Debug, Clone)]
pub struct Channel {
    /// Per transmitter, its listeners sorted by node id.
    links: Vec<Vec<Link>>,
    max_delay_ns: u64,
}

impl Channel {
    pub fn build(positions: &[[f64; 2]], model: &LinkModel) -> Channel {
        Self::build_capped(positions, model, usize::MAX).expect("no cap")
    }

    /// As [`Channel::build`], giving up (with the count reached) past `max_links` links.
    pub fn build_capped(
        positions: &[[f64; 2]],
        model: &LinkModel,
        max_links: usize,
    ) -> Result<Channel, usize> {
        let n = positions.len();
        let mut links = vec![Vec::new(); n];
        let mut max_delay_ns = 0;
        let mut count = 0usize;
        for (i, list) in links.iter_mut().enumerate() {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let d = distance_m(positions[i], positions[j]);
                if let Some(link) = model.link(NodeId(i as u32), NodeId(j as u32), d) {
                    max_delay_ns = max_delay_ns.max(link.delay_ns);
                    list.push(link);
                    count += 1;
                    if count > max_links {
                        return Err(count);
                    }
                }
            }
        }
        Ok(Channel { links, max_delay_ns })
    }

    pub fn listeners(&self, tx: NodeId) -> &[Link] {
        &self.links[tx.index()]
    }

    /// Lend `tx`'s listener list out (no copy), to be given back with [`Channel::put_back`]:
    /// a frame's start and end walk it while the listeners' state changes.
    pub fn lend(&mut self, tx: NodeId) -> Vec<Link> {
        std::mem::take(&mut self.links[tx.index()])
    }

    pub fn put_back(&mut self, tx: NodeId, links: Vec<Link>) {
        debug_assert!(self.links[tx.index()].is_empty(), "listeners of {tx} lent twice");
        self.links[tx.index()] = links;
    }

    pub fn node_count(&self) -> usize {
        self.links.len()
    }

    /// Largest propagation delay between any two nodes that hear each other.
    pub fn max_delay_ns(&self) -> u64 {
        self.max_delay_ns
    }

    /// Is `listener` within decode range of `tx`? (Binary search of the sorted neighbour list.)
    pub fn decodable(&self, tx: NodeId, listener: NodeId) -> bool {
        let links = &self.links[tx.index()];
        links.binary_search_by_key(&listener, |l| l.listener).is_ok_and(|i| links[i].decodable)
    }

    /// Neighbours within decode range (the graph static routing works on).
    pub fn decode_neighbours(&self, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.links[node.index()].iter().filter(|l| l.decodable).map(|l| l.listener)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::propagation::delay_ns;

    #[test]
    fn chain_neighbourhoods_at_200m() {
        let radio = crate::phy::config::Radio::default();
        let pos: Vec<[f64; 2]> = (0..5).map(|i| [i as f64 * 200.0, 0.0]).collect();
        let ch = Channel::build(&pos, &LinkModel::new(&radio, 1, Default::default()));
        // Node 2 decodes 1 and 3 (200 m), senses 0 and 4 (400 m < 550 m).
        let l: Vec<(u32, bool)> =
            ch.listeners(NodeId(2)).iter().map(|l| (l.listener.0, l.decodable)).collect();
        assert_eq!(l, vec![(0, false), (1, true), (3, true), (4, false)]);
        assert_eq!(ch.decode_neighbours(NodeId(0)).collect::<Vec<_>>(), vec![NodeId(1)]);
        assert_eq!(ch.max_delay_ns(), delay_ns(400.0));
    }
}

//! DSR source routes: the node sequence a packet follows, carried in its header.

use crate::ids::NodeId;

/// Longest source route, in hops (ns-2 MAX_SR_LEN).
pub const MAX_HOPS: usize = 16;

/// A route's nodes are kept in 16 bits (scenarios hold far fewer nodes; the header's
/// size on the air is counted at 4 bytes a node, `option_bytes`).
fn pack(n: NodeId) -> u16 {
    debug_assert!(n.0 <= u32::from(u16::MAX), "node {n} in a source route");
    n.0 as u16
}

fn unpack(x: u16) -> NodeId {
    NodeId(u32::from(x))
}

/// A source route: the nodes from the originator to the target, both included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SrcRoute {
    nodes: [u16; MAX_HOPS + 1],
    len: u8,
}

impl SrcRoute {
    pub fn new(first: NodeId) -> SrcRoute {
        let mut nodes = [0; MAX_HOPS + 1];
        nodes[0] = pack(first);
        SrcRoute { nodes, len: 1 }
    }

    pub fn from_slice(path: &[NodeId]) -> Option<SrcRoute> {
        if path.is_empty() || path.len() > MAX_HOPS + 1 {
            return None;
        }
        let mut r = SrcRoute::new(path[0]);
        for &n in &path[1..] {
            r.push(n)?;
        }
        Some(r)
    }

    pub fn nodes(&self) -> impl DoubleEndedIterator<Item = NodeId> + '_ {
        self.nodes[..self.len as usize].iter().map(|&n| unpack(n))
    }

    pub fn get(&self, i: usize) -> Option<NodeId> {
        (i < self.len as usize).then(|| unpack(self.nodes[i]))
    }

    /// Number of nodes (hops + 1).
    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn hops(&self) -> usize {
        self.len as usize - 1
    }

    pub fn last(&self) -> NodeId {
        unpack(self.nodes[self.len as usize - 1])
    }

    pub fn push(&mut self, n: NodeId) -> Option<()> {
        if self.len as usize > MAX_HOPS {
            return None;
        }
        self.nodes[self.len as usize] = pack(n);
        self.len += 1;
        Some(())
    }

    pub fn position(&self, n: NodeId) -> Option<usize> {
        self.nodes[..self.len as usize].iter().position(|&x| unpack(x) == n)
    }

    /// Does a node appear twice? (Without allocating: a cache learns on every packet heard.)
    pub fn has_loop(&self) -> bool {
        let nodes = &self.nodes[..self.len as usize];
        (1..nodes.len()).any(|i| nodes[..i].contains(&nodes[i]))
    }

    /// Is `prefix` this route's beginning (or the whole of it)?
    pub fn starts_with(&self, prefix: &SrcRoute) -> bool {
        let n = prefix.len as usize;
        self.len >= prefix.len && self.nodes[..n] == prefix.nodes[..n]
    }

    /// The route reversed.
    pub fn reversed(&self) -> SrcRoute {
        let mut r = *self;
        r.nodes[..self.len as usize].reverse();
        r
    }

    /// Nodes `from..=to` (by position).
    pub fn slice(&self, from: usize, to: usize) -> SrcRoute {
        let mut r = SrcRoute::new(unpack(self.nodes[from]));
        for i in from + 1..=to {
            r.nodes[r.len as usize] = self.nodes[i];
            r.len += 1;
        }
        r
    }

    pub(super) fn has_directed_link(&self, a: NodeId, b: NodeId) -> Option<usize> {
        (1..self.len as usize)
            .find(|&i| (unpack(self.nodes[i - 1]), unpack(self.nodes[i])) == (a, b))
    }

    pub(super) fn has_link(&self, a: NodeId, b: NodeId) -> Option<usize> {
        (1..self.len as usize).find(|&i| {
            let (x, y) = (unpack(self.nodes[i - 1]), unpack(self.nodes[i]));
            (x, y) == (a, b) || (x, y) == (b, a)
        })
    }

    /// Header bytes of a DSR source route option (RFC 4728 6.7: 4 + 4 per address).
    pub fn option_bytes(&self) -> u32 {
        4 + 4 * self.len as u32
    }
}

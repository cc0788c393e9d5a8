//! DSR source routes: the node sequence a packet follows, carried in its header.

/// Longest source route, in hops (ns-2 MAX_SR_LEN).
pub const MAX_HOPS: usize = 16;

/// A source route: the nodes from the originator to the target, both included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SrcRoute {
    nodes: [u16; MAX_HOPS + 1],
    len: u8,
}

impl SrcRoute {
    pub fn new(first: u32) -> SrcRoute {
        let mut nodes = [0; MAX_HOPS + 1];
        nodes[0] = first as u16;
        SrcRoute { nodes, len: 1 }
    }

    pub fn from_slice(path: &[u32]) -> Option<SrcRoute> {
        if path.is_empty() || path.len() > MAX_HOPS + 1 {
            return None;
        }
        let mut r = SrcRoute::new(path[0]);
        for &n in &path[1..] {
            r.push(n)?;
        }
        Some(r)
    }

    pub fn nodes(&self) -> impl DoubleEndedIterator<Item = u32> + '_ {
        self.nodes[..self.len as usize].iter().map(|&n| n as u32)
    }

    pub fn get(&self, i: usize) -> Option<u32> {
        (i < self.len as usize).then(|| self.nodes[i] as u32)
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

    pub fn last(&self) -> u32 {
        self.nodes[self.len as usize - 1] as u32
    }

    pub fn push(&mut self, n: u32) -> Option<()> {
        if self.len as usize > MAX_HOPS {
            return None;
        }
        self.nodes[self.len as usize] = n as u16;
        self.len += 1;
        Some(())
    }

    pub fn position(&self, n: u32) -> Option<usize> {
        self.nodes[..self.len as usize].iter().position(|&x| x as u32 == n)
    }

    /// The route reversed.
    pub fn reversed(&self) -> SrcRoute {
        let mut r = *self;
        r.nodes[..self.len as usize].reverse();
        r
    }

    /// Nodes `from..=to` (by position).
    pub fn slice(&self, from: usize, to: usize) -> SrcRoute {
        let mut r = SrcRoute::new(self.nodes[from] as u32);
        for i in from + 1..=to {
            r.nodes[r.len as usize] = self.nodes[i];
            r.len += 1;
        }
        r
    }

    pub(super) fn has_directed_link(&self, a: u32, b: u32) -> Option<usize> {
        (1..self.len as usize).find(|&i| (self.nodes[i - 1] as u32, self.nodes[i] as u32) == (a, b))
    }

    pub(super) fn has_link(&self, a: u32, b: u32) -> Option<usize> {
        (1..self.len as usize).find(|&i| {
            let (x, y) = (self.nodes[i - 1] as u32, self.nodes[i] as u32);
            (x, y) == (a, b) || (x, y) == (b, a)
        })
    }

    /// Header bytes of a DSR source route option (RFC 4728 6.7: 4 + 4 per address).
    pub fn option_bytes(&self) -> u32 {
        4 + 4 * self.len as u32
    }
}

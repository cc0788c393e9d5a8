//! The forwarding information of one mesh STA (IEEE 802.11-2012 13.10.8.3): per destination
//! next hop, metric, hop count, the destination's HWMP sequence number, lifetime and the
//! precursors to tell in a PERR. Indexed by node id (ids are dense), as `olsr/table.rs`.

use crate::engine::time::SimTime;
use crate::ids::NodeId;

/// Node ids at or above this are ignored (a bad message cannot make the table huge).
pub const MAX_NODES: usize = 1 << 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path {
    pub next_hop: NodeId,
    pub metric: u32,
    pub hops: u8,
    pub seq: u32,
    /// The destination's sequence number is known (not for a path learned from a neighbour's
    /// transmission only).
    pub seq_known: bool,
    /// Not invalidated by a link failure or a PERR.
    pub valid: bool,
    pub expires_ns: SimTime,
    /// When a PREQ, PREP or RANN last set this path (path refresh counts from here).
    pub set_ns: SimTime,
    /// Neighbours that reach the destination through this node.
    pub precursors: Vec<NodeId>,
}

impl Path {
    pub fn active(&self, now: SimTime) -> bool {
        self.valid && self.expires_ns > now
    }

    pub fn add_precursor(&mut self, p: NodeId) {
        if !self.precursors.contains(&p) {
            self.precursors.push(p);
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct PathTable {
    paths: Vec<Option<Path>>,
}

impl PathTable {
    pub fn get(&self, dst: NodeId) -> Option<&Path> {
        self.paths.get(dst.index()).and_then(Option::as_ref)
    }

    pub fn get_mut(&mut self, dst: NodeId) -> Option<&mut Path> {
        self.paths.get_mut(dst.index()).and_then(Option::as_mut)
    }

    /// The active path to `dst`.
    pub fn active(&self, dst: NodeId, now: SimTime) -> Option<&Path> {
        self.get(dst).filter(|p| p.active(now))
    }

    /// Store `path` for `dst`; false (nothing stored) for an id out of range.
    pub fn insert(&mut self, dst: NodeId, path: Path) -> bool {
        let i = dst.index();
        if i >= MAX_NODES {
            return false;
        }
        if i >= self.paths.len() {
            self.paths.resize(i + 1, None);
        }
        self.paths[i] = Some(path);
        true
    }

    /// Every entry with its destination, in id order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (NodeId, &mut Path)> {
        self.paths
            .iter_mut()
            .enumerate()
            .filter_map(|(i, p)| p.as_mut().map(|p| (NodeId(i as u32), p)))
    }
}

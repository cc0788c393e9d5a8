//! The ids every layer shares, as types of their own: they are handles, not numbers. They
//! live below every layer so that a lower layer can carry a higher one's handle (the MAC
//! holds the packet it sends by id) without importing that layer.

/// A packet in the world's arena (`net/packet.rs`); each hop's copy has its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct PacketId(u32);

impl PacketId {
    /// The packet in slot `index` of the arena (only the arena makes them).
    pub(crate) fn from_index(index: u32) -> PacketId {
        PacketId(index)
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A node: its place in the world's node table, and its address at every layer (the MAC
/// address and the IP address are the same number, as in ns-2). Frames and routing floods
/// to every neighbour go to [`NodeId::BROADCAST`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The address of every neighbour (802.11's all-ones receiver address; ns-2's
    /// `IP_BROADCAST`).
    pub const BROADCAST: NodeId = NodeId(u32::MAX);

    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn is_broadcast(self) -> bool {
        self == NodeId::BROADCAST
    }
}

impl std::fmt::Display for NodeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// A flow: its place in the world's flow table. Packets of no flow (routing control) carry
/// [`FlowId::NONE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct FlowId(pub u32);

impl FlowId {
    /// The flow of packets that belong to none (routing control, ETX probes).
    pub const NONE: FlowId = FlowId(u32::MAX);

    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn is_none(self) -> bool {
        self == FlowId::NONE
    }
}

impl std::fmt::Display for FlowId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Tests: the nodes numbered `ids`, in order.
#[cfg(test)]
pub(crate) fn node_ids(ids: &[u32]) -> Vec<NodeId> {
    ids.iter().map(|&i| NodeId(i)).collect()
}

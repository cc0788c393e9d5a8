//! The ids and positions every layer shares, as types of their own: a packet, a node, a
//! flow, a TCP sequence number are not numbers to add or mix up (each has its one sentinel,
//! named). They live below every layer so that a lower layer can carry a higher one's handle
//! (the MAC holds the packet it sends by id) without importing that layer. The plain number
//! appears only where it is written out: scenario files, the result document, trace columns
//! and the wire image.

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

/// A TCP sequence number, counted in segments as ns-2's agents count (the wire image
/// multiplies by the MSS): a *position* in a flow's data, where windows, flight sizes and
/// counts are *amounts* (`u32`). A position plus an amount is a position (`seq + n`); two
/// positions give the amount between them (`later - earlier`). Segments are numbered from
/// [`SeqNo::ZERO`] and no flow comes near 2^32 of them, so the model never wraps: ordering is
/// plain integer order, not RFC 1982 serial arithmetic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct SeqNo(u32);

impl SeqNo {
    /// A flow's first segment.
    pub const ZERO: SeqNo = SeqNo(0);
    /// Beyond every segment a flow reaches: a bound no acknowledgment passes (the one
    /// sentinel; Vegas' tests hold a measurement period open with it).
    pub const MAX: SeqNo = SeqNo(u32::MAX);

    /// The number itself, for the wire image, traces and indexing.
    pub fn get(self) -> u32 {
        self.0
    }

    /// The segments from `self` up to `end`, excluding it (none if `end <= self`).
    pub fn until(self, end: SeqNo) -> impl Iterator<Item = SeqNo> {
        (self.0..end.0).map(SeqNo)
    }

    /// The segments from `earlier` up to `self`, 0 if `earlier` is not earlier (where the
    /// model allows either order, e.g. a receiver past the window it last advertised).
    pub fn saturating_sub(self, earlier: SeqNo) -> u32 {
        self.0.saturating_sub(earlier.0)
    }
}

/// Advance by `n` segments.
impl std::ops::Add<u32> for SeqNo {
    type Output = SeqNo;
    fn add(self, n: u32) -> SeqNo {
        SeqNo(self.0 + n)
    }
}

impl std::ops::AddAssign<u32> for SeqNo {
    fn add_assign(&mut self, n: u32) {
        *self = *self + n;
    }
}

/// The segments from `earlier` up to `self`. A later minus an earlier position only: the
/// reverse is a bug, caught in debug builds.
impl std::ops::Sub for SeqNo {
    type Output = u32;
    fn sub(self, earlier: SeqNo) -> u32 {
        debug_assert!(earlier <= self, "segment distance {self} - {earlier} is negative");
        self.0 - earlier.0
    }
}

impl std::fmt::Display for SeqNo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod seq_tests {
    use super::SeqNo;

    fn s(n: u32) -> SeqNo {
        SeqNo::ZERO + n
    }

    #[test]
    fn orders_as_integers_and_advances_by_amounts() {
        assert!(s(3) < s(4) && s(4) > SeqNo::ZERO && SeqNo::MAX > s(u32::MAX - 1));
        let mut q = s(7);
        q += 2;
        assert_eq!((q, q.get(), s(1) + 0), (s(9), 9, s(1)));
        assert_eq!(q.to_string(), "9");
    }

    #[test]
    fn distance_between_positions() {
        assert_eq!(s(10) - s(4), 6);
        assert_eq!(s(4) - s(4), 0);
        assert_eq!((s(4).saturating_sub(s(10)), s(10).saturating_sub(s(4))), (0, 6));
        assert_eq!(s(2).until(s(5)).collect::<Vec<_>>(), [s(2), s(3), s(4)]);
        assert_eq!(s(5).until(s(2)).count(), 0);
    }

    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "is negative")]
    fn a_negative_distance_panics_in_debug_builds() {
        let _ = s(4) - s(10);
    }
}

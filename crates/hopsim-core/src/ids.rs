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

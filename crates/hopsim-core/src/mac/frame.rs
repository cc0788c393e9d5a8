//! MAC frames as they travel on the air.

use super::timing::Rate;
use crate::net::packet::PacketId;
use crate::time::SimDuration;

/// Receiver address of broadcast frames.
pub const BROADCAST: u32 = u32::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameKind {
    Rts,
    Cts,
    Data,
    Ack,
}

#[derive(Debug, Clone, Copy)]
pub struct Frame {
    pub kind: FrameKind,
    /// Transmitter address.
    pub src: u32,
    /// Receiver address ([`BROADCAST`] for broadcast data).
    pub dst: u32,
    /// Duration field (NAV) in nanoseconds.
    pub nav_ns: SimDuration,
    /// MPDU length in bytes (MAC header and FCS included).
    pub bytes: u32,
    pub rate: Rate,
    pub airtime_ns: SimDuration,
    /// Sequence number (data frames) and Retry bit, for duplicate detection.
    pub seq: u16,
    pub retry: bool,
    pub packet: Option<PacketId>,
}

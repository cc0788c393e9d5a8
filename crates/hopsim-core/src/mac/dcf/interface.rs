//! What a MAC exchanges with the layers around it: the outputs it pushes, the notes it makes
//! for the event trace, its timer kinds, and the context it is called with.

use crate::engine::sched::TimerSink;
use crate::engine::time::SimTime;
use crate::ids::{NodeId, PacketId};
use crate::mac::edca::Ac;
use crate::mac::frame::Frame;

/// What the MAC asks of the layers around it.
#[derive(Debug, Clone, Copy)]
pub enum MacOutput {
    /// Start transmitting this frame now; `response` frames (CTS, ACK, DATA after CTS) go out
    /// SIFS after a reception regardless of carrier sense, the others won the contention.
    Transmit { frame: Frame, response: bool },
    /// A data packet arrived for this node (from transmitter `from`); not a duplicate.
    /// `copied`: `packet` is already this node's own copy (handed over by the world for a
    /// reordering buffer), not the transmitter's.
    Received { packet: PacketId, from: NodeId, copied: bool },
    /// This node's copy of a packet is not passed up: a duplicate the reordering buffer
    /// refused, or (`lost`) an MSDU that came after the buffer had given its gap up.
    Discard { packet: PacketId, lost: bool },
    /// The medium is won for an A-MPDU or an A-MSDU to `next_hop`: add the queued packets for
    /// it that fit (`Dcf::aggregate_wants`, `Dcf::add_msdu`), then `Dcf::send_aggregate`.
    Fill { next_hop: NodeId, ac: Ac },
    /// A data frame for another node was decoded here (the promiscuous tap, reported only
    /// when `set_tap` turned it on: ns-2.35's DSR, mac-802_11.cc `recv_timer` → `tap`).
    Overheard { packet: PacketId, from: NodeId },
    /// The packet in service is finished: acknowledged (or broadcast) or dropped at the
    /// retry limit (`acked == false`: the link to `next_hop` failed). `service_ns`: from the
    /// head of the queue to the end of the exchange (the per-packet transmission delay).
    Done { packet: PacketId, next_hop: NodeId, acked: bool, service_ns: SimTime },
    /// For the event trace only (when `report_notes` is on): what the MAC decided.
    Note(MacNote),
}

/// What the MAC reports to the event trace.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MacNote {
    /// A backoff of `slots` slots drawn from a window of `cw`.
    Backoff { slots: u32, cw: u32 },
    /// The NAV (or ns-2's EIFS as a NAV) now lasts until `until`.
    Nav { until: SimTime },
}

/// The MAC's timers (802.11 9.2): its access deadline (DIFS/EIFS and backoff), the CTS or
/// ACK timeout, and the SIFS before a response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MacTimer {
    Access,
    Timeout,
    Sifs,
    /// NAVTimeout after an overheard RTS (dcf/nav_reset.rs).
    NavReset,
    /// A reordering buffer's release timeout (dcf/agg/recv.rs).
    Reorder,
}

/// A MAC's output tagged with its node. Laid out as written (`repr(C)`): the output, then the
/// node, so that an output built in place is copied into the buffer by aligned moves (with the
/// node first, the copy re-read a just-written frame across two stores: a store-forwarding
/// stall on every transmission).
#[derive(Debug, Clone, Copy)]
#[repr(C)]
pub struct Tagged {
    pub output: MacOutput,
    pub node: NodeId,
}

pub struct MacCtx<'a> {
    pub now: SimTime,
    pub timers: &'a mut dyn TimerSink<MacTimer, NodeId>,
    /// Outputs tagged with the node that produced them.
    pub out: &'a mut Vec<Tagged>,
}

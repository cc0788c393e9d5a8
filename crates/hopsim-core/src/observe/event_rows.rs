//! The event trace as the layers report to it: rows built from the packets and frames they
//! handle (`events.rs` has the row and its file). Every method returns at once when the trace
//! is off; the work of building a row is kept out of line.

use super::events::{EventKind, EventTrace, FrameTag, Layer, PacketTag, Reason, Row, NONE};
use crate::engine::time::SimTime;
use crate::ids::NodeId;
use crate::mac::dcf::MacNote;
use crate::mac::frame::{Frame, FrameKind};
use crate::net::packet::{Packet, PacketArena, PacketId};
use crate::net::router::{Control, DropReason};
use crate::phy::radio::FrameRef;

/// The run's event trace, if one is streamed.
#[derive(Default)]
pub struct Trace {
    file: Option<EventTrace>,
}

/// A forked run streams no trace (`World::fork` refuses a run whose trace is on).
impl Clone for Trace {
    fn clone(&self) -> Self {
        Trace { file: None }
    }
}

impl Trace {
    pub fn attach(&mut self, file: EventTrace) {
        self.file = Some(file);
    }

    /// The trace's file, taken out to be closed.
    pub fn take(&mut self) -> Option<EventTrace> {
        self.file.take()
    }

    /// Is the event trace on?
    #[inline]
    pub fn on(&self) -> bool {
        self.file.is_some()
    }

    pub fn row(&mut self, row: &Row) {
        if let Some(t) = self.file.as_mut() {
            t.write(row);
        }
    }

    /// A row about packet `p` at `node`.
    #[inline]
    pub fn packet(
        &mut self,
        now: SimTime,
        node: NodeId,
        what: (Layer, EventKind),
        p: &Packet,
        reason: Option<Reason>,
        peer: NodeId,
    ) {
        if self.on() {
            self.packet_cold(now, node, what, p, reason, Some(peer));
        }
    }

    #[cold]
    #[inline(never)]
    fn packet_cold(
        &mut self,
        now: SimTime,
        node: NodeId,
        what: (Layer, EventKind),
        p: &Packet,
        reason: Option<Reason>,
        peer: Option<NodeId>,
    ) {
        let mut r = packet_row(now, node, what, p);
        (r.reason, r.peer) = (reason, peer.map_or(NONE, |n| n.0));
        self.row(&r);
    }

    /// The same for a packet in the arena.
    #[inline]
    pub fn id(
        &mut self,
        packets: &PacketArena,
        (now, node): (SimTime, NodeId),
        what: (Layer, EventKind),
        packet: PacketId,
        reason: Option<Reason>,
    ) {
        if self.on() {
            self.packet_cold(now, node, what, packets.get(packet), reason, None);
        }
    }

    /// A row about a packet entering (`Enqueue`) or leaving (`Dequeue`) an interface queue
    /// that then holds `queued` packets, for `next_hop`.
    #[cold]
    #[inline(never)]
    pub fn queue(
        &mut self,
        (now, node): (SimTime, NodeId),
        event: EventKind,
        p: &Packet,
        hop_len: (NodeId, usize),
    ) {
        let mut r = packet_row(now, node, (Layer::Ifq, event), p);
        (r.peer, r.value) = (hop_len.0 .0, hop_len.1 as f64);
        self.row(&r);
    }

    /// A row about a frame on the air at `node` (its transmitter or a listener); `packets`
    /// holds the packet a DATA frame carries.
    #[inline]
    pub fn air(
        &mut self,
        packets: &PacketArena,
        (now, node): (SimTime, NodeId),
        event: EventKind,
        (frame, fref): (&Frame, FrameRef),
        reason: Option<Reason>,
    ) {
        if self.on() {
            self.air_cold(packets, (now, node), event, (frame, fref), reason);
        }
    }

    #[cold]
    #[inline(never)]
    fn air_cold(
        &mut self,
        packets: &PacketArena,
        (now, node): (SimTime, NodeId),
        event: EventKind,
        (frame, fref): (&Frame, FrameRef),
        reason: Option<Reason>,
    ) {
        let mut r = Row::new(now, node, Layer::Phy, event);
        r.frame = (u64::from(fref.tx.0) << 32) | fref.serial as u64;
        r.frame_kind = Some(match frame.kind {
            FrameKind::Rts => FrameTag::Rts,
            FrameKind::Cts => FrameTag::Cts,
            FrameKind::Data => FrameTag::Data,
            FrameKind::Ack => FrameTag::Ack,
            FrameKind::BlockAckReq => FrameTag::BlockAckReq,
            FrameKind::BlockAck => FrameTag::BlockAck,
            FrameKind::AddbaRequest | FrameKind::AddbaResponse => FrameTag::Action,
        });
        if let (FrameKind::Data, Some(id)) = (frame.kind, frame.packet) {
            let p = packets.get(id);
            r.packet = p.uid as u64;
            r.packet_kind = Some(packet_tag(p));
            (r.src, r.dst, r.ttl) = (p.src.0, p.dst.0, p.ttl as u32);
            if !p.flow.is_none() {
                r.flow = p.flow.0;
            }
        }
        r.peer = if event == EventKind::FrameStart || event == EventKind::FrameEnd {
            frame.dst.0
        } else {
            frame.src.0
        };
        r.reason = reason;
        r.bytes = frame.bytes;
        r.value = frame.rate.mbps();
        self.row(&r);
    }

    /// Routing at `node` sent a control message in `packet`.
    #[inline]
    pub fn control(&mut self, (now, node): (SimTime, NodeId), msg: Control, p: &Packet) {
        if self.on() {
            self.control_cold(now, node, msg, p);
        }
    }

    #[cold]
    #[inline(never)]
    fn control_cold(&mut self, now: SimTime, node: NodeId, msg: Control, p: &Packet) {
        use crate::net::aodv::AodvMsg;
        use crate::net::dsr::DsrMsg;
        use crate::net::hwmp::msg::HwmpKind;
        let event = match msg {
            Control::Aodv(AodvMsg::Rreq { .. }) | Control::Dsr(DsrMsg::Rreq { .. }) => {
                EventKind::RouteRequest
            }
            // A HELLO is a broadcast RREP about the sender (RFC 3561 6.9); replies are unicast.
            Control::Aodv(AodvMsg::Rrep { .. }) if p.dst == NodeId::BROADCAST => {
                EventKind::RouteBeacon
            }
            Control::Aodv(AodvMsg::Rrep { .. }) | Control::Dsr(DsrMsg::Rrep { .. }) => {
                EventKind::RouteReply
            }
            Control::Aodv(AodvMsg::Rerr { .. }) | Control::Dsr(DsrMsg::Rerr { .. }) => {
                EventKind::RouteError
            }
            // OLSR's HELLOs and TCs are periodic announcements, as is HWMP's RANN.
            Control::Olsr(_) => EventKind::RouteBeacon,
            Control::Hwmp(r) => match r.kind {
                HwmpKind::Preq => EventKind::RouteRequest,
                HwmpKind::Prep => EventKind::RouteReply,
                HwmpKind::Perr => EventKind::RouteError,
                HwmpKind::Rann => EventKind::RouteBeacon,
            },
        };
        self.packet_cold(now, node, (Layer::Net, event), p, None, Some(p.dst));
    }

    /// What the MAC of `node` decided (backoff, NAV).
    #[cold]
    pub fn mac_note(&mut self, now: SimTime, node: NodeId, note: MacNote) {
        let r = match note {
            MacNote::Backoff { slots, cw } => {
                let mut r = Row::new(now, node, Layer::Mac, EventKind::Backoff);
                (r.value, r.seq) = (slots as f64, cw);
                r
            }
            MacNote::Nav { until } => {
                let mut r = Row::new(now, node, Layer::Mac, EventKind::Nav);
                r.value = until as f64 / 1e9;
                r
            }
        };
        self.row(&r);
    }
}

/// A row about packet `p`: its id, kind, flow, sequence number (TCP: the segment, or the
/// ACK's next expected segment) and IP length.
pub fn packet_row(
    now: SimTime,
    node: NodeId,
    (layer, event): (Layer, EventKind),
    p: &Packet,
) -> Row {
    let mut r = Row::new(now, node, layer, event);
    r.packet = p.uid as u64;
    r.packet_kind = Some(packet_tag(p));
    (r.src, r.dst, r.ttl) = (p.src.0, p.dst.0, p.ttl as u32);
    if !p.flow.is_none() {
        r.flow = p.flow.0;
        r.seq = p.tcp.map_or(p.seq, |h| if h.is_ack { h.ack.get() } else { h.seg.get() });
    }
    r.bytes = p.ip_bytes();
    r
}

fn packet_tag(p: &Packet) -> PacketTag {
    match (p.tcp, p.routing_msg, p.etx_probe) {
        (Some(h), ..) if h.is_ack => PacketTag::Ack,
        (Some(_), ..) => PacketTag::Tcp,
        (_, Some(Control::Aodv(_)), _) => PacketTag::Aodv,
        (_, Some(Control::Dsr(_)), _) => PacketTag::Dsr,
        (.., true) => PacketTag::Etx,
        (_, Some(Control::Olsr(_)), _) => PacketTag::Olsr,
        (_, Some(Control::Hwmp(_)), _) => PacketTag::Hwmp,
        _ => PacketTag::Udp,
    }
}

/// The trace's reason for a routing drop.
pub fn drop_reason(r: DropReason) -> Reason {
    match r {
        DropReason::NoRoute => Reason::NoRoute,
        DropReason::BadSourceRoute => Reason::BadSourceRoute,
    }
}

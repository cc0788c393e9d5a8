//! What the world reports to the event trace (`observe/events.rs`): rows built from the
//! frames and packets it handles. Every method returns at once when the trace is off.

use super::World;
use crate::engine::time::SimTime;
use crate::mac::dcf::MacNote;
use crate::mac::frame::BROADCAST;
use crate::mac::frame::{Frame, FrameKind};
use crate::net::packet::{Packet, PacketId, NO_FLOW};
use crate::net::router::{Control, DropReason};
use crate::observe::events::{EventKind, FrameTag, Layer, PacketTag, Reason, Row, NONE};
use crate::phy::radio::FrameRef;

impl World {
    /// Is the event trace on?
    #[inline]
    pub(super) fn tracing(&self) -> bool {
        self.events.is_some()
    }

    pub(super) fn trace_row(&mut self, row: &Row) {
        if let Some(t) = self.events.as_mut() {
            t.write(row);
        }
    }

    /// A row about packet `p` at `node`.
    #[inline]
    pub(super) fn trace_packet(
        &mut self,
        now: SimTime,
        node: u32,
        what: (Layer, EventKind),
        p: &Packet,
        reason: Option<Reason>,
        peer: u32,
    ) {
        if self.tracing() {
            self.trace_packet_cold(now, node, what, p, reason, peer);
        }
    }

    #[cold]
    #[inline(never)]
    fn trace_packet_cold(
        &mut self,
        now: SimTime,
        node: u32,
        (layer, event): (Layer, EventKind),
        p: &Packet,
        reason: Option<Reason>,
        peer: u32,
    ) {
        let mut r = packet_row(now, node, (layer, event), p);
        r.reason = reason;
        r.peer = peer;
        self.trace_row(&r);
    }

    /// The same for a packet in the arena.
    #[inline]
    pub(super) fn trace_id(
        &mut self,
        now: SimTime,
        node: u32,
        layer: Layer,
        event: EventKind,
        packet: PacketId,
        reason: Option<Reason>,
    ) {
        if self.tracing() {
            self.trace_id_cold(now, node, layer, event, packet, reason);
        }
    }

    #[cold]
    #[inline(never)]
    fn trace_id_cold(
        &mut self,
        now: SimTime,
        node: u32,
        layer: Layer,
        event: EventKind,
        packet: PacketId,
        reason: Option<Reason>,
    ) {
        let p = *self.packets.get(packet);
        self.trace_packet_cold(now, node, (layer, event), &p, reason, NONE);
    }

    /// A row about a frame on the air at `node` (its transmitter or a listener).
    #[inline]
    pub(super) fn trace_air(
        &mut self,
        now: SimTime,
        node: u32,
        event: EventKind,
        frame: &Frame,
        fref: FrameRef,
        reason: Option<Reason>,
    ) {
        if self.tracing() {
            self.trace_air_cold(now, node, event, frame, fref, reason);
        }
    }

    #[cold]
    #[inline(never)]
    fn trace_air_cold(
        &mut self,
        now: SimTime,
        node: u32,
        event: EventKind,
        frame: &Frame,
        fref: FrameRef,
        reason: Option<Reason>,
    ) {
        let mut r = Row::new(now, node, Layer::Phy, event);
        r.frame = frame_id(fref);
        r.frame_kind = Some(match frame.kind {
            FrameKind::Rts => FrameTag::Rts,
            FrameKind::Cts => FrameTag::Cts,
            FrameKind::Data => FrameTag::Data,
            FrameKind::Ack => FrameTag::Ack,
        });
        if let (FrameKind::Data, Some(id)) = (frame.kind, frame.packet) {
            let p = self.packets.get(id);
            r.packet = p.uid as u64;
            r.packet_kind = Some(packet_tag(p));
            (r.src, r.dst, r.ttl) = (p.src, p.dst, p.ttl as u32);
            if p.flow != NO_FLOW {
                r.flow = p.flow;
            }
        }
        r.peer = if event == EventKind::FrameStart || event == EventKind::FrameEnd {
            frame.dst
        } else {
            frame.src
        };
        r.reason = reason;
        r.bytes = frame.bytes;
        r.value = frame.rate.0 as f64 / 10.0;
        self.trace_row(&r);
    }

    /// Routing sent a control message.
    #[inline]
    pub(super) fn trace_control(
        &mut self,
        now: SimTime,
        node: u32,
        msg: Control,
        packet: PacketId,
    ) {
        if self.tracing() {
            self.trace_control_cold(now, node, msg, packet);
        }
    }

    #[cold]
    #[inline(never)]
    fn trace_control_cold(&mut self, now: SimTime, node: u32, msg: Control, packet: PacketId) {
        use crate::net::aodv::AodvMsg;
        use crate::net::dsr::DsrMsg;
        let event = match msg {
            Control::Aodv(AodvMsg::Rreq { .. }) | Control::Dsr(DsrMsg::Rreq { .. }) => {
                EventKind::RouteRequest
            }
            // A HELLO is a broadcast RREP about the sender (RFC 3561 6.9); replies are unicast.
            Control::Aodv(AodvMsg::Rrep { .. }) if self.packets.get(packet).dst == BROADCAST => {
                EventKind::RouteBeacon
            }
            Control::Aodv(AodvMsg::Rrep { .. }) | Control::Dsr(DsrMsg::Rrep { .. }) => {
                EventKind::RouteReply
            }
            Control::Aodv(AodvMsg::Rerr { .. }) | Control::Dsr(DsrMsg::Rerr { .. }) => {
                EventKind::RouteError
            }
        };
        let p = *self.packets.get(packet);
        self.trace_packet_cold(now, node, (Layer::Net, event), &p, None, p.dst);
    }

    /// What the MAC of `node` decided (backoff, NAV).
    #[cold]
    pub(super) fn trace_mac_note(&mut self, now: SimTime, node: u32, note: MacNote) {
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
        self.trace_row(&r);
    }

    /// Number a packet entering the network (its id in the trace).
    pub(super) fn number(&mut self, p: &mut Packet) {
        self.next_uid = self.next_uid.wrapping_add(1).max(1);
        p.uid = self.next_uid;
    }
}

/// A row about packet `p`: its id, kind, flow, sequence number (TCP: the segment, or the
/// ACK's next expected segment) and IP length.
pub(super) fn packet_row(
    now: SimTime,
    node: u32,
    (layer, event): (Layer, EventKind),
    p: &Packet,
) -> Row {
    let mut r = Row::new(now, node, layer, event);
    r.packet = p.uid as u64;
    r.packet_kind = Some(packet_tag(p));
    (r.src, r.dst, r.ttl) = (p.src, p.dst, p.ttl as u32);
    if p.flow != NO_FLOW {
        r.flow = p.flow;
        r.seq = p.tcp.map_or(p.seq, |h| if h.is_ack { h.ack } else { h.seg });
    }
    r.bytes = p.ip_bytes();
    r
}

/// A frame's id: its transmitter and that node's frame counter, one number.
fn frame_id(f: FrameRef) -> u64 {
    ((f.tx as u64) << 32) | f.serial as u64
}

fn packet_tag(p: &Packet) -> PacketTag {
    match (p.tcp, p.aodv, p.dsr, p.etx_probe) {
        (Some(h), ..) if h.is_ack => PacketTag::Ack,
        (Some(_), ..) => PacketTag::Tcp,
        (_, Some(_), ..) => PacketTag::Aodv,
        (_, _, Some(_), _) => PacketTag::Dsr,
        (.., true) => PacketTag::Etx,
        _ => PacketTag::Udp,
    }
}

/// The trace's reason for a routing drop.
pub(super) fn drop_reason(r: DropReason) -> Reason {
    match r {
        DropReason::NoRoute => Reason::NoRoute,
        DropReason::BadSourceRoute => Reason::BadSourceRoute,
    }
}

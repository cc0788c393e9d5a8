//! A packet as the pcap traces show it: the IP header and the transport header inside, with
//! byte sequence numbers (segment * MSS + 1, as after a SYN with ISN 0), the ports of the
//! flow and its advertised window; routing control with its real message where it has one.

use super::writer::PcapTracer;
use super::{TraceFrame, TraceIp, TraceKind, TraceMcs, TraceTcp, TraceTransport};
use crate::ids::NodeId;
use crate::ids::PacketId;
use crate::mac::frame::{Frame, FrameKind};
use crate::net::aodv::AodvMsg;
use crate::net::hwmp::msg::HwmpMsg;
use crate::net::olsr::OlsrStore;
use crate::net::packet::{Packet, PacketArena, SeqNo};
use crate::net::router::Control;
use crate::net::store::MessageStore;
use crate::observe::trace::pcap::node_ipv4;
use crate::transport::flow::{FlowApp, FlowState};

/// Well-known port of every flow's receiver; senders use 49152 + flow id.
const RECEIVER_PORT: u16 = 5001;
const TCP_ACK: u8 = 0x10;
const TCP_PSH: u8 = 0x08;
const TCP_SYN: u8 = 0x02;
/// RFC 3168 section 6.1: ECN-Echo and Congestion Window Reduced.
const TCP_ECE: u8 = 0x40;
const TCP_CWR: u8 = 0x80;

/// What a frame's packets are read from: the packets, the flows, the HWMP elements and the
/// OLSR messages.
pub type Shared<'a> = (&'a PacketArena, &'a [FlowState], &'a MessageStore<HwmpMsg>, &'a OlsrStore);

impl PcapTracer {
    /// A frame `node` sent or received at `time_ns` (a DATA frame's packet in `packets`).
    #[cold]
    #[inline(never)]
    pub fn frame_of(&mut self, shared: Shared<'_>, node: NodeId, time_ns: u64, frame: &Frame) {
        if !self.traces_frames() {
            return;
        }
        self.record_frame(shared, node, time_ns, frame, None);
    }

    /// An A-MPDU `node` sent or received at `time_ns`: one record per MPDU (its sequence number
    /// and packet in `mpdus`; at a receiver only those whose bit is set in `decoded`), each with
    /// the radiotap A-MPDU status of reference `reference` (the last subframe flagged).
    #[cold]
    #[inline(never)]
    pub fn ampdu_of(
        &mut self,
        shared: Shared<'_>,
        (node, time_ns): (NodeId, u64),
        frame: &Frame,
        (mpdus, decoded, reference): (&[(u16, PacketId)], u64, u32),
    ) {
        if !self.traces_frames() {
            return;
        }
        let last = mpdus.len().saturating_sub(1);
        for (i, &(seq, packet)) in mpdus.iter().enumerate() {
            if decoded & (1 << i) != 0 {
                let mpdu = Frame { seq, packet: Some(packet), ..*frame };
                let status = Some((reference, i == last));
                self.record_frame(shared, node, time_ns, &mpdu, status);
            }
        }
    }

    fn record_frame(
        &mut self,
        (packets, flows, hwmp, olsr): Shared<'_>,
        node: NodeId,
        time_ns: u64,
        frame: &Frame,
        ampdu: Option<(u32, bool)>,
    ) {
        let packet = match (frame.kind, frame.packet) {
            (FrameKind::Data, Some(p)) => Some(packets.get(p)),
            _ => None,
        };
        // An HWMP element travels in a Mesh action frame, not as an IP packet; an OLSR
        // packet's messages are its UDP payload.
        let mut body = std::mem::take(&mut self.body);
        body.clear();
        let element = packet.and_then(|p| hwmp.get(p.hwmp()?.id));
        if let Some(msg) = element {
            super::mesh_action::hwmp_action_body(&mut body, msg);
        } else if let Some(r) = packet.and_then(|p| p.olsr()) {
            if let Some(messages) = olsr.get(r) {
                super::olsr_packet::olsr_packet(&mut body, r.id, messages);
            }
        }
        let ip = packet.filter(|_| element.is_none()).map(|p| ip_image(p, flows));
        // An A-MSDU: every packet of the chain (mac/amsdu.rs).
        let mut amsdu = std::mem::take(&mut self.amsdu);
        amsdu.clear();
        if let (FrameKind::Data, Some(first)) = (frame.kind, frame.packet) {
            if packets.next_msdu(first).is_some() {
                let mut next = Some(first);
                while let Some(p) = next {
                    amsdu.push(ip_image(packets.get(p), flows));
                    next = packets.next_msdu(p);
                }
            }
        }
        let mcs = frame.rate.mcs_mode().map(|m| TraceMcs {
            vht: m.is_vht(),
            index: m.index(),
            streams: m.streams() as u8,
            width_mhz: m.width_mhz() as u16,
            short_gi: m.short_gi(),
        });
        let record = TraceFrame {
            time_ns,
            kind: match frame.kind {
                FrameKind::Rts => TraceKind::Rts,
                FrameKind::Cts => TraceKind::Cts,
                FrameKind::Data if element.is_some() => TraceKind::MeshAction,
                FrameKind::Data => TraceKind::Data,
                FrameKind::Ack => TraceKind::Ack,
                FrameKind::BlockAckReq => TraceKind::BlockAckReq,
                FrameKind::BlockAck => TraceKind::BlockAck,
                FrameKind::AddbaRequest => TraceKind::AddbaRequest,
                FrameKind::AddbaResponse => TraceKind::AddbaResponse,
            },
            ra: frame.dst,
            ta: frame.src,
            duration_us: (frame.nav_ns / 1000).min(32_767) as u16,
            seq: frame.seq,
            retry: frame.retry,
            rate_500kbps: if mcs.is_some() { 0 } else { (frame.rate.0 / 5) as u8 },
            mcs,
            qos: self.qos(),
            bitmap: frame.bitmap,
            ampdu,
            channel_mhz: self.channel_mhz(),
            ip,
        };
        self.frame(node, &record, &amsdu, &body);
        self.amsdu = amsdu;
        self.body = body;
    }

    /// An endpoint of a flow at `node` sends or receives an IP packet.
    pub fn ip_packet_of(&mut self, flows: &[FlowState], node: NodeId, time_ns: u64, p: &Packet) {
        if !self.traces_ip() {
            return;
        }
        let ip = ip_image(p, flows);
        self.ip_packet(p.flow, node, time_ns, &ip);
    }
}

/// The IP packet `p` as on the wire.
pub fn ip_image(p: &Packet, flows: &[FlowState]) -> TraceIp {
    if p.flow.is_none() {
        // Routing control: AODV on UDP port 654 with its real message (RFC 3561 section 5);
        // OLSR on 698 (RFC 3626 section 3.1; the frame's record writes its packet); DSR
        // options travel on a port no dissector claims, payload zeroed.
        let (head, head_len) = p.aodv().map_or(([0; 24], 0), |m| aodv_bytes(&m));
        let port = match p.routing_msg {
            Some(Control::Aodv(_)) => 654,
            Some(Control::Olsr(_)) => 698,
            _ => 65048,
        };
        return TraceIp {
            src_node: p.src,
            dst_node: p.dst,
            ttl: p.ttl,
            tos: p.ecn as u8,
            ident: p.ident,
            transport: TraceTransport::Udp { src_port: port, dst_port: port },
            payload_len: p.payload_bytes,
            head,
            head_len,
        };
    }
    let flow = &flows[p.flow.index()];
    let sender_port = 49152u16.wrapping_add(p.flow.0 as u16);
    let forward = p.src == flow.src;
    let (src_port, dst_port) =
        if forward { (sender_port, RECEIVER_PORT) } else { (RECEIVER_PORT, sender_port) };
    let transport = match (&flow.app, p.tcp) {
        (FlowApp::Tcp(t), Some(h)) => {
            // Byte offset of the start of segment `s` (the last one may be short), ISN 0: the
            // SYN, when the agent sends one, is sequence number 0 and data start at 1.
            let first = t.first_data();
            let byte = |s: SeqNo| -> u32 {
                if s < first {
                    return 0;
                }
                let s = s - first;
                let full = s.min(t.total_segments.unwrap_or(u32::MAX));
                let mut b = full as u64 * t.mss as u64;
                if t.total_segments.is_some_and(|n| s >= n) {
                    b = b - t.mss as u64 + t.last_segment_bytes as u64;
                }
                1u32.wrapping_add(b as u32)
            };
            let advertised = match (h.is_ack, t.spec.rwnd_autotuning) {
                (true, true) => h.window,
                _ => t.spec.receiver_window,
            };
            let window = advertised.saturating_mul(t.mss);
            let mut tcp = TraceTcp { src_port, dst_port, window, ts: h.ts, ..TraceTcp::default() };
            if h.is_ack {
                tcp.seq = 1;
                tcp.ack = byte(h.ack);
                tcp.flags = TCP_ACK;
                tcp.sack_len = h.sack_len;
                for i in 0..h.sack_len as usize {
                    tcp.sack[i] = (byte(h.sack[i].0), byte(h.sack[i].1));
                }
            } else {
                tcp.seq = byte(h.seg);
                tcp.ack = 1;
                tcp.flags = TCP_ACK | TCP_PSH;
            }
            if h.syn {
                (tcp.ack, tcp.flags) = (0, TCP_SYN);
            }
            if h.ece {
                tcp.flags |= TCP_ECE;
            }
            if h.cwr {
                tcp.flags |= TCP_CWR;
            }
            TraceTransport::Tcp(tcp)
        }
        _ => TraceTransport::Udp { src_port, dst_port },
    };
    TraceIp {
        src_node: p.src,
        dst_node: p.dst,
        ttl: p.ttl,
        tos: p.ecn as u8,
        ident: p.ident,
        transport,
        payload_len: p.payload_bytes,
        head: [0; 24],
        head_len: 0,
    }
}

/// An AODV message as on the wire (RFC 3561 section 5): RREQ 24 B, RREP 20 B, RERR with one
/// unreachable destination 12 B.
fn aodv_bytes(m: &AodvMsg) -> ([u8; 24], u8) {
    let mut b = [0u8; 24];
    let put = |b: &mut [u8; 24], at: usize, v: u32| b[at..at + 4].copy_from_slice(&v.to_be_bytes());
    let addr = |n: NodeId| u32::from_be_bytes(node_ipv4(n));
    match *m {
        AodvMsg::Rreq { id, dst, dst_seq, unknown_seq, orig, orig_seq, hops, .. } => {
            b[0] = 1;
            b[1] = if unknown_seq { 0x08 } else { 0 }; // U flag
            b[3] = hops;
            put(&mut b, 4, id);
            put(&mut b, 8, addr(dst));
            put(&mut b, 12, dst_seq);
            put(&mut b, 16, addr(orig));
            put(&mut b, 20, orig_seq);
            (b, 24)
        }
        AodvMsg::Rrep { dst, dst_seq, orig, hops, lifetime_ns } => {
            b[0] = 2;
            b[3] = hops;
            put(&mut b, 4, addr(dst));
            put(&mut b, 8, dst_seq);
            put(&mut b, 12, addr(orig));
            put(&mut b, 16, (lifetime_ns / 1_000_000).min(u32::MAX as u64) as u32);
            (b, 20)
        }
        AodvMsg::Rerr { dst, dst_seq } => {
            b[0] = 3;
            b[3] = 1; // DestCount
            put(&mut b, 4, addr(dst));
            put(&mut b, 8, dst_seq);
            (b, 12)
        }
    }
}

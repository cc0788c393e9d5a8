//! What the world shows to the pcap tracer: frames as the MAC sent and received them, and the
//! IP packets inside, with byte sequence numbers (segment * MSS + 1, as after a SYN with ISN 0).

use super::{FlowApp, World};
use crate::mac::frame::{Frame, FrameKind};
use crate::net::packet::Packet;
use crate::time::SimTime;
use crate::trace::{TraceFrame, TraceIp, TraceKind, TraceTcp, TraceTransport};

/// Well-known port of every flow's receiver; senders use 49152 + flow id.
const RECEIVER_PORT: u16 = 5001;
const TCP_ACK: u8 = 0x10;
const TCP_PSH: u8 = 0x08;

impl World {
    pub(super) fn trace_frame(&mut self, node: u32, time_ns: SimTime, frame: &Frame) {
        let Some(tracer) = self.tracer.as_ref() else {
            return;
        };
        if !tracer.traces_frames() {
            return;
        }
        let ip = match (frame.kind, frame.packet) {
            (FrameKind::Data, Some(p)) => Some(self.trace_ip(self.packets.get(p))),
            _ => None,
        };
        let record = TraceFrame {
            time_ns,
            kind: match frame.kind {
                FrameKind::Rts => TraceKind::Rts,
                FrameKind::Cts => TraceKind::Cts,
                FrameKind::Data => TraceKind::Data,
                FrameKind::Ack => TraceKind::Ack,
            },
            ra: frame.dst,
            ta: frame.src,
            duration_us: (frame.nav_ns / 1000).min(32_767) as u16,
            seq: frame.seq,
            retry: frame.retry,
            rate_500kbps: (frame.rate.0 / 5) as u8,
            ip,
        };
        if let Some(t) = self.tracer.as_mut() {
            t.frame(node, &record);
        }
    }

    /// An endpoint of a flow sends or receives an IP packet.
    pub(super) fn trace_ip_packet(&mut self, node: u32, time_ns: SimTime, p: &Packet) {
        let Some(tracer) = self.tracer.as_ref() else {
            return;
        };
        if !tracer.traces_ip() {
            return;
        }
        let ip = self.trace_ip(p);
        if let Some(t) = self.tracer.as_mut() {
            t.ip_packet(p.flow, node, time_ns, &ip);
        }
    }

    fn trace_ip(&self, p: &Packet) -> TraceIp {
        if p.flow == crate::net::packet::NO_FLOW {
            // Routing control: UDP port 654 (AODV, RFC 3561).
            return TraceIp {
                src_node: p.src,
                dst_node: p.dst,
                ttl: p.ttl,
                ident: p.ident,
                transport: TraceTransport::Udp { src_port: 654, dst_port: 654 },
                payload_len: p.payload_bytes,
            };
        }
        let flow = &self.flows[p.flow as usize];
        let sender_port = 49152u16.wrapping_add(p.flow as u16);
        let forward = p.src == flow.src;
        let (src_port, dst_port) =
            if forward { (sender_port, RECEIVER_PORT) } else { (RECEIVER_PORT, sender_port) };
        let transport = match (&flow.app, p.tcp) {
            (FlowApp::Tcp(t), Some(h)) => {
                // Byte offset of the start of segment `s` (the last one may be short).
                let byte = |s: u32| -> u32 {
                    let full = s.min(t.total_segments.unwrap_or(u32::MAX));
                    let mut b = full as u64 * t.mss as u64;
                    if t.total_segments.is_some_and(|n| s >= n) {
                        b = b - t.mss as u64 + t.last_segment_bytes as u64;
                    }
                    1u32.wrapping_add(b as u32)
                };
                let window = t.spec.receiver_window.saturating_mul(t.mss);
                let mut tcp = TraceTcp { src_port, dst_port, window, ..TraceTcp::default() };
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
                TraceTransport::Tcp(tcp)
            }
            _ => TraceTransport::Udp { src_port, dst_port },
        };
        TraceIp {
            src_node: p.src,
            dst_node: p.dst,
            ttl: p.ttl,
            ident: p.ident,
            transport,
            payload_len: p.payload_bytes,
        }
    }
}

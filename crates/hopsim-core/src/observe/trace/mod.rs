//! Packet traces: what a frame looked like on the air, in a form the pcap writer can encode
//! without knowing the simulator's internals. The world fills these records; `pcap` turns them
//! into radiotap + 802.11 + LLC/SNAP + IPv4 + TCP/UDP bytes (and IP-only records).
//!
//! Addresses: node `i` has MAC 02:00:00:00:hi:lo and IPv4 10.0.hi.lo with (hi, lo) = i + 1.

use crate::ids::NodeId;
pub mod ip_image;
pub mod mesh_action;
pub mod olsr_packet;
pub mod pcap;
pub mod writer;

/// Kind of an 802.11 frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceKind {
    Rts,
    Cts,
    Data,
    Ack,
    /// Compressed BlockAckReq: `seq` is the Starting Sequence Number.
    BlockAckReq,
    /// Compressed BlockAck: `seq` is the Starting Sequence Number, `bitmap` the bitmap.
    BlockAck,
    /// ADDBA Request (`seq`: its Starting Sequence Number) and ADDBA Response.
    AddbaRequest,
    AddbaResponse,
    /// An 802.11s Mesh action frame carrying an HWMP element (its body: mesh_action.rs).
    MeshAction,
}

/// TCP header fields as on the wire (sequence numbers in bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TraceTcp {
    pub src_port: u16,
    pub dst_port: u16,
    pub seq: u32,
    pub ack: u32,
    /// TCP flags byte (FIN 0x01, SYN 0x02, RST 0x04, PSH 0x08, ACK 0x10, ECE 0x40, CWR 0x80).
    pub flags: u8,
    /// Advertised window in bytes (encoded without window scaling; clamp to 65535).
    pub window: u32,
    /// SACK blocks (left edge, right edge), at most 3 used.
    pub sack: [(u32, u32); 3],
    pub sack_len: u8,
    /// Offer SACK (SACK-permitted option) — set on SYN segments of SACK flows.
    pub sack_permitted: bool,
    /// RFC 7323 timestamps option (TSval, TSecr).
    pub ts: Option<(u32, u32)>,
}

/// Transport part of an IP packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceTransport {
    Udp { src_port: u16, dst_port: u16 },
    Tcp(TraceTcp),
}

/// An IPv4 packet (payload bytes are not stored; they are written as zeros).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceIp {
    pub src_node: NodeId,
    pub dst_node: NodeId,
    pub ttl: u8,
    /// The IP header's second byte: DSCP (0) and the ECN field (RFC 3168 section 5).
    pub tos: u8,
    /// IP identification field.
    pub ident: u16,
    pub transport: TraceTransport,
    /// Application payload length in bytes.
    pub payload_len: u32,
    /// The first `head_len` payload bytes (a routing message); the rest is written as zeros.
    pub head: [u8; 24],
    pub head_len: u8,
}

/// One 802.11 frame as sent or received by a node.
/// The MCS of an HT or VHT frame as radiotap records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceMcs {
    pub vht: bool,
    /// HT 0-31 (the streams in it), VHT 0-9.
    pub index: u8,
    pub streams: u8,
    pub width_mhz: u16,
    pub short_gi: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceFrame {
    /// Time the frame started (transmitter) or ended (receiver), nanoseconds.
    pub time_ns: u64,
    pub kind: TraceKind,
    /// Receiver address (a node, or [`NodeId::BROADCAST`]).
    pub ra: NodeId,
    /// Transmitter address (node id); absent from CTS and ACK frames on the wire.
    pub ta: NodeId,
    pub duration_us: u16,
    pub seq: u16,
    pub retry: bool,
    /// Data rate in units of 500 kbit/s (radiotap convention): 2, 4, 11, 22 (DSSS/CCK); 12,
    /// 18, 24, 36, 48, 72, 96, 108 (OFDM); 0 for an HT or VHT frame, which `mcs` describes.
    pub rate_500kbps: u8,
    /// An HT or VHT frame's TXVECTOR (radiotap MCS or VHT field).
    pub mcs: Option<TraceMcs>,
    /// A QoS Data frame (QoS Control field, 9.2.4.5): a QoS station's data.
    pub qos: bool,
    /// A BlockAck's bitmap.
    pub bitmap: u64,
    /// An MPDU of an A-MPDU: the A-MPDU's reference number, and whether it is the last
    /// subframe (radiotap A-MPDU status field).
    pub ampdu: Option<(u32, bool)>,
    /// The channel's centre frequency, MHz (radiotap Channel field).
    pub channel_mhz: u16,
    /// The IP packet inside a data frame.
    pub ip: Option<TraceIp>,
}

//! pcap encoding: the classic pcap file format (nanosecond variant), radiotap + IEEE 802.11
//! frames (with LLC/SNAP, IPv4, TCP/UDP and the FCS) and raw IPv4 packets, from the trace
//! records of [`crate::observe::trace`].
//!
//! Everything is written by hand (no dependency): a table-driven CRC-32 for the 802.11 FCS, and
//! the Internet checksum (RFC 1071) for the IPv4 header and for TCP/UDP over the pseudo-header.
//! Payload bytes are not simulated; they are written as zeros (and contribute nothing to the
//! checksums, so these are computed over the headers alone).
//!
//! Addresses (see [`crate::observe::trace`]): node `i` has MAC 02:00:00:00:hi:lo and IPv4 10.0.hi.lo with
//! (hi, lo) the big-endian bytes of `i + 1`; [`NodeId::BROADCAST`] is ff:ff:ff:ff:ff:ff and
//! 255.255.255.255. The ad hoc network's BSSID is 02:00:00:00:00:00.

use crate::ids::NodeId;
use std::io::{self, Write};

use super::{TraceFrame, TraceIp, TraceKind, TraceTcp, TraceTransport};

/// Link type of radiotap + 802.11 records.
pub const LINKTYPE_IEEE802_11_RADIOTAP: u32 = 127;
/// Link type of raw IPv4 records (no link-layer header).
pub const LINKTYPE_RAW: u32 = 101;
/// Snapshot length written in the global header; longer records are truncated to it.
pub const SNAPLEN: u32 = 65_535;

/// Magic number of nanosecond-resolution pcap files.
const MAGIC_NS: u32 = 0xa1b2_3c4d;

/// BSSID of the ad hoc (IBSS) network.
pub const BSSID: [u8; 6] = [0x02, 0, 0, 0, 0, 0];

/// Length of the radiotap header written by [`encode_radiotap_80211`].
pub const RADIOTAP_LEN: usize = 14;

const IP_HEADER_LEN: usize = 20;
const TCP_HEADER_LEN: usize = 20;
const UDP_HEADER_LEN: usize = 8;
const LLC_SNAP_IPV4: [u8; 8] = [0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00];
const PROTO_TCP: u8 = 6;
const PROTO_UDP: u8 = 17;

// ------------------------------------------------------------------------------------ pcap file

/// Writer of a classic pcap file with nanosecond timestamps.
#[derive(Clone)]
pub struct PcapWriter<W: Write> {
    w: W,
}

impl<W: Write> PcapWriter<W> {
    /// Writes the global header (magic 0xa1b23c4d, version 2.4, snaplen 65535, `linktype`).
    pub fn new(mut w: W, linktype: u32) -> io::Result<Self> {
        let mut h = [0u8; 24];
        h[0..4].copy_from_slice(&MAGIC_NS.to_le_bytes());
        h[4..6].copy_from_slice(&2u16.to_le_bytes());
        h[6..8].copy_from_slice(&4u16.to_le_bytes());
        // thiszone (8..12) and sigfigs (12..16) are zero.
        h[16..20].copy_from_slice(&SNAPLEN.to_le_bytes());
        h[20..24].copy_from_slice(&linktype.to_le_bytes());
        w.write_all(&h)?;
        Ok(PcapWriter { w })
    }

    /// Writes one record: `data` (truncated to the snaplen) captured at `time_ns`, of original
    /// length `orig_len` (raised to the captured length if smaller).
    pub fn write_record(&mut self, time_ns: u64, data: &[u8], orig_len: u32) -> io::Result<()> {
        let incl = data.len().min(SNAPLEN as usize);
        let secs = u32::try_from(time_ns / 1_000_000_000).unwrap_or(u32::MAX);
        let nanos = (time_ns % 1_000_000_000) as u32;
        let mut h = [0u8; 16];
        h[0..4].copy_from_slice(&secs.to_le_bytes());
        h[4..8].copy_from_slice(&nanos.to_le_bytes());
        h[8..12].copy_from_slice(&(incl as u32).to_le_bytes());
        h[12..16].copy_from_slice(&orig_len.max(incl as u32).to_le_bytes());
        self.w.write_all(&h)?;
        self.w.write_all(&data[..incl])
    }

    /// Flushes the underlying writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }

    /// The underlying writer (not flushed).
    pub fn into_inner(self) -> W {
        self.w
    }
}

// ------------------------------------------------------------------------------------ checksums

/// CRC-32 (IEEE 802.3 polynomial, reflected, as used by the 802.11 FCS) lookup table.
const CRC32_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { 0xedb8_8320 ^ (c >> 1) } else { c >> 1 };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

/// CRC-32 of `data` (the 802.11 FCS is this value, transmitted little-endian).
pub fn crc32(data: &[u8]) -> u32 {
    let mut c = 0xffff_ffffu32;
    for &b in data {
        c = CRC32_TABLE[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

/// Adds `data` as big-endian 16-bit words (an odd last byte padded with zero) to a one's
/// complement accumulator (not yet folded).
fn sum16(mut acc: u32, data: &[u8]) -> u32 {
    let mut words = data.chunks_exact(2);
    for w in &mut words {
        acc += u16::from_be_bytes([w[0], w[1]]) as u32;
    }
    if let [last] = words.remainder() {
        acc += (*last as u32) << 8;
    }
    acc
}

/// Folds the carries of an accumulator and complements it: the Internet checksum.
fn fold(mut acc: u32) -> u16 {
    while acc > 0xffff {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    !(acc as u16)
}

/// Internet checksum (RFC 1071) of `data`.
pub fn internet_checksum(data: &[u8]) -> u16 {
    fold(sum16(0, data))
}

/// TCP/UDP checksum over the IPv4 pseudo-header and `segment_head`, the first bytes of a segment
/// of `segment_len` bytes whose remaining bytes are zero (the checksum field itself must be zero
/// in `segment_head`).
fn transport_checksum(
    src: [u8; 4],
    dst: [u8; 4],
    proto: u8,
    segment_len: u16,
    segment_head: &[u8],
) -> u16 {
    let mut acc = sum16(0, &src);
    acc = sum16(acc, &dst);
    acc += proto as u32;
    acc += segment_len as u32;
    fold(sum16(acc, segment_head))
}

// ------------------------------------------------------------------------------------ addresses

/// MAC address of a node (ff:ff:ff:ff:ff:ff for [`NodeId::BROADCAST`]).
pub fn node_mac(node: NodeId) -> [u8; 6] {
    if node == NodeId::BROADCAST {
        return [0xff; 6];
    }
    let [hi, lo] = (node.0.wrapping_add(1) as u16).to_be_bytes();
    [0x02, 0, 0, 0, hi, lo]
}

/// IPv4 address of a node (255.255.255.255 for [`NodeId::BROADCAST`]).
pub fn node_ipv4(node: NodeId) -> [u8; 4] {
    if node == NodeId::BROADCAST {
        return [0xff; 4];
    }
    let [hi, lo] = (node.0.wrapping_add(1) as u16).to_be_bytes();
    [10, 0, hi, lo]
}

// ------------------------------------------------------------------------------------ encoders

/// Appends the IPv4 packet `ip` (header, transport header, zero payload) to `out`.
fn push_ipv4(out: &mut Vec<u8>, ip: &TraceIp, body: &[u8]) {
    let src = node_ipv4(ip.src_node);
    let dst = node_ipv4(ip.dst_node);
    let start = out.len();

    // Transport header length (TCP options included) and protocol.
    let (proto, th_len) = match &ip.transport {
        TraceTransport::Udp { .. } => (PROTO_UDP, UDP_HEADER_LEN),
        TraceTransport::Tcp(t) => (PROTO_TCP, TCP_HEADER_LEN + tcp_options_len(t)),
    };
    let max_payload = 0xffff - IP_HEADER_LEN - th_len;
    let payload = (ip.payload_len as usize).min(max_payload);
    let total = IP_HEADER_LEN + th_len + payload;

    // IPv4 header.
    out.extend_from_slice(&[0x45, ip.tos]);
    out.extend_from_slice(&(total as u16).to_be_bytes());
    out.extend_from_slice(&ip.ident.to_be_bytes());
    out.extend_from_slice(&[0x00, 0x00, ip.ttl, proto, 0x00, 0x00]);
    out.extend_from_slice(&src);
    out.extend_from_slice(&dst);
    let csum = internet_checksum(&out[start..start + IP_HEADER_LEN]);
    out[start + 10..start + 12].copy_from_slice(&csum.to_be_bytes());

    // Transport header.
    let th = out.len();
    let seg_len = (th_len + payload) as u16;
    match &ip.transport {
        TraceTransport::Udp { src_port, dst_port } => {
            out.extend_from_slice(&src_port.to_be_bytes());
            out.extend_from_slice(&dst_port.to_be_bytes());
            out.extend_from_slice(&seg_len.to_be_bytes());
            out.extend_from_slice(&[0, 0]);
            push_payload(out, ip, payload, body);
            let c = transport_checksum(src, dst, PROTO_UDP, seg_len, &out[th..]);
            // A computed zero is sent as all ones (zero means "no checksum" in UDP).
            let c = if c == 0 { 0xffff } else { c };
            out[th + 6..th + 8].copy_from_slice(&c.to_be_bytes());
            return;
        }
        TraceTransport::Tcp(t) => {
            push_tcp_header(out, t, th_len);
            let c = transport_checksum(src, dst, PROTO_TCP, seg_len, &out[th..]);
            out[th + 16..th + 18].copy_from_slice(&c.to_be_bytes());
        }
    }
    debug_assert_eq!(out.len() - th, th_len);
    push_payload(out, ip, payload, body);
}

/// The payload: `body` where there is one (an OLSR packet), else the message head the record
/// carries; then zeros.
fn push_payload(out: &mut Vec<u8>, ip: &TraceIp, payload: usize, body: &[u8]) {
    let head: &[u8] = if body.is_empty() { &ip.head[..ip.head_len as usize] } else { body };
    let head = &head[..head.len().min(payload)];
    out.extend_from_slice(head);
    out.resize(out.len() + payload - head.len(), 0);
}

/// Number of SACK blocks written (at most 3).
fn sack_blocks(t: &TraceTcp) -> usize {
    (t.sack_len as usize).min(t.sack.len())
}

/// Length of the TCP options (a multiple of 4).
fn tcp_options_len(t: &TraceTcp) -> usize {
    let mut len = 0;
    if t.sack_permitted {
        len += 4; // NOP NOP kind 4 len 2
    }
    if t.ts.is_some() {
        len += 12; // NOP NOP kind 8 len 10 (RFC 7323 appendix A)
    }
    let n = sack_blocks(t);
    if n > 0 {
        len += 4 + 8 * n; // NOP NOP kind 5 len 2+8n, n blocks
    }
    len
}

/// Appends a TCP header of `th_len` bytes (options included), with a zero checksum.
fn push_tcp_header(out: &mut Vec<u8>, t: &TraceTcp, th_len: usize) {
    out.extend_from_slice(&t.src_port.to_be_bytes());
    out.extend_from_slice(&t.dst_port.to_be_bytes());
    out.extend_from_slice(&t.seq.to_be_bytes());
    out.extend_from_slice(&t.ack.to_be_bytes());
    out.push(((th_len / 4) as u8) << 4);
    out.push(t.flags);
    out.extend_from_slice(&(t.window.min(0xffff) as u16).to_be_bytes());
    out.extend_from_slice(&[0, 0, 0, 0]); // checksum, urgent pointer
    if t.sack_permitted {
        out.extend_from_slice(&[1, 1, 4, 2]);
    }
    if let Some((val, ecr)) = t.ts {
        out.extend_from_slice(&[1, 1, 8, 10]);
        out.extend_from_slice(&val.to_be_bytes());
        out.extend_from_slice(&ecr.to_be_bytes());
    }
    let n = sack_blocks(t);
    if n > 0 {
        out.extend_from_slice(&[1, 1, 5, (2 + 8 * n) as u8]);
        for &(left, right) in &t.sack[..n] {
            out.extend_from_slice(&left.to_be_bytes());
            out.extend_from_slice(&right.to_be_bytes());
        }
    }
}

/// Clears `out` and fills it with the IPv4 packet `ip` alone (for [`LINKTYPE_RAW`] records).
pub fn encode_ipv4(out: &mut Vec<u8>, ip: &TraceIp) {
    out.clear();
    push_ipv4(out, ip, &[]);
}

/// Clears `out` and fills it with a radiotap header and the 802.11 frame `f` (for
/// [`LINKTYPE_IEEE802_11_RADIOTAP`] records).
///
/// Radiotap: Flags (FCS at end), Rate (in 500 kbit/s) or for an HT frame the MCS field and
/// for a VHT frame the VHT field, and Channel (frequency; CCK or OFDM, 2 or 5 GHz); the Flags
/// byte does not set "short preamble", i.e. the long preamble of 802.11b DSSS is meant. The
/// 802.11 frame is an RTS, CTS, ACK or (IBSS) data frame (QoS Data for a QoS station) carrying
/// LLC/SNAP + IPv4, followed by the FCS. The Retry bit is only set on data frames.
///
/// A data frame with two or more packets in `amsdu` carries them as an A-MSDU (9.3.2.2.2):
/// the QoS Control field's A-MSDU Present bit, then per MSDU a subframe header (DA and SA:
/// the frame's receiver and transmitter; the length, big-endian), LLC/SNAP + IPv4, and
/// padding to 4 octets but after the last. A Mesh action frame (`TraceKind::MeshAction`)
/// is a management frame with `body` as its body (receiver, transmitter, and the
/// transmitter again as the third address, as mesh STAs send them); a data frame's UDP
/// datagram carries `body`, when there is one, as its payload (an OLSR packet).
pub fn encode_radiotap_80211(out: &mut Vec<u8>, f: &TraceFrame, amsdu: &[TraceIp], body: &[u8]) {
    out.clear();
    const FLAGS: u32 = 1 << 1;
    const RATE: u32 = 1 << 2;
    const CHANNEL: u32 = 1 << 3;
    const MCS: u32 = 1 << 19;
    const AMPDU_STATUS: u32 = 1 << 20;
    const VHT: u32 = 1 << 21;
    const FLAG_FCS_AT_END: u8 = 0x10;
    // Channel flags (radiotap.org, Channel): CCK 0x0020, OFDM 0x0040, 2 GHz 0x0080, 5 GHz
    // 0x0100. The OFDM rates in 500 kbit/s are 12..108; DSSS/CCK's 2, 4, 11, 22.
    let ofdm = f.mcs.is_some() || matches!(f.rate_500kbps, 12 | 18 | 24 | 36 | 48 | 72 | 96 | 108);
    let modulation: u16 = if ofdm { 0x0040 } else { 0x0020 };
    let band: u16 = if f.channel_mhz >= 4900 { 0x0100 } else { 0x0080 };
    // Fields in bit order with natural alignment: Flags u8 @8, then Rate u8 @9 and Channel
    // u16+u16 @10; or (HT, VHT) a pad byte @9 and Channel @10. HT: MCS (known, flags, index)
    // @14; an A-MPDU's subframe adds the A-MPDU status (u32 reference, u16 flags, u8
    // delimiter CRC, u8 reserved), 4-aligned after it: @20. VHT: the A-MPDU status @16, and
    // the 12-octet VHT field, 2-aligned, after what comes before it.
    let ampdu = f.mcs.is_some() && f.ampdu.is_some();
    let (len, present) = match f.mcs {
        None => (RADIOTAP_LEN, FLAGS | RATE | CHANNEL),
        Some(m) if m.vht => {
            let len = if ampdu { 24 + 12 } else { 14 + 12 };
            (len, FLAGS | CHANNEL | VHT | if ampdu { AMPDU_STATUS } else { 0 })
        }
        Some(_) => (
            if ampdu { 28 } else { 17 },
            FLAGS | CHANNEL | MCS | if ampdu { AMPDU_STATUS } else { 0 },
        ),
    };
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(&(len as u16).to_le_bytes());
    out.extend_from_slice(&present.to_le_bytes());
    out.push(FLAG_FCS_AT_END);
    out.push(if f.mcs.is_some() { 0 } else { f.rate_500kbps });
    out.extend_from_slice(&f.channel_mhz.to_le_bytes());
    out.extend_from_slice(&(modulation | band).to_le_bytes());
    let ampdu_status = |out: &mut Vec<u8>| {
        if let (true, Some((reference, last))) = (ampdu, f.ampdu) {
            // Flags: last-subframe known (0x0004), this is the last (0x0008).
            out.extend_from_slice(&reference.to_le_bytes());
            let flags: u16 = 0x0004 | if last { 0x0008 } else { 0 };
            out.extend_from_slice(&flags.to_le_bytes());
            out.extend_from_slice(&[0, 0]);
        }
    };
    match f.mcs {
        Some(m) if m.vht => {
            if ampdu {
                out.extend_from_slice(&[0, 0]);
                ampdu_status(out);
            }
            // Known: guard interval (0x0004), bandwidth (0x0040); flags bit 2: short GI;
            // bandwidth 0, 1, 4, 11 = 20, 40, 80, 160 MHz; user 0's MCS (high nibble) and
            // N_SS (low); coding 0 = BCC; group id 0 (single user), partial AID 0.
            out.extend_from_slice(&0x0044u16.to_le_bytes());
            out.push(u8::from(m.short_gi) << 2);
            out.push(match m.width_mhz {
                40 => 1,
                80 => 4,
                160 => 11,
                _ => 0,
            });
            out.extend_from_slice(&[(m.index << 4) | m.streams, 0, 0, 0]);
            out.extend_from_slice(&[0, 0, 0, 0]);
        }
        Some(m) => {
            // Known: bandwidth, MCS index, guard interval, HT format, FEC type (0x1f); flags:
            // bandwidth 1 = 40 MHz, bit 2 short GI; format 0 = HT-mixed, FEC 0 = BCC.
            out.push(0x1f);
            out.push(u8::from(m.width_mhz == 40) | (u8::from(m.short_gi) << 2));
            out.push(m.index);
            if ampdu {
                out.extend_from_slice(&[0, 0, 0]);
                ampdu_status(out);
            }
        }
        None => {}
    }
    debug_assert_eq!(out.len(), len);

    // 802.11 MAC frame.
    let mac = out.len();
    let duration = f.duration_us.to_le_bytes();
    match f.kind {
        TraceKind::Rts => {
            out.extend_from_slice(&[0xb4, 0x00, duration[0], duration[1]]);
            out.extend_from_slice(&node_mac(f.ra));
            out.extend_from_slice(&node_mac(f.ta));
        }
        TraceKind::Cts | TraceKind::Ack => {
            let fc = if f.kind == TraceKind::Cts { 0xc4 } else { 0xd4 };
            out.extend_from_slice(&[fc, 0x00, duration[0], duration[1]]);
            out.extend_from_slice(&node_mac(f.ra));
        }
        TraceKind::BlockAckReq | TraceKind::BlockAck => {
            // Control frames of type 01, subtype 1000 (BAR) / 1001 (BA), 9.3.1.8-9: RA, TA,
            // a control field with the Compressed Bitmap bit (TID 0), the Starting Sequence
            // Control, and for a BA the 8-octet bitmap.
            let bar = f.kind == TraceKind::BlockAckReq;
            out.extend_from_slice(&[if bar { 0x84 } else { 0x94 }, 0x00, duration[0], duration[1]]);
            out.extend_from_slice(&node_mac(f.ra));
            out.extend_from_slice(&node_mac(f.ta));
            out.extend_from_slice(&0x0004u16.to_le_bytes());
            out.extend_from_slice(&((f.seq & 0x0fff) << 4).to_le_bytes());
            if !bar {
                out.extend_from_slice(&f.bitmap.to_le_bytes());
            }
        }
        TraceKind::AddbaRequest | TraceKind::AddbaResponse => {
            // Management, subtype Action (0xd0): RA, TA, BSSID, sequence control, then the
            // Block Ack Action body (9.6.5.2-3): category 3, action 0 / 1, dialog token 1,
            // (Request) parameter set, timeout 0, SSC / (Response) status 0, parameter set,
            // timeout 0. Parameter set: immediate policy (bit 1), TID 0, buffer size 64.
            let flags = if f.retry { 0x08 } else { 0x00 };
            out.extend_from_slice(&[0xd0, flags, duration[0], duration[1]]);
            out.extend_from_slice(&node_mac(f.ra));
            out.extend_from_slice(&node_mac(f.ta));
            out.extend_from_slice(&BSSID);
            out.extend_from_slice(&0u16.to_le_bytes());
            let params: u16 = 0x0002 | (64 << 6);
            if f.kind == TraceKind::AddbaRequest {
                out.extend_from_slice(&[3, 0, 1]);
                out.extend_from_slice(&params.to_le_bytes());
                out.extend_from_slice(&0u16.to_le_bytes());
                out.extend_from_slice(&((f.seq & 0x0fff) << 4).to_le_bytes());
            } else {
                out.extend_from_slice(&[3, 1, 1, 0, 0]);
                out.extend_from_slice(&params.to_le_bytes());
                out.extend_from_slice(&0u16.to_le_bytes());
            }
        }
        TraceKind::MeshAction => {
            let flags = if f.retry { 0x08 } else { 0x00 };
            out.extend_from_slice(&[0xd0, flags, duration[0], duration[1]]);
            out.extend_from_slice(&node_mac(f.ra));
            out.extend_from_slice(&node_mac(f.ta));
            out.extend_from_slice(&node_mac(f.ta));
            out.extend_from_slice(&((f.seq & 0x0fff) << 4).to_le_bytes());
            out.extend_from_slice(body);
        }
        TraceKind::Data => {
            let flags = if f.retry { 0x08 } else { 0x00 };
            // Type data (0x08), subtype QoS Data (0x80) for a QoS station.
            let fc = if f.qos { 0x88 } else { 0x08 };
            out.extend_from_slice(&[fc, flags, duration[0], duration[1]]);
            out.extend_from_slice(&node_mac(f.ra));
            out.extend_from_slice(&node_mac(f.ta));
            out.extend_from_slice(&BSSID);
            out.extend_from_slice(&((f.seq & 0x0fff) << 4).to_le_bytes());
            let aggregate = f.qos && amsdu.len() > 1;
            if f.qos {
                // QoS Control: TID 0 (best effort); bit 7 A-MSDU Present.
                out.extend_from_slice(&[if aggregate { 0x80 } else { 0 }, 0]);
            }
            if aggregate {
                for (i, ip) in amsdu.iter().enumerate() {
                    let start = out.len();
                    out.extend_from_slice(&node_mac(f.ra));
                    out.extend_from_slice(&node_mac(f.ta));
                    out.extend_from_slice(&[0, 0]);
                    out.extend_from_slice(&LLC_SNAP_IPV4);
                    push_ipv4(out, ip, &[]);
                    let msdu_len = (out.len() - start - 14) as u16;
                    out[start + 12..start + 14].copy_from_slice(&msdu_len.to_be_bytes());
                    if i + 1 < amsdu.len() {
                        let pad = (4 - (out.len() - start) % 4) % 4;
                        out.resize(out.len() + pad, 0);
                    }
                }
            } else if let Some(ip) = &f.ip {
                out.extend_from_slice(&LLC_SNAP_IPV4);
                push_ipv4(out, ip, body);
            }
        }
    }
    let fcs = crc32(&out[mac..]);
    out.extend_from_slice(&fcs.to_le_bytes());
}

#[cfg(test)]
mod tests;

//! Encoding checks: checksums, CRC-32, frame layouts.
use super::*;

fn tcp(payload_len: u32) -> TraceIp {
    TraceIp {
        src_node: NodeId(0),
        dst_node: NodeId(1),
        ttl: 64,
        tos: 0,
        ident: 7,
        transport: TraceTransport::Tcp(TraceTcp {
            src_port: 5000,
            dst_port: 80,
            seq: 1,
            ack: 1,
            flags: 0x10,
            window: 1 << 20,
            ..TraceTcp::default()
        }),
        payload_len,
        head: [0; 24],
        head_len: 0,
    }
}

fn frame(kind: TraceKind, ip: Option<TraceIp>) -> TraceFrame {
    TraceFrame {
        time_ns: 0,
        kind,
        ra: NodeId(1),
        ta: NodeId(0),
        duration_us: 314,
        seq: 0x123,
        retry: false,
        rate_500kbps: 4,
        mcs: None,
        qos: false,
        bitmap: 0,
        ampdu: None,
        channel_mhz: 2412,
        ip,
    }
}

/// Checksum by the textbook definition, over every byte.
fn reference_checksum(data: &[u8]) -> u16 {
    let mut sum: u64 = 0;
    for i in (0..data.len()).step_by(2) {
        let hi = data[i] as u64;
        let lo = if i + 1 < data.len() { data[i + 1] as u64 } else { 0 };
        sum += (hi << 8) | lo;
    }
    while sum >> 16 != 0 {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// Checks the IPv4 header and transport checksums of a packet by summing every byte.
fn assert_checksums_verify(pkt: &[u8]) {
    assert_eq!(reference_checksum(&pkt[..20]), 0, "IPv4 header checksum");
    let total = u16::from_be_bytes([pkt[2], pkt[3]]) as usize;
    assert_eq!(total, pkt.len());
    let mut pseudo = Vec::new();
    pseudo.extend_from_slice(&pkt[12..20]);
    pseudo.extend_from_slice(&[0, pkt[9]]);
    pseudo.extend_from_slice(&((total - 20) as u16).to_be_bytes());
    pseudo.extend_from_slice(&pkt[20..]);
    assert_eq!(reference_checksum(&pseudo), 0, "transport checksum");
}

#[test]
fn crc32_check_value() {
    assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    assert_eq!(crc32(b""), 0);
}

#[test]
fn internet_checksum_rfc1071_example() {
    // RFC 1071 section 3: the words 0001 f203 f4f5 f6f7 sum to ddf2 (one's complement),
    // so the checksum is its complement, 220d.
    let data = [0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7];
    assert_eq!(internet_checksum(&data), !0xddf2);
    // Odd length: the last byte is padded with zero.
    assert_eq!(internet_checksum(&[0x12, 0x34, 0x56]), !(0x1234u16 + 0x5600));
}

#[test]
fn ipv4_header_checksum_known_header() {
    // The classic example header (Wikipedia "IPv4 header checksum"): checksum b861.
    let mut h = [
        0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00, 0xc0, 0xa8, 0x00,
        0x01, 0xc0, 0xa8, 0x00, 0xc7,
    ];
    assert_eq!(internet_checksum(&h), 0xb861);
    h[10..12].copy_from_slice(&0xb861u16.to_be_bytes());
    assert_eq!(internet_checksum(&h), 0);
}

#[test]
fn addresses() {
    assert_eq!(node_mac(NodeId(0)), [2, 0, 0, 0, 0, 1]);
    assert_eq!(node_mac(NodeId(299)), [2, 0, 0, 0, 1, 0x2c]);
    assert_eq!(node_mac(NodeId::BROADCAST), [0xff; 6]);
    assert_eq!(node_ipv4(NodeId(0)), [10, 0, 0, 1]);
    assert_eq!(node_ipv4(NodeId(255)), [10, 0, 1, 0]);
    assert_eq!(node_ipv4(NodeId::BROADCAST), [255; 4]);
}

#[test]
fn ipv4_tcp_packet_layout_and_checksums() {
    let mut out = Vec::new();
    encode_ipv4(&mut out, &tcp(1460));
    assert_eq!(out.len(), 20 + 20 + 1460);
    assert_eq!(&out[12..16], &[10, 0, 0, 1]);
    assert_eq!(&out[16..20], &[10, 0, 0, 2]);
    assert_eq!(out[8], 64);
    assert_eq!(out[9], 6);
    assert_eq!(out[20 + 12], 5 << 4, "data offset");
    assert_eq!(&out[20 + 14..20 + 16], &[0xff, 0xff], "window clamped");
    assert_checksums_verify(&out);
    // Odd payload length.
    encode_ipv4(&mut out, &tcp(1));
    assert_eq!(out.len(), 41);
    assert_checksums_verify(&out);
}

#[test]
fn tcp_options() {
    let mut ip = tcp(0);
    let TraceTransport::Tcp(t) = &mut ip.transport else { unreachable!() };
    t.sack = [(100, 200), (300, 400), (500, 600)];
    t.sack_len = 2;
    let mut out = Vec::new();
    encode_ipv4(&mut out, &ip);
    assert_eq!(out.len(), 20 + 20 + 4 + 16);
    assert_eq!(out[20 + 12] >> 4, 10);
    assert_eq!(&out[40..44], &[1, 1, 5, 18]);
    assert_eq!(&out[44..52], &[0, 0, 0, 100, 0, 0, 0, 200]);
    assert_checksums_verify(&out);

    let TraceTransport::Tcp(t) = &mut ip.transport else { unreachable!() };
    t.sack_len = 0;
    t.sack_permitted = true;
    t.flags = 0x02;
    encode_ipv4(&mut out, &ip);
    assert_eq!(out.len(), 44);
    assert_eq!(out[20 + 12] >> 4, 6);
    assert_eq!(&out[40..44], &[1, 1, 4, 2]);
    assert_checksums_verify(&out);

    // Both, with more blocks than fit: three are written.
    let TraceTransport::Tcp(t) = &mut ip.transport else { unreachable!() };
    t.sack_len = 9;
    encode_ipv4(&mut out, &ip);
    assert_eq!(out.len(), 20 + 20 + 4 + 4 + 24);
    assert_eq!(out[20 + 12] >> 4, 13);
    assert_checksums_verify(&out);
}

#[test]
fn timestamps_option_precedes_the_sack_blocks() {
    // RFC 7323 appendix A layout: NOP NOP kind 8 length 10, TSval, TSecr.
    let mut ip = tcp(0);
    let TraceTransport::Tcp(t) = &mut ip.transport else { unreachable!() };
    t.ts = Some((0x0102_0304, 0x0a0b_0c0d));
    t.sack = [(100, 200), (300, 400), (500, 600)];
    t.sack_len = 3;
    let mut out = Vec::new();
    encode_ipv4(&mut out, &ip);
    assert_eq!(out.len(), 20 + 20 + 12 + 4 + 24, "40 option bytes: the most TCP allows");
    assert_eq!(out[20 + 12] >> 4, 15);
    assert_eq!(&out[40..52], &[1, 1, 8, 10, 1, 2, 3, 4, 10, 11, 12, 13]);
    assert_eq!(&out[52..56], &[1, 1, 5, 26]);
    assert_checksums_verify(&out);
}

#[test]
fn udp_packet() {
    let ip = TraceIp {
        src_node: NodeId(3),
        dst_node: NodeId::BROADCAST,
        ttl: 1,
        tos: 0,
        ident: 0xbeef,
        transport: TraceTransport::Udp { src_port: 9, dst_port: 9 },
        payload_len: 1460,
        head: [0; 24],
        head_len: 0,
    };
    let mut out = Vec::new();
    encode_ipv4(&mut out, &ip);
    assert_eq!(out.len(), 20 + 8 + 1460);
    assert_eq!(out[9], 17);
    assert_eq!(&out[16..20], &[255; 4]);
    assert_eq!(u16::from_be_bytes([out[24], out[25]]), 8 + 1460);
    assert_ne!(u16::from_be_bytes([out[26], out[27]]), 0);
    assert_checksums_verify(&out);
}

#[test]
fn oversized_payload_is_clamped_consistently() {
    let mut out = Vec::new();
    encode_ipv4(&mut out, &tcp(100_000));
    assert_eq!(out.len(), 0xffff);
    assert_checksums_verify(&out);
}

/// The MAC frame of an encoded record, FCS checked and stripped.
fn mac_frame(out: &[u8]) -> &[u8] {
    assert_eq!(&out[..8], &[0, 0, 14, 0, 0x0e, 0, 0, 0]);
    let mac = &out[RADIOTAP_LEN..];
    let (body, fcs) = mac.split_at(mac.len() - 4);
    assert_eq!(crc32(body).to_le_bytes(), fcs);
    body
}

#[test]
fn control_frame_lengths_and_fields() {
    let mut out = Vec::new();
    encode_radiotap_80211(&mut out, &frame(TraceKind::Rts, None), &[], &[]);
    assert_eq!(out.len() - RADIOTAP_LEN, 20);
    let m = mac_frame(&out);
    assert_eq!(&m[..4], &[0xb4, 0, 0x3a, 0x01]);
    assert_eq!(&m[4..10], &node_mac(NodeId(1)));
    assert_eq!(&m[10..16], &node_mac(NodeId(0)));

    encode_radiotap_80211(&mut out, &frame(TraceKind::Cts, None), &[], &[]);
    assert_eq!(out.len() - RADIOTAP_LEN, 14);
    assert_eq!(mac_frame(&out)[0], 0xc4);
    encode_radiotap_80211(&mut out, &frame(TraceKind::Ack, None), &[], &[]);
    assert_eq!(out.len() - RADIOTAP_LEN, 14);
    assert_eq!(mac_frame(&out)[0], 0xd4);
    // Radiotap fields: flags (FCS at end), rate, channel 2412 MHz CCK 2 GHz.
    assert_eq!(&out[8..14], &[0x10, 4, 0x6c, 0x09, 0xa0, 0x00]);
}

#[test]
fn data_frame_layout() {
    let mut f = frame(TraceKind::Data, Some(tcp(1460)));
    f.retry = true;
    let mut out = Vec::new();
    encode_radiotap_80211(&mut out, &f, &[], &[]);
    assert_eq!(out.len() - RADIOTAP_LEN, 24 + 8 + 20 + 20 + 1460 + 4);
    let m = mac_frame(&out);
    assert_eq!(&m[..2], &[0x08, 0x08]);
    assert_eq!(&m[4..10], &node_mac(NodeId(1)));
    assert_eq!(&m[10..16], &node_mac(NodeId(0)));
    assert_eq!(&m[16..22], &BSSID);
    assert_eq!(u16::from_le_bytes([m[22], m[23]]), 0x123 << 4);
    assert_eq!(&m[24..32], &LLC_SNAP_IPV4);
    assert_checksums_verify(&m[32..]);

    // Same packet as the IP-only encoder.
    let mut ip_only = Vec::new();
    encode_ipv4(&mut ip_only, f.ip.as_ref().unwrap());
    assert_eq!(&m[32..], &ip_only[..]);

    f.retry = false;
    f.seq = 0xfff5; // 12-bit sequence number
    encode_radiotap_80211(&mut out, &f, &[], &[]);
    let m = mac_frame(&out);
    assert_eq!(m[1], 0);
    assert_eq!(u16::from_le_bytes([m[22], m[23]]), 0xff50);
}

#[test]
fn pcap_headers() {
    let mut w = PcapWriter::new(Vec::new(), LINKTYPE_RAW).unwrap();
    w.write_record(3_000_000_123, &[1, 2, 3], 3).unwrap();
    w.write_record(5, &[9], 0).unwrap();
    let b = w.into_inner();
    assert_eq!(&b[..4], &[0x4d, 0x3c, 0xb2, 0xa1]);
    assert_eq!(&b[4..8], &[2, 0, 4, 0]);
    assert_eq!(&b[16..20], &65535u32.to_le_bytes());
    assert_eq!(&b[20..24], &101u32.to_le_bytes());
    let r = &b[24..];
    assert_eq!(&r[0..4], &3u32.to_le_bytes());
    assert_eq!(&r[4..8], &123u32.to_le_bytes());
    assert_eq!(&r[8..12], &3u32.to_le_bytes());
    assert_eq!(&r[12..16], &3u32.to_le_bytes());
    assert_eq!(&r[16..19], &[1, 2, 3]);
    let r = &r[19..];
    assert_eq!(&r[8..16], &[1, 0, 0, 0, 1, 0, 0, 0], "orig_len raised to incl_len");
    assert_eq!(r.len(), 17);
}

#[test]
fn the_ecn_field_and_the_ece_cwr_flags_are_on_the_wire() {
    // RFC 3168 section 5: ECN in the two low bits of the IPv4 TOS byte (CE = 0b11); section
    // 6.1: ECE 0x40 and CWR 0x80 in the TCP flags byte (byte 13 of the header).
    let mut ip = tcp(100);
    ip.tos = 0b11;
    if let TraceTransport::Tcp(t) = &mut ip.transport {
        t.flags |= 0x40 | 0x80;
    }
    let mut pkt = Vec::new();
    encode_ipv4(&mut pkt, &ip);
    assert_eq!(pkt[1] & 0b11, 0b11, "CE");
    assert_eq!(pkt[20 + 13], 0x10 | 0x40 | 0x80, "ACK, ECE and CWR");
    assert_checksums_verify(&pkt);
}

//! An OLSR packet as the pcap traces show it (RFC 3626 section 3.3, on UDP port 698): the
//! packet header, then each message with its header and its HELLO (6.1) or TC (9.1) body,
//! addresses the nodes' IPv4 addresses. hopsim keeps no per-interface packet sequence
//! number: the header carries the packet's number in the run (modulo 2^16).

use super::pcap::node_ipv4;
use crate::net::olsr::msg::{Body, LinkType, Message, NeighborType};

/// Section 18.4: message types.
const HELLO_MESSAGE: u8 = 1;
const TC_MESSAGE: u8 = 2;
/// Section 18.3: the scaling factor C of a validity time, 1/16 s.
const C_S: f64 = 1.0 / 16.0;

/// Appends the packet of `messages` (packet number `number`) to `out`.
pub fn olsr_packet(out: &mut Vec<u8>, number: u64, messages: &[Message]) {
    let start = out.len();
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(&(number as u16).to_be_bytes());
    for m in messages {
        message(out, m);
    }
    let len = (out.len() - start) as u16;
    out[start..start + 2].copy_from_slice(&len.to_be_bytes());
}

fn message(out: &mut Vec<u8>, m: &Message) {
    let start = out.len();
    let kind = if matches!(m.body, Body::Hello(_)) { HELLO_MESSAGE } else { TC_MESSAGE };
    let vtime_s = m.vtime_ns as f64 / 1e9;
    out.extend_from_slice(&[kind, mantissa_exponent(vtime_s), 0, 0]);
    out.extend_from_slice(&node_ipv4(m.originator));
    out.extend_from_slice(&[m.ttl, m.hops]);
    out.extend_from_slice(&m.seq.to_be_bytes());
    match &m.body {
        Body::Hello(h) => {
            // Htime: hopsim's neighbour hold time is three HELLO intervals (section 18).
            out.extend_from_slice(&[0, 0, mantissa_exponent(vtime_s / 3.0), h.willingness]);
            let mut codes: Vec<u8> = h.links.iter().map(|&(_, l, n)| link_code(l, n)).collect();
            codes.sort_unstable();
            codes.dedup();
            for code in codes {
                let group = out.len();
                out.extend_from_slice(&[code, 0, 0, 0]);
                for &(node, l, n) in &h.links {
                    if link_code(l, n) == code {
                        out.extend_from_slice(&node_ipv4(node));
                    }
                }
                let size = (out.len() - group) as u16;
                out[group + 2..group + 4].copy_from_slice(&size.to_be_bytes());
            }
        }
        Body::Tc(t) => {
            out.extend_from_slice(&t.ansn.to_be_bytes());
            out.extend_from_slice(&[0, 0]);
            for &node in &t.advertised {
                out.extend_from_slice(&node_ipv4(node));
            }
        }
    }
    let size = (out.len() - start) as u16;
    out[start + 2..start + 4].copy_from_slice(&size.to_be_bytes());
}

/// Section 6.1.1: the neighbour type in bits 2-3, the link type in bits 0-1.
fn link_code(l: LinkType, n: NeighborType) -> u8 {
    let link = match l {
        LinkType::Unspec => 0,
        LinkType::Asym => 1,
        LinkType::Sym => 2,
        LinkType::Lost => 3,
    };
    let neighbour = match n {
        NeighborType::Not => 0,
        NeighborType::Sym => 1,
        NeighborType::Mpr => 2,
    };
    (neighbour << 2) | link
}

/// Section 18.3: a time T as C * (1 + a / 16) * 2^b, a in the high and b in the low nibble;
/// b the largest with T / C >= 2^b, a = 16 (T / (C 2^b) - 1) rounded up (so that the
/// receiver never holds information shorter than it was meant to be held), a = 16 carried.
pub fn mantissa_exponent(t_s: f64) -> u8 {
    let ratio = (t_s / C_S).max(1.0);
    let mut b = ratio.log2().floor().clamp(0.0, 15.0) as u32;
    let mut a = (16.0 * (ratio / f64::from(1u32 << b) - 1.0)).ceil().clamp(0.0, 16.0) as u32;
    if a == 16 {
        if b == 15 {
            return 0xff;
        }
        b += 1;
        a = 0;
    }
    ((a as u8) << 4) | b as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::NodeId;
    use crate::net::olsr::msg::{Hello, Tc};

    #[test]
    fn validity_times_encode_as_section_18_3() {
        // 6 s (3 HELLO intervals) = 1/16 (1 + 8/16) 2^6: a = 8, b = 6.
        assert_eq!(mantissa_exponent(6.0), 0x86);
        // 2 s = 1/16 * 2^5; 15 s = 1/16 (1 + 14/16) 2^7.
        assert_eq!(mantissa_exponent(2.0), 0x05);
        assert_eq!(mantissa_exponent(15.0), 0xe7);
        // Between two values: the next larger one.
        assert_eq!(mantissa_exponent(2.01), 0x15);
    }

    #[test]
    fn a_packet_is_as_long_as_the_router_counts_it() {
        let hello = Message {
            originator: NodeId(3),
            seq: 9,
            ttl: 1,
            hops: 0,
            vtime_ns: 6_000_000_000,
            body: Body::Hello(Hello {
                willingness: 3,
                links: vec![
                    (NodeId(2), LinkType::Sym, NeighborType::Mpr),
                    (NodeId(4), LinkType::Sym, NeighborType::Sym),
                    (NodeId(8), LinkType::Sym, NeighborType::Sym),
                    (NodeId(5), LinkType::Asym, NeighborType::Not),
                ],
            }),
        };
        let tc = Message {
            originator: NodeId(7),
            seq: 10,
            ttl: 254,
            hops: 1,
            vtime_ns: 15_000_000_000,
            body: Body::Tc(Tc { ansn: 4, advertised: vec![NodeId(6), NodeId(8)] }),
        };
        let mut out = Vec::new();
        olsr_packet(&mut out, 0x1_0005, &[hello.clone(), tc.clone()]);
        assert_eq!(out.len() as u32, 4 + hello.bytes() + tc.bytes());
        assert_eq!(&out[..4], &[0, out.len() as u8, 0, 5], "length, number mod 2^16");
        let h = &out[4..];
        assert_eq!(&h[..4], &[1, 0x86, 0, hello.bytes() as u8], "HELLO, Vtime 6 s, size");
        assert_eq!(&h[4..8], &node_ipv4(NodeId(3)));
        assert_eq!(&h[8..12], &[1, 0, 0, 9], "TTL, hops, sequence");
        assert_eq!(&h[12..16], &[0, 0, 0x05, 3], "Htime 2 s, willingness");
        // Link codes in order: ASYM/NOT 0x01, SYM/SYM 0x06, SYM/MPR 0x0a.
        assert_eq!(&h[16..20], &[0x01, 0, 0, 8]);
        assert_eq!(&h[24..28], &[0x06, 0, 0, 12]);
    }
}

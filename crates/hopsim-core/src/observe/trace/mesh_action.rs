//! An HWMP element as the pcap traces show it: the body of an 802.11s Mesh action frame,
//! category Mesh (13), action HWMP Mesh Path Selection (1) (IEEE 802.11-2012 8.5.17.3), then
//! the element (8.4.2.114-117), multi-octet fields little-endian, addresses the nodes' MACs.

use super::pcap::node_mac;
use crate::ids::NodeId;
use crate::net::hwmp::msg::{HwmpMsg, Perr, Prep, Preq, Rann};

/// Table 8-38: the Mesh category; Table 8-252: HWMP Mesh Path Selection.
const CATEGORY_MESH: u8 = 13;
const ACTION_HWMP: u8 = 1;
/// Table 8-54: element IDs.
const ELEMENT_RANN: u8 = 126;
const ELEMENT_PREQ: u8 = 130;
const ELEMENT_PREP: u8 = 131;
const ELEMENT_PERR: u8 = 132;

/// Appends the action frame body carrying `msg` to `out`.
pub fn hwmp_action_body(out: &mut Vec<u8>, msg: &HwmpMsg) {
    out.extend_from_slice(&[CATEGORY_MESH, ACTION_HWMP]);
    let id = match msg {
        HwmpMsg::Preq(_) => ELEMENT_PREQ,
        HwmpMsg::Prep(_) => ELEMENT_PREP,
        HwmpMsg::Perr(_) => ELEMENT_PERR,
        HwmpMsg::Rann(_) => ELEMENT_RANN,
    };
    out.extend_from_slice(&[id, 0]);
    let start = out.len();
    match msg {
        HwmpMsg::Preq(p) => preq(out, p),
        HwmpMsg::Prep(p) => prep(out, p),
        HwmpMsg::Perr(p) => perr(out, p),
        HwmpMsg::Rann(r) => rann(out, r),
    }
    // The element's Length octet; a PERR of more than 19 destinations would not fit one
    // element (255 octets): its length saturates and a dissector flags it.
    out[start - 1] = (out.len() - start).min(255) as u8;
}

fn addr(out: &mut Vec<u8>, node: NodeId) {
    out.extend_from_slice(&node_mac(node));
}

fn u32le(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// 8.4.2.115: Flags (B1 individually addressed, B2 proactive PREP), hop count, TTL, path
/// discovery ID, originator and its SN, lifetime, metric, one target (per-target flags: B0
/// TO, B1 RF as the drafts and ns-3 keep it, B2 USN; address; SN).
fn preq(out: &mut Vec<u8>, p: &Preq) {
    let flags = (u8::from(p.individual) << 1) | (u8::from(p.proactive_prep) << 2);
    out.extend_from_slice(&[flags, p.hop_count, p.ttl]);
    u32le(out, p.discovery_id);
    addr(out, p.orig);
    u32le(out, p.orig_seq);
    u32le(out, p.lifetime_tu);
    u32le(out, p.metric);
    let t = &p.target;
    let target_flags = u8::from(t.target_only)
        | (u8::from(t.reply_and_forward) << 1)
        | (u8::from(t.unknown_seq) << 2);
    out.extend_from_slice(&[1, target_flags]);
    addr(out, t.addr);
    u32le(out, t.seq);
}

/// 8.4.2.116: Flags, hop count, TTL, target and its SN, lifetime, metric, originator and its
/// SN.
fn prep(out: &mut Vec<u8>, p: &Prep) {
    out.extend_from_slice(&[0, p.hop_count, p.ttl]);
    addr(out, p.target);
    u32le(out, p.target_seq);
    u32le(out, p.lifetime_tu);
    u32le(out, p.metric);
    addr(out, p.orig);
    u32le(out, p.orig_seq);
}

/// 8.4.2.117: TTL, number of destinations, then per destination flags, address, SN and
/// reason code.
fn perr(out: &mut Vec<u8>, p: &Perr) {
    out.extend_from_slice(&[p.ttl, p.dests.len().min(255) as u8]);
    for d in &p.dests {
        out.push(0);
        addr(out, d.addr);
        u32le(out, d.seq);
        out.extend_from_slice(&d.reason.to_le_bytes());
    }
}

/// 8.4.2.114: Flags, hop count, TTL, root and its SN, interval, metric.
fn rann(out: &mut Vec<u8>, r: &Rann) {
    out.extend_from_slice(&[0, r.hop_count, r.ttl]);
    addr(out, r.root);
    u32le(out, r.seq);
    u32le(out, r.interval_tu);
    u32le(out, r.metric);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::hwmp::msg::{PerrDest, PreqTarget};

    fn body(msg: &HwmpMsg) -> Vec<u8> {
        let mut out = Vec::new();
        hwmp_action_body(&mut out, msg);
        out
    }

    fn preq() -> HwmpMsg {
        HwmpMsg::Preq(Preq {
            individual: false,
            proactive_prep: false,
            hop_count: 2,
            ttl: 29,
            discovery_id: 7,
            orig: NodeId(0),
            orig_seq: 0x0102_0304,
            lifetime_tu: 5000,
            metric: 936,
            target: PreqTarget {
                addr: NodeId(24),
                target_only: false,
                reply_and_forward: true,
                unknown_seq: true,
                seq: 0,
            },
        })
    }

    #[test]
    fn every_element_is_as_long_as_the_frame_the_mac_sends() {
        let dest = |n| PerrDest { addr: NodeId(n), seq: 9, reason: 13 };
        let msgs = [
            preq(),
            HwmpMsg::Prep(Prep {
                hop_count: 0,
                ttl: 31,
                target: NodeId(24),
                target_seq: 3,
                lifetime_tu: 5000,
                metric: 0,
                orig: NodeId(0),
                orig_seq: 1,
            }),
            HwmpMsg::Perr(Perr { ttl: 31, dests: vec![dest(3)] }),
            HwmpMsg::Perr(Perr { ttl: 31, dests: vec![dest(3), dest(4), dest(5)] }),
            HwmpMsg::Rann(Rann {
                hop_count: 0,
                ttl: 31,
                root: NodeId(4),
                seq: 2,
                interval_tu: 5000,
                metric: 0,
            }),
        ];
        for m in &msgs {
            let b = body(m);
            assert_eq!(b.len() as u32, m.body_bytes(), "{m:?}");
            assert_eq!(&b[..2], &[13, 1], "category Mesh, action HWMP Mesh Path Selection");
            assert_eq!(b[3] as usize, b.len() - 4, "the element's Length: what follows it");
        }
    }

    #[test]
    fn a_preq_is_laid_out_as_8_4_2_115() {
        let b = body(&preq());
        assert_eq!(&b[2..4], &[130, 37], "PREQ, 26 + 11 octets");
        assert_eq!(&b[4..7], &[0, 2, 29], "flags, hop count, TTL");
        assert_eq!(&b[7..11], &7u32.to_le_bytes(), "path discovery ID");
        assert_eq!(&b[11..17], &node_mac(NodeId(0)), "originator");
        assert_eq!(&b[17..21], &[4, 3, 2, 1], "originator SN, little-endian");
        assert_eq!(&b[21..25], &5000u32.to_le_bytes(), "lifetime");
        assert_eq!(&b[25..29], &936u32.to_le_bytes(), "metric");
        assert_eq!(&b[29..31], &[1, 0b110], "one target: RF and USN set, TO clear");
        assert_eq!(&b[31..37], &node_mac(NodeId(24)), "target");
        assert_eq!(&b[37..41], &[0, 0, 0, 0], "target SN");
    }
}

//! Synthetic traces through the pcap encoder and `PcapTracer`, with 802.11b timing (2 Mbit/s
//! data, 1 Mbit/s control frames, long preamble, RTS/CTS) but no simulator: the exchanges are
//! scripted here. With `HOPSIM_PCAP_OUT=DIR` the files are kept in DIR for tests/test_pcap_tools.py
//! to read with tshark and tcptrace; without it they go to a temporary directory that is removed.
//! Either way the record counts are checked here against the script.
//!
//! `bulk/`: flow 0, TCP bulk data node 0 -> node 1 (no handshake), 12 segments of 1460 B. The
//! first transmission of segment 4 is lost on the air (its DATA frame is not received, then six
//! RTS go unanswered and the MAC gives up); segments 5-7 draw three duplicate ACKs with SACK
//! blocks and segment 4 is fast-retransmitted. The receiver's ACK of segment 1 is lost once on
//! the air and delivered by a MAC retry (Retry bit). Nodes: `bulk/nodes/node-{0,1}.pcap`;
//! endpoints: `bulk/flows/flow-0-node-{0,1}.pcap`.
//!
//! `extra/`: flow 1, a complete TCP connection 0 -> 1 (SYN and SYN-ACK offering SACK, two
//! segments, FIN both ways) without RTS/CTS; flow 2, UDP 1 -> 0; and one UDP broadcast from
//! node 2 received by nodes 0 and 1.

use std::fs;
use std::path::{Path, PathBuf};

use hopsim_core::ids::{FlowId, NodeId};
use hopsim_core::observe::trace::pcap::encode_ipv4;
use hopsim_core::observe::trace::writer::PcapTracer;
use hopsim_core::observe::trace::{TraceFrame, TraceIp, TraceKind, TraceTcp, TraceTransport};

const US: u64 = 1_000;
const SIFS_US: u64 = 10;
const DIFS_US: u64 = 50;
const SLOT_US: u64 = 20;
const PROP_NS: u64 = 667; // 200 m
const BASIC_RATE: u8 = 2; // 1 Mbit/s, in 500 kbit/s
const DATA_RATE: u8 = 4; // 2 Mbit/s
const MSS: u32 = 1460;

/// Air time of a frame of `bytes` at `rate` (500 kbit/s units), long preamble, in us.
fn air_us(bytes: usize, rate: u8) -> u64 {
    192 + (16 * bytes as u64).div_ceil(rate as u64)
}

/// What happens to one MAC attempt.
#[derive(Clone, Copy, PartialEq)]
enum Attempt {
    /// The whole exchange succeeds.
    Ok,
    /// (RTS and CTS succeed, then) the DATA frame is not received: no ACK.
    DataLost,
    /// The RTS is not received: no CTS.
    RtsLost,
}

struct Script {
    t: u64,
    tracer: PcapTracer,
    mac_seq: [u16; 3],
    ident: [u16; 3],
    scratch: Vec<u8>,
    rts: bool,
    draws: u64,
}

impl Script {
    fn new(dir: &Path, rts: bool) -> Script {
        let tracer = PcapTracer::new(Some(dir.join("nodes")), Some(dir.join("flows"))).unwrap();
        Script {
            t: 1_000_000_000,
            tracer,
            mac_seq: [0; 3],
            ident: [0; 3],
            scratch: Vec::new(),
            rts,
            draws: 0,
        }
    }

    /// DIFS and a (deterministic) backoff before an attempt.
    fn contend(&mut self) {
        self.draws += 1;
        self.t += (DIFS_US + SLOT_US * (self.draws * 7 % 32)) * US;
    }

    /// Transmits `f` from `f.ta` now; `to` receive it correctly. Returns the end of transmission.
    fn air(&mut self, mut f: TraceFrame, to: &[u32]) -> u64 {
        let bytes = match f.kind {
            TraceKind::Rts => 20,
            TraceKind::Cts | TraceKind::Ack => 14,
            TraceKind::BlockAckReq => 24,
            TraceKind::BlockAck => 32,
            TraceKind::AddbaRequest | TraceKind::AddbaResponse => 37,
            TraceKind::MeshAction => panic!("the scripts send no mesh action frames"),
            TraceKind::Data => {
                let ip_len = f.ip.as_ref().map_or(0, |ip| {
                    encode_ipv4(&mut self.scratch, ip);
                    self.scratch.len()
                });
                24 + 8 + ip_len + 4
            }
        };
        let end = self.t + air_us(bytes, f.rate_500kbps) * US;
        f.time_ns = self.t;
        self.tracer.frame(f.ta, &f, &[], &[]);
        for &n in to {
            f.time_ns = end + PROP_NS;
            self.tracer.frame(NodeId(n), &f, &[], &[]);
        }
        self.t = end;
        end
    }

    fn control(&self, kind: TraceKind, ra: u32, ta: u32, duration_us: u64) -> TraceFrame {
        TraceFrame {
            time_ns: 0,
            kind,
            ra: NodeId(ra),
            ta: NodeId(ta),
            duration_us: duration_us as u16,
            seq: 0,
            retry: false,
            rate_500kbps: BASIC_RATE,
            mcs: None,
            qos: false,
            bitmap: 0,
            ampdu: None,
            channel_mhz: 2412,
            ip: None,
        }
    }

    /// An IP packet of `flow` from `src` to `dst`, sent through the MAC with the given attempts
    /// (the last one must be `Ok` for delivery). Records it at both endpoints (sent now,
    /// received at the end of the DATA frame). Returns whether it was delivered.
    fn send(
        &mut self,
        flow: u32,
        src: u32,
        dst: u32,
        transport: TraceTransport,
        payload_len: u32,
        attempts: &[Attempt],
    ) -> bool {
        let ip = TraceIp {
            src_node: NodeId(src),
            dst_node: NodeId(dst),
            ttl: 64,
            tos: 0,
            ident: self.ident[src as usize],
            transport,
            payload_len,
            head: [0; 24],
            head_len: 0,
        };
        self.ident[src as usize] = self.ident[src as usize].wrapping_add(1);
        self.tracer.ip_packet(FlowId(flow), NodeId(src), self.t, &ip);
        let seq = self.mac_seq[src as usize];
        self.mac_seq[src as usize] = (seq + 1) & 0x0fff;

        encode_ipv4(&mut self.scratch, &ip);
        let data_us = air_us(24 + 8 + self.scratch.len() + 4, DATA_RATE);
        let ctl_us = air_us(14, BASIC_RATE);
        let mut data_sent = false;
        for &a in attempts {
            self.contend();
            if self.rts {
                let nav = 3 * SIFS_US + ctl_us + data_us + ctl_us;
                let heard: &[u32] = if a == Attempt::RtsLost { &[] } else { &[dst] };
                self.air(self.control(TraceKind::Rts, dst, src, nav), heard);
                if a == Attempt::RtsLost {
                    self.t += (SIFS_US + ctl_us + SLOT_US) * US; // CTS timeout
                    continue;
                }
                self.t += SIFS_US * US;
                let nav = nav - SIFS_US - air_us(20, BASIC_RATE);
                self.air(self.control(TraceKind::Cts, src, dst, nav), &[src]);
                self.t += SIFS_US * US;
            }
            let f = TraceFrame {
                time_ns: 0,
                kind: TraceKind::Data,
                ra: NodeId(dst),
                ta: NodeId(src),
                duration_us: (SIFS_US + ctl_us) as u16,
                seq,
                retry: data_sent,
                rate_500kbps: DATA_RATE,
                mcs: None,
                qos: false,
                bitmap: 0,
                ampdu: None,
                channel_mhz: 2412,
                ip: Some(ip),
            };
            data_sent = true;
            if a == Attempt::Ok {
                let end = self.air(f, &[dst]);
                self.tracer.ip_packet(FlowId(flow), NodeId(dst), end + PROP_NS, &ip);
                self.t += SIFS_US * US;
                self.air(self.control(TraceKind::Ack, src, dst, 0), &[src]);
                return true;
            }
            self.air(f, &[]);
            self.t += (SIFS_US + ctl_us + SLOT_US) * US; // ACK timeout
        }
        false
    }

    /// A UDP broadcast from `src`, received by `to` (no RTS, no ACK).
    fn broadcast(&mut self, src: u32, to: &[u32]) {
        let ip = TraceIp {
            src_node: NodeId(src),
            dst_node: NodeId::BROADCAST,
            ttl: 1,
            tos: 0,
            ident: self.ident[src as usize],
            transport: TraceTransport::Udp { src_port: 520, dst_port: 520 },
            payload_len: 24,
            head: [0; 24],
            head_len: 0,
        };
        self.ident[src as usize] += 1;
        let seq = self.mac_seq[src as usize];
        self.mac_seq[src as usize] += 1;
        self.contend();
        let f = TraceFrame {
            time_ns: 0,
            kind: TraceKind::Data,
            ra: NodeId::BROADCAST,
            ta: NodeId(src),
            duration_us: 0,
            seq,
            retry: false,
            rate_500kbps: BASIC_RATE,
            mcs: None,
            qos: false,
            bitmap: 0,
            ampdu: None,
            channel_mhz: 2412,
            ip: Some(ip),
        };
        self.air(f, to);
    }
}

fn tcp(src_port: u16, dst_port: u16, seq: u32, ack: u32, flags: u8) -> TraceTcp {
    TraceTcp { src_port, dst_port, seq, ack, flags, window: 64 * 1024, ..TraceTcp::default() }
}

const ACK: u8 = 0x10;
const PSH_ACK: u8 = 0x18;
const SYN: u8 = 0x02;
const FIN_ACK: u8 = 0x11;

fn out_dir(name: &str) -> (PathBuf, bool) {
    match std::env::var_os("HOPSIM_PCAP_OUT") {
        Some(d) => (PathBuf::from(d).join(name), true),
        None => {
            let d = std::env::temp_dir().join(format!("hopsim-pcap-{name}-{}", std::process::id()));
            (d, false)
        }
    }
}

/// Number of records of a pcap file, after checking its global header and record lengths.
fn count_records(path: &Path, linktype: u32) -> usize {
    let b = fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(&b[..4], &[0x4d, 0x3c, 0xb2, 0xa1], "{}", path.display());
    assert_eq!(u32::from_le_bytes(b[20..24].try_into().unwrap()), linktype);
    let (mut off, mut n, mut last_t) = (24, 0, 0u64);
    while off < b.len() {
        let r = |i: usize| u32::from_le_bytes(b[off + i..off + i + 4].try_into().unwrap());
        let t = r(0) as u64 * 1_000_000_000 + r(4) as u64;
        assert!(r(4) < 1_000_000_000 && t >= last_t, "timestamps ordered");
        assert_eq!(r(8), r(12));
        last_t = t;
        off += 16 + r(8) as usize;
        n += 1;
    }
    assert_eq!(off, b.len());
    n
}

#[test]
fn bulk_transfer_with_one_retransmission() {
    let (dir, keep) = out_dir("bulk");
    let _ = fs::remove_dir_all(&dir);
    let mut s = Script::new(&dir, true);
    let (sport, dport, iss, irs) = (49152, 5001, 1_000_000u32, 7_000u32);
    let seg_seq = |k: u32| iss + 1 + k * MSS;
    let data = |k: u32| TraceTransport::Tcp(tcp(sport, dport, seg_seq(k), irs + 1, ACK));
    let ack = |next: u32, sack: &[(u32, u32)]| {
        let mut t = tcp(dport, sport, irs + 1, next, ACK);
        t.sack[..sack.len()].copy_from_slice(sack);
        t.sack_len = sack.len() as u8;
        TraceTransport::Tcp(t)
    };
    use Attempt::*;
    let lost_then_dropped = [DataLost, RtsLost, RtsLost, RtsLost, RtsLost, RtsLost, RtsLost];

    for k in 0..4 {
        assert!(s.send(0, 0, 1, data(k), MSS, &[Ok]));
        let attempts: &[Attempt] = if k == 1 { &[DataLost, Ok] } else { &[Ok] };
        assert!(s.send(0, 1, 0, ack(seg_seq(k + 1), &[]), 0, attempts));
    }
    assert!(!s.send(0, 0, 1, data(4), MSS, &lost_then_dropped));
    for k in 5..8 {
        assert!(s.send(0, 0, 1, data(k), MSS, &[Ok]));
        let sack = [(seg_seq(5), seg_seq(k + 1))];
        assert!(s.send(0, 1, 0, ack(seg_seq(4), &sack), 0, &[Ok]));
    }
    // Fast retransmit after the third duplicate ACK.
    assert!(s.send(0, 0, 1, data(4), MSS, &[Ok]));
    assert!(s.send(0, 1, 0, ack(seg_seq(8), &[]), 0, &[Ok]));
    for k in 8..12 {
        assert!(s.send(0, 0, 1, data(k), MSS, &[Ok]));
        assert!(s.send(0, 1, 0, ack(seg_seq(k + 1), &[]), 0, &[Ok]));
    }
    s.tracer.finish().unwrap();

    const RADIOTAP: u32 = 127;
    const RAW: u32 = 101;
    // See tests/test_pcap_tools.py for how these counts follow from the script.
    assert_eq!(count_records(&dir.join("nodes/node-0.pcap"), RADIOTAP), 107);
    assert_eq!(count_records(&dir.join("nodes/node-1.pcap"), RADIOTAP), 101);
    assert_eq!(count_records(&dir.join("flows/flow-0-node-0.pcap"), RAW), 25);
    assert_eq!(count_records(&dir.join("flows/flow-0-node-1.pcap"), RAW), 24);
    if !keep {
        fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn handshake_udp_and_broadcast() {
    let (dir, keep) = out_dir("extra");
    let _ = fs::remove_dir_all(&dir);
    let mut s = Script::new(&dir, false);
    let (a, b, iss, irs) = (40000u16, 80u16, 5_000u32, 9_000u32);
    use Attempt::Ok;
    let mut syn = tcp(a, b, iss, 0, SYN);
    syn.sack_permitted = true;
    assert!(s.send(1, 0, 1, TraceTransport::Tcp(syn), 0, &[Ok]));
    let mut syn_ack = tcp(b, a, irs, iss + 1, SYN | ACK);
    syn_ack.sack_permitted = true;
    assert!(s.send(1, 1, 0, TraceTransport::Tcp(syn_ack), 0, &[Ok]));
    assert!(s.send(1, 0, 1, TraceTransport::Tcp(tcp(a, b, iss + 1, irs + 1, ACK)), 0, &[Ok]));
    for k in 0..2 {
        let seq = iss + 1 + k * MSS;
        let seg = TraceTransport::Tcp(tcp(a, b, seq, irs + 1, PSH_ACK));
        assert!(s.send(1, 0, 1, seg, MSS, &[Ok]));
        let ack = TraceTransport::Tcp(tcp(b, a, irs + 1, seq + MSS, ACK));
        assert!(s.send(1, 1, 0, ack, 0, &[Ok]));
    }
    let fin_seq = iss + 1 + 2 * MSS;
    let fin = TraceTransport::Tcp(tcp(a, b, fin_seq, irs + 1, FIN_ACK));
    assert!(s.send(1, 0, 1, fin, 0, &[Ok]));
    let fin2 = TraceTransport::Tcp(tcp(b, a, irs + 1, fin_seq + 1, FIN_ACK));
    assert!(s.send(1, 1, 0, fin2, 0, &[Ok]));
    let last = TraceTransport::Tcp(tcp(a, b, fin_seq + 1, irs + 2, ACK));
    assert!(s.send(1, 0, 1, last, 0, &[Ok]));

    for len in [1, 100, 1000] {
        let udp = TraceTransport::Udp { src_port: 6000, dst_port: 7000 };
        assert!(s.send(2, 1, 0, udp, len, &[Ok]));
    }
    s.broadcast(2, &[0, 1]);
    s.tracer.finish().unwrap();

    // Without RTS/CTS every delivered packet is DATA + ACK at both ends: 10 TCP + 3 UDP packets.
    assert_eq!(count_records(&dir.join("nodes/node-0.pcap"), 127), 2 * 13 + 1);
    assert_eq!(count_records(&dir.join("nodes/node-1.pcap"), 127), 2 * 13 + 1);
    assert_eq!(count_records(&dir.join("nodes/node-2.pcap"), 127), 1);
    for node in 0..2 {
        assert_eq!(count_records(&dir.join(format!("flows/flow-1-node-{node}.pcap")), 101), 10);
        assert_eq!(count_records(&dir.join(format!("flows/flow-2-node-{node}.pcap")), 101), 3);
    }
    if !keep {
        fs::remove_dir_all(&dir).unwrap();
    }
}

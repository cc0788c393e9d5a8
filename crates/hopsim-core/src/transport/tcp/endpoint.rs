//! A TCP connection's two endpoints at work: the sender at the flow's source, the receiver at
//! its destination. Each builds its own packets (header, options, ECN bits) from what its
//! state machine asks to send, and takes in the packets that reach it; the node hands them
//! to the network layer (`node/transport.rs`).

use super::limits::PathInfo;
use super::receiver::AckInfo;
use super::sender::{AckOptions, SendSegment};
use super::timestamps::TS_OPTION_BYTES;
use super::{sack_option_bytes, TcpCtx, TcpTimer, TCP_HEADER_BYTES};
use crate::engine::sched::TimerSink;
use crate::engine::time::SimTime;
use crate::ids::{FlowId, NodeId, SeqNo};
use crate::net::packet::{Ecn, Packet, TcpHeader, INITIAL_TTL};
use crate::transport::flow::TcpFlow;
use crate::transport::{Emit, Sent};

/// What an endpoint needs for one call: the time, where to arm its timers, reusable buffers
/// for its state machines' requests, and where to list the packets it sends.
pub struct TcpIo<'a> {
    pub now: SimTime,
    pub timers: &'a mut dyn TimerSink<TcpTimer, FlowId>,
    pub scratch: &'a mut TcpScratch,
    pub out: &'a mut Vec<Emit>,
}

/// The segments a sender and the ACKs a receiver asked to send in one call.
#[derive(Clone, Default)]
pub struct TcpScratch {
    segments: Vec<SendSegment>,
    acks: Vec<AckInfo>,
}

impl TcpScratch {
    pub fn with_capacity(segments: usize, acks: usize) -> TcpScratch {
        TcpScratch { segments: Vec::with_capacity(segments), acks: Vec::with_capacity(acks) }
    }
}

/// The flow a connection serves: its id and its end nodes.
#[derive(Debug, Clone, Copy)]
pub struct Ends {
    pub flow: FlowId,
    pub src: NodeId,
    pub dst: NodeId,
}

/// What the receiver handed to the application from one data segment.
#[derive(Debug, Clone, Default)]
pub struct Delivery {
    /// Segments handed up that never reached the receiver (invariant violations; empty, so
    /// never allocated, in a correct run).
    pub never_received: Vec<SeqNo>,
}

impl TcpFlow {
    /// The application starts: the sender may send its initial window.
    pub fn start(&mut self, io: &mut TcpIo, ends: Ends) {
        let mut cx = TcpCtx { now: io.now, timers: io.timers, out: &mut io.scratch.segments };
        self.sender.start(&mut cx);
        self.emit_segments(io, ends);
    }

    /// A timer of the connection's endpoints fired.
    pub fn on_timer(&mut self, io: &mut TcpIo, ends: Ends, timer: TcpTimer, generation: u32) {
        match timer {
            TcpTimer::Rto | TcpTimer::Pace => {
                let out = &mut io.scratch.segments;
                let mut cx = TcpCtx { now: io.now, timers: io.timers, out };
                match timer {
                    TcpTimer::Rto => self.sender.on_timeout(&mut cx, generation),
                    _ => self.sender.on_pace_timer(&mut cx, generation),
                }
                self.emit_segments(io, ends);
            }
            TcpTimer::DelAck => {
                let mut cx = TcpCtx { now: io.now, timers: io.timers, out: &mut io.scratch.acks };
                self.receiver.on_timer(&mut cx, generation);
                self.emit_acks(io, ends);
            }
        }
    }

    /// An ACK reached the sender.
    pub fn on_ack(&mut self, io: &mut TcpIo, ends: Ends, p: &Packet) {
        let hdr = p.tcp.expect("a TCP packet");
        // What the ACK tells of the path (Chen et al.): forward hops and delays echoed by the
        // receiver; the ACK's own hops from its TTL and its accumulated delays.
        let path = PathInfo {
            forward_hops: hdr.echo_hops as u32,
            return_hops: (INITIAL_TTL - p.ttl) as u32,
            forward_total_ns: hdr.echo_delay_total_ns,
            forward_max_ns: hdr.echo_delay_max_ns,
            return_total_ns: p.delay_total_ns,
        };
        let mut cx = TcpCtx { now: io.now, timers: io.timers, out: &mut io.scratch.segments };
        let sack = &hdr.sack[..hdr.sack_len as usize];
        let path = (hdr.echo_hops > 0).then_some(&path);
        let window = self.spec.rwnd_autotuning.then_some(hdr.window);
        let opts = AckOptions { window, ts: hdr.ts, ece: hdr.ece };
        self.sender.on_ack_with(&mut cx, hdr.ack, sack, path, opts);
        let end = self.total_segments.map(|n| self.first_data() + n);
        let done = end.is_some_and(|end| self.sender.snd_una() >= end);
        if self.completed_ns.is_none() && done {
            self.completed_ns = Some(io.now);
        }
        self.emit_segments(io, ends);
    }

    /// A data segment reached the receiver; `in_window`: inside the measurement window.
    pub fn on_data(&mut self, io: &mut TcpIo, ends: Ends, p: &Packet, in_window: bool) -> Delivery {
        let hdr = p.tcp.expect("a TCP packet");
        self.mark_arrived(hdr.seg);
        // Remember the forward path as this segment saw it, for the next ACK to echo.
        self.forward_path = (INITIAL_TTL - p.ttl, p.delay_total_ns, p.delay_max_ns);
        if in_window && hdr.seg >= self.first_data() {
            self.delay_sum_ns += (io.now - p.created_ns) as u128;
            self.delay_count += 1;
        }
        let first = self.receiver.next_expected();
        let mut cx = TcpCtx { now: io.now, timers: io.timers, out: &mut io.scratch.acks };
        let delivered = self.receiver.on_data(&mut cx, hdr.seg, hdr.ts);
        if self.ecn_echo.on_segment(p.ecn == Ecn::Ce, hdr.cwr) && cx.out.is_empty() {
            self.receiver.ack_at_once(&mut cx); // a CE segment is not held by delayed ACK
        }
        // Application delivery, checked independently of the receiver's buffer: each segment
        // handed up must have arrived, and hand-ups are contiguous (exactly once, in order).
        let mut delivery = Delivery::default();
        for seg in first.until(first + delivered) {
            if !self.has_arrived(seg) {
                delivery.never_received.push(seg);
            }
            let bytes = self.segment_bytes(seg) as u64;
            self.delivered_bytes += bytes;
            if in_window {
                self.window_bytes += bytes;
            }
        }
        self.emit_acks(io, ends);
        delivery
    }

    /// The data packets of the segments the sender asked for.
    fn emit_segments(&mut self, io: &mut TcpIo, ends: Ends) {
        let ts = self.sender.ts_option(io.now);
        let header_bytes = TCP_HEADER_BYTES + ts.map_or(0, |_| TS_OPTION_BYTES);
        for k in 0..io.scratch.segments.len() {
            let SendSegment { seg, retransmission: rtx } = io.scratch.segments[k];
            // RFC 3168: new data ECT(0) (retransmissions Not-ECT, 6.1.5); CWR on the first
            // new segment after a window reduction (6.1.2).
            let ecn = if self.spec.ecn && !rtx { Ecn::Ect0 } else { Ecn::NotEct };
            let cwr = !rtx && self.sender.take_cwr();
            let payload_bytes = self.segment_bytes(seg);
            let (flow, src, dst, now) = (ends.flow, ends.src, ends.dst, io.now);
            // ns-2's SYN is `tcpip_base_hdr_size_` (40 B) on the air, headers and all, even
            // for the agents whose data carry none (tcp.cc `output`).
            let syn = seg < self.first_data();
            let packet = Packet {
                tcp: Some(TcpHeader { seg, ts, cwr, syn, ..TcpHeader::default() }),
                ecn,
                headerless: self.headerless && !syn,
                ..Packet::new(flow, seg.get(), src, dst, payload_bytes, header_bytes, now)
            };
            let kind = if rtx { Sent::Retransmission } else { Sent::Data };
            io.out.push(Emit { packet, kind });
        }
        io.scratch.segments.clear();
    }

    /// The ACK packets the receiver (at the flow's destination) asked for.
    fn emit_acks(&mut self, io: &mut TcpIo, ends: Ends) {
        let echo = self.forward_path;
        let ece = self.ecn_echo.ece(); // RFC 3168 6.1.3
        for ack in io.scratch.acks.drain(..) {
            let options = sack_option_bytes(ack.sack_len) + ack.ts.map_or(0, |_| TS_OPTION_BYTES);
            let tcp = TcpHeader {
                seg: SeqNo::ZERO,
                ack: ack.next_expected,
                is_ack: true,
                sack: ack.sack,
                sack_len: ack.sack_len,
                echo_hops: echo.0,
                echo_delay_total_ns: echo.1,
                echo_delay_max_ns: echo.2,
                window: ack.window,
                ts: ack.ts,
                ece,
                cwr: false,
                syn: false,
            };
            let (flow, seq, now) = (ends.flow, ack.next_expected.get(), io.now);
            let header_bytes = TCP_HEADER_BYTES + options;
            let packet = Packet {
                tcp: Some(tcp),
                ..Packet::new(flow, seq, ends.dst, ends.src, 0, header_bytes, now)
            };
            io.out.push(Emit { packet, kind: Sent::Ack });
        }
    }
}

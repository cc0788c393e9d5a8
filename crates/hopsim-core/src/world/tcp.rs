//! TCP endpoints in the world: the sender sits at the flow's source node, the receiver at its
//! destination; segments and ACKs travel as packets through the network layer.

use super::{FlowApp, TcpFlow, World};
use crate::engine::time::SimTime;
use crate::net::packet::{Ecn, Packet, TcpHeader, INITIAL_TTL};
use crate::observe::events::{EventKind, Layer, Reason, Row};
use crate::transport::tcp::limits::PathInfo;
use crate::transport::tcp::receiver::AckInfo;
use crate::transport::tcp::sender::{AckOptions, TcpCtx};
use crate::transport::tcp::timestamps::TS_OPTION_BYTES;
use crate::transport::tcp::{sack_option_bytes, TcpTimer, TCP_HEADER_BYTES};

impl World {
    fn tcp_flow(&mut self, flow: u32) -> &mut TcpFlow {
        match &mut self.flows[flow as usize].app {
            FlowApp::Tcp(t) => t,
            FlowApp::Udp { .. } => unreachable!("flow {flow} is not TCP"),
        }
    }

    /// The application starts: the sender may send its initial window.
    pub(super) fn tcp_start(&mut self, now: SimTime, flow: u32) {
        let FlowApp::Tcp(t) = &mut self.flows[flow as usize].app else { unreachable!() };
        let mut cx = TcpCtx { now, timers: &mut self.sched, out: &mut self.tcp_out };
        t.sender.start(&mut cx);
        self.send_segments(now, flow);
    }

    /// A timer of the flow's TCP endpoints fired.
    pub(super) fn tcp_timer(&mut self, now: SimTime, flow: u32, timer: TcpTimer, generation: u32) {
        match timer {
            TcpTimer::Rto => self.tcp_timeout(now, flow, generation),
            TcpTimer::Pace => self.tcp_pace(now, flow, generation),
            TcpTimer::DelAck => self.tcp_delack(now, flow, generation),
        }
    }

    fn tcp_timeout(&mut self, now: SimTime, flow: u32, generation: u32) {
        let FlowApp::Tcp(t) = &mut self.flows[flow as usize].app else { unreachable!() };
        let mut cx = TcpCtx { now, timers: &mut self.sched, out: &mut self.tcp_out };
        t.sender.on_timeout(&mut cx, generation);
        self.send_segments(now, flow);
    }

    fn tcp_pace(&mut self, now: SimTime, flow: u32, generation: u32) {
        let FlowApp::Tcp(t) = &mut self.flows[flow as usize].app else { unreachable!() };
        let mut cx = TcpCtx { now, timers: &mut self.sched, out: &mut self.tcp_out };
        t.sender.on_pace_timer(&mut cx, generation);
        self.send_segments(now, flow);
    }

    fn tcp_delack(&mut self, now: SimTime, flow: u32, generation: u32) {
        let FlowApp::Tcp(t) = &mut self.flows[flow as usize].app else { unreachable!() };
        let mut cx = TcpCtx { now, timers: &mut self.sched, out: &mut self.ack_out };
        t.receiver.on_timer(&mut cx, generation);
        self.send_acks(now, flow);
    }

    /// Send the ACKs the receiver of `flow` asked for.
    fn send_acks(&mut self, now: SimTime, flow: u32) {
        let mut acks = std::mem::take(&mut self.ack_out);
        for ack in acks.drain(..) {
            self.send_ack(now, flow, ack);
        }
        self.ack_out = acks;
    }

    /// Put the segments the sender asked for onto the network at the source node.
    fn send_segments(&mut self, now: SimTime, flow: u32) {
        let (src, dst) = (self.flows[flow as usize].src, self.flows[flow as usize].dst);
        if self.tracing() {
            self.trace_sender(now, flow, src);
        }
        let headerless = self.tcp_flow(flow).headerless;
        let ts = self.tcp_flow(flow).sender.ts_option(now);
        let header_bytes = TCP_HEADER_BYTES + ts.map_or(0, |_| TS_OPTION_BYTES);
        for k in 0..self.tcp_out.len() {
            let (seg, rtx) = (self.tcp_out[k].seg, self.tcp_out[k].retransmission);
            let event = if rtx { EventKind::Retransmission } else { EventKind::Send };
            let payload_bytes = self.tcp_flow(flow).segment_bytes(seg);
            // RFC 3168: new data ECT(0) (retransmissions Not-ECT, 6.1.5); CWR on the first
            // new segment after a window reduction (6.1.2).
            let t = self.tcp_flow(flow);
            let ecn = if t.spec.ecn && !rtx { Ecn::Ect0 } else { Ecn::NotEct };
            let cwr = !rtx && t.sender.take_cwr();
            self.originate(
                now,
                Packet {
                    tcp: Some(TcpHeader { seg, ts, cwr, ..TcpHeader::default() }),
                    ecn,
                    headerless,
                    ..Packet::new(flow, seg, src, dst, payload_bytes, header_bytes, now)
                },
                event,
            );
        }
        self.tcp_out.clear();
    }

    /// A TCP packet reached its destination: received, or a duplicate segment.
    #[cold]
    #[inline(never)]
    fn trace_tcp_arrival(&mut self, now: SimTime, p: &Packet) {
        let (hdr, flow) = (p.tcp.expect("TCP packet"), p.flow);
        let dup = !hdr.is_ack && self.tcp_flow(flow).has_arrived(hdr.seg);
        let (event, why) = match dup {
            true => (EventKind::Drop, Some(Reason::Duplicate)),
            false => (EventKind::Receive, None),
        };
        self.trace_packet(now, p.dst, (Layer::Transport, event), p, why, p.src);
    }

    /// The sender's timeouts and window changes since the last report, for the event trace.
    #[cold]
    #[inline(never)]
    fn trace_sender(&mut self, now: SimTime, flow: u32, src: u32) {
        let t = self.tcp_flow(flow);
        let (cwnd, timeouts, una) = (t.sender.cwnd(), t.sender.stats.timeouts, t.sender.acked());
        let (last_cwnd, last_timeouts) = std::mem::replace(&mut t.traced, (cwnd, timeouts));
        for _ in last_timeouts..timeouts {
            let mut r = Row::new(now, src, Layer::Transport, EventKind::Timeout);
            (r.flow, r.seq) = (flow, una);
            self.trace_row(&r);
        }
        if cwnd != last_cwnd {
            let mut r = Row::new(now, src, Layer::Transport, EventKind::Window);
            (r.flow, r.value) = (flow, cwnd);
            self.trace_row(&r);
        }
    }

    /// The receiver (at the flow's destination) acknowledges.
    fn send_ack(&mut self, now: SimTime, flow: u32, ack: AckInfo) {
        let (src, dst) = (self.flows[flow as usize].src, self.flows[flow as usize].dst);
        let echo = self.tcp_flow(flow).forward_path;
        let ece = self.tcp_flow(flow).ecn_echo.ece(); // RFC 3168 6.1.3
        self.originate(
            now,
            Packet {
                tcp: Some(TcpHeader {
                    seg: 0,
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
                }),
                ..Packet::new(
                    flow,
                    ack.next_expected,
                    dst,
                    src,
                    0,
                    TCP_HEADER_BYTES
                        + sack_option_bytes(ack.sack_len)
                        + ack.ts.map_or(0, |_| TS_OPTION_BYTES),
                    now,
                )
            },
            EventKind::Ack,
        );
    }

    /// A TCP packet reached its destination: data at the receiver, an ACK at the sender.
    pub(super) fn tcp_arrival(&mut self, now: SimTime, p: &Packet) {
        let hdr = p.tcp.expect("TCP packet");
        let flow = p.flow;
        if self.tracing() {
            self.trace_tcp_arrival(now, p);
        }
        if hdr.is_ack {
            // What the ACK tells of the path (Chen et al.): forward hops and delays echoed by the
            // receiver; the ACK's own hops from its TTL and its accumulated delays.
            let path = PathInfo {
                forward_hops: hdr.echo_hops as u32,
                return_hops: (INITIAL_TTL - p.ttl) as u32,
                forward_total_ns: hdr.echo_delay_total_ns,
                forward_max_ns: hdr.echo_delay_max_ns,
                return_total_ns: p.delay_total_ns,
            };
            let FlowApp::Tcp(t) = &mut self.flows[flow as usize].app else { unreachable!() };
            let mut cx = TcpCtx { now, timers: &mut self.sched, out: &mut self.tcp_out };
            let sack = &hdr.sack[..hdr.sack_len as usize];
            let path = (hdr.echo_hops > 0).then_some(&path);
            let window = t.spec.rwnd_autotuning.then_some(hdr.window);
            let opts = AckOptions { window, ts: hdr.ts, ece: hdr.ece };
            t.sender.on_ack_with(&mut cx, hdr.ack, sack, path, opts);
            if t.completed_ns.is_none() && t.total_segments.is_some_and(|n| t.sender.acked() >= n) {
                t.completed_ns = Some(now);
            }
            self.send_segments(now, flow);
            return;
        }
        let (in_window, warmup) = (now >= self.warmup_ns && now < self.end_ns, self.warmup_ns);
        let FlowApp::Tcp(t) = &mut self.flows[flow as usize].app else { unreachable!() };
        t.mark_arrived(hdr.seg);
        // Remember the forward path as this segment saw it, for the next ACK to echo.
        t.forward_path = (INITIAL_TTL - p.ttl, p.delay_total_ns, p.delay_max_ns);
        if in_window {
            t.delay_sum_ns += (now - p.created_ns) as u128;
            t.delay_count += 1;
        }
        let first = t.receiver.next_expected();
        let mut cx = TcpCtx { now, timers: &mut self.sched, out: &mut self.ack_out };
        let delivered = t.receiver.on_data(&mut cx, hdr.seg, hdr.ts);
        if t.ecn_echo.on_segment(p.ecn == Ecn::Ce, hdr.cwr) && cx.out.is_empty() {
            t.receiver.ack_at_once(&mut cx); // a CE segment is not held by delayed ACK
        }
        // Application delivery, checked independently of the receiver's buffer: each segment
        // handed up must have arrived, and hand-ups are contiguous (exactly once, in order).
        for seg in first..first + delivered {
            if !t.has_arrived(seg) {
                self.invariants
                    .violate(format!("flow {flow}: segment {seg} delivered but never received"));
            }
            let bytes = t.segment_bytes(seg) as u64;
            t.delivered_bytes += bytes;
            if in_window {
                t.window_bytes += bytes;
            }
        }
        let _ = warmup;
        self.send_acks(now, flow);
    }
}

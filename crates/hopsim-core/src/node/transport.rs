//! A node's transport endpoints at work: the applications and TCP endpoints of the flows
//! that start or end here send through this node's network layer, and what reaches this
//! node for one of them is handed up. The endpoints build their own packets
//! (`transport/tcp/endpoint.rs`, `transport/udp.rs`); this file traces them and moves them.

use super::ctx::{NodeCtx, NodeOutput};
use super::Node;
use crate::engine::sched::TimerSink;
use crate::ids::FlowId;
use crate::net::packet::Packet;
use crate::observe::events::{EventKind, Layer, Reason, Row};
use crate::transport::flow::FlowApp;
use crate::transport::tcp::endpoint::{Ends, TcpIo};
use crate::transport::tcp::TcpTimer;
use crate::transport::{AppTimer, Emit, Sent};

impl Node {
    /// The application timer of `flow` (its source is here): a paced source's next send, or
    /// the start of a saturated UDP source or a TCP flow.
    pub fn on_app_timer(&mut self, cx: &mut NodeCtx, flow: FlowId) {
        match &mut cx.flows[flow.index()].app {
            FlowApp::Tcp(_) => self.run_tcp(cx, flow, None),
            FlowApp::Udp { source, .. } => {
                if !source.timer_live(cx.now) || !source.active_at(cx.now) {
                    return;
                }
                if let Some(next) = source.next_send(cx.now) {
                    TimerSink::<AppTimer, FlowId>::arm(&mut cx.sched, next, flow, AppTimer, 0);
                }
                self.send_datagram(cx, flow);
            }
        }
    }

    /// A timer of `flow`'s TCP endpoint here fired.
    pub fn on_tcp_timer(&mut self, cx: &mut NodeCtx, flow: FlowId, timer: TcpTimer, gen: u32) {
        self.run_tcp(cx, flow, Some((timer, gen)));
    }

    /// The TCP connection of `flow` starts (`timer` None) or one of its timers fires; its
    /// packets go out from here.
    fn run_tcp(&mut self, cx: &mut NodeCtx, flow: FlowId, timer: Option<(TcpTimer, u32)>) {
        let mut emitted = std::mem::take(&mut cx.scratch.emitted);
        let f = &mut cx.flows[flow.index()];
        let ends = Ends { flow, src: f.src, dst: f.dst };
        let FlowApp::Tcp(t) = &mut f.app else { unreachable!("flow {flow} is TCP") };
        let io = &mut TcpIo {
            now: cx.now,
            timers: &mut cx.sched,
            scratch: &mut cx.scratch.tcp,
            out: &mut emitted,
        };
        match timer {
            None => t.start(io, ends),
            Some((timer, gen)) => t.on_timer(io, ends, timer, gen),
        }
        let sender_side = !matches!(timer, Some((TcpTimer::DelAck, _)));
        if sender_side && cx.trace.on() {
            self.trace_sender(cx, flow);
        }
        self.send_all(cx, &mut emitted);
        cx.scratch.emitted = emitted;
    }

    /// Hand what an endpoint emitted to the network layer here, in order.
    fn send_all(&mut self, cx: &mut NodeCtx, emitted: &mut Vec<Emit>) {
        for e in emitted.drain(..) {
            let event = match e.kind {
                Sent::Data => EventKind::Send,
                Sent::Retransmission => EventKind::Retransmission,
                Sent::Ack => EventKind::Ack,
            };
            self.send(cx, e.packet, event);
        }
    }

    /// The UDP application of `flow` hands one datagram to the network layer here.
    fn send_datagram(&mut self, cx: &mut NodeCtx, flow: FlowId) {
        let FlowApp::Udp { source, .. } = &mut cx.flows[flow.index()].app else {
            unreachable!("flow {flow} is UDP")
        };
        let packet = source.datagram(flow, cx.now);
        self.send(cx, packet, EventKind::Send);
    }

    /// A transport endpoint here sends a packet of its flow (`event`, for the trace: a new
    /// packet, a retransmission or an ACK).
    fn send(&mut self, cx: &mut NodeCtx, mut packet: Packet, event: EventKind) {
        let f = &mut cx.flows[packet.flow.index()];
        f.packets_sent += 1;
        packet.dscp = f.dscp;
        if packet.src == f.src {
            // The data direction (not TCP's ACKs): its route is sampled.
            cx.out.push(NodeOutput::DataSent { flow: packet.flow });
        }
        packet.ident = self.take_ident();
        cx.packets.number(&mut packet);
        let layer = if packet.tcp.is_some() { Layer::Transport } else { Layer::App };
        cx.trace.packet(cx.now, self.id, (layer, event), &packet, None, packet.dst);
        if let Some(pcap) = cx.pcap.as_mut() {
            pcap.ip_packet_of(&cx.flows, self.id, cx.now, &packet);
        }
        let id = cx.packets.alloc(packet);
        self.route_and_enqueue(cx, id);
    }

    /// Saturated sources here always keep one packet waiting in the interface queue.
    pub(super) fn refill_saturated(&mut self, cx: &mut NodeCtx) {
        for k in 0..self.saturated_flows.len() {
            let flow = self.saturated_flows[k];
            let f = &cx.flows[flow.index()];
            let active = matches!(&f.app, FlowApp::Udp { source, .. } if source.active_at(cx.now));
            // Packets waiting for a route count as queued: no refill while a discovery runs.
            let waiting = self.route_wait.holds_flow(flow, &cx.packets);
            if active && !waiting {
                while cx.flows[flow.index()].queued_at_source < self.saturation_depth {
                    let before = cx.flows[flow.index()].queued_at_source;
                    self.send_datagram(cx, flow);
                    if cx.flows[flow.index()].queued_at_source <= before {
                        break; // not queued (dropped, or waiting for a route)
                    }
                }
            }
        }
    }

    /// A packet reached its destination, this node: hand it to the transport endpoint.
    pub(super) fn deliver_local(&mut self, cx: &mut NodeCtx, p: &Packet) {
        if let Some(pcap) = cx.pcap.as_mut() {
            pcap.ip_packet_of(&cx.flows, p.dst, cx.now, p);
        }
        let in_window = cx.in_window();
        let f = &mut cx.flows[p.flow.index()];
        f.packets_delivered += 1;
        let ends = Ends { flow: p.flow, src: f.src, dst: f.dst };
        let t = match &mut f.app {
            FlowApp::Udp { sink, .. } => {
                sink.deliver(p.payload_bytes, cx.now - p.created_ns, in_window);
                let what = (Layer::App, EventKind::Receive);
                cx.trace.packet(cx.now, p.dst, what, p, None, p.src);
                return;
            }
            FlowApp::Tcp(t) => t,
        };
        let hdr = p.tcp.expect("a TCP packet");
        if cx.trace.on() {
            // A TCP packet reached its destination: received, or a duplicate segment.
            let dup = !hdr.is_ack && t.has_arrived(hdr.seg);
            let (event, why) = match dup {
                true => (EventKind::Drop, Some(Reason::Duplicate)),
                false => (EventKind::Receive, None),
            };
            cx.trace.packet(cx.now, p.dst, (Layer::Transport, event), p, why, p.src);
        }
        let mut emitted = std::mem::take(&mut cx.scratch.emitted);
        let FlowApp::Tcp(t) = &mut cx.flows[p.flow.index()].app else { unreachable!() };
        let io = &mut TcpIo {
            now: cx.now,
            timers: &mut cx.sched,
            scratch: &mut cx.scratch.tcp,
            out: &mut emitted,
        };
        if hdr.is_ack {
            t.on_ack(io, ends, p);
            if cx.trace.on() {
                self.trace_sender(cx, p.flow);
            }
        } else {
            let delivery = t.on_data(io, ends, p, in_window);
            for seg in delivery.never_received {
                let what = format!("flow {}: segment {seg} delivered but never received", p.flow);
                cx.invariants.violate(what);
            }
        }
        self.send_all(cx, &mut emitted);
        cx.scratch.emitted = emitted;
    }

    /// The sender's timeouts and window changes since the last report, for the event trace.
    #[cold]
    #[inline(never)]
    fn trace_sender(&mut self, cx: &mut NodeCtx, flow: FlowId) {
        let FlowApp::Tcp(t) = &mut cx.flows[flow.index()].app else { return };
        let (cwnd, timeouts, una) = (t.sender.cwnd(), t.sender.stats.timeouts, t.sender.snd_una());
        let (last_cwnd, last_timeouts) = std::mem::replace(&mut t.traced, (cwnd, timeouts));
        for _ in last_timeouts..timeouts {
            let mut r = Row::new(cx.now, self.id, Layer::Transport, EventKind::Timeout);
            (r.flow, r.seq) = (flow.0, una.get());
            cx.trace.row(&r);
        }
        if cwnd != last_cwnd {
            let mut r = Row::new(cx.now, self.id, Layer::Transport, EventKind::Window);
            (r.flow, r.value) = (flow.0, cwnd);
            cx.trace.row(&r);
        }
    }
}

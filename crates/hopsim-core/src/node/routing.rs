//! A node carries out what its router (`net/router/`) decides and asks for: a packet's fate,
//! control packets with their jitter, discovery and HELLO timers, queue purges, and the
//! packets waiting for a route (`route_wait.rs`).

use super::ctx::NodeCtx;
use super::Node;
use crate::engine::sched::TimerSink;
use crate::engine::time::SimTime;
use crate::ids::{NodeId, PacketId};
use crate::net::packet::{FlowId, Packet, PacketArena, UDP_HEADER_BYTES};
use crate::net::router::{
    Control, Decision, DropReason, RouteAction, RouteCtx, RouteTimer, Router,
};
use crate::observe::event_rows::drop_reason;
use crate::observe::events::{EventKind, Layer, Reason};
use crate::queue::{Queued, Verdict};

impl Node {
    /// Run `f` on this node's router; what it asked for is returned, to be carried out by
    /// `routing_done`.
    pub(super) fn routed<R>(
        &mut self,
        cx: &mut NodeCtx,
        f: impl FnOnce(&mut Router, &mut RouteCtx, &mut PacketArena) -> R,
    ) -> (R, Vec<crate::net::router::RouteAction>) {
        let mut out = std::mem::take(&mut cx.scratch.route_out);
        let rcx = &mut RouteCtx {
            now: cx.now,
            me: self.id,
            routes: &cx.routes,
            out: &mut out,
            olsr: &mut cx.olsr,
            hwmp: &mut cx.hwmp,
        };
        let result = f(&mut self.router, rcx, &mut cx.packets);
        (result, out)
    }

    /// Carry out what the router asked for (`routed`) and give the buffer back.
    pub(super) fn routing_done(&mut self, cx: &mut NodeCtx, mut out: Vec<RouteAction>) {
        self.apply_routing(cx, &mut out);
        cx.scratch.route_out = out;
    }

    /// Run `f` on this node's router and carry out what it asked for at once.
    pub(super) fn with_router<R>(
        &mut self,
        cx: &mut NodeCtx,
        f: impl FnOnce(&mut Router, &mut RouteCtx, &mut PacketArena) -> R,
    ) -> R {
        let (result, out) = self.routed(cx, f);
        self.routing_done(cx, out);
        result
    }

    /// Route `packet` here: its next hop; None when it was delivered, dropped or put aside
    /// to wait for a route (the router may have started a discovery).
    pub(super) fn next_hop_for(&mut self, cx: &mut NodeCtx, packet: PacketId) -> Option<NodeId> {
        let (decision, out) =
            self.routed(cx, |r, rcx, packets| r.route(rcx, packets.get_mut(packet)));
        // The decision first (packets that waited go before this one), then the actions.
        let hop = match decision {
            Decision::Deliver => {
                let p = *cx.packets.get(packet);
                cx.packets.free(packet);
                self.deliver_local(cx, &p);
                None
            }
            Decision::Forward { next_hop, release_older } => {
                if release_older {
                    let dst = cx.packets.get(packet).dst;
                    self.release_older(cx, dst);
                }
                Some(next_hop)
            }
            Decision::Hold => {
                self.wait_for_route(cx, packet);
                None
            }
            Decision::Drop(reason) => {
                self.routing_drop(cx, packet, reason);
                None
            }
        };
        self.routing_done(cx, out);
        hop
    }

    /// Routing lost `packet` here.
    pub(super) fn routing_drop(&mut self, cx: &mut NodeCtx, packet: PacketId, reason: DropReason) {
        let what = (Layer::Net, EventKind::Drop);
        cx.trace_id(self.id, what, packet, Some(drop_reason(reason)));
        match reason {
            DropReason::NoRoute | DropReason::BadSourceRoute => self.counters.no_route_drops += 1,
        }
        cx.drop_packet(packet);
    }

    /// A routing message from neighbour `from` arrived.
    pub(super) fn control_received(&mut self, cx: &mut NodeCtx, msg: Control, from: NodeId) {
        self.counters.routing_received += 1;
        let link_metric = match msg {
            Control::Hwmp(_) => self.airtime_metric(cx, from),
            _ => 0,
        };
        self.with_router(cx, |r, rcx, _| r.on_control(rcx, msg, from, link_metric));
    }

    /// The airtime metric of this node's link with `from` (IEEE 802.11-2012 13.9): the rate
    /// control's current rate toward it and its measured frame error rate.
    fn airtime_metric(&self, cx: &NodeCtx, from: NodeId) -> u32 {
        let (rate, fer) = self.mac.rates.link_estimate(from);
        crate::net::hwmp::metric::airtime_metric(cx.cfg.airtime_overhead_us, rate.mbps(), fer)
    }

    /// Drop every packet queued here for `next_hop` (ns-2 AODV `ifqueue->filter`).
    fn purge_queue(&mut self, cx: &mut NodeCtx, next_hop: NodeId) {
        let mut taken = Vec::new();
        for q in &mut self.queues {
            q.take_for(next_hop, cx.now, &mut taken);
        }
        for item in taken {
            self.counters.queue_purge_drops += 1;
            let what = (Layer::Ifq, EventKind::Drop);
            cx.trace_id(self.id, what, item.packet, Some(Reason::QueuePurge));
            cx.left_queue(self.id, item.packet);
            cx.drop_packet(item.packet);
        }
    }

    /// A control packet from this node to `to` (a neighbour, or NodeId::BROADCAST).
    pub(super) fn control_packet(&mut self, cx: &mut NodeCtx, to: NodeId, bytes: u32) -> PacketId {
        let ident = self.take_ident();
        let mut p = Packet {
            control: true,
            ident,
            ..Packet::new(FlowId::NONE, 0, self.id, to, bytes, UDP_HEADER_BYTES, cx.now)
        };
        cx.packets.number(&mut p);
        cx.packets.alloc(p)
    }

    /// A control packet enters the interface queue, ahead of data.
    pub fn release_control(&mut self, cx: &mut NodeCtx, packet: PacketId) {
        if self.deferring {
            self.deferred.push((packet, None)); // routing control (forward.rs `on_mac_done`)
            return;
        }
        let to = cx.packets.get(packet).dst;
        let next_hop = if to == NodeId::BROADCAST { NodeId::BROADCAST } else { to };
        let arrival = super::queue::arrival(cx, packet);
        let k = self.queue_of(cx, packet);
        let verdict = self.queues[k].push(Queued { packet, next_hop }, true, arrival);
        let pushed = match verdict {
            Verdict::Dropped(d, _) => Some(d),
            Verdict::Queued | Verdict::Marked => None,
        };
        if pushed.is_none_or(|d| d.packet != packet) {
            self.trace_enqueue(cx, packet, next_hop);
        }
        if let Some(dropped) = pushed {
            self.counters.queue_drops += 1;
            let what = (Layer::Ifq, EventKind::Drop);
            cx.trace_id(self.id, what, dropped.packet, Some(Reason::QueueFull));
            cx.left_queue(self.id, dropped.packet);
            cx.drop_packet(dropped.packet);
        }
        self.pump(cx);
    }

    /// Arm one of this node's routing timers.
    pub(super) fn arm_route(&self, cx: &mut NodeCtx, at: u64, timer: RouteTimer) {
        TimerSink::<RouteTimer, NodeId>::arm(&mut cx.sched, at, self.id, timer, 0);
    }

    /// A routing timer of this node fired (ETX's probes are the world's: `world/etx.rs`).
    pub fn on_route_timer(&mut self, cx: &mut NodeCtx, timer: RouteTimer) {
        match timer {
            RouteTimer::Discovery { dst } => self.on_discovery_timer(cx, dst),
            RouteTimer::Hello => self.on_hello_timer(cx),
            RouteTimer::OlsrHello | RouteTimer::OlsrTc => {
                let tc = timer == RouteTimer::OlsrTc;
                let interval = self.with_router(cx, |r, rcx, _| r.olsr_timer(rcx, tc));
                if let Some(at) =
                    interval.map(|i| cx.now + i.max(1)).filter(|at| *at < cx.cfg.end_ns)
                {
                    self.arm_route(cx, at, timer);
                }
            }
            RouteTimer::OlsrSend => self.with_router(cx, |r, rcx, _| r.send_queued(rcx)),
            RouteTimer::Hwmp(t) => self.with_router(cx, |r, rcx, _| r.hwmp_timer(rcx, t)),
            RouteTimer::ControlRelease { packet } => self.release_control(cx, packet),
            RouteTimer::RouteRelease { packet, next_hop } => {
                cx.trace_id(self.id, (Layer::Net, EventKind::Release), packet, None);
                self.enqueue_for(cx, packet, next_hop);
            }
            RouteTimer::EtxProbe => unreachable!("ETX probes are sent through send_probe"),
        }
    }

    /// Broadcast an ETX probe of `bytes` (De Couto et al.).
    pub fn send_probe(&mut self, cx: &mut NodeCtx, bytes: u32) {
        let packet = self.control_packet(cx, NodeId::BROADCAST, bytes);
        cx.packets.get_mut(packet).etx_probe = true;
        if cx.trace.on() {
            let p = *cx.packets.get(packet);
            cx.trace.packet(cx.now, self.id, (Layer::Net, EventKind::RouteBeacon), &p, None, p.dst);
        }
        self.release_control(cx, packet);
    }

    /// When this node's first ETX probe goes: uniform over one interval.
    pub fn first_probe_ns(&mut self, interval_ns: SimTime) -> SimTime {
        (self.routing_rng.uniform() * interval_ns as f64) as SimTime
    }

    /// The gap to this node's next ETX probe: uniform in [0.9, 1.1] x the interval (De Couto
    /// et al. jitter their probes).
    pub fn probe_gap_ns(&mut self, interval_ns: SimTime) -> SimTime {
        let u = self.routing_rng.uniform();
        ((0.9 + 0.2 * u) * interval_ns as f64) as SimTime
    }

    /// The routes are frozen (ETX): every packet that waited for them goes on, in order.
    pub fn release_all_waiting(&mut self, cx: &mut NodeCtx) {
        for id in self.route_wait.take_all() {
            self.route_and_enqueue(cx, id);
        }
    }

    /// The periodic HELLO (AODV with `routing.hello`).
    fn on_hello_timer(&mut self, cx: &mut NodeCtx) {
        let interval = self.with_router(cx, |r, rcx, _| r.hello(rcx));
        if let Some(interval) = interval {
            if cx.now + interval.max(1) < cx.cfg.end_ns {
                let at = cx.now + interval.max(1);
                self.arm_route(cx, at, RouteTimer::Hello);
            }
        }
    }

    /// A discovery timer for `dst`.
    fn on_discovery_timer(&mut self, cx: &mut NodeCtx, dst: NodeId) {
        self.expire_waiting(cx);
        let waiting = self.route_wait.holds_dst(dst, &cx.packets);
        let ((), out) = self.routed(cx, |r, rcx, _| r.on_timer(rcx, dst, waiting));
        self.routing_done(cx, out);
    }

    /// Carry out what the router asked for, in order.
    pub(super) fn apply_routing(&mut self, cx: &mut NodeCtx, out: &mut Vec<RouteAction>) {
        for action in out.drain(..) {
            match action {
                RouteAction::Send { msg, to, delay_ns, jitter_ns } => {
                    // The jitter of a control packet: uniform up to `jitter_ns` (0: none).
                    let delay = delay_ns
                        + match jitter_ns {
                            0 => 0,
                            max => (self.routing_rng.uniform() * max as f64) as u64,
                        };
                    let packet = self.control_packet(cx, to, msg.bytes());
                    let p = cx.packets.get_mut(packet);
                    p.routing_msg = Some(msg);
                    // A mesh action frame: its body alone, no IP, UDP or LLC header.
                    p.headerless = matches!(msg, Control::Hwmp(_));
                    cx.trace.control((cx.now, self.id), msg, cx.packets.get(packet));
                    if delay == 0 {
                        self.release_control(cx, packet);
                    } else {
                        let (at, timer) = (cx.now + delay, RouteTimer::ControlRelease { packet });
                        self.arm_route(cx, at, timer);
                    }
                }
                RouteAction::SendRouted { msg, route } => {
                    // A DSR reply or error travels by source route to the end of `route`.
                    if route.len() >= 2 {
                        let packet = self.control_packet(cx, route.last(), msg.bytes());
                        let q = cx.packets.get_mut(packet);
                        q.routing_msg = Some(Control::Dsr(msg));
                        q.route = Some((route, 0));
                        q.option_bytes = route.option_bytes();
                        let p = cx.packets.get(packet);
                        cx.trace.control((cx.now, self.id), Control::Dsr(msg), p);
                        self.route_and_enqueue(cx, packet);
                    }
                }
                RouteAction::Arm { timer, at } => self.arm_route(cx, at, timer),
                RouteAction::SendQueued { jitter_ns } => {
                    let delay = (self.routing_rng.uniform() * jitter_ns as f64) as u64;
                    let at = cx.now + delay;
                    self.arm_route(cx, at, RouteTimer::OlsrSend);
                }
                RouteAction::Timer { dst, at } => {
                    self.arm_route(cx, at, RouteTimer::Discovery { dst })
                }
                RouteAction::RouteFound { dst, paced } => {
                    self.release_waiting(cx, dst, Some(paced))
                }
                RouteAction::Unreachable { dst } => self.release_waiting(cx, dst, None),
                RouteAction::DropOldestWaiting { dst } => self.drop_oldest_waiting(cx, dst),
                RouteAction::PurgeQueue { next_hop } => self.purge_queue(cx, next_hop),
            }
        }
    }
}

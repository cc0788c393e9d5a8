//! ETX routing in the world: probes during the warm-up, then frozen shortest-ETX routes
//! (net/etx.rs has the metric and the path computation). Data sent before the routes are
//! frozen waits at its source (bounded, as packets waiting for an AODV route do).

use super::event::{Event, SimEvent};
use super::{at_node, NodeCtx, World};
use crate::engine::sched::TimerSink;
use crate::engine::time::SimTime;
use crate::ids::NodeId;
use crate::net::etx::EtxTable;
use crate::net::router::RouteTimer;

#[derive(Clone)]
pub(crate) struct EtxState {
    pub table: EtxTable,
    pub interval_ns: SimTime,
    pub warmup_end_ns: SimTime,
    pub probe_bytes: u32,
    pub frozen: bool,
    /// Flow endpoints: the destinations routes are computed for.
    pub endpoints: Vec<NodeId>,
}

impl World {
    pub(super) fn etx_start(&mut self) {
        let Some(e) = self.etx.as_ref() else { return };
        let (interval, end) = (e.interval_ns, e.warmup_end_ns);
        for n in self.nodes.iter_mut() {
            // First probes spread over one interval.
            let at = n.first_probe_ns(interval);
            self.cx.sched.arm(at, n.id, RouteTimer::EtxProbe, 0);
        }
        self.cx.sched.schedule(end, Event::Sim(SimEvent::EtxFreeze));
    }

    pub(super) fn etx_probe(&mut self, now: SimTime, node: NodeId) {
        let Some(e) = self.etx.as_mut() else { return };
        if e.frozen || now >= e.warmup_end_ns {
            return;
        }
        e.table.note_sent(node);
        let (bytes, interval) = (e.probe_bytes, e.interval_ns);
        let gap = at_node!(self, now, node, |n, cx| {
            n.send_probe(cx, bytes);
            n.probe_gap_ns(interval)
        });
        self.cx.sched.arm(now + gap.max(1), node, RouteTimer::EtxProbe, 0);
    }

    /// A probe from `from` reached `node` (the packet stays the sender's to free).
    pub(super) fn etx_heard(&mut self, node: NodeId, from: NodeId) {
        if let Some(e) = self.etx.as_mut() {
            if !e.frozen {
                e.table.note_heard(node, from);
            }
        }
    }

    /// Freeze the routes and let the waiting packets go.
    pub(super) fn etx_freeze(&mut self, now: SimTime) {
        let Some(e) = self.etx.as_mut() else { return };
        e.frozen = true;
        self.cx.routes = e.table.routes(&e.endpoints);
        for f in self.cx.flows.iter_mut() {
            if let Some(h) = self.cx.routes.hops(f.src, f.dst) {
                f.hops = h;
            }
        }
        for n in self.nodes.iter_mut() {
            n.router.freeze();
        }
        for node in (0..self.nodes.len() as u32).map(NodeId) {
            at_node!(self, now, node, |n, cx| n.release_all_waiting(cx));
        }
    }
}

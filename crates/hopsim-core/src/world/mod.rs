//! The world: nodes in an arena (a `Vec` indexed by node id), the packet arena, the event
//! loop and the dispatch of events to the layers. The layer glue lives in `air` (PHY <-> MAC
//! over the channel) and `stack` (MAC <-> queue <-> routing <-> transport).

mod air;
mod aqm;
mod build;
mod dsr;
mod etx;
mod event;
mod events;
mod fading;
mod flows;
mod motion;
mod paths;
mod placement;
mod result;
mod routing;
mod run;
mod series;
mod stack;
mod tcp;
mod trace;

pub use crate::observe::metrics::Series;
pub use placement::{layout, Layout};

pub(crate) use flows::{FlowApp, FlowState, TcpFlow};

use fading::Fader;

use crate::engine::budget::Budget;
use crate::engine::sched::Scheduler;
use crate::engine::time::SimTime;
use crate::mac::dcf::{MacCtx, MacOutput, Tagged};
use crate::net::packet::PacketArena;
use crate::net::router::RouteAction;
use crate::net::router::RouteTimer;
use crate::net::routing::StaticRoutes;
use crate::node::Node;
use crate::observe::events::EventTrace;
use crate::observe::metrics::{Invariants, RunResult};
use crate::observe::trace::writer::PcapTracer;
use crate::phy::channel::Channel;
use crate::transport::tcp::receiver::AckInfo;
use crate::transport::tcp::sender::SendSegment;
use event::{Event, FlowTimer, NodeTimer, SimEvent};

pub struct World {
    sched: Scheduler<Event>,
    nodes: Vec<Node>,
    channel: Channel,
    routes: StaticRoutes,
    packets: PacketArena,
    flows: Vec<FlowState>,
    /// MAC outputs waiting to be handled, tagged with the node that produced them.
    out: Vec<Tagged>,
    positions: Vec<[f64; 2]>,
    warmup_ns: SimTime,
    end_ns: SimTime,
    invariants: Invariants,
    difs_ns: SimTime,
    frame_error_rate: f64,
    fading: Fader,
    /// Every receiver is in ns-2 capture mode (else SINR).
    capture_mode: bool,
    /// Segments a TCP sender asked to send, handled after each sender call.
    tcp_out: Vec<SendSegment>,
    /// ACKs a TCP receiver asked to send, handled after each receiver call.
    ack_out: Vec<AckInfo>,
    /// Packets the AQM dropped at a dequeue, handled after it.
    aqm_dropped: Vec<crate::queue::Queued>,
    tracer: Option<PcapTracer>,
    events: Option<EventTrace>,
    /// The id of the last packet numbered (`Packet::uid`).
    next_uid: u32,
    series: Option<Series>,
    motion: Option<motion::Motion>,
    /// What the router of the node being handled asked for (`net/router.rs`).
    route_out: Vec<RouteAction>,
    warnings: Vec<String>,
    etx: Option<etx::EtxState>,
    /// Spacing of packets released when a route is found (ns-2 AODV ARP_DELAY, DSR
    /// arp_timeout; 0: at once).
    release_spacing_ns: SimTime,
    /// The ns2 profile (scenario `profile = "ns2"`): DSR salvaging and queue purge here.
    ns2: bool,
    budget: Budget,
    /// Per flow, the routes its data took and how long each held (`paths.rs`).
    path_logs: Vec<paths::PathLog>,
    run_info: RunInfo,
}

/// What the result document repeats of the scenario's run settings.
pub(crate) struct RunInfo {
    pub seed: u64,
    pub duration_s: f64,
    pub warmup_s: f64,
}

impl World {
    /// The frozen route of a flow (static and ETX routing), as a node sequence.
    pub(crate) fn fixed_path(&self, src: u32, dst: u32) -> Option<Vec<u32>> {
        if !self.nodes[src as usize].router.fixed() {
            return None;
        }
        self.routes.path(src, dst)
    }

    /// ETX: the measured links (None for other routing).
    pub(crate) fn etx_links(&self) -> Option<Vec<crate::net::etx::EtxLink>> {
        self.etx.as_ref().map(|e| e.table.links())
    }

    fn dispatch(&mut self, now: SimTime, event: Event) {
        match event {
            Event::TxEnd { node } => self.end_tx(now, node),
            Event::Node { node, timer: NodeTimer::Mac(timer, generation) } => {
                let mut cx = MacCtx { now, timers: &mut self.sched, out: &mut self.out };
                self.nodes[node as usize].mac.on_timer(&mut cx, timer, generation);
            }
            Event::Node { node, timer: NodeTimer::Route(timer) } => match timer {
                RouteTimer::Discovery { dst } => self.route_timer(now, node, dst),
                RouteTimer::Hello => self.hello(now, node),
                RouteTimer::EtxProbe => self.etx_probe(now, node),
                RouteTimer::ControlRelease { packet } => self.release_control(now, node, packet),
                RouteTimer::RouteRelease { packet } => self.route_and_enqueue(now, node, packet),
            },
            Event::Flow { flow, timer: FlowTimer::App } => self.app_send(now, flow),
            Event::Flow { flow, timer: FlowTimer::Tcp(timer, generation) } => {
                self.tcp_timer(now, flow, timer, generation)
            }
            Event::Sim(SimEvent::Sample) => self.sample(now),
            Event::Sim(SimEvent::EtxFreeze) => self.etx_freeze(now),
        }
        self.drain(now);
    }

    /// Handle MAC outputs in the order they were produced (handling may add more).
    fn drain(&mut self, now: SimTime) {
        let mut i = 0;
        while i < self.out.len() {
            let Tagged { output, node } = self.out[i];
            i += 1;
            match output {
                MacOutput::Transmit { frame, response } => {
                    self.start_tx(now, node, frame, response)
                }
                MacOutput::Received { packet, from } => self.mac_received(now, node, packet, from),
                MacOutput::Done { packet, next_hop, acked, service_ns } => {
                    self.mac_done(now, node, packet, next_hop, acked, service_ns)
                }
                MacOutput::Note(note) => self.trace_mac_note(now, node, note),
            }
        }
        self.out.clear();
    }

    /// Stream the event trace of the run (`observe/events.rs`).
    pub fn attach_events(&mut self, trace: EventTrace) {
        for n in self.nodes.iter_mut() {
            n.mac.report_notes(true);
        }
        self.events = Some(trace);
    }

    /// Write pcap traces of the run through `tracer`.
    pub fn attach_tracer(&mut self, tracer: PcapTracer) {
        self.tracer = Some(tracer);
    }

    /// Sample per-flow window and goodput every `interval_ns` (from time 0).
    pub fn enable_series(&mut self, interval_ns: SimTime) {
        self.series = Some(Series::new(interval_ns, self.flows.len()));
        self.sched.schedule(interval_ns.max(1).min(self.end_ns), Event::Sim(SimEvent::Sample));
    }

    /// Close the traces; problems become warnings of the result (the results stay intact).
    /// The time series gets its last sample at the end of the run.
    pub fn finish(&mut self) {
        if self.series.as_ref().is_some_and(|s| s.last_time_ns() < self.end_ns) {
            self.sample(self.end_ns);
        }
        if let Some(t) = self.tracer.take() {
            if let Err(e) = t.finish() {
                self.warnings.push(format!("pcap trace incomplete: {e}"));
            }
        }
        if let Some(t) = self.events.take() {
            if let Err(e) = t.finish() {
                self.warnings.push(format!("event trace incomplete: {e}"));
            }
        }
    }

    /// Simulated time reached (the end time once `run` returned).
    pub fn now(&self) -> SimTime {
        self.sched.now()
    }

    pub fn events(&self) -> u64 {
        self.sched.events_popped()
    }

    /// The result document of the run.
    /// The result document of the run; `scenario` is the scenario as run, serialised.
    pub fn result(&self, scenario: Box<serde_json::value::RawValue>) -> RunResult {
        result::collect(self, scenario)
    }
}

/// Read-only views used by the metrics module.
impl World {
    pub(crate) fn nodes(&self) -> &[Node] {
        &self.nodes
    }
    pub(crate) fn flows(&self) -> &[FlowState] {
        &self.flows
    }
    pub(crate) fn packets(&self) -> &PacketArena {
        &self.packets
    }
    pub(crate) fn positions(&self) -> &[[f64; 2]] {
        &self.positions
    }
    pub(crate) fn invariants(&self) -> &Invariants {
        &self.invariants
    }
    pub(crate) fn series(&self) -> Option<&Series> {
        self.series.as_ref()
    }
    pub(crate) fn warnings(&self) -> &[String] {
        &self.warnings
    }
    pub(crate) fn window_ns(&self) -> (SimTime, SimTime) {
        (self.warmup_ns, self.end_ns)
    }
}

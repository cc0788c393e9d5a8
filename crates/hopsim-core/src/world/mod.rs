//! The world: the event loop (`run.rs`), the air (`air.rs`: frames between nodes, the one
//! place that touches several nodes), building from the scenario (`build.rs`,
//! `placement.rs`) and the result (`result.rs`, `series.rs`, `paths.rs`). Everything else
//! is done by the nodes (`node/`), each through a context the world lends it for one call.

mod air;
mod ampdu;
mod aqm;
mod build;
mod etx;
mod event;
mod fading;
mod fork;
mod inspect;
mod interference;
mod mac_config;
mod motion;
mod paths;
mod placement;
mod probe;
mod result;
mod routers;
mod run;
mod series;
mod steer;

pub use crate::observe::metrics::Series;
pub use inspect::{LiveFlow, LiveNode, LiveState};
pub use placement::{layout, Layout};
pub use probe::FlowProbe;

use fading::Fader;

use crate::engine::budget::Budget;
use crate::engine::sched::Scheduler;
use crate::engine::time::SimTime;
use crate::ids::NodeId;
use crate::mac::dcf::{MacCtx, MacOutput, MacTimer, Tagged};
use crate::net::router::RouteTimer;
use crate::node::{Node, NodeCtx, NodeOutput};
use crate::observe::events::EventTrace;
use crate::observe::metrics::RunResult;
use crate::observe::trace::writer::PcapTracer;
use crate::phy::channel::Channel;
use crate::transport::tcp::TcpTimer;
use event::{Event, FlowTimer, NodeTimer, SimEvent};

#[derive(Clone)]
pub struct World {
    nodes: Vec<Node>,
    /// What the nodes share (the event queue, packets, flows, traces), lent to one node at
    /// a time (`node/ctx.rs`).
    cx: NodeCtx<Scheduler<Event>>,
    channel: Channel,
    positions: Vec<[f64; 2]>,
    frame_error_rate: f64,
    fading: Fader,
    /// Transmitters outside the network (`[[interference]]`).
    interference: Option<interference::Interference>,
    /// Every receiver is in ns-2 capture mode (else SINR).
    capture_mode: bool,
    series: Option<Series>,
    motion: Option<motion::Motion>,
    warnings: Vec<String>,
    etx: Option<etx::EtxState>,
    budget: Budget,
    /// Per flow, the routes its data took and how long each held (`paths.rs`).
    path_logs: Vec<paths::PathLog>,
    run_info: RunInfo,
    ampdu: ampdu::AmpduScratch,
    /// Some MAC aggregates (802.11n A-MPDUs): QoS Data goes through reordering buffers.
    aggregating: bool,
}

/// Run `$body` with node `$id` of `$world` as `$n` and the context lent to it as `$cx`, then
/// handle what the node reported.
macro_rules! at_node {
    ($world:expr, $now:expr, $id:expr, |$n:ident, $cx:ident| $body:expr) => {{
        let w: &mut World = $world;
        w.cx.now = $now;
        let $n = &mut w.nodes[NodeId::index($id)];
        let $cx: &mut NodeCtx = &mut w.cx;
        let result = $body;
        if !w.cx.out.is_empty() {
            w.node_reported($now, $id);
        }
        result
    }};
}
use at_node;

/// What the result document repeats of the scenario's run settings.
#[derive(Clone)]
pub(crate) struct RunInfo {
    pub seed: u64,
    pub duration_s: f64,
    pub warmup_s: f64,
    /// The channel the radiotap traces name (MHz).
    pub channel_mhz: u16,
    /// The stations are QoS stations (802.11n): their data frames are QoS Data.
    pub qos: bool,
}

impl World {
    fn dispatch(&mut self, now: SimTime, event: Event) {
        match event {
            Event::TxEnd { node } => self.end_tx(now, node),
            Event::Node { node, timer: NodeTimer::Mac(MacTimer::NavReset, generation) } => {
                let mut cx = MacCtx { now, timers: &mut self.cx.sched, out: &mut self.cx.mac_out };
                let n = &mut self.nodes[node.index()];
                n.mac.on_nav_reset(&mut cx, generation, n.radio.nav_reset_report());
            }
            Event::Node { node, timer: NodeTimer::Mac(timer, generation) } => {
                let mut cx = MacCtx { now, timers: &mut self.cx.sched, out: &mut self.cx.mac_out };
                self.nodes[node.index()].mac.on_timer(&mut cx, timer, generation);
            }
            Event::Node { node, timer: NodeTimer::Route(RouteTimer::EtxProbe) } => {
                self.etx_probe(now, node)
            }
            Event::Node { node, timer: NodeTimer::Route(timer) } => {
                at_node!(self, now, node, |n, cx| n.on_route_timer(cx, timer))
            }
            Event::Flow { flow, timer: FlowTimer::App } => {
                let src = self.cx.flows[flow.index()].src;
                at_node!(self, now, src, |n, cx| n.on_app_timer(cx, flow))
            }
            Event::Flow { flow, timer: FlowTimer::Tcp(timer, generation) } => {
                // The receiver's timer at the destination, the sender's at the source.
                let f = &self.cx.flows[flow.index()];
                let at = if timer == TcpTimer::DelAck { f.dst } else { f.src };
                at_node!(self, now, at, |n, cx| n.on_tcp_timer(cx, flow, timer, generation))
            }
            Event::Sim(SimEvent::Sample) => self.sample(now),
            Event::Sim(SimEvent::EtxFreeze) => self.etx_freeze(now),
            Event::Sim(SimEvent::InterferenceOn { source }) => {
                self.interference_on(now, source.into())
            }
            Event::Sim(SimEvent::InterferenceOff { source }) => {
                self.interference_off(now, source.into())
            }
        }
        self.drain(now);
    }

    /// Handle MAC outputs in the order they were produced (handling may add more).
    fn drain(&mut self, now: SimTime) {
        let mut i = 0;
        while i < self.cx.mac_out.len() {
            let Tagged { output, node } = self.cx.mac_out[i];
            i += 1;
            match output {
                MacOutput::Transmit { frame, response } => {
                    self.start_tx(now, node, frame, response)
                }
                MacOutput::Received { packet, from, copied } => {
                    at_node!(self, now, node, |n, cx| n.on_mac_received(cx, packet, from, copied))
                }
                MacOutput::Discard { packet, lost } => {
                    let mut next = Some(packet);
                    while let Some(p) = next {
                        // Every MSDU of an A-MSDU (mac/amsdu.rs).
                        next = self.cx.packets.unlink_msdu(p);
                        let cx: &mut NodeCtx = &mut self.cx;
                        if lost {
                            cx.drop_packet(p)
                        } else {
                            cx.packets.free(p)
                        }
                    }
                }
                MacOutput::Fill { next_hop, ac } => {
                    at_node!(self, now, node, |n, cx| n.fill_aggregate(cx, next_hop, ac))
                }
                MacOutput::Overheard { packet, from } => {
                    at_node!(self, now, node, |n, cx| n.on_mac_overheard(cx, packet, from))
                }
                MacOutput::Done { packet, next_hop, acked, service_ns } => {
                    // A failed link's next hop may still be within decode range.
                    let in_range = !acked
                        && match self.motion.as_mut() {
                            Some(m) => m.in_decode_range(node, next_hop, now),
                            None => self.channel.decodable(node, next_hop),
                        };
                    let done = (packet, next_hop);
                    at_node!(self, now, node, |n, cx| {
                        n.on_mac_done(cx, done, acked, service_ns, in_range)
                    })
                }
                MacOutput::Note(note) => self.cx.trace.mac_note(now, node, note),
            }
        }
        self.cx.mac_out.clear();
    }

    /// What node `node` reported in its last call.
    fn node_reported(&mut self, now: SimTime, node: NodeId) {
        for k in 0..self.cx.out.len() {
            match self.cx.out[k] {
                NodeOutput::DataSent { flow } => self.note_route(now, flow),
                NodeOutput::ProbeHeard { from } => self.etx_heard(node, from),
            }
        }
        self.cx.out.clear();
    }

    /// Stream the event trace of the run (`observe/events.rs`).
    pub fn attach_events(&mut self, trace: EventTrace) {
        for n in self.nodes.iter_mut() {
            n.mac.report_notes(true);
        }
        self.cx.trace.attach(trace);
    }

    /// Write pcap traces of the run through `tracer`.
    pub fn attach_tracer(&mut self, mut tracer: PcapTracer) {
        tracer.set_channel_mhz(self.run_info.channel_mhz);
        tracer.set_qos(self.run_info.qos);
        self.cx.pcap = Some(tracer);
    }

    /// Sample per-flow window and goodput every `interval_ns` (from time 0).
    pub fn enable_series(&mut self, interval_ns: SimTime) {
        self.series = Some(Series::new(interval_ns, self.cx.flows.len()));
        let at = interval_ns.max(1).min(self.cx.cfg.end_ns);
        self.cx.sched.schedule(at, Event::Sim(SimEvent::Sample));
    }

    /// Close the traces; problems become warnings of the result (the results stay intact).
    /// The time series gets its last sample at the end of the run.
    pub fn finish(&mut self) {
        if self.series.as_ref().is_some_and(|s| s.last_time_ns() < self.cx.cfg.end_ns) {
            self.sample(self.cx.cfg.end_ns);
        }
        if let Some(t) = self.cx.pcap.take() {
            if let Err(e) = t.finish() {
                self.warnings.push(format!("pcap trace incomplete: {e}"));
            }
        }
        if let Some(t) = self.cx.trace.take() {
            if let Err(e) = t.finish() {
                self.warnings.push(format!("event trace incomplete: {e}"));
            }
        }
    }

    /// Simulated time reached (the end time once `run` returned).
    pub fn now(&self) -> SimTime {
        self.cx.sched.now()
    }

    pub fn events(&self) -> u64 {
        self.cx.sched.events_popped()
    }

    /// The result document of the run; `scenario` is the scenario as run, serialised.
    pub fn result(&self, scenario: Box<serde_json::value::RawValue>) -> RunResult {
        result::collect(self, scenario)
    }
}

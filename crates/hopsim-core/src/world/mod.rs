//! The world: nodes in an arena (a `Vec` indexed by node id), the packet arena, the event
//! loop and the dispatch of events to the layers. The layer glue lives in `air` (PHY <-> MAC
//! over the channel) and `stack` (MAC <-> queue <-> routing <-> transport).

mod air;
mod dsr;
mod etx;
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

pub use crate::metrics::Series;
pub use placement::{layout, Layout};

pub(crate) use flows::{FlowApp, FlowState, TcpFlow};

use fading::Fader;

use crate::budget::Budget;
use crate::error::ScenarioError;
use crate::event::Event;
use crate::mac::dcf::{Dcf, DcfConfig, MacCtx, MacOutput};
use crate::mac::frame::Frame;
use crate::mac::rate::RateAlgo;
use crate::mac::timing::{Rate, Timing};
use crate::metrics::{Invariants, NodeCounters, RunResult};
use crate::net::aodv::{AodvAction, AodvConfig, AodvNode};
use crate::net::dsr::{DsrAction, DsrConfig, DsrNode};
use crate::net::packet::PacketArena;
use crate::net::packet::PacketId;
use crate::net::routing::StaticRoutes;
use crate::phy::channel::Channel;
use crate::phy::radio::{FrameRef, Radio};
use crate::phy::receiver::Receiver;
use crate::phy::sinr::SinrRadio;
use crate::queue::IfQueue;
use crate::rng::{Purpose, Rng};
use crate::scenario::Scenario;
use crate::scenario::{DataRate, RateControlAlgo, Reception, RoutingProtocol};
use crate::sched::Scheduler;
use crate::time::{secs_to_ns, SimTime};
use crate::trace::writer::PcapTracer;
use crate::transport::tcp::sender::SendSegment;
use std::collections::VecDeque;

pub(crate) struct Node {
    pub radio: Receiver,
    pub mac: Dcf,
    pub queue: IfQueue,
    /// The frame on the air from this node, with its identity.
    pub tx_frame: Option<(Frame, FrameRef)>,
    pub tx_serial: u32,
    pub counters: NodeCounters,
    /// Saturated flows originating here (refilled whenever the MAC takes a packet).
    pub saturated_flows: Vec<u32>,
    /// Injected frame errors (`radio.frame_error_rate`).
    pub error_rng: Rng,
    /// Next IP identification of packets originated here.
    pub next_ident: u16,
    /// Broadcast jitter of routing control packets.
    pub routing_rng: Rng,
    /// Listeners of the frame this node is sending (moving topologies only).
    pub tx_links: Vec<crate::phy::channel::Link>,
    /// Per-frame fading of this node's transmissions, and the faded power of each listener
    /// of the frame on the air (same order as its links).
    pub fading_rng: Rng,
    pub tx_powers: Vec<f64>,
    /// Smoothed per-packet MAC transmission delay to each next hop used (ns), Chen et al.'s
    /// per-hop delay estimate.
    pub link_delay: Vec<(u32, f64)>,
}

impl Node {
    /// The current per-packet transmission delay estimate to `next_hop` (0: none yet).
    pub fn link_delay_ns(&self, next_hop: u32) -> u64 {
        self.link_delay.iter().find(|e| e.0 == next_hop).map_or(0, |e| e.1 as u64)
    }

    /// EWMA with weight 1/8 per new sample (the TCP SRTT gain, RFC 6298).
    pub fn note_link_delay(&mut self, next_hop: u32, sample_ns: SimTime) {
        match self.link_delay.iter_mut().find(|e| e.0 == next_hop) {
            Some(e) => e.1 += (sample_ns as f64 - e.1) / 8.0,
            None => self.link_delay.push((next_hop, sample_ns as f64)),
        }
    }
}

pub struct World {
    sched: Scheduler<Event>,
    nodes: Vec<Node>,
    channel: Channel,
    routes: StaticRoutes,
    packets: PacketArena,
    flows: Vec<FlowState>,
    /// MAC outputs waiting to be handled, tagged with the node that produced them.
    out: Vec<(u32, MacOutput)>,
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
    tracer: Option<PcapTracer>,
    series: Option<Series>,
    motion: Option<motion::Motion>,
    /// AODV state per node (None: static routing), its action buffer, and the packets each
    /// source keeps while it looks for a route.
    aodv: Option<Vec<AodvNode>>,
    aodv_out: Vec<AodvAction>,
    /// AODV HELLO interval and allowed losses (None: link-layer feedback only).
    hello: Option<(SimTime, u32)>,
    dsr: Option<Vec<DsrNode>>,
    dsr_out: Vec<DsrAction>,
    route_wait: Vec<VecDeque<PacketId>>,
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
}

impl World {
    /// Build the network of a validated scenario; rejects flows between unconnected nodes.
    pub fn build(s: &Scenario) -> Result<World, ScenarioError> {
        Self::build_within(s, Budget::default())
    }

    /// Build within a work budget: refuses what the budget cannot hold, and the run stops
    /// when it passes the budget.
    pub fn build_within(s: &Scenario, budget: Budget) -> Result<World, ScenarioError> {
        let (positions, channel, motion) = placement::place(s, &budget)?;
        let all_flows = placement::flows_with_random_traffic(s, &channel)?;
        let mut endpoints: Vec<u32> = all_flows.iter().flat_map(|f| [f.dst, f.src]).collect();
        endpoints.sort_unstable();
        endpoints.dedup();
        let routes = StaticRoutes::build(&channel, &endpoints);

        let end_ns = secs_to_ns(s.duration_s);
        let mut flows = Vec::with_capacity(all_flows.len());
        for (i, f) in all_flows.iter().enumerate() {
            let hops = flows::route_hops(&routes, f).ok_or_else(|| {
                ScenarioError::invalid(
                    format!("flows.{i}.dst"),
                    f.dst,
                    &format!(
                        "node {} cannot reach node {} (and back, for TCP) over links within decode \
                         range; choose connected nodes, closer spacing or a larger radio range",
                        f.src, f.dst
                    ),
                )
            })?;
            flows.push(FlowState::new(i as u32, f, hops, s));
        }

        let max_delay_ns = motion.as_ref().map_or(channel.max_delay_ns(), |m| m.max_delay_ns());
        let timing = Timing::new(
            Rate::from_mbps(s.mac.basic_rate_mbps),
            // With auto rate DATA frames take the rate control's choice; 11 is a placeholder.
            Rate::from_mbps(s.mac.data_rate_mbps.fixed().unwrap_or(11.0)),
            max_delay_ns,
        );
        let cfg = DcfConfig {
            timing,
            cw_min: s.mac.cw_min,
            cw_max: s.mac.cw_max,
            rts_threshold_bytes: s.mac.rts_threshold_bytes,
            short_retry_limit: s.mac.short_retry_limit,
            long_retry_limit: s.mac.long_retry_limit,
            ns2: s.profile == crate::scenario::Profile::Ns2,
            rate_algo: match (s.mac.data_rate_mbps, s.mac.rate_control) {
                (DataRate::Mbps(r), _) => RateAlgo::Constant(Rate::from_mbps(r)),
                (DataRate::Auto, RateControlAlgo::Arf) => RateAlgo::Arf,
                (DataRate::Auto, RateControlAlgo::Aarf) => RateAlgo::Aarf,
                (DataRate::Auto, RateControlAlgo::Sample) => RateAlgo::Sample,
            },
        };
        let ns2 = s.profile == crate::scenario::Profile::Ns2;
        let model = placement::link_model(s);
        let noise_w = crate::phy::noise::noise_floor_w(&s.radio);
        let receiver = |id: u32| match s.radio.reception {
            Reception::Capture => Receiver::Capture(Radio::new(s.radio.capture_threshold_db)),
            Reception::Sinr => Receiver::Sinr(SinrRadio::new(
                noise_w,
                model.cs_w,
                model.rx_w,
                s.radio.preamble_snr_db,
                Rng::derive(s.seed, Purpose::FrameError, (1 << 32) | id as u64),
            )),
        };
        let mut nodes: Vec<Node> = (0..positions.len() as u32)
            .map(|id| Node {
                radio: receiver(id),
                mac: Dcf::new(
                    id,
                    cfg,
                    Rng::derive(s.seed, Purpose::MacBackoff, id as u64),
                    Rng::derive(s.seed, Purpose::RateControl, id as u64),
                ),
                // ns-2 gives DSR its CMUPriQueue (bands of 50; `-ifqLen` has no effect there).
                queue: if ns2 && s.routing.protocol == RoutingProtocol::Dsr {
                    IfQueue::cmu_priority()
                } else {
                    IfQueue::new(s.mac.queue_packets as usize)
                },
                tx_frame: None,
                tx_serial: 0,
                counters: NodeCounters::default(),
                saturated_flows: Vec::new(),
                error_rng: Rng::derive(s.seed, Purpose::FrameError, id as u64),
                next_ident: 0,
                tx_links: Vec::new(),
                routing_rng: Rng::derive(s.seed, Purpose::Routing, id as u64),
                link_delay: Vec::new(),
                fading_rng: Rng::derive(s.seed, Purpose::Fading, id as u64),
                tx_powers: Vec::new(),
            })
            .collect();
        for (i, f) in flows.iter().enumerate() {
            if let FlowApp::Udp { source, .. } = &f.app {
                if source.saturated() {
                    nodes[f.src as usize].saturated_flows.push(i as u32);
                }
            }
        }

        let n_nodes = nodes.len() as u32;
        let mut sched = Scheduler::with_capacity(4 * nodes.len() + 64);
        if s.routing.protocol == RoutingProtocol::Aodv && s.routing.hello {
            // First HELLOs spread over one interval, from each node's own stream.
            let interval = secs_to_ns(s.routing.hello_interval_s) as f64;
            for (i, n) in nodes.iter_mut().enumerate() {
                let at = (n.routing_rng.uniform() * interval) as u64;
                sched.schedule(at, Event::Hello { node: i as u32 });
            }
        }
        for (i, f) in flows.iter().enumerate() {
            sched.schedule(f.start_ns, Event::AppSend { flow: i as u32 });
        }
        let etx = (s.routing.protocol == RoutingProtocol::Etx).then(|| etx::EtxState {
            table: crate::net::etx::EtxTable::new(n_nodes as usize),
            interval_ns: secs_to_ns(s.routing.etx_probe_interval_s),
            warmup_end_ns: secs_to_ns(s.routing.etx_warmup_s),
            probe_bytes: s.routing.etx_probe_bytes,
            frozen: false,
            endpoints: endpoints.clone(),
        });
        let mut world = World {
            sched,
            nodes,
            channel,
            routes,
            packets: PacketArena::with_capacity(1024),
            flows,
            out: Vec::with_capacity(16),
            positions,
            warmup_ns: secs_to_ns(s.warmup_s),
            end_ns,
            invariants: Invariants::default(),
            difs_ns: timing.difs,
            frame_error_rate: s.radio.frame_error_rate,
            fading: Fader::new(&s.radio, model.rx_w, model.cs_w),
            capture_mode: s.radio.reception == Reception::Capture,
            tcp_out: Vec::with_capacity(32),
            tracer: None,
            series: None,
            motion,
            aodv: (s.routing.protocol == RoutingProtocol::Aodv).then(|| {
                let cfg = AodvConfig {
                    expanding_ring: s.routing.expanding_ring,
                    ns2,
                    ..AodvConfig::default()
                };
                (0..n_nodes).map(|i| AodvNode::new(i, cfg)).collect()
            }),
            aodv_out: Vec::with_capacity(8),
            hello: (s.routing.protocol == RoutingProtocol::Aodv && s.routing.hello)
                .then(|| (secs_to_ns(s.routing.hello_interval_s), s.routing.allowed_hello_loss)),
            dsr: (s.routing.protocol == RoutingProtocol::Dsr).then(|| {
                let cfg = DsrConfig { ns2, ..DsrConfig::default() };
                (0..n_nodes).map(|i| DsrNode::new(i, cfg)).collect()
            }),
            dsr_out: Vec::with_capacity(8),
            route_wait: vec![VecDeque::new(); n_nodes as usize],
            warnings: Vec::new(),
            etx,
            release_spacing_ns: match (ns2, s.routing.protocol) {
                (true, RoutingProtocol::Aodv) => crate::net::aodv::NS2_ARP_DELAY_NS,
                (true, RoutingProtocol::Dsr) => crate::net::dsr::NS2_ARP_TIMEOUT_NS,
                _ => 0,
            },
            ns2,
            budget,
            path_logs: Vec::new(),
        };
        world.path_logs.resize_with(world.flows.len(), Default::default);
        let sparse: Vec<String> = all_flows
            .iter()
            .enumerate()
            .filter_map(|(i, f)| flows::sparse_flow_warning(i, f, s))
            .collect();
        let shown = sparse.len().min(5);
        world.warnings.extend_from_slice(&sparse[..shown]);
        if sparse.len() > shown {
            world.warnings.push(format!("... and {} more such flows", sparse.len() - shown));
        }
        world.etx_start();
        Ok(world)
    }

    /// The frozen route of a flow (static and ETX routing), as a node sequence.
    pub(crate) fn fixed_path(&self, src: u32, dst: u32) -> Option<Vec<u32>> {
        if self.aodv.is_some() || self.dsr.is_some() {
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
            Event::MacAccess { node, generation } => {
                let mut cx = MacCtx { now, timers: &mut self.sched, out: &mut self.out };
                self.nodes[node as usize].mac.on_access_timer(&mut cx, generation);
            }
            Event::MacTimeout { node, generation } => {
                let mut cx = MacCtx { now, timers: &mut self.sched, out: &mut self.out };
                self.nodes[node as usize].mac.on_timeout(&mut cx, generation);
            }
            Event::MacSifs { node, generation } => {
                let mut cx = MacCtx { now, timers: &mut self.sched, out: &mut self.out };
                self.nodes[node as usize].mac.on_sifs_timer(&mut cx, generation);
            }
            Event::AppSend { flow } => self.app_send(now, flow),
            Event::TcpRto { flow, generation } => self.tcp_timeout(now, flow, generation),
            Event::TcpDelAck { flow, generation } => self.tcp_delack(now, flow, generation),
            Event::TcpPace { flow, generation } => self.tcp_pace(now, flow, generation),
            Event::RouteTimer { node, dst } => self.route_timer(now, node, dst),
            Event::ControlRelease { node, packet } => self.release_control(now, node, packet),
            Event::RouteRelease { node, packet } => self.route_and_enqueue(now, node, packet),
            Event::Hello { node } => self.aodv_hello(now, node),
            Event::Sample => self.sample(now),
            Event::EtxProbe { node } => self.etx_probe(now, node),
            Event::EtxFreeze => self.etx_freeze(now),
        }
        self.drain(now);
    }

    /// Handle MAC outputs in the order they were produced (handling may add more).
    fn drain(&mut self, now: SimTime) {
        let mut i = 0;
        while i < self.out.len() {
            let (node, output) = self.out[i];
            i += 1;
            match output {
                MacOutput::Transmit { frame, response } => {
                    self.start_tx(now, node, frame, response)
                }
                MacOutput::Received { packet, from } => self.mac_received(now, node, packet, from),
                MacOutput::Done { packet, next_hop, acked, service_ns } => {
                    self.mac_done(now, node, packet, next_hop, acked, service_ns)
                }
            }
        }
        self.out.clear();
    }

    /// Write pcap traces of the run through `tracer`.
    pub fn attach_tracer(&mut self, tracer: PcapTracer) {
        self.tracer = Some(tracer);
    }

    /// Sample per-flow window and goodput every `interval_ns` (from time 0).
    pub fn enable_series(&mut self, interval_ns: SimTime) {
        self.series = Some(Series::new(interval_ns, self.flows.len()));
        self.sched.schedule(interval_ns.max(1).min(self.end_ns), Event::Sample);
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
    }

    /// Simulated time reached (the end time once `run` returned).
    pub fn now(&self) -> SimTime {
        self.sched.now()
    }

    pub fn events(&self) -> u64 {
        self.sched.events_popped()
    }

    /// The result document of the run.
    pub fn result(&self, scenario: &Scenario) -> RunResult {
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

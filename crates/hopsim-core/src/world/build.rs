//! Building a world from a validated scenario: the one place (with `placement.rs`, which
//! places the nodes) that reads the scenario model. It turns each section into the plain
//! configs the layers take (`DcfConfig`, `AodvConfig`, `DsrConfig`, the TCP sender's and
//! receiver's configs, UDP sources) and assembles the nodes and flows.

use super::event::{Event, FlowTimer};
use super::fading::Fader;
use super::{etx, placement, routers, Node, RunInfo, World};
use crate::engine::budget::Budget;
use crate::engine::rng::{Purpose, Rng};
use crate::engine::sched::Scheduler;
use crate::engine::time::{secs_to_ns, SimTime};
use crate::error::ScenarioError;
use crate::ids::NodeId;
use crate::mac::dcf::Dcf;
use crate::mac::edca::Ac;
use crate::net::packet::{FlowId, PacketArena};
use crate::net::routing::{HopCounter, StaticRoutes};
use crate::node::{GlueConfig, NodeCtx, RouteWait, Scratch};
use crate::observe::event_rows::Trace;
use crate::observe::metrics::{Invariants, NodeCounters};
use crate::phy::radio::Radio;
use crate::phy::receiver::Receiver;
use crate::phy::sinr::SinrRadio;
use crate::queue::IfQueue;
use crate::scenario::{
    AccessCategory, Flow, Profile, Reception, RoutingProtocol, Scenario, TcpVariant, Transport,
};
use crate::transport::flow::{FlowApp, FlowState, TcpFlow};
use crate::transport::tcp::config::{TcpHost, TcpSpec};
use crate::transport::tcp::quick_ack::QuickAckConfig;
use crate::transport::tcp::receiver::{AckPolicy, ReceiverExtras, TcpReceiver};
use crate::transport::tcp::rto::RtoEstimator;
use crate::transport::tcp::sender::{RetransmitGuard, SenderConfig, TcpSender};
use crate::transport::tcp::{congestion_control, limit_policy, recovery};
use crate::transport::udp::{UdpSink, UdpSource};

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
        let mut endpoints: Vec<NodeId> =
            all_flows.iter().flat_map(|f| [NodeId(f.dst), NodeId(f.src)]).collect();
        endpoints.sort_unstable();
        endpoints.dedup();
        // Static routing (and ETX's frozen routes, which replace them) forwards along these
        // tables. AODV and DSR find their own routes: they need only each flow's hop count,
        // counted pair by pair without building the tables.
        let discovered = matches!(s.routing.protocol, RoutingProtocol::Aodv | RoutingProtocol::Dsr);
        let routes = if discovered {
            StaticRoutes::from_tables(channel.node_count(), Vec::new())
        } else {
            StaticRoutes::build(&channel, &endpoints)
        };
        let mut counter = HopCounter::new(channel.node_count());
        let mut hops_between = |src: NodeId, dst: NodeId| {
            if discovered {
                counter.hops(&channel, src, dst)
            } else {
                routes.hops(src, dst)
            }
        };

        let end_ns = secs_to_ns(s.duration_s);
        let mut flows = Vec::with_capacity(all_flows.len());
        for (i, f) in all_flows.iter().enumerate() {
            let hops = route_hops(&mut hops_between, f).ok_or_else(|| {
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
            flows.push(flow_state(i as u32, f, hops, s));
        }

        let max_delay_ns = motion.as_ref().map_or(channel.max_delay_ns(), |m| m.max_delay_ns());
        let cfg = super::mac_config::dcf_config(s, max_delay_ns);
        let timing = cfg.timing;
        let standard = s.radio.standard;
        let ns2 = s.profile == Profile::Ns2;
        let model = placement::link_model(s);
        let noise_w = crate::phy::noise::noise_floor_w(&s.radio);
        let receiver = |id: NodeId| match s.radio.reception {
            Reception::Capture => Receiver::Capture(Radio::from_config(&s.radio)),
            Reception::Sinr => Receiver::Sinr(
                SinrRadio::for_standard(
                    standard,
                    noise_w,
                    model.cs_w,
                    model.rx_w,
                    s.radio.preamble_snr_db,
                    Rng::derive(s.seed, Purpose::FrameError, (1 << 32) | u64::from(id.0)),
                )
                .with_antennas(s.radio.antennas),
            ),
        };
        let mut nodes: Vec<Node> = (0..positions.len() as u32)
            .map(NodeId)
            .map(|id| Node {
                id,
                radio: receiver(id),
                mac: Dcf::new(
                    id,
                    cfg,
                    Rng::derive(s.seed, Purpose::MacBackoff, u64::from(id.0)),
                    Rng::derive(s.seed, Purpose::RateControl, u64::from(id.0)),
                ),
                // ns-2 gives DSR its CMUPriQueue (bands of 50; `-ifqLen` has no effect there).
                queues: if ns2 && s.routing.protocol == RoutingProtocol::Dsr {
                    vec![IfQueue::cmu_priority()]
                } else if cfg.edca.is_some() {
                    // One queue per category, as Linux's mq qdisc over mac80211's four
                    // hardware queues and ns-3's per-AC WifiMacQueues.
                    Ac::ALL
                        .map(|ac| {
                            let k = if ac == Ac::Be { 0 } else { 1 + ac.index() as u64 };
                            let d = super::aqm::discipline(s, &timing, id, k);
                            IfQueue::with_discipline(s.mac.queue_packets as usize, d)
                        })
                        .into()
                } else {
                    let d = super::aqm::discipline(s, &timing, id, 0);
                    vec![IfQueue::with_discipline(s.mac.queue_packets as usize, d)]
                },
                queue_delay_ms: s.queue.as_ref().map(|_| Box::default()),
                tx_frame: None,
                tx_serial: 0,
                counters: NodeCounters::default(),
                router: routers::router(s, id),
                route_wait: RouteWait::default(),
                saturated_flows: Vec::new(),
                // Enough to fill each access's aggregate (A-MSDUs: the whole queue).
                saturation_depth: if s.mac.amsdu_max_bytes > 0 {
                    s.mac.queue_packets
                } else if s.mac.ampdu_max_bytes > 0 {
                    s.mac.ampdu_max_mpdus.min(s.mac.queue_packets)
                } else {
                    1
                },
                error_rng: Rng::derive(s.seed, Purpose::FrameError, u64::from(id.0)),
                next_ident: 0,
                routing_rng: Rng::derive(s.seed, Purpose::Routing, u64::from(id.0)),
                link_delay: Vec::new(),
                deferring: false,
                deferred: Vec::new(),
                fading_rng: Rng::derive(s.seed, Purpose::Fading, u64::from(id.0)),
            })
            .collect();
        // ns-2's DSR listens promiscuously (dsragent.cc `tap`, `dsragent_use_tap`).
        if ns2 && s.routing.protocol == RoutingProtocol::Dsr {
            for n in nodes.iter_mut() {
                n.mac.set_tap(true);
            }
        }
        for (i, f) in flows.iter().enumerate() {
            if let FlowApp::Udp { source, .. } = &f.app {
                if source.saturated() {
                    nodes[f.src.index()].saturated_flows.push(FlowId(i as u32));
                }
            }
        }

        let n_nodes = nodes.len() as u32;
        let mut sched = Scheduler::with_capacity(4 * nodes.len() + 64);
        routers::first_timers(s, &mut nodes, &mut sched);
        for (i, f) in flows.iter().enumerate() {
            let flow = FlowId(i as u32);
            sched.schedule(f.start_ns, Event::Flow { flow, timer: FlowTimer::App });
        }
        let etx = (s.routing.protocol == RoutingProtocol::Etx).then(|| etx::EtxState {
            table: crate::net::etx::EtxTable::new(n_nodes as usize),
            interval_ns: secs_to_ns(s.routing.etx_probe_interval_s),
            warmup_end_ns: secs_to_ns(s.routing.etx_warmup_s),
            probe_bytes: s.routing.etx_probe_bytes,
            frozen: false,
            endpoints: endpoints.clone(),
        });
        let glue = GlueConfig {
            release_spacing_ns: match (ns2, s.routing.protocol) {
                (true, RoutingProtocol::Aodv) => crate::net::aodv::NS2_ARP_DELAY_NS,
                (true, RoutingProtocol::Dsr) => crate::net::dsr::NS2_ARP_TIMEOUT_NS,
                _ => 0,
            },
            ns2,
            warmup_ns: secs_to_ns(s.warmup_s),
            end_ns,
            mesh_header_bytes: match s.routing.protocol {
                RoutingProtocol::Hwmp => crate::net::hwmp::msg::MESH_DATA_HEADER_BYTES,
                _ => 0,
            },
            // 13.9's O: the 802.11s drafts' DSSS value for 802.11b (and the ns-2 radio),
            // the OFDM (802.11a) value for the OFDM standards.
            airtime_overhead_us: match standard {
                crate::phy::standard::Standard::B => crate::net::hwmp::metric::OVERHEAD_80211B_US,
                _ => crate::net::hwmp::metric::OVERHEAD_80211A_US,
            },
        };
        let mut world = World {
            nodes,
            cx: NodeCtx {
                now: 0,
                mac_out: Vec::with_capacity(16),
                packets: PacketArena::with_capacity(1024),
                flows,
                routes,
                trace: Trace::default(),
                pcap: None,
                invariants: Invariants::default(),
                scratch: Scratch::with_capacity(),
                cfg: glue,
                out: Vec::with_capacity(4),
                olsr: Default::default(),
                hwmp: Default::default(),
                sched,
            },
            channel,
            positions,
            frame_error_rate: s.radio.frame_error_rate,
            fading: Fader::for_run(&s.radio, &model, (n_nodes as usize, s.seed), &budget)?,
            interference: None,
            capture_mode: s.radio.reception == Reception::Capture,
            series: None,
            motion,
            warnings: Vec::new(),
            etx,
            budget,
            path_logs: Vec::new(),
            ampdu: Default::default(),
            aggregating: s.mac.ampdu_max_bytes > 0,
            run_info: RunInfo {
                seed: s.seed,
                duration_s: s.duration_s,
                warmup_s: s.warmup_s,
                // 802.11b traces have always named channel 1; a and g name their frequency.
                channel_mhz: match s.radio.standard {
                    crate::phy::standard::Standard::B => 2412,
                    _ => (s.radio.frequency_hz / 1e6).round().min(65_535.0) as u16,
                },
                qos: s.radio.standard.is_ht(),
            },
        };
        world.path_logs.resize_with(world.cx.flows.len(), Default::default);
        let sparse: Vec<String> = all_flows
            .iter()
            .enumerate()
            .filter_map(|(i, f)| sparse_flow_warning(i, f, s))
            .collect();
        let shown = sparse.len().min(5);
        world.warnings.extend_from_slice(&sparse[..shown]);
        if sparse.len() > shown {
            world.warnings.push(format!("... and {} more such flows", sparse.len() - shown));
        }
        world.etx_start();
        world.start_interference(s, &model);
        Ok(world)
    }
}

/// The state of flow `id` (the app and its transport endpoints) at the start of the run.
fn flow_state(id: u32, f: &Flow, hops: u32, s: &Scenario) -> FlowState {
    let end_ns = secs_to_ns(s.duration_s);
    let start_ns = secs_to_ns(f.start_s);
    let stop_ns = f.stop_s.map_or(end_ns, |t| secs_to_ns(t).min(end_ns));
    let window_ns = (secs_to_ns(s.warmup_s), end_ns);
    let app = match f.transport {
        Transport::Udp => {
            let mut source = UdpSource::new(
                NodeId(f.src),
                NodeId(f.dst),
                f.payload_bytes,
                secs_to_ns(f.interval_s),
                start_ns,
                stop_ns,
            );
            if f.bytes > 0 {
                source.limit_packets(f.bytes.div_ceil(f.payload_bytes as u64));
            }
            FlowApp::Udp { source, sink: UdpSink::default() }
        }
        Transport::Tcp => {
            let ns2 = s.profile == Profile::Ns2;
            // Time averages of the sender cover the window while the flow exists.
            let sender_window = (window_ns.0.max(start_ns), window_ns.1);
            FlowApp::Tcp(Box::new(tcp_flow(FlowId(id), f, stop_ns, sender_window, ns2, s.seed)))
        }
    };
    FlowState {
        src: NodeId(f.src),
        dst: NodeId(f.dst),
        hops,
        start_ns,
        packets_sent: 0,
        packets_delivered: 0,
        dropped: 0,
        link_failures: 0,
        false_route_failures: 0,
        queued_at_source: 0,
        dscp: match f.access_category {
            AccessCategory::Background => Ac::Bk,
            AccessCategory::BestEffort => Ac::Be,
            AccessCategory::Video => Ac::Vi,
            AccessCategory::Voice => Ac::Vo,
        }
        .dscp(),
        app,
    }
}

/// `ns2`: the ns2 profile's TCP agent details (limited transmit, ssthresh from the window).
fn tcp_flow(
    id: FlowId,
    f: &Flow,
    stop_ns: SimTime,
    window_ns: (SimTime, SimTime),
    ns2: bool,
    seed: u64,
) -> TcpFlow {
    let spec = f.tcp.clone().unwrap_or_default();
    // ns-2's agent details belong to the ns2 host only.
    let ns2 = ns2 && spec.host == TcpHost::Ns2;
    let mss = f.payload_bytes;
    let total_segments = (f.bytes > 0).then(|| f.bytes.div_ceil(mss as u64) as u32);
    let last_segment_bytes = match f.bytes % mss as u64 {
        0 => mss,
        r => r as u32,
    };
    // ns-2.35's one-way agents start at a window of one, and all but Vegas open with a
    // data-less SYN (`syn_`, `delay_growth_`; `tcp/sender/syn.rs`).
    let syn =
        ns2 && matches!(spec.variant, TcpVariant::Reno | TcpVariant::NewReno | TcpVariant::Sack);
    let delay_growth = syn || (ns2 && spec.variant == TcpVariant::Vegas);
    let cfg = SenderConfig {
        flow: id,
        recovery: if ns2 { recovery(&spec).for_ns2() } else { recovery(&spec) },
        initial_window: spec.initial_window,
        limit_policy: limit_policy(&spec),
        receiver_window: spec.receiver_window,
        initial_receiver_window: match spec.rwnd_autotuning {
            true => spec.initial_receive_window,
            false => spec.receiver_window,
        },
        timestamps: spec.timestamps,
        dupack_threshold: spec.dupack_threshold,
        total_segments: total_segments.map(|n| n + u32::from(syn)),
        stop_ns,
        window_ns,
        pacing: spec.pacing,
        limited_transmit: ns2
            && matches!(spec.variant, TcpVariant::Reno | TcpVariant::NewReno | TcpVariant::Sack),
        ns2_vegas: ns2 && spec.variant == TcpVariant::Vegas,
        guard: match (ns2, spec.variant) {
            (true, TcpVariant::Reno | TcpVariant::NewReno) => RetransmitGuard::Ns2,
            (true, TcpVariant::Sack) => RetransmitGuard::Ns2Sack1,
            _ => RetransmitGuard::Rfc6582,
        },
        delay_growth,
        syn,
    };
    let (initial, min, max) =
        (secs_to_ns(spec.initial_rto_s), secs_to_ns(spec.min_rto_s), secs_to_ns(spec.max_rto_s));
    let rto = if cfg.ns2_vegas && !spec.timestamps {
        // ns-2's timer (tcp.cc): tcpTick_ ticks (default 0.01 s) with a random boot_time_.
        let tick = match secs_to_ns(spec.clock_granularity_s) {
            0 => 10_000_000,
            t => t,
        };
        let mut rng = Rng::derive(seed, Purpose::Transport, (1 << 32) | id.0 as u64);
        let phase = (rng.uniform() * tick as f64) as u64;
        RtoEstimator::ns2(initial, min, max, tick, phase)
    } else {
        RtoEstimator::new(initial, min, max, secs_to_ns(spec.clock_granularity_s))
    };
    let timeout_ns = secs_to_ns(spec.delayed_ack_timeout_s);
    let policy = if spec.ack_thinning {
        AckPolicy::Thinning { thresholds: spec.ack_thinning_thresholds, timeout_ns }
    } else if spec.delayed_ack {
        AckPolicy::Delayed { timeout_ns }
    } else {
        AckPolicy::EverySegment
    };
    let rng = Rng::derive(seed, Purpose::Transport, id.0 as u64);
    let mut sender = TcpSender::new(cfg, congestion_control(&spec, ns2, rng), rto);
    if spec.ecn {
        sender.enable_ecn();
    }
    TcpFlow {
        headerless: ns2 && spec.variant == TcpVariant::Vegas,
        ecn_echo: crate::transport::tcp::ecn::EcnReceiver::new(spec.ecn),
        sender,
        receiver: TcpReceiver::new(
            id,
            policy,
            crate::transport::tcp::uses_sack(&spec),
            spec.receiver_window,
        )
        .with_extras(receiver_extras(&spec)),
        spec,
        mss,
        total_segments,
        last_segment_bytes,
        delivered_bytes: 0,
        window_bytes: 0,
        delay_sum_ns: 0,
        delay_count: 0,
        arrived: Vec::new(),
        completed_ns: None,
        forward_path: (0, 0, 0),
        traced: (f64::NAN, 0),
    }
}

/// A Linux receiver's behaviour, as the flow's keys ask (`transport/tcp/linux.rs`).
fn receiver_extras(spec: &TcpSpec) -> ReceiverExtras {
    use crate::transport::tcp::linux::{ATO_MAX_S, MAX_QUICKACKS, TIMEOUT_INIT_S};
    ReceiverExtras {
        quick_ack: spec.quick_ack.then(|| QuickAckConfig {
            ato_min_ns: secs_to_ns(spec.delayed_ack_timeout_s),
            ato_max_ns: secs_to_ns(ATO_MAX_S.max(spec.delayed_ack_timeout_s)),
            rto_ns: secs_to_ns(TIMEOUT_INIT_S),
            max_quickacks: MAX_QUICKACKS,
        }),
        autotune_from: spec.rwnd_autotuning.then_some(spec.initial_receive_window),
        timestamps: spec.timestamps,
    }
}

/// Routes (hop counts from `hops_between(src, dst)`) must exist both ways for TCP (data one
/// way, ACKs back).
fn route_hops(
    hops_between: &mut impl FnMut(NodeId, NodeId) -> Option<u32>,
    f: &Flow,
) -> Option<u32> {
    let (src, dst) = (NodeId(f.src), NodeId(f.dst));
    let forward = hops_between(src, dst)?;
    if f.transport == Transport::Tcp {
        hops_between(dst, src)?;
    }
    Some(forward)
}

/// Fewer datagrams than this in the measurement window make a paced flow's numbers noise.
const SPARSE_FLOW_PACKETS: f64 = 10.0;

/// A warning when paced UDP flow `i` would send almost nothing in the measurement window
/// (e.g. `interval_s = 50` meant as 50 ms).
fn sparse_flow_warning(i: usize, f: &Flow, s: &Scenario) -> Option<String> {
    if f.transport != Transport::Udp || f.interval_s <= 0.0 {
        return None;
    }
    let from_s = f.start_s.max(s.warmup_s);
    let to_s = f.stop_s.unwrap_or(s.duration_s).min(s.duration_s);
    let mut packets = ((to_s - from_s) / f.interval_s).max(0.0);
    if f.bytes > 0 {
        packets = packets.min((f.bytes as f64 / f.payload_bytes as f64).ceil());
    }
    if packets >= SPARSE_FLOW_PACKETS {
        return None;
    }
    let hint = if f.interval_s >= 1.0 {
        format!(" (interval_s is in seconds: {} ms is {})", f.interval_s, f.interval_s / 1000.0)
    } else {
        String::new()
    };
    Some(format!(
        "flow {i} sends about {} datagram(s) in the measurement window ({} s to {} s, one every \
         {} s): too few for its numbers to mean much{hint}",
        packets.floor(),
        from_s,
        to_s,
        f.interval_s
    ))
}

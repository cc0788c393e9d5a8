//! Per-flow state: the application and transport endpoints of each flow, and the network-layer
//! packet counters that the conservation invariant checks.

use crate::net::routing::StaticRoutes;
use crate::scenario::{Flow, Scenario, TcpSpec, TcpVariant, Transport};
use crate::time::{secs_to_ns, SimTime};
use crate::transport::tcp::receiver::{AckPolicy, TcpReceiver};
use crate::transport::tcp::rto::RtoEstimator;
use crate::transport::tcp::sender::{SenderConfig, TcpSender};
use crate::transport::tcp::{congestion_control, limit_policy, recovery};
use crate::transport::udp::{UdpSink, UdpSource};

pub(crate) struct TcpFlow {
    pub spec: TcpSpec,
    /// ns2 profile, Vegas: segments carry no TCP/IP header bytes on the air (`Packet`).
    pub headerless: bool,
    pub sender: TcpSender,
    pub receiver: TcpReceiver,
    pub mss: u32,
    pub total_segments: Option<u32>,
    /// Payload of the last segment of a fixed-size transfer.
    pub last_segment_bytes: u32,
    /// Application bytes delivered in order: in total, and inside the measurement window.
    pub delivered_bytes: u64,
    pub window_bytes: u64,
    /// One-way delay of data segments reaching the receiver inside the window.
    pub delay_sum_ns: u128,
    pub delay_count: u64,
    /// Segments that reached the receiver node (checked against in-order delivery).
    pub arrived: Vec<u64>,
    pub completed_ns: Option<SimTime>,
    /// Forward path seen by the latest data segment: (hops, delay total ns, delay max ns).
    pub forward_path: (u8, u64, u64),
}

impl TcpFlow {
    pub fn segment_bytes(&self, seg: u32) -> u32 {
        match self.total_segments {
            Some(n) if seg + 1 == n => self.last_segment_bytes,
            _ => self.mss,
        }
    }

    pub fn mark_arrived(&mut self, seg: u32) {
        let (word, bit) = ((seg / 64) as usize, seg % 64);
        if word >= self.arrived.len() {
            self.arrived.resize(word + 1, 0);
        }
        self.arrived[word] |= 1 << bit;
    }

    pub fn has_arrived(&self, seg: u32) -> bool {
        let (word, bit) = ((seg / 64) as usize, seg % 64);
        self.arrived.get(word).is_some_and(|w| w & (1 << bit) != 0)
    }
}

pub(crate) enum FlowApp {
    Udp { source: UdpSource, sink: UdpSink },
    Tcp(Box<TcpFlow>),
}

pub(crate) struct FlowState {
    pub src: u32,
    pub dst: u32,
    pub hops: u32,
    pub start_ns: SimTime,
    /// Network-layer packets of this flow (data and, for TCP, ACKs).
    pub packets_sent: u64,
    pub packets_delivered: u64,
    pub dropped: u64,
    /// Retry-limit drops of this flow's packets, and those where the next hop was in range.
    pub link_failures: u64,
    pub false_route_failures: u64,
    /// Own packets waiting in the source's interface queue (saturated UDP refill).
    pub queued_at_source: u32,
    pub app: FlowApp,
}

impl FlowState {
    pub fn new(id: u32, f: &Flow, hops: u32, s: &Scenario) -> FlowState {
        let end_ns = secs_to_ns(s.duration_s);
        let start_ns = secs_to_ns(f.start_s);
        let stop_ns = f.stop_s.map_or(end_ns, |t| secs_to_ns(t).min(end_ns));
        let window_ns = (secs_to_ns(s.warmup_s), end_ns);
        let app = match f.transport {
            Transport::Udp => {
                let mut source = UdpSource::new(
                    f.src,
                    f.dst,
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
                let ns2 = s.profile == crate::scenario::Profile::Ns2;
                // Time averages of the sender cover the window while the flow exists.
                let sender_window = (window_ns.0.max(start_ns), window_ns.1);
                FlowApp::Tcp(Box::new(tcp_flow(id, f, stop_ns, sender_window, ns2)))
            }
        };
        FlowState {
            src: f.src,
            dst: f.dst,
            hops,
            start_ns,
            packets_sent: 0,
            packets_delivered: 0,
            dropped: 0,
            link_failures: 0,
            false_route_failures: 0,
            queued_at_source: 0,
            app,
        }
    }
}

/// `ns2`: the ns2 profile's TCP agent details (limited transmit, ssthresh from the window).
fn tcp_flow(
    id: u32,
    f: &Flow,
    stop_ns: SimTime,
    window_ns: (SimTime, SimTime),
    ns2: bool,
) -> TcpFlow {
    let spec = f.tcp.clone().unwrap_or_default();
    let mss = f.payload_bytes;
    let total_segments = (f.bytes > 0).then(|| f.bytes.div_ceil(mss as u64) as u32);
    let last_segment_bytes = match f.bytes % mss as u64 {
        0 => mss,
        r => r as u32,
    };
    let cfg = SenderConfig {
        flow: id,
        recovery: recovery(spec.variant),
        initial_window: spec.initial_window,
        limit_policy: limit_policy(&spec),
        receiver_window: spec.receiver_window,
        dupack_threshold: spec.dupack_threshold,
        total_segments,
        stop_ns,
        window_ns,
        pacing: spec.pacing,
        limited_transmit: ns2
            && matches!(spec.variant, TcpVariant::Reno | TcpVariant::NewReno | TcpVariant::Sack),
        ns2_vegas: ns2 && spec.variant == TcpVariant::Vegas,
    };
    let rto = RtoEstimator::new(
        secs_to_ns(spec.initial_rto_s),
        secs_to_ns(spec.min_rto_s),
        secs_to_ns(spec.max_rto_s),
        secs_to_ns(spec.clock_granularity_s),
    );
    let timeout_ns = secs_to_ns(spec.delayed_ack_timeout_s);
    let policy = if spec.ack_thinning {
        AckPolicy::Thinning { thresholds: spec.ack_thinning_thresholds, timeout_ns }
    } else if spec.delayed_ack {
        AckPolicy::Delayed { timeout_ns }
    } else {
        AckPolicy::EverySegment
    };
    TcpFlow {
        headerless: ns2 && spec.variant == TcpVariant::Vegas,
        sender: TcpSender::new(cfg, congestion_control(&spec, ns2), rto),
        receiver: TcpReceiver::new(
            id,
            policy,
            spec.variant == TcpVariant::Sack,
            spec.receiver_window,
        ),
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
    }
}

/// Static routes must exist both ways for TCP (data one way, ACKs back).
pub(crate) fn route_hops(routes: &StaticRoutes, f: &Flow) -> Option<u32> {
    let forward = routes.hops(f.src, f.dst)?;
    if f.transport == Transport::Tcp {
        routes.hops(f.dst, f.src)?;
    }
    Some(forward)
}

/// Fewer datagrams than this in the measurement window make a paced flow's numbers noise.
const SPARSE_FLOW_PACKETS: f64 = 10.0;

/// A warning when paced UDP flow `i` would send almost nothing in the measurement window
/// (e.g. `interval_s = 50` meant as 50 ms).
pub(crate) fn sparse_flow_warning(i: usize, f: &Flow, s: &Scenario) -> Option<String> {
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

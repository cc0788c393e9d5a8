//! The changes a paused run accepts (issue 35; docs/interfaces.md, "What may change
//! mid-run"). Each is refused, naming what was asked and what is allowed, where it cannot
//! apply; every other scenario key is fixed once the run is built (the Python layer refuses
//! those by name). A change takes effect at the paused time: what it lets a sender send goes
//! out as the run continues, in an application event scheduled for that time.

use super::event::{Event, FlowTimer};
use super::World;
use crate::engine::time::SimTime;
use crate::error::ScenarioError;
use crate::ids::FlowId;
use crate::net::packet::{IP_HEADER_BYTES, UDP_HEADER_BYTES};
use crate::scenario::{ranges, KeyPath};
use crate::transport::flow::{FlowApp, TcpFlow};
use crate::transport::tcp::TCP_HEADER_BYTES;

/// Header bytes a pacing rate counts with each packet (as Linux counts the whole packet
/// against SO_MAX_PACING_RATE).
const TCP_IP_HEADER_BYTES: u32 = TCP_HEADER_BYTES + IP_HEADER_BYTES;
const UDP_IP_HEADER_BYTES: u32 = UDP_HEADER_BYTES + IP_HEADER_BYTES;
/// The largest pacing rate accepted, kbit/s (10 Gbit/s).
const MAX_RATE_KBPS: f64 = 1e7;

impl World {
    fn flow_key(flow: usize) -> KeyPath {
        KeyPath::root().field("flows").index(flow)
    }

    /// Flow `flow`, or the error naming the index and the flows there are.
    fn flow_mut(
        &mut self,
        flow: usize,
    ) -> Result<&mut crate::transport::flow::FlowState, ScenarioError> {
        let n = self.cx.flows.len();
        self.cx
            .flows
            .get_mut(flow)
            .ok_or_else(|| ScenarioError::invalid("flow", flow, &format!("a flow index 0..{n}")))
    }

    /// The TCP connection of flow `flow`, or the error naming what `what` needs.
    fn tcp_mut(&mut self, flow: usize, what: &str) -> Result<&mut TcpFlow, ScenarioError> {
        let f = self.flow_mut(flow)?;
        match &mut f.app {
            FlowApp::Tcp(t) => Ok(t),
            FlowApp::Udp { .. } => Err(Self::flow_key(flow)
                .field("transport")
                .invalid("\"udp\"", &format!("{what} needs a TCP flow"))),
        }
    }

    /// Let flow `flow`'s sender act on a change now, if it has started (its start event
    /// does it otherwise): a repeated start only sends what the window allows.
    fn kick(&mut self, flow: usize) {
        let now = self.cx.sched.now();
        if self.cx.flows[flow].start_ns <= now {
            let id = FlowId(flow as u32);
            self.cx.sched.schedule(now, Event::Flow { flow: id, timer: FlowTimer::App });
        }
    }

    /// Flow `flow`'s window limit from now on: a fixed CWL of `segments` (as `tcp.max_window`,
    /// fractional allowed), or none (`None` or 0). Refused, naming the key, for a flow that
    /// does not exist, a UDP flow, or a value outside `tcp.max_window`'s range.
    pub fn set_window_limit(
        &mut self,
        flow: usize,
        segments: Option<f64>,
    ) -> Result<(), ScenarioError> {
        if let Some(w) = segments {
            ranges::check(&KeyPath::root().field("tcp").field("max_window"), w)?;
        }
        let now = self.cx.sched.now();
        self.tcp_mut(flow, "a window limit")?
            .sender
            .set_fixed_limit(segments.filter(|w| *w > 0.0), now);
        Ok(())
    }

    /// Flow `flow`'s congestion window = `segments` now (held under its window limit);
    /// congestion control goes on from there.
    pub fn set_cwnd(&mut self, flow: usize, segments: f64) -> Result<(), ScenarioError> {
        if !(segments > 0.0 && segments <= 1e6) {
            return Err(ScenarioError::invalid(
                "cwnd_segments",
                segments,
                "must be above 0 and at most 1e6: segments",
            ));
        }
        let now = self.cx.sched.now();
        self.tcp_mut(flow, "setting cwnd")?.sender.set_cwnd(segments, now);
        self.kick(flow);
        Ok(())
    }

    /// Flow `flow`'s pacing rate from now on. TCP: a maximum (Linux's SO_MAX_PACING_RATE:
    /// segments, headers counted, leave no faster; None lifts it). Paced UDP: the source's
    /// rate (datagram and headers per interval). Refused for saturated UDP (no rate) and
    /// for UDP without a rate.
    pub fn set_pacing_rate(
        &mut self,
        flow: usize,
        rate_kbps: Option<f64>,
    ) -> Result<(), ScenarioError> {
        if let Some(r) = rate_kbps {
            if !(r > 0.0 && r <= MAX_RATE_KBPS) {
                return Err(ScenarioError::invalid(
                    "pacing_rate_kbps",
                    r,
                    "must be above 0 and at most 1e7: kbit/s",
                ));
            }
        }
        let gap_ns =
            |bytes: u32, kbps: f64| (bytes as f64 * 8.0 / (kbps * 1e3) * 1e9).round() as SimTime;
        let at = Self::flow_key(flow);
        match &mut self.flow_mut(flow)?.app {
            FlowApp::Tcp(t) => {
                let bytes = t.mss + TCP_IP_HEADER_BYTES;
                t.sender.set_min_gap(rate_kbps.map(|r| gap_ns(bytes, r).max(1)));
            }
            FlowApp::Udp { source, .. } => {
                if source.saturated() {
                    return Err(at
                        .field("interval_s")
                        .invalid(0, "a saturated UDP source has no rate to change"));
                }
                let Some(r) = rate_kbps else {
                    return Err(ScenarioError::invalid(
                        "pacing_rate_kbps",
                        "None",
                        "a paced UDP source needs a rate",
                    ));
                };
                source.interval_ns = gap_ns(source.payload_bytes + UDP_IP_HEADER_BYTES, r).max(1);
            }
        }
        Ok(())
    }

    /// Flow `flow` has new data to send from now on: a flow not yet started starts now, a
    /// stopped one starts again (until the end of the run). Refused for a flow sending now.
    pub fn start_flow(&mut self, flow: usize) -> Result<(), ScenarioError> {
        let (now, end) = (self.cx.sched.now(), self.cx.cfg.end_ns);
        let f = self.flow_mut(flow)?;
        let done = match &f.app {
            FlowApp::Tcp(t) => t.completed_ns.is_some(),
            FlowApp::Udp { source, .. } => source.exhausted(),
        };
        if done {
            let why = "has sent all of its fixed-size transfer (flows.N.bytes): nothing to start";
            return Err(ScenarioError::invalid("flow", flow, why));
        }
        let sending = match &f.app {
            FlowApp::Tcp(t) => f.start_ns <= now && t.sender.stop_ns() > now,
            FlowApp::Udp { source, .. } => source.active_at(now),
        };
        if sending {
            return Err(ScenarioError::invalid("flow", flow, "is sending already: stop it first"));
        }
        f.start_ns = f.start_ns.min(now);
        match &mut f.app {
            FlowApp::Tcp(t) => t.sender.set_stop(end),
            FlowApp::Udp { source, .. } => source.restart(now, end),
        }
        let id = FlowId(flow as u32);
        self.cx.sched.schedule(now, Event::Flow { flow: id, timer: FlowTimer::App });
        Ok(())
    }

    /// Flow `flow` has no new data from now on (TCP retransmits what is outstanding).
    pub fn stop_flow(&mut self, flow: usize) -> Result<(), ScenarioError> {
        let now = self.cx.sched.now();
        match &mut self.flow_mut(flow)?.app {
            FlowApp::Tcp(t) => t.sender.set_stop(t.sender.stop_ns().min(now)),
            FlowApp::Udp { source, .. } => source.stop_ns = source.stop_ns.min(now),
        }
        Ok(())
    }

    /// The interface queue limit of `node` (every node when None) from now on, as
    /// `mac.queue_packets`: packets queued stay, arrivals find room once it drains below.
    pub fn set_queue_limit(
        &mut self,
        node: Option<usize>,
        packets: f64,
    ) -> Result<(), ScenarioError> {
        let key = KeyPath::root().field("mac").field("queue_packets");
        ranges::check(&key, packets)?;
        if packets.fract() != 0.0 {
            return Err(key.invalid(packets, "a whole number of packets"));
        }
        let n = self.nodes.len();
        let range = match node {
            Some(i) if i >= n => {
                return Err(ScenarioError::invalid("node", i, &format!("a node id 0..{n}")))
            }
            Some(i) => i..i + 1,
            None => 0..n,
        };
        let limit = packets as usize;
        for node in &self.nodes[range.clone()] {
            for q in &node.queues {
                q.check_limit(limit).map_err(|why| key.invalid(packets, why))?;
            }
        }
        for node in &mut self.nodes[range] {
            for q in &mut node.queues {
                q.set_limit(limit).expect("checked above");
            }
        }
        Ok(())
    }
}

//! A flow: its application and transport endpoints (a UDP source and sink, or a TCP
//! connection's sender and receiver; `tcp/endpoint.rs` builds its packets), and the
//! network-layer packet counters that the conservation invariant checks.

use crate::engine::time::SimTime;
use crate::ids::{NodeId, SeqNo};
use crate::transport::tcp::config::TcpSpec;
use crate::transport::tcp::receiver::TcpReceiver;
use crate::transport::tcp::sender::TcpSender;
use crate::transport::udp::{UdpSink, UdpSource};

#[derive(Clone)]
pub struct TcpFlow {
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
    /// The event trace's view of the sender: the cwnd and timeouts last reported.
    pub traced: (f64, u64),
    /// The receiver's ECN echo (RFC 3168 6.1.3), `transport/tcp/sender/ecn.rs`.
    pub ecn_echo: crate::transport::tcp::ecn::EcnReceiver,
}

impl TcpFlow {
    /// The first data segment: 1 after ns-2's SYN (`tcp/sender/syn.rs`), else 0; the data
    /// are segments `first_data()` to `first_data() + total_segments - 1`.
    pub fn first_data(&self) -> SeqNo {
        self.sender.first_data()
    }

    /// Application bytes in segment `seg` (none in the SYN).
    pub fn segment_bytes(&self, seg: SeqNo) -> u32 {
        let first = self.first_data();
        match self.total_segments {
            _ if seg < first => 0,
            Some(n) if seg + 1 == first + n => self.last_segment_bytes,
            _ => self.mss,
        }
    }

    pub fn mark_arrived(&mut self, seg: SeqNo) {
        let (word, bit) = ((seg.get() / 64) as usize, seg.get() % 64);
        if word >= self.arrived.len() {
            self.arrived.resize(word + 1, 0);
        }
        self.arrived[word] |= 1 << bit;
    }

    pub fn has_arrived(&self, seg: SeqNo) -> bool {
        let (word, bit) = ((seg.get() / 64) as usize, seg.get() % 64);
        self.arrived.get(word).is_some_and(|w| w & (1 << bit) != 0)
    }
}

#[derive(Clone)]
pub enum FlowApp {
    Udp { source: UdpSource, sink: UdpSink },
    Tcp(Box<TcpFlow>),
}

#[derive(Clone)]
pub struct FlowState {
    pub src: NodeId,
    pub dst: NodeId,
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
    /// The DS field its packets carry both ways (its access category's DSCP, mac/edca.rs):
    /// as a socket's IP_TOS.
    pub dscp: u8,
    pub app: FlowApp,
}

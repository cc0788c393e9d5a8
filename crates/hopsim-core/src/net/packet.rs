//! Packets live in one arena and are addressed by index; freed slots are reused, so steady
//! state allocates nothing. Each hop's copy is its own slot (the transmitter keeps its copy
//! for retransmission until the MAC is done with it).

/// IPv4 header without options.
pub const IP_HEADER_BYTES: u32 = 20;
pub const UDP_HEADER_BYTES: u32 = 8;
/// Initial IP TTL (Linux default), decremented per hop.
pub const INITIAL_TTL: u8 = 64;

pub use crate::ids::{FlowId, NodeId, PacketId, SeqNo};
use crate::net::aodv::AodvMsg;
use crate::net::dsr::DsrMsg;
use crate::net::hwmp::msg::HwmpRef;
use crate::net::olsr::OlsrRef;
use crate::net::router::Control;

/// The IP header's 2-bit ECN field (RFC 3168 section 5): the codepoints by their bit values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Ecn {
    #[default]
    NotEct = 0b00,
    Ect1 = 0b01,
    Ect0 = 0b10,
    /// Congestion Experienced, set by a router's AQM instead of a drop.
    Ce = 0b11,
}

impl Ecn {
    /// ECN-capable transport: a router may mark it instead of dropping it (RFC 3168 5).
    pub fn is_ect(self) -> bool {
        matches!(self, Ecn::Ect0 | Ecn::Ect1)
    }
}

/// TCP header fields the model uses (segment numbers; the wire format multiplies by the MSS).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TcpHeader {
    /// Data: the segment number carried. ACK: unused.
    pub seg: SeqNo,
    /// ACK: next segment expected (cumulative acknowledgment).
    pub ack: SeqNo,
    pub is_ack: bool,
    /// SACK blocks [start, end) in segments.
    pub sack: [(SeqNo, SeqNo); 3],
    pub sack_len: u8,
    /// ACK: the forward path as the receiver saw it on the data segment it acknowledges
    /// (hop count from the TTL, delay fields), echoed for the sender's window limit.
    pub echo_hops: u8,
    pub echo_delay_total_ns: u64,
    pub echo_delay_max_ns: u64,
    /// ACK: the window advertised, in segments (0: ns-2's fixed window, not carried).
    pub window: u32,
    /// RFC 7323 (TSval, TSecr), when the flow uses timestamps.
    pub ts: Option<(u32, u32)>,
    /// RFC 3168 section 6.1: ECN-Echo (on ACKs) and Congestion Window Reduced (on data).
    pub ece: bool,
    pub cwr: bool,
    /// ns-2's one-way SYN (data segment 0 when the agent models it; no payload).
    pub syn: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Packet {
    pub flow: FlowId,
    pub seq: u32,
    /// Network-layer source and destination nodes.
    pub src: NodeId,
    pub dst: NodeId,
    pub payload_bytes: u32,
    pub transport_header_bytes: u32,
    pub created_ns: u64,
    pub ttl: u8,
    /// The DS field's codepoint (RFC 2474): a flow's access category marks it (mac/edca.rs).
    pub dscp: u8,
    /// Routing control packets go to the head of interface queues.
    pub control: bool,
    /// The IP header's ECN field.
    pub ecn: Ecn,
    /// The next hop accepted this copy (set when its MAC hands it up); a later retry-limit
    /// drop of this copy then loses nothing end to end.
    pub handed_over: bool,
    /// TCP header of TCP packets.
    pub tcp: Option<TcpHeader>,
    /// Routing protocol message of control packets (flow = [`FlowId::NONE`]): one field for
    /// the four protocols' messages, so that every packet is as large as the largest alone.
    pub routing_msg: Option<Control>,
    /// DSR source route and the position of the node holding the packet.
    pub route: Option<(crate::net::dsr::SrcRoute, u8)>,
    /// Bytes of network-layer options (the DSR header).
    pub option_bytes: u32,
    /// Chen et al.'s two IP header fields: sum and maximum of the per-hop MAC delay
    /// estimates of the nodes that forwarded the packet (ns).
    pub delay_total_ns: u64,
    pub delay_max_ns: u64,
    /// IP identification, set by the originating node.
    pub ident: u16,
    /// The packet's id in the event trace: the same at every hop (0: not yet numbered).
    pub uid: u32,
    /// An ETX probe (a broadcast control packet counted by its receivers).
    pub etx_probe: bool,
    /// DSR (ns2 profile): times a forwarder gave this packet a new route after a link failure.
    pub salvaged: u8,
    /// ns2 profile: a segment of ns-2's Vegas agent, which puts no TCP/IP header bytes on
    /// the air (tcp-vegas.cc `output` sends `size_` alone; routing adds no IP header to
    /// PT_TCP): its IP length is its payload (and any routing option).
    pub headerless: bool,
    /// DSR (ns2 profile): the packet travels on an established flow (ns-2's flow state): its
    /// source route is not on the air, so forwarders and listeners cannot learn from it.
    pub flow_only: bool,
    /// DSR (ns2 profile): a TCP packet its source's DSR agent sent: ns-2's agent adds an IP
    /// header to every packet it originates (dsragent.cc `recv`, `cmh->size() +=
    /// IP_HDR_LEN`), TCP's too, whose agents count theirs already (tcp.cc `headersize()`;
    /// Vegas' none): 20 more bytes on the air. AODV does not (aodv.cc `recv` skips PT_TCP
    /// and PT_ACK).
    pub ns2_dsr_ip: bool,
}

impl Packet {
    /// A datagram of a flow at its own source: while it waits in that node's interface
    /// queue it counts as the flow's queued packet (a saturated source refills on none).
    #[inline]
    pub fn is_own_datagram(&self, node: NodeId) -> bool {
        self.src == node && self.tcp.is_none() && !self.flow.is_none()
    }

    /// The AODV message it carries, if any.
    #[inline]
    pub fn aodv(&self) -> Option<AodvMsg> {
        match self.routing_msg {
            Some(Control::Aodv(m)) => Some(m),
            _ => None,
        }
    }

    /// The DSR message it carries, if any.
    #[inline]
    pub fn dsr(&self) -> Option<DsrMsg> {
        match self.routing_msg {
            Some(Control::Dsr(m)) => Some(m),
            _ => None,
        }
    }

    /// The OLSR packet it carries, if any.
    #[inline]
    pub fn olsr(&self) -> Option<OlsrRef> {
        match self.routing_msg {
            Some(Control::Olsr(r)) => Some(r),
            _ => None,
        }
    }

    /// The HWMP element it carries (in a mesh action frame), if any.
    #[inline]
    pub fn hwmp(&self) -> Option<HwmpRef> {
        match self.routing_msg {
            Some(Control::Hwmp(r)) => Some(r),
            _ => None,
        }
    }

    /// A packet with no TCP header, routing message or options, at the initial TTL.
    pub fn new(
        flow: FlowId,
        seq: u32,
        src: NodeId,
        dst: NodeId,
        payload_bytes: u32,
        transport_header_bytes: u32,
        created_ns: u64,
    ) -> Packet {
        Packet {
            flow,
            seq,
            src,
            dst,
            payload_bytes,
            transport_header_bytes,
            created_ns,
            ttl: INITIAL_TTL,
            dscp: 0,
            control: false,
            ecn: Ecn::NotEct,
            handed_over: false,
            tcp: None,
            ident: 0,
            uid: 0,
            etx_probe: false,
            salvaged: 0,
            headerless: false,
            flow_only: false,
            ns2_dsr_ip: false,
            routing_msg: None,
            route: None,
            option_bytes: 0,
            delay_total_ns: 0,
            delay_max_ns: 0,
        }
    }

    /// IP datagram length.
    pub fn ip_bytes(&self) -> u32 {
        let ns2_dsr_ip = if self.ns2_dsr_ip { IP_HEADER_BYTES } else { 0 };
        if self.headerless {
            return ns2_dsr_ip + self.option_bytes + self.payload_bytes;
        }
        ns2_dsr_ip
            + IP_HEADER_BYTES
            + self.option_bytes
            + self.transport_header_bytes
            + self.payload_bytes
    }
}

#[derive(Clone, Debug, Default)]
pub struct PacketArena {
    slots: Vec<Option<Packet>>,
    free: Vec<u32>,
    live: usize,
    /// The id of the last packet numbered (`Packet::uid`).
    last_uid: u32,
    /// By slot: the MSDU after this one in the A-MSDU its MAC sends it in (mac/amsdu.rs), or
    /// `NO_NEXT`. A transmitter's chain lasts until its MAC is done with the MPDU. Empty until
    /// the first A-MSDU (a run without them pays one length check per look-up).
    next_msdu: Vec<u32>,
}

const NO_NEXT: u32 = u32::MAX;

impl PacketArena {
    pub fn with_capacity(capacity: usize) -> Self {
        PacketArena {
            slots: Vec::with_capacity(capacity),
            free: Vec::with_capacity(capacity),
            live: 0,
            last_uid: 0,
            next_msdu: Vec::new(),
        }
    }

    /// Bytes of the slots (live and free), for the run's memory budget.
    pub fn memory_bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Option<Packet>>()
            + (self.free.len() + self.next_msdu.len()) * 4
    }

    pub fn alloc(&mut self, packet: Packet) -> PacketId {
        self.live += 1;
        if let Some(i) = self.free.pop() {
            self.slots[i as usize] = Some(packet);
            PacketId::from_index(i)
        } else {
            self.slots.push(Some(packet));
            PacketId::from_index(self.slots.len() as u32 - 1)
        }
    }

    /// Number a packet entering the network (its id in the traces; 0 is never used).
    pub fn number(&mut self, p: &mut Packet) {
        self.last_uid = self.last_uid.wrapping_add(1).max(1);
        p.uid = self.last_uid;
    }

    pub fn get(&self, id: PacketId) -> &Packet {
        self.slots[id.index()].as_ref().expect("use of a freed packet")
    }

    pub fn get_mut(&mut self, id: PacketId) -> &mut Packet {
        self.slots[id.index()].as_mut().expect("use of a freed packet")
    }

    pub fn free(&mut self, id: PacketId) {
        let slot = &mut self.slots[id.index()];
        assert!(slot.is_some(), "double free of a packet");
        *slot = None;
        if let Some(n) = self.next_msdu.get_mut(id.index()) {
            *n = NO_NEXT;
        }
        self.free.push(id.index() as u32);
        self.live -= 1;
    }

    /// `next` follows `tail` in an A-MSDU (`tail` ends its chain so far).
    pub fn link_msdu(&mut self, tail: PacketId, next: PacketId) {
        if self.next_msdu.len() < self.slots.len() {
            self.next_msdu.resize(self.slots.len(), NO_NEXT);
        }
        debug_assert_eq!(self.next_msdu[tail.index()], NO_NEXT, "only a chain's tail grows");
        debug_assert!(self.slots[next.index()].is_some(), "a live packet joins");
        self.next_msdu[tail.index()] = next.index() as u32;
    }

    /// The MSDU after `id` in its A-MSDU.
    #[inline]
    pub fn next_msdu(&self, id: PacketId) -> Option<PacketId> {
        let n = *self.next_msdu.get(id.index())?;
        (n != NO_NEXT).then(|| PacketId::from_index(n))
    }

    /// The MSDU after `id`, which leaves the chain (each becomes a packet on its own again).
    #[inline]
    pub fn unlink_msdu(&mut self, id: PacketId) -> Option<PacketId> {
        let n = std::mem::replace(self.next_msdu.get_mut(id.index())?, NO_NEXT);
        (n != NO_NEXT).then(|| PacketId::from_index(n))
    }

    pub fn live(&self) -> usize {
        self.live
    }

    /// Live packets (for end-of-run accounting).
    pub fn iter_live(&self) -> impl Iterator<Item = &Packet> {
        self.slots.iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(seq: u32) -> Packet {
        Packet::new(FlowId(0), seq, NodeId(0), NodeId(1), 10, UDP_HEADER_BYTES, 0)
    }

    #[test]
    fn slots_are_reused() {
        let mut a = PacketArena::with_capacity(2);
        let x = a.alloc(pkt(1));
        let y = a.alloc(pkt(2));
        a.free(x);
        let z = a.alloc(pkt(3));
        assert_eq!(z, x);
        assert_eq!(a.get(y).seq, 2);
        assert_eq!(a.get(z).seq, 3);
        assert_eq!(a.live(), 2);
        assert_eq!(a.get(z).ip_bytes(), 38);
    }

    #[test]
    fn an_ns2_vegas_segment_is_its_payload_on_the_air() {
        // ns-2.35's Vegas agent: hdr_cmn size = packetSize_ (no tcpip_base_hdr_size_), and
        // routing adds no IP header to PT_TCP; a DSR option still counts.
        let seg = Packet {
            headerless: true,
            ..Packet::new(FlowId(0), 1, NodeId(0), NodeId(1), 1460, 20, 0)
        };
        assert_eq!(seg.ip_bytes(), 1460);
        assert_eq!(Packet { option_bytes: 12, ..seg }.ip_bytes(), 1472);
        assert_eq!(Packet { headerless: false, ..seg }.ip_bytes(), 1500);
    }

    #[test]
    fn ns2_dsr_adds_an_ip_header_to_what_the_tcp_agent_sent() {
        // dsragent.cc `recv`: `cmh->size() += IP_HDR_LEN` on every packet it originates.
        let seg = Packet::new(FlowId(0), 1, NodeId(0), NodeId(1), 1460, 20, 0);
        assert_eq!(Packet { ns2_dsr_ip: true, ..seg }.ip_bytes(), 1520, "Reno: 40 + 20");
        let vegas = Packet { headerless: true, ns2_dsr_ip: true, ..seg };
        assert_eq!(vegas.ip_bytes(), 1480, "Vegas: 0 + 20");
        let ack = Packet::new(FlowId(0), 0, NodeId(1), NodeId(0), 0, 20, 0);
        assert_eq!(Packet { ns2_dsr_ip: true, ..ack }.ip_bytes(), 60, "TCPSink's 40 + 20");
    }

    #[test]
    #[should_panic(expected = "double free")]
    fn double_free_is_caught() {
        let mut a = PacketArena::with_capacity(1);
        let x = a.alloc(pkt(1));
        a.free(x);
        a.free(x);
    }
}

//! Transport layer: each flow's endpoints (`flow.rs`), TCP (`tcp/`) and UDP (`udp.rs`).

pub mod flow;
pub mod tcp;
pub mod udp;

/// The application's timer of a flow: it starts, or a paced source sends its next packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppTimer;

/// What an endpoint hands to the network layer: a packet of its flow, and what it is.
#[derive(Debug, Clone, Copy)]
pub struct Emit {
    pub packet: crate::net::packet::Packet,
    pub kind: Sent,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    /// New data (a TCP segment sent for the first time, a UDP datagram).
    Data,
    Retransmission,
    Ack,
}

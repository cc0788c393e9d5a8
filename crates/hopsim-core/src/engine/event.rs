//! The events of a run. Small and `Copy`: the queue holds them by value (no allocation).

use crate::engine::time::SimTime;

/// Node and flow ids are indices into the world's arenas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The frame `node` is transmitting leaves the air (at the transmitter).
    TxEnd { node: u32 },
    /// The MAC's backoff/access deadline.
    MacAccess { node: u32, generation: u32 },
    /// CTS or ACK timeout.
    MacTimeout { node: u32, generation: u32 },
    /// Send the frame the MAC prepared SIFS after a reception (CTS, DATA, ACK).
    MacSifs { node: u32, generation: u32 },
    /// A paced application source sends its next packet.
    AppSend { flow: u32 },
    /// TCP retransmission timer of a flow's sender.
    TcpRto { flow: u32, generation: u32 },
    /// Delayed-ACK timer of a flow's receiver.
    TcpDelAck { flow: u32, generation: u32 },
    /// Pacing timer of a flow's sender.
    TcpPace { flow: u32, generation: u32 },
    /// Route discovery timer (AODV or DSR) of `node` for destination `dst`.
    RouteTimer { node: u32, dst: u32 },
    /// A routing control packet (jittered) goes to the interface queue of `node`.
    ControlRelease { node: u32, packet: crate::net::packet::PacketId },
    /// A packet that waited for a route goes on (ns-2 AODV releases them ARP_DELAY apart).
    RouteRelease { node: u32, packet: crate::net::packet::PacketId },
    /// AODV HELLO timer of a node.
    Hello { node: u32 },
    /// Take a sample of the time series.
    Sample,
    /// ETX: `node` broadcasts its next probe.
    EtxProbe { node: u32 },
    /// ETX: the warm-up is over; compute and freeze the routes.
    EtxFreeze,
}

// Each layer arms its own timer kinds; here they become the world's events (and back, in
// `World::dispatch`).

impl crate::engine::sched::TimerSink<crate::mac::dcf::MacTimer>
    for crate::engine::sched::Scheduler<Event>
{
    fn arm(&mut self, at: SimTime, node: u32, timer: crate::mac::dcf::MacTimer, generation: u32) {
        use crate::mac::dcf::MacTimer;
        self.schedule(
            at,
            match timer {
                MacTimer::Access => Event::MacAccess { node, generation },
                MacTimer::Timeout => Event::MacTimeout { node, generation },
                MacTimer::Sifs => Event::MacSifs { node, generation },
            },
        );
    }
}

impl crate::engine::sched::TimerSink<crate::transport::tcp::TcpTimer>
    for crate::engine::sched::Scheduler<Event>
{
    fn arm(
        &mut self,
        at: SimTime,
        flow: u32,
        timer: crate::transport::tcp::TcpTimer,
        generation: u32,
    ) {
        use crate::transport::tcp::TcpTimer;
        self.schedule(
            at,
            match timer {
                TcpTimer::Rto => Event::TcpRto { flow, generation },
                TcpTimer::DelAck => Event::TcpDelAck { flow, generation },
                TcpTimer::Pace => Event::TcpPace { flow, generation },
            },
        );
    }
}

//! The events of a run. They only route: to a timer of one of a node's layers, to a timer of
//! a flow's endpoints, to the end of a transmission, or to the simulation's own. Each layer
//! names its timer kinds (`MacTimer`, `RouteTimer`, `TcpTimer`) and arms them through
//! [`TimerSink`]; the mapping to events is here. Small and `Copy`: the queue holds them by
//! value (no allocation).

use crate::engine::sched::{Scheduler, TimerSink};
use crate::engine::time::SimTime;
use crate::ids::{FlowId, NodeId};
use crate::mac::dcf::MacTimer;
use crate::net::router::RouteTimer;
use crate::transport::tcp::TcpTimer;
use crate::transport::AppTimer;

/// Node and flow ids are indices into the world's arenas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The frame `node` is transmitting leaves the air (at the transmitter).
    TxEnd { node: NodeId },
    /// A timer of one of `node`'s layers.
    Node { node: NodeId, timer: NodeTimer },
    /// A timer of `flow`'s endpoints.
    Flow { flow: FlowId, timer: FlowTimer },
    /// The simulation's own.
    Sim(SimEvent),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeTimer {
    /// The MAC's, with the generation that tells a live firing from a cancelled one.
    Mac(MacTimer, u32),
    Route(RouteTimer),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlowTimer {
    /// The application's: a flow starts, or a paced source sends its next packet.
    App,
    Tcp(TcpTimer, u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimEvent {
    /// Take a sample of the time series.
    Sample,
    /// ETX: the warm-up is over; compute and freeze the routes.
    EtxFreeze,
    /// An outside interferer goes on the air, or leaves it (world/interference.rs).
    InterferenceOn {
        source: u16,
    },
    InterferenceOff {
        source: u16,
    },
}

/// The MAC's CTS/ACK timeout is nearly always cancelled by the response: it lives in the
/// node's keyed slot and is withdrawn then, instead of being popped as a stale event.
impl TimerSink<MacTimer, NodeId> for Scheduler<Event> {
    fn arm(&mut self, at: SimTime, node: NodeId, timer: MacTimer, generation: u32) {
        let event = Event::Node { node, timer: NodeTimer::Mac(timer, generation) };
        match timer {
            MacTimer::Timeout => self.schedule_keyed(at, node.0, event),
            MacTimer::Access | MacTimer::Sifs | MacTimer::NavReset | MacTimer::Reorder => {
                self.schedule(at, event)
            }
        }
    }

    fn disarm(&mut self, node: NodeId, timer: MacTimer) {
        if timer == MacTimer::Timeout {
            self.cancel_keyed(node.0);
        }
    }
}

impl TimerSink<TcpTimer, FlowId> for Scheduler<Event> {
    fn arm(&mut self, at: SimTime, flow: FlowId, timer: TcpTimer, generation: u32) {
        self.schedule(at, Event::Flow { flow, timer: FlowTimer::Tcp(timer, generation) });
    }
}

impl TimerSink<AppTimer, FlowId> for Scheduler<Event> {
    fn arm(&mut self, at: SimTime, flow: FlowId, _timer: AppTimer, _generation: u32) {
        self.schedule(at, Event::Flow { flow, timer: FlowTimer::App });
    }
}

/// Routing's timers carry their own data and need no generation (a stale discovery timer
/// is recognised by the protocol's state).
impl TimerSink<RouteTimer, NodeId> for Scheduler<Event> {
    fn arm(&mut self, at: SimTime, node: NodeId, timer: RouteTimer, _generation: u32) {
        self.schedule(at, Event::Node { node, timer: NodeTimer::Route(timer) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_stay_small() {
        // The queue moves events by value: keep an entry (time, sequence, event) at 32 bytes.
        assert!(std::mem::size_of::<Event>() <= 16, "{}", std::mem::size_of::<Event>());
    }
}

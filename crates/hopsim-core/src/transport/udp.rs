//! UDP sources and sinks: paced (constant bit rate, a fixed inter-send time: the "paced UDP"
//! of the studies) or saturated (the source always has a packet waiting in its interface queue).

use crate::engine::time::SimTime;
use crate::net::packet::{FlowId, NodeId, Packet, UDP_HEADER_BYTES};

#[derive(Debug, Clone)]
pub struct UdpSource {
    pub src: NodeId,
    pub dst: NodeId,
    pub payload_bytes: u32,
    /// 0 = saturated.
    pub interval_ns: SimTime,
    pub start_ns: SimTime,
    pub stop_ns: SimTime,
    next_seq: u32,
    /// Packets to send in all (None: until stop_ns).
    limit: Option<u64>,
    /// When its one live application timer fires (a start moved mid-run leaves the old
    /// firing stale).
    armed_at: SimTime,
}

impl UdpSource {
    pub fn new(
        src: NodeId,
        dst: NodeId,
        payload_bytes: u32,
        interval_ns: SimTime,
        start_ns: SimTime,
        stop_ns: SimTime,
    ) -> Self {
        UdpSource {
            src,
            dst,
            payload_bytes,
            interval_ns,
            start_ns,
            stop_ns,
            next_seq: 0,
            limit: None,
            armed_at: start_ns,
        }
    }

    pub fn saturated(&self) -> bool {
        self.interval_ns == 0
    }

    /// Send at most `packets` packets.
    pub fn limit_packets(&mut self, packets: u64) {
        self.limit = Some(packets);
    }

    /// Has it sent every packet of a fixed-size transfer?
    pub fn exhausted(&self) -> bool {
        self.limit.is_some_and(|l| self.next_seq as u64 >= l)
    }

    pub fn active_at(&self, now: SimTime) -> bool {
        now >= self.start_ns
            && now < self.stop_ns
            && self.limit.is_none_or(|l| (self.next_seq as u64) < l)
    }

    /// Sequence number for the next packet.
    pub fn take_seq(&mut self) -> u32 {
        let s = self.next_seq;
        self.next_seq += 1;
        s
    }

    /// The next datagram of `flow`, built at `now` (UDP header, no options).
    pub fn datagram(&mut self, flow: FlowId, now: SimTime) -> Packet {
        let seq = self.take_seq();
        Packet::new(flow, seq, self.src, self.dst, self.payload_bytes, UDP_HEADER_BYTES, now)
    }

    /// When a paced source sends again after sending at `now`, if still active then (the
    /// timer is to be armed for it).
    pub fn next_send(&mut self, now: SimTime) -> Option<SimTime> {
        let at = now + self.interval_ns;
        let next = (!self.saturated() && at < self.stop_ns).then_some(at);
        self.armed_at = next.unwrap_or(SimTime::MAX);
        next
    }

    /// Is a firing of its application timer at `now` the live one?
    pub fn timer_live(&self, now: SimTime) -> bool {
        now == self.armed_at
    }

    /// Starts (again) at `now`, its timer to be armed for then; paced at `interval_ns` from
    /// now on, sending until `stop_ns`.
    pub fn restart(&mut self, now: SimTime, stop_ns: SimTime) {
        self.start_ns = self.start_ns.min(now);
        self.stop_ns = stop_ns;
        self.armed_at = now;
    }
}

/// Receiving side: counts what arrives, and what arrives inside the measurement window.
#[derive(Debug, Clone, Default)]
pub struct UdpSink {
    pub total_payload_bytes: u64,
    pub window_packets: u64,
    pub window_payload_bytes: u64,
    pub window_delay_sum_ns: u128,
}

impl UdpSink {
    pub fn deliver(&mut self, payload_bytes: u32, delay_ns: SimTime, in_window: bool) {
        self.total_payload_bytes += payload_bytes as u64;
        if in_window {
            self.window_packets += 1;
            self.window_payload_bytes += payload_bytes as u64;
            self.window_delay_sum_ns += delay_ns as u128;
        }
    }

    /// Mean end-to-end delay of the packets delivered in the window, in ms.
    pub fn mean_delay_ms(&self) -> Option<f64> {
        (self.window_packets > 0)
            .then(|| self.window_delay_sum_ns as f64 / self.window_packets as f64 / 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paced_source_stops_at_stop_time() {
        let mut s = UdpSource::new(NodeId(0), NodeId(1), 100, 10, 0, 25);
        assert_eq!(s.next_send(0), Some(10));
        assert_eq!(s.next_send(10), Some(20));
        assert_eq!(s.next_send(20), None);
        assert!(s.active_at(24) && !s.active_at(25));
    }

    #[test]
    fn sink_window_and_delay() {
        let mut k = UdpSink::default();
        k.deliver(100, 2_000_000, false);
        k.deliver(100, 4_000_000, true);
        k.deliver(100, 6_000_000, true);
        assert_eq!(k.window_payload_bytes, 200);
        assert_eq!(k.mean_delay_ms(), Some(5.0));
    }
}

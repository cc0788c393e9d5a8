//! Where OLSR messages live while a packet carries them. A packet is `Copy` and small, so it
//! carries an `OlsrRef` (the message's number, its kind and size) and the message itself is
//! here: numbered in the order sent, kept `HORIZON_NS` (a control packet goes to the head of
//! its queue and is received, or lost, long before), then dropped, oldest first. No
//! allocation once the ring has grown to the messages of one horizon.

use std::collections::VecDeque;

use super::msg::{Body, Message, PACKET_HEADER_BYTES};
use crate::engine::time::SimTime;

/// How long a message is kept after it was sent.
pub const HORIZON_NS: SimTime = 10_000_000_000;

/// A message as a packet carries it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OlsrRef {
    pub id: u64,
    /// Bytes of the OLSR packet (its header and the message).
    pub bytes: u32,
    pub tc: bool,
}

#[derive(Debug, Clone, Default)]
pub struct OlsrStore {
    /// The number of `ring`'s first message.
    first: u64,
    ring: VecDeque<(SimTime, Message)>,
}

impl OlsrStore {
    /// Keep `m`, sent at `now`; the reference a packet carries.
    pub fn put(&mut self, now: SimTime, m: Message) -> OlsrRef {
        while self.ring.front().is_some_and(|(at, _)| *at + HORIZON_NS < now) {
            self.ring.pop_front();
            self.first += 1;
        }
        let tc = matches!(m.body, Body::Tc(_));
        let bytes = PACKET_HEADER_BYTES + m.bytes();
        self.ring.push_back((now, m));
        OlsrRef { id: self.first + self.ring.len() as u64 - 1, bytes, tc }
    }

    /// The message `r` names (None once it has passed the horizon).
    pub fn get(&self, r: OlsrRef) -> Option<&Message> {
        let i = r.id.checked_sub(self.first)?;
        self.ring.get(i as usize).map(|(_, m)| m)
    }

    /// Messages kept now.
    pub fn len(&self) -> usize {
        self.ring.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ring.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::NodeId;
    use crate::net::olsr::msg::{Body, Hello};

    fn hello() -> Message {
        let body = Body::Hello(Hello { willingness: 3, links: vec![] });
        Message { originator: NodeId(1), seq: 1, ttl: 1, hops: 0, vtime_ns: 6, body }
    }

    #[test]
    fn messages_are_kept_for_the_horizon_then_dropped_oldest_first() {
        let mut s = OlsrStore::default();
        let a = s.put(0, hello());
        let b = s.put(HORIZON_NS, hello());
        assert_eq!((a.id, b.id, a.bytes), (0, 1, 4 + 12 + 4));
        assert!(s.get(a).is_some() && s.get(b).is_some());
        let c = s.put(HORIZON_NS + 1, hello());
        assert!(s.get(a).is_none(), "past the horizon");
        assert_eq!(s.get(b), Some(&hello()));
        assert_eq!((c.id, s.len()), (2, 2));
    }
}

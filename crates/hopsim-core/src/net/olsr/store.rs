//! Where OLSR packets live while a frame carries them (`net/store.rs`): a frame carries an
//! `OlsrRef` (the OLSR packet's number, its size and what it holds). The message vectors of
//! dropped packets are reused.

use super::msg::{Body, Message, PACKET_HEADER_BYTES};
use crate::engine::time::SimTime;
use crate::net::store::MessageStore;

/// An OLSR packet (RFC 3626 section 3.3: a header and one or more messages) as a frame
/// carries it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OlsrRef {
    pub id: u64,
    /// Bytes of the OLSR packet (its header and the messages).
    pub bytes: u32,
    /// HELLO and TC messages in it, and the bytes of its HELLOs.
    pub hellos: u8,
    pub tcs: u8,
    pub hello_bytes: u16,
}

impl OlsrRef {
    /// Bytes of its TC messages.
    pub fn tc_bytes(&self) -> u32 {
        self.bytes - PACKET_HEADER_BYTES - u32::from(self.hello_bytes)
    }
}

#[derive(Debug, Clone, Default)]
pub struct OlsrStore {
    packets: MessageStore<Vec<Message>>,
    /// Emptied message vectors, for the next packets.
    spare: Vec<Vec<Message>>,
}

impl OlsrStore {
    /// A vector to fill with a packet's messages (a reused one when there is one).
    pub fn packet(&mut self) -> Vec<Message> {
        self.spare.pop().unwrap_or_default()
    }

    /// Keep the packet of `messages`, sent at `now` (at most 255 messages of each kind, far
    /// more than an MTU holds); the reference a frame carries.
    pub fn put(&mut self, now: SimTime, messages: Vec<Message>) -> OlsrRef {
        let (mut hellos, mut tcs, mut hello_bytes, mut bytes) = (0u8, 0u8, 0u16, 0u32);
        for m in &messages {
            let b = m.bytes();
            bytes += b;
            match m.body {
                Body::Hello(_) => (hellos, hello_bytes) = (hellos + 1, hello_bytes + b as u16),
                Body::Tc(_) => tcs += 1,
            }
        }
        let spare = &mut self.spare;
        let id = self.packets.put(now, messages, |mut old| {
            old.clear();
            spare.push(old);
        });
        OlsrRef { id, bytes: PACKET_HEADER_BYTES + bytes, hellos, tcs, hello_bytes }
    }

    /// The messages of packet `r` (None once it has passed the horizon).
    pub fn get(&self, r: OlsrRef) -> Option<&[Message]> {
        self.packets.get(r.id).map(Vec::as_slice)
    }

    /// Packets kept now.
    pub fn len(&self) -> usize {
        self.packets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::NodeId;
    use crate::net::olsr::msg::{Hello, Tc};
    use crate::net::store::HORIZON_NS;

    fn hello() -> Message {
        let body = Body::Hello(Hello { willingness: 3, links: vec![] });
        Message { originator: NodeId(1), seq: 1, ttl: 1, hops: 0, vtime_ns: 6, body }
    }

    fn tc(n: usize) -> Message {
        let body = Body::Tc(Tc { ansn: 1, advertised: vec![NodeId(2); n] });
        Message { originator: NodeId(1), seq: 2, ttl: 255, hops: 0, vtime_ns: 15, body }
    }

    #[test]
    fn packets_are_kept_for_the_horizon_then_dropped_oldest_first() {
        let mut s = OlsrStore::default();
        let a = s.put(0, vec![hello()]);
        let b = s.put(HORIZON_NS, vec![hello()]);
        // Section 3.3: 4 bytes of packet header, 12 of message header, a HELLO's 4.
        assert_eq!((a.id, b.id, a.bytes, a.hellos, a.tcs), (0, 1, 4 + 12 + 4, 1, 0));
        assert!(s.get(a).is_some() && s.get(b).is_some());
        let c = s.put(HORIZON_NS + 1, vec![hello()]);
        assert!(s.get(a).is_none(), "past the horizon");
        assert_eq!(s.get(b), Some(&[hello()][..]));
        assert_eq!((c.id, s.len()), (2, 2));
        assert_eq!(s.packet().capacity(), 1, "the dropped packet's vector is reused");
    }

    #[test]
    fn a_packet_of_several_messages_counts_each_kind() {
        let mut s = OlsrStore::default();
        let r = s.put(0, vec![hello(), tc(3), tc(0)]);
        // Section 9.1: a TC is 12 + 4 + 4 per advertised address.
        assert_eq!((r.hellos, r.tcs, r.hello_bytes), (1, 2, 16));
        assert_eq!(r.tc_bytes(), (12 + 4 + 12) + (12 + 4));
        assert_eq!(r.bytes, 4 + 16 + 28 + 16);
        assert_eq!(s.get(r).map(<[Message]>::len), Some(3));
    }
}

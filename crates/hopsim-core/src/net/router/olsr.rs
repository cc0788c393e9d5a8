//! OLSR behind the router interface (`net/olsr/`): its HELLO and TC timers, messages queued
//! and sent together after a jitter (RFC 3626 3.4: messages may be piggybacked in one packet;
//! ns-3 `olsr::RoutingProtocol::QueueMessage` and `SendQueuedMessages`, olsrd's output
//! buffer), routes from its table (proactive: a packet with no route is dropped, never
//! held), and, if configured, link-layer notification of failed transmissions.

use super::{Control, Decision, DropReason, RouteAction, RouteCtx};
use crate::engine::time::SimDuration;
use crate::ids::NodeId;
use crate::net::olsr::msg::{Message, PACKET_HEADER_BYTES};
use crate::net::olsr::{OlsrConfig, OlsrNode, OlsrRef};

/// At most this many messages in one packet (ns-3 olsr-routing-protocol.cc OLSR_MAX_MSGS).
pub const MAX_MESSAGES_PER_PACKET: usize = 64;
/// An OLSR packet fits one IPv4 datagram of a 1500-byte MTU without fragmenting: 1500 less
/// the IPv4 (20) and UDP (8) headers.
pub const MAX_PACKET_BYTES: u32 = 1500 - 20 - 8;

#[derive(Clone)]
pub struct OlsrRouter {
    pub(super) node: OlsrNode,
    /// RFC 3626 section 13: a failed transmission breaks the link at once.
    feedback: bool,
    /// Messages waiting for the jittered send that will carry them, and whether it is armed.
    queued: Vec<Message>,
    flush_armed: bool,
}

impl OlsrRouter {
    pub fn new(me: NodeId, cfg: OlsrConfig, feedback: bool) -> OlsrRouter {
        let node = OlsrNode::new(me, cfg);
        OlsrRouter { node, feedback, queued: Vec::new(), flush_armed: false }
    }

    pub(super) fn route(&mut self, cx: &RouteCtx, dst: NodeId) -> Decision {
        match self.node.next_hop(dst, cx.now) {
            Some(next_hop) => Decision::Forward { next_hop, release_older: false },
            None => Decision::Drop(DropReason::NoRoute),
        }
    }

    /// Queue `m`; the first message queued arms the send, after a jitter up to MAXJITTER
    /// (section 18.3), that takes every message queued by then.
    fn queue(&mut self, cx: &mut RouteCtx, m: Message) {
        self.queued.push(m);
        self.arm_send(cx);
    }

    fn arm_send(&mut self, cx: &mut RouteCtx) {
        if !self.flush_armed {
            self.flush_armed = true;
            let jitter_ns = self.node.config().max_jitter_ns;
            cx.out.push(RouteAction::SendQueued { jitter_ns });
        }
    }

    /// The jittered send: the queued messages in packets, in the order queued, each packet
    /// within MAX_MESSAGES_PER_PACKET and MAX_PACKET_BYTES.
    pub(super) fn send_queued(&mut self, cx: &mut RouteCtx) {
        self.flush_armed = false;
        let mut packet = cx.olsr.packet();
        let mut bytes = PACKET_HEADER_BYTES;
        for m in self.queued.drain(..) {
            let b = m.bytes();
            let full = packet.len() == MAX_MESSAGES_PER_PACKET || bytes + b > MAX_PACKET_BYTES;
            if full && !packet.is_empty() {
                let next = cx.olsr.packet();
                let r = cx.olsr.put(cx.now, std::mem::replace(&mut packet, next));
                send(cx, r);
                bytes = PACKET_HEADER_BYTES;
            }
            bytes += b;
            packet.push(m);
        }
        if !packet.is_empty() {
            let r = cx.olsr.put(cx.now, packet);
            send(cx, r);
        }
    }

    /// An OLSR packet from neighbour `from`: each message processed in order (section 3.4),
    /// one to forward queued (3.4.1).
    pub(super) fn on_packet(&mut self, cx: &mut RouteCtx, r: OlsrRef, from: NodeId) {
        let Some(messages) = cx.olsr.get(r) else { return }; // past the store's horizon: lost
        let before = self.queued.len();
        for m in messages {
            if let Some(forward) = self.node.receive(cx.now, from, m) {
                self.queued.push(forward);
            }
        }
        if self.queued.len() > before {
            self.arm_send(cx);
        }
    }

    /// A HELLO (`tc` false) or TC timer fired: the message, if any, queued, and the interval
    /// to the next.
    pub(super) fn on_timer(&mut self, cx: &mut RouteCtx, tc: bool) -> SimDuration {
        let cfg = *self.node.config();
        if tc {
            if let Some(m) = self.node.tc(cx.now) {
                self.queue(cx, m);
            }
            cfg.tc_interval_ns
        } else {
            let m = self.node.hello(cx.now);
            self.queue(cx, m);
            cfg.hello_interval_ns
        }
    }

    pub(super) fn link_failed(&mut self, cx: &RouteCtx, next_hop: NodeId) {
        if self.feedback {
            self.node.link_failed(cx.now, next_hop);
        }
    }
}

fn send(cx: &mut RouteCtx, r: OlsrRef) {
    let msg = Control::Olsr(r);
    cx.out.push(RouteAction::Send { msg, to: NodeId::BROADCAST, delay_ns: 0, jitter_ns: 0 });
}

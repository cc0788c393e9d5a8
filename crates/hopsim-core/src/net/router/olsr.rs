//! OLSR behind the router interface (`net/olsr/`): its HELLO and TC timers, messages through
//! the message store, routes from its table (proactive: a packet with no route is dropped,
//! never held), and, if configured, link-layer notification of failed transmissions.

use super::{Control, Decision, DropReason, RouteAction, RouteCtx};
use crate::engine::time::SimDuration;
use crate::ids::NodeId;
use crate::net::olsr::msg::Message;
use crate::net::olsr::{OlsrConfig, OlsrNode, OlsrRef};

#[derive(Clone)]
pub struct OlsrRouter {
    pub(super) node: OlsrNode,
    /// RFC 3626 section 13: a failed transmission breaks the link at once.
    feedback: bool,
}

impl OlsrRouter {
    pub fn new(me: NodeId, cfg: OlsrConfig, feedback: bool) -> OlsrRouter {
        OlsrRouter { node: OlsrNode::new(me, cfg), feedback }
    }

    pub(super) fn route(&mut self, cx: &RouteCtx, dst: NodeId) -> Decision {
        match self.node.next_hop(dst, cx.now) {
            Some(next_hop) => Decision::Forward { next_hop, release_older: false },
            None => Decision::Drop(DropReason::NoRoute),
        }
    }

    fn send(&self, cx: &mut RouteCtx, m: Message) {
        let r = cx.olsr.put(cx.now, m);
        let jitter_ns = self.node.config().max_jitter_ns;
        cx.out.push(RouteAction::Send { msg: Control::Olsr(r), to: NodeId::BROADCAST, jitter_ns });
    }

    /// A message from neighbour `from`; one to forward goes out jittered (section 3.4.1).
    pub(super) fn on_message(&mut self, cx: &mut RouteCtx, r: OlsrRef, from: NodeId) {
        let Some(m) = cx.olsr.get(r) else { return }; // past the store's horizon: lost
        if let Some(forward) = self.node.receive(cx.now, from, m) {
            self.send(cx, forward);
        }
    }

    /// A HELLO (`tc` false) or TC timer fired: the message, if any, and the interval to the
    /// next.
    pub(super) fn on_timer(&mut self, cx: &mut RouteCtx, tc: bool) -> SimDuration {
        let cfg = *self.node.config();
        if tc {
            if let Some(m) = self.node.tc(cx.now) {
                self.send(cx, m);
            }
            cfg.tc_interval_ns
        } else {
            let m = self.node.hello(cx.now);
            self.send(cx, m);
            cfg.hello_interval_ns
        }
    }

    pub(super) fn link_failed(&mut self, cx: &RouteCtx, next_hop: NodeId) {
        if self.feedback {
            self.node.link_failed(cx.now, next_hop);
        }
    }
}

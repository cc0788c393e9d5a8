//! HWMP behind the router interface (`net/hwmp/`): a source without a path holds its packet
//! and discovers one; a forwarder without one drops it and tells the transmitter by PERR
//! (13.10.11.2); elements travel in mesh action frames through the message store, each
//! received one with the airtime metric of the link it came over (the glue's, from the MAC's
//! rate and frame error rate); HWMP's timers are the routing layer's (`RouteTimer::Hwmp`).

use super::{Control, Decision, DropReason, RouteAction, RouteCtx, RouteTimer};
use crate::engine::time::SimDuration;
use crate::ids::NodeId;
use crate::net::hwmp::msg::HwmpRef;
use crate::net::hwmp::{HwmpAction, HwmpConfig, HwmpNode, HwmpTimer};

/// An element sent in answer to one received (a PREQ or PREP forwarded, a PREP or PREQ
/// answering, a PERR passed on) leaves after a processing time uniform in [300, 400] us, as
/// ns-3's `MeshPointDevice::ForwardingDelay` has it: relays that heard the same element do
/// not all answer in the same slot.
const FORWARDING_DELAY_NS: (SimDuration, SimDuration) = (300_000, 100_000);

#[derive(Clone)]
pub struct HwmpRouter {
    pub(super) node: HwmpNode,
    scratch: Vec<HwmpAction>,
    /// The transmitter of the frame being handled (`Router::heard`): a forwarded packet's
    /// previous hop, whom a PERR for it goes to.
    last_heard: NodeId,
}

impl HwmpRouter {
    pub fn new(me: NodeId, cfg: HwmpConfig) -> HwmpRouter {
        let node = HwmpNode::new(me, cfg);
        HwmpRouter { node, scratch: Vec::with_capacity(8), last_heard: NodeId::BROADCAST }
    }

    pub(super) fn heard(&mut self, from: NodeId) {
        self.last_heard = from;
    }

    pub(super) fn route(&mut self, cx: &mut RouteCtx, dst: NodeId, own: bool) -> Decision {
        let d = if own {
            match self.node.originate(dst, cx.now, &mut self.scratch) {
                Some(next_hop) => Decision::Forward { next_hop, release_older: true },
                None => Decision::Hold,
            }
        } else {
            match self.node.next_hop(dst, cx.now) {
                Some(next_hop) => Decision::Forward { next_hop, release_older: false },
                None => {
                    let prev = self.last_heard;
                    self.node.no_forwarding_info(dst, prev, cx.now, &mut self.scratch);
                    Decision::Drop(DropReason::NoRoute)
                }
            }
        };
        self.flush(cx);
        d
    }

    /// An element from neighbour `from`, over a link of airtime metric `link_metric`.
    pub(super) fn on_element(
        &mut self,
        cx: &mut RouteCtx,
        r: HwmpRef,
        from: NodeId,
        link_metric: u32,
    ) {
        let Some(m) = cx.hwmp.get(r.id) else { return }; // past the store's horizon: lost
        self.node.receive(m, from, link_metric, cx.now, &mut self.scratch);
        self.flush_after(cx, FORWARDING_DELAY_NS);
    }

    pub(super) fn on_timer(&mut self, cx: &mut RouteCtx, timer: HwmpTimer) {
        self.node.on_timer(timer, cx.now, &mut self.scratch);
        self.flush(cx);
    }

    pub(super) fn link_failed(&mut self, cx: &mut RouteCtx, next_hop: NodeId) {
        self.node.link_failed(next_hop, cx.now, &mut self.scratch);
        self.flush(cx);
    }

    fn flush(&mut self, cx: &mut RouteCtx) {
        self.flush_after(cx, (0, 0));
    }

    /// HWMP's actions in the router vocabulary, elements put in the store and sent after
    /// `delay_ns` and a jitter up to `jitter_ns`.
    fn flush_after(
        &mut self,
        cx: &mut RouteCtx,
        (delay_ns, jitter_ns): (SimDuration, SimDuration),
    ) {
        for a in self.scratch.drain(..) {
            cx.out.push(match a {
                HwmpAction::Send { msg, to } => {
                    let (kind, body_bytes) = (msg.kind(), msg.body_bytes());
                    let id = cx.hwmp.put(cx.now, msg, drop);
                    let r = HwmpRef { id, kind, body_bytes };
                    RouteAction::Send { msg: Control::Hwmp(r), to, delay_ns, jitter_ns }
                }
                HwmpAction::Timer { timer, at } => {
                    RouteAction::Arm { timer: RouteTimer::Hwmp(timer), at: at.max(cx.now) }
                }
                HwmpAction::RouteFound { dst } => RouteAction::RouteFound { dst, paced: false },
                HwmpAction::Unreachable { dst } => RouteAction::Unreachable { dst },
            });
        }
    }
}

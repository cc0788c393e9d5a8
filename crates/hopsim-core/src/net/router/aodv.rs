//! AODV behind the router interface: its route decision and its actions in the router's
//! vocabulary.

use super::{AodvRouter, Control, Decision, DropReason, RouteAction};
use crate::engine::time::SimTime;
use crate::ids::NodeId;
use crate::net::aodv::AodvAction;

impl AodvRouter {
    /// RFC 3561 6.2-6.3 and 6.11 case (ii).
    pub(super) fn route(&mut self, now: SimTime, dst: NodeId, own: bool) -> Decision {
        if let Some(next_hop) = self.node.next_hop(dst, now) {
            return Decision::Forward { next_hop, release_older: true };
        }
        if own || self.node.repairing(dst) {
            // A source discovers; ns-2 rt_resolve: where a local repair is under way the
            // packet waits for it too (and rt_purge asks again for such destinations).
            self.node.discover(dst, now, &mut self.scratch);
            Decision::Hold
        } else {
            // A forwarder without a route: drop and report upstream.
            self.node.no_route_for_forwarding(dst, &mut self.scratch);
            Decision::Drop(DropReason::NoRoute)
        }
    }

    pub(super) fn flush(&mut self, out: &mut Vec<RouteAction>) {
        out.extend(self.scratch.drain(..).map(|a| match a {
            AodvAction::Send { msg, to, delay_ns } => {
                RouteAction::Send { msg: Control::Aodv(msg), to, delay_ns: 0, jitter_ns: delay_ns }
            }
            AodvAction::RouteFound { dst } => RouteAction::RouteFound { dst, paced: true },
            AodvAction::ReverseRoute { dst } => RouteAction::RouteFound { dst, paced: false },
            AodvAction::Unreachable { dst } => RouteAction::Unreachable { dst },
            AodvAction::Timer { dst, at } => RouteAction::Timer { dst, at },
            AodvAction::PurgeQueue { next_hop } => RouteAction::PurgeQueue { next_hop },
        }));
    }
}

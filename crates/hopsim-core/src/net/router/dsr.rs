//! DSR behind the router interface: its route decision (a source route from the packet or
//! the cache, else a discovery) and its actions in the router's vocabulary.

use super::{Control, Decision, DropReason, DsrRouter, RouteAction};
use crate::engine::time::SimTime;
use crate::ids::NodeId;
use crate::net::dsr::DsrAction;
use crate::net::packet::Packet;

impl DsrRouter {
    /// RFC 4728 8.1 (a source route on the packet, else the cache, else discovery).
    pub(super) fn route(
        &mut self,
        now: SimTime,
        me: NodeId,
        p: &mut Packet,
        own: bool,
    ) -> Decision {
        if let Some((route, at)) = p.route {
            let at = at as usize;
            return match (route.get(at), route.get(at + 1)) {
                (Some(here), Some(next_hop)) if here == me => {
                    Decision::Forward { next_hop, release_older: false }
                }
                _ => Decision::Drop(DropReason::BadSourceRoute),
            };
        }
        if let Some(mut route) = self.node.route_to(p.dst) {
            p.option_bytes = route.option_bytes();
            p.flow_only = false;
            if self.ns2 && own {
                p.ns2_dsr_ip = p.tcp.is_some(); // dsragent.cc `recv`: + IP_HDR_LEN
                                                // ns-2's flow state (net/dsr/flow.rs).
                let send = self.node.flow_send(p.dst, route, now);
                route = send.route;
                p.option_bytes = send.header_bytes;
                p.flow_only = !send.carried;
            }
            p.route = Some((route, 0));
            return match route.get(1) {
                // ns-2 lets new packets overtake the ones its send buffer releases later.
                Some(next_hop) => Decision::Forward { next_hop, release_older: !self.ns2 },
                None => Decision::Drop(DropReason::BadSourceRoute),
            };
        }
        if own {
            self.node.discover(p.dst, now, &mut self.scratch);
            Decision::Hold
        } else {
            Decision::Drop(DropReason::NoRoute)
        }
    }

    pub(super) fn flush(&mut self, out: &mut Vec<RouteAction>) {
        out.extend(self.scratch.drain(..).map(|a| match a {
            DsrAction::Flood { msg, jitter_ns } => RouteAction::Send {
                msg: Control::Dsr(msg),
                to: NodeId::BROADCAST,
                delay_ns: 0,
                jitter_ns,
            },
            DsrAction::Unicast { msg, route } => RouteAction::SendRouted { msg, route },
            DsrAction::RouteFound { dst, reply } => RouteAction::RouteFound { dst, paced: reply },
            DsrAction::Unreachable { dst } => RouteAction::Unreachable { dst },
            DsrAction::DropOldest { dst } => RouteAction::DropOldestWaiting { dst },
            DsrAction::Timer { dst, at } => RouteAction::Timer { dst, at },
        }));
    }
}

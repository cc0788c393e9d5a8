//! ns-2.35's promiscuous tap (dsragent.cc `tap`, on by `dsragent_use_tap`): a node that
//! decodes a packet sent to another node snoops on its source route, and a node that hears a
//! packet it would only get hops later sends the packet's originator a gratuitous Route Reply
//! with the shorter route (`sendRouteShortening`, `dsragent_send_grat_replies`). ns2 profile
//! only.

use super::{Discovery, DsrAction, DsrMsg, DsrNode, SrcRoute};
use crate::engine::time::{SimDuration, SimTime};
use crate::ids::NodeId;
use std::ops::Bound;

/// dsragent.h `RTREP_HOLDOFF_SIZE`: routes remembered for the hold-down.
const GRAT_HOLD_SIZE: usize = 10;
/// dsragent.cc `grat_hold_down_time`: no second gratuitous reply for a route within 1 s.
const GRAT_HOLD_DOWN_NS: SimDuration = 1_000_000_000;

/// dsragent.cc `grat_hold`: the routes gratuitous replies were sent for, a ring with a
/// victim index.
#[derive(Debug, Clone, Default)]
pub(super) struct GratHold {
    routes: [Option<SrcRoute>; GRAT_HOLD_SIZE],
    times: [SimTime; GRAT_HOLD_SIZE],
    victim: usize,
}

impl GratHold {
    /// May a gratuitous reply for `route` go out now? As `sendRouteShortening`: a route
    /// found within the hold-down says no; a new route takes the victim's slot, and the time
    /// is stamped on the slot *after* it (ns-2.35 moves the victim index before taking the
    /// entry's address), so a new route's own entry keeps its slot's old time.
    fn allow(&mut self, route: &SrcRoute, now: SimTime) -> bool {
        let same = |r: &Option<SrcRoute>| r.is_some_and(|r| r.nodes().eq(route.nodes()));
        let slot = match self.routes.iter().position(same) {
            Some(i) => {
                if now.saturating_sub(self.times[i]) < GRAT_HOLD_DOWN_NS {
                    return false;
                }
                i
            }
            None => {
                self.routes[self.victim] = Some(*route);
                self.victim = (self.victim + 1) % GRAT_HOLD_SIZE;
                self.victim
            }
        };
        self.times[slot] = now;
        true
    }
}

/// A packet heard on its way from `from` to the next node of its source route `route`.
#[derive(Debug, Clone, Copy)]
pub struct Overheard<'a> {
    pub route: &'a SrcRoute,
    pub from: NodeId,
    /// The packet's IP source.
    pub src: NodeId,
    /// The DSR message it carries (a control packet), if any.
    pub msg: Option<DsrMsg>,
}

impl DsrNode {
    /// dsragent.cc `tap`: errors heard are applied, replies and source routes snooped
    /// (routecache.cc `pre_noticeRouteUsed`), and a data packet's route shortened when this
    /// node is on it further on.
    pub fn tap(&mut self, heard: Overheard, now: SimTime, out: &mut Vec<DsrAction>) {
        let Overheard { route, from, src, msg } = heard;
        let Some(tx) = route.position(from) else { return };
        let next = tx + 1; // ns-2's `cur_addr` on the air: the intended receiver
                           // "don't trouble me with packets I'm about to receive anyway", nor with my own.
        if route.get(next).is_none_or(|n| n == self.me) || src == self.me {
            return;
        }
        match msg {
            Some(DsrMsg::Rerr { from, to }) => self.remove_link(from, to),
            Some(DsrMsg::Rrep { route: reply }) => self.notice_route_used(&reply, 0),
            Some(DsrMsg::Rreq { .. }) => return,
            None => {}
        }
        self.notice_route_used(route, next);
        if msg.is_some() {
            return; // no route shortening on any DSR packet
        }
        if let Some(at) = route.position(self.me).filter(|&i| i > next) {
            self.send_route_shortening(route, next, at, now, out);
        }
    }

    /// routecache.cc `pre_noticeRouteUsed` with `cache_use_overheard_routes`: on the route,
    /// the part from here on; off it, a link to the transmitter (`index` - 1, `index` the
    /// receiver) and the rest of the route; nothing from a route with index 0 (a request's).
    pub(super) fn notice_route_used(&mut self, route: &SrcRoute, index: usize) {
        if route.len() < 2 {
            return;
        }
        match route.position(self.me) {
            Some(c) if c + 1 == route.len() => {}
            Some(c) => self.learn(route.slice(c, route.len() - 1)),
            None if index == 0 => {}
            None => {
                let mut stub = SrcRoute::new(self.me);
                for n in route.nodes().skip(index - 1) {
                    if stub.push(n).is_none() {
                        break; // `stub.full()`
                    }
                }
                self.learn(stub);
            }
        }
    }

    /// dsragent.cc `sendRouteShortening`: `route` was heard going to position `heard_at`,
    /// but this node is at `xmit_at`; the nodes between can be left out. The originator
    /// (`route[0]`) gets a gratuitous reply with the shorter route, sent back along the part
    /// of the route behind the transmitter, which this node caches.
    fn send_route_shortening(
        &mut self,
        route: &SrcRoute,
        heard_at: usize,
        xmit_at: usize,
        now: SimTime,
        out: &mut Vec<DsrAction>,
    ) {
        if !self.grat.allow(route, now) {
            return;
        }
        let mut back = SrcRoute::new(self.me);
        for n in route.slice(0, heard_at - 1).reversed().nodes() {
            back.push(n);
        }
        let mut short = route.slice(0, heard_at - 1);
        for n in route.nodes().skip(xmit_at) {
            short.push(n);
        }
        self.learn(back);
        out.push(DsrAction::Unicast { msg: DsrMsg::Rrep { route: short }, route: back });
    }

    /// ns2: packets waiting for a route leave at the next send-buffer check after the cache
    /// holds one, whoever taught it (a tapped route, a reply passing by): ns-2 retries its
    /// send buffer from the cache every `BUFFER_CHECK` x (1 + U(0, 1)) (dsragent.cc
    /// `sendBufferCheck` -> `handlePktWithoutSR`; check.rs).
    pub fn release_cached(&mut self, now: SimTime, out: &mut Vec<DsrAction>) {
        if !self.cfg.ns2 {
            return;
        }
        let mut after: Option<NodeId> = None;
        loop {
            let lower = after.map_or(Bound::Unbounded, Bound::Excluded);
            let Some((dst, d)) = self
                .pending
                .range((lower, Bound::Unbounded))
                .find(|(&k, p)| !p.release_check && self.route_to(k).is_some())
                .map(|(&k, &p)| (k, p))
            else {
                return;
            };
            after = Some(dst);
            let at = self.checks.first_after(now, now);
            if at < d.deadline {
                // Its own timer would come later: the check comes first.
                let check =
                    Discovery { release_check: true, resume_ns: d.deadline, deadline: at, ..d };
                self.pending.insert(dst, check);
                out.push(DsrAction::Timer { dst, at });
            }
        }
    }
}

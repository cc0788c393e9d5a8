//! DSR (RFC 4728; ns-2's implementation where the RFC leaves choices): route discovery by a
//! flooded Route Request that accumulates the route, a Route Reply carrying it back, source
//! routes in every packet header, a path cache (replies from the cache included), and Route
//! Errors on link-layer failure that remove the broken link from the caches on their way to the
//! packet's source. No packet salvaging, no gratuitous replies (documented in docs/models.md).
//!
//! With `DsrConfig::ns2` (the ns2 profile) it follows ns-2.35's dsragent.cc where that differs:
//! routes are learned only forward (a forwarder caches the part of a route ahead of it, the
//! target the reversed request record, the requester the reply; nothing from requests passing
//! by or from data at its destination), a dead link is removed in one direction, the target
//! answers every copy of a request, and discovery runs in ns-2's cycles: a non-propagating
//! ("ring zero") request, a propagating one at the first send-buffer check `arp_timeout`
//! on, new cycles after min(0.5 s x 4^n, 10 s) while packets wait for the destination, the
//! backoff kept until a reply for it (cycle.rs, check.rs, backoff.rs); a forwarder keeping
//! packets it could not salvage asks its neighbours once, then drops one packet per backoff
//! period (salvage.rs). The path cache is cache.rs. Salvaging itself and the queue purge are the node's (node/salvage.rs).
//! Also ns-2's: the promiscuous tap and gratuitous replies (tap.rs), the flow state of a
//! node's own packets (flow.rs) and gratuitous Route Errors riding on requests.
//!
//! Pure protocol logic, like `aodv`: the world carries out the actions.

use crate::engine::rng::{Purpose, Rng};
use crate::engine::time::{SimDuration, SimTime};
use crate::ids::NodeId;
use std::collections::{BTreeMap, VecDeque};

mod backoff;
mod cache;
mod check;
mod cycle;
mod flow;
mod route;
mod salvage;
mod tap;
pub use flow::FlowSend;
pub use route::{SrcRoute, MAX_HOPS};
pub use tap::Overheard;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DsrMsg {
    /// Route Request: `record` holds the nodes it passed, starting at the originator.
    /// ns2: `err`, the link of the last Route Error for this node, piggybacked (a
    /// gratuitous Route Error, dsragent.cc `dsragent_propagate_last_error`).
    Rreq { id: u32, target: NodeId, record: SrcRoute, ttl: u8, err: Option<(NodeId, NodeId)> },
    /// Route Reply: `route` from the requester to the target.
    Rrep { route: SrcRoute },
    /// Route Error: the link `from` -> `to` broke.
    Rerr { from: NodeId, to: NodeId },
}

impl DsrMsg {
    /// Bytes of the DSR header with this option (fixed part 4 B, RFC 4728 section 6).
    pub fn bytes(&self) -> u32 {
        match self {
            DsrMsg::Rreq { record, err, .. } => {
                4 + 8 + 4 * record.len() as u32 + if err.is_some() { 16 } else { 0 }
            }
            DsrMsg::Rrep { route } => 4 + 3 + 4 * route.len() as u32,
            DsrMsg::Rerr { .. } => 4 + 16,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DsrAction {
    /// Broadcast a Route Request after a random jitter up to `jitter_ns`.
    Flood {
        msg: DsrMsg,
        jitter_ns: SimDuration,
    },
    /// Send a reply or error along `route` (which starts at this node).
    Unicast {
        msg: DsrMsg,
        route: SrcRoute,
    },
    /// A route to `dst` is cached: release the packets waiting for it. `reply`: a reply to
    /// this node's own request brought it (ns-2 `acceptRouteReply` sends them spaced, each
    /// with its route at once); else they go as ns-2's `sendBufferCheck` sends them.
    RouteFound {
        dst: NodeId,
        reply: bool,
    },
    Unreachable {
        dst: NodeId,
    },
    /// ns2: drop the packet for `dst` this node forwards that has waited longest
    /// (salvage.rs).
    DropOldest {
        dst: NodeId,
    },
    Timer {
        dst: NodeId,
        at: SimTime,
    },
}

#[derive(Debug, Clone, Copy)]
pub struct DsrConfig {
    /// First wait for a reply; doubled per retry up to `max_backoff_ns` (ns-2 dsragent).
    pub initial_backoff_ns: SimDuration,
    pub max_backoff_ns: SimDuration,
    pub max_requests: u32,
    pub cache_paths: usize,
    pub jitter_ns: SimDuration,
    /// Follow ns-2.35's dsragent.cc (see the module docs).
    pub ns2: bool,
    /// The run's master seed (ns2: each node's send-buffer checks, check.rs).
    pub seed: u64,
}

/// ns-2 dsragent.cc `arp_timeout`: the wait after a ring-zero request (also the spacing of
/// packets released from the send buffer).
pub const NS2_ARP_TIMEOUT_NS: SimDuration = 30_000_000;
/// dsragent.cc `max_err_hold`: a held Route Error rides on requests for 1 s.
const NS2_MAX_ERR_HOLD_NS: SimDuration = 1_000_000_000;

impl Default for DsrConfig {
    fn default() -> Self {
        DsrConfig {
            initial_backoff_ns: 500_000_000, // ns-2 rt_rq_period 0.5 s
            max_backoff_ns: 10_000_000_000,  // ns-2 rt_rq_max_period 10 s
            max_requests: 16,                // ns-2 MAX_REQUEST_REXMT... stops after this many
            cache_paths: 64,
            jitter_ns: 10_000_000,
            ns2: false,
            seed: 0,
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Discovery {
    backoff_ns: SimDuration,
    requests: u32,
    deadline: SimTime,
    /// ns2: the cycle's ring-zero request went out at `arp_ns`; the propagating one follows
    /// at the first check more than `arp_timeout` later (cycle.rs).
    ring_zero: bool,
    arp_ns: SimTime,
    /// ns2: whether it salvages (ring zero only).
    salvage: bool,
    /// ns2: `deadline` is the send-buffer check that releases the packets on a route the
    /// cache learned (tap.rs `release_cached`); `resume_ns`: the discovery's own time.
    release_check: bool,
    resume_ns: SimTime,
}

#[derive(Debug, Clone)]
pub struct DsrNode {
    me: NodeId,
    cfg: DsrConfig,
    next_id: u32,
    /// Path cache: routes starting at this node, most recent last.
    cache: VecDeque<SrcRoute>,
    seen: VecDeque<(NodeId, u32)>,
    pending: BTreeMap<NodeId, Discovery>,
    /// ns2: the gratuitous replies' hold-down (tap.rs).
    grat: Box<tap::GratHold>,
    /// ns2: the flow state of this node's own packets (flow.rs).
    flows: flow::FlowTable,
    /// ns2: the last Route Error addressed here and when (dsragent.cc `route_error_held`).
    held_error: Option<(NodeId, NodeId, SimTime)>,
    /// ns2: the request cycles per destination (backoff.rs).
    backoff: backoff::RequestBackoff,
    /// ns2: the instants of the send-buffer check (check.rs).
    checks: check::CheckClock,
}

const SEEN_KEPT: usize = 256;

impl DsrNode {
    pub fn new(me: NodeId, cfg: DsrConfig) -> DsrNode {
        DsrNode {
            me,
            cfg,
            next_id: 0,
            cache: VecDeque::new(),
            seen: VecDeque::new(),
            pending: BTreeMap::new(),
            grat: Box::default(),
            flows: flow::FlowTable::default(),
            held_error: None,
            backoff: backoff::RequestBackoff::default(),
            checks: check::CheckClock::new(Rng::derive(
                cfg.seed,
                Purpose::DsrBufferCheck,
                u64::from(me.0),
            )),
        }
    }

    /// A packet of this node's own for `dst` found no route: start a discovery unless one is
    /// under way (ns2: the packet runs `getRouteForPacket` either way, cycle.rs).
    pub fn discover(&mut self, dst: NodeId, now: SimTime, out: &mut Vec<DsrAction>) {
        if let Some(&d) = self.pending.get(&dst) {
            if self.cfg.ns2 && !d.salvage && !d.release_check {
                self.ns2_get_route(dst, d, now, out);
            }
            return;
        }
        let d = Discovery {
            backoff_ns: self.cfg.initial_backoff_ns,
            requests: 0,
            deadline: 0,
            ring_zero: false,
            arp_ns: 0,
            salvage: false,
            release_check: false,
            resume_ns: 0,
        };
        if self.cfg.ns2 {
            self.ns2_get_route(dst, d, now, out);
        } else {
            self.request(dst, d, now, out);
        }
    }

    fn send_rreq(&mut self, dst: NodeId, ttl: u8, now: SimTime, out: &mut Vec<DsrAction>) {
        self.next_id = self.next_id.wrapping_add(1);
        self.remember(self.me, self.next_id);
        // ns-2 `sendOutRtReq`: a Route Error received less than `max_err_hold` ago rides on
        // the request; a propagating request uses it up.
        let err = match self.held_error {
            Some((a, b, t)) if now.saturating_sub(t) < NS2_MAX_ERR_HOLD_NS => {
                if ttl > 1 {
                    self.held_error = None;
                }
                Some((a, b))
            }
            _ => None,
        };
        let (id, record) = (self.next_id, SrcRoute::new(self.me));
        let msg = DsrMsg::Rreq { id, target: dst, record, ttl, err };
        // ns-2 jitters every request, the originator's too (RREQ_JITTER).
        let jitter_ns = if self.cfg.ns2 { self.cfg.jitter_ns } else { 0 };
        out.push(DsrAction::Flood { msg, jitter_ns });
    }

    fn request(&mut self, dst: NodeId, mut d: Discovery, now: SimTime, out: &mut Vec<DsrAction>) {
        d.requests += 1;
        d.deadline = now + d.backoff_ns;
        self.pending.insert(dst, d);
        self.send_rreq(dst, 255, now, out);
        out.push(DsrAction::Timer { dst, at: d.deadline });
    }

    /// A discovery timer for `dst` fired; `waiting`: packets still wait for it here.
    pub fn on_timer(&mut self, dst: NodeId, now: SimTime, waiting: bool, out: &mut Vec<DsrAction>) {
        let Some(d) = self.pending.get(&dst).copied() else { return };
        if d.deadline != now {
            return;
        }
        self.pending.remove(&dst);
        if self.route_to(dst).is_some() {
            out.push(DsrAction::RouteFound { dst, reply: false });
        } else if d.release_check {
            // The route went again before the check: the discovery goes on at its own time.
            let d = Discovery { release_check: false, deadline: d.resume_ns, ..d };
            if d.resume_ns > now {
                self.pending.insert(dst, d);
                out.push(DsrAction::Timer { dst, at: d.resume_ns });
            } else {
                self.ns2_on_timer(dst, d, now, waiting, out);
            }
        } else if self.cfg.ns2 {
            self.ns2_on_timer(dst, d, now, waiting, out);
        } else if d.requests < self.cfg.max_requests {
            let backoff = (2 * d.backoff_ns).min(self.cfg.max_backoff_ns);
            self.request(dst, Discovery { backoff_ns: backoff, ..d }, now, out);
        } else {
            out.push(DsrAction::Unreachable { dst });
        }
    }

    fn remember(&mut self, orig: NodeId, id: u32) {
        if self.seen.len() >= SEEN_KEPT {
            self.seen.pop_front();
        }
        self.seen.push_back((orig, id));
    }

    /// A broadcast Route Request arrived.
    pub fn receive_request(&mut self, msg: DsrMsg, out: &mut Vec<DsrAction>) {
        let DsrMsg::Rreq { id, target, record, ttl, err } = msg else { return };
        // ns-2 `recv` (`dsragent_snoop_forwarded_errors`): every copy's error is applied.
        if let Some((a, b)) = err.filter(|_| self.cfg.ns2) {
            self.remove_link(a, b);
        }
        let orig = record.get(0).expect("record starts at the originator");
        // ns-2: the target answers every copy (dsragent_reply_only_to_first_rtreq false).
        let answer_all = self.cfg.ns2 && target == self.me;
        if orig == self.me
            || record.position(self.me).is_some()
            || (self.seen.contains(&(orig, id)) && !answer_all)
        {
            return; // own request, a loop, or a duplicate (RFC 4728 3.3.2)
        }
        self.remember(orig, id);
        let mut with_me = record;
        if with_me.push(self.me).is_none() {
            return; // longer than a source route may be
        }
        // ns-2 learns nothing from a request passing by; its target keeps the way back.
        if !self.cfg.ns2 || target == self.me {
            self.learn(with_me.reversed());
        }
        if target == self.me {
            out.push(DsrAction::Unicast {
                msg: DsrMsg::Rrep { route: with_me },
                route: with_me.reversed(),
            });
            return;
        }
        // Reply from the cache (RFC 4728 3.3.2) if the joined route stays loop-free and short.
        if let Some(rest) = self.route_to(target) {
            let mut full = with_me;
            let fits =
                rest.nodes().skip(1).all(|n| full.position(n).is_none() && full.push(n).is_some());
            if fits {
                if self.cfg.ns2 {
                    self.learn(with_me.reversed()); // replyFromRouteCache keeps the way back
                }
                out.push(DsrAction::Unicast {
                    msg: DsrMsg::Rrep { route: full },
                    route: with_me.reversed(),
                });
                return;
            }
        }
        if ttl > 1 {
            let msg = DsrMsg::Rreq { id, target, record: with_me, ttl: ttl - 1, err };
            out.push(DsrAction::Flood { msg, jitter_ns: self.cfg.jitter_ns });
        }
    }

    /// A reply or error is at this node on its way (`arrived`: this node is its destination).
    pub fn receive_in_transit(&mut self, msg: DsrMsg, arrived: bool, out: &mut Vec<DsrAction>) {
        match msg {
            DsrMsg::Rrep { route } => {
                let requester = route.get(0).expect("route");
                if self.cfg.ns2 && arrived && requester == self.me {
                    self.learn(route); // acceptRouteReply
                } else if !self.cfg.ns2 || arrived {
                    // ns2: a forwarder learns the packet's source route instead, not the
                    // reply it carries (`handleForwarding`; Router::on_arrival).
                    self.learn_from(&route);
                }
                if arrived && requester == self.me {
                    let target = route.last();
                    self.backoff.reset(target); // acceptRouteReply
                    if self.pending.remove(&target).is_some() {
                        out.push(DsrAction::RouteFound { dst: target, reply: true });
                    }
                    // Any other destination on the route is reachable now as well.
                    for n in route.nodes().skip(1) {
                        if n != target && self.pending.remove(&n).is_some() {
                            out.push(DsrAction::RouteFound { dst: n, reply: true });
                        }
                    }
                }
            }
            DsrMsg::Rerr { from, to } => self.remove_link(from, to),
            DsrMsg::Rreq { .. } => {}
        }
    }

    /// ns2: a Route Error for the link `a -> b` reached this node, its destination
    /// (dsragent.cc `processBrokenRouteError` sets `route_error_held`).
    pub fn hold_error(&mut self, a: NodeId, b: NodeId, now: SimTime) {
        if self.cfg.ns2 {
            self.held_error = Some((a, b, now));
        }
    }

    /// The MAC of this node gave up on `next_hop` while forwarding a packet that came along
    /// `route` (position of this node: `at`): drop the link, report it to the source.
    pub fn link_failed(
        &mut self,
        next_hop: NodeId,
        route: Option<(&SrcRoute, usize)>,
        out: &mut Vec<DsrAction>,
    ) {
        self.remove_link(self.me, next_hop);
        if let Some((route, at)) = route {
            if at > 0 {
                let back = route.slice(0, at).reversed();
                out.push(DsrAction::Unicast {
                    msg: DsrMsg::Rerr { from: self.me, to: next_hop },
                    route: back,
                });
            }
        }
    }

    pub fn cached_routes(&self) -> usize {
        self.cache.len()
    }
}

#[cfg(test)]
mod tests;

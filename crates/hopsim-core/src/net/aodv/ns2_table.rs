//! ns-2.35's AODV route table over time (`AodvConfig::ns2`): lifetimes as `recvRequest`,
//! `recvReply`, `sendReply` and `forward` set them, expiry on `rt_purge`'s 0.5 s tick, and the
//! local repair's `LocalRepairTimer`. Sources: ns-2.35 aodv/aodv.cc, aodv.h.

use super::*;
use crate::ids::NodeId;

/// One second in ns: ns-2 carries an intermediate reply's lifetime in whole seconds.
pub(super) const SECOND_NS: SimDuration = 1_000_000_000;
/// ns-2 aodv.h REV_ROUTE_LIFE: a reverse route made by a request lives at least 6 s.
const NS2_REV_ROUTE_LIFE_NS: SimDuration = 6 * SECOND_NS;
/// ns-2 aodv.cc RouteCacheTimer (FREQUENCY): `rt_purge`, which also re-sends requests for
/// buffered packets, runs every 0.5 s.
const NS2_PURGE_TICK_NS: SimDuration = 500_000_000;
/// ns-2 aodv.h INFINITY2: the hop count of a route that is down.
const NS2_INFINITY2: u8 = u8::MAX;

/// The last `rt_purge` tick at or before `t` (the timer runs from time 0).
fn last_tick(t: SimTime) -> SimTime {
    t / NS2_PURGE_TICK_NS * NS2_PURGE_TICK_NS
}

/// The first `rt_purge` tick at or after `t`.
pub(super) fn purge_tick(t: SimTime) -> SimTime {
    t.div_ceil(NS2_PURGE_TICK_NS) * NS2_PURGE_TICK_NS
}

/// Is a route that is up and expires at `expires_ns` still up at `now`? ns-2 takes an up
/// route down only on the purge tick that finds it expired (`rt_purge`), and uses it until
/// then (`rt_resolve`).
pub(super) fn up_at(expires_ns: SimTime, now: SimTime) -> bool {
    expires_ns >= last_tick(now)
}

/// ns-2's hop count of a route: kept while it is up or in repair, INFINITY2 once down.
fn ns2_hops(r: &Route) -> u8 {
    if r.valid || r.repairing {
        r.hops
    } else {
        NS2_INFINITY2
    }
}

impl AodvNode {
    /// ns-2 `rt_purge`, every tick since the last call at once (nothing looked at the table
    /// in between, so the result is the same): an up route whose expiry passed before the
    /// tick goes down, one sequence number higher, with no RERR (aodv.cc 512-526). Packets
    /// waiting for an up route (dropped there) do not occur here: a found route releases
    /// them at once.
    pub(super) fn ns2_purge(&mut self, now: SimTime) {
        if !self.cfg.ns2 || now < self.ns2_next_purge_ns {
            return;
        }
        let tick = last_tick(now);
        // Any order: each route changes on its own.
        for r in self.routes.values_mut() {
            if r.valid && !up_at(r.expires_ns, tick) {
                r.valid = false;
                r.seq = r.seq.wrapping_add(1);
                r.last_hop_count = r.hops; // rt_down
            }
        }
        self.ns2_next_purge_ns = tick + NS2_PURGE_TICK_NS;
    }

    /// ns-2 `rt_resolve`/`forward`: the next hop of an up route, whose expiry `forward` sets
    /// to now + ACTIVE_ROUTE_TIMEOUT (aodv.cc 1024).
    pub(super) fn ns2_next_hop(&mut self, dst: NodeId, now: SimTime) -> Option<NodeId> {
        self.ns2_purge(now);
        let timeout = self.cfg.active_route_timeout_ns;
        let r = self.routes.get_mut(&dst).filter(|r| r.valid)?;
        r.expires_ns = now + timeout;
        Some(r.next_hop)
    }

    /// ns-2 `recvRequest`'s reverse route to the request's originator `orig`, heard from
    /// `from` at `hops` (aodv.cc 697-734): its expiry becomes at least now + REV_ROUTE_LIFE
    /// whatever else happens; it is replaced when the request's number is newer, or equal
    /// with fewer hops. A replaced route ends a discovery this node had under way for
    /// `orig` (request state reset, expiry now + ACTIVE_ROUTE_TIMEOUT), and packets waiting
    /// here for `orig` go.
    pub(super) fn ns2_reverse_route(
        &mut self,
        orig: NodeId,
        from: NodeId,
        hops: u8,
        orig_seq: u32,
        now: SimTime,
        out: &mut Vec<AodvAction>,
    ) {
        let floor = now + NS2_REV_ROUTE_LIFE_NS;
        let r = self.routes.entry(orig).or_insert_with(|| Route {
            next_hop: from,
            hops: NS2_INFINITY2,
            seq: 0, // rt_add: a new entry is down, number 0
            valid_seq: true,
            valid: false,
            repairing: false,
            last_hop_count: u8::MAX,
            expires_ns: 0,
            precursors: Vec::new(),
        });
        r.expires_ns = r.expires_ns.max(floor);
        let replace = newer(orig_seq, r.seq) || (orig_seq == r.seq && hops < ns2_hops(r));
        if !replace {
            return;
        }
        r.next_hop = from;
        r.hops = hops;
        r.seq = orig_seq;
        r.valid_seq = true;
        r.valid = true;
        r.repairing = false;
        if self.pending.remove(&orig).is_some() {
            r.expires_ns = now + self.cfg.active_route_timeout_ns;
            self.ns2_dst.entry(orig).or_default().last_ttl = hops;
        }
        out.push(AodvAction::ReverseRoute { dst: orig });
    }

    /// ns-2 `local_rt_repair` schedules its LocalRepairTimer with `rt_req_timeout`, which
    /// `sendRequest` has just made an absolute time, as the delay (aodv.cc 399): the timer
    /// fires at now + that time, about twice the current time.
    pub(super) fn ns2_arm_repair_timer(
        &mut self,
        dst: NodeId,
        now: SimTime,
        out: &mut Vec<AodvAction>,
    ) {
        let Some(d) = self.pending.get(&dst) else { return };
        let at = now.saturating_add(d.deadline);
        self.ns2_dst.entry(dst).or_default().repair_timers.push(at);
        out.push(AodvAction::Timer { dst, at });
    }

    /// A LocalRepairTimer of `dst` due at `now`? Then `LocalRepairTimer::handle`: a route
    /// still not up goes down (`rt_down`: a route in repair gets an infinite hop count, so
    /// any reply with its number is taken and packets for it from upstream are dropped with
    /// a RERR); the packets waiting here stay. True if one was due.
    pub(super) fn ns2_repair_timer_fired(&mut self, dst: NodeId, now: SimTime) -> bool {
        let Some(hist) = self.ns2_dst.get_mut(&dst) else { return false };
        let before = hist.repair_timers.len();
        hist.repair_timers.retain(|&at| at != now);
        if hist.repair_timers.len() == before {
            return false;
        }
        if let Some(r) = self.routes.get_mut(&dst) {
            if r.repairing {
                r.repairing = false;
                r.last_hop_count = r.hops;
            }
        }
        true
    }
}

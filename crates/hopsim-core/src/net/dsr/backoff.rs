//! ns-2's route-request backoff (dsragent.cc `BackOffTest`; requesttable.cc): per
//! destination, the request cycles begun (`rt_reqs_outstanding`, at most 15) and when the
//! last began (`last_rt_req`). A new cycle may begin min(`rt_rq_period` x 4^n,
//! `rt_rq_max_period`) after the last one, n the cycles so far; the first at once. The
//! counts outlive a discovery that ends without an answer (the request table keeps them:
//! 128 entries, more than the nodes of any ns-2 study) and are cleared only by a Route Reply
//! for that destination (`acceptRouteReply`).

use crate::engine::time::{SimDuration, SimTime};
use crate::ids::NodeId;
use std::collections::BTreeMap;

/// dsragent.cc `rt_rq_period`, `rt_rq_max_period`.
const PERIOD_NS: SimDuration = 500_000_000;
const MAX_PERIOD_NS: SimDuration = 10_000_000_000;
/// dsragent.cc `BackOffTest`: the count stops at 15 (the shift would overflow).
const MAX_OUTSTANDING: u32 = 15;

#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    outstanding: u32,
    last_ns: Option<SimTime>,
}

#[derive(Debug, Clone, Default)]
pub(super) struct RequestBackoff {
    table: BTreeMap<NodeId, Entry>,
}

impl RequestBackoff {
    /// The gap after `n` cycles: 0.5 s x 4^n, at most 10 s.
    fn gap_ns(n: u32) -> SimDuration {
        PERIOD_NS.saturating_mul(1u64 << (2 * n.min(MAX_OUTSTANDING))).min(MAX_PERIOD_NS)
    }

    /// When the next cycle for `dst` may begin (`now` or earlier: at once).
    pub fn next_ns(&self, dst: NodeId) -> SimTime {
        match self.table.get(&dst) {
            Some(&Entry { outstanding, last_ns: Some(t) }) => t + Self::gap_ns(outstanding),
            _ => 0,
        }
    }

    /// `BackOffTest`: true (and the cycle counted) if one may begin at `now`.
    pub fn try_begin(&mut self, dst: NodeId, now: SimTime) -> bool {
        if self.next_ns(dst) > now {
            return false;
        }
        let e = self.table.entry(dst).or_default();
        e.outstanding = (e.outstanding + 1).min(MAX_OUTSTANDING);
        e.last_ns = Some(now);
        true
    }

    /// The cycles begun for `dst` since its last reply (`rt_reqs_outstanding`).
    pub fn outstanding(&self, dst: NodeId) -> u32 {
        self.table.get(&dst).map_or(0, |e| e.outstanding)
    }

    /// `acceptRouteReply`: a reply for `dst` clears its counts.
    pub fn reset(&mut self, dst: NodeId) {
        self.table.remove(&dst);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{DsrAction, DsrConfig, DsrMsg, DsrNode, SrcRoute};
    use super::*;

    const S: u64 = 1_000_000_000;

    #[test]
    fn cycles_are_spaced_half_a_second_times_four_to_the_n_up_to_ten() {
        let mut b = RequestBackoff::default();
        let d = NodeId(9);
        assert!(b.try_begin(d, 0), "the first at once");
        assert!(!b.try_begin(d, 2 * S - 1));
        assert!(b.try_begin(d, 2 * S), "then 0.5 x 4 = 2 s");
        assert_eq!(b.next_ns(d), 10 * S, "then 0.5 x 16 = 8 s");
        assert!(b.try_begin(d, 10 * S));
        assert_eq!(b.next_ns(d), 20 * S, "then the 10 s cap");
        for k in 2..30 {
            assert!(b.try_begin(d, 10 * k * S), "every 10 s");
        }
        b.reset(d);
        assert!(b.try_begin(d, 300 * S + 1) && !b.try_begin(d, 301 * S), "a reply starts over");
        assert!(b.try_begin(NodeId(3), 301 * S), "each destination its own");
    }

    // dsragent.cc `BackOffTest` and the request table: requests go out only for waiting packets,
    // and the cycle count outlives a discovery that ended unanswered, until a reply
    // (c(t): the node's first send-buffer check after t, check.rs).
    //   0 ring zero, c(30 ms) propagating; c(2 s): nothing waits: no request, the end
    //   3 s a packet: cycle 2 at once (2 s had passed), c(3.03 s) propagating; next 3 + 8 s
    //   12 s a packet: cycle 3 at once; c(12.03 s) nothing waits: no propagating; next 22 s
    //   15 s a packet: held until c(22 s), then cycle 4; a reply clears the count: 23 s at once
    #[test]
    fn ns2_request_backoff_outlives_an_unanswered_discovery_until_a_reply() {
        use super::super::check::{after, checks_of};
        const MS: u64 = 1_000_000;
        let c = checks_of(0, 0, 30_000 * MS);
        let c = |t: u64| after(&c, t);
        let d = NodeId(9);
        let mut n = DsrNode::new(NodeId(0), DsrConfig { ns2: true, ..DsrConfig::default() });
        let mut out = vec![];
        let mut sent = vec![];
        let mut step = |out: &mut Vec<DsrAction>, at: u64| {
            let mut timer = None;
            for a in out.drain(..) {
                match a {
                    DsrAction::Flood { msg: DsrMsg::Rreq { ttl, .. }, .. } => sent.push((at, ttl)),
                    DsrAction::Timer { at: t, .. } => timer = Some(t),
                    _ => {}
                }
            }
            timer
        };
        n.discover(d, 0, &mut out);
        assert_eq!(step(&mut out, 0), Some(c(30 * MS)));
        n.on_timer(d, c(30 * MS), true, &mut out);
        assert_eq!(step(&mut out, c(30 * MS)), Some(c(2000 * MS - 1)));
        n.on_timer(d, c(2000 * MS - 1), false, &mut out);
        assert_eq!(step(&mut out, c(2000 * MS)), None, "nothing waits: the discovery ends");
        n.discover(d, 3000 * MS, &mut out);
        assert_eq!(step(&mut out, 3000 * MS), Some(c(3030 * MS)));
        n.on_timer(d, c(3030 * MS), true, &mut out);
        let next = step(&mut out, c(3030 * MS));
        assert_eq!(next, Some(c(11_000 * MS - 1)), "4^2 x 0.5 s after 3 s");
        n.on_timer(d, c(11_000 * MS - 1), false, &mut out);
        n.discover(d, 12_000 * MS, &mut out);
        assert_eq!(step(&mut out, 12_000 * MS), Some(c(12_030 * MS)));
        n.on_timer(d, c(12_030 * MS), false, &mut out);
        assert_eq!(step(&mut out, c(12_030 * MS)), None);
        n.discover(d, 15_000 * MS, &mut out);
        let held = c(22_000 * MS - 1);
        assert_eq!(step(&mut out, 15_000 * MS), Some(held), "held: 10 s after 12 s");
        n.on_timer(d, held, true, &mut out);
        step(&mut out, held);
        let reply = DsrMsg::Rrep {
            route: SrcRoute::from_slice(&[NodeId(0), NodeId(5), NodeId(9)]).unwrap(),
        };
        n.receive_in_transit(reply, true, &mut out);
        assert_eq!(out, vec![DsrAction::RouteFound { dst: d, reply: true }]);
        out.clear();
        n.remove_link(NodeId(5), NodeId(9));
        n.discover(d, 23_000 * MS, &mut out);
        step(&mut out, 23_000 * MS);
        assert_eq!(
            sent,
            [
                (0, 1),
                (c(30 * MS), 255),
                (3000 * MS, 1),
                (c(3030 * MS), 255),
                (12_000 * MS, 1),
                (held, 1),
                (23_000 * MS, 1)
            ]
        );
    }
}

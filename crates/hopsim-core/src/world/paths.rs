//! The routes a flow's data took, with the share of the measurement window each was in use:
//! why a flow of a MANET got nothing shows as "no route" or a long detour.
//!
//! Each data packet the source hands to the network layer samples the route it will take: the
//! fixed path (static, ETX), the source route in the source's cache (DSR), or the chain of
//! valid next hops from the source (AODV). A route holds from its sample until the next one;
//! the time it held inside [warmup, end) is its share. Sampling reads the routing tables and
//! changes nothing, so results are the same with or without it. A share is time, not
//! delivery: a route the source keeps using while its packets are lost (a stale DSR cache
//! entry, TCP waiting out a retransmission timeout) holds its share all the same.

use super::World;
use crate::engine::time::SimTime;
use crate::ids::{FlowId, NodeId};
use crate::net::router::RouteView;

/// One route and the time it was in use (an empty route: none reached the destination).
#[derive(Debug, Clone, PartialEq)]
struct Held {
    nodes: Vec<NodeId>,
    time_ns: SimTime,
}

/// Per flow: the route in use and the time each route held.
#[derive(Clone, Debug, Default)]
pub(crate) struct PathLog {
    current: Vec<NodeId>,
    since_ns: Option<SimTime>,
    held: Vec<Held>,
    scratch: Vec<NodeId>,
    /// Times the route in use changed (the first route is not a change), and when a
    /// complete route was first sampled.
    changes: u64,
    first_route_ns: Option<SimTime>,
}

impl PathLog {
    /// The route in use from `now` is in `self.scratch`.
    fn switch(&mut self, now: SimTime, window: (SimTime, SimTime)) {
        if self.since_ns.is_some() && self.scratch == self.current {
            return;
        }
        self.close(now, window);
        self.changes += u64::from(self.since_ns.is_some());
        if !self.scratch.is_empty() && self.first_route_ns.is_none() {
            self.first_route_ns = Some(now);
        }
        std::mem::swap(&mut self.current, &mut self.scratch);
        self.since_ns = Some(now);
    }

    /// Credit the current route with its time inside `window` up to `now`.
    fn close(&mut self, now: SimTime, (from, to): (SimTime, SimTime)) {
        let Some(since) = self.since_ns else { return };
        let held_ns = now.min(to).saturating_sub(since.max(from));
        if held_ns == 0 {
            return;
        }
        match self.held.iter_mut().find(|h| h.nodes == self.current) {
            Some(h) => h.time_ns += held_ns,
            None => self.held.push(Held { nodes: self.current.clone(), time_ns: held_ns }),
        }
    }

    /// Every route with its share of the time sampled, the largest first (ties: the route
    /// seen first); empty when the flow sent nothing in the window.
    pub fn shares(&self, end_ns: SimTime, window: (SimTime, SimTime)) -> Vec<(Vec<NodeId>, f64)> {
        let mut held = self.held.clone();
        if let Some(since) = self.since_ns {
            let held_ns = end_ns.min(window.1).saturating_sub(since.max(window.0));
            if held_ns > 0 {
                match held.iter_mut().find(|h| h.nodes == self.current) {
                    Some(h) => h.time_ns += held_ns,
                    None => held.push(Held { nodes: self.current.clone(), time_ns: held_ns }),
                }
            }
        }
        let total_ns: SimTime = held.iter().map(|h| h.time_ns).sum();
        if total_ns == 0 {
            return Vec::new();
        }
        let mut order: Vec<usize> = (0..held.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(held[i].time_ns)); // stable: first seen wins
        order
            .into_iter()
            .map(|i| (held[i].nodes.clone(), held[i].time_ns as f64 / total_ns as f64))
            .collect()
    }
}

impl World {
    /// The source of `flow` sends a data packet at `now`: sample the route it will take.
    pub(super) fn note_route(&mut self, now: SimTime, flow: FlowId) {
        let (src, dst) = (self.cx.flows[flow.index()].src, self.cx.flows[flow.index()].dst);
        let mut nodes = std::mem::take(&mut self.path_logs[flow.index()].scratch);
        self.current_route(now, src, dst, &mut nodes);
        let window = (self.cx.cfg.warmup_ns, self.cx.cfg.end_ns);
        let log = &mut self.path_logs[flow.index()];
        log.scratch = nodes;
        log.switch(now, window);
    }

    /// Times the route of `flow`'s data changed, as its source sampled it.
    pub(crate) fn route_changes(&self, flow: FlowId) -> u64 {
        self.path_logs[flow.index()].changes
    }

    /// When `flow`'s source first held a complete route as it sent.
    pub(crate) fn first_route_ns(&self, flow: FlowId) -> Option<SimTime> {
        self.path_logs[flow.index()].first_route_ns
    }

    /// The route from `src` to `dst` as a packet sent now would find it in the routing
    /// tables, into `out` (left empty when no complete route exists; `[src]` to itself).
    pub(crate) fn current_route(
        &self,
        now: SimTime,
        src: NodeId,
        dst: NodeId,
        out: &mut Vec<NodeId>,
    ) {
        out.clear();
        if src == dst {
            out.push(src); // delivered where it is, whatever the protocol
            return;
        }
        let view = |node: NodeId, out: &mut Vec<NodeId>| {
            self.nodes[node.index()].router.view(now, node, dst, &self.cx.routes, out)
        };
        match view(src, out) {
            RouteView::Whole => return,
            RouteView::None => return,
            RouteView::NextHop(_) => {}
        }
        // Follow the next hops (AODV); a loop or a broken chain is no route (at most one
        // visit per node).
        out.push(src);
        let mut node = src;
        while node != dst {
            match view(node, out) {
                RouteView::NextHop(next)
                    if out.len() < self.nodes.len() && !out.contains(&next) =>
                {
                    out.push(next);
                    node = next;
                }
                _ => {
                    out.clear();
                    return;
                }
            }
        }
    }

    /// The routes of `flow` with their time shares (see the module docs).
    pub(crate) fn route_shares(&self, flow: FlowId) -> Vec<(Vec<NodeId>, f64)> {
        self.path_logs[flow.index()].shares(self.now(), (self.cx.cfg.warmup_ns, self.cx.cfg.end_ns))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::node_ids;

    fn log_of(samples: &[(SimTime, &[u32])], window: (SimTime, SimTime)) -> PathLog {
        let mut log = PathLog::default();
        for (t, nodes) in samples {
            log.scratch.clear();
            log.scratch.extend(nodes.iter().map(|&n| NodeId(n)));
            log.switch(*t, window);
        }
        log
    }

    #[test]
    fn shares_are_time_held_inside_the_window() {
        // 0..10 s window [2, 10): route A from 0 s, none from 4 s, B from 5 s, A from 9 s.
        let s = 1_000_000_000;
        let a: &[u32] = &[0, 1, 2];
        let b: &[u32] = &[0, 3, 2];
        let log = log_of(&[(0, a), (4 * s, &[]), (5 * s, b), (9 * s, a)], (2 * s, 10 * s));
        let shares = log.shares(10 * s, (2 * s, 10 * s));
        // A: 2..4 and 9..10 = 3 s; none: 1 s; B: 4 s; of 8 s.
        assert_eq!(shares, vec![(node_ids(b), 0.5), (node_ids(a), 0.375), (vec![], 0.125)]);
    }

    #[test]
    fn repeated_samples_of_one_route_are_one_interval() {
        let a: &[u32] = &[4, 5];
        let log = log_of(&[(1, a), (2, a), (3, a)], (0, 10));
        assert_eq!(log.held, vec![]);
        assert_eq!(log.shares(10, (0, 10)), vec![(node_ids(a), 1.0)]);
    }

    #[test]
    fn a_flow_silent_in_the_window_has_no_routes() {
        let log = log_of(&[(1, &[0, 1])], (5, 10));
        assert_eq!(log.shares(4, (5, 10)), vec![]);
        assert_eq!(PathLog::default().shares(10, (0, 10)), vec![]);
    }
}

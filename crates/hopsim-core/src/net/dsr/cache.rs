//! DSR's path cache at a node: routes starting here, the shortest prefix chosen, learned
//! from what passes (ns2: forward only, routecache.cc `pre_noticeRouteUsed`), cut at a dead
//! link (ns2: one direction, mobicache.cc `noticeDeadLink`).

use super::{DsrNode, SrcRoute};
use crate::ids::NodeId;
use std::collections::VecDeque;

impl DsrNode {
    /// Shortest cached route from this node to `dst`: the first of the shortest in cache
    /// order (the prefix is copied once, for the route chosen).
    pub fn route_to(&self, dst: NodeId) -> Option<SrcRoute> {
        let mut best: Option<(usize, &SrcRoute)> = None;
        for r in &self.cache {
            if let Some(i) = r.position(dst) {
                if i >= 1 && best.is_none_or(|(b, _)| i < b) {
                    best = Some((i, r));
                }
            }
        }
        best.map(|(i, r)| r.slice(0, i))
    }

    /// Remember a route that starts at this node (and loop-free).
    pub fn learn(&mut self, route: SrcRoute) {
        if route.len() < 2 || route.get(0) != Some(self.me) {
            return;
        }
        if route.has_loop() || self.cache.iter().any(|r| r.starts_with(&route)) {
            return;
        }
        if self.cache.len() >= self.cfg.cache_paths {
            self.cache.pop_front();
        }
        self.cache.push_back(route);
    }

    /// Learn what a route passing through this node says: the part ahead and, reversed, the
    /// part behind (links are symmetric here). ns2: the part ahead only (routecache.cc
    /// `pre_noticeRouteUsed`), nothing at the route's end.
    pub fn learn_from(&mut self, route: &SrcRoute) {
        if let Some(i) = route.position(self.me) {
            if i + 1 < route.len() {
                self.learn(route.slice(i, route.len() - 1));
            }
            if !self.cfg.ns2 {
                self.learn(route.slice(0, i).reversed());
            }
        }
    }

    /// A reply or error this node forwards on `route` (its source route, after the error's
    /// link is gone). ns2: the part of that route ahead is learned, as from data (dsragent.cc
    /// `recv` → `handleForwarding` → `noticeRouteUsed`); a reply's content is not.
    pub fn snoop_forwarded_control(&mut self, route: &SrcRoute) {
        if self.cfg.ns2 {
            self.learn_from(route);
        }
    }

    /// Forget every cached route over the link a-b: keep what precedes it.
    /// (ns2: only the direction a -> b, mobicache.cc `noticeDeadLink`.)
    pub fn remove_link(&mut self, a: NodeId, b: NodeId) {
        let ns2 = self.cfg.ns2;
        if ns2 {
            self.flows_dead_link(a, b);
        }
        let mut kept = VecDeque::with_capacity(self.cache.len());
        for r in self.cache.drain(..) {
            let hit = if ns2 { r.has_directed_link(a, b) } else { r.has_link(a, b) };
            match hit {
                Some(i) if i >= 2 => kept.push_back(r.slice(0, i - 1)),
                Some(_) => {}
                None => kept.push_back(r),
            }
        }
        self.cache = kept;
    }
}

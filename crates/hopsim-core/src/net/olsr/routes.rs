//! When the routing table is computed. It is a function of the sets and the time (section 10
//! over the tuples that hold then), so it is computed when a route is asked for and kept
//! while neither changes it: until the sets change (a message or a failed link adds or
//! removes a tuple: `OlsrNode::generation`) or a tuple it was computed from expires. Routing
//! a packet and reading a route without routing (path logs, `Simulation.route`) share it,
//! and reading changes no protocol state: the same table whoever asks first.

use std::cell::RefCell;

use super::msg::WILL_DEFAULT;
use super::table::RouteTable;
use super::OlsrNode;
use crate::engine::time::SimTime;
use crate::ids::NodeId;

#[derive(Clone, Default)]
pub struct Routes(RefCell<Kept>);

#[derive(Clone, Default)]
struct Kept {
    computed: bool,
    /// The sets' generation it was computed from, and the span of time it holds for.
    generation: u64,
    from: SimTime,
    until: SimTime,
    symmetric: Vec<(NodeId, u8)>,
    table: RouteTable,
}

impl Routes {
    /// A tuple's time was set to `until`: the table holds at most until then.
    pub fn holds_at_most_until(&mut self, until: SimTime) {
        let kept = self.0.get_mut();
        kept.until = kept.until.min(until);
    }
}

impl OlsrNode {
    /// The route toward `dst` now (next hop, hops): what routing a packet would use. Changes
    /// nothing but the kept table.
    pub fn route(&self, dst: NodeId, now: SimTime) -> Option<(NodeId, u32)> {
        let mut kept = self.routes.0.borrow_mut();
        self.keep_current(&mut kept, now);
        kept.table.get(dst)
    }

    fn keep_current(&self, kept: &mut Kept, now: SimTime) {
        let same_sets = kept.computed && kept.generation == self.generation && kept.from <= now;
        if same_sets && now <= kept.until {
            return;
        }
        if same_sets {
            // Past the first time a tuple held until: still current if every tuple that held
            // when it was computed was refreshed since and holds now (`next_expiry` bounds
            // every tuple's time from below; a tuple removed since changed the generation).
            let next = match self.next_expiry {
                bound if bound >= now => bound,
                _ => self.first_expiry_from(kept.from),
            };
            if next >= now {
                kept.until = next;
                return;
            }
        }
        kept.symmetric.clear();
        kept.symmetric.extend(
            self.links
                .keys()
                .filter(|n| self.symmetric(**n, now))
                .map(|n| (*n, self.willingness.get(n).copied().unwrap_or(WILL_DEFAULT))),
        );
        // A two-hop tuple through a neighbour no longer symmetric (section 8.5) is skipped by
        // the computation itself.
        let pairs = self.two_hop.iter().filter(|(_, until)| **until >= now).map(|(k, _)| *k);
        kept.table.compute(self.me, &kept.symmetric, pairs, &self.topology, now);
        // `next_expiry` bounds every tuple's time from below; when it is not yet past, it
        // does for the tuples just used (no scan needed).
        kept.until = match self.next_expiry {
            bound if bound >= now => bound,
            _ => self.first_expiry_from(now),
        };
        (kept.computed, kept.generation, kept.from) = (true, self.generation, now);
    }

    /// The earliest time until which a tuple holding at `t` holds (symmetric link times,
    /// two-hop and topology tuples).
    fn first_expiry_from(&self, t: SimTime) -> SimTime {
        let links = self.links.values().map(|l| l.sym_until).filter(|u| *u != 0);
        let times = links
            .chain(self.two_hop.values().copied())
            .chain(self.topology.iter().flat_map(|a| a.dests.iter().map(|d| d.until)));
        times.filter(|u| *u >= t).min().unwrap_or(SimTime::MAX)
    }
}

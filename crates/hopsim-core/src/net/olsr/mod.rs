//! OLSR (RFC 3626), core functionality with one interface per node: link sensing by HELLO
//! (section 7), the neighbour and two-hop neighbour sets (8.1, 8.2), MPR selection (8.3,
//! `mpr.rs`) and MPR selectors (8.4), TC messages flooded through MPRs with the default
//! forwarding algorithm and the duplicate set (3.4, 9), the topology set (9.5) and the
//! routing table (10, `table.rs`). Optionally, link-layer notification (13). No hysteresis
//! (14), no MID or HNA (one interface, no other networks), no ETX extension.
//!
//! Pure protocol logic, as `aodv/`: the glue hands it messages, asks it for its HELLOs and
//! TCs at their (jittered) times, and reads routes from it; reading a route changes nothing.

mod mpr;
pub mod msg;
mod routes;
mod store;
mod table;

pub use store::{OlsrRef, OlsrStore};

use std::collections::{BTreeMap, BTreeSet};

use crate::engine::time::{SimDuration, SimTime};
use crate::ids::NodeId;
use msg::{Body, Hello, LinkType, Message, NeighborType, Tc, WILL_DEFAULT};
use rustc_hash::FxHashMap;

/// RFC 3626 section 18 constants (scenario keys `routing.olsr_*`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OlsrConfig {
    pub hello_interval_ns: SimDuration,
    pub tc_interval_ns: SimDuration,
    /// NEIGHB_HOLD_TIME: a HELLO's validity (3 x REFRESH_INTERVAL).
    pub neighb_hold_ns: SimDuration,
    /// TOP_HOLD_TIME: a TC's validity (3 x TC_INTERVAL).
    pub top_hold_ns: SimDuration,
    pub dup_hold_ns: SimDuration,
    pub willingness: u8,
    /// MAXJITTER: messages leave up to this much after their time (section 18.3).
    pub max_jitter_ns: SimDuration,
}

impl Default for OlsrConfig {
    fn default() -> Self {
        OlsrConfig {
            hello_interval_ns: 2_000_000_000,
            tc_interval_ns: 5_000_000_000,
            neighb_hold_ns: 6_000_000_000,
            top_hold_ns: 15_000_000_000,
            dup_hold_ns: 30_000_000_000,
            willingness: WILL_DEFAULT,
            max_jitter_ns: 500_000_000, // HELLO_INTERVAL / 4
        }
    }
}

/// A link tuple (section 4.2.1) of the one interface.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Link {
    sym_until: SimTime,
    asym_until: SimTime,
    until: SimTime,
}

/// RFC 3626 section 19: is sequence number `a` newer than `b` (with wrap-around)?
pub fn seq_newer(a: u16, b: u16) -> bool {
    (a > b && a - b <= u16::MAX / 2) || (b > a && b - a > u16::MAX / 2)
}

/// OLSR at one node.
#[derive(Clone)]
pub struct OlsrNode {
    me: NodeId,
    cfg: OlsrConfig,
    links: BTreeMap<NodeId, Link>,
    /// Willingness each neighbour last announced.
    willingness: BTreeMap<NodeId, u8>,
    /// Two-hop tuples (neighbour, two-hop node) and until when each holds.
    two_hop: BTreeMap<(NodeId, NodeId), SimTime>,
    mprs: BTreeSet<NodeId>,
    selectors: BTreeMap<NodeId, SimTime>,
    /// The advertised set last sent in a TC, its ANSN, and until when an empty one is sent.
    advertised: Vec<NodeId>,
    ansn: u16,
    /// Until when TCs are sent, empty, after the last selector left (None: never had one).
    tc_until: Option<SimTime>,
    /// The topology set by last hop (indexed by node id), and the number the next new tuple
    /// takes in the set's order.
    topology: Vec<table::Advertised>,
    tuple_order: u64,
    /// Symmetric neighbours with their willingness (scratch for the route computation).
    symmetric: Vec<(NodeId, u8)>,
    /// The duplicate set (section 3.4): (originator, sequence) -> (until, retransmitted).
    /// Expired entries count as absent; they are purged every DUP_HOLD_TIME (`dups_purge`),
    /// apart from the other sets' expiry, which they would otherwise run at every message.
    dups: FxHashMap<(NodeId, u16), (SimTime, bool)>,
    dups_purge: SimTime,
    msg_seq: u16,
    /// The routing table as last computed (`routes.rs`), and the number of times the sets
    /// it is computed from changed.
    routes: routes::Routes,
    generation: u64,
    /// The neighbourhood changed since the MPRs were computed (when a HELLO is made, which
    /// says them).
    mpr_dirty: bool,
    /// No tuple expires, and no link stops being symmetric, before this time: `expire` has
    /// nothing to do until then (a lower bound, lowered by every new tuple).
    next_expiry: SimTime,
}

impl OlsrNode {
    pub fn new(me: NodeId, cfg: OlsrConfig) -> OlsrNode {
        OlsrNode {
            me,
            cfg,
            links: BTreeMap::new(),
            willingness: BTreeMap::new(),
            two_hop: BTreeMap::new(),
            mprs: BTreeSet::new(),
            selectors: BTreeMap::new(),
            advertised: Vec::new(),
            ansn: 0,
            tc_until: None,
            topology: Vec::new(),
            tuple_order: 0,

            symmetric: Vec::new(),
            dups: FxHashMap::default(),
            dups_purge: 0,
            msg_seq: 0,
            routes: routes::Routes::default(),
            generation: 0,
            mpr_dirty: false,
            next_expiry: SimTime::MAX,
        }
    }

    pub fn config(&self) -> &OlsrConfig {
        &self.cfg
    }

    fn next_seq(&mut self) -> u16 {
        self.msg_seq = self.msg_seq.wrapping_add(1);
        self.msg_seq
    }

    /// Drop what has expired by `now` (every tuple has its own time).
    fn expire(&mut self, now: SimTime) {
        if now <= self.next_expiry {
            return; // every tuple holds at `now`: nothing to drop
        }
        let before = (self.links.len(), self.two_hop.len(), self.selectors.len(), self.tuples());
        let lost_sym: Vec<NodeId> = self
            .links
            .iter()
            .filter(|(_, l)| l.sym_until < now && l.sym_until != 0 && l.until >= now)
            .map(|(n, _)| *n)
            .collect();
        self.links.retain(|_, l| l.until >= now);
        let links = &self.links;
        self.willingness.retain(|n, _| links.contains_key(n));
        self.two_hop.retain(|_, until| *until >= now);
        self.selectors.retain(|_, until| *until >= now);
        self.topology.iter_mut().for_each(|a| a.dests.retain(|t| t.until >= now));
        let after = (self.links.len(), self.two_hop.len(), self.selectors.len(), self.tuples());
        if before != after || !lost_sym.is_empty() {
            self.sets_changed(true);
        }
        // A neighbour whose link is no longer symmetric takes its two-hop tuples with it
        // (section 8.5: the neighbour left the symmetric neighbourhood).
        if !lost_sym.is_empty() {
            self.two_hop.retain(|(via, _), _| !lost_sym.contains(via));
            self.selectors.retain(|n, _| !lost_sym.contains(n));
            for n in lost_sym {
                if let Some(l) = self.links.get_mut(&n) {
                    l.sym_until = 0; // recorded: lost, not newly lost again
                }
            }
        }
        let links = self.links.values().flat_map(|l| [l.until, l.sym_until]).filter(|t| *t != 0);
        self.next_expiry = links
            .chain(self.two_hop.values().copied())
            .chain(self.selectors.values().copied())
            .chain(self.topology.iter().flat_map(|a| a.dests.iter().map(|t| t.until)))
            .min()
            .unwrap_or(SimTime::MAX);
    }

    /// The sets the routes (and, `mprs_too`, the MPRs) are computed from changed.
    fn sets_changed(&mut self, mprs_too: bool) {
        self.generation = self.generation.wrapping_add(1);
        self.mpr_dirty |= mprs_too;
    }

    /// Topology tuples held.
    fn tuples(&self) -> usize {
        self.topology.iter().map(|a| a.dests.len()).sum()
    }

    /// A tuple holding until `until` was added or refreshed.
    fn holds_until(&mut self, until: SimTime) {
        self.next_expiry = self.next_expiry.min(until);
        self.routes.holds_at_most_until(until);
    }

    fn symmetric(&self, n: NodeId, now: SimTime) -> bool {
        self.links.get(&n).is_some_and(|l| l.sym_until >= now && l.sym_until != 0)
    }

    /// Symmetric neighbours and their willingness, in id order (in the scratch vector, which
    /// the caller gives back).
    fn symmetric_set(&mut self, now: SimTime) -> Vec<(NodeId, u8)> {
        let mut sym = std::mem::take(&mut self.symmetric);
        sym.clear();
        sym.extend(
            self.links
                .keys()
                .filter(|n| self.symmetric(**n, now))
                .map(|n| (*n, self.willingness.get(n).copied().unwrap_or(WILL_DEFAULT))),
        );
        sym
    }

    /// Recompute the MPR set if the neighbourhood changed.
    fn refresh_mprs(&mut self, now: SimTime) {
        self.expire(now);
        if !self.mpr_dirty {
            return;
        }
        let sym = self.symmetric_set(now);
        self.mprs = mpr::select(self.me, &sym, &self.two_hop);
        self.symmetric = sym;
        self.mpr_dirty = false;
    }

    /// This node's HELLO at `now` (section 6.2): every link not yet expired, with its link
    /// type and the neighbour's type.
    pub fn hello(&mut self, now: SimTime) -> Message {
        self.refresh_mprs(now);
        let links = self
            .links
            .iter()
            .map(|(&n, l)| {
                let link = if l.sym_until >= now && l.sym_until != 0 {
                    LinkType::Sym
                } else if l.asym_until >= now {
                    LinkType::Asym
                } else {
                    LinkType::Lost
                };
                let neighbor = if self.mprs.contains(&n) {
                    NeighborType::Mpr
                } else if link == LinkType::Sym {
                    NeighborType::Sym
                } else {
                    NeighborType::Not
                };
                (n, link, neighbor)
            })
            .collect();
        let hello = Hello { willingness: self.cfg.willingness, links };
        self.message(1, self.cfg.neighb_hold_ns, Body::Hello(hello))
    }

    fn message(&mut self, ttl: u8, vtime_ns: u64, body: Body) -> Message {
        let seq = self.next_seq();
        Message { originator: self.me, seq, ttl, hops: 0, vtime_ns, body }
    }

    /// This node's TC at `now` (section 9.3), or None: its MPR selectors with the ANSN, sent
    /// while it has selectors and, empty, for TOP_HOLD_TIME after it had the last.
    pub fn tc(&mut self, now: SimTime) -> Option<Message> {
        self.expire(now);
        let selectors: Vec<NodeId> = self.selectors.keys().copied().collect();
        if selectors != self.advertised {
            self.ansn = self.ansn.wrapping_add(1);
            self.advertised = selectors;
        }
        if !self.advertised.is_empty() {
            self.tc_until = Some(now + self.cfg.top_hold_ns);
        } else if self.tc_until.is_none_or(|until| now > until) {
            return None;
        }
        let tc = Tc { ansn: self.ansn, advertised: self.advertised.clone() };
        Some(self.message(255, self.cfg.top_hold_ns, Body::Tc(tc)))
    }

    /// A message heard from neighbour `from` at `now` (section 3.4): processed once, and the
    /// copy to retransmit returned when this node forwards it (it is an MPR of `from`).
    pub fn receive(&mut self, now: SimTime, from: NodeId, m: &Message) -> Option<Message> {
        self.expire(now);
        if m.originator == self.me || m.ttl == 0 {
            return None;
        }
        if let Body::Hello(h) = &m.body {
            // HELLOs are one hop: never forwarded, never duplicate-checked (section 6.4).
            if m.hops == 0 {
                self.on_hello(now, from, m.vtime_ns, h);
            }
            return None;
        }
        let key = (m.originator, m.seq);
        if now > self.dups_purge {
            self.dups.retain(|_, (until, _)| *until >= now);
            self.dups_purge = now + self.cfg.dup_hold_ns;
        }
        if self.dups.get(&key).is_some_and(|d| d.0 >= now) {
            return None; // processed (and, if so, forwarded) already
        }
        // Section 3.4 step 3 and 9.5 step 1: only from the symmetric neighbourhood.
        if !self.symmetric(from, now) {
            return None;
        }
        if let Body::Tc(tc) = &m.body {
            self.on_tc(now, m.originator, m.vtime_ns, tc);
        }
        // Section 3.4.1: forward if the sender selected this node as an MPR.
        let forward = self.selectors.contains_key(&from) && m.ttl > 1;
        self.dups.insert(key, (now + self.cfg.dup_hold_ns, forward));
        forward.then(|| Message { ttl: m.ttl - 1, hops: m.hops + 1, ..m.clone() })
    }

    /// Sections 7.1.1, 8.1, 8.2.1 and 8.4.1.
    fn on_hello(&mut self, now: SimTime, from: NodeId, vtime: u64, h: &Hello) {
        self.holds_until(now + vtime); // the earliest of the times set below
        let hold = self.cfg.neighb_hold_ns;
        let link = self.links.entry(from).or_insert(Link {
            sym_until: 0,
            asym_until: 0,
            until: now + vtime,
        });
        let was_sym = link.sym_until >= now && link.sym_until != 0;
        link.asym_until = now + vtime;
        match h.links.iter().find(|(n, _, _)| *n == self.me).map(|(_, l, _)| *l) {
            Some(LinkType::Lost) => link.sym_until = 0,
            Some(LinkType::Sym | LinkType::Asym) => {
                link.sym_until = now + vtime;
                link.until = link.sym_until + hold;
            }
            _ => {}
        }
        link.until = link.until.max(link.asym_until);
        let is_sym = link.sym_until >= now && link.sym_until != 0;
        if self.willingness.insert(from, h.willingness) != Some(h.willingness) || was_sym != is_sym
        {
            self.sets_changed(true);
        }
        if !is_sym {
            if was_sym {
                self.two_hop.retain(|(via, _), _| *via != from);
                self.selectors.remove(&from);
            }
            return;
        }
        for &(n, _, kind) in &h.links {
            let changed = match kind {
                NeighborType::Sym | NeighborType::Mpr if n != self.me => {
                    self.two_hop.insert((from, n), now + vtime).is_none()
                }
                NeighborType::Not => self.two_hop.remove(&(from, n)).is_some(),
                _ => false,
            };
            if changed {
                self.sets_changed(true);
            }
        }
        if h.links.iter().any(|&(n, _, kind)| n == self.me && kind == NeighborType::Mpr) {
            self.selectors.insert(from, now + vtime);
        }
    }

    /// Section 9.5.
    fn on_tc(&mut self, now: SimTime, orig: NodeId, vtime: u64, tc: &Tc) {
        self.holds_until(now + vtime);
        if orig.index() >= self.topology.len() {
            self.topology.resize_with(orig.index() + 1, Default::default);
        }
        let adv = &mut self.topology[orig.index()];
        let held = !adv.dests.is_empty();
        if held && seq_newer(adv.ansn, tc.ansn) {
            return; // out of order: an older TC
        }
        let mut changed = false;
        if held && seq_newer(tc.ansn, adv.ansn) {
            adv.dests.clear(); // the tuples of an older ANSN go
            changed = true;
        }
        adv.ansn = tc.ansn;
        for &dest in &tc.advertised {
            match adv.dests.iter_mut().find(|t| t.dest == dest) {
                Some(t) => t.until = now + vtime,
                None => {
                    let order = self.tuple_order;
                    self.tuple_order += 1;
                    adv.dests.push(table::Tuple { dest, until: now + vtime, order });
                    changed = true;
                }
            }
        }
        if changed {
            self.sets_changed(false);
        }
    }

    /// The link layer could not deliver to `neighbor` (section 13): the link is lost now and
    /// kept, as lost, for NEIGHB_HOLD_TIME.
    pub fn link_failed(&mut self, now: SimTime, neighbor: NodeId) {
        if let Some(l) = self.links.get_mut(&neighbor) {
            if l.sym_until != 0 {
                l.sym_until = 0;
                l.until = now + self.cfg.neighb_hold_ns;
                self.next_expiry = self.next_expiry.min(l.until);
                self.two_hop.retain(|(via, _), _| *via != neighbor);
                self.selectors.remove(&neighbor);
                self.sets_changed(true);
            }
        }
    }

    /// The next hop toward `dst` now, from the routing table (`routes.rs`).
    pub fn next_hop(&mut self, dst: NodeId, now: SimTime) -> Option<NodeId> {
        self.expire(now);
        self.route(dst, now).map(|r| r.0)
    }

    /// The MPR set (as last computed).
    pub fn mprs(&self) -> &BTreeSet<NodeId> {
        &self.mprs
    }

    /// The nodes that selected this node as their MPR.
    pub fn selectors(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.selectors.keys().copied()
    }

    /// Symmetric one-hop neighbours now.
    pub fn neighbors(&self, now: SimTime) -> Vec<NodeId> {
        let links = self.links.keys().filter(|n| self.symmetric(**n, now));
        links.copied().collect()
    }
}

#[cfg(test)]
mod tests;

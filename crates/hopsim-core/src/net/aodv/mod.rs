//! AODV (RFC 3561), the parts ns-2's and ns-3's implementations use: route discovery by
//! flooded RREQ with broadcast jitter and expanding ring search, sequence numbers, RREP along
//! the reverse path (from the destination or from a node with a fresh enough route), route
//! lifetimes refreshed by use, RERR on link-layer failure propagated to precursors. Link
//! breaks come from the MAC (link-layer feedback); HELLO messages are optional. With the ns2
//! profile, ns-2.35's departures from the RFC (local repair, its discovery cycle and its
//! route table over time: ns2.rs, ns2_table.rs; docs/models.md 17.1).
//!
//! Pure protocol logic: the world feeds it messages, timers and link failures and carries out
//! the actions it returns.

use crate::engine::time::{SimDuration, SimTime};
use crate::ids::NodeId;
use rustc_hash::FxHashMap;
use seen::SeenRreqs;

/// ns-2 aodv.h ARP_DELAY: packets that waited for a route leave this far apart.
pub const NS2_ARP_DELAY_NS: SimDuration = 10_000_000;

/// Protocol constants (RFC 3561 section 10; ns-2 aodv.h where it differs).
#[derive(Debug, Clone, Copy)]
pub struct AodvConfig {
    pub active_route_timeout_ns: SimDuration,
    pub node_traversal_ns: SimDuration,
    pub net_diameter: u8,
    pub rreq_retries: u32,
    pub ttl_start: u8,
    pub ttl_increment: u8,
    pub ttl_threshold: u8,
    pub broadcast_jitter_ns: SimDuration,
    pub expanding_ring: bool,
    /// ns-2.35's AODV where it departs from RFC 3561 (aodv/ns2.rs): link-failure handling
    /// (`rt_ll_failed`: local repair near the destination, the interface queue purged,
    /// RERRs without precursors, failed control packets ignored), replies accepted only when
    /// newer or shorter, and `sendRequest`'s discovery cycle. Off: RFC 3561 as ns-3 does it.
    pub ns2: bool,
}

impl Default for AodvConfig {
    fn default() -> Self {
        AodvConfig {
            active_route_timeout_ns: 10_000_000_000, // ns-2 ACTIVE_ROUTE_TIMEOUT 10 s
            node_traversal_ns: 30_000_000,           // ns-2 NODE_TRAVERSAL_TIME 30 ms
            net_diameter: 30,
            rreq_retries: 3,
            ttl_start: 5,
            ttl_increment: 2,
            ttl_threshold: 7,
            broadcast_jitter_ns: 10_000_000, // ns-2: up to 10 ms before a rebroadcast
            expanding_ring: true,
            ns2: false,
        }
    }
}

impl AodvConfig {
    fn net_traversal_ns(&self) -> SimDuration {
        2 * self.node_traversal_ns * self.net_diameter as u64
    }
    /// RFC 3561 RING_TRAVERSAL_TIME with TIMEOUT_BUFFER 2.
    fn ring_traversal_ns(&self, ttl: u8) -> SimDuration {
        2 * self.node_traversal_ns * (ttl as u64 + 2)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AodvMsg {
    Rreq {
        id: u32,
        dst: NodeId,
        dst_seq: u32,
        unknown_seq: bool,
        orig: NodeId,
        orig_seq: u32,
        hops: u8,
        ttl: u8,
    },
    Rrep {
        dst: NodeId,
        dst_seq: u32,
        orig: NodeId,
        hops: u8,
        lifetime_ns: u64,
    },
    Rerr {
        dst: NodeId,
        dst_seq: u32,
    },
}

impl AodvMsg {
    /// Message length in bytes (RFC 3561 section 5; RERR with one destination).
    pub fn bytes(&self) -> u32 {
        match self {
            AodvMsg::Rreq { .. } => 24,
            AodvMsg::Rrep { .. } => 20,
            AodvMsg::Rerr { .. } => 12,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AodvAction {
    /// Send `msg` to neighbour `to` (NodeId::BROADCAST for floods) after `delay_ns`.
    Send { msg: AodvMsg, to: NodeId, delay_ns: SimDuration },
    /// A route to `dst` exists now: release the packets waiting for it.
    RouteFound { dst: NodeId },
    /// ns2: a request made or bettered the route back to its originator `dst`: the packets
    /// waiting for it go at once, not spaced (aodv.cc `recvRequest`: `forward(rt0,
    /// buffered_pkt, NO_DELAY)`; `recvReply` and `rt_purge` add ARP_DELAY per packet).
    ReverseRoute { dst: NodeId },
    /// Discovery of `dst` failed: drop the packets waiting for it.
    Unreachable { dst: NodeId },
    /// Call `on_timer(dst)` at `at`.
    Timer { dst: NodeId, at: SimTime },
    /// Drop every packet in this node's interface queue for `next_hop` (ns-2
    /// `ifqueue->filter`).
    PurgeQueue { next_hop: NodeId },
}

/// What becomes of a data packet the MAC gave up on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailedPacket {
    /// Lost (ns-2 trace reason CBK).
    Drop,
    /// Kept for a local repair of the route (ns-2 `local_rt_repair`): it waits for the route.
    Wait,
}

#[derive(Debug, Clone, PartialEq)]
struct Route {
    next_hop: NodeId,
    hops: u8,
    seq: u32,
    valid_seq: bool,
    valid: bool,
    /// ns-2 RTF_IN_REPAIR: a local repair is under way; packets for `dst` wait here.
    repairing: bool,
    /// ns-2 rt_last_hop_count: the hop count when the route last went down (255: never).
    last_hop_count: u8,
    expires_ns: SimTime,
    precursors: Vec<NodeId>,
}

#[derive(Debug, Clone, Copy, Default)]
struct Discovery {
    ttl: u8,
    retries: u32,
    deadline: SimTime,
    /// ns2: requests are held back after a failed discovery (MAX_RREQ_TIMEOUT).
    held: bool,
}

/// Is sequence number `a` newer than `b` (RFC 3561 6.1, rollover-safe)?
fn newer(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) > 0
}

#[derive(Debug, Clone)]
pub struct AodvNode {
    me: NodeId,
    cfg: AodvConfig,
    seq: u32,
    rreq_id: u32,
    /// The tables are hash maps (up to one entry per node of the network, looked up for
    /// every control packet); where they are walked, the order must not show in the
    /// results: each walk says why it does not, or walks in sorted key order.
    routes: FxHashMap<NodeId, Route>,
    /// RREQs already processed (RFC 6.5).
    seen: SeenRreqs,
    pending: FxHashMap<NodeId, Discovery>,
    /// HELLO (6.9): when each neighbour was last heard.
    heard: FxHashMap<NodeId, SimTime>,
    /// ns2: per destination, the request state ns-2 keeps in its route entry.
    ns2_dst: FxHashMap<NodeId, ns2::Ns2Dst>,
    /// ns2: the next `rt_purge` tick not yet applied to the table (ns2_table.rs).
    ns2_next_purge_ns: SimTime,
    /// Reused lists of node ids (no allocation per call): destinations (`link_failed`),
    /// next hops (`hello`).
    scratch_dsts: Vec<NodeId>,
    scratch_hops: Vec<NodeId>,
}

impl AodvNode {
    pub fn new(me: NodeId, cfg: AodvConfig) -> AodvNode {
        AodvNode {
            me,
            cfg,
            seq: 0,
            rreq_id: 0,
            routes: FxHashMap::default(),
            seen: SeenRreqs::default(),
            pending: FxHashMap::default(),
            heard: FxHashMap::default(),
            ns2_dst: FxHashMap::default(),
            ns2_next_purge_ns: 0,
            scratch_dsts: Vec::new(),
            scratch_hops: Vec::new(),
        }
    }

    /// Any packet from `neighbour` shows the link works (6.9).
    pub fn heard(&mut self, neighbour: NodeId, now: SimTime) {
        self.heard.insert(neighbour, now);
    }

    /// Periodic HELLO (6.9): a node on an active route broadcasts a one-hop RREP about itself;
    /// a next hop not heard for `allowed_loss` intervals counts as a broken link.
    pub fn hello(
        &mut self,
        now: SimTime,
        interval_ns: SimDuration,
        allowed_loss: u32,
        out: &mut Vec<AodvAction>,
    ) {
        // Any order: a yes/no over the routes.
        let active = self.routes.values().any(|r| r.valid && r.expires_ns > now);
        let limit = allowed_loss as u64 * interval_ns;
        if active {
            let msg = AodvMsg::Rrep {
                dst: self.me,
                dst_seq: self.seq,
                orig: self.me,
                hops: 0,
                lifetime_ns: limit,
            };
            out.push(AodvAction::Send { msg, to: NodeId::BROADCAST, delay_ns: 0 });
        }
        // Collected in any order, then sorted: the links break in next-hop order.
        let mut silent = std::mem::take(&mut self.scratch_hops);
        silent.clear();
        silent.extend(
            self.routes
                .values()
                .filter(|r| r.valid && r.expires_ns > now)
                .map(|r| r.next_hop)
                .filter(|h| self.heard.get(h).is_some_and(|&t| now.saturating_sub(t) > limit)),
        );
        silent.sort_unstable();
        silent.dedup();
        for &hop in &silent {
            self.link_failed(hop, out);
        }
        self.scratch_hops = silent;
    }

    /// Next hop of a valid, unexpired route to `dst`; using it extends its lifetime (6.2).
    pub fn next_hop(&mut self, dst: NodeId, now: SimTime) -> Option<NodeId> {
        if self.cfg.ns2 {
            return self.ns2_next_hop(dst, now);
        }
        let timeout = self.cfg.active_route_timeout_ns;
        let r = self.routes.get_mut(&dst)?;
        if !r.valid || r.expires_ns <= now {
            r.valid = false;
            r.last_hop_count = r.hops;
            return None;
        }
        r.expires_ns = r.expires_ns.max(now + timeout);
        Some(r.next_hop)
    }

    /// The next hop of a valid, unexpired route to `dst`, without using it (no lifetime
    /// refresh): what an observer of the table sees.
    pub fn route(&self, dst: NodeId, now: SimTime) -> Option<NodeId> {
        let r = self.routes.get(&dst).filter(|r| r.valid)?;
        let alive =
            if self.cfg.ns2 { ns2_table::up_at(r.expires_ns, now) } else { r.expires_ns > now };
        alive.then_some(r.next_hop)
    }

    /// Hop count of the current route to `dst`.
    pub fn hops(&self, dst: NodeId) -> Option<u8> {
        self.routes.get(&dst).filter(|r| r.valid).map(|r| r.hops)
    }

    /// Start a route discovery for `dst` unless one is under way (6.3).
    pub fn discover(&mut self, dst: NodeId, now: SimTime, out: &mut Vec<AodvAction>) {
        if self.cfg.ns2 {
            self.ns2_discover(dst, now, out);
            return;
        }
        if self.pending.contains_key(&dst) {
            return;
        }
        let ttl = if self.cfg.expanding_ring { self.cfg.ttl_start } else { self.cfg.net_diameter };
        self.send_rreq(dst, ttl, 0, now, out);
    }

    fn send_rreq(
        &mut self,
        dst: NodeId,
        ttl: u8,
        retries: u32,
        now: SimTime,
        out: &mut Vec<AodvAction>,
    ) {
        let msg = self.new_rreq(dst, ttl, now);
        // Waiting time: ring traversal within the ring, else NET_TRAVERSAL_TIME with binary
        // exponential backoff per retry (6.3).
        let wait = if ttl < self.cfg.net_diameter {
            self.cfg.ring_traversal_ns(ttl)
        } else {
            self.cfg.net_traversal_ns() << retries.min(8)
        };
        let deadline = now + wait;
        self.pending.insert(dst, Discovery { ttl, retries, deadline, ..Discovery::default() });
        out.push(AodvAction::Send { msg, to: NodeId::BROADCAST, delay_ns: 0 });
        out.push(AodvAction::Timer { dst, at: deadline });
    }

    /// A new RREQ of this node for `dst` (own sequence number and request id incremented,
    /// remembered as seen).
    fn new_rreq(&mut self, dst: NodeId, ttl: u8, now: SimTime) -> AodvMsg {
        self.seq = self.seq.wrapping_add(1);
        self.rreq_id = self.rreq_id.wrapping_add(1);
        self.remember(self.me, self.rreq_id, now);
        let known = self.routes.get(&dst).filter(|r| r.valid_seq);
        AodvMsg::Rreq {
            id: self.rreq_id,
            dst,
            dst_seq: known.map_or(0, |r| r.seq),
            unknown_seq: known.is_none(),
            orig: self.me,
            orig_seq: self.seq,
            hops: 0,
            ttl,
        }
    }

    /// The discovery timer of `dst` fired; `waiting`: packets for `dst` wait at this node.
    pub fn on_timer(
        &mut self,
        dst: NodeId,
        now: SimTime,
        waiting: bool,
        out: &mut Vec<AodvAction>,
    ) {
        if self.cfg.ns2 {
            self.ns2_on_timer(dst, now, waiting, out);
            return;
        }
        let Some(d) = self.pending.get(&dst).copied() else { return };
        if d.deadline != now {
            return; // superseded
        }
        if self.next_hop(dst, now).is_some() {
            // Learned another way meanwhile (a RREQ from dst, a HELLO): release what waits.
            self.pending.remove(&dst);
            out.push(AodvAction::RouteFound { dst });
            return;
        }
        self.pending.remove(&dst);
        if d.ttl < self.cfg.ttl_threshold {
            let ttl = (d.ttl + self.cfg.ttl_increment).min(self.cfg.net_diameter);
            self.send_rreq(dst, ttl, d.retries, now, out);
        } else if d.ttl < self.cfg.net_diameter {
            self.send_rreq(dst, self.cfg.net_diameter, d.retries, now, out);
        } else if d.retries < self.cfg.rreq_retries {
            self.send_rreq(dst, self.cfg.net_diameter, d.retries + 1, now, out);
        } else {
            if let Some(r) = self.routes.get_mut(&dst) {
                r.repairing = false;
            }
            out.push(AodvAction::Unreachable { dst });
        }
    }

    fn remember(&mut self, orig: NodeId, id: u32, now: SimTime) {
        // PATH_DISCOVERY_TIME = 2 x NET_TRAVERSAL_TIME.
        self.seen.remember(orig, id, now, now + 2 * self.cfg.net_traversal_ns());
    }

    fn seen_before(&self, orig: NodeId, id: u32, now: SimTime) -> bool {
        self.seen.contains(orig, id, now)
    }

    /// Create or update the route to `dst` if the information is fresher or shorter (6.2).
    fn update(
        &mut self,
        dst: NodeId,
        next_hop: NodeId,
        hops: u8,
        seq: Option<u32>,
        lifetime: SimDuration,
        now: SimTime,
    ) -> bool {
        let expires = now + lifetime;
        match self.routes.get_mut(&dst) {
            Some(r) => {
                let fresher = match seq {
                    Some(s) => {
                        !r.valid_seq
                            || newer(s, r.seq)
                            || (s == r.seq && (hops < r.hops || (!r.valid && !r.repairing)))
                    }
                    None => !r.valid || (!r.valid_seq && hops < r.hops),
                };
                if fresher {
                    r.next_hop = next_hop;
                    r.hops = hops;
                    if let Some(s) = seq {
                        r.seq = s;
                        r.valid_seq = true;
                    }
                    r.valid = true;
                    r.repairing = false;
                    if self.cfg.ns2 {
                        r.expires_ns = expires; // ns-2 rt_update sets the expiry
                    }
                }
                if !self.cfg.ns2 && r.valid && r.next_hop == next_hop {
                    r.expires_ns = r.expires_ns.max(expires);
                }
                fresher
            }
            None => {
                self.routes.insert(
                    dst,
                    Route {
                        next_hop,
                        hops,
                        seq: seq.unwrap_or(0),
                        valid_seq: seq.is_some(),
                        valid: true,
                        repairing: false,
                        last_hop_count: u8::MAX,
                        expires_ns: expires,
                        precursors: Vec::new(),
                    },
                );
                true
            }
        }
    }

    fn add_precursor(&mut self, dst: NodeId, p: NodeId) {
        if let Some(r) = self.routes.get_mut(&dst) {
            if !r.precursors.contains(&p) {
                r.precursors.push(p);
            }
        }
    }
}

mod link_break;

mod receive;

mod ns2;

mod ns2_table;

mod seen;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod ns2_tests;

#[cfg(test)]
mod ns2_table_tests;

#[cfg(test)]
mod table_tests;

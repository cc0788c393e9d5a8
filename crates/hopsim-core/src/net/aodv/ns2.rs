//! ns-2.35's AODV where it departs from RFC 3561 (`AodvConfig::ns2`, the ns2 profile):
//! link-layer failures as `AODV::rt_ll_failed` handles them, and route discovery as
//! `AODV::sendRequest` paces it. Sources: ns-2.35 aodv/aodv.cc, aodv.h.

use super::ns2_table::purge_tick;
use super::*;
use crate::ids::NodeId;

/// ns-2 aodv.h RREQ_RETRIES: network-wide requests before giving up.
const NS2_RREQ_RETRIES: u32 = 3;
/// ns-2 aodv.h MAX_RREQ_TIMEOUT: the longest wait for a reply, and the hold after giving up.
const NS2_MAX_RREQ_TIMEOUT_NS: SimDuration = 10_000_000_000;

/// ns-2 aodv_rtable.h MAX_HISTORY: discovery latencies kept per destination.
const NS2_MAX_HISTORY: usize = 3;

/// What ns-2 keeps in a route entry about requesting it (aodv_rtable.h).
#[derive(Debug, Clone, Default)]
pub(super) struct Ns2Dst {
    /// rt_req_last_ttl.
    pub(super) last_ttl: u8,
    /// rt_disc_latency: per-hop latency of the last discoveries (0: none), and hist_indx.
    latency_ns: [u64; NS2_MAX_HISTORY],
    next: usize,
    /// When this node last sent a request for the destination (the RREP's rp_timestamp).
    sent_ns: SimTime,
    /// When the LocalRepairTimers scheduled for the destination fire (ns2_table.rs).
    pub(super) repair_timers: Vec<SimTime>,
}

impl Ns2Dst {
    /// ns-2 `PerHopTime`: the mean of the recorded latencies, else NODE_TRAVERSAL_TIME.
    fn per_hop_ns(&self, default_ns: SimDuration) -> SimDuration {
        let known: Vec<u64> = self.latency_ns.iter().copied().filter(|&l| l > 0).collect();
        if known.is_empty() {
            default_ns
        } else {
            known.iter().sum::<u64>() / known.len() as u64
        }
    }
}

impl AodvNode {
    /// The MAC gave up on a packet for `dst` sent to `next_hop` that had travelled `forwards`
    /// hops, as ns-2.35's `rt_ll_failed` handles it (with `ns2`): a failed
    /// control packet is just dropped; a data packet farther from its source than from its
    /// destination (`forwards` > the route's hop count) starts a local repair and waits;
    /// otherwise the packet is dropped, the queue purged of packets for `next_hop`, and every
    /// route through it broken (`link_failed`). Without `ns2`: `link_failed`.
    pub fn packet_failed(
        &mut self,
        next_hop: NodeId,
        dst: NodeId,
        data: bool,
        forwards: u32,
        now: SimTime,
        out: &mut Vec<AodvAction>,
    ) -> FailedPacket {
        if !self.cfg.ns2 {
            self.link_failed(next_hop, out);
            return FailedPacket::Drop;
        }
        if !data || dst == NodeId::BROADCAST {
            return FailedPacket::Drop;
        }
        self.ns2_purge(now);
        let Some(r) = self.routes.get_mut(&dst) else { return FailedPacket::Drop };
        // ns-2 compares with the hop count of any route that is not down (a route already in
        // repair keeps its count: the packet joins the ones waiting for the repair).
        if (r.valid || r.repairing) && forwards > r.hops as u32 {
            // ns-2 local_rt_repair, for every such packet: the route goes RTF_IN_REPAIR, a
            // RREQ leaves from here (sendRequest's rate limit holds it while one is under
            // way), and a LocalRepairTimer is set.
            r.valid = false;
            r.repairing = true;
            self.discover(dst, now, out);
            self.ns2_arm_repair_timer(dst, now, out);
            return FailedPacket::Wait;
        }
        out.push(AodvAction::PurgeQueue { next_hop });
        self.link_failed(next_hop, out);
        FailedPacket::Drop
    }

    /// Is a local repair of the route to `dst` under way (packets for it wait)?
    pub fn repairing(&self, dst: NodeId) -> bool {
        self.routes.get(&dst).is_some_and(|r| r.repairing)
    }

    /// ns-2 `sendRequest`, called whenever a packet waits for `dst`: rate-limited by the
    /// request timeout; TTL from the last TTL and the hop count the route had (TTL_START, +2
    /// below TTL_THRESHOLD, else NETWORK_DIAMETER, counted); timeout 2 TTL NODE_TRAVERSAL_TIME
    /// times the count, at most 10 s; after RREQ_RETRIES network-wide requests the waiting
    /// packets are dropped and requests held back for MAX_RREQ_TIMEOUT.
    pub(super) fn ns2_discover(&mut self, dst: NodeId, now: SimTime, out: &mut Vec<AodvAction>) {
        self.ns2_purge(now);
        if self.pending.get(&dst).is_some_and(|d| now < d.deadline) {
            return;
        }
        self.ns2_request(dst, now, out);
    }

    fn ns2_request(&mut self, dst: NodeId, now: SimTime, out: &mut Vec<AodvAction>) {
        let mut d = self.pending.get(&dst).copied().unwrap_or_default();
        if d.retries > NS2_RREQ_RETRIES {
            d = Discovery { held: true, deadline: now + NS2_MAX_RREQ_TIMEOUT_NS, ..d };
            d.retries = 0;
            self.pending.insert(dst, d);
            out.push(AodvAction::Unreachable { dst });
            out.push(AodvAction::Timer { dst, at: purge_tick(d.deadline) });
            return;
        }
        let last_hops = self.routes.get(&dst).map_or(u8::MAX, |r| r.last_hop_count);
        let hist = self.ns2_dst.entry(dst).or_default();
        let last = hist.last_ttl.max(last_hops);
        let ttl = if last == 0 {
            self.cfg.ttl_start
        } else if last < self.cfg.ttl_threshold {
            last + self.cfg.ttl_increment
        } else {
            d.retries += 1;
            self.cfg.net_diameter
        };
        d.ttl = ttl;
        d.held = false;
        hist.last_ttl = ttl;
        hist.sent_ns = now;
        let per_hop = hist.per_hop_ns(self.cfg.node_traversal_ns);
        let wait = 2 * ttl as u64 * per_hop * d.retries.max(1) as u64;
        d.deadline = now + wait.min(NS2_MAX_RREQ_TIMEOUT_NS);
        self.pending.insert(dst, d);
        self.ns2_rreq(dst, ttl, now, out);
        // The next request goes out at the first purge tick after the timeout.
        out.push(AodvAction::Timer { dst, at: purge_tick(d.deadline) });
    }

    fn ns2_rreq(&mut self, dst: NodeId, ttl: u8, now: SimTime, out: &mut Vec<AodvAction>) {
        let msg = self.new_rreq(dst, ttl, now);
        out.push(AodvAction::Send { msg, to: NodeId::BROADCAST, delay_ns: 0 });
    }

    /// ns-2 `recvReply` took a reply for `dst` (newer or shorter), at any node on its way: the
    /// request state is reset (rt_req_cnt, rt_req_timeout, rt_req_last_ttl = hops), the
    /// originator records the discovery latency per hop, and packets waiting here go.
    pub(super) fn ns2_reply_accepted(
        &mut self,
        dst: NodeId,
        hops: u8,
        originator: bool,
        now: SimTime,
        out: &mut Vec<AodvAction>,
    ) {
        let hist = self.ns2_dst.entry(dst).or_default();
        hist.last_ttl = hops;
        if originator && hops > 0 {
            let latency = now.saturating_sub(hist.sent_ns) / hops as u64;
            hist.latency_ns[hist.next] = latency.max(1);
            hist.next = (hist.next + 1) % NS2_MAX_HISTORY;
        }
        self.pending.remove(&dst);
        out.push(AodvAction::RouteFound { dst });
    }

    /// A timer of `dst`: a LocalRepairTimer (ns2_table.rs), or the purge tick after a
    /// request timeout, where `rt_purge` asks again only while packets for `dst` wait here
    /// (`waiting`); a reply may have come meanwhile. After a hold nothing is left pending.
    pub(super) fn ns2_on_timer(
        &mut self,
        dst: NodeId,
        now: SimTime,
        waiting: bool,
        out: &mut Vec<AodvAction>,
    ) {
        self.ns2_purge(now);
        if self.ns2_repair_timer_fired(dst, now) {
            return; // a discovery timer due at the same time is an event of its own
        }
        let Some(d) = self.pending.get(&dst).copied() else { return };
        if now != purge_tick(d.deadline) {
            return; // superseded
        }
        if self.next_hop(dst, now).is_some() {
            self.pending.remove(&dst);
            out.push(AodvAction::RouteFound { dst });
            return;
        }
        if !waiting {
            if d.held {
                self.pending.remove(&dst);
            }
            return;
        }
        self.ns2_request(dst, now, out);
    }
}

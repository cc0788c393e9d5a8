//! AODV message handling (RFC 3561 6.5-6.11; ns-2 `recvRequest`, `recvReply`, `recvError`
//! where the ns2 profile follows them): what a node does with a RREQ, RREP or RERR.

use super::*;
use crate::ids::NodeId;

impl AodvNode {
    /// A control message arrived from neighbour `from`.
    pub fn receive(&mut self, msg: AodvMsg, from: NodeId, now: SimTime, out: &mut Vec<AodvAction>) {
        let timeout = self.cfg.active_route_timeout_ns;
        let ns2 = self.cfg.ns2;
        self.ns2_purge(now);
        match msg {
            AodvMsg::Rreq { id, dst, dst_seq, unknown_seq, orig, orig_seq, hops, ttl } => {
                if orig == self.me {
                    return;
                }
                if !ns2 {
                    // ns-2 keeps no route to the neighbour a request came from.
                    self.update(from, from, 1, None, timeout, now);
                }
                if self.seen_before(orig, id, now) {
                    return; // 6.5: a RREQ is processed once
                }
                self.remember(orig, id, now);
                let hops = hops.saturating_add(1);
                // Reverse route (6.5), lifetime at least 2 NET_TRAVERSAL - 2 hops NODE_TRAVERSAL.
                if ns2 {
                    self.ns2_reverse_route(orig, from, hops, orig_seq, now, out);
                } else {
                    let reverse = (2 * self.cfg.net_traversal_ns())
                        .saturating_sub(2 * hops as u64 * self.cfg.node_traversal_ns);
                    self.update(orig, from, hops, Some(orig_seq), reverse.max(timeout), now);
                }
                if dst == self.me {
                    if self.cfg.ns2 {
                        // ns-2 recvRequest: max(own, requested) + 1, rounded up to even.
                        let base = if newer(dst_seq, self.seq) { dst_seq } else { self.seq };
                        self.seq = base.wrapping_add(1);
                        self.seq = self.seq.wrapping_add(self.seq % 2);
                    } else if !unknown_seq && newer(dst_seq, self.seq) {
                        // 6.6.1: own sequence number to at least the requested one.
                        self.seq = dst_seq;
                    }
                    let msg = AodvMsg::Rrep {
                        dst: self.me,
                        dst_seq: self.seq,
                        orig,
                        hops: 0,
                        // ns-2 MY_ROUTE_TIMEOUT 10 s; RFC 3561 10: 2 ACTIVE_ROUTE_TIMEOUT.
                        lifetime_ns: if ns2 { timeout } else { 2 * timeout },
                    };
                    out.push(AodvAction::Send { msg, to: from, delay_ns: 0 });
                    return;
                }
                let fresh = self.routes.get(&dst).is_some_and(|r| {
                    let usable = if ns2 {
                        r.valid || r.repairing // ns-2: any route whose hop count is not infinite
                    } else {
                        r.valid && r.valid_seq && r.expires_ns > now
                    };
                    usable && (unknown_seq || !newer(dst_seq, r.seq))
                });
                if fresh {
                    // 6.6.2: an intermediate node with a fresh enough route replies.
                    let r = &self.routes[&dst];
                    let left_ns = r.expires_ns.saturating_sub(now);
                    let msg = AodvMsg::Rrep {
                        dst,
                        dst_seq: r.seq,
                        orig,
                        hops: r.hops,
                        // ns-2 sends (u_int32_t)(rt_expire - now): whole seconds.
                        lifetime_ns: if ns2 {
                            left_ns / ns2_table::SECOND_NS * ns2_table::SECOND_NS
                        } else {
                            left_ns
                        },
                    };
                    let next = r.next_hop;
                    self.add_precursor(dst, from);
                    self.add_precursor(orig, next);
                    out.push(AodvAction::Send { msg, to: from, delay_ns: 0 });
                } else if ttl > 1 {
                    // ns-2 recvRequest: the highest sequence number seen on the way goes on.
                    let (dst_seq, unknown_seq) = match self.routes.get(&dst) {
                        Some(r) if ns2 && (unknown_seq || newer(r.seq, dst_seq)) => (r.seq, false),
                        _ => (dst_seq, unknown_seq),
                    };
                    let msg = AodvMsg::Rreq {
                        id,
                        dst,
                        dst_seq,
                        unknown_seq,
                        orig,
                        orig_seq,
                        hops,
                        ttl: ttl - 1,
                    };
                    out.push(AodvAction::Send {
                        msg,
                        to: NodeId::BROADCAST,
                        delay_ns: self.cfg.broadcast_jitter_ns,
                    });
                }
            }
            AodvMsg::Rrep { dst, dst_seq, orig, hops: 0, lifetime_ns }
                if dst == orig && dst == from =>
            {
                // A HELLO: the neighbour is alive; a route to it only.
                self.update(from, from, 1, Some(dst_seq), lifetime_ns.max(1), now);
            }
            AodvMsg::Rrep { dst, dst_seq, orig, hops, lifetime_ns } => {
                if !ns2 {
                    self.update(from, from, 1, None, timeout, now);
                }
                let hops = hops.saturating_add(1);
                let fresher = self.update(dst, from, hops, Some(dst_seq), lifetime_ns.max(1), now);
                if self.cfg.ns2 {
                    if !fresher {
                        return; // ns-2 recvReply: suppress_reply, nothing released or forwarded
                    }
                    self.ns2_reply_accepted(dst, hops, orig == self.me, now, out);
                    if orig == self.me {
                        return;
                    }
                }
                if orig == self.me {
                    if self.pending.remove(&dst).is_some() || self.next_hop(dst, now).is_some() {
                        out.push(AodvAction::RouteFound { dst });
                    }
                    return;
                }
                // 6.7: forward along the reverse route, recording precursors.
                if let Some(next) = self.next_hop(orig, now) {
                    self.add_precursor(dst, next);
                    if !ns2 {
                        // ns-2 recvReply records only the forward route's precursor: a
                        // route known only as a reverse route (a TCP ACK path) has none.
                        self.add_precursor(orig, from);
                    }
                    let msg = AodvMsg::Rrep { dst, dst_seq, orig, hops, lifetime_ns };
                    out.push(AodvAction::Send { msg, to: next, delay_ns: 0 });
                }
            }
            AodvMsg::Rerr { dst, dst_seq } => {
                // 6.11: invalidate the route if it goes through the reporter; tell precursors.
                let ns2 = self.cfg.ns2;
                let Some(r) = self.routes.get_mut(&dst) else { return };
                // ns-2 recvError also requires the RERR's sequence number to be no older.
                if r.valid && r.next_hop == from && (!ns2 || !newer(r.seq, dst_seq)) {
                    r.valid = false;
                    r.last_hop_count = r.hops; // ns-2 rt_down
                    r.seq = dst_seq;
                    if ns2 {
                        // ns-2 recvError: packets queued for the reporter go too.
                        out.push(AodvAction::PurgeQueue { next_hop: from });
                    }
                    if !r.precursors.is_empty() {
                        if ns2 {
                            r.precursors.clear(); // ns-2 pc_delete()
                        }
                        let msg = AodvMsg::Rerr { dst, dst_seq };
                        out.push(AodvAction::Send { msg, to: NodeId::BROADCAST, delay_ns: 0 });
                    }
                }
            }
        }
    }
}

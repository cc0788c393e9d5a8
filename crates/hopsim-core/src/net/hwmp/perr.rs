//! Path errors (13.10.11): a broken link invalidates the paths through it and a PERR tells
//! their precursors, which do the same for theirs. At most one PERR per perrMinInterval: what
//! comes meanwhile is gathered into the next.

use super::msg::{
    HwmpMsg, Perr, PerrDest, PERR_MAX_DESTS, REASON_DESTINATION_UNREACHABLE,
    REASON_NO_FORWARDING_INFO,
};
use super::*;

impl HwmpNode {
    /// The link layer gave up on `neighbour` (13.10.11.2): every path through it is
    /// invalidated with its destination's SN incremented, and a PERR goes to their
    /// precursors (unicast if one, broadcast if several).
    pub fn link_failed(&mut self, neighbour: NodeId, now: SimTime, out: &mut Vec<HwmpAction>) {
        let (dests, to) = (&mut self.perr_dests, &mut self.perr_to);
        for (dst, p) in self.table.iter_mut() {
            if !p.valid || p.next_hop != neighbour {
                continue;
            }
            p.valid = false;
            p.seq = p.seq.wrapping_add(1);
            let d = PerrDest { addr: dst, seq: p.seq, reason: REASON_DESTINATION_UNREACHABLE };
            gather(dests, to, d, &p.precursors, neighbour);
            p.precursors.clear();
        }
        self.roots.retain(|r| r.via != neighbour);
        self.perr_ttl = self.perr_ttl.max(self.cfg.max_ttl);
        self.perr_ready(now, out);
    }

    /// A data frame from neighbour `prev_hop` to be forwarded to `dst` found no active path
    /// (13.10.11.2): a PERR (reason no forwarding information) tells `prev_hop`.
    pub fn no_forwarding_info(
        &mut self,
        dst: NodeId,
        prev_hop: NodeId,
        now: SimTime,
        out: &mut Vec<HwmpAction>,
    ) {
        if dst == self.me || dst.is_broadcast() || prev_hop.is_broadcast() {
            return;
        }
        let seq = self.dest_seq(dst).unwrap_or(0);
        let d = PerrDest { addr: dst, seq, reason: REASON_NO_FORWARDING_INFO };
        gather(&mut self.perr_dests, &mut self.perr_to, d, &[prev_hop], self.me);
        self.perr_ttl = self.perr_ttl.max(self.cfg.max_ttl);
        self.perr_ready(now, out);
    }

    /// 13.10.11.3: a destination whose path goes through the PERR's transmitter, with an SN
    /// not newer than the PERR's, is invalidated (SN taken from the PERR) and passed on to
    /// the path's precursors while the element TTL lasts.
    pub(super) fn on_perr(
        &mut self,
        perr: &Perr,
        from: NodeId,
        now: SimTime,
        out: &mut Vec<HwmpAction>,
    ) {
        let forward = perr.ttl > 1;
        for d in &perr.dests {
            let Some(p) = self.table.get_mut(d.addr) else { continue };
            // The next hop saying it has no path at all is believed whatever the SN.
            let stale =
                d.reason != REASON_NO_FORWARDING_INFO && p.seq_known && seq_newer(p.seq, d.seq);
            if !p.valid || p.next_hop != from || stale {
                continue;
            }
            p.valid = false;
            if !p.seq_known || seq_newer(d.seq, p.seq) {
                (p.seq, p.seq_known) = (d.seq, true);
            }
            if forward {
                gather(&mut self.perr_dests, &mut self.perr_to, *d, &p.precursors, from);
            }
            p.precursors.clear();
        }
        if forward {
            self.perr_ttl = self.perr_ttl.max(perr.ttl - 1);
        }
        self.perr_ready(now, out);
    }

    /// Send the gathered PERR if perrMinInterval allows, else when it will.
    pub(super) fn perr_ready(&mut self, now: SimTime, out: &mut Vec<HwmpAction>) {
        if self.perr_to.is_empty() || self.perr_dests.is_empty() {
            // Nobody to tell (or nothing to tell): nothing is sent.
            self.perr_to.clear();
            self.perr_dests.clear();
            self.perr_ttl = 0;
            return;
        }
        let min = self.cfg.perr_min_interval_ns;
        let free_at = self.last_perr_ns.map_or(now, |t| t.saturating_add(min));
        if now < free_at {
            if !self.perr_timer_armed {
                self.perr_timer_armed = true;
                out.push(HwmpAction::Timer { timer: HwmpTimer::PerrQueue, at: free_at });
            }
            return;
        }
        let to = if self.perr_to.len() == 1 { self.perr_to[0] } else { NodeId::BROADCAST };
        for chunk in self.perr_dests.chunks(PERR_MAX_DESTS) {
            let perr = Perr { ttl: self.perr_ttl, dests: chunk.to_vec() };
            out.push(HwmpAction::Send { msg: HwmpMsg::Perr(perr), to });
        }
        self.perr_to.clear();
        self.perr_dests.clear();
        self.perr_ttl = 0;
        self.last_perr_ns = Some(now);
    }
}

/// Add `d` (replacing an older entry for its address) and the precursors but `except`.
fn gather(
    dests: &mut Vec<PerrDest>,
    to: &mut Vec<NodeId>,
    d: PerrDest,
    pre: &[NodeId],
    except: NodeId,
) {
    if pre.iter().all(|&q| q == except) {
        return; // nobody to tell about this one
    }
    match dests.iter_mut().find(|e| e.addr == d.addr) {
        Some(e) => *e = d,
        None => dests.push(d),
    }
    for &q in pre {
        if q != except && !to.contains(&q) {
            to.push(q);
        }
    }
}

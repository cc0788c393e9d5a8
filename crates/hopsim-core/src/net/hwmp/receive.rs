//! What a mesh STA does with a received PREQ (13.10.9.3), PREP (13.10.10.3) or RANN
//! (13.10.12.3); PERR in `perr.rs`.

use super::msg::{HwmpMsg, Prep, Preq, Rann};
use super::*;

impl HwmpNode {
    /// A path selection element arrived from neighbour `from`; `link_metric` is the airtime
    /// metric (`metric::airtime_metric`) of this STA's link with `from`: its current rate and
    /// frame error rate toward `from` (as ns-3 and Linux take it).
    pub fn receive(
        &mut self,
        msg: &HwmpMsg,
        from: NodeId,
        link_metric: u32,
        now: SimTime,
        out: &mut Vec<HwmpAction>,
    ) {
        if from == self.me || from.is_broadcast() {
            return;
        }
        match msg {
            HwmpMsg::Preq(p) => self.on_preq(p, from, link_metric, now, out),
            HwmpMsg::Prep(p) => self.on_prep(p, from, link_metric, now, out),
            HwmpMsg::Perr(p) => self.on_perr(p, from, now, out),
            HwmpMsg::Rann(r) => self.on_rann(r, from, link_metric, now, out),
        }
    }

    fn on_preq(
        &mut self,
        p: &Preq,
        from: NodeId,
        link: u32,
        now: SimTime,
        out: &mut Vec<HwmpAction>,
    ) {
        if p.orig == self.me || p.orig.is_broadcast() {
            return;
        }
        self.heard(from, link, now, out);
        let metric = p.metric.saturating_add(link);
        let hops = p.hop_count.saturating_add(1);
        let lifetime = tu_to_ns(p.lifetime_tu);
        // 13.10.9.3: an older PREQ, or one no better than the one accepted, is discarded.
        if !self.update(p.orig, from, metric, hops, Some(p.orig_seq), lifetime, now, out) {
            return;
        }
        let t = p.target;
        let mut fwd = Preq { hop_count: hops, metric, ttl: p.ttl.saturating_sub(1), ..*p };
        if t.addr.is_broadcast() {
            // Proactive PREQ (13.10.9.3): a path to the root; a PREP if asked for.
            self.root = Some(p.orig);
            if p.proactive_prep {
                self.send_prep(p, from, out);
            }
        } else if t.addr == self.me {
            // 13.10.8.2: the target's SN at least the one asked for, then incremented.
            if !t.unknown_seq && seq_newer(t.seq, self.seq) {
                self.seq = t.seq;
            }
            self.send_prep(p, from, out);
            return;
        } else if !t.target_only {
            // 13.10.9.3: an intermediate STA with fresh enough forwarding information
            // answers, then forwards with TO set (RF) or not at all.
            let fresh = self
                .table
                .active(t.addr, now)
                // Not through the transmitter: that reply would make a loop.
                .filter(|q| q.seq_known && q.next_hop != from)
                .filter(|q| t.unknown_seq || !seq_newer(t.seq, q.seq));
            if let Some(q) = fresh {
                let prep = Prep {
                    hop_count: q.hops,
                    ttl: self.cfg.max_ttl,
                    target: t.addr,
                    target_seq: q.seq,
                    lifetime_tu: ns_to_tu(q.expires_ns.saturating_sub(now)),
                    metric: q.metric,
                    orig: p.orig,
                    orig_seq: p.orig_seq,
                };
                let next = q.next_hop;
                if let Some(q) = self.table.get_mut(t.addr) {
                    q.add_precursor(from);
                }
                if let Some(o) = self.table.get_mut(p.orig) {
                    o.add_precursor(next);
                }
                out.push(HwmpAction::Send { msg: HwmpMsg::Prep(prep), to: from });
                if !t.reply_and_forward {
                    return;
                }
                fwd.target.target_only = true;
            }
        }
        if fwd.ttl == 0 {
            return;
        }
        let to = if p.individual {
            match self.toward(t.addr, now) {
                Some(n) if n != from => n,
                _ => return,
            }
        } else {
            NodeId::BROADCAST
        };
        out.push(HwmpAction::Send { msg: HwmpMsg::Preq(fwd), to });
    }

    /// This STA's PREP to the originator of `p`, through `from` (13.10.10.2): own SN
    /// incremented, lifetime copied from the PREQ.
    fn send_prep(&mut self, p: &Preq, from: NodeId, out: &mut Vec<HwmpAction>) {
        let prep = Prep {
            hop_count: 0,
            ttl: self.cfg.max_ttl,
            target: self.me,
            target_seq: self.next_seq(),
            lifetime_tu: p.lifetime_tu,
            metric: 0,
            orig: p.orig,
            orig_seq: p.orig_seq,
        };
        out.push(HwmpAction::Send { msg: HwmpMsg::Prep(prep), to: from });
    }

    fn on_prep(
        &mut self,
        p: &Prep,
        from: NodeId,
        link: u32,
        now: SimTime,
        out: &mut Vec<HwmpAction>,
    ) {
        if p.target == self.me || p.target.is_broadcast() {
            return;
        }
        self.heard(from, link, now, out);
        // 13.10.10.3: a PREP older than the forwarding information is discarded; one as new
        // updates the path only if better but is still forwarded (as ns-3 does).
        if self.table.get(p.target).is_some_and(|q| q.seq_known && seq_newer(q.seq, p.target_seq)) {
            return;
        }
        let metric = p.metric.saturating_add(link);
        let hops = p.hop_count.saturating_add(1);
        let lifetime = tu_to_ns(p.lifetime_tu);
        self.update(p.target, from, metric, hops, Some(p.target_seq), lifetime, now, out);
        if p.orig == self.me || p.ttl <= 1 {
            return;
        }
        let Some(next) = self.table.active(p.orig, now).map(|q| q.next_hop) else { return };
        if next == from {
            return;
        }
        // Precursors (13.10.10.3): the next hop toward the originator uses this STA to reach
        // the target, the transmitter to reach the originator.
        if let Some(q) = self.table.get_mut(p.target) {
            q.add_precursor(next);
        }
        if let Some(o) = self.table.get_mut(p.orig) {
            o.add_precursor(from);
        }
        let fwd = Prep { hop_count: hops, metric, ttl: p.ttl - 1, ..*p };
        out.push(HwmpAction::Send { msg: HwmpMsg::Prep(fwd), to: next });
    }

    /// 13.10.12.3: a RANN newer, or as new and better, than the last of its root is recorded
    /// and propagated with the metric accumulated; a new one (or one while no path to the
    /// root is active) makes this STA send an individually addressed PREQ to the root.
    fn on_rann(
        &mut self,
        r: &Rann,
        from: NodeId,
        link: u32,
        now: SimTime,
        out: &mut Vec<HwmpAction>,
    ) {
        if r.root == self.me || r.root.is_broadcast() {
            return;
        }
        self.heard(from, link, now, out);
        let metric = r.metric.saturating_add(link);
        let known = self.roots.iter().position(|i| i.root == r.root);
        let newer = known.is_none_or(|k| seq_newer(r.seq, self.roots[k].seq));
        let better = known.is_some_and(|k| {
            let i = self.roots[k];
            r.seq == i.seq && metric < i.metric
        });
        if !newer && !better {
            return;
        }
        let info = RootInfo { root: r.root, seq: r.seq, metric, via: from };
        match known {
            Some(k) => self.roots[k] = info,
            None => self.roots.push(info),
        }
        self.root = Some(r.root);
        if r.ttl > 1 {
            let fwd =
                Rann { hop_count: r.hop_count.saturating_add(1), ttl: r.ttl - 1, metric, ..*r };
            out.push(HwmpAction::Send { msg: HwmpMsg::Rann(fwd), to: NodeId::BROADCAST });
        }
        if newer || self.table.active(r.root, now).is_none() {
            self.request_preq(r.root, true, now, out);
        }
    }
}

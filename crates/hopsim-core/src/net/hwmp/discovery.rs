//! Path discovery at the source (13.10.9.2): PREQs rate limited by preqMinInterval,
//! retried up to maxPREQretries, path refresh; the root's announcements (13.10.4.2); timers.

use super::msg::{HwmpMsg, Preq, PreqTarget, Rann};
use super::*;

impl HwmpNode {
    /// A packet of this STA's own for `dst`: the next hop (its path used, refreshed by a PREQ
    /// when due), or None and a discovery started (the packet waits for `RouteFound`).
    pub fn originate(
        &mut self,
        dst: NodeId,
        now: SimTime,
        out: &mut Vec<HwmpAction>,
    ) -> Option<NodeId> {
        let Some(next) = self.next_hop(dst, now) else {
            self.discover(dst, now, out);
            return None;
        };
        // At most a quarter of the timeout ahead: a short timeout must not refresh at once.
        let timeout = self.cfg.active_path_timeout_ns;
        let margin = self.cfg.path_refresh_ns.min(timeout / 4);
        let due = self.table.get(dst).is_some_and(|p| {
            margin > 0
                && p.seq_known
                && now >= p.set_ns.saturating_add(timeout.saturating_sub(margin))
        });
        if due && !self.pending.contains_key(&dst) {
            let d = Discovery { retries: 0, deadline: 0, waiting: false };
            self.pending.insert(dst, d);
            self.request_preq(dst, false, now, out);
        }
        Some(next)
    }

    /// Start a path discovery for `dst` unless one is under way.
    pub fn discover(&mut self, dst: NodeId, now: SimTime, out: &mut Vec<HwmpAction>) {
        if dst == self.me || dst.is_broadcast() {
            return;
        }
        if let Some(d) = self.pending.get_mut(&dst) {
            d.waiting = true;
            return;
        }
        self.pending.insert(dst, Discovery { retries: 0, deadline: 0, waiting: true });
        self.request_preq(dst, false, now, out);
    }

    /// Send a PREQ for `target` now, or when preqMinInterval allows (13.10.9.2).
    pub(super) fn request_preq(
        &mut self,
        target: NodeId,
        to_root: bool,
        now: SimTime,
        out: &mut Vec<HwmpAction>,
    ) {
        let min = self.cfg.preq_min_interval_ns;
        let free = self.last_preq_ns.is_none_or(|t| now >= t.saturating_add(min));
        if free && self.preq_queue.is_empty() {
            self.send_preq(target, to_root, now, out);
            return;
        }
        if !self.preq_queue.contains(&(target, to_root)) {
            self.preq_queue.push_back((target, to_root));
        }
        self.arm_preq_timer(now, out);
    }

    fn arm_preq_timer(&mut self, now: SimTime, out: &mut Vec<HwmpAction>) {
        if self.preq_timer_armed || self.preq_queue.is_empty() {
            return;
        }
        let min = self.cfg.preq_min_interval_ns;
        let at = self.last_preq_ns.map_or(now, |t| t.saturating_add(min)).max(now);
        self.preq_timer_armed = true;
        out.push(HwmpAction::Timer { timer: HwmpTimer::PreqQueue, at });
    }

    /// A new PREQ of this STA's (13.10.9.2): own SN and path discovery ID incremented. To a
    /// root after a RANN (13.10.12): individually addressed toward it, TO set.
    fn send_preq(
        &mut self,
        target: NodeId,
        to_root: bool,
        now: SimTime,
        out: &mut Vec<HwmpAction>,
    ) {
        let to = if to_root {
            match self.toward(target, now) {
                Some(n) => n,
                None => return,
            }
        } else {
            NodeId::BROADCAST
        };
        let orig_seq = self.next_seq();
        self.discovery_id = self.discovery_id.wrapping_add(1);
        let known = self.dest_seq(target);
        let lifetime =
            if to_root { self.cfg.active_root_timeout_ns } else { self.cfg.active_path_timeout_ns };
        let preq = Preq {
            individual: to_root,
            proactive_prep: false,
            hop_count: 0,
            ttl: self.cfg.max_ttl,
            discovery_id: self.discovery_id,
            orig: self.me,
            orig_seq,
            lifetime_tu: ns_to_tu(lifetime),
            metric: 0,
            target: PreqTarget {
                addr: target,
                target_only: self.cfg.target_only || to_root,
                reply_and_forward: self.cfg.reply_and_forward,
                unknown_seq: known.is_none(),
                seq: known.unwrap_or(0),
            },
        };
        self.last_preq_ns = Some(now);
        out.push(HwmpAction::Send { msg: HwmpMsg::Preq(preq), to });
        if to_root {
            return;
        }
        if let Some(d) = self.pending.get_mut(&target) {
            // Wait 2 x netDiameterTraversalTime, doubled per retry.
            let wait =
                (2 * self.cfg.net_diameter_traversal_ns).saturating_mul(1 << d.retries.min(16));
            d.deadline = now.saturating_add(wait);
            out.push(HwmpAction::Timer { timer: HwmpTimer::Discovery(target), at: d.deadline });
        }
    }

    /// A timer armed by an action fired.
    pub fn on_timer(&mut self, timer: HwmpTimer, now: SimTime, out: &mut Vec<HwmpAction>) {
        match timer {
            HwmpTimer::Discovery(dst) => self.discovery_timeout(dst, now, out),
            HwmpTimer::PreqQueue => {
                self.preq_timer_armed = false;
                let min = self.cfg.preq_min_interval_ns;
                if self.last_preq_ns.is_some_and(|t| now < t.saturating_add(min)) {
                    self.arm_preq_timer(now, out); // early: wait on
                    return;
                }
                while let Some((target, to_root)) = self.preq_queue.pop_front() {
                    // A discovery's PREQ goes only while the discovery is under way.
                    if to_root || self.pending.contains_key(&target) {
                        self.send_preq(target, to_root, now, out);
                        break;
                    }
                }
                self.arm_preq_timer(now, out);
            }
            HwmpTimer::PerrQueue => {
                self.perr_timer_armed = false;
                self.perr_ready(now, out);
            }
            HwmpTimer::Root => {
                if self.cfg.root_mode == RootMode::Off {
                    return;
                }
                let every = self.announce_root(now, out);
                out.push(HwmpAction::Timer {
                    timer: HwmpTimer::Root,
                    at: now.saturating_add(every),
                });
            }
        }
    }

    /// 13.10.9.2: no PREP in time: a new PREQ, or after maxPREQretries, unreachable. A path
    /// refresh nothing waits for is not retried.
    fn discovery_timeout(&mut self, dst: NodeId, now: SimTime, out: &mut Vec<HwmpAction>) {
        let Some(d) = self.pending.get(&dst).copied() else { return };
        if d.deadline != now {
            return; // superseded
        }
        if self.table.active(dst, now).is_some() {
            self.resolved(dst, out);
        } else if d.waiting && d.retries < self.cfg.max_preq_retries {
            self.pending.insert(dst, Discovery { retries: d.retries + 1, deadline: 0, ..d });
            self.request_preq(dst, false, now, out);
        } else {
            self.pending.remove(&dst);
            if d.waiting {
                out.push(HwmpAction::Unreachable { dst });
            }
        }
    }

    /// The root's proactive PREQ (13.10.9.2, target the broadcast address, TO and RF set,
    /// USN) or RANN (13.10.12.2); returns the interval to the next.
    fn announce_root(&mut self, now: SimTime, out: &mut Vec<HwmpAction>) -> SimDuration {
        let seq = self.next_seq();
        let (msg, every) = if self.cfg.root_mode == RootMode::Rann {
            let every = self.cfg.rann_interval_ns;
            let rann = Rann {
                hop_count: 0,
                ttl: self.cfg.max_ttl,
                root: self.me,
                seq,
                interval_tu: ns_to_tu(every),
                metric: 0,
            };
            (HwmpMsg::Rann(rann), every)
        } else {
            self.discovery_id = self.discovery_id.wrapping_add(1);
            self.last_preq_ns = Some(now);
            let preq = Preq {
                individual: false,
                proactive_prep: self.cfg.root_mode == RootMode::ProactivePreqWithPrep,
                hop_count: 0,
                ttl: self.cfg.max_ttl,
                discovery_id: self.discovery_id,
                orig: self.me,
                orig_seq: seq,
                lifetime_tu: ns_to_tu(self.cfg.active_root_timeout_ns),
                metric: 0,
                target: PreqTarget {
                    addr: NodeId::BROADCAST,
                    target_only: true,
                    reply_and_forward: true,
                    unknown_seq: true,
                    seq: 0,
                },
            };
            (HwmpMsg::Preq(preq), self.cfg.root_interval_ns)
        };
        out.push(HwmpAction::Send { msg, to: NodeId::BROADCAST });
        every.max(1)
    }
}

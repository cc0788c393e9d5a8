//! ns2: the request cycles of a source (dsragent.cc `getRouteForPacket`, run for each of the
//! node's own packets without a route: when it comes from the agent and at every
//! send-buffer check while it waits, check.rs).
//!
//! Each run asks, in ns-2's order: may a new cycle begin (`BackOffTest`, backoff.rs)? Then a
//! ring-zero request goes out. Else, if this cycle's ring-zero request went out more than
//! `arp_timeout` ago and no propagating one yet, the propagating request goes. Else nothing.
//! So the propagating request leaves at the first check (or new packet) more than 30 ms
//! after the ring-zero one, not 30 ms after it, and a cycle the backoff held back begins at
//! the first check (or new packet) once the backoff allows.

use super::{Discovery, DsrAction, DsrNode, NS2_ARP_TIMEOUT_NS};
use crate::engine::time::SimTime;
use crate::ids::NodeId;

impl DsrNode {
    /// `getRouteForPacket` for a packet of this node's own for `dst`, at `now`; the
    /// discovery waits for the next check at which it could send something.
    pub(super) fn ns2_get_route(
        &mut self,
        dst: NodeId,
        mut d: Discovery,
        now: SimTime,
        out: &mut Vec<DsrAction>,
    ) {
        if self.backoff.try_begin(dst, now) {
            d.requests += 1;
            d.ring_zero = true;
            d.arp_ns = now;
            self.send_rreq(dst, 1, now, out);
        } else if d.ring_zero && now - d.arp_ns > NS2_ARP_TIMEOUT_NS {
            d.ring_zero = false;
            self.send_rreq(dst, 255, now, out);
        }
        // The next instant a run could send: just past arp_timeout, or when the backoff
        // lets the next cycle begin (BackOffTest: `next + last_rt_req > time` holds it).
        let from = if d.ring_zero {
            d.arp_ns + NS2_ARP_TIMEOUT_NS
        } else {
            self.backoff.next_ns(dst).saturating_sub(1)
        };
        d.deadline = self.checks.first_after(from.max(now), now);
        self.pending.insert(dst, d);
        out.push(DsrAction::Timer { dst, at: d.deadline });
    }

    /// ns2: a check came for `dst` (`waiting`: packets still wait for it here).
    pub(super) fn ns2_on_timer(
        &mut self,
        dst: NodeId,
        d: Discovery,
        now: SimTime,
        waiting: bool,
        out: &mut Vec<DsrAction>,
    ) {
        if d.salvage {
            self.salvage_check(dst, now, waiting, out);
        } else if waiting {
            self.ns2_get_route(dst, d, now, out);
        }
        // With nothing waiting the discovery ends here, its backoff kept: requests go out
        // only for packets in the send buffer; those time out after 30 s (route_wait.rs).
    }
}

#[cfg(test)]
mod tests {
    use super::super::check::{after, checks_of};
    use super::super::{DsrConfig, DsrMsg};
    use super::*;

    const MS: u64 = 1_000_000;

    fn source() -> DsrNode {
        DsrNode::new(NodeId(0), DsrConfig { ns2: true, seed: 4, ..DsrConfig::default() })
    }

    /// The requests in `out` (instant, TTL) and the timer armed, if any.
    fn drain(out: &mut Vec<DsrAction>, at: u64, sent: &mut Vec<(u64, u8)>) -> Option<u64> {
        let mut timer = None;
        for a in out.drain(..) {
            match a {
                DsrAction::Flood { msg: DsrMsg::Rreq { ttl, .. }, jitter_ns } => {
                    assert_eq!(jitter_ns, 10 * MS, "every request jittered (RREQ_JITTER)");
                    sent.push((at, ttl));
                }
                DsrAction::Timer { at, .. } => timer = Some(at),
                _ => {}
            }
        }
        timer
    }

    // getRouteForPacket at the send-buffer checks (c(t): the first check after t):
    //   0                ring zero (TTL 1): BackOffTest lets cycle 1 begin
    //   c(30 ms)         the propagating request: the first check more than arp_timeout on
    //   c(2 s - 1 ns)    cycle 2 (0.5 s x 4 after cycle 1): ring zero, then c(+30 ms) propagating
    //   c(cycle 2 + 8 s) cycle 3, and so on (10 s apart from then on)
    #[test]
    fn ns2_cycles_run_at_the_send_buffer_checks() {
        let checks = checks_of(4, 0, 40_000 * MS);
        let mut n = source();
        let (mut out, mut sent) = (vec![], vec![]);
        n.discover(NodeId(9), 0, &mut out);
        let mut at = 0;
        while let Some(next) = drain(&mut out, at, &mut sent) {
            if sent.len() >= 6 {
                break;
            }
            at = next;
            n.on_timer(NodeId(9), at, true, &mut out);
        }
        let c2 = after(&checks, 2000 * MS - 1);
        let c3 = after(&checks, c2 + 8000 * MS - 1);
        let want = [
            (0, 1),
            (after(&checks, 30 * MS), 255),
            (c2, 1),
            (after(&checks, c2 + 30 * MS), 255),
            (c3, 1),
            (after(&checks, c3 + 30 * MS), 255),
        ];
        assert_eq!(sent, want);
        // Each wait is the rule's wait plus less than one 60 ms gap between checks.
        assert!((30 * MS..90 * MS).contains(&sent[1].0), "{sent:?}");
        assert!((2000 * MS..2060 * MS).contains(&c2));
        assert!((c2 + 8000 * MS..c2 + 8060 * MS).contains(&c3));
    }

    // A new packet of the node's own runs getRouteForPacket at once (dsragent.cc `recv` ->
    // `handlePktWithoutSR(p, false)`):
    //   0        ring zero
    //   20 ms    a packet: within arp_timeout, nothing
    //   31 ms    a packet (before the first check after 30 ms): the propagating request now
    //   1 s      a packet: the backoff holds cycle 2 until 2 s; nothing
    //   2.001 s  a packet: cycle 2 at once, though no check came yet
    #[test]
    fn ns2_a_new_packet_asks_at_once_when_the_rules_allow() {
        let checks = checks_of(4, 0, 3000 * MS);
        let mut n = source();
        let (mut out, mut sent) = (vec![], vec![]);
        n.discover(NodeId(9), 0, &mut out);
        let first = drain(&mut out, 0, &mut sent);
        assert_eq!(first, Some(after(&checks, 30 * MS)));
        assert!(first.unwrap() > 31 * MS, "seed 4: no check in (30, 31] ms");
        for t in [20 * MS, 31 * MS, 1000 * MS, 2001 * MS] {
            n.discover(NodeId(9), t, &mut out);
            drain(&mut out, t, &mut sent);
        }
        assert_eq!(sent, [(0, 1), (31 * MS, 255), (2001 * MS, 1)]);
        // The timer armed before a packet moved things on finds nothing due.
        n.on_timer(NodeId(9), first.unwrap(), true, &mut out);
        assert!(drain(&mut out, first.unwrap(), &mut sent).is_none() && sent.len() == 3);
    }
}

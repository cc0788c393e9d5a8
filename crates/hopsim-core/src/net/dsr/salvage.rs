//! ns2: what a forwarder asks for the packets it kept in its send buffer, having no cached
//! route to salvage them with (dsragent.cc `undeliverablePkt` under NEW_SALVAGE_LOGIC,
//! `dsr_salvage_max_requests` 1, `dsr_salvage_allow_propagating` 0).
//!
//! Nothing is asked when a packet goes into the buffer. ns-2's send-buffer check
//! (`sendBufferCheck`, every 30-60 ms, check.rs) runs each waiting
//! packet through `getRouteForPacket`, whose `BackOffTest` lets one request cycle for the
//! destination begin per backoff period (backoff.rs). The cycle that brings the count to 1
//! sends a ring-zero request; a later one (the count above `dsr_salvage_max_requests`) drops
//! that packet instead (`DROP_RTR_NO_ROUTE`) and asks nothing. The count is cleared only by a
//! reply to this node (`acceptRouteReply`): a forwarder whose ring-zero went unanswered drops
//! one waiting packet at the first check of each later period (2 s, 8 s, then every 10 s),
//! at once when that period has long passed; the others wait for a cached route (from a
//! passing source route, a snooped reply) or the 30 s timeout.

use super::{Discovery, DsrAction, DsrNode};
use crate::engine::time::SimTime;
use crate::ids::NodeId;

/// dsragent.cc `dsr_salvage_max_requests`: request cycles a forwarder may begin for a
/// destination before it drops instead.
const NS2_SALVAGE_MAX_REQUESTS: u32 = 1;

impl DsrNode {
    /// ns2: a forwarder keeps a packet for `dst` in its send buffer (no cached route).
    pub fn discover_for_salvage(&mut self, dst: NodeId, now: SimTime, out: &mut Vec<DsrAction>) {
        if !self.pending.contains_key(&dst) {
            self.arm_salvage_check(dst, now, out);
        }
    }

    /// The first send-buffer check at which the backoff lets a cycle for `dst` begin.
    fn arm_salvage_check(&mut self, dst: NodeId, now: SimTime, out: &mut Vec<DsrAction>) {
        // BackOffTest lets a cycle begin from `next_ns` on (check.rs: the checks).
        let from = self.backoff.next_ns(dst).saturating_sub(1).max(now);
        let at = self.checks.first_after(from, now);
        let d = Discovery {
            backoff_ns: 0,
            requests: 0,
            deadline: at,
            ring_zero: false,
            arp_ns: 0,
            salvage: true,
            release_check: false,
            resume_ns: 0,
        };
        self.pending.insert(dst, d);
        out.push(DsrAction::Timer { dst, at });
    }

    /// ns2: that check came (no route cached meanwhile); `waiting`: packets for `dst` still
    /// wait here. With none, nothing more is asked (the count is kept).
    pub(super) fn salvage_check(
        &mut self,
        dst: NodeId,
        now: SimTime,
        waiting: bool,
        out: &mut Vec<DsrAction>,
    ) {
        if !waiting {
            return;
        }
        if self.backoff.try_begin(dst, now) {
            if self.backoff.outstanding(dst) > NS2_SALVAGE_MAX_REQUESTS {
                out.push(DsrAction::DropOldest { dst });
            } else {
                self.send_rreq(dst, 1, now, out); // ring zero
            }
        }
        self.arm_salvage_check(dst, now, out);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{DsrConfig, DsrMsg, SrcRoute};
    use super::*;

    const MS: u64 = 1_000_000;

    fn forwarder() -> DsrNode {
        DsrNode::new(NodeId(2), DsrConfig { ns2: true, seed: 5, ..DsrConfig::default() })
    }

    /// What a check asks (ring zero or a drop) and when the next check comes.
    fn check(n: &mut DsrNode, at: u64, waiting: bool) -> (Vec<DsrAction>, Option<u64>) {
        let mut out = vec![];
        n.on_timer(NodeId(9), at, waiting, &mut out);
        let next = out.iter().find_map(|a| match a {
            DsrAction::Timer { at, .. } => Some(*at),
            _ => None,
        });
        out.retain(|a| !matches!(a, DsrAction::Timer { .. }));
        (out, next)
    }

    fn is_ring_zero(out: &[DsrAction]) -> bool {
        matches!(out, [DsrAction::Flood { msg: DsrMsg::Rreq { ttl: 1, .. }, .. }])
    }

    // dsragent.cc undeliverablePkt -> stickPacketInSendBuffer; sendBufferCheck ->
    // getRouteForPacket -> BackOffTest (0.5 s x 4^n, at most 10 s); dsr_salvage_max_requests 1.
    //   0          a packet for 9 is kept: nothing asked; the first check within 60 ms
    //   c1         cycle 1: a ring-zero request; the next cycle 2 s after c1
    //   c2 >= c1+2 s, the packet still waits: cycle 2 drops it and asks nothing; next 8 s on
    //   c3 >= c2+8 s, nothing waits: nothing; the discovery ends, the count kept
    //   40 s       a packet is kept: its period long over, the first check drops it
    //   a reply for 9 clears the count: the next packet gets a ring-zero request again
    #[test]
    fn ns2_a_forwarder_asks_its_neighbours_once_then_drops_one_packet_per_period() {
        let mut n = forwarder();
        let mut out = vec![];
        n.discover_for_salvage(NodeId(9), 0, &mut out);
        let [DsrAction::Timer { at: c1, .. }] = out[..] else { panic!("{out:?}") };
        assert!(c1 < 60 * MS, "the first check comes within 2 x BUFFER_CHECK: {c1}");
        let (asked, c2) = check(&mut n, c1, true);
        assert!(is_ring_zero(&asked), "{asked:?}");
        let c2 = c2.unwrap();
        assert!((c1 + 2000 * MS..c1 + 2060 * MS).contains(&c2), "{c2}");
        let (asked, c3) = check(&mut n, c2, true);
        assert_eq!(asked, vec![DsrAction::DropOldest { dst: NodeId(9) }]);
        let c3 = c3.unwrap();
        assert!((c2 + 8000 * MS..c2 + 8060 * MS).contains(&c3), "{c3}");
        assert_eq!(check(&mut n, c3, false), (vec![], None), "nothing waits: the end");
        out.clear();
        n.discover_for_salvage(NodeId(9), 40_000 * MS, &mut out);
        let [DsrAction::Timer { at: c4, .. }] = out[..] else { panic!("{out:?}") };
        assert!((40_000 * MS..40_060 * MS).contains(&c4));
        let (asked, _) = check(&mut n, c4, true);
        assert_eq!(asked, vec![DsrAction::DropOldest { dst: NodeId(9) }], "no request");
        // acceptRouteReply: the count is cleared (and the waiting packets go).
        let reply = DsrMsg::Rrep { route: SrcRoute::from_slice(&[NodeId(2), NodeId(9)]).unwrap() };
        out.clear();
        n.receive_in_transit(reply, true, &mut out);
        assert_eq!(out, vec![DsrAction::RouteFound { dst: NodeId(9), reply: true }]);
        n.remove_link(NodeId(2), NodeId(9));
        out.clear();
        n.discover_for_salvage(NodeId(9), 50_000 * MS, &mut out);
        let [DsrAction::Timer { at: c5, .. }] = out[..] else { panic!("{out:?}") };
        assert!(is_ring_zero(&check(&mut n, c5, true).0), "a fresh cycle asks again");
    }
}

//! Link breaks (RFC 3561 6.11; ns-2 `handle_link_failure`, `rt_resolve` where the ns2 profile
//! follows them): the routes through a lost neighbour go down and RERRs report them.

use super::*;
use crate::ids::NodeId;

impl AodvNode {
    /// The MAC gave up on `next_hop` (6.11 case i): every route through it breaks; RERRs go to
    /// the precursors. Returns nothing when no valid route used that neighbour.
    pub fn link_failed(&mut self, next_hop: NodeId, out: &mut Vec<AodvAction>) {
        let ns2 = self.cfg.ns2;
        // Walk in any order: it only edits each route's own precursors and lists the broken
        // routes, which are then sorted so that the RERRs go in destination order.
        let mut broken = std::mem::take(&mut self.scratch_dsts);
        broken.clear();
        for (&dst, r) in self.routes.iter_mut() {
            if r.valid && r.next_hop == next_hop {
                broken.push(dst);
            }
            if ns2 {
                // ns-2 pc_delete(id). Before the RERR below is decided: with ns2 the RERR
                // does not depend on the precursors.
                r.precursors.retain(|&p| p != next_hop);
            }
        }
        broken.sort_unstable();
        for &dst in &broken {
            let r = self.routes.get_mut(&dst).expect("listed above");
            r.valid = false;
            r.last_hop_count = r.hops; // ns-2 rt_down
            r.seq = r.seq.wrapping_add(1);
            // ns-2 handle_link_failure sends its RERR whether or not anyone used the route.
            if ns2 || !r.precursors.is_empty() {
                out.push(AodvAction::Send {
                    msg: AodvMsg::Rerr { dst, dst_seq: r.seq },
                    to: NodeId::BROADCAST,
                    delay_ns: 0,
                });
            }
        }
        self.scratch_dsts = broken;
    }

    /// A data packet for `dst` cannot be forwarded here (6.11 case ii): report it upstream.
    pub fn no_route_for_forwarding(&mut self, dst: NodeId, out: &mut Vec<AodvAction>) {
        let seq = self.routes.get(&dst).map_or(0, |r| r.seq);
        out.push(AodvAction::Send {
            msg: AodvMsg::Rerr { dst, dst_seq: seq },
            to: NodeId::BROADCAST,
            delay_ns: 0,
        });
    }
}

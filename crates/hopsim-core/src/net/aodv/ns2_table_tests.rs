//! The ns2 profile's route table over time, written from ns-2.35 aodv.cc: `rt_purge`'s 0.5 s
//! tick, the lifetimes of `recvRequest`, `sendReply` and `forward`, the intermediate reply,
//! the request's highest sequence number, precursors, and the `LocalRepairTimer`.
//!
//! Chain used below: 0 - 1 - 2 - 3 - 4 - 5.
use super::ns2_tests::{ns2_node, timers};
use super::*;

const MS: u64 = 1_000_000;
const S: u64 = 1_000 * MS;

fn sent(out: &[AodvAction]) -> Vec<AodvMsg> {
    out.iter()
        .filter_map(|a| match a {
            AodvAction::Send { msg, .. } => Some(*msg),
            _ => None,
        })
        .collect()
}

fn rreq(dst: u32, dst_seq: u32, orig: u32, orig_seq: u32, hops: u8) -> AodvMsg {
    rreq_id(1, dst, dst_seq, orig, orig_seq, hops)
}

fn rreq_id(id: u32, dst: u32, dst_seq: u32, orig: u32, orig_seq: u32, hops: u8) -> AodvMsg {
    AodvMsg::Rreq {
        id,
        dst: NodeId(dst),
        dst_seq,
        unknown_seq: false,
        orig: NodeId(orig),
        orig_seq,
        hops,
        ttl: 30,
    }
}

#[test]
fn an_expired_route_serves_until_the_purge_tick_then_goes_down_one_number_higher() {
    // Timeline (s):  10.0 tick   10.2 expiry   10.4 used   10.5 tick   10.6 looked at
    let mut n = ns2_node(2);
    n.update(NodeId(5), NodeId(3), 3, Some(4), 10_200 * MS, 0);
    n.update(NodeId(0), NodeId(1), 2, Some(6), 10_200 * MS, 0);
    // rt_resolve uses an up route whatever its expiry; forward sets now + 10 s.
    assert_eq!(n.next_hop(NodeId(5), 10_400 * MS), Some(NodeId(3)));
    assert_eq!(n.routes[&NodeId(5)].expires_ns, 20_400 * MS);
    assert_eq!(n.route(NodeId(0), 10_400 * MS), Some(NodeId(1)), "up until the 10.5 s tick");
    // The 10.5 s tick found the unused one expired: down, number + 1, no RERR.
    assert_eq!(n.route(NodeId(0), 10_600 * MS), None);
    assert_eq!(n.next_hop(NodeId(0), 10_600 * MS), None);
    let r = &n.routes[&NodeId(0)];
    assert_eq!((r.seq, r.last_hop_count), (7, 2));
    assert_eq!(n.next_hop(NodeId(5), 10_600 * MS), Some(NodeId(3)), "the used one stays");
}

#[test]
fn a_reverse_route_lives_six_seconds_or_ten_when_it_ends_a_discovery() {
    let mut n = ns2_node(2);
    let mut out = vec![];
    n.receive(rreq(5, 0, 0, 3, 1), NodeId(1), S, &mut out);
    let r = &n.routes[&NodeId(0)];
    assert_eq!((r.next_hop, r.hops, r.expires_ns), (NodeId(1), 2, 7 * S), "REV_ROUTE_LIFE 6 s");
    assert!(!n.routes.contains_key(&NodeId(1)), "no route to the neighbour it came from");
    // The same request number over fewer hops would replace it; over more it does not, but
    // the expiry still moves to now + 6 s.
    let mut out = vec![];
    n.receive(rreq_id(2, 5, 0, 0, 3, 3), NodeId(3), 3 * S, &mut out);
    let r = &n.routes[&NodeId(0)];
    assert_eq!((r.next_hop, r.expires_ns), (NodeId(1), 9 * S));
    // Node 2 looks for 0 itself; a newer request from 0 ends that discovery: expiry now +
    // ACTIVE_ROUTE_TIMEOUT, and what waits for 0 goes.
    let mut m = ns2_node(2);
    m.discover(NodeId(0), 0, &mut vec![]);
    let mut out = vec![];
    m.receive(rreq(5, 0, 0, 3, 1), NodeId(1), S, &mut out);
    assert!(out.contains(&AodvAction::ReverseRoute { dst: NodeId(0) }), "sent at once");
    assert_eq!(m.routes[&NodeId(0)].expires_ns, 11 * S);
    assert!(!m.pending.contains_key(&NodeId(0)));
}

#[test]
fn the_destination_replies_for_ten_seconds_and_a_relay_in_whole_seconds_even_in_repair() {
    let mut dst = ns2_node(5);
    let mut out = vec![];
    dst.receive(rreq(5, 0, 0, 3, 4), NodeId(4), S, &mut out);
    assert!(matches!(sent(&out)[..], [AodvMsg::Rrep { lifetime_ns, .. }] if lifetime_ns == 10 * S));
    // Node 3's route to 5 expires at 9.7 s and goes into repair: it still answers (its hop
    // count is not infinite), with 9.7 - 1.0 = 8.7 s cut to 8 s.
    let mut n = ns2_node(3);
    n.update(NodeId(5), NodeId(4), 2, Some(6), 8_700 * MS, S);
    n.packet_failed(NodeId(4), NodeId(5), true, 3, S, &mut vec![]);
    assert!(n.repairing(NodeId(5)));
    let mut out = vec![];
    n.receive(rreq(5, 6, 1, 3, 0), NodeId(2), S, &mut out);
    let reply =
        AodvMsg::Rrep { dst: NodeId(5), dst_seq: 6, orig: NodeId(1), hops: 2, lifetime_ns: 8 * S };
    assert_eq!(sent(&out), vec![reply]);
    // A request asking for a newer number gets no answer; it goes on.
    let mut out = vec![];
    n.receive(rreq_id(9, 5, 8, 1, 4, 0), NodeId(2), S, &mut out);
    assert!(matches!(sent(&out)[..], [AodvMsg::Rreq { .. }]));
}

#[test]
fn a_forwarded_request_carries_the_highest_number_seen_on_the_way() {
    // Node 2's route to 5 broke (number 7, odd); a request asking for 4 leaves asking for 7,
    // so no relay with the old number 6 can answer it.
    let mut n = ns2_node(2);
    n.update(NodeId(5), NodeId(3), 3, Some(6), 100 * S, 0);
    n.link_failed(NodeId(3), &mut vec![]);
    let mut out = vec![];
    n.receive(rreq(5, 4, 0, 3, 1), NodeId(1), S, &mut out);
    assert!(matches!(sent(&out)[..], [AodvMsg::Rreq { dst_seq: 7, unknown_seq: false, .. }]));
    // The standard profile passes the request's own number on.
    let mut std = AodvNode::new(NodeId(2), AodvConfig::default());
    std.update(NodeId(5), NodeId(3), 3, Some(6), 100 * S, 0);
    std.link_failed(NodeId(3), &mut vec![]);
    let mut out = vec![];
    std.receive(rreq(5, 4, 0, 3, 1), NodeId(1), S, &mut out);
    assert!(matches!(sent(&out)[..], [AodvMsg::Rreq { dst_seq: 4, .. }]));
}

#[test]
fn a_forwarded_reply_gives_a_precursor_to_the_forward_route_only() {
    // Node 2 relays 5's reply to 0: the route to 5 learns precursor 1; the reverse route to 0
    // (the ACK path) gets none, so a break of it reaches no one upstream (recvError).
    let mut n = ns2_node(2);
    n.receive(rreq(5, 0, 0, 3, 1), NodeId(1), S, &mut vec![]);
    let rrep =
        AodvMsg::Rrep { dst: NodeId(5), dst_seq: 8, orig: NodeId(0), hops: 2, lifetime_ns: 10 * S };
    let mut out = vec![];
    n.receive(rrep, NodeId(3), S + 10 * MS, &mut out);
    assert!(matches!(sent(&out)[..], [AodvMsg::Rrep { .. }]));
    assert_eq!(n.routes[&NodeId(5)].precursors, vec![NodeId(1)]);
    assert!(n.routes[&NodeId(0)].precursors.is_empty());
    let mut out = vec![];
    n.receive(AodvMsg::Rerr { dst: NodeId(0), dst_seq: 5 }, NodeId(1), 2 * S, &mut out);
    assert!(sent(&out).is_empty(), "no precursor: the RERR stops here");
    assert_eq!(n.route(NodeId(0), 2 * S), None);
}

#[test]
fn the_local_repair_timer_fires_at_now_plus_an_absolute_time_and_takes_the_route_down() {
    // Timeline (s):  50.0 repair: RREQ (TTL 30, timeout 1.8 s -> rt_req_timeout = 51.8)
    //                101.8 LocalRepairTimer (50.0 + 51.8): rt_down
    let mut n = ns2_node(4);
    n.update(NodeId(5), NodeId(5), 1, Some(2), 1_000 * S, 0);
    let mut out = vec![];
    let fate = n.packet_failed(NodeId(5), NodeId(5), true, 4, 50 * S, &mut out);
    assert_eq!(fate, FailedPacket::Wait);
    assert_eq!(
        timers(&out),
        vec![52 * S, 101_800 * MS],
        "the request's tick, then the repair timer"
    );
    // In repair a neighbour's stale answer (same number, same hops) is ignored...
    let stale =
        AodvMsg::Rrep { dst: NodeId(5), dst_seq: 2, orig: NodeId(4), hops: 0, lifetime_ns: 10 * S };
    let mut out = vec![];
    n.receive(stale, NodeId(3), 60 * S, &mut out);
    assert!(out.is_empty());
    assert!(n.repairing(NodeId(5)));
    // ...no timer other than those asked for does anything...
    let mut out = vec![];
    n.on_timer(NodeId(5), 101 * S, false, &mut out);
    assert!(n.repairing(NodeId(5)) && out.is_empty());
    // ...and at 101.8 s the route goes down: the same answer is taken now.
    let mut out = vec![];
    n.on_timer(NodeId(5), 101_800 * MS, false, &mut out);
    assert!(out.is_empty() && !n.repairing(NodeId(5)));
    assert_eq!(n.routes[&NodeId(5)].last_hop_count, 1);
    let mut out = vec![];
    n.receive(stale, NodeId(3), 102 * S, &mut out);
    assert_eq!(out, vec![AodvAction::RouteFound { dst: NodeId(5) }]);
    assert_eq!(n.next_hop(NodeId(5), 102 * S), Some(NodeId(3)));
}

#[test]
fn the_purge_tick_asks_again_only_while_packets_wait() {
    let mut n = ns2_node(0);
    let mut out = vec![];
    n.discover(NodeId(9), 0, &mut out);
    // rt_purge sends a request only if rqueue holds a packet for the destination.
    let mut out = vec![];
    n.on_timer(NodeId(9), 2 * S, false, &mut out);
    assert!(out.is_empty());
    // A packet later asks at once: the timeout has passed.
    let mut out = vec![];
    n.discover(NodeId(9), 3 * S, &mut out);
    assert!(matches!(sent(&out)[..], [AodvMsg::Rreq { .. }]));
}

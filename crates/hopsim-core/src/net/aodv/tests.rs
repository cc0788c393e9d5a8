//! AODV packet handling, written from RFC 3561.
use super::*;

const MS: u64 = 1_000_000;

fn node(me: u32) -> AodvNode {
    AodvNode::new(NodeId(me), AodvConfig::default())
}

fn rreq(id: u32, orig: u32, orig_seq: u32, dst: u32, hops: u8, ttl: u8) -> AodvMsg {
    AodvMsg::Rreq {
        id,
        dst: NodeId(dst),
        dst_seq: 0,
        unknown_seq: true,
        orig: NodeId(orig),
        orig_seq,
        hops,
        ttl,
    }
}

#[test]
fn a_rreq_seen_twice_is_dropped_and_others_are_rebroadcast_with_jitter() {
    let mut n = node(1);
    let mut out = vec![];
    n.receive(rreq(7, 0, 1, 5, 0, 5), NodeId(0), 0, &mut out);
    assert_eq!(out.len(), 1);
    assert!(
        matches!(out[0], AodvAction::Send { to: NodeId::BROADCAST, delay_ns, msg: AodvMsg::Rreq { hops: 1, ttl: 4, .. } } if delay_ns > 0)
    );
    out.clear();
    n.receive(rreq(7, 0, 1, 5, 1, 4), NodeId(2), MS, &mut out);
    assert!(out.is_empty(), "same (originator, id): dropped");
    assert_eq!(n.next_hop(NodeId(0), MS), Some(NodeId(0)), "reverse route to the originator");
}

#[test]
fn destination_replies_and_the_reply_builds_the_forward_route() {
    let mut d = node(2);
    let mut out = vec![];
    d.receive(rreq(1, 0, 1, 2, 1, 5), NodeId(1), 0, &mut out);
    let AodvAction::Send { msg: rrep, to, .. } = out[0] else { panic!("{out:?}") };
    assert_eq!(to, NodeId(1), "unicast back to the previous hop");
    // The intermediate node forwards it to the originator and learns the route to 2.
    let mut m = node(1);
    let mut out = vec![];
    m.receive(rreq(1, 0, 1, 2, 0, 5), NodeId(0), 0, &mut out);
    out.clear();
    m.receive(rrep, NodeId(2), MS, &mut out);
    assert_eq!(
        out,
        vec![AodvAction::Send {
            msg: AodvMsg::Rrep {
                dst: NodeId(2),
                dst_seq: 0,
                orig: NodeId(0),
                hops: 1,
                lifetime_ns: 20_000 * MS
            },
            to: NodeId(0),
            delay_ns: 0
        }]
    );
    assert_eq!(m.next_hop(NodeId(2), MS), Some(NodeId(2)));
    // At the originator the discovery completes.
    let mut o = node(0);
    let mut out = vec![];
    o.discover(NodeId(2), 0, &mut out);
    out.clear();
    o.receive(
        AodvMsg::Rrep {
            dst: NodeId(2),
            dst_seq: 0,
            orig: NodeId(0),
            hops: 1,
            lifetime_ns: 20_000 * MS,
        },
        NodeId(1),
        2 * MS,
        &mut out,
    );
    assert_eq!(out, vec![AodvAction::RouteFound { dst: NodeId(2) }]);
    assert_eq!(o.next_hop(NodeId(2), 2 * MS), Some(NodeId(1)));
    assert_eq!(o.hops(NodeId(2)), Some(2));
}

#[test]
fn a_fresher_sequence_number_replaces_a_route_and_a_stale_one_does_not() {
    let mut n = node(0);
    n.update(NodeId(9), NodeId(1), 3, Some(5), 1000 * MS, 0);
    assert!(
        !n.update(NodeId(9), NodeId(2), 1, Some(4), 1000 * MS, 0),
        "older sequence number ignored"
    );
    assert_eq!(n.next_hop(NodeId(9), 0), Some(NodeId(1)));
    assert!(n.update(NodeId(9), NodeId(2), 6, Some(6), 1000 * MS, 0), "newer wins even if longer");
    assert_eq!(n.next_hop(NodeId(9), 0), Some(NodeId(2)));
    assert!(n.update(NodeId(9), NodeId(3), 2, Some(6), 1000 * MS, 0), "same number, fewer hops");
    assert_eq!(n.next_hop(NodeId(9), 0), Some(NodeId(3)));
    assert!(newer(0, u32::MAX), "rollover");
}

#[test]
fn a_link_failure_removes_routes_through_it_and_reports_to_precursors() {
    let mut n = node(1);
    n.update(NodeId(5), NodeId(2), 2, Some(3), 1000 * MS, 0);
    n.update(NodeId(6), NodeId(2), 3, Some(3), 1000 * MS, 0);
    n.update(NodeId(7), NodeId(9), 1, Some(3), 1000 * MS, 0);
    n.add_precursor(NodeId(5), NodeId(0));
    let mut out = vec![];
    n.link_failed(NodeId(2), &mut out);
    assert_eq!(n.next_hop(NodeId(5), 0), None);
    assert_eq!(n.next_hop(NodeId(6), 0), None);
    assert_eq!(n.next_hop(NodeId(7), 0), Some(NodeId(9)), "other routes stay");
    assert_eq!(
        out,
        vec![AodvAction::Send {
            msg: AodvMsg::Rerr { dst: NodeId(5), dst_seq: 4 },
            to: NodeId::BROADCAST,
            delay_ns: 0
        }],
        "RERR only where there are precursors"
    );
    // Upstream, the RERR invalidates the route through the reporter and propagates.
    let mut up = node(0);
    up.update(NodeId(5), NodeId(1), 3, Some(3), 1000 * MS, 0);
    up.add_precursor(NodeId(5), NodeId(8));
    let mut out = vec![];
    up.receive(AodvMsg::Rerr { dst: NodeId(5), dst_seq: 4 }, NodeId(1), 0, &mut out);
    assert_eq!(up.next_hop(NodeId(5), 0), None);
    assert_eq!(out.len(), 1);
}

#[test]
fn expanding_ring_then_retries_then_unreachable() {
    let mut n = node(0);
    let mut out = vec![];
    n.discover(NodeId(9), 0, &mut out);
    let mut ttls = vec![];
    loop {
        let mut next = None;
        for a in out.drain(..) {
            match a {
                AodvAction::Send { msg: AodvMsg::Rreq { ttl, .. }, .. } => ttls.push(ttl),
                AodvAction::Timer { at, .. } => next = Some(at),
                AodvAction::Unreachable { dst } => {
                    assert_eq!(dst, NodeId(9));
                    assert_eq!(ttls, vec![5, 7, 30, 30, 30, 30]);
                    return;
                }
                _ => {}
            }
        }
        let now = next.expect("a timer");
        n.on_timer(NodeId(9), now, true, &mut out);
    }
}

#[test]
fn a_used_route_lives_on_and_an_idle_one_expires() {
    let mut n = node(0);
    n.update(NodeId(4), NodeId(1), 1, Some(1), 1000 * MS, 0);
    assert_eq!(n.next_hop(NodeId(4), 900 * MS), Some(NodeId(1)), "use extends the lifetime");
    assert_eq!(n.next_hop(NodeId(4), 10_800 * MS), Some(NodeId(1)));
    assert_eq!(n.next_hop(NodeId(4), 30_000 * MS), None, "expired");
}

#[test]
fn hello_from_active_nodes_and_silent_next_hops_break() {
    let mut n = node(1);
    n.update(NodeId(5), NodeId(2), 2, Some(3), 1000 * MS, 0);
    n.add_precursor(NodeId(5), NodeId(0));
    n.heard(NodeId(2), 0);
    let mut out = vec![];
    n.hello(500 * MS, 1000 * MS, 2, &mut out);
    assert!(matches!(
        out[0],
        AodvAction::Send {
            to: NodeId::BROADCAST,
            msg: AodvMsg::Rrep { dst: NodeId(1), orig: NodeId(1), hops: 0, .. },
            ..
        }
    ));
    assert_eq!(n.next_hop(NodeId(5), 500 * MS), Some(NodeId(2)), "heard recently");
    out.clear();
    n.hello(2500 * MS, 1000 * MS, 2, &mut out);
    assert_eq!(n.next_hop(NodeId(5), 2500 * MS), None, "next hop silent for more than 2 intervals");
    assert!(out
        .iter()
        .any(|a| matches!(a, AodvAction::Send { msg: AodvMsg::Rerr { dst: NodeId(5), .. }, .. })));
    // A HELLO received makes a route to the neighbour and nothing else.
    let mut m = node(3);
    let mut out = vec![];
    let hello = AodvMsg::Rrep {
        dst: NodeId(4),
        dst_seq: 9,
        orig: NodeId(4),
        hops: 0,
        lifetime_ns: 2000 * MS,
    };
    m.receive(hello, NodeId(4), 0, &mut out);
    assert!(out.is_empty());
    assert_eq!(m.next_hop(NodeId(4), 0), Some(NodeId(4)));
}

#[test]
fn without_expanding_ring_the_first_request_floods_the_network() {
    let mut n =
        AodvNode::new(NodeId(0), AodvConfig { expanding_ring: false, ..AodvConfig::default() });
    let mut out = vec![];
    n.discover(NodeId(9), 0, &mut out);
    assert!(matches!(out[0], AodvAction::Send { msg: AodvMsg::Rreq { ttl: 30, .. }, .. }));
}

#[test]
fn a_route_learned_during_a_discovery_releases_the_waiting_packets() {
    let mut n = node(0);
    let mut out = vec![];
    n.discover(NodeId(5), 0, &mut out);
    let deadline = out.iter().find_map(|a| match a {
        AodvAction::Timer { at, .. } => Some(*at),
        _ => None,
    });
    out.clear();
    // Node 5's own RREQ passes by: a reverse route to 5 appears.
    n.receive(rreq(1, 5, 3, 8, 2, 5), NodeId(1), MS, &mut out);
    out.clear();
    n.on_timer(NodeId(5), deadline.unwrap(), true, &mut out);
    assert_eq!(out, vec![AodvAction::RouteFound { dst: NodeId(5) }]);
}

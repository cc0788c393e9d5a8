//! DSR packet handling, written from RFC 4728.

use super::*;
use crate::ids::node_ids;

fn route(nodes: &[u32]) -> SrcRoute {
    SrcRoute::from_slice(&node_ids(nodes)).unwrap()
}

#[test]
fn a_request_is_forwarded_once_with_this_node_appended() {
    let mut n = DsrNode::new(NodeId(2), DsrConfig::default());
    let mut out = vec![];
    let rreq =
        DsrMsg::Rreq { id: 1, target: NodeId(9), record: route(&[0, 1]), ttl: 255, err: None };
    n.receive_request(rreq, &mut out);
    assert_eq!(
        out,
        vec![DsrAction::Flood {
            msg: DsrMsg::Rreq {
                id: 1,
                target: NodeId(9),
                record: route(&[0, 1, 2]),
                ttl: 254,
                err: None
            },
            jitter_ns: 10_000_000
        }]
    );
    out.clear();
    n.receive_request(
        DsrMsg::Rreq { id: 1, target: NodeId(9), record: route(&[0, 3]), ttl: 255, err: None },
        &mut out,
    );
    assert!(out.is_empty(), "same request (originator, id) seen before");
    assert_eq!(n.route_to(NodeId(0)), Some(route(&[2, 1, 0])), "reverse route learned");
}

#[test]
fn the_target_replies_along_the_reversed_record() {
    let mut t = DsrNode::new(NodeId(3), DsrConfig::default());
    let mut out = vec![];
    t.receive_request(
        DsrMsg::Rreq { id: 4, target: NodeId(3), record: route(&[0, 1, 2]), ttl: 255, err: None },
        &mut out,
    );
    assert_eq!(
        out,
        vec![DsrAction::Unicast {
            msg: DsrMsg::Rrep { route: route(&[0, 1, 2, 3]) },
            route: route(&[3, 2, 1, 0])
        }]
    );
}

#[test]
fn a_cached_route_answers_without_a_new_discovery() {
    let mut src = DsrNode::new(NodeId(0), DsrConfig::default());
    let mut out = vec![];
    src.discover(NodeId(3), 0, &mut out);
    out.clear();
    src.receive_in_transit(DsrMsg::Rrep { route: route(&[0, 1, 2, 3]) }, true, &mut out);
    assert_eq!(out, vec![DsrAction::RouteFound { dst: NodeId(3), reply: true }]);
    assert_eq!(src.route_to(NodeId(3)), Some(route(&[0, 1, 2, 3])));
    assert_eq!(src.route_to(NodeId(2)), Some(route(&[0, 1, 2])), "prefixes serve too");
    // An intermediate node with a cached route replies for others:
    let mut mid = DsrNode::new(NodeId(1), DsrConfig::default());
    mid.learn(route(&[1, 2, 3]));
    let mut out = vec![];
    mid.receive_request(
        DsrMsg::Rreq { id: 7, target: NodeId(3), record: route(&[5]), ttl: 255, err: None },
        &mut out,
    );
    assert_eq!(
        out,
        vec![DsrAction::Unicast {
            msg: DsrMsg::Rrep { route: route(&[5, 1, 2, 3]) },
            route: route(&[1, 5])
        }]
    );
}

#[test]
fn a_route_error_removes_the_broken_link_from_the_cache() {
    let mut n = DsrNode::new(NodeId(0), DsrConfig::default());
    n.learn(route(&[0, 1, 2, 3, 4]));
    n.learn(route(&[0, 5, 6]));
    n.receive_in_transit(DsrMsg::Rerr { from: NodeId(2), to: NodeId(3) }, true, &mut vec![]);
    assert_eq!(n.route_to(NodeId(4)), None);
    assert_eq!(n.route_to(NodeId(2)), Some(route(&[0, 1, 2])), "the part before the link stays");
    assert_eq!(n.route_to(NodeId(6)), Some(route(&[0, 5, 6])));
}

#[test]
fn a_link_failure_reports_to_the_source_along_the_way_back() {
    let mut n = DsrNode::new(NodeId(2), DsrConfig::default());
    n.learn(route(&[2, 3, 4]));
    let mut out = vec![];
    let r = route(&[0, 1, 2, 3, 4]);
    n.link_failed(NodeId(3), Some((&r, 2)), &mut out);
    assert_eq!(
        out,
        vec![DsrAction::Unicast {
            msg: DsrMsg::Rerr { from: NodeId(2), to: NodeId(3) },
            route: route(&[2, 1, 0])
        }]
    );
    assert_eq!(n.route_to(NodeId(4)), None);
}

#[test]
fn discovery_backs_off_then_gives_up() {
    let cfg = DsrConfig { max_requests: 3, ..DsrConfig::default() };
    let mut n = DsrNode::new(NodeId(0), cfg);
    let mut out = vec![];
    n.discover(NodeId(9), 0, &mut out);
    let mut waits = vec![];
    let mut last = 0;
    loop {
        let mut next = None;
        for a in out.drain(..) {
            match a {
                DsrAction::Timer { at, .. } => next = Some(at),
                DsrAction::Unreachable { dst } => {
                    assert_eq!(dst, NodeId(9));
                    assert_eq!(waits, vec![500_000_000, 1_000_000_000, 2_000_000_000]);
                    return;
                }
                _ => {}
            }
        }
        let at = next.expect("timer");
        waits.push(at - last);
        last = at;
        n.on_timer(NodeId(9), at, true, &mut out);
    }
}

#[test]
fn routes_longer_than_sixteen_hops_are_not_built() {
    let long: Vec<NodeId> = (0..17).map(NodeId).collect();
    assert!(SrcRoute::from_slice(&long).is_some());
    let longer: Vec<NodeId> = (0..18).map(NodeId).collect();
    assert!(SrcRoute::from_slice(&longer).is_none());
}

// ns2 profile, written from ns-2.35 dsragent.cc and mobicache.cc.

fn ns2(me: u32) -> DsrNode {
    DsrNode::new(NodeId(me), DsrConfig { ns2: true, ..DsrConfig::default() })
}

#[test]
fn ns2_learns_forward_only() {
    // A forwarder (noticeRouteUsed) caches the part ahead; the requests it relays teach it
    // nothing; the end of a route learns nothing from the data it receives.
    let mut n = ns2(2);
    n.learn_from(&route(&[0, 1, 2, 3, 4]));
    assert_eq!(n.route_to(NodeId(4)), Some(route(&[2, 3, 4])));
    assert_eq!(n.route_to(NodeId(0)), None, "nothing about the part behind");
    let mut out = vec![];
    n.receive_request(
        DsrMsg::Rreq { id: 1, target: NodeId(9), record: route(&[5, 6]), ttl: 255, err: None },
        &mut out,
    );
    assert_eq!(n.route_to(NodeId(5)), None, "relayed requests are not snooped");
    let mut end = ns2(4);
    end.learn_from(&route(&[0, 1, 2, 3, 4]));
    assert_eq!(end.cached_routes(), 0);
    // The standard profile learns both ways.
    let mut std = DsrNode::new(NodeId(2), DsrConfig::default());
    std.learn_from(&route(&[0, 1, 2, 3, 4]));
    assert_eq!(std.route_to(NodeId(0)), Some(route(&[2, 1, 0])));
}

#[test]
fn ns2_target_answers_every_copy_and_keeps_the_way_back() {
    let mut t = ns2(3);
    let mut out = vec![];
    t.receive_request(
        DsrMsg::Rreq { id: 4, target: NodeId(3), record: route(&[0, 1, 2]), ttl: 255, err: None },
        &mut out,
    );
    t.receive_request(
        DsrMsg::Rreq { id: 4, target: NodeId(3), record: route(&[0, 5]), ttl: 255, err: None },
        &mut out,
    );
    assert_eq!(out.len(), 2, "both copies answered: {out:?}");
    assert_eq!(t.route_to(NodeId(0)), Some(route(&[3, 5, 0])), "the shorter way back");
}

#[test]
fn ns2_dead_links_are_removed_in_one_direction() {
    let mut n = ns2(0);
    n.learn(route(&[0, 1, 2, 3]));
    n.learn(route(&[0, 4, 2, 1, 5]));
    n.remove_link(NodeId(1), NodeId(2));
    assert_eq!(n.route_to(NodeId(3)), None, "0-1-2-3 cut before 1 -> 2");
    assert_eq!(n.route_to(NodeId(5)), Some(route(&[0, 4, 2, 1, 5])), "2 -> 1 still usable");
}

/// `route_to` is RFC 4728's shortest cached route, the first of the shortest in cache order:
/// checked against the plain definition over random caches with ties.
#[test]
fn route_to_is_the_first_shortest_cached_prefix() {
    let mut rng = crate::engine::rng::Rng::derive(7, crate::engine::rng::Purpose::Routing, 0);
    for _ in 0..300 {
        let mut n = DsrNode::new(NodeId(0), DsrConfig { cache_paths: 8, ..DsrConfig::default() });
        for _ in 0..12 {
            // Loop-free routes from node 0 over nodes 1..9.
            let mut nodes = vec![0u32];
            for _ in 0..1 + rng.up_to(5) {
                let next = 1 + rng.up_to(8);
                if !nodes.contains(&next) {
                    nodes.push(next);
                }
            }
            n.learn(route(&nodes));
        }
        for dst in 0..10 {
            let reference = n
                .cache
                .iter()
                .filter_map(|r| r.position(NodeId(dst)).map(|i| r.slice(0, i)))
                .filter(|r| r.len() > 1)
                .min_by_key(|r| r.len());
            assert_eq!(n.route_to(NodeId(dst)), reference, "dst {dst}, cache {:?}", n.cache);
        }
    }
}

fn overheard(r: &SrcRoute, from: u32, msg: Option<DsrMsg>) -> Overheard<'_> {
    Overheard { route: r, from: NodeId(from), src: r.get(0).unwrap(), msg }
}

#[test]
fn ns2_tap_off_the_route_learns_a_link_to_the_transmitter_and_the_rest() {
    // routecache.cc pre_noticeRouteUsed with cache_use_overheard_routes: 9 hears 1 -> 2.
    let mut n = ns2(9);
    let (r, mut out) = (route(&[0, 1, 2, 3]), vec![]);
    n.tap(overheard(&r, 1, None), 0, &mut out);
    assert!(out.is_empty());
    assert_eq!(n.route_to(NodeId(3)), Some(route(&[9, 1, 2, 3])));
    assert_eq!(n.route_to(NodeId(0)), None, "nothing is learned backwards");
    // The next hop itself ignores the tap ("packets I'm about to receive anyway").
    let mut next = ns2(2);
    next.tap(overheard(&r, 1, None), 0, &mut out);
    assert_eq!(next.cached_routes(), 0);
    // A request's route (index 0) teaches nothing.
    let mut m = ns2(8);
    let rreq = DsrMsg::Rreq { id: 1, target: NodeId(3), record: route(&[0, 1]), ttl: 9, err: None };
    m.tap(overheard(&route(&[0, 1]), 0, Some(rreq)), 0, &mut out);
    assert_eq!(m.cached_routes(), 0);
}

#[test]
fn ns2_tap_applies_overheard_errors() {
    let mut n = ns2(9);
    n.learn(route(&[9, 1, 2, 3]));
    let (r, mut out) = (route(&[2, 1, 0]), vec![]);
    n.tap(overheard(&r, 2, Some(DsrMsg::Rerr { from: NodeId(2), to: NodeId(3) })), 0, &mut out);
    assert_eq!(n.route_to(NodeId(3)), None);
    assert_eq!(n.route_to(NodeId(1)), Some(route(&[9, 1])), "the rest is kept");
    assert_eq!(n.route_to(NodeId(0)), Some(route(&[9, 2, 1, 0])), "the error's route snooped");
}

#[test]
fn ns2_a_node_further_on_the_route_sends_the_originator_a_shorter_route() {
    // dsragent.cc sendRouteShortening: 3 hears 1 send to 2; the route can skip 2.
    let mut n = ns2(3);
    let (r, mut out) = (route(&[0, 1, 2, 3, 4]), vec![]);
    let t0 = 100_000_000_000;
    n.tap(overheard(&r, 1, None), t0, &mut out);
    let grat = DsrAction::Unicast {
        msg: DsrMsg::Rrep { route: route(&[0, 1, 3, 4]) },
        route: route(&[3, 1, 0]),
    };
    assert_eq!(out, vec![grat]);
    assert_eq!(n.route_to(NodeId(0)), Some(route(&[3, 1, 0])), "the way back is cached");
    // No shortening for routing packets, nor by a node behind the receiver.
    out.clear();
    let rrep = DsrMsg::Rrep { route: route(&[0, 1, 2, 3, 4]) };
    let mut m = ns2(3);
    m.tap(overheard(&r, 1, Some(rrep)), t0, &mut out);
    m.tap(overheard(&route(&[0, 3, 1, 2]), 1, None), t0, &mut out);
    assert!(out.is_empty());
    assert_eq!(m.route_to(NodeId(4)), Some(route(&[3, 4])), "the reply is snooped");
}

#[test]
fn ns2_gratuitous_replies_keep_ns2s_hold_down() {
    // A new route's time is stamped on the next slot (ns-2.35's victim index moves first):
    // the second hearing still replies; then 1 s of hold-down.
    let mut n = ns2(3);
    let (r, mut out) = (route(&[0, 1, 2, 3]), vec![]);
    let s = 1_000_000_000;
    for (t, replies) in [(100 * s, 1), (100 * s + s / 10, 2), (100 * s + s / 5, 2), (102 * s, 3)] {
        n.tap(overheard(&r, 1, None), t, &mut out);
        assert_eq!(out.len(), replies, "at {t} ns");
    }
}

#[test]
fn ns2_flow_state_carries_the_route_on_three_packets_then_every_five_seconds() {
    // dsragent.cc sendOutPacketWithRoute: a new flow, END_TO_END_COUNT (2) more, then the
    // route again once min_adv_interval (5 s) has passed; hdr_sr::size 4 + 4 (n - 1) + 4 + 4.
    let mut n = ns2(0);
    let (r, s) = (route(&[0, 1, 2]), 1_000_000_000);
    let carried: Vec<bool> =
        [0, 1, 2, 3, 4].iter().map(|&i| n.flow_send(NodeId(2), r, i).carried).collect();
    assert_eq!(carried, vec![true, true, true, false, false]);
    let established = n.flow_send(NodeId(2), r, s);
    assert_eq!((established.carried, established.header_bytes), (false, 0), "default flow: 0 B");
    let again = n.flow_send(NodeId(2), r, 5 * s + 3); // the last carried one left at 2 ns
    assert_eq!((again.carried, again.header_bytes), (true, 20));
    assert!(!n.flow_send(NodeId(2), r, 5 * s + 4).carried);
    // A flow unused for 60 s starts again.
    assert!(n.flow_send(NodeId(2), r, 70 * s).carried);
}

#[test]
fn ns2_flow_state_prefers_the_default_flow_and_a_dead_link_ends_it() {
    let mut n = ns2(0);
    let (long, other) = (route(&[0, 1, 2, 3]), route(&[0, 4, 5, 3]));
    for t in 0..4 {
        n.flow_send(NodeId(3), long, t);
    }
    // As long, another route: the default flow's route is kept (no new flow, not carried).
    let f = n.flow_send(NodeId(3), other, 10);
    assert_eq!((f.route, f.carried), (long, false));
    // Shorter: a new flow, which becomes the default.
    let short = route(&[0, 6, 3]);
    let f = n.flow_send(NodeId(3), short, 11);
    assert_eq!((f.route, f.carried), (short, true));
    for t in 12..14 {
        n.flow_send(NodeId(3), short, t);
    }
    assert_eq!(n.flow_send(NodeId(3), short, 14).header_bytes, 0);
    let f = n.flow_send(NodeId(3), long, 15);
    assert_eq!((f.route, f.carried, f.header_bytes), (short, false, 0), "default preferred");
    // flowstruct.cc noticeDeadLink: a route error over 6 -> 3 ends the default flow; the old
    // flow is established but not the default: 8 B (SR_HDR_SZ and the flow header).
    n.remove_link(NodeId(6), NodeId(3));
    let f = n.flow_send(NodeId(3), long, 16);
    assert_eq!((f.route, f.carried, f.header_bytes), (long, false, 8));
    let f = n.flow_send(NodeId(3), other, 17);
    assert_eq!((f.route, f.carried), (other, true), "the dead default is not preferred");
}

#[test]
fn ns2_a_received_route_error_rides_on_the_next_requests_and_cleans_their_receivers() {
    // dsragent.cc processBrokenRouteError (route_error_held), sendOutRtReq (max_err_hold 1 s,
    // used up by a propagating request), recv (dsragent_snoop_forwarded_errors).
    let s = 1_000_000_000;
    let mut src = ns2(0);
    src.hold_error(NodeId(4), NodeId(5), 10 * s);
    let mut out = vec![];
    let errs = |out: &[DsrAction]| -> Vec<_> {
        out.iter()
            .filter_map(|a| match a {
                DsrAction::Flood { msg: DsrMsg::Rreq { err, ttl, .. }, .. } => Some((*ttl, *err)),
                _ => None,
            })
            .collect()
    };
    src.discover(NodeId(9), 10 * s + s / 2, &mut out); // ring zero: keeps it
    let check = out.iter().find_map(|a| match a {
        DsrAction::Timer { at, .. } => Some(*at),
        _ => None,
    });
    src.on_timer(NodeId(9), check.unwrap(), true, &mut out); // propagating
    let link = Some((NodeId(4), NodeId(5)));
    assert_eq!(errs(&out), vec![(1, link), (255, link)]);
    assert_eq!(
        DsrMsg::Rreq { id: 1, target: NodeId(9), record: route(&[0]), ttl: 1, err: link }.bytes(),
        4 + 8 + 4 + 16
    );
    out.clear();
    src.discover(NodeId(8), 10 * s + s / 2 + 2 * NS2_ARP_TIMEOUT_NS, &mut out);
    assert_eq!(errs(&out), vec![(1, None)], "used up");
    // Held too long: not sent.
    let mut late = ns2(0);
    late.hold_error(NodeId(4), NodeId(5), 0);
    late.discover(NodeId(9), s, &mut out);
    assert_eq!(errs(&out)[1], (1, None));
    // Every receiver, even of a copy it ignores, forgets the link, and so cannot answer
    // from its cache over it; a forwarded request keeps the error.
    let mut mid = ns2(3);
    mid.learn(route(&[3, 4, 5, 9]));
    let rreq = DsrMsg::Rreq { id: 2, target: NodeId(9), record: route(&[0]), ttl: 255, err: link };
    out.clear();
    mid.receive_request(rreq, &mut out);
    assert_eq!(mid.route_to(NodeId(9)), None);
    assert_eq!(errs(&out), vec![(254, link)]);
}

#[test]
fn ns2_waiting_packets_leave_at_the_next_check_once_any_route_is_cached() {
    // dsragent.cc sendBufferCheck retries the send buffer from the cache every BUFFER_CHECK x
    // (1 + U(0, 1)): a route overheard while a discovery runs releases the packets without a
    // reply, at the next check, if the route is still cached then (c_k: a check, check.rs).
    //   c_k - 20 ms   discovery (ring zero; the propagating request due at c_k+1)
    //   c_k - 19 ms   a route to 3 is overheard: the next check is c_k
    //   c_k           released if still cached; if gone, the discovery goes on at c_k+1
    use super::check::checks_of;
    const MS: u64 = 1_000_000;
    let checks = checks_of(0, 9, 1000 * MS);
    let k = checks.iter().position(|&c| c > 200 * MS).unwrap();
    let (ck, next) = (checks[k], checks[k + 1]);
    for gone in [false, true] {
        let mut n = ns2(9);
        let mut out = vec![];
        n.discover(NodeId(3), ck - 20 * MS, &mut out);
        assert!(out.contains(&DsrAction::Timer { dst: NodeId(3), at: next }), "{out:?}");
        out.clear();
        n.release_cached(ck - 20 * MS, &mut out);
        assert!(out.is_empty(), "nothing cached yet");
        let r = route(&[0, 1, 2, 3]);
        n.tap(overheard(&r, 1, None), ck - 19 * MS, &mut out);
        n.release_cached(ck - 19 * MS, &mut out);
        assert_eq!(out, vec![DsrAction::Timer { dst: NodeId(3), at: ck }], "the next check");
        out.clear();
        if gone {
            n.remove_link(NodeId(1), NodeId(2));
        }
        n.on_timer(NodeId(3), ck, true, &mut out);
        if gone {
            let resumed = DsrAction::Timer { dst: NodeId(3), at: next };
            assert_eq!(out, vec![resumed], "no route: its own timer again");
            out.clear();
            n.on_timer(NodeId(3), next, true, &mut out);
            assert!(
                out.iter().any(|a| matches!(
                    a,
                    DsrAction::Flood { msg: DsrMsg::Rreq { ttl: 255, .. }, .. }
                )),
                "the propagating request at its own time: {out:?}"
            );
        } else {
            assert_eq!(out, vec![DsrAction::RouteFound { dst: NodeId(3), reply: false }]);
        }
    }
    // The standard profile waits for its reply or timer.
    let mut out = vec![];
    let mut std = DsrNode::new(NodeId(9), DsrConfig::default());
    std.discover(NodeId(3), 0, &mut out);
    std.learn(route(&[9, 1, 2, 3]));
    out.clear();
    std.release_cached(0, &mut out);
    assert!(out.is_empty());
}

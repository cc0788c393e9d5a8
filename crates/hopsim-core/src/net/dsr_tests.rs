//! DSR packet handling, written from RFC 4728.

use super::*;

fn route(nodes: &[u32]) -> SrcRoute {
    SrcRoute::from_slice(nodes).unwrap()
}

#[test]
fn a_request_is_forwarded_once_with_this_node_appended() {
    let mut n = DsrNode::new(2, DsrConfig::default());
    let mut out = vec![];
    let rreq = DsrMsg::Rreq { id: 1, target: 9, record: route(&[0, 1]), ttl: 255 };
    n.receive_request(rreq, &mut out);
    assert_eq!(
        out,
        vec![DsrAction::Flood {
            msg: DsrMsg::Rreq { id: 1, target: 9, record: route(&[0, 1, 2]), ttl: 254 },
            jitter_ns: 10_000_000
        }]
    );
    out.clear();
    n.receive_request(
        DsrMsg::Rreq { id: 1, target: 9, record: route(&[0, 3]), ttl: 255 },
        &mut out,
    );
    assert!(out.is_empty(), "same request (originator, id) seen before");
    assert_eq!(n.route_to(0), Some(route(&[2, 1, 0])), "reverse route learned");
}

#[test]
fn the_target_replies_along_the_reversed_record() {
    let mut t = DsrNode::new(3, DsrConfig::default());
    let mut out = vec![];
    t.receive_request(
        DsrMsg::Rreq { id: 4, target: 3, record: route(&[0, 1, 2]), ttl: 255 },
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
    let mut src = DsrNode::new(0, DsrConfig::default());
    let mut out = vec![];
    src.discover(3, 0, &mut out);
    out.clear();
    src.receive_in_transit(DsrMsg::Rrep { route: route(&[0, 1, 2, 3]) }, true, &mut out);
    assert_eq!(out, vec![DsrAction::RouteFound { dst: 3 }]);
    assert_eq!(src.route_to(3), Some(route(&[0, 1, 2, 3])));
    assert_eq!(src.route_to(2), Some(route(&[0, 1, 2])), "prefixes serve too");
    // An intermediate node with a cached route replies for others:
    let mut mid = DsrNode::new(1, DsrConfig::default());
    mid.learn(route(&[1, 2, 3]));
    let mut out = vec![];
    mid.receive_request(DsrMsg::Rreq { id: 7, target: 3, record: route(&[5]), ttl: 255 }, &mut out);
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
    let mut n = DsrNode::new(0, DsrConfig::default());
    n.learn(route(&[0, 1, 2, 3, 4]));
    n.learn(route(&[0, 5, 6]));
    n.receive_in_transit(DsrMsg::Rerr { from: 2, to: 3 }, true, &mut vec![]);
    assert_eq!(n.route_to(4), None);
    assert_eq!(n.route_to(2), Some(route(&[0, 1, 2])), "the part before the link stays");
    assert_eq!(n.route_to(6), Some(route(&[0, 5, 6])));
}

#[test]
fn a_link_failure_reports_to_the_source_along_the_way_back() {
    let mut n = DsrNode::new(2, DsrConfig::default());
    n.learn(route(&[2, 3, 4]));
    let mut out = vec![];
    let r = route(&[0, 1, 2, 3, 4]);
    n.link_failed(3, Some((&r, 2)), &mut out);
    assert_eq!(
        out,
        vec![DsrAction::Unicast { msg: DsrMsg::Rerr { from: 2, to: 3 }, route: route(&[2, 1, 0]) }]
    );
    assert_eq!(n.route_to(4), None);
}

#[test]
fn discovery_backs_off_then_gives_up() {
    let cfg = DsrConfig { max_requests: 3, ..DsrConfig::default() };
    let mut n = DsrNode::new(0, cfg);
    let mut out = vec![];
    n.discover(9, 0, &mut out);
    let mut waits = vec![];
    let mut last = 0;
    loop {
        let mut next = None;
        for a in out.drain(..) {
            match a {
                DsrAction::Timer { at, .. } => next = Some(at),
                DsrAction::Unreachable { dst } => {
                    assert_eq!(dst, 9);
                    assert_eq!(waits, vec![500_000_000, 1_000_000_000, 2_000_000_000]);
                    return;
                }
                _ => {}
            }
        }
        let at = next.expect("timer");
        waits.push(at - last);
        last = at;
        n.on_timer(9, at, &mut out);
    }
}

#[test]
fn routes_longer_than_sixteen_hops_are_not_built() {
    let long: Vec<u32> = (0..17).collect();
    assert!(SrcRoute::from_slice(&long).is_some());
    let longer: Vec<u32> = (0..18).collect();
    assert!(SrcRoute::from_slice(&longer).is_none());
}

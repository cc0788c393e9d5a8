//! The routing interface of one node, without a world: what each protocol decides for a
//! packet and what it asks its node to do, checked against RFC 3561 (AODV), RFC 4728 (DSR)
//! and ns-2's DSR agent. The chain used: 0 - 1 - 2 - 3.

use super::*;
use crate::ids::node_ids;
use crate::net::aodv::AodvMsg;
use crate::net::olsr::OlsrStore;

const MS: u64 = 1_000_000;

/// Static tables of the chain 0-1-2-3 towards every node.
fn chain_routes() -> StaticRoutes {
    let n = 4u32;
    let tables = (0..n)
        .map(|dst| {
            let next = (0..n).map(|v| if v < dst { v + 1 } else { v.saturating_sub(1) }).collect();
            let hops = (0..n).map(|v| v.abs_diff(dst)).collect();
            (NodeId(dst), next, hops)
        })
        .collect();
    StaticRoutes::from_tables(n as usize, tables)
}

fn data(src: u32, dst: u32) -> Packet {
    Packet::new(crate::ids::FlowId(0), 0, NodeId(src), NodeId(dst), 1000, 20, 0)
}

/// Route `p` at node `me`; the decision and the actions.
fn route(r: &mut Router, me: u32, p: &mut Packet) -> (Decision, Vec<RouteAction>) {
    let (routes, mut out) = (chain_routes(), Vec::new());
    let d = r.route(
        &mut RouteCtx {
            now: 0,
            me: NodeId(me),
            routes: &routes,
            out: &mut out,
            olsr: &mut OlsrStore::default(),
            hwmp: &mut Default::default(),
        },
        p,
    );
    (d, out)
}

#[test]
fn static_routes_forward_along_the_table_deliver_here_and_drop_without_a_route() {
    let mut r = Router::Static;
    let (d, out) = route(&mut r, 1, &mut data(0, 3));
    assert_eq!(d, Decision::Forward { next_hop: NodeId(2), release_older: false });
    assert!(out.is_empty(), "static routing sends no control traffic");
    assert_eq!(route(&mut r, 3, &mut data(0, 3)).0, Decision::Deliver);
    // Node 7 is in no table: no route.
    assert_eq!(route(&mut r, 1, &mut data(0, 7)).0, Decision::Drop(DropReason::NoRoute));
    assert_eq!(r.on_link_failure(&mut ctx_none(), NodeId(2), &data(0, 3)), Failure::Lost);
}

fn ctx_none() -> RouteCtx<'static> {
    let routes: &'static StaticRoutes = Box::leak(Box::new(chain_routes()));
    let out: &'static mut Vec<RouteAction> = Box::leak(Box::new(Vec::new()));
    let olsr: &'static mut OlsrStore = Box::leak(Box::default());
    let hwmp = Box::leak(Box::default());
    RouteCtx { now: 0, me: NodeId(1), routes, out, olsr, hwmp }
}

#[test]
fn etx_sources_hold_their_packets_until_the_routes_are_frozen() {
    let mut r = Router::Etx { frozen: false };
    assert_eq!(route(&mut r, 0, &mut data(0, 3)).0, Decision::Hold, "probing: the source waits");
    assert_eq!(r.view(0, NodeId(0), NodeId(3), &chain_routes(), &mut Vec::new()), RouteView::None);
    r.freeze();
    assert_eq!(
        route(&mut r, 0, &mut data(0, 3)).0,
        Decision::Forward { next_hop: NodeId(1), release_older: false }
    );
    let mut path = Vec::new();
    assert_eq!(r.view(0, NodeId(0), NodeId(3), &chain_routes(), &mut path), RouteView::Whole);
    assert_eq!(path, node_ids(&[0, 1, 2, 3]));
}

fn aodv(me: u32) -> Router {
    Router::aodv(NodeId(me), AodvConfig::default(), None)
}

#[test]
fn aodv_source_without_a_route_holds_the_packet_and_floods_a_request() {
    // RFC 3561 6.3: a node that needs a route broadcasts a RREQ and buffers the packet.
    let mut r = aodv(0);
    let (d, out) = route(&mut r, 0, &mut data(0, 3));
    assert_eq!(d, Decision::Hold);
    assert!(
        out.iter().any(|a| matches!(
            a,
            RouteAction::Send { msg: Control::Aodv(AodvMsg::Rreq { dst: NodeId(3), orig: NodeId(0), .. }), to, .. }
                if *to == NodeId::BROADCAST
        )),
        "{out:?}"
    );
    assert!(out.iter().any(|a| matches!(a, RouteAction::Timer { dst: NodeId(3), .. })), "{out:?}");
}

#[test]
fn aodv_forwarder_without_a_route_drops_and_reports_upstream() {
    // RFC 3561 6.11 case (ii): a data packet for which no active route exists is dropped
    // and a RERR is sent.
    let mut r = aodv(1);
    let (d, out) = route(&mut r, 1, &mut data(0, 3));
    assert_eq!(d, Decision::Drop(DropReason::NoRoute));
    assert!(
        matches!(out[..], [RouteAction::Send { msg: Control::Aodv(AodvMsg::Rerr { dst: NodeId(3), .. }), to, .. }] if to == NodeId::BROADCAST),
        "{out:?}"
    );
}

#[test]
fn aodv_reply_makes_a_route_that_packets_then_follow_behind_the_waiting_ones() {
    let mut r = aodv(0);
    let (routes, mut out) = (chain_routes(), Vec::new());
    let cx = &mut RouteCtx {
        now: 0,
        me: NodeId(0),
        routes: &routes,
        out: &mut out,
        olsr: &mut OlsrStore::default(),
        hwmp: &mut Default::default(),
    };
    r.route(cx, &mut data(0, 3));
    cx.out.clear();
    // RFC 3561 6.7: the RREP from neighbour 1 creates the forward route to 3.
    let rrep = AodvMsg::Rrep {
        dst: NodeId(3),
        dst_seq: 1,
        orig: NodeId(0),
        hops: 2,
        lifetime_ns: 3_000 * MS,
    };
    cx.now = MS;
    r.on_control(cx, Control::Aodv(rrep), NodeId(1), 0);
    assert!(
        cx.out.contains(&RouteAction::RouteFound { dst: NodeId(3), paced: true }),
        "{:?}",
        cx.out
    );
    cx.out.clear();
    let d = r.route(cx, &mut data(0, 3));
    // Waiting packets for 3 go first, so none is overtaken.
    assert_eq!(d, Decision::Forward { next_hop: NodeId(1), release_older: true });
    assert_eq!(
        r.view(MS, NodeId(0), NodeId(3), &routes, &mut Vec::new()),
        RouteView::NextHop(NodeId(1))
    );
}

#[test]
fn aodv_hello_only_when_configured() {
    let mut quiet = aodv(0);
    assert_eq!(quiet.hello(&mut ctx_none()), None, "no HELLO without routing.hello");
    let mut chatty = Router::aodv(NodeId(0), AodvConfig::default(), Some((1_000 * MS, 2)));
    assert_eq!(chatty.hello(&mut ctx_none()), Some(1_000 * MS));
}

fn dsr(me: u32, ns2: bool) -> Router {
    Router::dsr(NodeId(me), DsrConfig { ns2, ..DsrConfig::default() })
}

#[test]
fn dsr_source_without_a_cached_route_holds_and_floods_a_route_request() {
    // RFC 4728 8.2.1: the packet waits in the send buffer while a Route Request floods.
    let mut r = dsr(0, false);
    let (d, out) = route(&mut r, 0, &mut data(0, 3));
    assert_eq!(d, Decision::Hold);
    assert!(
        out.iter().any(|a| matches!(
            a,
            RouteAction::Send { msg: Control::Dsr(DsrMsg::Rreq { target: NodeId(3), .. }), to, .. }
                if *to == NodeId::BROADCAST
        )),
        "{out:?}"
    );
    // A forwarder has no send buffer: without a route the packet is lost.
    let (d, _) = route(&mut dsr(1, false), 1, &mut data(0, 3));
    assert_eq!(d, Decision::Drop(DropReason::NoRoute));
}

#[test]
fn dsr_follows_the_source_route_on_the_packet_and_drops_one_that_misses_this_node() {
    let route_0123 = SrcRoute::from_slice(&[NodeId(0), NodeId(1), NodeId(2), NodeId(3)]).unwrap();
    let mut p = data(0, 3);
    p.route = Some((route_0123, 1)); // held by node 1
    let mut r = dsr(1, false);
    assert_eq!(
        route(&mut r, 1, &mut p).0,
        Decision::Forward { next_hop: NodeId(2), release_older: false }
    );
    assert_eq!(route(&mut dsr(2, false), 2, &mut p).0, Decision::Drop(DropReason::BadSourceRoute));
}

#[test]
fn dsr_arrival_moves_along_the_route_and_consumes_a_reply_at_its_end() {
    let back = SrcRoute::from_slice(&[NodeId(3), NodeId(2), NodeId(1), NodeId(0)]).unwrap();
    let reply = DsrMsg::Rrep {
        route: SrcRoute::from_slice(&[NodeId(0), NodeId(1), NodeId(2), NodeId(3)]).unwrap(),
    };
    let mut p = data(3, 0);
    p.routing_msg = Some(Control::Dsr(reply));
    p.route = Some((back, 1)); // sent by node 2, arriving at node 1
    let (routes, mut out) = (chain_routes(), Vec::new());
    let mut r1 = dsr(1, false);
    let cx = &mut RouteCtx {
        now: 0,
        me: NodeId(1),
        routes: &routes,
        out: &mut out,
        olsr: &mut OlsrStore::default(),
        hwmp: &mut Default::default(),
    };
    assert_eq!(r1.on_arrival(cx, &mut p), Arrival::Continue { control: true });
    assert_eq!(p.route.unwrap().1, 2, "position moved to this node");
    let mut r0 = dsr(0, false);
    let cx = &mut RouteCtx {
        now: 0,
        me: NodeId(0),
        routes: &routes,
        out: &mut out,
        olsr: &mut OlsrStore::default(),
        hwmp: &mut Default::default(),
    };
    assert_eq!(r0.on_arrival(cx, &mut p), Arrival::Consumed, "the reply ends at its requester");
    // RFC 4728 8.1.3: the requester caches the route the reply carries.
    let mut q = data(0, 3);
    assert_eq!(
        route(&mut r0, 0, &mut q).0,
        Decision::Forward { next_hop: NodeId(1), release_older: true }
    );
    assert_eq!(
        q.route.map(|(r, at)| (r.nodes().collect::<Vec<_>>(), at)),
        Some((node_ids(&[0, 1, 2, 3]), 0))
    );
}

#[test]
fn dsr_link_failure_reports_to_the_source_and_ns2_salvages() {
    // RFC 4728 8.3.4: a Route Error goes back along the packet's route to its source.
    let mut p = data(0, 3);
    p.route =
        Some((SrcRoute::from_slice(&[NodeId(0), NodeId(1), NodeId(2), NodeId(3)]).unwrap(), 1));
    let (routes, mut out) = (chain_routes(), Vec::new());
    let cx = &mut RouteCtx {
        now: 0,
        me: NodeId(1),
        routes: &routes,
        out: &mut out,
        olsr: &mut OlsrStore::default(),
        hwmp: &mut Default::default(),
    };
    assert_eq!(dsr(1, false).on_link_failure(cx, NodeId(2), &p), Failure::Lost);
    assert!(
        matches!(cx.out[..], [RouteAction::SendRouted { msg: DsrMsg::Rerr { from: NodeId(1), to: NodeId(2) }, route }]
            if route.nodes().collect::<Vec<_>>() == node_ids(&[1, 0])),
        "{:?}",
        cx.out
    );
    cx.out.clear();
    // ns-2 dsragent.cc xmitFailed: the packet is salvaged instead.
    assert_eq!(dsr(1, true).on_link_failure(cx, NodeId(2), &p), Failure::Salvage);
}

#[test]
fn ns2_dsr_flow_only_packets_teach_neither_forwarders_nor_listeners() {
    // dsragent.cc handleForwarding returns before noticeRouteUsed for a packet without
    // addresses (flow state); tap only runs processFlowARS on it.
    let (routes, mut out) = (chain_routes(), Vec::new());
    let r0123 = SrcRoute::from_slice(&node_ids(&[0, 1, 2, 3])).unwrap();
    let learned = |r: &Router, me: u32| {
        let mut path = Vec::new();
        let v = r.view(0, NodeId(me), NodeId(3), &routes, &mut path);
        (v == RouteView::Whole).then_some(path)
    };
    for flow_only in [true, false] {
        let mut p = data(0, 3);
        p.route = Some((r0123, 0)); // sent by node 0
        p.flow_only = flow_only;
        let (mut r1, mut r9) = (dsr(1, true), dsr(9, true));
        r9.tap(
            &mut RouteCtx {
                now: 0,
                me: NodeId(9),
                routes: &routes,
                out: &mut out,
                olsr: &mut OlsrStore::default(),
                hwmp: &mut Default::default(),
            },
            &p,
            NodeId(0),
        );
        let cx = &mut RouteCtx {
            now: 0,
            me: NodeId(1),
            routes: &routes,
            out: &mut out,
            olsr: &mut OlsrStore::default(),
            hwmp: &mut Default::default(),
        };
        assert_eq!(r1.on_arrival(cx, &mut p), Arrival::Continue { control: false });
        let (at_1, at_9) = (learned(&r1, 1), learned(&r9, 9));
        if flow_only {
            assert_eq!((at_1, at_9), (None, None));
        } else {
            assert_eq!(at_1, Some(node_ids(&[1, 2, 3])));
            assert_eq!(at_9, Some(node_ids(&[9, 0, 1, 2, 3])), "a link to the transmitter");
        }
    }
}

#[test]
fn ns2_dsr_forwarders_of_replies_and_errors_learn_the_packets_route_not_the_reply() {
    // dsragent.cc recv -> handleForwarding -> noticeRouteUsed(p.route): a forwarder caches
    // the part of the packet's own source route ahead of it, a reply's or an error's too; the
    // reply it carries is entered only by its requester (acceptRouteReply), and the tap
    // skips the packet's next hop ("packets I'm about to receive anyway").
    let routes = chain_routes();
    let cached = |r: &Router, dst: u32| {
        let mut path = Vec::new();
        let v = r.view(0, NodeId(1), NodeId(dst), &routes, &mut path);
        (v == RouteView::Whole).then_some(path)
    };
    let back = SrcRoute::from_slice(&node_ids(&[2, 1, 0])).unwrap();
    let reply = DsrMsg::Rrep { route: SrcRoute::from_slice(&node_ids(&[0, 1, 2, 3])).unwrap() };
    let error = DsrMsg::Rerr { from: NodeId(2), to: NodeId(3) };
    for (msg, ns2, to_0, to_3) in [
        (reply, true, Some(node_ids(&[1, 0])), None),
        (reply, false, Some(node_ids(&[1, 0])), Some(node_ids(&[1, 2, 3]))),
        (error, true, Some(node_ids(&[1, 0])), None),
        (error, false, None, None),
    ] {
        let mut p = data(2, 0);
        p.routing_msg = Some(Control::Dsr(msg));
        p.route = Some((back, 0)); // sent by node 2, arriving at node 1
        let mut out = Vec::new();
        let mut r1 = dsr(1, ns2);
        let cx = &mut RouteCtx {
            now: 0,
            me: NodeId(1),
            routes: &routes,
            out: &mut out,
            olsr: &mut OlsrStore::default(),
            hwmp: &mut Default::default(),
        };
        assert_eq!(r1.on_arrival(cx, &mut p), Arrival::Continue { control: true });
        assert_eq!((cached(&r1, 0), cached(&r1, 3)), (to_0, to_3), "{msg:?} ns2 {ns2}");
    }
}

fn olsr(me: u32) -> Router {
    let cfg = crate::net::olsr::OlsrConfig::default();
    Router::Olsr(Box::new(OlsrRouter::new(NodeId(me), cfg, false)))
}

#[test]
fn olsr_messages_queued_within_one_jitter_leave_in_one_packet() {
    // t=0: HELLO queued, the send armed (RFC 3626 18.3 MAXJITTER = HELLO_INTERVAL / 4);
    // t=0.1 s: a second HELLO joins it (no second send armed); the send: one packet.
    let (mut r, mut store, mut out) = (olsr(1), OlsrStore::default(), Vec::new());
    let routes = chain_routes();
    let hwmp = &mut Default::default();
    let mut cx =
        RouteCtx { now: 0, me: NodeId(1), routes: &routes, out: &mut out, olsr: &mut store, hwmp };
    r.olsr_timer(&mut cx, false);
    cx.now = 100_000_000;
    r.olsr_timer(&mut cx, false);
    r.olsr_timer(&mut cx, true); // no selectors ever: no TC (section 9.3)
    assert_eq!(cx.out[..], [RouteAction::SendQueued { jitter_ns: 500_000_000 }]);
    cx.out.clear();
    r.send_queued(&mut cx);
    let [RouteAction::Send { msg: Control::Olsr(p), to, jitter_ns: 0, .. }] = cx.out[..] else {
        panic!("one packet: {:?}", cx.out)
    };
    assert_eq!((to, p.hellos, p.tcs, p.bytes), (NodeId::BROADCAST, 2, 0, 4 + 2 * 16));
    // 65 queued: 64 in the first packet (ns-3 OLSR_MAX_MSGS), one in a second.
    cx.out.clear();
    (0..65).for_each(|_| _ = r.olsr_timer(&mut cx, false));
    assert_eq!(cx.out.len(), 1, "one send armed");
    cx.out.clear();
    r.send_queued(&mut cx);
    let hellos: Vec<u8> = cx
        .out
        .iter()
        .map(|a| match a {
            RouteAction::Send { msg: Control::Olsr(p), .. } => p.hellos,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(hellos, [64, 1]);
}

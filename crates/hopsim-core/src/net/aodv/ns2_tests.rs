//! The ns2 profile's link-failure handling, written from ns-2.35 aodv.cc (`rt_ll_failed`,
//! `local_rt_repair`, `handle_link_failure`, `recvError`, `rt_resolve`).
//!
//! Chain used below: 0 - 1 - 2 - 3 - 4 - 5, data from 0 to 5.
use super::*;

const MS: u64 = 1_000_000;

pub(super) fn ns2_node(me: u32) -> AodvNode {
    AodvNode::new(NodeId(me), AodvConfig { ns2: true, ..AodvConfig::default() })
}

fn rreq_sent(out: &[AodvAction], dst: u32) -> bool {
    out.iter().any(|a| {
        matches!(a, AodvAction::Send { to: NodeId::BROADCAST, msg: AodvMsg::Rreq { dst: d, .. }, .. } if *d == NodeId(dst))
    })
}

/// The times of the timers `out` asks for, in order.
pub(super) fn timers(out: &[AodvAction]) -> Vec<SimTime> {
    out.iter()
        .filter_map(|a| match a {
            AodvAction::Timer { at, .. } => Some(*at),
            _ => None,
        })
        .collect()
}

#[test]
fn near_the_source_a_failure_drops_purges_the_queue_and_breaks_every_route_through_it() {
    // Node 1 (1 hop from the source, 4 from the destination): 1 > 4 is false, no repair.
    let mut n = ns2_node(1);
    n.update(NodeId(5), NodeId(2), 4, Some(2), 1000 * MS, 0);
    n.update(NodeId(4), NodeId(2), 3, Some(2), 1000 * MS, 0);
    let mut out = vec![];
    let fate = n.packet_failed(NodeId(2), NodeId(5), true, 1, MS, &mut out);
    assert_eq!(fate, FailedPacket::Drop);
    assert_eq!(
        out[0],
        AodvAction::PurgeQueue { next_hop: NodeId(2) },
        "ifqueue->filter(broken_nbr)"
    );
    let rerrs =
        out.iter().filter(|a| matches!(a, AodvAction::Send { msg: AodvMsg::Rerr { .. }, .. }));
    assert_eq!(rerrs.count(), 2, "handle_link_failure: a RERR per route, precursors or not");
    assert_eq!(n.next_hop(NodeId(5), MS), None);
    assert_eq!(n.next_hop(NodeId(4), MS), None);
    assert!(!n.repairing(NodeId(5)));
}

#[test]
fn near_the_destination_a_failure_starts_a_local_repair_and_the_packet_waits() {
    // Node 4 (4 hops travelled, 1 to go): local_rt_repair.
    let mut n = ns2_node(4);
    n.update(NodeId(5), NodeId(5), 1, Some(2), 1000 * MS, 0);
    n.update(NodeId(3), NodeId(3), 1, Some(2), 1000 * MS, 0);
    let mut out = vec![];
    let fate = n.packet_failed(NodeId(5), NodeId(5), true, 4, MS, &mut out);
    assert_eq!(fate, FailedPacket::Wait);
    assert!(rreq_sent(&out, 5), "a RREQ for the destination leaves from the repairing node");
    assert!(!out.iter().any(|a| matches!(a, AodvAction::PurgeQueue { .. })), "no purge");
    assert!(n.repairing(NodeId(5)));
    assert_eq!(n.next_hop(NodeId(5), MS), None, "packets for 5 wait while the repair runs");
    assert_eq!(
        n.next_hop(NodeId(3), MS),
        Some(NodeId(3)),
        "the neighbour is not deleted: other routes stay"
    );
    // A second failure during the repair: the packet waits too, no second RREQ.
    let mut out = vec![];
    assert_eq!(
        n.packet_failed(NodeId(5), NodeId(5), true, 4, 2 * MS, &mut out),
        FailedPacket::Wait
    );
    assert!(!rreq_sent(&out, 5));
    // The destination answers the repairing node: the route is up again.
    let mut out = vec![];
    let rrep = AodvMsg::Rrep {
        dst: NodeId(5),
        dst_seq: 4,
        orig: NodeId(4),
        hops: 0,
        lifetime_ns: 20_000 * MS,
    };
    n.receive(rrep, NodeId(5), 3 * MS, &mut out);
    assert_eq!(out, vec![AodvAction::RouteFound { dst: NodeId(5) }]);
    assert!(!n.repairing(NodeId(5)));
    assert_eq!(n.next_hop(NodeId(5), 3 * MS), Some(NodeId(5)));
}

#[test]
fn a_failed_repair_drops_the_waiting_packets_and_stays_in_repair_until_its_timer() {
    // Every timer asked for runs, in time order. The request cycle gives up (the waiting
    // packets are dropped); the route stays in repair until the LocalRepairTimer.
    let mut n = ns2_node(4);
    n.update(NodeId(5), NodeId(5), 1, Some(2), 1_000_000 * MS, 0);
    let mut out = vec![];
    n.packet_failed(NodeId(5), NodeId(5), true, 4, 50_000 * MS, &mut out);
    let mut due = std::collections::BTreeSet::new();
    let (mut gave_up_at, mut up_to) = (None, 0);
    loop {
        due.extend(timers(&out));
        let Some(at) = due.pop_first() else { break };
        if gave_up_at.is_some() && n.repairing(NodeId(5)) {
            up_to = at;
        }
        out.clear();
        n.on_timer(NodeId(5), at, true, &mut out);
        if out.contains(&AodvAction::Unreachable { dst: NodeId(5) }) && gave_up_at.is_none() {
            gave_up_at = Some(at);
            assert!(n.repairing(NodeId(5)), "giving up does not end the repair");
        }
        if at > 110_000 * MS {
            break;
        }
    }
    assert!(gave_up_at.is_some());
    assert!(up_to >= gave_up_at.unwrap(), "in repair after the give-up");
    assert!(!n.repairing(NodeId(5)), "the LocalRepairTimer ended it");
}

#[test]
fn a_failed_control_packet_changes_no_route() {
    let mut n = ns2_node(2);
    n.update(NodeId(0), NodeId(1), 2, Some(2), 1000 * MS, 0);
    let mut out = vec![];
    assert_eq!(n.packet_failed(NodeId(1), NodeId(0), false, 3, MS, &mut out), FailedPacket::Drop);
    assert!(out.is_empty());
    assert_eq!(n.next_hop(NodeId(0), MS), Some(NodeId(1)));
}

#[test]
fn a_rerr_purges_the_queue_for_its_sender_and_clears_the_precursors() {
    let mut up = ns2_node(1);
    up.update(NodeId(5), NodeId(2), 4, Some(2), 1000 * MS, 0);
    up.add_precursor(NodeId(5), NodeId(0));
    let mut out = vec![];
    up.receive(AodvMsg::Rerr { dst: NodeId(5), dst_seq: 3 }, NodeId(2), MS, &mut out);
    assert_eq!(out[0], AodvAction::PurgeQueue { next_hop: NodeId(2) });
    assert!(matches!(
        out[1],
        AodvAction::Send { msg: AodvMsg::Rerr { dst: NodeId(5), dst_seq: 3 }, .. }
    ));
    assert!(up.routes[&NodeId(5)].precursors.is_empty());
    // An older RERR is ignored (recvError: rt_seqno <= the RERR's).
    let mut n = ns2_node(1);
    n.update(NodeId(5), NodeId(2), 4, Some(8), 1000 * MS, 0);
    let mut out = vec![];
    n.receive(AodvMsg::Rerr { dst: NodeId(5), dst_seq: 7 }, NodeId(2), MS, &mut out);
    assert!(out.is_empty());
    assert_eq!(n.next_hop(NodeId(5), MS), Some(NodeId(2)));
}

#[test]
fn the_standard_profile_breaks_the_link_without_purge_or_repair() {
    let mut n = AodvNode::new(NodeId(4), AodvConfig::default());
    n.update(NodeId(5), NodeId(5), 1, Some(2), 1000 * MS, 0);
    let mut out = vec![];
    assert_eq!(n.packet_failed(NodeId(5), NodeId(5), true, 4, MS, &mut out), FailedPacket::Drop);
    assert!(out.is_empty(), "no precursors: no RERR (RFC 3561 6.11), no purge");
    assert_eq!(n.next_hop(NodeId(5), MS), None);
}

#[test]
fn a_route_in_repair_takes_only_a_newer_or_shorter_reply() {
    // recvReply: rt_seqno < rp_dst_seqno, or equal and fewer hops. The upstream neighbour's
    // answer from its own table (same number, more hops) would point the route backwards.
    let mut n = ns2_node(4);
    n.update(NodeId(5), NodeId(5), 1, Some(2), 1000 * MS, 0);
    let mut out = vec![];
    n.packet_failed(NodeId(5), NodeId(5), true, 4, MS, &mut out);
    let mut out = vec![];
    let stale = AodvMsg::Rrep {
        dst: NodeId(5),
        dst_seq: 2,
        orig: NodeId(4),
        hops: 2,
        lifetime_ns: 10_000 * MS,
    };
    n.receive(stale, NodeId(3), 2 * MS, &mut out);
    assert!(out.is_empty(), "ignored: nothing released, nothing forwarded");
    assert!(n.repairing(NodeId(5)));
    assert_eq!(n.next_hop(NodeId(5), 2 * MS), None);
    let fresh = AodvMsg::Rrep {
        dst: NodeId(5),
        dst_seq: 3,
        orig: NodeId(4),
        hops: 0,
        lifetime_ns: 10_000 * MS,
    };
    n.receive(fresh, NodeId(5), 3 * MS, &mut out);
    assert_eq!(out, vec![AodvAction::RouteFound { dst: NodeId(5) }]);
}

//   t = 0      RREQ TTL 30 (never routed: rt_last_hop_count = INFINITY2), timeout 1.8 s
//   t = 2.0    (the purge tick after 1.8 s) RREQ 2, timeout 3.6 s -> 5.6 -> tick 6.0
//   t = 6.0    RREQ 3, 5.4 s -> 11.4 -> 11.5;   t = 11.5   RREQ 4, 7.2 s -> 18.7 -> 19.0
//   t = 19.0   count 4 > RREQ_RETRIES: give up, hold 10 s
#[test]
fn ns2_discovery_paces_requests_on_purge_ticks_then_gives_up_and_holds() {
    let mut n = ns2_node(0);
    let mut out = vec![];
    n.discover(NodeId(9), 0, &mut out);
    let ttl_of = |out: &[AodvAction]| {
        out.iter().find_map(|a| match a {
            AodvAction::Send { msg: AodvMsg::Rreq { ttl, .. }, .. } => Some(*ttl),
            _ => None,
        })
    };
    let timer_of = |out: &[AodvAction]| {
        out.iter()
            .find_map(|a| match a {
                AodvAction::Timer { at, .. } => Some(*at),
                _ => None,
            })
            .expect("timer")
    };
    assert_eq!(ttl_of(&out), Some(30));
    let mut at = timer_of(&out);
    assert_eq!(at, 2000 * MS, "1.8 s, then the next 0.5 s tick");
    // A packet asking meanwhile sends nothing (rt_req_timeout rate limit).
    let mut again = vec![];
    n.discover(NodeId(9), 1000 * MS, &mut again);
    assert!(again.is_empty());
    let mut times = vec![0];
    loop {
        let mut out = vec![];
        n.on_timer(NodeId(9), at, true, &mut out);
        if out.contains(&AodvAction::Unreachable { dst: NodeId(9) }) {
            assert_eq!(at, 19_000 * MS);
            let hold = timer_of(&out);
            assert_eq!(hold, at + 10_000 * MS, "MAX_RREQ_TIMEOUT hold");
            let mut during = vec![];
            n.discover(NodeId(9), at + MS, &mut during);
            assert!(during.is_empty(), "no request during the hold");
            let mut after = vec![];
            n.on_timer(NodeId(9), hold, true, &mut after);
            assert_eq!(ttl_of(&after), Some(30), "a packet asked during the hold: new cycle");
            break;
        }
        assert_eq!(ttl_of(&out), Some(30));
        times.push(at);
        at = timer_of(&out);
    }
    assert_eq!(times, vec![0, 2000 * MS, 6000 * MS, 11_500 * MS]);
}

//! HWMP path maintenance against IEEE 802.11-2012 13.10: intermediate replies, PERR, PREQ
//! retries and rate limits, lifetimes and refresh, and bad elements.

use super::msg::*;
use super::tests::{preq_from, Net, MS};
use super::*;

const S: u64 = 1_000_000_000;

fn chain() -> Net {
    Net::chain(&[10, 20, 30], |_| HwmpConfig::default())
}

#[test]
fn an_intermediate_node_with_a_fresh_path_replies_and_forwards_with_to_set() {
    let mut net = chain();
    net.act(1, 0, |n, out| n.discover(NodeId(3), 0, out));
    assert_eq!(net.route(1, 3, MS), Some((2, 2, 50)));
    net.sent.clear();
    net.act(0, MS, |n, out| n.discover(NodeId(3), MS, out));
    // 13.10.9.3: TO clear and a fresh path: 1 answers with its path's SN, hop count
    // and metric ...
    let reply = Prep {
        hop_count: 2,
        ttl: 31,
        target: NodeId(3),
        target_seq: 1,
        lifetime_tu: ns_to_tu(tu_to_ns(5000) - MS),
        metric: 50,
        orig: NodeId(0),
        orig_seq: 1,
    };
    assert_eq!(net.sent_by(1).next(), Some(&(1, HwmpMsg::Prep(reply), NodeId(0))));
    // ... and forwards the PREQ with TO set, so 2 (fresh path too) does not answer.
    let fwd: Vec<_> = net
        .sent_by(1)
        .filter_map(|s| match &s.1 {
            HwmpMsg::Preq(p) => Some(p.target.target_only),
            _ => None,
        })
        .collect();
    assert_eq!(fwd, vec![true]);
    assert!(!net
        .sent_by(2)
        .any(|s| matches!(&s.1, HwmpMsg::Prep(p) if p.orig == NodeId(0) && p.target_seq == 1)));
    assert_eq!(net.route(0, 3, MS), Some((1, 3, 60)));
    assert_eq!(net.found, vec![(1, NodeId(3)), (0, NodeId(3))]);
    // The target got the PREQ and answered with a newer SN.
    assert_eq!(net.nodes[0].dest_seq(NodeId(3)), Some(2));
}

#[test]
fn without_rf_the_replying_node_does_not_forward_and_with_to_it_does_not_reply() {
    let mut net = Net::chain(&[10, 20, 30], |i| HwmpConfig {
        reply_and_forward: i != 0,
        ..HwmpConfig::default()
    });
    net.act(1, 0, |n, out| n.discover(NodeId(3), 0, out));
    net.sent.clear();
    net.act(0, MS, |n, out| n.discover(NodeId(3), MS, out));
    assert!(net.sent_by(1).all(|s| matches!(s.1, HwmpMsg::Prep(_))));
    assert_eq!(net.nodes[3].seq(), 1, "the target never heard the PREQ");
    assert_eq!(net.route(0, 3, MS), Some((1, 3, 60)));

    let mut net =
        Net::chain(&[10, 20, 30], |i| HwmpConfig { target_only: i == 0, ..HwmpConfig::default() });
    net.act(1, 0, |n, out| n.discover(NodeId(3), 0, out));
    net.sent.clear();
    net.act(0, MS, |n, out| n.discover(NodeId(3), MS, out));
    assert!(!net.sent_by(1).any(|s| matches!(&s.1, HwmpMsg::Prep(p) if p.hop_count > 0 && p.orig == NodeId(0) && s.2 == NodeId(0) && p.target_seq == 1)));
    assert_eq!(net.nodes[3].seq(), 2, "only the target answered");
    assert_eq!(net.route(0, 3, MS), Some((1, 3, 60)));
}

#[test]
fn a_perr_invalidates_the_paths_of_the_precursors_and_increments_the_sn() {
    let mut net = chain();
    net.act(0, 0, |n, out| n.discover(NodeId(3), 0, out));
    net.sent.clear();
    // 13.10.11: 2 loses the link to 3.
    net.act(2, S, |n, out| n.link_failed(NodeId(3), S, out));
    for i in 0..3 {
        assert_eq!(net.route(i, 3, S), None, "node {i}");
        assert_eq!(net.nodes[i as usize].dest_seq(NodeId(3)), Some(2), "node {i}: SN + 1");
    }
    // One precursor each: unicast, 2 -> 1 -> 0, TTL decremented.
    let perrs: Vec<_> = net
        .sent
        .iter()
        .map(|s| match &s.1 {
            HwmpMsg::Perr(p) => (s.0, s.2 .0, p.ttl, p.dests[0].addr.0, p.dests[0].seq),
            m => panic!("{m:?}"),
        })
        .collect();
    assert_eq!(perrs, vec![(2, 1, 31, 3, 2), (1, 0, 30, 3, 2)]);
    // The other paths stand.
    assert_eq!(net.route(2, 0, S), Some((1, 2, 30)));
    // A new discovery asks for the incremented SN; the target answers with a newer one.
    let mut out = vec![];
    net.nodes[0].discover(NodeId(3), S, &mut out);
    let HwmpAction::Send { msg: HwmpMsg::Preq(p), .. } = &out[0] else { panic!("{out:?}") };
    assert_eq!((p.target.unknown_seq, p.target.seq), (false, 2));
    net.run(0, out, S);
    assert_eq!(net.nodes[3].seq(), 3);
    assert_eq!(net.route(0, 3, S), Some((1, 3, 60)));
}

#[test]
fn a_node_without_forwarding_information_tells_the_transmitter() {
    let mut net = chain();
    net.act(0, 0, |n, out| n.discover(NodeId(3), 0, out));
    // 0 and 1 keep using the path; 2 does not, and its path to 3 expires (5.12 s).
    assert_eq!(net.nodes[0].next_hop(NodeId(3), 4 * S), Some(NodeId(1)));
    assert_eq!(net.nodes[1].next_hop(NodeId(3), 4 * S), Some(NodeId(2)));
    assert_eq!(net.nodes[2].next_hop(NodeId(3), 6 * S), None);
    net.sent.clear();
    // 13.10.11.2: a data frame from 1 for 3 finds no path at 2.
    net.act(2, 6 * S, |n, out| n.no_forwarding_info(NodeId(3), NodeId(1), 6 * S, out));
    let perrs: Vec<_> = net
        .sent
        .iter()
        .map(|s| match &s.1 {
            HwmpMsg::Perr(p) => (s.0, s.2 .0, p.dests[0].addr.0, p.dests[0].reason),
            m => panic!("{m:?}"),
        })
        .collect();
    let r = REASON_NO_FORWARDING_INFO;
    assert_eq!(perrs, vec![(2, 1, 3, r), (1, 0, 3, r)]);
    assert_eq!((net.route(1, 3, 6 * S), net.route(0, 3, 6 * S)), (None, None));
}

#[test]
fn a_perr_to_several_precursors_is_broadcast() {
    // 0 and 2 both reach 3 through 1.
    let mut net = Net::new(4, &[(0, 1, 10), (2, 1, 10), (1, 3, 10)], |_| HwmpConfig::default());
    net.act(0, 0, |n, out| n.discover(NodeId(3), 0, out));
    net.act(2, 0, |n, out| n.discover(NodeId(3), 0, out));
    assert!(net.route(0, 3, MS).is_some() && net.route(2, 3, MS).is_some());
    net.sent.clear();
    net.act(1, S, |n, out| n.link_failed(NodeId(3), S, out));
    assert_eq!(net.sent_by(1).map(|s| s.2).collect::<Vec<_>>(), vec![NodeId::BROADCAST]);
    assert_eq!((net.route(0, 3, S), net.route(2, 3, S)), (None, None));
    assert!(net.route(0, 2, S).is_some(), "paths not through 3 stand");
}

#[test]
fn the_element_ttl_bounds_the_flood() {
    let mut net =
        Net::chain(&[10, 10, 10, 10], |_| HwmpConfig { max_ttl: 2, ..HwmpConfig::default() });
    net.act(0, 0, |n, out| n.discover(NodeId(4), 0, out));
    // TTL 2 at 1, forwarded with 1 to 2, which does not forward it.
    let forwarders: Vec<u32> = net.sent.iter().map(|s| s.0).collect();
    assert_eq!(forwarders, vec![0, 1]);
    assert_eq!(net.route(2, 0, MS), Some((1, 2, 20)));
    assert_eq!(net.route(3, 0, MS), None);
}

#[test]
fn perrs_keep_the_minimum_interval() {
    let mut net = chain();
    net.act(0, 0, |n, out| n.discover(NodeId(3), 0, out));
    net.act(2, S, |n, out| n.link_failed(NodeId(3), S, out));
    net.sent.clear();
    // 10 ms later the link to 1 fails: 3 uses 2 to reach 0, but perrMinInterval holds it.
    net.act(2, S + 10 * MS, |n, out| n.link_failed(NodeId(1), S + 10 * MS, out));
    assert!(net.sent.is_empty());
    assert_eq!(net.timers.last(), Some(&(S + tu_to_ns(100), 2, HwmpTimer::PerrQueue)));
    net.fire_until(2 * S);
    let HwmpMsg::Perr(p) = &net.sent[0].1 else { panic!() };
    assert_eq!((net.sent[0].2, p.dests[0].addr), (NodeId(3), NodeId(0)));
    assert_eq!(net.route(3, 0, 2 * S), None);
}

#[test]
fn preq_retries_give_up_after_max_preq_retries() {
    let mut net = Net::chain(&[10], |_| HwmpConfig::default());
    net.act(0, 0, |n, out| n.discover(NodeId(7), 0, out));
    // Waits of 2 x netDiameterTraversalTime (204.8 ms), doubled per retry: the fourth PREQ
    // (third retry) times out at 204.8 + 409.6 + 819.2 + 1638.4 ms = 3072 ms.
    let end = 3_072 * MS;
    net.fire_until(end - 1);
    assert!(net.unreachable.is_empty());
    net.fire_until(end);
    assert_eq!(net.unreachable, vec![(0, NodeId(7), end)]);
    let originated = net.sent_by(0).filter(|s| matches!(s.1, HwmpMsg::Preq(_))).count();
    assert_eq!(originated, 1 + 3);
    assert_eq!(net.nodes[0].seq(), 4, "each PREQ a new SN");
}

#[test]
fn preqs_keep_the_minimum_interval() {
    let mut n = HwmpNode::new(NodeId(0), HwmpConfig::default());
    let mut out = vec![];
    n.discover(NodeId(5), 0, &mut out);
    out.clear();
    n.discover(NodeId(6), 10 * MS, &mut out);
    let due = tu_to_ns(100);
    assert_eq!(out, vec![HwmpAction::Timer { timer: HwmpTimer::PreqQueue, at: due }]);
    out.clear();
    n.on_timer(HwmpTimer::PreqQueue, due, &mut out);
    assert!(
        matches!(&out[0], HwmpAction::Send { msg: HwmpMsg::Preq(p), .. } if p.target.addr == NodeId(6))
    );
    assert_eq!(
        out[1],
        HwmpAction::Timer { timer: HwmpTimer::Discovery(NodeId(6)), at: due + 2 * due }
    );
}

#[test]
fn paths_expire_unless_the_source_refreshes_them() {
    let mut net = chain();
    net.act(0, 0, |n, out| n.discover(NodeId(3), 0, out));
    let timeout = tu_to_ns(5000);
    assert!(net.route(0, 3, timeout - 1).is_some());
    assert_eq!(net.route(0, 3, timeout), None, "activePathTimeout after it was set");
    // Forwarding on it does not extend it (by default, as Linux and ns-3) ...
    assert_eq!(net.nodes[0].next_hop(NodeId(3), 4 * S), Some(NodeId(1)));
    assert_eq!(net.route(0, 3, timeout), None);
    // ... unless configured so (then from the use on).
    let mut ext =
        Net::chain(&[10, 20, 30], |_| HwmpConfig { extend_on_use: true, ..HwmpConfig::default() });
    ext.act(0, 0, |n, out| n.discover(NodeId(3), 0, out));
    assert_eq!(ext.nodes[0].next_hop(NodeId(3), 4 * S), Some(NodeId(1)));
    assert!(ext.route(0, 3, 4 * S + timeout - 1).is_some());
    assert_eq!(ext.route(0, 3, 4 * S + timeout), None);
    // The source refreshes it with a PREQ once it is path_refresh_ns short of the timeout.
    let mut out = vec![];
    let early = timeout - HwmpConfig::default().path_refresh_ns - 1;
    assert_eq!(net.nodes[0].originate(NodeId(3), early, &mut out), Some(NodeId(1)));
    assert!(out.is_empty());
    assert_eq!(net.nodes[0].originate(NodeId(3), early + 1, &mut out), Some(NodeId(1)));
    net.run(0, out, early + 1);
    assert_eq!(net.nodes[0].dest_seq(NodeId(3)), Some(2), "refreshed by a new PREP");
    assert!(net.route(0, 3, early + 1 + timeout - 1).is_some());
    assert!(net.found.len() == 1, "a refresh releases nothing");
}

#[test]
fn bad_elements_change_nothing_and_do_not_panic() {
    let mut n = HwmpNode::new(NodeId(1), HwmpConfig::default());
    let mut out = vec![];
    let target = PreqTarget {
        addr: NodeId(9),
        target_only: false,
        reply_and_forward: true,
        unknown_seq: true,
        seq: 0,
    };
    let preq = Preq {
        individual: false,
        proactive_prep: false,
        hop_count: u8::MAX,
        ttl: 0,
        discovery_id: 0,
        orig: NodeId(u32::MAX - 1),
        orig_seq: 0,
        lifetime_tu: u32::MAX,
        metric: u32::MAX,
        target,
    };
    n.receive(&HwmpMsg::Preq(preq), NodeId(2), u32::MAX, u64::MAX - 1, &mut out);
    assert!(out.is_empty(), "an originator id out of range is not stored, nothing sent");
    n.receive(&HwmpMsg::Preq(Preq { orig: NodeId(0), ..preq }), NodeId(2), 5, 0, &mut out);
    assert!(preqs_sent(&out) == 0, "TTL 0: not forwarded");
    assert_eq!(n.route(NodeId(0), 0).map(|r| r.metric), Some(u32::MAX), "metric saturates");
    n.receive(&HwmpMsg::Preq(preq), NodeId::BROADCAST, 5, 0, &mut out);
    let perr = Perr { ttl: 0, dests: vec![] };
    n.receive(&HwmpMsg::Perr(perr), NodeId(2), 5, 0, &mut out);
    let prep = Prep {
        hop_count: 255,
        ttl: 255,
        target: NodeId::BROADCAST,
        target_seq: 0,
        lifetime_tu: 0,
        metric: 0,
        orig: NodeId(77),
        orig_seq: 0,
    };
    n.receive(&HwmpMsg::Prep(prep), NodeId(2), 5, 0, &mut out);
    n.receive(&HwmpMsg::Prep(Prep { target: NodeId(50), ..prep }), NodeId(2), 5, 0, &mut out);
    let rann =
        Rann { hop_count: 0, ttl: 1, root: NodeId::BROADCAST, seq: 0, interval_tu: 0, metric: 0 };
    n.receive(&HwmpMsg::Rann(rann), NodeId(2), 5, 0, &mut out);
    assert!(out.iter().all(|a| !matches!(a, HwmpAction::Send { .. })), "{out:?}");
    n.on_timer(HwmpTimer::Discovery(NodeId(3)), 0, &mut out);
    n.on_timer(HwmpTimer::PerrQueue, 0, &mut out);
    n.on_timer(HwmpTimer::Root, 0, &mut out);
    assert!(out.is_empty(), "{out:?}");
}

fn preqs_sent(out: &[HwmpAction]) -> usize {
    out.iter().filter(|a| matches!(a, HwmpAction::Send { msg: HwmpMsg::Preq(_), .. })).count()
}

#[test]
fn a_link_failure_does_not_make_the_neighbours_next_preq_look_stale() {
    // 13.10.11.2 raises the SN of the paths through a failed neighbour, its own path too;
    // when the neighbour is heard again that raised SN is no SN of its own, so its next PREQ
    // (a new discovery, its SN one up) is accepted and forwarded (13.10.9.3).
    let preq = |orig_seq: u32| preq_from(0, orig_seq, 0, 5);
    let forwarded = |out: &[HwmpAction]| {
        out.iter().filter(|a| matches!(a, HwmpAction::Send { msg: HwmpMsg::Preq(_), .. })).count()
    };
    let (mut b, mut out) = (HwmpNode::new(NodeId(1), HwmpConfig::default()), Vec::new());
    b.receive(&preq(1), NodeId(0), 10, 0, &mut out);
    assert_eq!(forwarded(&out), 1);
    out.clear();
    b.link_failed(NodeId(0), S, &mut out);
    out.clear();
    b.receive(&preq(2), NodeId(0), 10, 2 * S, &mut out);
    assert_eq!(forwarded(&out), 1, "the new discovery goes on");
    assert_eq!(b.dest_seq(NodeId(0)), Some(2));
}

#[test]
fn a_short_timeout_refreshes_a_quarter_ahead_not_at_once() {
    // activePathTimeout 1 s with a 1 s refresh margin: refreshing at once would flood a PREQ
    // per packet; the margin is at most a quarter of the timeout (0.25 s).
    let cfg = HwmpConfig { active_path_timeout_ns: S, ..HwmpConfig::default() };
    let mut net = Net::chain(&[10, 20, 30], |_| cfg);
    net.act(0, 0, |n, out| n.discover(NodeId(3), 0, out));
    let mut out = vec![];
    assert_eq!(net.nodes[0].originate(NodeId(3), 3 * S / 4 - 1, &mut out), Some(NodeId(1)));
    assert!(out.is_empty(), "not yet: {out:?}");
    assert_eq!(net.nodes[0].originate(NodeId(3), 3 * S / 4, &mut out), Some(NodeId(1)));
    assert!(matches!(out[..], [HwmpAction::Send { msg: HwmpMsg::Preq(_), .. }, ..]), "{out:?}");
}

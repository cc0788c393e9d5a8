//! Proactive tree building (IEEE 802.11-2012 13.10.4.2, 13.10.9, 13.10.12): a root on a
//! chain, announced by proactive PREQ (with or without PREP) or by RANN.

use super::msg::*;
use super::tests::{Net, MS};
use super::*;

/// Chain 0 - 1 - 2 - 3 (metrics 10, 20, 30) with node 0 the root in `mode`, after its first
/// announcement (and whatever timers it led to within 1 s).
fn rooted(mode: RootMode) -> Net {
    let mut net = Net::chain(&[10, 20, 30], |i| HwmpConfig {
        root_mode: if i == 0 { mode } else { RootMode::Off },
        ..HwmpConfig::default()
    });
    for i in 0..4 {
        net.act(i, 0, |n, out| n.start(0, out));
    }
    assert_eq!(net.timers, vec![(0, 0, HwmpTimer::Root)], "only the root arms a timer");
    net.fire_until(1_000 * MS);
    net
}

fn paths_to_root(net: &Net) -> Vec<Option<(u32, u8, u32)>> {
    (1..4).map(|i| net.route(i, 0, 1_000 * MS)).collect()
}

const TO_ROOT: [Option<(u32, u8, u32)>; 3] = [Some((0, 1, 10)), Some((1, 2, 30)), Some((2, 3, 60))];

#[test]
fn proactive_preq_with_prep_builds_paths_both_ways() {
    let net = rooted(RootMode::ProactivePreqWithPrep);
    assert_eq!(paths_to_root(&net), TO_ROOT);
    // Every STA answered with a PREP: the root has a path to each.
    assert_eq!(net.route(0, 1, MS), Some((1, 1, 10)));
    assert_eq!(net.route(0, 2, MS), Some((1, 2, 30)));
    assert_eq!(net.route(0, 3, MS), Some((1, 3, 60)));
    assert!((1..4).all(|i| net.nodes[i].root() == Some(NodeId(0))));
    // The proactive PREQ: target the broadcast address, TO set, lifetime activeRootTimeout.
    let HwmpMsg::Preq(p) = &net.sent[0].1 else { panic!() };
    assert!(p.proactive_prep && p.target.addr.is_broadcast() && p.target.target_only);
    assert_eq!(p.lifetime_tu, 5000);
    // The next one comes after rootInterval, with a new SN.
    assert!(net.timers.contains(&(tu_to_ns(2000), 0, HwmpTimer::Root)));
}

#[test]
fn proactive_preq_without_prep_gives_paths_to_the_root_only() {
    let mut net = rooted(RootMode::ProactivePreq);
    assert_eq!(paths_to_root(&net), TO_ROOT);
    assert!(net.sent.iter().all(|s| matches!(s.1, HwmpMsg::Preq(_))), "no PREP");
    assert_eq!(net.route(0, 3, MS), None);
    // A later announcement refreshes the paths with the root's new SN.
    net.fire_until(tu_to_ns(2000));
    assert_eq!(net.nodes[3].dest_seq(NodeId(0)), Some(2));
    assert!(net.route(3, 0, tu_to_ns(2000) + tu_to_ns(5000) - 1).is_some());
}

#[test]
fn rann_makes_every_node_set_up_a_path_to_the_root() {
    let net = rooted(RootMode::Rann);
    assert_eq!(paths_to_root(&net), TO_ROOT);
    assert_eq!(net.route(0, 3, MS), Some((1, 3, 60)));
    assert_eq!(net.route(0, 2, MS), Some((1, 2, 30)));
    // The RANN went down the chain with the metric accumulated.
    let ranns: Vec<_> = net
        .sent
        .iter()
        .filter_map(|s| match &s.1 {
            HwmpMsg::Rann(r) => Some((s.0, r.metric, r.hop_count, r.ttl)),
            _ => None,
        })
        .collect();
    assert_eq!(ranns, vec![(0, 0, 0, 31), (1, 10, 1, 30), (2, 30, 2, 29), (3, 60, 3, 28)]);
    // Each STA's PREQ to the root was individually addressed, hop by hop toward it.
    let preq_hops: Vec<_> = net
        .sent
        .iter()
        .filter_map(|s| match &s.1 {
            HwmpMsg::Preq(p) if p.orig == NodeId(3) => Some((s.0, s.2 .0, p.individual)),
            _ => None,
        })
        .collect();
    assert_eq!(preq_hops, vec![(3, 2, true), (2, 1, true), (1, 0, true)]);
}

#[test]
fn a_better_rann_of_the_same_sn_replaces_the_worse() {
    let mut n = HwmpNode::new(NodeId(5), HwmpConfig::default());
    let rann =
        Rann { hop_count: 2, ttl: 5, root: NodeId(0), seq: 7, interval_tu: 5000, metric: 100 };
    let mut out = vec![];
    n.receive(&HwmpMsg::Rann(rann), NodeId(1), 10, 0, &mut out);
    let sends = |out: &[HwmpAction]| -> Vec<(NodeId, u32)> {
        out.iter()
            .filter_map(|a| match a {
                HwmpAction::Send { msg: HwmpMsg::Rann(r), .. } => Some((r.root, r.metric)),
                HwmpAction::Send { msg: HwmpMsg::Preq(p), to } => Some((*to, p.target.addr.0)),
                _ => None,
            })
            .collect()
    };
    // Propagated with the metric, and a PREQ to the root through the RANN's transmitter.
    assert_eq!(sends(&out), vec![(NodeId(0), 110), (NodeId(1), 0)]);
    out.clear();
    n.receive(&HwmpMsg::Rann(Rann { metric: 200, ..rann }), NodeId(2), 10, MS, &mut out);
    assert!(sends(&out).is_empty(), "same SN, worse");
    n.receive(&HwmpMsg::Rann(Rann { metric: 50, ..rann }), NodeId(2), 10, MS, &mut out);
    // Better: propagated; the PREQ to the root waits for preqMinInterval, then goes via 2.
    assert_eq!(sends(&out), vec![(NodeId(0), 60)]);
    assert_eq!(
        out.last(),
        Some(&HwmpAction::Timer { timer: HwmpTimer::PreqQueue, at: tu_to_ns(100) })
    );
    out.clear();
    n.on_timer(HwmpTimer::PreqQueue, tu_to_ns(100), &mut out);
    assert_eq!(sends(&out), vec![(NodeId(2), 0)]);
}

//! HWMP against IEEE 802.11-2012 13.9 and 13.10, without a world: elements passed by hand
//! between nodes on hand-drawn topologies (`Net`), checked against what the clause says.

use std::collections::{BTreeMap, VecDeque};

use super::metric::*;
use super::msg::*;
use super::*;

pub(super) const MS: u64 = 1_000_000;

/// Nodes, directed link metrics, and what they did.
pub(super) struct Net {
    pub nodes: Vec<HwmpNode>,
    /// Metric of the link (transmitter, receiver).
    pub links: BTreeMap<(u32, u32), u32>,
    pub timers: Vec<(SimTime, u32, HwmpTimer)>,
    pub sent: Vec<(u32, HwmpMsg, NodeId)>,
    pub found: Vec<(u32, NodeId)>,
    pub unreachable: Vec<(u32, NodeId, SimTime)>,
}

impl Net {
    /// Nodes 0..n with links `(a, b, metric)`, both ways.
    pub fn new(n: u32, edges: &[(u32, u32, u32)], cfg: impl Fn(u32) -> HwmpConfig) -> Net {
        let mut links = BTreeMap::new();
        for &(a, b, m) in edges {
            links.insert((a, b), m);
            links.insert((b, a), m);
        }
        let nodes = (0..n).map(|i| HwmpNode::new(NodeId(i), cfg(i))).collect();
        let (timers, sent, found, unreachable) = (vec![], vec![], vec![], vec![]);
        Net { nodes, links, timers, sent, found, unreachable }
    }

    /// A chain 0 - 1 - ... with `metrics[i]` on the link i - i+1.
    pub fn chain(metrics: &[u32], cfg: impl Fn(u32) -> HwmpConfig) -> Net {
        let edges: Vec<_> =
            metrics.iter().enumerate().map(|(i, &m)| (i as u32, i as u32 + 1, m)).collect();
        Net::new(metrics.len() as u32 + 1, &edges, cfg)
    }

    /// Carry out `out` of node `origin` and everything it leads to, at `now`, in order.
    pub fn run(&mut self, origin: u32, out: Vec<HwmpAction>, now: SimTime) {
        let mut queue: VecDeque<(u32, HwmpAction)> = out.into_iter().map(|a| (origin, a)).collect();
        while let Some((from, action)) = queue.pop_front() {
            match action {
                HwmpAction::Send { msg, to } => {
                    self.sent.push((from, msg.clone(), to));
                    let receivers: Vec<(u32, u32)> = self
                        .links
                        .iter()
                        .filter(|((a, b), _)| *a == from && (to.is_broadcast() || to.0 == *b))
                        .map(|((_, b), m)| (*b, *m))
                        .collect();
                    for (r, m) in receivers {
                        let mut out = vec![];
                        self.nodes[r as usize].receive(&msg, NodeId(from), m, now, &mut out);
                        queue.extend(out.into_iter().map(|a| (r, a)));
                    }
                }
                HwmpAction::Timer { timer, at } => self.timers.push((at, from, timer)),
                HwmpAction::RouteFound { dst } => self.found.push((from, dst)),
                HwmpAction::Unreachable { dst } => self.unreachable.push((from, dst, now)),
            }
        }
    }

    /// Node `i` does `f` at `now`; its actions are carried out.
    pub fn act(
        &mut self,
        i: u32,
        now: SimTime,
        f: impl FnOnce(&mut HwmpNode, &mut Vec<HwmpAction>),
    ) {
        let mut out = vec![];
        f(&mut self.nodes[i as usize], &mut out);
        self.run(i, out, now);
    }

    /// Fire the timers due by `until`, earliest first.
    pub fn fire_until(&mut self, until: SimTime) {
        loop {
            self.timers.sort_by_key(|t| (t.0, t.1));
            let Some(&(at, node, timer)) = self.timers.first() else { break };
            if at > until {
                break;
            }
            self.timers.remove(0);
            self.act(node, at, |n, out| n.on_timer(timer, at, out));
        }
    }

    pub fn route(&self, i: u32, dst: u32, now: SimTime) -> Option<(u32, u8, u32)> {
        self.nodes[i as usize].route(NodeId(dst), now).map(|r| (r.next_hop.0, r.hops, r.metric))
    }

    pub fn sent_by(&self, i: u32) -> impl Iterator<Item = &(u32, HwmpMsg, NodeId)> {
        self.sent.iter().filter(move |s| s.0 == i)
    }
}

fn preqs(out: &[HwmpAction]) -> Vec<Preq> {
    out.iter()
        .filter_map(|a| match a {
            HwmpAction::Send { msg: HwmpMsg::Preq(p), .. } => Some(*p),
            _ => None,
        })
        .collect()
}

#[test]
fn airtime_metric_from_the_formula() {
    // 13.9: ca = [O + Bt/r] / (1 - ef) in units of 10.24 us, Bt = 8192.
    // 802.11a 54 Mb/s: (185 + 8192/54) / 10.24 = 336.70 / 10.24 = 32.88 -> 33.
    assert_eq!(airtime_metric(OVERHEAD_80211A_US, 54.0, 0.0), 33);
    // ef = 0.5 doubles the airtime: 673.41 / 10.24 = 65.76 -> 66.
    assert_eq!(airtime_metric(OVERHEAD_80211A_US, 54.0, 0.5), 66);
    // 802.11b 11 Mb/s: (699 + 8192/11) / 10.24 = 1443.73 / 10.24 = 140.99 -> 141.
    assert_eq!(airtime_metric(OVERHEAD_80211B_US, 11.0, 0.0), 141);
    // ef = 0.5: 2887.45 / 10.24 = 281.98 -> 282.
    assert_eq!(airtime_metric(OVERHEAD_80211B_US, 11.0, 0.5), 282);
    // A link that never delivers, or no rate, costs the most; the value saturates.
    assert_eq!(airtime_metric(OVERHEAD_80211A_US, 54.0, 1.0), MAX_METRIC);
    assert_eq!(airtime_metric(OVERHEAD_80211A_US, 0.0, 0.0), MAX_METRIC);
    assert_eq!(airtime_metric(OVERHEAD_80211A_US, 1e-9, 0.0), MAX_METRIC);
    assert_eq!(airtime_metric(OVERHEAD_80211A_US, f64::NAN, 0.0), MAX_METRIC);
}

#[test]
fn element_sizes_follow_the_element_formats() {
    let t = PreqTarget {
        addr: NodeId(1),
        target_only: false,
        reply_and_forward: true,
        unknown_seq: true,
        seq: 0,
    };
    let preq = Preq {
        individual: false,
        proactive_prep: false,
        hop_count: 0,
        ttl: 31,
        discovery_id: 1,
        orig: NodeId(0),
        orig_seq: 1,
        lifetime_tu: 5000,
        metric: 0,
        target: t,
    };
    // 8.4.2.115: 2 + 26 + 11 per target; 8.4.2.116: 2 + 31; 8.4.2.117: 2 + 2 + 13 per
    // destination; 8.4.2.114: 2 + 21.
    assert_eq!(HwmpMsg::Preq(preq).element_bytes(), 39);
    let prep = Prep {
        hop_count: 0,
        ttl: 31,
        target: NodeId(1),
        target_seq: 1,
        lifetime_tu: 5000,
        metric: 0,
        orig: NodeId(0),
        orig_seq: 1,
    };
    assert_eq!(HwmpMsg::Prep(prep).element_bytes(), 33);
    let d = PerrDest { addr: NodeId(1), seq: 2, reason: REASON_DESTINATION_UNREACHABLE };
    assert_eq!(HwmpMsg::Perr(Perr { ttl: 31, dests: vec![d] }).element_bytes(), 17);
    assert_eq!(HwmpMsg::Perr(Perr { ttl: 31, dests: vec![d; 2] }).element_bytes(), 30);
    let rann =
        Rann { hop_count: 0, ttl: 31, root: NodeId(0), seq: 1, interval_tu: 5000, metric: 0 };
    assert_eq!(HwmpMsg::Rann(rann).element_bytes(), 23);
    // MAC header 24, FCS 4, Category and Mesh Action 2.
    assert_eq!(HwmpMsg::Rann(rann).frame_bytes(), 53);
    assert!(std::mem::size_of::<HwmpMsg>() <= 48, "{}", std::mem::size_of::<HwmpMsg>());
}

#[test]
fn sequence_numbers_compare_across_wrap_around() {
    assert!(seq_newer(5, 3));
    assert!(!seq_newer(3, 5));
    assert!(!seq_newer(7, 7));
    assert!(seq_newer(0, u32::MAX));
    assert!(seq_newer(1, u32::MAX - 1));
    assert!(!seq_newer(u32::MAX, 0));
}

/// A flooded PREQ from `orig` (SN `seq`) for `target` with `metric` so far.
pub(super) fn preq_from(orig: u32, seq: u32, metric: u32, target: u32) -> HwmpMsg {
    HwmpMsg::Preq(Preq {
        individual: false,
        proactive_prep: false,
        hop_count: 2,
        ttl: 10,
        discovery_id: 1,
        orig: NodeId(orig),
        orig_seq: seq,
        lifetime_tu: 5000,
        metric,
        target: PreqTarget {
            addr: NodeId(target),
            target_only: false,
            reply_and_forward: true,
            unknown_seq: true,
            seq: 0,
        },
    })
}

#[test]
fn a_preq_is_accepted_when_newer_or_better_and_forwarded_with_its_metric() {
    let mut n = HwmpNode::new(NodeId(1), HwmpConfig::default());
    let mut out = vec![];
    n.receive(&preq_from(0, 5, 100, 9), NodeId(2), 10, 0, &mut out);
    let fwd = preqs(&out);
    assert_eq!(fwd.len(), 1);
    assert_eq!((fwd[0].metric, fwd[0].ttl, fwd[0].hop_count), (110, 9, 3));
    assert!(matches!(out[0], HwmpAction::Send { to: NodeId::BROADCAST, .. }));
    assert_eq!(
        n.route(NodeId(0), 0).map(|r| (r.next_hop, r.hops, r.metric)),
        Some((NodeId(2), 3, 110))
    );
    // 13.10.8.3: an older SN is ignored, even with a better metric.
    out.clear();
    n.receive(&preq_from(0, 4, 0, 9), NodeId(3), 10, MS, &mut out);
    assert!(preqs(&out).is_empty());
    // The same SN with the same or a worse metric is ignored.
    n.receive(&preq_from(0, 5, 100, 9), NodeId(3), 10, MS, &mut out);
    n.receive(&preq_from(0, 5, 120, 9), NodeId(3), 10, MS, &mut out);
    assert!(preqs(&out).is_empty());
    assert_eq!(n.route(NodeId(0), MS).map(|r| r.next_hop), Some(NodeId(2)));
    // The same SN with a better metric is accepted and forwarded.
    n.receive(&preq_from(0, 5, 50, 9), NodeId(3), 10, MS, &mut out);
    assert_eq!(preqs(&out).iter().map(|p| p.metric).collect::<Vec<_>>(), vec![60]);
    assert_eq!(n.route(NodeId(0), MS).map(|r| (r.next_hop, r.metric)), Some((NodeId(3), 60)));
    // A newer SN is accepted whatever its metric.
    out.clear();
    n.receive(&preq_from(0, 6, 500, 9), NodeId(2), 10, MS, &mut out);
    assert_eq!(preqs(&out).len(), 1);
    assert_eq!(n.route(NodeId(0), MS).map(|r| (r.next_hop, r.metric)), Some((NodeId(2), 510)));
    // Across the wrap-around: u32::MAX, then 0 is newer.
    out.clear();
    n.receive(&preq_from(4, u32::MAX, 100, 9), NodeId(2), 10, MS, &mut out);
    n.receive(&preq_from(4, 0, 900, 9), NodeId(3), 10, MS, &mut out);
    assert_eq!(preqs(&out).len(), 2);
    assert_eq!(n.dest_seq(NodeId(4)), Some(0));
    assert_eq!(n.route(NodeId(4), MS).map(|r| r.next_hop), Some(NodeId(3)));
}

#[test]
fn discovery_along_a_chain_gives_both_ends_the_summed_metric() {
    let mut net = Net::chain(&[10, 20, 30], |_| HwmpConfig::default());
    net.act(0, 0, |n, out| n.discover(NodeId(3), 0, out));
    // 13.10.8.2: the originator and the target each incremented their SN once.
    assert_eq!((net.nodes[0].seq(), net.nodes[3].seq()), (1, 1));
    assert_eq!(net.found, vec![(0, NodeId(3))]);
    assert_eq!(net.route(0, 3, MS), Some((1, 3, 60)));
    assert_eq!(net.route(3, 0, MS), Some((2, 3, 60)));
    assert_eq!(net.route(1, 3, MS), Some((2, 2, 50)));
    assert_eq!(net.route(1, 0, MS), Some((0, 1, 10)));
    assert_eq!(net.route(2, 0, MS), Some((1, 2, 30)));
    assert_eq!(net.route(2, 3, MS), Some((3, 1, 30)));
    assert_eq!(net.nodes[0].dest_seq(NodeId(3)), Some(1));
    // The PREP went back hop by hop, unicast.
    let preps: Vec<_> = net.sent.iter().filter(|s| matches!(s.1, HwmpMsg::Prep(_))).collect();
    let hops: Vec<_> = preps.iter().map(|s| (s.0, s.2 .0)).collect();
    assert_eq!(hops, vec![(3, 2), (2, 1), (1, 0)]);
}

#[test]
fn the_lower_metric_wins_over_the_first_heard() {
    // Two 2-hop paths 0-1-3 (10 + 100) and 0-2-3 (30 + 30): 3 hears the worse first.
    let mut net =
        Net::new(4, &[(0, 1, 10), (1, 3, 100), (0, 2, 30), (2, 3, 30)], |_| HwmpConfig::default());
    net.act(0, 0, |n, out| n.discover(NodeId(3), 0, out));
    assert_eq!(net.route(0, 3, MS), Some((2, 2, 60)));
    assert_eq!(net.route(3, 0, MS), Some((2, 2, 60)));
}

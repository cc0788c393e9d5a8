//! OLSR against RFC 3626, without a world: messages passed by hand between nodes on
//! hand-drawn topologies (`Net`), checked against what the RFC says each set must hold.

use std::collections::BTreeSet;

use super::msg::*;
use super::*;

const S: u64 = 1_000_000_000;

/// Nodes and who hears whom; `round` lets every node send its HELLO and delivers it to its
/// neighbours, `flood` sends every TC and forwards it as the nodes decide.
struct Net {
    nodes: Vec<OlsrNode>,
    edges: BTreeSet<(u32, u32)>,
    /// Transmissions of each message kind (HELLO, TC originated, TC forwarded).
    sent: [u64; 3],
}

impl Net {
    fn new(n: u32, edges: &[(u32, u32)]) -> Net {
        Net::with(n, edges, |_| OlsrConfig::default())
    }

    fn with(n: u32, edges: &[(u32, u32)], cfg: impl Fn(u32) -> OlsrConfig) -> Net {
        let mut set = BTreeSet::new();
        for &(a, b) in edges {
            set.insert((a, b));
            set.insert((b, a));
        }
        let nodes = (0..n).map(|i| OlsrNode::new(NodeId(i), cfg(i))).collect();
        Net { nodes, edges: set, sent: [0; 3] }
    }

    fn neighbours(&self, i: u32) -> Vec<u32> {
        self.edges.iter().filter(|e| e.0 == i).map(|e| e.1).collect()
    }

    fn hellos(&mut self, now: SimTime) {
        for i in 0..self.nodes.len() as u32 {
            let m = self.nodes[i as usize].hello(now);
            self.sent[0] += 1;
            for j in self.neighbours(i) {
                assert!(self.nodes[j as usize].receive(now, NodeId(i), &m).is_none());
            }
        }
    }

    /// Every node's TC flooded to the end (breadth first), at `now`.
    fn tcs(&mut self, now: SimTime) {
        for i in 0..self.nodes.len() as u32 {
            let Some(m) = self.nodes[i as usize].tc(now) else { continue };
            self.sent[1] += 1;
            let mut queue = vec![(i, m)];
            while let Some((from, m)) = queue.pop() {
                for j in self.neighbours(from) {
                    if let Some(fwd) = self.nodes[j as usize].receive(now, NodeId(from), &m) {
                        self.sent[2] += 1;
                        queue.insert(0, (j, fwd));
                    }
                }
            }
        }
    }

    /// HELLO rounds until the neighbourhoods settle, then TCs.
    fn converge(&mut self) -> SimTime {
        let mut now = 0;
        for _ in 0..3 {
            self.hellos(now);
            now += 2 * S;
        }
        self.tcs(now);
        now
    }

    fn mprs(&self, i: u32) -> Vec<u32> {
        self.nodes[i as usize].mprs().iter().map(|n| n.0).collect()
    }
}

#[test]
fn link_sensing_goes_asymmetric_then_symmetric() {
    // RFC 7.1.1: a HELLO that does not list the receiver makes the link asymmetric; one
    // listing it makes it symmetric.
    let mut a = OlsrNode::new(NodeId(0), OlsrConfig::default());
    let mut b = OlsrNode::new(NodeId(1), OlsrConfig::default());
    let hb = b.hello(0);
    a.receive(0, NodeId(1), &hb);
    let ha = a.hello(S);
    assert_eq!(
        ha.body,
        Body::Hello(Hello {
            willingness: WILL_DEFAULT,
            links: vec![(NodeId(1), LinkType::Asym, NeighborType::Not)],
        })
    );
    assert!(a.neighbors(S).is_empty(), "asymmetric only");
    b.receive(S, NodeId(0), &ha);
    assert_eq!(b.neighbors(S), vec![NodeId(0)], "b heard itself listed: symmetric");
    let hb = b.hello(2 * S);
    a.receive(2 * S, NodeId(1), &hb);
    assert_eq!(a.neighbors(2 * S), vec![NodeId(1)]);
    assert_eq!(a.next_hop(NodeId(1), 2 * S), Some(NodeId(1)));
    // Silence: the link expires after its validity (NEIGHB_HOLD_TIME).
    assert!(a.neighbors(2 * S + 6 * S + 1).is_empty());
    assert_eq!(a.next_hop(NodeId(1), 2 * S + 6 * S + 1), None);
}

#[test]
fn a_lost_link_is_advertised_as_lost() {
    let mut net = Net::new(2, &[(0, 1)]);
    net.converge();
    // Section 13: the link is no longer symmetric at once. Section 6.2: it is advertised as
    // asymmetric while the last HELLO heard from 1 is valid, then as lost until L_time
    // (NEIGHB_HOLD_TIME after the failure).
    let a = &mut net.nodes[0];
    a.link_failed(5 * S, NodeId(1));
    assert_eq!(a.next_hop(NodeId(1), 5 * S), None);
    let links = |a: &mut OlsrNode, t: u64| match a.hello(t).body {
        Body::Hello(h) => h.links,
        _ => unreachable!(),
    };
    assert_eq!(links(a, 5 * S), vec![(NodeId(1), LinkType::Asym, NeighborType::Not)]);
    // 1's last HELLO was at 4 s, valid for 6 s: lost from 10 s, gone after 11 s.
    assert_eq!(links(a, 10 * S + 1), vec![(NodeId(1), LinkType::Lost, NeighborType::Not)]);
    assert_eq!(links(a, 11 * S + 1), vec![]);
}

#[test]
fn mprs_cover_every_two_hop_neighbour_with_the_fewest_nodes() {
    // Node 0 has neighbours 1..4; 1 reaches 5 and 6, 2 reaches 6 and 7, 3 reaches 7, 4
    // reaches 8. RFC 8.3.1 step 3: 4 is the only way to 8 and 1 the only way to 5 (which
    // also covers 6); step 4: 7 is reached by 2 and 3 alike (willingness and reachability
    // equal), and 2 has the greater degree D (6 and 7 against 7).
    let edges = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 5), (1, 6), (2, 6), (2, 7), (3, 7), (4, 8)];
    let mut net = Net::new(9, &edges);
    net.converge();
    let mprs = net.mprs(0);
    assert_eq!(mprs, vec![1, 2, 4]);
    let two_hop: BTreeSet<u32> = [5, 6, 7, 8].into();
    let covered: BTreeSet<u32> =
        mprs.iter().flat_map(|m| net.neighbours(*m)).filter(|n| two_hop.contains(n)).collect();
    assert_eq!(covered, two_hop);
}

#[test]
fn willingness_orders_the_choice_and_never_excludes() {
    // A square: 0's neighbours 1 and 2 both reach 3. With 2 at WILL_HIGH it is chosen; with
    // 2 at WILL_NEVER, 1 is, whatever the ids; WILL_ALWAYS is always an MPR.
    for (w2, want) in [(WILL_HIGH, vec![2]), (WILL_NEVER, vec![1]), (WILL_ALWAYS, vec![2])] {
        let mut net = Net::with(4, &[(0, 1), (0, 2), (1, 3), (2, 3)], |i| OlsrConfig {
            willingness: if i == 2 { w2 } else { WILL_DEFAULT },
            ..OlsrConfig::default()
        });
        net.converge();
        assert_eq!(net.mprs(0), want, "willingness of 2 = {w2}");
    }
    // WILL_ALWAYS is taken even where not needed.
    let mut net = Net::with(3, &[(0, 1), (0, 2), (1, 2)], |i| OlsrConfig {
        willingness: if i == 1 { WILL_ALWAYS } else { WILL_DEFAULT },
        ..OlsrConfig::default()
    });
    net.converge();
    assert_eq!(net.mprs(0), vec![1]);
}

#[test]
fn a_chain_routes_end_to_end_through_tcs() {
    // On a 6-node chain every inner node is an MPR of both its neighbours; TCs carry the
    // topology beyond two hops and the table gives each destination its hop count.
    let edges: Vec<(u32, u32)> = (0..5).map(|i| (i, i + 1)).collect();
    let mut net = Net::new(6, &edges);
    let now = net.converge();
    for i in 1..5 {
        assert_eq!(net.mprs(i).len(), usize::from(i > 1) + usize::from(i < 4));
    }
    for dst in 1..6u32 {
        assert_eq!(net.nodes[0].next_hop(NodeId(dst), now), Some(NodeId(1)));
        assert_eq!(net.nodes[0].route(NodeId(dst), now).unwrap().1, dst);
    }
    assert_eq!(net.nodes[5].next_hop(NodeId(0), now), Some(NodeId(4)));
    assert_eq!(net.nodes[5].route(NodeId(0), now).unwrap(), (NodeId(4), 5));
}

#[test]
fn tcs_are_forwarded_only_by_mprs_and_once() {
    // A 3x3 grid (4-neighbour). Every TC reaches every node, and is retransmitted only by
    // MPRs of the node it came from, each at most once (the duplicate set).
    let mut edges = Vec::new();
    for r in 0..3 {
        for c in 0..3 {
            let i = r * 3 + c;
            if c < 2 {
                edges.push((i, i + 1));
            }
            if r < 2 {
                edges.push((i, i + 3));
            }
        }
    }
    let mut net = Net::new(9, &edges);
    let now = net.converge();
    let originated = net.sent[1];
    assert!(originated > 0 && originated < 9, "only nodes with MPR selectors send TCs");
    // Without MPRs, a flood costs every node one retransmission per TC; with them, fewer.
    assert!(net.sent[2] < originated * 8, "{} forwards of {originated} TCs", net.sent[2]);
    for i in 0..9 {
        for j in 0..9 {
            if i != j {
                let (_, hops) = net.nodes[i].route(NodeId(j as u32), now).expect("a route");
                let (ri, ci, rj, cj) = (i / 3, i % 3, j / 3, j % 3);
                assert_eq!(hops as usize, ri.abs_diff(rj) + ci.abs_diff(cj), "{i} -> {j}");
            }
        }
    }
    // A second flood of the same messages is all duplicates.
    let m = net.nodes[4].tc(now);
    if let Some(m) = m {
        let mut again = net.nodes[1].clone();
        let first = again.receive(now, NodeId(4), &m);
        let second = again.receive(now, NodeId(4), &m);
        assert!(second.is_none(), "processed and forwarded once: {first:?}");
    }
}

#[test]
fn a_tc_from_outside_the_symmetric_neighbourhood_is_ignored() {
    let mut net = Net::new(3, &[(0, 1), (1, 2)]);
    let now = net.converge();
    let tc = Message {
        originator: NodeId(9),
        seq: 1,
        ttl: 255,
        hops: 3,
        vtime_ns: 15 * S,
        body: Body::Tc(Tc { ansn: 1, advertised: vec![NodeId(8)] }),
    };
    assert!(net.nodes[0].receive(now, NodeId(7), &tc).is_none());
    assert_eq!(net.nodes[0].next_hop(NodeId(8), now), None);
    // From a symmetric neighbour it is taken: 9 through 1? No: 9 itself is unknown, so 8 is
    // not reachable (the table needs a route to the TC's originator).
    assert!(net.nodes[0].receive(now, NodeId(1), &tc).is_none(), "0 is no MPR of 1");
    assert_eq!(net.nodes[0].next_hop(NodeId(8), now), None);
}

#[test]
fn ansn_rules_older_tcs_are_ignored_and_newer_replace() {
    // 0 - 1 - 2: TCs originated by 2 (two hops from 0) reach 0 through 1. Section 10 builds
    // routes from the topology set from h = 2 on: what 2 advertises is 3 hops from 0.
    let mut net = Net::new(3, &[(0, 1), (1, 2)]);
    let now = net.converge();
    let tc = |ansn: u16, seq: u16, adv: &[u32]| Message {
        originator: NodeId(2),
        seq,
        ttl: 254,
        hops: 1,
        vtime_ns: 15 * S,
        body: Body::Tc(Tc { ansn, advertised: adv.iter().map(|n| NodeId(*n)).collect() }),
    };
    let a = &mut net.nodes[0];
    a.receive(now, NodeId(1), &tc(10, 100, &[5, 6]));
    assert_eq!(a.route(NodeId(5), now), Some((NodeId(1), 3)), "read before any routing");
    assert_eq!(a.next_hop(NodeId(5), now), Some(NodeId(1)));
    a.receive(now, NodeId(1), &tc(9, 101, &[7]));
    assert_eq!(a.next_hop(NodeId(7), now), None, "an older ANSN is ignored");
    a.receive(now, NodeId(1), &tc(11, 102, &[7]));
    assert_eq!(a.next_hop(NodeId(7), now), Some(NodeId(1)));
    assert_eq!(a.next_hop(NodeId(5), now), None, "a newer ANSN replaces the set");
    // The tuples expire with the TC's validity.
    assert_eq!(a.next_hop(NodeId(7), now + 15 * S + 1), None);
    // Wrap-around (section 19): 1 is newer than 65535.
    assert!(seq_newer(1, u16::MAX) && !seq_newer(u16::MAX, 1));
}

#[test]
fn control_traffic_on_a_static_network_is_the_rfcs_arithmetic() {
    // One HELLO per node per HELLO_INTERVAL; one TC per node with selectors per TC_INTERVAL,
    // retransmitted once by each MPR of each node it passes. Here: a 5-chain.
    let edges: Vec<(u32, u32)> = (0..4).map(|i| (i, i + 1)).collect();
    let mut net = Net::new(5, &edges);
    net.converge();
    assert_eq!(net.sent[0], 15, "3 rounds of 5 HELLOs");
    // Selectors: 1 (of 0, 2), 2 (of 1, 3), 3 (of 2, 4): three TCs, each forwarded by every
    // inner node it reaches from a selector: 1's by 2 and 3 (2 forwards from 1, 3 from 2).
    assert_eq!(net.sent[1], 3);
    assert_eq!(net.sent[2], 2 + 2 + 2, "each TC is forwarded by the other two MPRs");
}

#[test]
fn hello_and_tc_sizes_follow_the_message_formats() {
    let h = Message {
        originator: NodeId(0),
        seq: 1,
        ttl: 1,
        hops: 0,
        vtime_ns: 6 * S,
        body: Body::Hello(Hello {
            willingness: 3,
            links: vec![
                (NodeId(1), LinkType::Sym, NeighborType::Mpr),
                (NodeId(2), LinkType::Sym, NeighborType::Sym),
                (NodeId(3), LinkType::Sym, NeighborType::Sym),
            ],
        }),
    };
    // 12 (message header) + 4 (HELLO) + 2 link codes x 4 + 3 addresses x 4.
    assert_eq!(h.bytes(), 12 + 4 + 8 + 12);
    let t = Message { body: Body::Tc(Tc { ansn: 1, advertised: vec![NodeId(1), NodeId(2)] }), ..h };
    assert_eq!(t.bytes(), 12 + 4 + 8);
}

#[test]
fn an_empty_tc_is_sent_for_top_hold_time_after_the_last_selector() {
    // 0 - 1 - 2: 1 is the MPR of 0 and 2, so it sends TCs; when 0 and 2 fall silent its
    // selectors expire with their HELLOs' validity, and section 9.3 has it send empty TCs
    // (a new ANSN) for TOP_HOLD_TIME after it last advertised someone, then none.
    let mut net = Net::new(3, &[(0, 1), (1, 2)]);
    let now = net.converge();
    let b = &mut net.nodes[1];
    let Some(Message { body: Body::Tc(first), .. }) = b.tc(now) else { panic!("a TC") };
    assert_eq!(first.advertised, vec![NodeId(0), NodeId(2)]);
    let silent = now + 6 * S + 1; // the selectors' HELLOs (at 4 s) are void by 10 s
    let Some(Message { body: Body::Tc(empty), .. }) = b.tc(silent) else { panic!("empty TC") };
    assert!(empty.advertised.is_empty());
    assert!(seq_newer(empty.ansn, first.ansn), "the advertised set changed");
    assert!(b.tc(now + 15 * S - 1).is_some(), "within TOP_HOLD_TIME of the last advertised");
    assert!(b.tc(now + 15 * S + 1).is_none());
}

#[test]
fn a_neighbour_that_falls_silent_takes_its_two_hop_nodes_and_routes_along() {
    // Section 8.5: 0 reaches 2 through 1; once 1's HELLOs stop, 1 leaves the symmetric
    // neighbourhood and 2 leaves the two-hop set, so 0 has no route to either.
    let mut net = Net::new(3, &[(0, 1), (1, 2)]);
    let now = net.converge();
    let a = &mut net.nodes[0];
    assert_eq!(a.next_hop(NodeId(2), now), Some(NodeId(1)));
    assert_eq!(a.mprs().iter().copied().collect::<Vec<_>>(), vec![NodeId(1)]);
    let later = now + 6 * S + 1;
    assert_eq!(a.next_hop(NodeId(2), later), None);
    assert_eq!(a.next_hop(NodeId(1), later), None);
    a.hello(later); // the MPR set is computed for the HELLO that says it
    assert!(a.mprs().is_empty(), "nothing left to cover");
}

#[test]
fn reading_a_route_gives_what_routing_would_and_changes_nothing() {
    // A 6-node chain converges, then the link 2-3 breaks, then it is repaired. HELLOs and TCs
    // go on (the tuples through the break expire one by one, new ones come after the repair)
    // but no node routes a packet. At every instant a read equals what routing a packet
    // would find on a copy whose kept table is thrown away (computed from the sets alone),
    // whatever was read before.
    let edges: Vec<(u32, u32)> = (0..5).map(|i| (i, i + 1)).collect();
    let mut net = Net::new(6, &edges);
    let mut now = net.converge();
    let (mut gone, mut back) = (0, 0);
    for step in 0..80 {
        match step {
            0 => (net.edges.remove(&(2, 3)), net.edges.remove(&(3, 2))).0,
            40 => (net.edges.insert((2, 3)), net.edges.insert((3, 2))).0,
            _ => false,
        };
        if step % 4 == 0 {
            net.hellos(now);
        }
        if step % 10 == 5 {
            net.tcs(now);
        }
        for i in 0..6 {
            for j in (0..6u32).filter(|j| *j != i) {
                let node = &net.nodes[i as usize];
                let read = node.route(NodeId(j), now);
                let mut fresh = node.clone();
                fresh.routes = routes::Routes::default();
                assert_eq!(read.map(|r| r.0), fresh.next_hop(NodeId(j), now), "{i}->{j} at {now}");
                assert_eq!(node.route(NodeId(j), now), read, "a second read");
                let across = (i < 3) != (j < 3);
                gone += usize::from(step < 40 && across && read.is_none());
                back += usize::from(step >= 60 && across && read.is_some());
            }
        }
        now += S / 2;
    }
    assert!(gone > 0, "routes across the break expired within the run");
    assert!(back > 0, "and came back after the repair");
}

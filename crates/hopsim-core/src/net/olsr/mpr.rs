//! MPR selection (RFC 3626 section 8.3.1, the RFC's heuristic; ns-3's `MprComputation` does
//! the same): the fewest symmetric neighbours, by the RFC's greedy order, through which every
//! strict two-hop neighbour is reached. A pure function of the neighbourhood.

use std::collections::{BTreeMap, BTreeSet};

use super::msg::{WILL_ALWAYS, WILL_NEVER};
use crate::ids::NodeId;

/// The MPR set of `me` from its symmetric neighbours (with their willingness) and its two-hop
/// tuples (neighbour, two-hop node).
pub fn select(
    me: NodeId,
    symmetric: &BTreeMap<NodeId, u8>,
    two_hop: &BTreeSet<(NodeId, NodeId)>,
) -> BTreeSet<NodeId> {
    // N: symmetric neighbours willing to forward.
    let n: BTreeSet<NodeId> =
        symmetric.iter().filter(|(_, w)| **w != WILL_NEVER).map(|(id, _)| *id).collect();
    // N2: two-hop nodes reached through N, not this node, not a symmetric neighbour.
    let reach = |y: NodeId| {
        two_hop
            .range((y, NodeId(0))..=(y, NodeId(u32::MAX)))
            .map(|&(_, z)| z)
            .filter(|z| *z != me && !symmetric.contains_key(z))
    };
    let mut uncovered: BTreeSet<NodeId> = n.iter().flat_map(|&y| reach(y)).collect();
    // D(y): y's symmetric neighbours outside N and other than this node.
    let degree = |y: NodeId| {
        two_hop
            .range((y, NodeId(0))..=(y, NodeId(u32::MAX)))
            .filter(|(_, z)| *z != me && !n.contains(z))
            .count()
    };
    let mut mprs = BTreeSet::new();
    let take = |y: NodeId, mprs: &mut BTreeSet<NodeId>, uncovered: &mut BTreeSet<NodeId>| {
        mprs.insert(y);
        for z in reach(y) {
            uncovered.remove(&z);
        }
    };
    // 1. Every neighbour that is always willing.
    for &y in n.iter().filter(|y| symmetric[y] == WILL_ALWAYS) {
        take(y, &mut mprs, &mut uncovered);
    }
    // 3. The only neighbour that reaches some node of N2.
    let sole: Vec<NodeId> = uncovered
        .iter()
        .filter_map(|z| {
            let mut via = n.iter().filter(|&&y| reach(y).any(|r| r == *z));
            match (via.next(), via.next()) {
                (Some(y), None) => Some(*y),
                _ => None,
            }
        })
        .collect();
    for y in sole {
        take(y, &mut mprs, &mut uncovered);
    }
    // 4. Greedily: highest willingness, then most uncovered nodes reached, then degree (ties:
    // the lowest id, as an ordered set gives them).
    while !uncovered.is_empty() {
        let best = n
            .iter()
            .filter(|y| !mprs.contains(*y))
            .map(|&y| (y, reach(y).filter(|z| uncovered.contains(z)).count()))
            .filter(|(_, r)| *r > 0)
            .max_by(|a, b| {
                (symmetric[&a.0], a.1, degree(a.0))
                    .cmp(&(symmetric[&b.0], b.1, degree(b.0)))
                    .then(b.0.cmp(&a.0))
            });
        match best {
            Some((y, _)) => take(y, &mut mprs, &mut uncovered),
            None => break, // unreachable: every node of N2 is reached through N
        }
    }
    mprs
}

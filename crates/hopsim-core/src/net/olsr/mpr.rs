//! MPR selection (RFC 3626 section 8.3.1, the RFC's heuristic; ns-3's `MprComputation` does
//! the same): the fewest symmetric neighbours, by the RFC's greedy order, through which every
//! strict two-hop neighbour is reached. A pure function of the neighbourhood.

use std::collections::{BTreeMap, BTreeSet};

use crate::engine::time::SimTime;

use super::msg::{WILL_ALWAYS, WILL_NEVER};
use crate::ids::NodeId;

/// The MPR set of `me` from its symmetric neighbours with their willingness (in id order)
/// and its two-hop tuples (neighbour, two-hop node).
pub fn select(
    me: NodeId,
    symmetric: &[(NodeId, u8)],
    two_hop: &BTreeMap<(NodeId, NodeId), SimTime>,
) -> BTreeSet<NodeId> {
    // N: symmetric neighbours willing to forward, in id order, with their willingness.
    let n: Vec<(NodeId, u8)> =
        symmetric.iter().filter(|(_, w)| *w != WILL_NEVER).copied().collect();
    let is_sym = |z: &NodeId| symmetric.binary_search_by_key(z, |e| e.0).is_ok();
    let in_n = |z: &NodeId| n.binary_search_by_key(z, |e| e.0).is_ok();
    // N2: two-hop nodes reached through N, not this node, not a symmetric neighbour; each
    // neighbour's reach as indices into N2; D(y): its neighbours outside N and not this node.
    let mut n2: Vec<NodeId> = Vec::new();
    let mut reach: Vec<Vec<NodeId>> = Vec::with_capacity(n.len());
    let mut degree: Vec<usize> = Vec::with_capacity(n.len());
    for &(y, _) in &n {
        let of_y = two_hop.range((y, NodeId(0))..=(y, NodeId(u32::MAX))).map(|(&(_, z), _)| z);
        degree.push(of_y.clone().filter(|z| *z != me && !in_n(z)).count());
        let strict: Vec<NodeId> = of_y.filter(|z| *z != me && !is_sym(z)).collect();
        n2.extend(&strict);
        reach.push(strict);
    }
    n2.sort_unstable();
    n2.dedup();
    let idx = |z: &NodeId| n2.binary_search(z).expect("in N2");
    let reach: Vec<Vec<usize>> = reach.iter().map(|r| r.iter().map(idx).collect()).collect();
    let mut covered = vec![false; n2.len()];
    let mut left = n2.len();
    let mut chosen = vec![false; n.len()];
    let take = |k: usize, chosen: &mut Vec<bool>, covered: &mut Vec<bool>, left: &mut usize| {
        chosen[k] = true;
        for &z in &reach[k] {
            if !covered[z] {
                covered[z] = true;
                *left -= 1;
            }
        }
    };
    // 1. Every neighbour that is always willing.
    for (k, _) in n.iter().enumerate().filter(|(_, (_, w))| *w == WILL_ALWAYS) {
        take(k, &mut chosen, &mut covered, &mut left);
    }
    // 3. The only neighbour that reaches some node of N2 (as N2 stands after step 1).
    let mut coverers: Vec<(usize, Option<usize>)> = vec![(0, None); n2.len()];
    for (k, r) in reach.iter().enumerate() {
        for &z in r {
            coverers[z].0 += 1;
            coverers[z].1 = Some(k);
        }
    }
    let sole: Vec<usize> = (0..n2.len())
        .filter(|z| !covered[*z] && coverers[*z].0 == 1)
        .filter_map(|z| coverers[z].1)
        .collect();
    for k in sole {
        take(k, &mut chosen, &mut covered, &mut left);
    }
    // 4. Greedily: highest willingness, then most uncovered nodes reached, then degree (ties:
    // the lowest id).
    while left > 0 {
        let best = (0..n.len())
            .filter(|k| !chosen[*k])
            .map(|k| (k, reach[k].iter().filter(|z| !covered[**z]).count()))
            .filter(|(_, r)| *r > 0)
            .max_by(|&(a, ra), &(b, rb)| {
                (n[a].1, ra, degree[a]).cmp(&(n[b].1, rb, degree[b])).then(b.cmp(&a))
            });
        match best {
            Some((k, _)) => take(k, &mut chosen, &mut covered, &mut left),
            None => break, // unreachable: every node of N2 is reached through N
        }
    }
    n.iter().zip(&chosen).filter(|(_, c)| **c).map(|((id, _), _)| *id).collect()
}

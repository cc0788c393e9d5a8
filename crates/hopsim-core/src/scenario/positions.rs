//! Node positions from the scenario's `[topology]` table.

use super::{Topology, TopologyKind};
use crate::engine::rng::{Purpose, Rng};

/// Positions (x, y) in metres, one per node, node ids in order. Assumes a validated topology.
/// `attempt` > 0 draws another random placement (for re-seeding disconnected ones).
pub fn positions_m(topology: &Topology, seed: u64, attempt: u32) -> Vec<[f64; 2]> {
    match topology.kind {
        TopologyKind::Chain => {
            let hops = topology.hops.unwrap_or(1);
            let spacing = topology.spacing_m.unwrap_or(0.0);
            (0..=hops).map(|i| [i as f64 * spacing, 0.0]).collect()
        }
        TopologyKind::Grid => {
            let (rows, cols) = (topology.rows.unwrap_or(1), topology.cols.unwrap_or(1));
            let spacing = topology.spacing_m.unwrap_or(0.0);
            let mut out = Vec::with_capacity((rows * cols) as usize);
            for r in 0..rows {
                for c in 0..cols {
                    out.push([c as f64 * spacing, r as f64 * spacing]);
                }
            }
            out
        }
        TopologyKind::Positions => topology.positions.clone().unwrap_or_default(),
        TopologyKind::Random => {
            let n = topology.nodes.unwrap_or(0);
            let [w, h] = topology.area_m.unwrap_or([0.0, 0.0]);
            // One stream per node so that adding nodes keeps the others' places.
            (0..n)
                .map(|i| {
                    let index = ((attempt as u64) << 32) | i as u64;
                    let mut rng = Rng::derive(seed, Purpose::Topology, index);
                    [rng.uniform() * w, rng.uniform() * h]
                })
                .collect()
        }
        TopologyKind::Testbed => {
            let n = topology.nodes.unwrap_or(0);
            let b = topology.testbed.clone().unwrap_or_default();
            let cols = (b.buildings as f64).sqrt().ceil().max(1.0) as u32;
            let [w, h] = b.building_size_m;
            (0..n)
                .map(|i| {
                    // Node i lives in building i mod B, uniform inside its rectangle.
                    let k = i % b.buildings.max(1);
                    let centre = [
                        (k % cols) as f64 * b.building_spacing_m,
                        (k / cols) as f64 * b.building_spacing_m,
                    ];
                    let index = ((attempt as u64) << 32) | i as u64;
                    let mut rng = Rng::derive(seed, Purpose::Topology, index);
                    [centre[0] + (rng.uniform() - 0.5) * w, centre[1] + (rng.uniform() - 0.5) * h]
                })
                .collect()
        }
    }
}

/// The building of each node of a testbed topology (empty for other kinds).
pub fn clusters(topology: &Topology) -> Vec<u32> {
    match (topology.kind, &topology.testbed) {
        (TopologyKind::Testbed, Some(b)) => {
            (0..topology.nodes.unwrap_or(0)).map(|i| i % b.buildings.max(1)).collect()
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topo(kind: TopologyKind) -> Topology {
        Topology {
            kind,
            hops: None,
            spacing_m: None,
            rows: None,
            cols: None,
            positions: None,
            nodes: None,
            area_m: None,
            connected: None,
            testbed: None,
            seed: None,
        }
    }

    #[test]
    fn chain_and_grid() {
        let t = Topology { hops: Some(3), spacing_m: Some(200.0), ..topo(TopologyKind::Chain) };
        assert_eq!(
            positions_m(&t, 1, 0),
            vec![[0.0, 0.0], [200.0, 0.0], [400.0, 0.0], [600.0, 0.0]]
        );
        let g = Topology {
            rows: Some(2),
            cols: Some(3),
            spacing_m: Some(10.0),
            ..topo(TopologyKind::Grid)
        };
        let p = positions_m(&g, 1, 0);
        assert_eq!(p.len(), 6);
        assert_eq!(p[4], [10.0, 10.0]);
    }

    #[test]
    fn random_is_seeded_and_stable_when_growing() {
        let t = |n| Topology {
            nodes: Some(n),
            area_m: Some([100.0, 50.0]),
            ..topo(TopologyKind::Random)
        };
        let a = positions_m(&t(10), 5, 0);
        let b = positions_m(&t(11), 5, 0);
        let c = positions_m(&t(10), 6, 0);
        assert_eq!(a[..], b[..10]);
        assert_ne!(a, c);
        assert!(a.iter().all(|p| (0.0..100.0).contains(&p[0]) && (0.0..50.0).contains(&p[1])));
        assert_ne!(positions_m(&t(10), 5, 1), a, "another attempt, another placement");
    }
}

//! Moving nodes: who hears whom is worked out at the start of each transmission from the
//! exact positions at that time (O(n) per transmission; nodes surely out of reach cost a
//! squared distance, not a path loss). Static topologies never come here:
//! they keep the precomputed neighbour lists of `Channel`.

use crate::engine::time::SimTime;
use crate::mobility::Trajectory;
use crate::phy::channel::Link;
use crate::phy::links::LinkModel;
use crate::phy::propagation::distance_m;

pub(crate) struct Motion {
    trajectories: Vec<Trajectory>,
    cursors: Vec<usize>,
    model: LinkModel,
    /// Squared distance beyond which no node hears another (no shadowing), else infinite.
    reach_sq_m2: f64,
}

impl Motion {
    pub fn new(trajectories: Vec<Trajectory>, model: LinkModel) -> Motion {
        let n = trajectories.len();
        let reach_sq_m2 = model.sure_reach_sq_m2().unwrap_or(f64::INFINITY);
        Motion { trajectories, cursors: vec![0; n], model, reach_sq_m2 }
    }
}

impl Motion {
    #[inline]
    pub fn position(&mut self, node: u32, t: SimTime) -> [f64; 2] {
        let i = node as usize;
        self.trajectories[i].position(t, &mut self.cursors[i])
    }

    /// Listeners of `tx` above the carrier-sense threshold at time `t`, in node order.
    pub fn links(&mut self, tx: u32, t: SimTime, out: &mut Vec<Link>) {
        out.clear();
        let at = self.position(tx, t);
        for j in 0..self.trajectories.len() as u32 {
            if j == tx {
                continue;
            }
            let p = self.position(j, t);
            let (dx, dy) = (at[0] - p[0], at[1] - p[1]);
            if dx * dx + dy * dy > self.reach_sq_m2 {
                continue; // out of reach for certain: no power to work out
            }
            let d = distance_m(at, p);
            if let Some(link) = self.model.link(tx, j, d) {
                out.push(link);
            }
        }
    }

    /// Are `a` and `b` within decode range of each other at `t`?
    pub fn in_decode_range(&mut self, a: u32, b: u32, t: SimTime) -> bool {
        let d = distance_m(self.position(a, t), self.position(b, t));
        self.model.power_w(a, b, d) >= self.model.rx_w
    }

    /// Largest propagation delay between nodes that can hear each other.
    pub fn max_delay_ns(&self) -> u64 {
        crate::phy::propagation::delay_ns(self.model.max_reach_m())
    }
}

pub(crate) fn bounding_box(positions: &[[f64; 2]]) -> [f64; 2] {
    let max = |k: usize| positions.iter().map(|p| p[k]).fold(0.0, f64::max);
    [max(0).max(1.0), max(1).max(1.0)]
}

impl Motion {
    /// Is the decode-range graph connected at every whole second of the run?
    pub fn connected_throughout(&mut self, duration_ns: SimTime) -> bool {
        let n = self.trajectories.len();
        let mut t = 0;
        while t <= duration_ns {
            let pos: Vec<[f64; 2]> = (0..n as u32).map(|i| self.position(i, t)).collect();
            let mut reached = vec![false; n];
            let mut stack = vec![0usize];
            reached[0] = true;
            while let Some(v) = stack.pop() {
                for u in 0..n {
                    let d = distance_m(pos[v], pos[u]);
                    if !reached[u] && self.model.power_w(v as u32, u as u32, d) >= self.model.rx_w {
                        reached[u] = true;
                        stack.push(u);
                    }
                }
            }
            if reached.iter().any(|r| !r) {
                return false;
            }
            t += 1_000_000_000;
        }
        true
    }

    /// Each node's legs as `[start_s, end_s, to_x_m, to_y_m]` (pauses left out).
    pub fn moves(&self) -> Vec<Vec<[f64; 4]>> {
        let s = |ns: SimTime| ns as f64 / 1e9;
        self.trajectories
            .iter()
            .map(|t| {
                t.legs
                    .iter()
                    .filter(|l| l.from != l.to)
                    .map(|l| [s(l.t0_ns), s(l.t1_ns), l.to[0], l.to[1]])
                    .collect()
            })
            .collect()
    }

    /// Start positions (trace files set them).
    pub fn starts(&self) -> Vec<[f64; 2]> {
        self.trajectories.iter().map(|t| t.start).collect()
    }
}

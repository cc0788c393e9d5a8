//! Moving nodes: who hears whom is worked out at the start of each transmission from the
//! exact positions at that time (O(n) per transmission; a position costs a compare and the
//! interpolation within the node's cached piece of trajectory, and nodes surely out of reach
//! cost a squared distance, not a path loss). Static topologies never come here:
//! they keep the precomputed neighbour lists of `Channel`.

use crate::engine::time::SimTime;
use crate::ids::NodeId;
use crate::mobility::{Piece, Trajectory};
use crate::phy::links::Link;
use crate::phy::links::LinkModel;
use crate::phy::propagation::distance_m;

#[derive(Clone)]
pub(crate) struct Motion {
    trajectories: Vec<Trajectory>,
    cursors: Vec<usize>,
    /// Each node's piece of trajectory at its last lookup: a node's position costs a compare
    /// and the interpolation until the node next starts or ends a leg.
    pieces: Vec<Piece>,
    model: LinkModel,
    /// Squared distance beyond which no node hears another (no shadowing), else infinite.
    reach_sq_m2: f64,
    /// Per node, the listeners of the frame it has on the air (worked out at its start).
    pub on_air: Vec<Vec<Link>>,
}

impl Motion {
    pub fn new(trajectories: Vec<Trajectory>, model: LinkModel) -> Motion {
        let n = trajectories.len();
        let reach_sq_m2 = model.sure_reach_sq_m2().unwrap_or(f64::INFINITY);
        let pieces = vec![Piece::EMPTY; n];
        let on_air = vec![Vec::new(); n];
        Motion { trajectories, cursors: vec![0; n], pieces, model, reach_sq_m2, on_air }
    }
}

/// Node `j`'s position at `t`, from its piece or else the next one.
#[inline(always)]
fn locate(
    piece: &mut Piece,
    j: usize,
    trajectories: &[Trajectory],
    cursors: &mut [usize],
    t: SimTime,
) -> [f64; 2] {
    match piece.position(t) {
        Some(p) => p,
        None => trajectories[j].renew(piece, &mut cursors[j], t),
    }
}

/// Who hears a transmitter at `at`, given where a listener is.
struct Hearing<'a, P> {
    model: &'a LinkModel,
    reach_sq_m2: f64,
    at: [f64; 2],
    /// Mean received power from the model, listener and distance.
    power_w: P,
}

impl<P: Fn(&LinkModel, NodeId, f64) -> f64> Hearing<'_, P> {
    /// The link to listener `j` at `p`, if it hears the transmitter.
    #[inline(always)]
    fn link(&self, j: NodeId, p: [f64; 2]) -> Option<Link> {
        let (dx, dy) = (self.at[0] - p[0], self.at[1] - p[1]);
        if dx * dx + dy * dy > self.reach_sq_m2 {
            return None; // out of reach for certain: no power to work out
        }
        let d = distance_m(self.at, p);
        self.model.link_at_power(j, (self.power_w)(self.model, j, d), d)
    }
}

impl Motion {
    #[inline]
    pub fn position(&mut self, node: NodeId, t: SimTime) -> [f64; 2] {
        let i = node.index();
        locate(&mut self.pieces[i], i, &self.trajectories, &mut self.cursors, t)
    }

    /// Listeners of `tx` above the carrier-sense threshold at time `t`, in node order.
    pub fn links(&mut self, tx: NodeId, t: SimTime, out: &mut Vec<Link>) {
        out.clear();
        let at = self.position(tx, t);
        // The common cases (no shadowing, no walls; two-ray ground) without per-listener tests
        // for gains and for the propagation model.
        if self.model.has_gain() {
            self.scan(tx, at, t, out, |m, j, d| m.power_w(tx, j, d));
        } else if self.model.path.is_two_ray_ground() {
            self.scan(tx, at, t, out, |m, _, d| m.path.two_ray_w(d));
        } else {
            self.scan(tx, at, t, out, |m, _, d| m.path.rx_power_w(d));
        }
    }

    /// The listeners of `tx` at `at`: the nodes before it, then those after it.
    #[inline(always)]
    fn scan(
        &mut self,
        tx: NodeId,
        at: [f64; 2],
        t: SimTime,
        out: &mut Vec<Link>,
        power_w: impl Fn(&LinkModel, NodeId, f64) -> f64,
    ) {
        let hearing = Hearing { model: &self.model, reach_sq_m2: self.reach_sq_m2, at, power_w };
        let (trajectories, cursors) = (&self.trajectories[..], &mut self.cursors[..]);
        let (before, from_tx) = self.pieces.split_at_mut(tx.index());
        for (j, piece) in before.iter_mut().enumerate() {
            let p = locate(piece, j, trajectories, cursors, t);
            if let Some(link) = hearing.link(NodeId(j as u32), p) {
                out.push(link);
            }
        }
        for (k, piece) in from_tx.iter_mut().enumerate().skip(1) {
            let j = tx.index() + k;
            let p = locate(piece, j, trajectories, cursors, t);
            if let Some(link) = hearing.link(NodeId(j as u32), p) {
                out.push(link);
            }
        }
    }

    /// Are `a` and `b` within decode range of each other at `t`?
    pub fn in_decode_range(&mut self, a: NodeId, b: NodeId, t: SimTime) -> bool {
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
            let pos: Vec<[f64; 2]> = (0..n as u32).map(|i| self.position(NodeId(i), t)).collect();
            let mut reached = vec![false; n];
            let mut stack = vec![0usize];
            reached[0] = true;
            while let Some(v) = stack.pop() {
                for u in 0..n {
                    let d = distance_m(pos[v], pos[u]);
                    if !reached[u]
                        && self.model.power_w(NodeId(v as u32), NodeId(u as u32), d)
                            >= self.model.rx_w
                    {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::{Purpose, Rng};
    use crate::mobility::random_waypoint;
    use crate::phy::config::{Radio, Reception};
    use crate::phy::links::Walls;

    const S: u64 = 1_000_000_000;

    /// A link as comparable bits.
    fn key(l: &Link) -> (NodeId, u64, u64, bool, bool) {
        (l.listener, l.power_w.to_bits(), l.delay_ns, l.decodable, l.sensed)
    }

    /// The listeners of `tx` at `t` the plain way: every other node, reference positions,
    /// the model's link, no bound on the distance.
    fn reference(trs: &[Trajectory], m: &LinkModel, tx: NodeId, t: SimTime) -> Vec<Link> {
        let at = trs[tx.index()].position(t, &mut 0);
        (0..trs.len() as u32)
            .map(NodeId)
            .filter(|&j| j != tx)
            .filter_map(|j| m.link(tx, j, distance_m(at, trs[j.index()].position(t, &mut 0))))
            .collect()
    }

    fn models() -> Vec<LinkModel> {
        let plain = Radio::default();
        let sinr = Radio { reception: Reception::Sinr, ..Radio::default() };
        let shadowed = Radio { shadowing_sigma_db: 6.0, ..Radio::default() };
        let walls =
            Walls { clusters: (0..60).map(|i| i % 3).collect(), loss_db: 8.0, sigma_db: 0.0 };
        vec![
            LinkModel::new(&plain, 1, Walls::default()),
            LinkModel::new(&sinr, 1, Walls::default()),
            LinkModel::new(&shadowed, 1, Walls::default()),
            LinkModel::new(&plain, 1, walls),
        ]
    }

    /// The listener scan (cached pieces, the sure-reach skip, the loop around the
    /// transmitter, the power without gains) against the plain computation, bit for bit:
    /// times in order with repeats, then from the start again (as after the connectivity
    /// check before a run).
    #[test]
    fn listeners_are_those_of_the_plain_computation() {
        let mut rng = Rng::derive(3, Purpose::Mobility, 0);
        let mut trs: Vec<Trajectory> = (0..58)
            .map(|i| {
                let start = [rng.uniform() * 1500.0, rng.uniform() * 300.0];
                let pause_s = (i % 3) as f64;
                random_waypoint(
                    start,
                    [1500.0, 300.0],
                    (0.0, 20.0),
                    pause_s,
                    60 * S,
                    &mut rng,
                    1000,
                )
                .expect("within the leg budget")
            })
            .collect();
        trs.extend([Trajectory::fixed([0.0, 0.0]), Trajectory::fixed([1500.0, 300.0])]);
        let mut ts: Vec<SimTime> = (0..300).map(|_| rng.next_u64() % (70 * S)).collect();
        ts.sort_unstable();
        ts.extend_from_within(100..110);
        ts.extend([0, 5 * S, 5 * S]);
        for model in models() {
            let mut motion = Motion::new(trs.clone(), model.clone());
            let (mut out, mut heard) = (Vec::new(), 0);
            for &t in &ts {
                let tx = rng.up_to(59);
                motion.links(NodeId(tx), t, &mut out);
                let want = reference(&trs, &model, NodeId(tx), t);
                assert_eq!(
                    out.iter().map(key).collect::<Vec<_>>(),
                    want.iter().map(key).collect::<Vec<_>>()
                );
                heard += out.len();
                let rx = rng.up_to(59);
                let d = distance_m(
                    trs[tx as usize].position(t, &mut 0),
                    trs[rx as usize].position(t, &mut 0),
                );
                let decodes = model.power_w(NodeId(tx), NodeId(rx), d) >= model.rx_w;
                assert_eq!(motion.in_decode_range(NodeId(tx), NodeId(rx), t), decodes);
            }
            // Some out of reach (but everyone in the SINR mode's interference range).
            let (all, sinr) = (ts.len() * 59, model.include_w < model.cs_w);
            assert!(heard > all / 3 && (heard < all * 9 / 10 || sinr), "{heard} of {all}");
        }
    }
}

//! Moving nodes: who hears whom is worked out at the start of each transmission from the
//! exact positions at that time (O(n) per transmission). Static topologies never come here:
//! they keep the precomputed neighbour lists of `Channel`.

use crate::budget::Budget;
use crate::error::ScenarioError;
use crate::mobility::{self, Trajectory};
use crate::phy::channel::Link;
use crate::phy::links::LinkModel;
use crate::rng::{Purpose, Rng};
use crate::scenario::{MobilityModel, Scenario};
use crate::time::{secs_to_ns, SimTime};
use crate::topology::distance_m;

pub(crate) struct Motion {
    trajectories: Vec<Trajectory>,
    cursors: Vec<usize>,
    model: LinkModel,
}

impl Motion {
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
            let d = distance_m(at, self.position(j, t));
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

/// The motion of a scenario's nodes (None for static topologies), starting from `positions`.
pub(crate) fn build(
    s: &Scenario,
    positions: &[[f64; 2]],
    attempt: u32,
    budget: &Budget,
) -> Result<Option<Motion>, ScenarioError> {
    let m = &s.mobility;
    let until = secs_to_ns(s.duration_s);
    let trajectories = match m.model {
        MobilityModel::Static => return Ok(None),
        MobilityModel::RandomWaypoint => {
            let area = s.topology.area_m.unwrap_or_else(|| bounding_box(positions));
            let leg_bytes = std::mem::size_of::<mobility::Leg>();
            let mut legs_left = (budget.max_bytes() / leg_bytes as f64) as usize;
            let mut out = Vec::with_capacity(positions.len());
            for (i, &p) in positions.iter().enumerate() {
                let index = ((attempt as u64) << 32) | i as u64;
                let mut rng = Rng::derive(s.seed, Purpose::Mobility, index);
                let speeds = (m.speed_min_mps, m.speed_max_mps);
                let t = mobility::random_waypoint(
                    p, area, speeds, m.pause_s, until, &mut rng, legs_left,
                )
                .ok_or_else(|| {
                    budget.over_memory(
                        "mobility.speed_max_mps",
                        &m.speed_max_mps.to_string(),
                        budget.max_bytes(),
                        &format!(
                            "random waypoint needs more than {} legs for {} nodes over {} s \
                                 (area {} x {} m, pause_s = {})",
                            (budget.max_bytes() / leg_bytes as f64) as u64,
                            positions.len(),
                            s.duration_s,
                            area[0],
                            area[1],
                            m.pause_s
                        ),
                    )
                })?;
                legs_left -= t.legs.len();
                out.push(t);
            }
            out
        }
        MobilityModel::Setdest | MobilityModel::Bonnmotion => {
            let file = m.trace_file.clone().unwrap_or_default();
            // A movement file is a regular file that fits the memory budget (not a device
            // such as /dev/zero, whose reading would never end).
            let fits = std::fs::metadata(&file)
                .map(|md| md.is_file() && (md.len() as f64) < budget.max_bytes() / 4.0);
            if let Ok(false) = fits {
                return Err(ScenarioError::invalid(
                    "mobility.trace_file",
                    &file,
                    &format!(
                        "must be a regular file of less than {:.0} MB (a quarter of the run's \
                         memory budget)",
                        budget.max_memory_mb / 4.0
                    ),
                ));
            }
            let text = std::fs::read_to_string(&file).map_err(|e| {
                ScenarioError::invalid(
                    "mobility.trace_file",
                    &file,
                    &format!("must be a readable file ({e})"),
                )
            })?;
            let parsed = if m.model == MobilityModel::Setdest {
                mobility::parse_setdest(&text, positions.len())
            } else {
                mobility::parse_bonnmotion(&text)
            };
            let t = parsed.map_err(|e| {
                ScenarioError::invalid(
                    "mobility.trace_file",
                    &file,
                    &format!("is not a valid movement file: {e}"),
                )
            })?;
            if t.len() != positions.len() {
                return Err(ScenarioError::invalid(
                    "mobility.trace_file",
                    &file,
                    &format!("describes {} nodes, the topology has {}", t.len(), positions.len()),
                ));
            }
            t
        }
    };
    let model = super::placement::link_model(s);
    let n = positions.len();
    Ok(Some(Motion { trajectories, cursors: vec![0; n], model }))
}

fn bounding_box(positions: &[[f64; 2]]) -> [f64; 2] {
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

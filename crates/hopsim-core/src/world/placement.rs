//! Building the network: node placement (with the connectedness check of random placements)
//! and random traffic between distinct node pairs.

use super::motion::{bounding_box, Motion};
use crate::engine::budget::Budget;
use crate::engine::rng::{Purpose, Rng};
use crate::engine::time::secs_to_ns;
use crate::error::ScenarioError;
use crate::ids::NodeId;
use crate::mobility;
use crate::phy::channel::Channel;
use crate::phy::links::Link;
use crate::phy::links::{LinkModel, Walls};
use crate::scenario::{Connectivity, Flow, MobilityModel, Scenario};
use std::collections::VecDeque;

/// Start positions, who hears whom at the start, and how nodes move (None: static).
pub type Placement = (Vec<[f64; 2]>, Channel, Option<Motion>);

/// Most placements drawn when re-seeding a disconnected random topology.
const RESEED_ATTEMPTS: u32 = 1000;

/// Connected component of every node over decode-range links.
pub fn components(channel: &Channel) -> Vec<u32> {
    let n = channel.node_count();
    let mut comp = vec![u32::MAX; n];
    let mut queue = VecDeque::new();
    for start in 0..n as u32 {
        if comp[start as usize] != u32::MAX {
            continue;
        }
        comp[start as usize] = start;
        queue.push_back(start);
        while let Some(v) = queue.pop_front() {
            for u in channel.decode_neighbours(NodeId(v)) {
                if comp[u.index()] == u32::MAX {
                    comp[u.index()] = start;
                    queue.push_back(u.0);
                }
            }
        }
    }
    comp
}

/// Node positions at time 0, who hears whom then and how nodes move, honouring
/// `topology.connected` (for moving nodes: connected at every second of the run, as the MANET
/// study requires); for trace-driven mobility the start positions come from the trace.
pub fn place(s: &Scenario, budget: &Budget) -> Result<Placement, ScenarioError> {
    let model = link_model(s);
    let rule = s.topology.connected.unwrap_or(Connectivity::Ignore);
    let attempts = if rule == Connectivity::Reseed { RESEED_ATTEMPTS } else { 1 };
    let mut reachable = 0;
    // Work of one placement: every pair once, and per second of the run for moving nodes.
    let n = crate::scenario::node_count(&s.topology) as f64;
    let moving = s.mobility.model != MobilityModel::Static && rule != Connectivity::Ignore;
    let per_attempt = n * n * if moving { 1.0 + s.duration_s } else { 1.0 };
    let max_links = (budget.max_bytes() / std::mem::size_of::<Link>() as f64) as usize;
    for attempt in 0..attempts {
        if per_attempt * (attempt + 1) as f64 > budget.max_events as f64 {
            return Err(ScenarioError::invalid(
                "topology.connected",
                "\"reseed\"",
                &format!(
                    "no connected placement in {attempt} draws, and another would pass the run's \
                     budget of {} events ({per_attempt:.3e} per draw); use a smaller area, more \
                     nodes or a larger radio range (or raise max_events)",
                    budget.max_events
                ),
            ));
        }
        let layout_seed = s.topology.seed.unwrap_or(s.seed);
        let mut positions = crate::scenario::positions_m(&s.topology, layout_seed, attempt);
        let mut motion = motion(s, &positions, attempt, budget)?;
        if matches!(s.mobility.model, MobilityModel::Setdest | MobilityModel::Bonnmotion) {
            if let Some(m) = motion.as_ref() {
                positions = m.starts();
            }
        }
        let channel = Channel::build_capped(&positions, &model, max_links).map_err(|links| {
            budget.over_memory(
                "topology",
                &format!("{n} nodes"),
                (links * std::mem::size_of::<Link>()) as f64,
                &format!("more than {links} links within carrier-sense range"),
            )
        })?;
        if rule == Connectivity::Ignore {
            return Ok((positions, channel, motion));
        }
        let comp = components(&channel);
        reachable = comp.iter().filter(|&&c| c == 0).count();
        let always =
            motion.as_mut().is_none_or(|m| m.connected_throughout(secs_to_ns(s.duration_s)));
        if reachable == comp.len() && always {
            return Ok((positions, channel, motion));
        }
    }
    let n = crate::scenario::node_count(&s.topology);
    Err(ScenarioError::invalid(
        "topology.connected",
        match rule {
            Connectivity::Reseed => "\"reseed\"",
            _ => "\"reject\"",
        },
        &format!(
            "the random placement is not connected throughout (seed {}: {reachable} of {n} nodes \
             reachable from node 0 at the start{}); use a smaller area, more nodes or a larger \
             radio range",
            s.seed,
            if rule == Connectivity::Reseed {
                format!(", after {RESEED_ATTEMPTS} placements")
            } else {
                String::new()
            }
        ),
    ))
}

/// The scenario's flows followed by `traffic.random_flows` flows between random distinct
/// pairs of connected nodes (seeded, one stream per flow).
pub fn flows_with_random_traffic(
    s: &Scenario,
    channel: &Channel,
) -> Result<Vec<Flow>, ScenarioError> {
    let mut flows = s.flows.clone();
    let Some(t) = &s.traffic else { return Ok(flows) };
    let comp = components(channel);
    let n = comp.len() as u32;
    for k in 0..t.random_flows {
        let mut rng = Rng::derive(s.seed, Purpose::Traffic, k as u64);
        let pair = (0..10_000).find_map(|_| {
            let src = rng.up_to(n - 1);
            let mut dst = rng.up_to(n - 2);
            if dst >= src {
                dst += 1;
            }
            (comp[src as usize] == comp[dst as usize]).then_some((src, dst))
        });
        let Some((src, dst)) = pair else {
            return Err(ScenarioError::invalid(
                "traffic.random_flows",
                t.random_flows,
                "no pair of connected nodes found for a random flow; the placement is too sparse",
            ));
        };
        flows.push(t.flow(src, dst));
    }
    Ok(flows)
}

/// Where every node is and goes, and every flow (the random ones drawn): what another
/// simulator needs to run the same network (`hopsim crosscheck`), and what `hopsim show`
/// draws.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Layout {
    /// Positions at time 0, metres.
    pub positions: Vec<[f64; 2]>,
    /// Per node, its straight-line moves `[start_s, end_s, to_x_m, to_y_m]` in time order
    /// (empty for static topologies).
    pub moves: Vec<Vec<[f64; 4]>>,
    /// Every flow, the scenario's own first, then `[traffic]`'s random ones.
    pub flows: Vec<Flow>,
    /// Pairs `[a, b]` (a < b) where either node decodes the other at time 0 (mean power).
    pub decode_links: Vec<[u32; 2]>,
    /// Pairs that only sense each other's carrier at time 0 (they contend, cannot talk).
    pub sense_links: Vec<[u32; 2]>,
    /// Per flow, the shortest path over decode links at time 0: static routing's route (AODV,
    /// DSR and ETX find theirs while they run; see the result's `paths`).
    pub shortest_paths: Vec<Option<Vec<u32>>>,
}

/// The layout of a validated scenario.
pub fn layout(s: &Scenario) -> Result<Layout, ScenarioError> {
    let (positions, channel, motion) = place(s, &Budget::default())?;
    let flows = flows_with_random_traffic(s, &channel)?;
    let moves = match &motion {
        None => vec![Vec::new(); positions.len()],
        Some(m) => m.moves(),
    };
    let (mut decode_links, mut sense_links) = (Vec::new(), Vec::new());
    for a in (0..positions.len() as u32).map(NodeId) {
        for l in channel.listeners(a) {
            let b = l.listener;
            let (lo, hi) = (a.min(b).0, a.max(b).0);
            if channel.decodable(a, b) || channel.decodable(b, a) {
                decode_links.push([lo, hi]);
            } else if l.sensed {
                sense_links.push([lo, hi]);
            }
        }
    }
    decode_links.sort_unstable();
    decode_links.dedup();
    sense_links.sort_unstable();
    sense_links.dedup();
    let mut endpoints: Vec<NodeId> = flows.iter().map(|f| NodeId(f.dst)).collect();
    endpoints.sort_unstable();
    endpoints.dedup();
    let routes = crate::net::routing::StaticRoutes::build(&channel, &endpoints);
    let shortest_paths = flows
        .iter()
        .map(|f| {
            let path = routes.path(NodeId(f.src), NodeId(f.dst))?;
            Some(path.into_iter().map(|n| n.0).collect())
        })
        .collect();
    Ok(Layout { positions, moves, flows, decode_links, sense_links, shortest_paths })
}

/// The link model of a scenario: its radio, shadowing from the topology's seed (else the
/// run's), and for testbed topologies the walls between buildings.
pub(crate) fn link_model(s: &Scenario) -> LinkModel {
    let seed = s.topology.seed.unwrap_or(s.seed);
    let walls = match &s.topology.testbed {
        Some(b) if s.topology.kind == crate::scenario::TopologyKind::Testbed => Walls {
            clusters: crate::scenario::clusters(&s.topology),
            loss_db: b.wall_loss_db,
            sigma_db: b.wall_sigma_db,
        },
        _ => Walls::default(),
    };
    LinkModel::new(&s.radio, seed, walls)
}

/// The motion of a scenario's nodes (None for static topologies), starting from `positions`.
fn motion(
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
    Ok(Some(Motion::new(trajectories, link_model(s))))
}

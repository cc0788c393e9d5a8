//! The `[topology]` table: where the nodes are, and its checks. Which keys apply depends on
//! `kind`; the keys of another kind are refused rather than ignored.

use super::ranges;
use super::validate::Check;
use super::{KeyPath, TestbedLayout};
use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TopologyKind {
    Chain,
    Grid,
    Positions,
    Random,
    /// Nodes scattered over several buildings, walls between them (`[topology.testbed]`).
    Testbed,
}

impl TopologyKind {
    /// The name a scenario file gives the kind.
    fn name(self) -> &'static str {
        match self {
            TopologyKind::Chain => "chain",
            TopologyKind::Grid => "grid",
            TopologyKind::Positions => "positions",
            TopologyKind::Random => "random",
            TopologyKind::Testbed => "testbed",
        }
    }
}

/// Node placement. Which keys apply depends on `kind`; others are rejected by validation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Topology {
    pub kind: TopologyKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hops: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spacing_m: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cols: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub positions: Option<Vec<[f64; 2]>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area_m: Option<[f64; 2]>,
    /// Random placements only: what to do when the decode-range graph is not connected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connected: Option<Connectivity>,
    /// Seed of the placement and of the static shadowing (default: the run's `seed`): fix it
    /// to keep one topology while replications vary the seed of everything else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Testbed topologies only: the buildings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub testbed: Option<TestbedLayout>,
}

/// Handling of disconnected random placements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Connectivity {
    /// Keep the placement (flows must still connect their endpoints).
    Ignore,
    /// Reject the scenario.
    Reject,
    /// Draw new placements (deterministically from the seed) until one is connected.
    Reseed,
}

/// Number of nodes the topology describes (assumes its check passed).
pub fn node_count(t: &Topology) -> usize {
    match t.kind {
        TopologyKind::Chain => t.hops.unwrap_or(0) as usize + 1,
        TopologyKind::Grid => (t.rows.unwrap_or(0) * t.cols.unwrap_or(0)) as usize,
        TopologyKind::Positions => t.positions.as_ref().map_or(0, |p| p.len()),
        TopologyKind::Random | TopologyKind::Testbed => t.nodes.unwrap_or(0) as usize,
    }
}

const MAX_NODES: u64 = 100_000;

impl Topology {
    /// The keys of this kind are given and in range; the keys of other kinds are left out.
    pub(super) fn check(&self, at: &KeyPath) -> Check {
        let kind = self.kind;
        let kind_said = format!("{} = \"{}\"", at.field("kind"), kind.name());
        let required = |key: &KeyPath| key.missing(&format!("required when {kind_said}"));
        use TopologyKind::*;
        // Each key, whether it is given, and whether this kind uses it (in the order reported).
        for (name, given, used) in [
            ("hops", self.hops.is_some(), kind == Chain),
            ("spacing_m", self.spacing_m.is_some(), matches!(kind, Chain | Grid)),
            ("rows", self.rows.is_some(), kind == Grid),
            ("cols", self.cols.is_some(), kind == Grid),
            ("positions", self.positions.is_some(), kind == Positions),
            ("nodes", self.nodes.is_some(), matches!(kind, Random | Testbed)),
            ("area_m", self.area_m.is_some(), kind == Random),
            ("connected", self.connected.is_some(), matches!(kind, Random | Testbed)),
            ("testbed", self.testbed.is_some(), kind == Testbed),
        ] {
            if given && !used {
                let key = at.field(name);
                return Err(key.refuse(&format!("is not used when {kind_said}; remove it")));
            }
        }
        let count = |name: &str, v: Option<u32>| -> Result<u32, ScenarioError> {
            let key = at.field(name);
            let v = v.ok_or_else(|| required(&key))?;
            ranges::check(&key, v as f64)?;
            Ok(v)
        };
        match kind {
            Chain => {
                count("hops", self.hops)?;
            }
            Grid => {
                let rows = count("rows", self.rows)? as u64;
                let cols = count("cols", self.cols)? as u64;
                if rows * cols < 2 || rows * cols > MAX_NODES {
                    return Err(at.field("rows").invalid(
                        rows,
                        &format!(
                            "rows x cols must be between 2 and {MAX_NODES} nodes (cols = {cols})"
                        ),
                    ));
                }
            }
            Positions => self.check_positions(&at.field("positions"), required)?,
            Random => {
                count("nodes", self.nodes)?;
                let key = at.field("area_m");
                let area_m = self.area_m.ok_or_else(|| required(&key))?;
                for (i, side_m) in area_m.into_iter().enumerate() {
                    ranges::check(&key.index(i), side_m)?;
                }
            }
            Testbed => {
                let nodes = count("nodes", self.nodes)?;
                if let Some(b) = &self.testbed {
                    b.check(&at.field("testbed"), &at.field("nodes"), nodes as u64)?;
                }
            }
        }
        if matches!(kind, Chain | Grid) {
            let key = at.field("spacing_m");
            ranges::check(&key, self.spacing_m.ok_or_else(|| required(&key))?)?;
        }
        Ok(())
    }

    fn check_positions(&self, at: &KeyPath, required: impl Fn(&KeyPath) -> ScenarioError) -> Check {
        let p = self.positions.as_ref().ok_or_else(|| required(at))?;
        if p.len() < 2 || p.len() as u64 > MAX_NODES {
            return Err(at.invalid(
                format!("a list of {} positions", p.len()),
                &format!("must list between 2 and {MAX_NODES} [x, y] positions in metres"),
            ));
        }
        // One range for every coordinate: look it up once, not per node.
        let range = ranges::covering(at.index(0).index(0).as_str()).expect("a range");
        for (i, xy) in p.iter().enumerate() {
            for (j, &c) in xy.iter().enumerate() {
                if !range.contains(c) {
                    range.check(&at.index(i).index(j), c)?;
                }
            }
        }
        Ok(())
    }
}

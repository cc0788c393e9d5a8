//! `[topology.testbed]`: the buildings of a testbed-like topology, whose walls shadow the
//! links between them, and their checks.

use super::ranges;
use super::validate::Check;
use super::KeyPath;
use serde::{Deserialize, Serialize};

/// Layout of a testbed-like topology: `nodes` spread over `buildings` rectangles of
/// `building_size_m`, whose centres are `building_spacing_m` apart on a square grid; links
/// between buildings lose `wall_loss_db` more, with `wall_sigma_db` more shadowing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TestbedLayout {
    pub buildings: u32,
    pub building_size_m: [f64; 2],
    pub building_spacing_m: f64,
    pub wall_loss_db: f64,
    pub wall_sigma_db: f64,
}

impl Default for TestbedLayout {
    fn default() -> Self {
        TestbedLayout {
            buildings: 4,
            building_size_m: [40.0, 30.0],
            building_spacing_m: 70.0,
            wall_loss_db: 10.0,
            wall_sigma_db: 4.0,
        }
    }
}

impl TestbedLayout {
    /// Every building holds at least one of the topology's `nodes` (named by `nodes_key`).
    pub(super) fn check(&self, at: &KeyPath, nodes_key: &KeyPath, nodes: u64) -> Check {
        if self.buildings == 0 || self.buildings as u64 > nodes {
            return Err(at
                .field("buildings")
                .invalid(self.buildings, &format!("must be between 1 and {nodes_key} = {nodes}")));
        }
        let size = at.field("building_size_m");
        for (i, side_m) in self.building_size_m.into_iter().enumerate() {
            ranges::check(&size.index(i), side_m)?;
        }
        for (name, v) in [
            ("building_spacing_m", self.building_spacing_m),
            ("wall_loss_db", self.wall_loss_db),
            ("wall_sigma_db", self.wall_sigma_db),
        ] {
            ranges::check(&at.field(name), v)?;
        }
        Ok(())
    }
}

//! The `[mobility]` table: how nodes move, and its checks.

use super::ranges;
use super::validate::Check;
use super::KeyPath;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MobilityModel {
    Static,
    RandomWaypoint,
    /// Replay an ns-2 setdest movement file (`trace_file`).
    Setdest,
    /// Replay a BonnMotion `.movements` file (`trace_file`).
    Bonnmotion,
}

/// How nodes move. Random waypoint starts from the topology's positions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Mobility {
    pub model: MobilityModel,
    pub speed_min_mps: f64,
    pub speed_max_mps: f64,
    pub pause_s: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_file: Option<String>,
}

impl Default for Mobility {
    fn default() -> Self {
        Mobility {
            model: MobilityModel::Static,
            speed_min_mps: 0.0,
            speed_max_mps: 5.0,
            pause_s: 0.0,
            trace_file: None,
        }
    }
}

impl Mobility {
    /// Speeds in range and ordered; a trace file exactly for the models that replay one.
    pub(super) fn check(&self, at: &KeyPath) -> Check {
        for (name, v) in [
            ("speed_min_mps", self.speed_min_mps),
            ("speed_max_mps", self.speed_max_mps),
            ("pause_s", self.pause_s),
        ] {
            ranges::check(&at.field(name), v)?;
        }
        if self.speed_max_mps < self.speed_min_mps {
            return Err(at.field("speed_max_mps").invalid(
                self.speed_max_mps,
                &format!("must be at least speed_min_mps = {}", self.speed_min_mps),
            ));
        }
        let replays = matches!(self.model, MobilityModel::Setdest | MobilityModel::Bonnmotion);
        let key = at.field("trace_file");
        match (&self.trace_file, replays) {
            (None, true) => Err(key.missing("required for model = \"setdest\" or \"bonnmotion\"")),
            (Some(f), false) => Err(key
                .invalid(f, "is only used with model = \"setdest\" or \"bonnmotion\"; remove it")),
            _ => Ok(()),
        }
    }
}

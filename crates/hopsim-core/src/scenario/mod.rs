//! The scenario model: what a scenario file may say, with the ns-2 defaults of the studies
//! (each documented with its source in docs/models.md). Parsing is strict: unknown keys and
//! wrong types are errors that name the dotted key; [`validate`] then checks values.
//!
//! One file per section, each holding its structs and their checks: `topology.rs` (with
//! `testbed.rs`), `radio.rs`, `mac.rs`, `routing.rs`, `tcp.rs`, `flows.rs` (with `[traffic]`),
//! `mobility.rs`; node positions from the topology in `positions.rs`, the work a scenario asks
//! for (checked by the run budget) in `work.rs`; `tables.rs` refuses a section or flow written as a list (serde would read it by position); the run's own keys are the [`Scenario`] here. `validate.rs` walks the
//! sections, naming each with a [`KeyPath`] (`key_path.rs`); `ranges.rs` is the one table of
//! allowed numeric ranges.

mod edca;
mod flows;
mod interference;
mod key_path;
mod mac;
mod mobility;
mod parse;
mod positions;
mod queue;
mod radio;
pub mod ranges;
mod routing;
mod standard;
mod tables;
mod tcp;
mod testbed;
mod topology;
mod validate;
mod work;

pub use crate::phy::config::{Fading, Propagation, Radio, Reception};
pub use crate::phy::interferer::{Interferer, OnOffProcess};
pub use crate::phy::standard::Standard;
pub use crate::transport::tcp::config::{TcpSpec, TcpVariant, WindowLimit};
pub use edca::{AcOverride, EdcaTable};
pub use flows::{AccessCategory, Flow, Traffic, Transport};
pub use interference::MAX_INTERFERERS;
pub use key_path::KeyPath;
pub use mac::{DataRate, Mac, RateControlAlgo};
pub use mobility::{Mobility, MobilityModel};
pub use parse::{parse_json, parse_toml};
pub use positions::{clusters, positions_m};
pub use queue::{QueueDiscipline, QueueSpec};
pub use ranges::{KeyRange, MAX_TIME_S, RANGES};
pub use routing::{
    HwmpFailAverage, HwmpRootMode, Routing, RoutingProtocol, HWMP_DEFAULTS, OLSR_DEFAULTS,
};
pub use testbed::TestbedLayout;
pub use topology::{node_count, Connectivity, Topology, TopologyKind};
pub use validate::validate;

use serde::{Deserialize, Serialize};

/// A complete scenario. Every key but `topology` and `flows` has a default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    #[serde(default = "d_duration")]
    pub duration_s: f64,
    #[serde(default)]
    pub warmup_s: f64,
    #[serde(default = "d_seed")]
    pub seed: u64,
    /// Whose behaviour to follow where ns-2.35 departs from the standards and RFCs.
    #[serde(default)]
    pub profile: Profile,
    pub topology: Topology,
    #[serde(default)]
    pub radio: Radio,
    #[serde(default)]
    pub mac: Mac,
    #[serde(default)]
    pub routing: Routing,
    /// The interface queue's discipline (absent: drop-tail, no queue metrics).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue: Option<QueueSpec>,
    /// Defaults for every TCP flow.
    #[serde(default)]
    pub tcp: TcpSpec,
    #[serde(default)]
    pub flows: Vec<Flow>,
    #[serde(default)]
    pub mobility: Mobility,
    /// Random flows, in addition to `flows`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traffic: Option<Traffic>,
    /// Transmitters outside the network (phy/interferer.rs); none by default.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub interference: Vec<Interferer>,
}

/// `profile`: the standards and RFCs (`standard`, the default), or ns-2.35's own mechanisms
/// where it departs from them (`ns2`; docs/models.md section 17 lists them with their source).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    #[default]
    Standard,
    Ns2,
}

impl Scenario {
    /// Fill in defaults that depend on other keys (a flow's `stop_s` = `duration_s`; a TCP
    /// flow's settings = the top-level `[tcp]`, when the flow gives none): the same path for
    /// the flows given one by one and for the random traffic's template.
    pub fn resolve(&mut self) {
        self.routing.resolve();
        if self.topology.kind == TopologyKind::Testbed && self.topology.testbed.is_none() {
            self.topology.testbed = Some(TestbedLayout::default());
        }
        for f in &mut self.flows {
            f.inherit(self.duration_s, &self.tcp);
        }
        if let Some(t) = self.traffic.as_mut() {
            t.inherit(self.duration_s, &self.tcp);
        }
    }
}

fn d_duration() -> f64 {
    100.0
}
fn d_seed() -> u64 {
    1
}

//! The scenario model: what a scenario file may say, with the ns-2 defaults of the studies
//! (each documented with its source in docs/models.md). Parsing is strict: unknown keys and
//! wrong types are errors that name the dotted key; [`validate`] then checks values.

mod mac_radio;
mod parse;
mod positions;
pub mod ranges;
mod validate;
mod validate_radio;
mod work;

pub use crate::phy::config::{Fading, Propagation, Radio, Reception};
pub use crate::transport::tcp::config::{TcpSpec, TcpVariant, WindowLimit};
pub use mac_radio::{DataRate, Mac, RateControlAlgo};
pub use parse::{parse_json, parse_toml};
pub use positions::{clusters, positions_m};
pub use ranges::{KeyRange, MAX_TIME_S, RANGES};
pub use validate::{node_count, validate};

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
    /// flow's settings = the top-level `[tcp]`, when the flow gives none).
    pub fn resolve(&mut self) {
        if self.topology.kind == TopologyKind::Testbed && self.topology.testbed.is_none() {
            self.topology.testbed = Some(TestbedLayout::default());
        }
        for f in &mut self.flows {
            if f.stop_s.is_none() {
                f.stop_s = Some(self.duration_s);
            }
            if f.transport == Transport::Tcp && f.tcp.is_none() {
                f.tcp = Some(self.tcp.clone());
            }
            if let Some(t) = f.tcp.as_mut() {
                t.resolve();
            }
        }
        if let Some(t) = self.traffic.as_mut() {
            let mut template = t.flow(0, 0);
            if template.stop_s.is_none() {
                template.stop_s = Some(self.duration_s);
            }
            if template.transport == Transport::Tcp && template.tcp.is_none() {
                template.tcp = Some(self.tcp.clone());
            }
            if let Some(tcp) = template.tcp.as_mut() {
                tcp.resolve();
            }
            t.stop_s = template.stop_s;
            t.tcp = template.tcp;
        }
    }
}

fn d_duration() -> f64 {
    100.0
}
fn d_seed() -> u64 {
    1
}

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

/// Flows between random distinct node pairs, all with the same settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Traffic {
    pub random_flows: u32,
    #[serde(default = "d_transport")]
    pub transport: Transport,
    #[serde(default = "d_payload")]
    pub payload_bytes: u32,
    #[serde(default)]
    pub interval_s: f64,
    #[serde(default)]
    pub start_s: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_s: Option<f64>,
    #[serde(default)]
    pub bytes: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp: Option<TcpSpec>,
}

impl Traffic {
    /// The flow these settings describe between `src` and `dst`.
    pub fn flow(&self, src: u32, dst: u32) -> Flow {
        Flow {
            src,
            dst,
            transport: self.transport,
            payload_bytes: self.payload_bytes,
            interval_s: self.interval_s,
            start_s: self.start_s,
            stop_s: self.stop_s,
            bytes: self.bytes,
            tcp: self.tcp.clone(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoutingProtocol {
    Static,
    Aodv,
    Dsr,
    /// Shortest expected-transmission-count paths, measured by probes, then frozen.
    Etx,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Routing {
    pub protocol: RoutingProtocol,
    /// AODV: detect broken links by HELLO messages as well (RFC 3561 6.9); link-layer
    /// feedback from the MAC is always on.
    pub hello: bool,
    pub hello_interval_s: f64,
    pub allowed_hello_loss: u32,
    /// AODV: expanding ring search (TTL 5, 7, then the network diameter), as ns-2 does.
    pub expanding_ring: bool,
    /// ETX: probe period, probing time before the routes are frozen, probe size.
    pub etx_probe_interval_s: f64,
    pub etx_warmup_s: f64,
    pub etx_probe_bytes: u32,
}

impl Default for Routing {
    fn default() -> Self {
        Routing {
            protocol: RoutingProtocol::Static,
            hello: false,
            hello_interval_s: 1.0, // RFC 3561 HELLO_INTERVAL
            allowed_hello_loss: 2, // RFC 3561 ALLOWED_HELLO_LOSS
            expanding_ring: true,
            etx_probe_interval_s: 1.0, // De Couto et al. 2003
            etx_warmup_s: 20.0,
            etx_probe_bytes: 134,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transport {
    Udp,
    Tcp,
}

/// One application flow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flow {
    pub src: u32,
    pub dst: u32,
    #[serde(default = "d_transport")]
    pub transport: Transport,
    #[serde(default = "d_payload")]
    pub payload_bytes: u32,
    /// Fixed inter-send time (paced UDP); 0 = saturated source.
    #[serde(default)]
    pub interval_s: f64,
    #[serde(default)]
    pub start_s: f64,
    /// Default: the end of the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_s: Option<f64>,
    /// Application bytes to transfer; 0 = unlimited (bulk).
    #[serde(default)]
    pub bytes: u64,
    /// TCP settings of this flow (resolved from the top-level `[tcp]` and `[flows.tcp]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp: Option<TcpSpec>,
}

fn d_transport() -> Transport {
    Transport::Udp
}
fn d_payload() -> u32 {
    1460
}

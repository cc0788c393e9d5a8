//! The scenario model: what a scenario file may say, with the ns-2 defaults of the studies
//! (each documented with its source in docs/models.md). Parsing is strict: unknown keys and
//! wrong types are errors that name the dotted key; [`validate`] then checks values.

mod parse;
mod validate;

pub use parse::{parse_json, parse_toml};
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
    pub topology: Topology,
    #[serde(default)]
    pub radio: Radio,
    #[serde(default)]
    pub mac: Mac,
    #[serde(default)]
    pub routing: Routing,
    #[serde(default)]
    pub flows: Vec<Flow>,
}

impl Scenario {
    /// Fill in defaults that depend on other keys (a flow's `stop_s` = `duration_s`).
    pub fn resolve(&mut self) {
        for f in &mut self.flows {
            if f.stop_s.is_none() {
                f.stop_s = Some(self.duration_s);
            }
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Propagation {
    TwoRayGround,
    FreeSpace,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reception {
    Capture,
}

/// Radio and propagation: ns-2.35 Phy/WirelessPhy defaults (914 MHz Lucent WaveLAN).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Radio {
    pub propagation: Propagation,
    pub reception: Reception,
    pub tx_power_w: f64,
    pub frequency_hz: f64,
    pub antenna_height_m: f64,
    pub antenna_gain: f64,
    pub system_loss: f64,
    pub rx_threshold_w: f64,
    pub cs_threshold_w: f64,
    pub capture_threshold_db: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rx_range_m: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cs_range_m: Option<f64>,
}

impl Default for Radio {
    fn default() -> Self {
        Radio {
            propagation: Propagation::TwoRayGround,
            reception: Reception::Capture,
            tx_power_w: 0.281_838_15,
            frequency_hz: 914e6,
            antenna_height_m: 1.5,
            antenna_gain: 1.0,
            system_loss: 1.0,
            rx_threshold_w: 3.652e-10,
            cs_threshold_w: 1.559e-11,
            capture_threshold_db: 10.0,
            rx_range_m: None,
            cs_range_m: None,
        }
    }
}

/// 802.11b DCF parameters (IEEE 802.11-2007 clause 18 DSSS; ns-2.35 Mac/802_11 defaults).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Mac {
    pub data_rate_mbps: f64,
    pub basic_rate_mbps: f64,
    pub rts_threshold_bytes: u32,
    pub short_retry_limit: u32,
    pub long_retry_limit: u32,
    pub queue_packets: u32,
    pub cw_min: u32,
    pub cw_max: u32,
}

impl Default for Mac {
    fn default() -> Self {
        Mac {
            data_rate_mbps: 2.0,
            basic_rate_mbps: 1.0,
            rts_threshold_bytes: 0,
            short_retry_limit: 7,
            long_retry_limit: 4,
            queue_packets: 50,
            cw_min: 31,
            cw_max: 1023,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoutingProtocol {
    Static,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Routing {
    pub protocol: RoutingProtocol,
}

impl Default for Routing {
    fn default() -> Self {
        Routing {
            protocol: RoutingProtocol::Static,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transport {
    Udp,
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
}

fn d_transport() -> Transport {
    Transport::Udp
}
fn d_payload() -> u32 {
    1460
}

//! The PHY's configuration, which is also the scenario's `[radio]` table: propagation,
//! reception, fading, thresholds (defaults and sources: docs/models.md 1.2). The PHY reads
//! only this, never the rest of the scenario.

use super::dynamics::{GaussMarkov, GilbertElliott, LinkTrace};
use super::standard::Standard;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Propagation {
    TwoRayGround,
    FreeSpace,
    /// Log-distance: PL(d) = PL(d0) + 10 n log10(d / d0) (Rappaport eq. 4.68).
    LogDistance,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reception {
    /// ns-2: one frame at a time, captured only by a 10 dB stronger one.
    Capture,
    /// Cumulative interference and noise; error rates of the 802.11b modulations.
    Sinr,
}

/// What a `capture` receiver does with a frame between the carrier-sense and decode thresholds
/// (docs/models.md section 2, rule 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeakFrames {
    /// ns-2 (`sendUp` marks it in error, the MAC receives it): it occupies the receiver like
    /// any frame, collides with what arrives during it and ends in error (EIFS).
    Receive,
    /// 802.11's PHY starts a reception only on a preamble it detects (PHY-RXSTART, 16.3.4.4):
    /// the frame holds carrier sense and interferes under the capture rule, but the receiver
    /// stays free for a decodable frame, and no EIFS follows it (as ns-3, and `sinr`).
    Sense,
}

/// Per-frame fading of the received power.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fading {
    None,
    Rayleigh,
    Ricean,
}

/// Radio and propagation: ns-2.35 Phy/WirelessPhy defaults (914 MHz Lucent WaveLAN).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Radio {
    /// 802.11b (default), a or g (phy/standard.rs); not written out when 802.11b, so that
    /// every 802.11b scenario resolves to what it did before the key existed.
    #[serde(skip_serializing_if = "Standard::is_b")]
    pub standard: Standard,
    /// The channel's width, MHz: 20; 40 for 802.11n; 40, 80 or 160 for 802.11ac (the
    /// TXVECTOR's CH_BANDWIDTH).
    #[serde(skip_serializing_if = "is_20")]
    pub channel_width_mhz: u32,
    /// The guard interval of HT and VHT DATA frames, ns: 800, or 400 (the short one, 19.3.2).
    #[serde(skip_serializing_if = "is_800")]
    pub guard_interval_ns: u32,
    /// Antennas, which are also the spatial streams a station sends and receives (1-4;
    /// 802.11n's MCS 8k..8k+7 need k + 1).
    #[serde(skip_serializing_if = "is_1")]
    pub antennas: u32,
    /// The spatial streams of an 802.11ac station's DATA frames, N_SS (1 to `antennas`);
    /// 802.11n's MCS index carries its own.
    #[serde(skip_serializing_if = "is_1")]
    pub spatial_streams: u32,
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
    /// `capture` reception: frames between the thresholds received in error (ns-2, the default)
    /// or only sensed; `sinr` reception only senses them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weak_frames: Option<WeakFrames>,
    /// Probability that a frame otherwise received correctly is lost (injected errors).
    pub frame_error_rate: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rx_range_m: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cs_range_m: Option<f64>,
    /// Transmit power in dBm; when given it replaces `tx_power_w`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tx_power_dbm: Option<f64>,
    /// Log-distance exponent n and reference distance d0.
    pub path_loss_exponent: f64,
    pub reference_distance_m: f64,
    /// PL(d0) in dB; default: the free-space (Friis) loss at d0 for `frequency_hz`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_loss_db: Option<f64>,
    /// Static log-normal shadowing per link (dB), drawn once per link from the seed.
    pub shadowing_sigma_db: f64,
    /// Both directions of a link get the same shadowing draw.
    pub shadowing_symmetric: bool,
    pub fading: Fading,
    /// Ricean K factor (dB): power of the line-of-sight part over the scattered part.
    pub ricean_k_db: f64,
    /// `sinr` reception: receiver noise figure over thermal noise kTB (22 MHz).
    pub noise_figure_db: f64,
    /// `sinr` reception: least SINR at which a preamble is detected and the receiver locks.
    pub preamble_snr_db: f64,
    /// Time-correlated shadowing per link (phy/dynamics/gauss_markov.rs); none by default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gauss_markov: Option<GaussMarkov>,
    /// Bursty losses per link (phy/dynamics/gilbert_elliott.rs); none by default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gilbert_elliott: Option<GilbertElliott>,
    /// Losses replayed from a measured trace, per link (phy/dynamics/replay.rs); none by
    /// default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_trace: Option<LinkTrace>,
}

impl Default for Radio {
    fn default() -> Self {
        Radio {
            standard: Standard::B,
            channel_width_mhz: 20,
            guard_interval_ns: 800,
            antennas: 1,
            spatial_streams: 1,
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
            weak_frames: None,
            frame_error_rate: 0.0,
            rx_range_m: None,
            cs_range_m: None,
            tx_power_dbm: None,
            path_loss_exponent: 3.0,
            reference_distance_m: 1.0,
            reference_loss_db: None,
            shadowing_sigma_db: 0.0,
            shadowing_symmetric: true,
            fading: Fading::None,
            ricean_k_db: 6.0,
            noise_figure_db: 7.0,
            preamble_snr_db: 4.0,
            gauss_markov: None,
            gilbert_elliott: None,
            link_trace: None,
        }
    }
}

fn is_20(v: &u32) -> bool {
    *v == 20
}

fn is_800(v: &u32) -> bool {
    *v == 800
}

fn is_1(v: &u32) -> bool {
    *v == 1
}

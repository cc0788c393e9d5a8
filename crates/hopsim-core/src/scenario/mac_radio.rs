//! The `[radio]` and `[mac]` tables: propagation, reception, fading, and the 802.11 MAC
//! with its data rate (fixed or adapted). Defaults and sources: docs/models.md 1.2, 1.4.

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
        }
    }
}

/// 802.11b DCF parameters (IEEE 802.11-2007 clause 18 DSSS; ns-2.35 Mac/802_11 defaults).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Mac {
    /// Rate of unicast DATA frames: fixed, or chosen per link by `rate_control`.
    pub data_rate_mbps: DataRate,
    /// The algorithm of `data_rate_mbps = "auto"`.
    pub rate_control: RateControlAlgo,
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
            data_rate_mbps: DataRate::Mbps(2.0),
            rate_control: RateControlAlgo::Arf,
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

/// `mac.data_rate_mbps`: a number of Mbit/s, or "auto".
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DataRate {
    Mbps(f64),
    Auto,
}

impl DataRate {
    /// The fixed rate, if any.
    pub fn fixed(self) -> Option<f64> {
        match self {
            DataRate::Mbps(r) => Some(r),
            DataRate::Auto => None,
        }
    }
}

impl Serialize for DataRate {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self {
            DataRate::Mbps(r) => ser.serialize_f64(*r),
            DataRate::Auto => ser.serialize_str("auto"),
        }
    }
}

impl<'de> Deserialize<'de> for DataRate {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = DataRate;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a rate in Mbit/s (1, 2, 5.5, 11) or \"auto\"")
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<DataRate, E> {
                Ok(DataRate::Mbps(v))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<DataRate, E> {
                Ok(DataRate::Mbps(v as f64))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<DataRate, E> {
                Ok(DataRate::Mbps(v as f64))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<DataRate, E> {
                if v == "auto" {
                    Ok(DataRate::Auto)
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Str(v), &self))
                }
            }
        }
        de.deserialize_any(V)
    }
}

/// Rate adaptation of `data_rate_mbps = "auto"` (see mac/rate.rs for the sources).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RateControlAlgo {
    Arf,
    Aarf,
    Sample,
}

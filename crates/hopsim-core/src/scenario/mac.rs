//! The `[mac]` table: the 802.11 MAC with its data rate (fixed or adapted), and its checks.
//! Defaults and sources: docs/models.md 1.4. The defaults here are 802.11b's; another
//! `radio.standard` fills the keys a scenario leaves out with its own (scenario/standard.rs).

use super::ranges;
use super::validate::Check;
use super::{KeyPath, Radio};
use crate::phy::standard::Standard;
use serde::{Deserialize, Serialize};

/// DCF parameters; defaults of 802.11b (IEEE 802.11-2007 clause 18 DSSS; ns-2.35 Mac/802_11).
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

/// "1, 2, 5.5, 11": a list of rates in 100 kbit/s as Mbit/s.
fn list_mbps(rates: &[u32]) -> String {
    let names: Vec<String> =
        rates.iter().map(|&r| crate::error::fmt_num(r as f64 / 10.0)).collect();
    names.join(", ")
}

/// The rates a station may send RTS and broadcast frames at: the mandatory rates
/// (802.11-2016 15.4.4.2 / 16.2.3.4: 1, 2; 17.3.2.1: 6, 12, 24; 18.1.1: ERP both).
pub fn basic_rates(standard: Standard) -> &'static [u32] {
    match standard {
        Standard::B => &[10, 20],
        Standard::A => &[60, 120, 240],
        Standard::G => &[10, 20, 60, 120, 240],
        Standard::N => &[60, 120, 240], // non-HT OFDM: HT rates are not basic (10.7.6.5.1)
    }
}

impl Mac {
    pub(super) fn check(&self, at: &KeyPath, radio: &Radio) -> Check {
        let standard = radio.standard;
        let name = standard.name();
        if let DataRate::Mcs(mcs) = self.data_rate_mbps {
            // MCS 8k..8k+7 send k + 1 streams, each needing an antenna (19.3.5).
            let most = 8 * radio.antennas - 1;
            if !standard.is_ht() || u32::from(mcs) > most {
                let allowed = if standard.is_ht() {
                    format!(
                        "must be \"mcs0\" to \"mcs{most}\" with radio.antennas = {}",
                        radio.antennas
                    )
                } else {
                    format!(
                        "an MCS needs radio.standard = \"80211n\"; {name} sends {} Mbit/s",
                        list_mbps(standard.rate_ladder())
                    )
                };
                return Err(at.field("data_rate_mbps").invalid(format!("mcs{mcs}"), &allowed));
            }
        }
        if standard.is_ht() && self.data_rate_mbps == DataRate::Auto {
            return Err(at.field("data_rate_mbps").invalid(
                "auto",
                "802.11n takes a fixed rate here, \"mcs0\" to \"mcs31\" or an OFDM rate in Mbit/s \
                 (Minstrel-HT is not modelled yet)",
            ));
        }
        if let Some(rate) = self.data_rate_mbps.fixed() {
            // Rates are written in Mbit/s with at most one decimal (5.5).
            let r100 = (rate * 10.0).round();
            if (rate * 10.0 - r100).abs() > 1e-9 || !standard.supports(r100 as u32) {
                let rates = list_mbps(standard.rate_ladder());
                return Err(at
                    .field("data_rate_mbps")
                    .invalid(rate, &format!("must be one of {rates} ({name}) or \"auto\"")));
            }
        }
        let basic = basic_rates(standard);
        let b100 = (self.basic_rate_mbps * 10.0).round();
        if (self.basic_rate_mbps * 10.0 - b100).abs() > 1e-9 || !basic.contains(&(b100 as u32)) {
            return Err(at.field("basic_rate_mbps").invalid(
                self.basic_rate_mbps,
                &format!(
                    "must be one of {} (the {name} mandatory rates, used for RTS and broadcast)",
                    list_mbps(basic)
                ),
            ));
        }
        for (name, v) in [
            ("rts_threshold_bytes", self.rts_threshold_bytes),
            ("short_retry_limit", self.short_retry_limit),
            ("long_retry_limit", self.long_retry_limit),
            ("queue_packets", self.queue_packets),
            ("cw_min", self.cw_min),
            ("cw_max", self.cw_max),
        ] {
            ranges::check(&at.field(name), v as f64)?;
        }
        // Binary exponential backoff doubles CW + 1: only 2^k - 1 can be reached.
        let power_of_two_less_one = |v: u32| (v + 1).is_power_of_two();
        let cw_min = at.field("cw_min");
        if !power_of_two_less_one(self.cw_min) {
            return Err(cw_min.invalid(
                self.cw_min,
                "must be 2^k - 1 between 1 and 65535 (802.11b: 31, a/g: 15)",
            ));
        }
        if !power_of_two_less_one(self.cw_max) || self.cw_max < self.cw_min {
            return Err(at.field("cw_max").invalid(
                self.cw_max,
                &format!(
                    "must be 2^k - 1, at least {cw_min} = {} and at most 65535 (802.11b: 1023)",
                    self.cw_min
                ),
            ));
        }
        Ok(())
    }
}

/// `mac.data_rate_mbps`: a number of Mbit/s, an HT MCS ("mcs7"), or "auto".
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DataRate {
    Mbps(f64),
    Mcs(u8),
    Auto,
}

impl DataRate {
    /// The fixed non-HT rate, if any.
    pub fn fixed(self) -> Option<f64> {
        match self {
            DataRate::Mbps(r) => Some(r),
            DataRate::Mcs(_) | DataRate::Auto => None,
        }
    }
}

impl Serialize for DataRate {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self {
            DataRate::Mbps(r) => ser.serialize_f64(*r),
            DataRate::Mcs(m) => ser.serialize_str(&format!("mcs{m}")),
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
                f.write_str(
                    "a rate in Mbit/s (802.11b: 1, 2, 5.5, 11; a/g/n: 6 to 54), an 802.11n MCS \
                     (\"mcs0\" to \"mcs31\") or \"auto\"",
                )
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
                let mcs = v.strip_prefix("mcs").and_then(|m| m.parse::<u8>().ok());
                if v == "auto" {
                    Ok(DataRate::Auto)
                } else if let Some(m) = mcs.filter(|&m| m < 32 && v == format!("mcs{m}")) {
                    Ok(DataRate::Mcs(m))
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Str(v), &self))
                }
            }
        }
        de.deserialize_any(V)
    }
}

/// Rate adaptation of `data_rate_mbps = "auto"` (see mac/rate/mod.rs for the sources).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RateControlAlgo {
    Arf,
    Aarf,
    Sample,
}

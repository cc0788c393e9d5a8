//! The `[mac]` table: the 802.11 MAC with its data rate (fixed or adapted), and its checks.
//! Defaults and sources: docs/models.md 1.4. The defaults here are 802.11b's; another
//! `radio.standard` fills the keys a scenario leaves out with its own (scenario/standard.rs).

use super::edca::EdcaTable;
use super::ranges;
use super::validate::Check;
use super::{KeyPath, Radio};
use crate::mac::amsdu;
use crate::mac::dcf::ErpProtection;
use crate::phy::mcs::McsMode;
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
    /// 802.11n: the largest A-MPDU, octets (the HT Capabilities' maximum A-MPDU length,
    /// 9.4.2.56.3; up to 65,535); 0: no aggregation, every MPDU acknowledged alone.
    #[serde(skip_serializing_if = "is_zero")]
    pub ampdu_max_bytes: u32,
    /// 802.11n: MPDUs per A-MPDU, which is also the Block Ack agreement's buffer (1-64).
    #[serde(skip_serializing_if = "is_64")]
    pub ampdu_max_mpdus: u32,
    /// 802.11n: the receiver's minimum MPDU start spacing, ns (9.4.2.56.3: 0, 250, 500,
    /// 1000, 2000, 4000, 8000, 16000).
    #[serde(skip_serializing_if = "is_zero")]
    pub mpdu_density_ns: u32,
    /// 802.11n: how long the reordering buffer holds an MSDU behind a gap before it gives
    /// the gap up (mac80211's HT_RX_REORDER_BUF_TIMEOUT, 0.1 s); 0: never (the standard's
    /// rules alone, as ns-3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reorder_timeout_s: Option<f64>,
    /// 802.11n: how long an MPDU sent under Block Ack may go unacknowledged after it reached
    /// the MAC before it is given up (dot11EDCATableMSDULifetime, 500 TU = 0.512 s, Annex C);
    /// under Block Ack its failures are not counted against a retry limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub msdu_lifetime_s: Option<f64>,
    /// 802.11n/ac: the largest A-MSDU, octets (mac/amsdu.rs: up to 7,935 for 802.11n, 11,398
    /// for 802.11ac); 0: every MSDU in an MPDU of its own.
    #[serde(skip_serializing_if = "is_zero")]
    pub amsdu_max_bytes: u32,
    /// 802.11g: the frame before each ERP-OFDM frame, as beside 802.11b stations (10.26.2).
    #[serde(skip_serializing_if = "is_unprotected")]
    pub erp_protection: ErpProtection,
    /// 802.11n/ac: per-category EDCA parameters over Table 9-137's (scenario/edca.rs).
    #[serde(skip_serializing_if = "EdcaTable::is_empty")]
    pub edca: EdcaTable,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

fn is_unprotected(p: &ErpProtection) -> bool {
    *p == ErpProtection::None
}

fn is_64(v: &u32) -> bool {
    *v == 64
}

/// The minimum MPDU start spacings an HT station may announce (9.4.2.56.3), ns.
pub const MPDU_DENSITIES_NS: [u32; 8] = [0, 250, 500, 1000, 2000, 4000, 8000, 16000];

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
            ampdu_max_bytes: 0,
            ampdu_max_mpdus: 64,
            mpdu_density_ns: 0,
            reorder_timeout_s: None,
            msdu_lifetime_s: None,
            amsdu_max_bytes: 0,
            erp_protection: ErpProtection::None,
            edca: EdcaTable::default(),
        }
    }
}

/// "1, 2, 5.5, 11": a list of rates in 100 kbit/s as Mbit/s.
fn list_mbps(rates: &[u32]) -> String {
    let names: Vec<String> =
        rates.iter().map(|&r| crate::error::fmt_num(r as f64 / 10.0)).collect();
    names.join(", ")
}

/// The MCS names of `mac.data_rate_mbps` an HT or VHT station may give.
fn mcs_names(standard: Standard) -> &'static str {
    if standard.is_vht() {
        "\"mcs0\" to \"mcs9\""
    } else {
        "\"mcs0\" to \"mcs31\""
    }
}

/// `mac.data_rate_mbps = "mcsN"`: an MCS the radio's standard, width and streams can send.
fn check_mcs(at: &KeyPath, radio: &Radio, mcs: u8) -> Check {
    let standard = radio.standard;
    let key = at.field("data_rate_mbps");
    if standard.is_vht() {
        let (streams, width) = (radio.spatial_streams, radio.channel_width_mhz);
        let gi = radio.guard_interval_ns == 400;
        if McsMode::vht(mcs, streams as u8, width, gi).is_none() {
            let why = if mcs > 9 {
                "must be \"mcs0\" to \"mcs9\" with radio.standard = \"80211ac\" (VHT MCSs; \
                 radio.spatial_streams sets the streams)"
                    .to_string()
            } else {
                // Tables 21-30 to 21-61 leave out the combinations whose N_DBPS is not whole.
                format!(
                    "is not a VHT MCS with radio.channel_width_mhz = {width} and \
                     radio.spatial_streams = {streams} (802.11-2016 Tables 21-30 to 21-61 leave \
                     it out); choose another MCS, width or stream count"
                )
            };
            return Err(key.invalid(format!("mcs{mcs}"), &why));
        }
        return Ok(());
    }
    // MCS 8k..8k+7 send k + 1 streams, each needing an antenna (19.3.5).
    let most = 8 * radio.antennas - 1;
    if !standard.is_ht() || u32::from(mcs) > most {
        let allowed = if standard.is_ht() {
            format!("must be \"mcs0\" to \"mcs{most}\" with radio.antennas = {}", radio.antennas)
        } else {
            format!(
                "an MCS needs radio.standard = \"80211n\" or \"80211ac\"; {} sends {} Mbit/s",
                standard.name(),
                list_mbps(standard.rate_ladder())
            )
        };
        return Err(key.invalid(format!("mcs{mcs}"), &allowed));
    }
    Ok(())
}

/// The rates a station may send RTS and broadcast frames at: the mandatory rates
/// (802.11-2016 15.4.4.2 / 16.2.3.4: 1, 2; 17.3.2.1: 6, 12, 24; 18.1.1: ERP both).
pub fn basic_rates(standard: Standard) -> &'static [u32] {
    match standard {
        Standard::B => &[10, 20],
        Standard::A => &[60, 120, 240],
        Standard::G => &[10, 20, 60, 120, 240],
        // non-HT OFDM: HT and VHT rates are not basic (10.7.6.5.1)
        Standard::N | Standard::Ac => &[60, 120, 240],
    }
}

impl Mac {
    pub(super) fn check(&self, at: &KeyPath, radio: &Radio) -> Check {
        let standard = radio.standard;
        let name = standard.name();
        if let DataRate::Mcs(mcs) = self.data_rate_mbps {
            check_mcs(at, radio, mcs)?;
        }
        if self.data_rate_mbps == DataRate::Auto {
            self.check_rate_control(at, radio)?;
        }
        self.check_aggregation(at, radio)?;
        if let Some(rate) = self.data_rate_mbps.fixed() {
            // Rates are written in Mbit/s with at most one decimal (5.5).
            let r100 = (rate * 10.0).round();
            if (rate * 10.0 - r100).abs() > 1e-9 || !standard.supports(r100 as u32) {
                let rates = list_mbps(standard.rate_ladder());
                let or = if standard.is_ht() { mcs_names(standard) } else { "\"auto\"" };
                return Err(at
                    .field("data_rate_mbps")
                    .invalid(rate, &format!("must be one of {rates} ({name}) or {or}")));
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
        if self.erp_protection != ErpProtection::None {
            // The protecting frames go at the basic rate, which the 802.11b stations must
            // decode: a DSSS rate (10.26.2.2; 18.1).
            let key = at.field("erp_protection");
            if standard != Standard::G {
                return Err(key.invalid(
                    self.erp_protection.name(),
                    &format!("must be \"none\" with radio.standard = \"{name}\" (ERP protection is 802.11g's)"),
                ));
            }
            if !matches!(b100 as u32, 10 | 20) {
                return Err(key.invalid(
                    self.erp_protection.name(),
                    "needs mac.basic_rate_mbps = 1 or 2: the protecting frames go at the basic \
                     rate, which 802.11b stations decode only at a DSSS rate",
                ));
            }
        }
        let defaults = crate::mac::edca::Ac::ALL.map(|ac| {
            crate::mac::edca::EdcaParams::default_for(ac, self.cw_min, self.cw_max, false)
        });
        self.edca.check(&at.field("edca"), standard.is_ht(), defaults)
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
    /// SNR-ideal (ns-3's IdealWifiManager): needs SINR reception.
    Ideal,
    /// Linux mac80211's Minstrel-HT: 802.11n and 802.11ac (their default with "auto").
    MinstrelHt,
}

impl RateControlAlgo {
    pub fn name(self) -> &'static str {
        match self {
            RateControlAlgo::Arf => "arf",
            RateControlAlgo::Aarf => "aarf",
            RateControlAlgo::Sample => "sample",
            RateControlAlgo::Ideal => "ideal",
            RateControlAlgo::MinstrelHt => "minstrel_ht",
        }
    }
}

impl Mac {
    /// `rate_control` with `data_rate_mbps = "auto"`: ARF, AARF and SampleRate climb the
    /// non-HT ladder of 802.11b/a/g; HT and VHT stations adapt their MCS by SNR-ideal control;
    /// SNR-ideal needs receivers that measure SNR.
    fn check_rate_control(&self, at: &KeyPath, radio: &Radio) -> Check {
        let algo = self.rate_control;
        let key = at.field("rate_control");
        let name = radio.standard.name();
        let ht = radio.standard.is_ht();
        if ht && !matches!(algo, RateControlAlgo::Ideal | RateControlAlgo::MinstrelHt) {
            return Err(key.invalid(
                algo.name(),
                &format!(
                    "must be \"minstrel_ht\" or \"ideal\" with radio.standard = \"{name}\" and \
                     data_rate_mbps = \"auto\" (ARF, AARF and SampleRate choose among \
                     802.11b/a/g rates), or give a fixed {}",
                    mcs_names(radio.standard)
                ),
            ));
        }
        if !ht && algo == RateControlAlgo::MinstrelHt {
            return Err(key.invalid(
                "minstrel_ht",
                &format!(
                    "adapts HT and VHT MCSs: radio.standard must be \"80211n\" or \"80211ac\", \
                     not \"{name}\" (arf, aarf, sample or ideal adapt its rates)"
                ),
            ));
        }
        if algo == RateControlAlgo::Ideal && radio.reception != crate::phy::config::Reception::Sinr
        {
            return Err(key.invalid(
                "ideal",
                "needs radio.reception = \"sinr\": the receivers measure the SNR it adapts to \
                 (arf, aarf or sample work with every reception mode)",
            ));
        }
        Ok(())
    }
}

impl Mac {
    /// The A-MPDU keys: 802.11n and 802.11ac only, within the standard's limits.
    fn check_aggregation(&self, at: &KeyPath, radio: &Radio) -> Check {
        let ht = radio.standard.is_ht();
        let name = radio.standard.name();
        // The largest Maximum A-MPDU Length Exponent: 3 for HT, 7 for VHT (9.4.2.56.3,
        // 9.4.2.158.2).
        let vht = radio.standard.is_vht();
        let most = crate::mac::ampdu::max_ampdu_bytes(if vht { 7 } else { 3 }, vht)
            .expect("exponents within the standard");
        if self.ampdu_max_bytes > most || (!ht && self.ampdu_max_bytes != 0) {
            let allowed = if radio.standard.is_vht() {
                "0 (no aggregation) to 1048575"
            } else if ht {
                "0 (no aggregation) to 65535"
            } else {
                "0: only 802.11n and 802.11ac aggregate"
            };
            return Err(at.field("ampdu_max_bytes").invalid(
                self.ampdu_max_bytes,
                &format!("must be {allowed} (radio.standard = \"{name}\")"),
            ));
        }
        let most_amsdu = if vht { amsdu::MAX_VHT_BYTES } else { amsdu::MAX_HT_BYTES };
        if self.amsdu_max_bytes > most_amsdu || (!ht && self.amsdu_max_bytes != 0) {
            let allowed = if ht {
                format!("0 (no A-MSDUs) to {most_amsdu}")
            } else {
                "0: only 802.11n and 802.11ac aggregate MSDUs".to_string()
            };
            return Err(at.field("amsdu_max_bytes").invalid(
                self.amsdu_max_bytes,
                &format!("must be {allowed} (radio.standard = \"{name}\")"),
            ));
        }
        if !(1..=64).contains(&self.ampdu_max_mpdus) {
            return Err(at.field("ampdu_max_mpdus").invalid(
                self.ampdu_max_mpdus,
                "must be 1 to 64 (the Block Ack bitmap's 64 bits)",
            ));
        }
        if !MPDU_DENSITIES_NS.contains(&self.mpdu_density_ns) {
            return Err(at.field("mpdu_density_ns").invalid(
                self.mpdu_density_ns,
                "must be 0, 250, 500, 1000, 2000, 4000, 8000 or 16000",
            ));
        }
        if let Some(t) = self.msdu_lifetime_s {
            if !(t.is_finite() && t > 0.0 && t <= 1000.0 && ht) {
                return Err(at.field("msdu_lifetime_s").invalid(
                    t,
                    "must be above 0 and at most 1000 seconds, with radio.standard = \"80211n\" or \
                     \"80211ac\"",
                ));
            }
        }
        if let Some(t) = self.reorder_timeout_s {
            if !(t.is_finite() && (0.0..=10.0).contains(&t) && ht) {
                return Err(at.field("reorder_timeout_s").invalid(
                    t,
                    "must be 0 (never) to 10 seconds, with radio.standard = \"80211n\" or \"80211ac\"",
                ));
            }
        }
        Ok(())
    }
}

//! The defaults of `radio.standard`: a scenario that names 802.11a or 802.11g gets, for every
//! `[radio]` and `[mac]` key it leaves out, that standard's value instead of 802.11b's (the
//! structs' own defaults: ns-2.35's 914 MHz WaveLAN). Filled key by key in the document, as
//! the TCP host profiles are (parse.rs), since only the document knows which keys were
//! written. Values and sources: docs/models.md 1.2 and 1.4.
//!
//! * 2.4 GHz channel 1 (2.412 GHz) for 802.11g, 5 GHz channel 36 (5.18 GHz) for 802.11a
//!   and 802.11n.
//! * Log-distance path loss, exponent 3 from Friis at 1 m, and `sinr` reception with the OFDM
//!   error model: ns-3.44's defaults for these standards (LogDistancePropagationLossModel,
//!   YansWifiPhy with the NIST error model).
//! * 16.0206 dBm (40 mW) transmit power: ns-3's WifiPhy TxPowerStart/End.
//! * Receive threshold -82 dBm, the 6 Mbit/s minimum sensitivity (802.11-2016 Table 17-18),
//!   which is also ns-3's preamble-detection minimum RSSI. Carrier sense: with `sinr`, energy
//!   detection at -62 dBm (17.3.10.6: 20 dB above it; ns-3's CcaEdThreshold), besides the
//!   frame being received; with `capture`, the standard's preamble detection at -82 dBm.
//! * Data and basic rate 6 Mbit/s (ns-3's ConstantRateWifiManager DataMode/ControlMode;
//!   802.11n: data at MCS 0, the slowest HT rate), CWmin 15 (Tables 17-21, 18-5); CWmax is
//!   1023 as for 802.11b.

use serde_json::{json, Map, Value};

/// -82 dBm and -62 dBm in watts.
const MINUS_82_DBM_W: f64 = 6.309_573_444_801_943e-12;
const MINUS_62_DBM_W: f64 = 6.309_573_444_801_943e-10;
/// 16.0206 dBm: 40 mW.
const TX_POWER_W: f64 = 0.04;

/// Fill the chosen standard's defaults into the document's `[radio]` and `[mac]` tables.
pub(super) fn fill_defaults(doc: &mut Value) {
    let Some(Value::Object(top)) = Some(doc) else { return };
    let standard = match top.get("radio").and_then(|r| r.get("standard")) {
        Some(Value::String(s)) => s.clone(),
        _ => return, // 802.11b, or a wrong value the typed parse names
    };
    let frequency_hz = match standard.as_str() {
        "80211a" | "80211n" | "80211ac" => 5.18e9,
        "80211g" => 2.412e9,
        _ => return,
    };
    let radio = table(top, "radio");
    put(radio, "frequency_hz", json!(frequency_hz));
    put(radio, "propagation", json!("log_distance"));
    put(radio, "reception", json!("sinr"));
    if !radio.contains_key("tx_power_dbm") {
        put(radio, "tx_power_w", json!(TX_POWER_W));
    }
    put(radio, "rx_threshold_w", json!(MINUS_82_DBM_W));
    let capture = radio.get("reception") == Some(&json!("capture"));
    put(radio, "cs_threshold_w", json!(if capture { MINUS_82_DBM_W } else { MINUS_62_DBM_W }));
    let mac = table(top, "mac");
    let ht = standard == "80211n" || standard == "80211ac";
    let data_rate = if ht { json!("mcs0") } else { json!(6.0) };
    put(mac, "data_rate_mbps", data_rate);
    put(mac, "basic_rate_mbps", json!(6.0));
    put(mac, "cw_min", json!(15));
    if ht {
        // "auto" adapts the MCS as Linux does, Minstrel-HT (ARF is for 802.11b/a/g).
        put(mac, "rate_control", json!("minstrel_ht"));
        // HT and VHT aggregate by default (ns-3's BE_MaxAmpduSize 65,535), with Linux's reorder
        // release timeout.
        put(mac, "ampdu_max_bytes", json!(65_535));
        put(mac, "reorder_timeout_s", json!(0.1));
        put(mac, "msdu_lifetime_s", json!(0.512));
    }
}

fn table<'a>(top: &'a mut Map<String, Value>, name: &str) -> &'a mut Map<String, Value> {
    let v = top.entry(name).or_insert_with(|| Value::Object(Map::new()));
    match v {
        Value::Object(m) => m,
        _ => unreachable!("check_tables refuses a section that is not a table"),
    }
}

fn put(table: &mut Map<String, Value>, key: &str, value: Value) {
    table.entry(key).or_insert(value);
}

#[cfg(test)]
mod tests {
    use crate::phy::config::{Propagation, Reception};
    use crate::phy::standard::Standard;
    use crate::scenario::{parse_toml, DataRate};

    const FLOW: &str = "[topology]\nkind = \"chain\"\nhops = 1\nspacing_m = 50.0\n\
                        [[flows]]\nsrc = 0\ndst = 1\ntransport = \"udp\"\n";

    #[test]
    fn an_80211a_scenario_gets_5_ghz_ofdm_defaults_where_it_is_silent() {
        let s = parse_toml(&format!("[radio]\nstandard = \"80211a\"\n{FLOW}")).unwrap();
        assert_eq!(s.radio.standard, Standard::A);
        assert_eq!(s.radio.frequency_hz, 5.18e9);
        assert_eq!(s.radio.propagation, Propagation::LogDistance);
        assert_eq!(s.radio.reception, Reception::Sinr);
        assert!((10.0 * (s.radio.rx_threshold_w * 1e3).log10() - -82.0).abs() < 1e-9);
        assert!((10.0 * (s.radio.cs_threshold_w * 1e3).log10() - -62.0).abs() < 1e-9);
        assert_eq!((s.mac.cw_min, s.mac.cw_max), (15, 1023));
        assert_eq!(s.mac.data_rate_mbps, DataRate::Mbps(6.0));
        // What the scenario says wins.
        let own = "[radio]\nstandard = \"80211a\"\nreception = \"capture\"\nfrequency_hz = 5.5e9\n\
                   [mac]\ncw_min = 31\ndata_rate_mbps = 54\n";
        let s = parse_toml(&format!("{own}{FLOW}")).unwrap();
        assert_eq!((s.radio.frequency_hz, s.mac.cw_min), (5.5e9, 31));
        assert_eq!(s.mac.data_rate_mbps, DataRate::Mbps(54.0));
        assert_eq!(s.radio.cs_threshold_w, s.radio.rx_threshold_w, "capture: preamble CCA");
    }

    #[test]
    fn an_80211n_scenario_gets_5_ghz_and_mcs_0_and_refuses_what_ht_cannot_do() {
        let s = parse_toml(&format!("[radio]\nstandard = \"80211n\"\n{FLOW}")).unwrap();
        assert_eq!((s.radio.standard, s.radio.frequency_hz), (Standard::N, 5.18e9));
        assert_eq!(s.mac.data_rate_mbps, DataRate::Mcs(0));
        let refused = |extra: &str| {
            parse_toml(&format!("[radio]\nstandard = \"80211n\"\n{extra}{FLOW}"))
                .and_then(|s| crate::scenario::validate(&s).map(|_| s))
                .unwrap_err()
        };
        assert_eq!(refused("channel_width_mhz = 80\n").key, "radio.channel_width_mhz");
        assert_eq!(refused("guard_interval_ns = 200\n").key, "radio.guard_interval_ns");
        assert_eq!(refused("frequency_hz = 2.412e9\n").key, "radio.frequency_hz");
        assert_eq!(refused("antennas = 5\n").key, "radio.antennas");
        // MCS 8 needs two streams, so two antennas.
        let e = refused("[mac]\ndata_rate_mbps = \"mcs8\"\n");
        assert_eq!(e.key, "mac.data_rate_mbps");
        assert!(e.message.contains("\"mcs0\" to \"mcs7\""), "{}", e.message);
        assert!(parse_toml(&format!(
            "[radio]\nstandard = \"80211n\"\nantennas = 2\n[mac]\ndata_rate_mbps = \"mcs15\"\n{FLOW}"
        ))
        .and_then(|s| crate::scenario::validate(&s))
        .is_ok());
        // "auto" adapts the MCS by Minstrel-HT (the default) or SNR-ideal control; ARF is for
        // the non-HT ladders.
        let arf = refused("[mac]\ndata_rate_mbps = \"auto\"\nrate_control = \"arf\"\n");
        assert_eq!(arf.key, "mac.rate_control");
        let auto = parse_toml(&format!(
            "[radio]\nstandard = \"80211n\"\n[mac]\ndata_rate_mbps = \"auto\"\n{FLOW}"
        ))
        .unwrap();
        assert_eq!(auto.mac.rate_control, crate::scenario::RateControlAlgo::MinstrelHt);
        assert!(parse_toml(&format!(
            "[radio]\nstandard = \"80211n\"\n[mac]\ndata_rate_mbps = \"auto\"\n\
             rate_control = \"ideal\"\n{FLOW}"
        ))
        .and_then(|s| crate::scenario::validate(&s))
        .is_ok());
        let e = refused(
            "reception = \"capture\"\n[mac]\ndata_rate_mbps = \"auto\"\nrate_control = \"ideal\"\n",
        );
        assert_eq!(e.key, "mac.rate_control");
        // ...and other standards refuse the HT keys.
        let e =
            parse_toml(&format!("[radio]\nstandard = \"80211a\"\nchannel_width_mhz = 40\n{FLOW}"))
                .and_then(|s| crate::scenario::validate(&s).map(|_| s))
                .unwrap_err();
        assert_eq!(e.key, "radio.channel_width_mhz");
        let e = parse_toml(&format!("[mac]\ndata_rate_mbps = \"mcs3\"\n{FLOW}"))
            .and_then(|s| crate::scenario::validate(&s).map(|_| s))
            .unwrap_err();
        assert_eq!(e.key, "mac.data_rate_mbps");
        assert!(parse_toml(&format!("[mac]\ndata_rate_mbps = \"mcs32\"\n{FLOW}")).is_err());
        assert!(parse_toml(&format!("[mac]\ndata_rate_mbps = \"mcs07\"\n{FLOW}")).is_err());
    }

    #[test]
    fn an_80211b_scenario_is_untouched() {
        let plain = parse_toml(FLOW).unwrap();
        let named = parse_toml(&format!("[radio]\nstandard = \"80211b\"\n{FLOW}")).unwrap();
        assert_eq!(plain, named);
        let json = serde_json::to_value(&plain).unwrap();
        assert!(json["radio"].get("standard").is_none(), "802.11b resolves as it always did");
    }

    #[test]
    fn rates_of_another_standard_are_refused_by_name() {
        let bad = parse_toml(&format!(
            "[radio]\nstandard = \"80211a\"\n[mac]\ndata_rate_mbps = 11\n{FLOW}"
        ))
        .and_then(|s| crate::scenario::validate(&s).map(|_| s))
        .unwrap_err();
        assert_eq!(bad.key, "mac.data_rate_mbps");
        assert!(bad.message.contains("6, 9, 12, 18, 24, 36, 48, 54 (80211a)"), "{}", bad.message);
        let bad = parse_toml(&format!("[mac]\ndata_rate_mbps = 54\n{FLOW}"))
            .and_then(|s| crate::scenario::validate(&s).map(|_| s))
            .unwrap_err();
        assert!(bad.message.contains("1, 2, 5.5, 11 (80211b)"), "{}", bad.message);
        let bad = parse_toml(&format!(
            "[radio]\nstandard = \"80211g\"\n[mac]\nbasic_rate_mbps = 54\n{FLOW}"
        ))
        .and_then(|s| crate::scenario::validate(&s).map(|_| s))
        .unwrap_err();
        assert_eq!(bad.key, "mac.basic_rate_mbps");
        let bad = parse_toml(&format!("profile = \"ns2\"\n[radio]\nstandard = \"80211g\"\n{FLOW}"))
            .and_then(|s| crate::scenario::validate(&s).map(|_| s))
            .unwrap_err();
        assert_eq!(bad.key, "radio.standard");
        let bad = parse_toml(&format!("[radio]\nstandard = \"80211z\"\n{FLOW}")).unwrap_err();
        assert_eq!(bad.key, "radio.standard");
    }
}

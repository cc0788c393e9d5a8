//! Value checks of the `[radio]`, `[mac]` and `[routing]` tables and of the testbed layout (the
//! buildings whose walls shadow links): every rejection names the key, the value and what is
//! allowed. Single-key ranges live in `ranges.rs`; the rules between keys are here.

use super::ranges;
use super::{Mac, Radio, Routing, RoutingProtocol, TestbedLayout};
use crate::error::ScenarioError;

type Check = Result<(), ScenarioError>;

fn each(table: &str, values: &[(&str, f64)]) -> Check {
    for &(k, v) in values {
        let key = format!("{table}.{k}");
        ranges::check(&key, &key, v)?;
    }
    Ok(())
}

fn optional(table: &str, values: &[(&str, Option<f64>)]) -> Check {
    for &(k, v) in values {
        if let Some(v) = v {
            each(table, &[(k, v)])?;
        }
    }
    Ok(())
}

pub(super) fn check_radio(r: &Radio) -> Check {
    each(
        "radio",
        &[
            ("tx_power_w", r.tx_power_w),
            ("frequency_hz", r.frequency_hz),
            ("antenna_height_m", r.antenna_height_m),
            ("antenna_gain", r.antenna_gain),
            ("system_loss", r.system_loss),
            ("rx_threshold_w", r.rx_threshold_w),
            ("cs_threshold_w", r.cs_threshold_w),
            ("capture_threshold_db", r.capture_threshold_db),
            ("frame_error_rate", r.frame_error_rate),
            ("path_loss_exponent", r.path_loss_exponent),
            ("reference_distance_m", r.reference_distance_m),
            ("shadowing_sigma_db", r.shadowing_sigma_db),
            ("ricean_k_db", r.ricean_k_db),
            ("noise_figure_db", r.noise_figure_db),
            ("preamble_snr_db", r.preamble_snr_db),
        ],
    )?;
    optional(
        "radio",
        &[
            ("tx_power_dbm", r.tx_power_dbm),
            ("rx_range_m", r.rx_range_m),
            ("cs_range_m", r.cs_range_m),
            ("reference_loss_db", r.reference_loss_db),
        ],
    )?;
    if let Some(dbm) = r.tx_power_dbm {
        if r.tx_power_w != Radio::default().tx_power_w {
            return Err(ScenarioError::invalid(
                "radio.tx_power_dbm",
                dbm,
                "give the transmit power once: either radio.tx_power_w or radio.tx_power_dbm",
            ));
        }
    }
    match (r.rx_range_m, r.cs_range_m) {
        (Some(rx), Some(cs)) if cs < rx => Err(ScenarioError::invalid(
            "radio.cs_range_m",
            cs,
            &format!("must be at least radio.rx_range_m = {rx}"),
        )),
        (None, None) if r.cs_threshold_w > r.rx_threshold_w => Err(ScenarioError::invalid(
            "radio.cs_threshold_w",
            r.cs_threshold_w,
            &format!("must not exceed radio.rx_threshold_w = {}", r.rx_threshold_w),
        )),
        _ => Ok(()),
    }
}

const RATES_MBPS: [f64; 4] = [1.0, 2.0, 5.5, 11.0];

pub(super) fn check_mac(m: &Mac) -> Check {
    if let Some(rate) = m.data_rate_mbps.fixed() {
        if !RATES_MBPS.contains(&rate) {
            return Err(ScenarioError::invalid(
                "mac.data_rate_mbps",
                rate,
                "must be one of 1, 2, 5.5, 11 (802.11b) or \"auto\"",
            ));
        }
    }
    if ![1.0, 2.0].contains(&m.basic_rate_mbps) {
        return Err(ScenarioError::invalid(
            "mac.basic_rate_mbps",
            m.basic_rate_mbps,
            "must be 1 or 2 (the 802.11b basic rate set, used for control frames)",
        ));
    }
    each(
        "mac",
        &[
            ("rts_threshold_bytes", m.rts_threshold_bytes as f64),
            ("short_retry_limit", m.short_retry_limit as f64),
            ("long_retry_limit", m.long_retry_limit as f64),
            ("queue_packets", m.queue_packets as f64),
            ("cw_min", m.cw_min as f64),
            ("cw_max", m.cw_max as f64),
        ],
    )?;
    let power_of_two_less_one = |v: u32| (v + 1).is_power_of_two();
    if !power_of_two_less_one(m.cw_min) {
        return Err(ScenarioError::invalid(
            "mac.cw_min",
            m.cw_min,
            "must be 2^k - 1 between 1 and 65535 (802.11b: 31)",
        ));
    }
    if !power_of_two_less_one(m.cw_max) || m.cw_max < m.cw_min {
        return Err(ScenarioError::invalid(
            "mac.cw_max",
            m.cw_max,
            &format!(
                "must be 2^k - 1, at least mac.cw_min = {} and at most 65535 (802.11b: 1023)",
                m.cw_min
            ),
        ));
    }
    Ok(())
}

pub(super) fn check_routing(rt: &Routing, duration_s: f64, nodes: usize) -> Check {
    each(
        "routing",
        &[
            ("hello_interval_s", rt.hello_interval_s),
            ("allowed_hello_loss", rt.allowed_hello_loss as f64),
            ("etx_probe_interval_s", rt.etx_probe_interval_s),
            ("etx_warmup_s", rt.etx_warmup_s),
            ("etx_probe_bytes", rt.etx_probe_bytes as f64),
        ],
    )?;
    if rt.protocol == RoutingProtocol::Etx
        && !(rt.etx_warmup_s >= rt.etx_probe_interval_s && rt.etx_warmup_s < duration_s)
    {
        return Err(ScenarioError::invalid(
            "routing.etx_warmup_s",
            rt.etx_warmup_s,
            &format!(
                "must be at least one probe interval ({} s) and less than duration_s = {}",
                rt.etx_probe_interval_s, duration_s
            ),
        ));
    }
    if rt.protocol == RoutingProtocol::Dsr && nodes > 65_536 {
        return Err(ScenarioError::invalid(
            "routing.protocol",
            "\"dsr\"",
            "supports at most 65536 nodes (16-bit addresses in source routes)",
        ));
    }
    if rt.hello && rt.protocol != RoutingProtocol::Aodv {
        return Err(ScenarioError::invalid(
            "routing.hello",
            true,
            "HELLO messages are part of AODV: use it with protocol = \"aodv\"",
        ));
    }
    Ok(())
}

pub(super) fn check_testbed(b: &TestbedLayout, nodes: u64) -> Check {
    if b.buildings == 0 || b.buildings as u64 > nodes {
        return Err(ScenarioError::invalid(
            "topology.testbed.buildings",
            b.buildings,
            &format!("must be between 1 and topology.nodes = {nodes}"),
        ));
    }
    let [w, d] = b.building_size_m;
    let size = "topology.testbed.building_size_m";
    ranges::check(size, &format!("{size}.0"), w)?;
    ranges::check(size, &format!("{size}.1"), d)?;
    each(
        "topology.testbed",
        &[
            ("building_spacing_m", b.building_spacing_m),
            ("wall_loss_db", b.wall_loss_db),
            ("wall_sigma_db", b.wall_sigma_db),
        ],
    )
}

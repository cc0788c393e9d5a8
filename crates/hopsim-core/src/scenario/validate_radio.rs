//! Value checks of the `[radio]` table and of the testbed layout (the buildings whose walls
//! shadow links): every rejection names the key, the value and what is allowed.

use super::validate::{non_negative, positive};
use super::{Radio, TestbedLayout};
use crate::error::ScenarioError;

pub(super) fn check_radio(r: &Radio) -> Result<(), ScenarioError> {
    if let Some(dbm) = r.tx_power_dbm {
        if !(-50.0..=60.0).contains(&dbm) {
            return Err(ScenarioError::invalid(
                "radio.tx_power_dbm",
                dbm,
                "must be in -50..60 dBm",
            ));
        }
        if r.tx_power_w != Radio::default().tx_power_w {
            return Err(ScenarioError::invalid(
                "radio.tx_power_dbm",
                dbm,
                "give the transmit power once: either radio.tx_power_w or radio.tx_power_dbm",
            ));
        }
    }
    if !(r.path_loss_exponent.is_finite() && (1.0..=8.0).contains(&r.path_loss_exponent)) {
        return Err(ScenarioError::invalid(
            "radio.path_loss_exponent",
            r.path_loss_exponent,
            "must be in 1..8 (2 = free space, 2.7..3.5 urban, 3..6 indoors)",
        ));
    }
    positive("radio.reference_distance_m", r.reference_distance_m, "metres")?;
    if let Some(v) = r.reference_loss_db {
        non_negative("radio.reference_loss_db", v, "dB")?;
    }
    if !(r.shadowing_sigma_db.is_finite() && (0.0..=30.0).contains(&r.shadowing_sigma_db)) {
        return Err(ScenarioError::invalid(
            "radio.shadowing_sigma_db",
            r.shadowing_sigma_db,
            "must be in 0..30 dB (0 = no shadowing)",
        ));
    }
    if !(r.ricean_k_db.is_finite() && (-30.0..=40.0).contains(&r.ricean_k_db)) {
        return Err(ScenarioError::invalid(
            "radio.ricean_k_db",
            r.ricean_k_db,
            "must be in -30..40 dB",
        ));
    }
    non_negative("radio.noise_figure_db", r.noise_figure_db, "dB")?;
    if !(r.preamble_snr_db.is_finite() && (-10.0..=40.0).contains(&r.preamble_snr_db)) {
        return Err(ScenarioError::invalid(
            "radio.preamble_snr_db",
            r.preamble_snr_db,
            "must be in -10..40 dB",
        ));
    }
    if !(0.0..1.0).contains(&r.frame_error_rate) {
        return Err(ScenarioError::invalid(
            "radio.frame_error_rate",
            r.frame_error_rate,
            "must be a probability in [0, 1)",
        ));
    }
    if let Some(v) = r.rx_range_m {
        positive("radio.rx_range_m", v, "metres")?;
    }
    if let Some(v) = r.cs_range_m {
        positive("radio.cs_range_m", v, "metres")?;
    }
    match (r.rx_range_m, r.cs_range_m) {
        (Some(rx), Some(cs)) if cs < rx => {
            return Err(ScenarioError::invalid(
                "radio.cs_range_m",
                cs,
                &format!("must be at least radio.rx_range_m = {rx}"),
            ))
        }
        (None, None) if r.cs_threshold_w > r.rx_threshold_w => {
            return Err(ScenarioError::invalid(
                "radio.cs_threshold_w",
                r.cs_threshold_w,
                &format!("must not exceed radio.rx_threshold_w = {}", r.rx_threshold_w),
            ))
        }
        _ => {}
    }

    Ok(())
}

pub(super) fn check_testbed(b: &TestbedLayout, nodes: u64) -> Result<(), ScenarioError> {
    if b.buildings == 0 || b.buildings as u64 > nodes {
        return Err(ScenarioError::invalid(
            "topology.testbed.buildings",
            b.buildings,
            &format!("must be between 1 and topology.nodes = {nodes}"),
        ));
    }
    positive("topology.testbed.building_size_m.0", b.building_size_m[0], "width in metres")?;
    positive("topology.testbed.building_size_m.1", b.building_size_m[1], "depth in metres")?;
    positive("topology.testbed.building_spacing_m", b.building_spacing_m, "metres")?;
    if !(b.wall_loss_db.is_finite() && (0.0..=80.0).contains(&b.wall_loss_db)) {
        return Err(ScenarioError::invalid(
            "topology.testbed.wall_loss_db",
            b.wall_loss_db,
            "must be in 0..80 dB",
        ));
    }
    if !(b.wall_sigma_db.is_finite() && (0.0..=30.0).contains(&b.wall_sigma_db)) {
        return Err(ScenarioError::invalid(
            "topology.testbed.wall_sigma_db",
            b.wall_sigma_db,
            "must be in 0..30 dB",
        ));
    }
    Ok(())
}

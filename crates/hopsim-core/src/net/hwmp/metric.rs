//! The airtime link metric (IEEE 802.11-2012 13.9): ca = [O + Bt/r] * 1/(1 - ef), in units
//! of 0.01 TU (10.24 us), unsigned 32 bits. The rate r and the frame error rate ef come from
//! the caller (the rate control's current rate and failure average, mac/rate/estimate.rs).
//!
//! Table 13-5 fixes Bt = 8192 bits and says O "varies depending on PHY". The per-PHY O here
//! are the 802.11s drafts' table (channel access overhead Oca plus protocol overhead Op):
//! 802.11a 75 + 110 us, 802.11b 335 + 364 us. The table gives none for 802.11g or 802.11n:
//! their O is the caller's (`airtime_metric` takes any `overhead_us`).

/// Table 13-5: bits in the test frame.
pub const TEST_FRAME_BITS: f64 = 8192.0;
/// The metric's unit, 0.01 TU, in microseconds.
pub const METRIC_UNIT_US: f64 = 10.24;
/// O for 802.11a (OFDM, 5 GHz): Oca 75 us + Op 110 us (802.11s draft airtime constants).
pub const OVERHEAD_80211A_US: f64 = 185.0;
/// O for 802.11b (DSSS/HR-DSSS): Oca 335 us + Op 364 us (802.11s draft airtime constants).
pub const OVERHEAD_80211B_US: f64 = 699.0;
/// The largest metric, also what an unusable link costs.
pub const MAX_METRIC: u32 = u32::MAX;

/// ca = [O + Bt/r] / (1 - ef) in 0.01 TU, rounded to nearest and saturating at `MAX_METRIC`
/// (13.9). A rate that is not positive or an error rate of 1 or more gives `MAX_METRIC`.
pub fn airtime_metric(overhead_us: f64, rate_mbps: f64, frame_error_rate: f64) -> u32 {
    let ef = if frame_error_rate.is_nan() { 1.0 } else { frame_error_rate.max(0.0) };
    if rate_mbps.is_nan() || rate_mbps <= 0.0 || ef >= 1.0 {
        return MAX_METRIC;
    }
    let airtime_us = (overhead_us.max(0.0) + TEST_FRAME_BITS / rate_mbps) / (1.0 - ef);
    let units = (airtime_us / METRIC_UNIT_US).round();
    if units.is_nan() || units >= MAX_METRIC as f64 {
        MAX_METRIC
    } else {
        units as u32
    }
}

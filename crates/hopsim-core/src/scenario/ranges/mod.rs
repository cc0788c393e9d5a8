//! The allowed range of every numeric scenario key: one table, used by validation and printed
//! in docs/interfaces.md ("Allowed values"; a test keeps the two equal). Bounds are physical:
//! they keep every derived quantity finite and every time sum inside the u64 nanosecond
//! clock (1e7 s of simulated time is 1e16 ns, u64 holds 1.8e19).
//!
//! A `tcp.*` entry covers the top-level `[tcp]` table, every `[flows.tcp]` and
//! `[traffic.tcp]`; a `flows.N.*` entry covers every flow and the `[traffic]` template.

use super::KeyPath;
use crate::error::{fmt_num, ScenarioError};

/// The longest run, and so the largest time any key may name (seconds).
pub const MAX_TIME_S: f64 = 1e7;

/// One key's allowed values: `min` (exclusive when `min_open`) up to `max`.
#[derive(Debug, Clone, Copy)]
pub struct KeyRange {
    pub key: &'static str,
    pub min: f64,
    pub min_open: bool,
    pub max: f64,
    /// Unit and meaning, as the error message and the docs say it.
    pub what: &'static str,
}

const fn closed(key: &'static str, min: f64, max: f64, what: &'static str) -> KeyRange {
    KeyRange { key, min, min_open: false, max, what }
}

const fn open(key: &'static str, min: f64, max: f64, what: &'static str) -> KeyRange {
    KeyRange { key, min, min_open: true, max, what }
}

/// Every numeric key. Cross-key rules (warmup_s < duration_s, beta >= alpha, cw_max >=
/// cw_min...) are checked by validation besides these.
pub const RANGES: &[KeyRange] = &[
    open("duration_s", 0.0, MAX_TIME_S, "seconds of simulated time"),
    closed("warmup_s", 0.0, MAX_TIME_S, "seconds, less than duration_s"),
    // topology
    closed("topology.hops", 1.0, 100_000.0, "hops (hops + 1 nodes)"),
    closed("topology.spacing_m", 1e-3, 1e6, "metres"),
    closed("topology.rows", 1.0, 100_000.0, "rows"),
    closed("topology.cols", 1.0, 100_000.0, "columns"),
    closed("topology.nodes", 2.0, 100_000.0, "nodes"),
    closed("topology.positions.N", -1e7, 1e7, "metres (each coordinate)"),
    closed("topology.area_m", 1e-3, 1e7, "metres (width and height)"),
    closed("topology.testbed.buildings", 1.0, 100_000.0, "buildings, at most topology.nodes"),
    closed("topology.testbed.building_size_m", 0.1, 1e5, "metres (width and depth)"),
    closed("topology.testbed.building_spacing_m", 0.1, 1e6, "metres"),
    closed("topology.testbed.wall_loss_db", 0.0, 80.0, "dB"),
    closed("topology.testbed.wall_sigma_db", 0.0, 30.0, "dB"),
    // radio
    closed("radio.tx_power_w", 1e-8, 1e3, "watts (-50..60 dBm)"),
    closed("radio.tx_power_dbm", -50.0, 60.0, "dBm"),
    closed("radio.frequency_hz", 1e6, 1e11, "hertz (1 MHz..100 GHz)"),
    closed("radio.antenna_height_m", 1e-2, 1e4, "metres"),
    closed("radio.antenna_gain", 1e-3, 1e6, "linear gain (-30..60 dBi)"),
    closed("radio.system_loss", 1.0, 1e6, "linear loss factor, ns-2 L_ (1 = none)"),
    closed("radio.rx_threshold_w", 1e-20, 1.0, "watts"),
    closed(
        "radio.cs_threshold_w",
        1e-20,
        1.0,
        "watts, at most rx_threshold_w with capture reception",
    ),
    closed("radio.capture_threshold_db", 0.0, 60.0, "dB"),
    closed("radio.frame_error_rate", 0.0, 0.999_999, "probability, below 1"),
    closed("radio.rx_range_m", 1e-2, 1e6, "metres"),
    closed("radio.cs_range_m", 1e-2, 1e6, "metres, at least rx_range_m"),
    closed("radio.path_loss_exponent", 1.0, 8.0, "(2 free space, 2.7..3.5 urban, 3..6 indoors)"),
    closed("radio.reference_distance_m", 1e-3, 1e4, "metres"),
    closed("radio.reference_loss_db", 0.0, 200.0, "dB"),
    closed("radio.shadowing_sigma_db", 0.0, 30.0, "dB (0 = no shadowing)"),
    closed("radio.ricean_k_db", -30.0, 40.0, "dB"),
    closed("radio.noise_figure_db", 0.0, 50.0, "dB"),
    closed("radio.preamble_snr_db", -10.0, 40.0, "dB"),
    closed("radio.gauss_markov.sigma_db", 0.0, 30.0, "dB (0 = no time-varying shadowing)"),
    open("radio.gauss_markov.coherence_s", 0.0, MAX_TIME_S, "seconds (correlation 1/e)"),
    open("radio.gilbert_elliott.good_mean_s", 0.0, MAX_TIME_S, "seconds (mean good sojourn)"),
    open("radio.gilbert_elliott.bad_mean_s", 0.0, MAX_TIME_S, "seconds (mean bad sojourn)"),
    closed("radio.gilbert_elliott.loss_good", 0.0, 1.0, "probability a frame is lost, good"),
    closed("radio.gilbert_elliott.loss_bad", 0.0, 1.0, "probability a frame is lost, bad"),
    closed("radio.link_trace.offset_s", 0.0, MAX_TIME_S, "seconds into each link's series"),
    // outside interference
    closed("interference.N.x_m", -1e7, 1e7, "metres"),
    closed("interference.N.y_m", -1e7, 1e7, "metres"),
    closed("interference.N.power_dbm", -50.0, 60.0, "dBm"),
    closed("interference.N.on_mean_s", 1e-6, MAX_TIME_S, "seconds (mean period on the air)"),
    closed("interference.N.off_mean_s", 1e-6, MAX_TIME_S, "seconds (mean silent period)"),
    closed("interference.N.start_s", 0.0, MAX_TIME_S, "seconds"),
    open("interference.N.stop_s", 0.0, MAX_TIME_S, "seconds, above start_s"),
    // mac
    // Up to the largest VHT A-MPDU (1,048,575 octets): above it, never.
    closed("mac.rts_threshold_bytes", 0.0, 1_048_576.0, "bytes (0 = RTS/CTS for every frame)"),
    closed("mac.short_retry_limit", 1.0, 255.0, "attempts"),
    closed("mac.long_retry_limit", 1.0, 255.0, "attempts"),
    closed("mac.queue_packets", 1.0, 1e6, "packets"),
    closed("mac.cw_min", 1.0, 65_535.0, "slots, 2^k - 1 (802.11b: 31)"),
    closed("mac.cw_max", 1.0, 65_535.0, "slots, 2^k - 1, at least cw_min (802.11b: 1023)"),
    // queue
    open("queue.red_min_th_packets", 0.0, 1e6, "packets of average queue"),
    open(
        "queue.red_max_th_packets",
        0.0,
        1e6,
        "packets of average queue, above red_min_th_packets",
    ),
    open("queue.red_max_p", 0.0, 1.0, "drop probability at red_max_th_packets"),
    open("queue.red_w_q", 0.0, 1.0, "weight of the queue average's EWMA"),
    open("queue.codel_target_s", 0.0, 10.0, "seconds of sojourn time"),
    open("queue.codel_interval_s", 0.0, 100.0, "seconds, above codel_target_s"),
    closed("queue.fq_codel_quantum_bytes", 64.0, 65_535.0, "bytes of DRR credit per round"),
    closed("queue.fq_codel_flows", 1.0, 65_536.0, "flow queues"),
    // routing
    closed("routing.hello_interval_s", 1e-3, 1e4, "seconds"),
    closed("routing.allowed_hello_loss", 1.0, 1000.0, "HELLO intervals"),
    closed("routing.etx_probe_interval_s", 1e-3, 1e4, "seconds"),
    closed("routing.etx_warmup_s", 1e-3, MAX_TIME_S, "seconds, less than duration_s"),
    closed("routing.etx_probe_bytes", 20.0, 2000.0, "bytes"),
    closed("routing.olsr_hello_interval_s", 1e-2, 1e4, "seconds"),
    closed("routing.olsr_tc_interval_s", 1e-2, 1e4, "seconds"),
    closed("routing.olsr_willingness", 0.0, 7.0, "RFC 3626 willingness: 0 never .. 7 always"),
    closed("routing.hwmp_active_path_timeout_s", 1e-2, 1e4, "seconds"),
    closed("routing.hwmp_max_preq_retries", 0.0, 100.0, "PREQ retries"),
    closed("routing.hwmp_path_refresh_s", 0.0, 1e4, "seconds before expiry (0 = never)"),
    // tcp
    closed("tcp.max_window", 0.0, 1e6, "segments (0 = no limit)"),
    open("tcp.hop_k", 0.0, 1.0, "(Chen et al.: 1/8 < k < 1/4)"),
    closed("tcp.receiver_window", 1.0, 1e6, "segments"),
    closed("tcp.initial_window", 1.0, 1e6, "segments"),
    closed("tcp.initial_receive_window", 1.0, 1e6, "segments"),
    closed("tcp.delayed_ack_timeout_s", 1e-6, 10.0, "seconds"),
    closed("tcp.ack_thinning_thresholds", 0.0, 1e9, "segment numbers, l1 <= l2 <= l3"),
    closed("tcp.min_rto_s", 1e-6, 1e4, "seconds"),
    closed("tcp.max_rto_s", 1e-6, 1e5, "seconds, at least min_rto_s"),
    closed("tcp.initial_rto_s", 1e-6, 1e4, "seconds"),
    closed("tcp.clock_granularity_s", 0.0, 10.0, "seconds"),
    closed("tcp.dupack_threshold", 1.0, 1000.0, "duplicate ACKs"),
    closed("tcp.alpha", 0.0, 1e4, "segments (Vegas)"),
    closed("tcp.beta", 0.0, 1e4, "segments (Vegas), at least alpha"),
    closed("tcp.gamma", 0.0, 1e4, "segments (Vegas)"),
    closed("tcp.vegas_w_p", 0.0, 0.999_999, "(Vegas-W slow-start decrease, below 1)"),
    closed("tcp.n_fw", 1.0, 1e6, "timeouts (Vegas-W)"),
    closed("tcp.n_s", 0.0, 1e6, "RTTs (Vegas-W)"),
    closed("tcp.n_ca", 0.0, 1e6, "RTTs (Vegas-W)"),
    closed("tcp.ns_ca", 0.0, 1e6, "RTTs (Vegas-W)"),
    closed("tcp.to_ss", 0.0, 1e6, "timeouts (Vegas-W)"),
    open("tcp.few_alpha", 0.0, 1.0, "segments per RTT (FeW)"),
    // flows
    closed("flows.N.src", 0.0, 99_999.0, "node id"),
    closed("flows.N.dst", 0.0, 99_999.0, "node id"),
    closed("flows.N.payload_bytes", 1.0, 2268.0, "bytes (UDP 2268, TCP 2256: the 802.11 MSDU)"),
    closed("flows.N.interval_s", 0.0, MAX_TIME_S, "seconds between packets (0 = saturated)"),
    closed("flows.N.start_s", 0.0, MAX_TIME_S, "seconds, before duration_s"),
    closed("flows.N.stop_s", 0.0, MAX_TIME_S, "seconds, after start_s"),
    closed("flows.N.bytes", 0.0, 1e15, "bytes (0 = unlimited)"),
    closed("traffic.random_flows", 1.0, 100_000.0, "flows"),
    // mobility
    closed("mobility.speed_min_mps", 0.0, 1e3, "m/s"),
    closed("mobility.speed_max_mps", 1e-2, 1e3, "m/s, at least speed_min_mps"),
    closed("mobility.pause_s", 0.0, MAX_TIME_S, "seconds"),
];

/// The entry of `pattern` (a key of [`RANGES`]); a missing one is a bug of the caller.
pub fn range_of(pattern: &str) -> &'static KeyRange {
    RANGES
        .iter()
        .find(|r| r.key == pattern)
        .unwrap_or_else(|| panic!("no range for scenario key {pattern}"))
}

/// The entry covering a concrete dotted key (`flows.3.tcp.min_rto_s` -> `tcp.min_rto_s`), by
/// the rules of the table: list indices read as `N`; a `tcp` table inside another reads as
/// the top-level `[tcp]`; a `traffic` key the table lacks reads as a flow's (`flows.N.*`); an
/// element of a list without an entry of its own reads as the list (`topology.area_m.0`).
pub fn covering(key: &str) -> Option<&'static KeyRange> {
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mut parts: Vec<&str> = key.split('.').map(|s| if numeric(s) { "N" } else { s }).collect();
    if let Some(at) = parts.iter().skip(1).position(|&s| s == "tcp") {
        parts.drain(..=at);
    }
    let find = |parts: &[&str]| RANGES.iter().find(|r| r.key == parts.join("."));
    if parts[0] == "traffic" && find(&parts).is_none() {
        parts.splice(..1, ["flows", "N"]);
    }
    loop {
        if let Some(r) = find(&parts) {
            return Some(r);
        }
        match parts.last() {
            Some(&"N") => parts.pop(),
            _ => return None,
        };
    }
}

/// Check `v` against the range covering `key`; a key without one is a bug of the caller.
pub fn check(key: &KeyPath, v: f64) -> Result<(), ScenarioError> {
    covering(key.as_str())
        .unwrap_or_else(|| panic!("no range for scenario key {key}"))
        .check(key, v)
}

impl KeyRange {
    pub fn contains(&self, v: f64) -> bool {
        let above_min = if self.min_open { v > self.min } else { v >= self.min };
        above_min && v <= self.max // false for NaN
    }

    /// "must be at least 0 and at most 1e7: seconds".
    pub fn describe(&self) -> String {
        let low = if self.min_open { "above" } else { "at least" };
        format!(
            "must be {low} {} and at most {}: {}",
            fmt_num(self.min),
            fmt_num(self.max),
            self.what
        )
    }

    /// Check `v` against this range, naming `key` (for a list, look the range up once).
    pub fn check(&self, key: &KeyPath, v: f64) -> Result<(), ScenarioError> {
        if self.contains(v) {
            Ok(())
        } else {
            Err(key.invalid(fmt_num(v), &self.describe()))
        }
    }
}

/// The docs table (docs/interfaces.md, "Allowed values"): one line per key.
pub fn docs_table() -> String {
    let mut out = String::from("| key | least | most | unit, meaning |\n|---|---|---|---|\n");
    for r in RANGES {
        let low = if r.min_open { format!("> {}", fmt_num(r.min)) } else { fmt_num(r.min) };
        out.push_str(&format!("| `{}` | {low} | {} | {} |\n", r.key, fmt_num(r.max), r.what));
    }
    out
}

#[cfg(test)]
mod range_table_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_bounds_ordered() {
        for (i, r) in RANGES.iter().enumerate() {
            assert!(r.min < r.max, "{}", r.key);
            assert!(r.min.is_finite() && r.max.is_finite(), "{}", r.key);
            assert!(RANGES[i + 1..].iter().all(|o| o.key != r.key), "{} twice", r.key);
        }
    }

    #[test]
    fn bounds_are_inclusive_unless_open() {
        let r = range_of("duration_s");
        assert!(!r.contains(0.0) && r.contains(1e-9) && r.contains(MAX_TIME_S));
        assert!(!r.contains(f64::NAN) && !r.contains(f64::INFINITY));
        let key = KeyPath::root().field("flows").index(2).field("tcp").field("min_rto_s");
        let e = check(&key, -1.0).unwrap_err();
        assert_eq!(e.key, "flows.2.tcp.min_rto_s");
        assert!(e.message.contains("-1") && e.message.contains("seconds"), "{}", e.message);
    }

    #[test]
    fn concrete_keys_find_their_entry() {
        for (key, entry) in [
            ("flows.3.tcp.min_rto_s", "tcp.min_rto_s"),
            ("traffic.tcp.ack_thinning_thresholds.2", "tcp.ack_thinning_thresholds"),
            ("traffic.start_s", "flows.N.start_s"),
            ("traffic.random_flows", "traffic.random_flows"),
            ("topology.positions.7.1", "topology.positions.N"),
            ("topology.area_m.0", "topology.area_m"),
            ("mac.cw_min", "mac.cw_min"),
        ] {
            assert_eq!(covering(key).map(|r| r.key), Some(entry), "{key}");
        }
        assert!(covering("seed").is_none() && covering("mac.bogus.3").is_none());
    }

    /// Any time a key may name, plus the longest run, stays far inside the u64 ns clock.
    #[test]
    fn every_time_sum_fits_the_clock() {
        let longest_s = RANGES.iter().filter(|r| r.key.ends_with("_s")).map(|r| r.max);
        let worst_ns = longest_s.fold(0.0, f64::max) * 1e9 * 4.0;
        assert!(worst_ns < u64::MAX as f64 / 100.0);
    }
}

//! Simulated time: integer nanoseconds. No floating point ever decides event order.

/// A point in simulated time, in nanoseconds since the start of the run.
pub type SimTime = u64;
/// A span of simulated time, in nanoseconds.
pub type SimDuration = u64;

pub const NS_PER_US: u64 = 1_000;
pub const NS_PER_MS: u64 = 1_000_000;
pub const NS_PER_S: u64 = 1_000_000_000;

/// Seconds (as given in scenarios) to nanoseconds, rounded to the nearest nanosecond.
pub fn secs_to_ns(seconds: f64) -> SimTime {
    (seconds * NS_PER_S as f64).round() as SimTime
}

/// Microseconds to nanoseconds.
pub const fn us(micros: u64) -> SimDuration {
    micros * NS_PER_US
}

/// Nanoseconds to seconds, for reporting only.
pub fn ns_to_secs(ns: SimTime) -> f64 {
    ns as f64 / NS_PER_S as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_round_trip() {
        assert_eq!(secs_to_ns(1.5), 1_500_000_000);
        assert_eq!(secs_to_ns(0.000_000_001), 1);
        assert_eq!(us(192), 192_000);
        assert!((ns_to_secs(2_500_000_000) - 2.5).abs() < 1e-12);
    }
}

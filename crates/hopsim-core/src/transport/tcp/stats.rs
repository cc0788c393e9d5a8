//! Measurement helpers: a time-weighted average and a log-binned histogram (percentiles
//! within 0.5% without storing samples or allocating per sample); the sender's counters
//! and window averages.

use super::window::Window;
use crate::engine::time::SimTime;

/// Time-weighted average of a piecewise-constant quantity over [from, to).
#[derive(Debug, Clone, Default)]
pub struct TimeWeighted {
    value: f64,
    since: SimTime,
    area: f64,
    span_ns: f64,
    window: (SimTime, SimTime),
}

impl TimeWeighted {
    pub fn new(initial: f64, window: (SimTime, SimTime)) -> Self {
        TimeWeighted { value: initial, since: 0, area: 0.0, span_ns: 0.0, window }
    }

    fn accumulate(&mut self, until: SimTime) {
        let from = self.since.max(self.window.0);
        let to = until.min(self.window.1);
        if to > from {
            let dt = (to - from) as f64;
            self.area += self.value * dt;
            self.span_ns += dt;
        }
        self.since = until;
    }

    /// The quantity takes `value` from `now` on.
    pub fn set(&mut self, now: SimTime, value: f64) {
        if value != self.value {
            self.accumulate(now);
            self.value = value;
        }
    }

    /// Average over the window, up to `now`.
    pub fn mean(&self, now: SimTime) -> Option<f64> {
        let mut copy = self.clone();
        copy.accumulate(now);
        (copy.span_ns > 0.0).then(|| copy.area / copy.span_ns)
    }
}

/// Time spent at each integer value of a piecewise-constant quantity, inside a window.
#[derive(Debug, Clone, Default)]
pub struct WindowHistogram {
    value: usize,
    since: SimTime,
    ns_at: Vec<u64>,
    window: (SimTime, SimTime),
}

impl WindowHistogram {
    pub fn new(window: (SimTime, SimTime)) -> Self {
        WindowHistogram { value: 0, since: 0, ns_at: Vec::new(), window }
    }

    fn accumulate(&mut self, until: SimTime) {
        let from = self.since.max(self.window.0);
        let to = until.min(self.window.1);
        if to > from {
            if self.value >= self.ns_at.len() {
                self.ns_at.resize(self.value + 1, 0);
            }
            self.ns_at[self.value] += to - from;
        }
        self.since = until;
    }

    pub fn set(&mut self, now: SimTime, value: usize) {
        if value != self.value {
            self.accumulate(now);
            self.value = value;
        }
    }

    /// Share of the time at each value up to `now` (empty before the window).
    pub fn shares(&self, now: SimTime) -> Vec<f64> {
        let mut copy = self.clone();
        copy.accumulate(now);
        let total: u64 = copy.ns_at.iter().sum();
        if total == 0 {
            return Vec::new();
        }
        copy.ns_at.iter().map(|&t| t as f64 / total as f64).collect()
    }
}

const BINS_PER_DECADE: f64 = 460.0; // ratio 10^(1/460) = 1.005 between bin edges
const MIN_VALUE: f64 = 1e-3;
const BINS: usize = 460 * 9; // 1e-3 .. 1e6

/// Histogram of positive values on log-spaced bins, with exact count, mean, min and max.
#[derive(Debug, Clone)]
pub struct LogHistogram {
    bins: Vec<u32>,
    count: u64,
    sum: f64,
    min: f64,
    max: f64,
}

impl Default for LogHistogram {
    fn default() -> Self {
        LogHistogram { bins: vec![0; BINS], count: 0, sum: 0.0, min: f64::INFINITY, max: 0.0 }
    }
}

impl LogHistogram {
    pub fn record(&mut self, v: f64) {
        let i = ((v.max(MIN_VALUE) / MIN_VALUE).log10() * BINS_PER_DECADE) as usize;
        self.bins[i.min(BINS - 1)] += 1;
        self.count += 1;
        self.sum += v;
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    /// Add the values of `o` (the histogram of both sets).
    pub fn merge(&mut self, o: &LogHistogram) {
        for (a, b) in self.bins.iter_mut().zip(&o.bins) {
            *a += b;
        }
        self.count += o.count;
        self.sum += o.sum;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
    }

    /// The sum of every value recorded.
    pub fn sum(&self) -> f64 {
        self.sum
    }

    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum / self.count as f64)
    }

    pub fn min(&self) -> Option<f64> {
        (self.count > 0).then_some(self.min)
    }

    pub fn max(&self) -> Option<f64> {
        (self.count > 0).then_some(self.max)
    }

    /// The q-quantile (0..1): geometric middle of the bin holding it, clamped to [min, max].
    pub fn quantile(&self, q: f64) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        let rank = ((q * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0u64;
        for (i, &c) in self.bins.iter().enumerate() {
            seen += c as u64;
            if seen >= rank {
                let mid = MIN_VALUE * 10f64.powf((i as f64 + 0.5) / BINS_PER_DECADE);
                return Some(mid.clamp(self.min, self.max));
            }
        }
        Some(self.max)
    }
}

/// Counters of a TCP sender (names as in the result document).
#[derive(Debug, Clone, Default)]
pub struct SenderStats {
    pub segments_sent: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
    pub acked_in_window: u64,
    pub rtt_ms: LogHistogram,
}

/// Time averages of a sender's window over the measurement window: cwnd, the time in slow
/// start, the window limit in force, and the time at each integer usable window.
#[derive(Debug, Clone)]
pub struct WindowStats {
    cwnd_avg: TimeWeighted,
    slow_start_time: TimeWeighted,
    limit_avg: TimeWeighted,
    window_time: WindowHistogram,
}

impl WindowStats {
    /// Starting from `w` (already capped) under the ceiling `cap_segments`.
    pub fn new(w: &Window, cap_segments: f64, window_ns: (SimTime, SimTime)) -> Self {
        WindowStats {
            cwnd_avg: TimeWeighted::new(w.cwnd(), window_ns),
            slow_start_time: TimeWeighted::new(1.0, window_ns),
            limit_avg: TimeWeighted::new(cap_segments, window_ns),
            window_time: WindowHistogram::new(window_ns),
        }
    }

    /// The window is `w` (already capped) under the ceiling `cap_segments` from `now` on.
    pub fn record(&mut self, now: SimTime, w: &Window, cap_segments: f64) {
        self.cwnd_avg.set(now, w.cwnd());
        self.slow_start_time.set(now, if w.in_slow_start() { 1.0 } else { 0.0 });
        self.limit_avg.set(now, cap_segments);
        self.window_time.set(now, w.cwnd().min(cap_segments).floor() as usize);
    }

    pub fn avg_cwnd(&self, now: SimTime) -> Option<f64> {
        self.cwnd_avg.mean(now)
    }

    pub fn slow_start_fraction(&self, now: SimTime) -> Option<f64> {
        self.slow_start_time.mean(now)
    }

    pub fn avg_limit(&self, now: SimTime) -> Option<f64> {
        self.limit_avg.mean(now)
    }

    pub fn window_distribution(&self, now: SimTime) -> Vec<f64> {
        self.window_time.shares(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_weighted_mean_inside_window() {
        let mut t = TimeWeighted::new(1.0, (10, 110));
        t.set(60, 3.0); // 1.0 over [10, 60), 3.0 over [60, 110)
        assert_eq!(t.mean(110), Some(2.0));
        assert_eq!(t.mean(1000), Some(2.0), "clipped to the window");
    }

    #[test]
    fn window_histogram_shares() {
        let mut h = WindowHistogram::new((0, 100));
        h.set(0, 2);
        h.set(25, 3);
        h.set(75, 0);
        assert_eq!(h.shares(100), vec![0.25, 0.0, 0.25, 0.5]);
    }

    #[test]
    fn histogram_quantiles_within_half_percent() {
        let mut h = LogHistogram::default();
        for i in 1..=1000 {
            h.record(i as f64);
        }
        assert_eq!(h.count(), 1000);
        assert_eq!(h.min(), Some(1.0));
        assert_eq!(h.max(), Some(1000.0));
        assert!((h.mean().unwrap() - 500.5).abs() < 1e-9);
        let p50 = h.quantile(0.5).unwrap();
        let p95 = h.quantile(0.95).unwrap();
        assert!((p50 / 500.0 - 1.0).abs() < 0.005, "{p50}");
        assert!((p95 / 950.0 - 1.0).abs() < 0.005, "{p95}");
    }
}

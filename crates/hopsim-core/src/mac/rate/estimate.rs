//! What the rate control knows of a link, for the layers above: the rate it sends at and the
//! share of attempts that fail, as a moving average: the inputs of 802.11s's airtime metric
//! (IEEE 802.11-2012 13.9, which leaves the estimate of the frame error rate to the
//! implementation). Two averages (`routing.hwmp_fail_average`):
//! - `Attempts`: every DATA attempt weighs 1/8 (an exponential moving average over about
//!   eight attempts, as Linux mac80211 keeps its mesh `fail_avg` per frame);
//! - `Time`: ns-3's `WifiRemoteStationInfo` (wifi-remote-station-info.cc): at each frame's
//!   end its share of failed attempts, r / (r + 1) after r retries, 1 when dropped (an
//!   A-MPDU exchange: its share of MPDUs unacknowledged), weighs 1 - e^(-dt / 1 s), dt the
//!   time since the link's last update.
//!
//! Without HWMP nothing reads the estimate (`Off`), and nothing of it is kept.

use super::{RateAlgo, RateControl};
use crate::engine::time::SimTime;
use crate::ids::NodeId;
use crate::mac::timing::Rate;

/// The weight of the newest attempt in the `Attempts` average.
pub const FAIL_WEIGHT: f64 = 0.125;
/// The `Time` average's memory (ns-3 `WifiRemoteStationInfo::m_memoryTime`).
pub const FAIL_MEMORY_NS: u64 = 1_000_000_000;

/// How a link's failures are averaged (the module's text).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FailAverage {
    #[default]
    Attempts,
    Time,
    /// No reader (the routing protocol is not HWMP): no estimate is kept.
    Off,
}

/// One link's estimate (kept per peer by the rate control).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct LinkEstimate {
    /// The rate of the last DATA attempt.
    pub last_rate: Option<Rate>,
    pub fail_avg: f64,
    /// Attempts of the frame in service (`Time`).
    frame_attempts: u32,
    updated_ns: SimTime,
}

impl LinkEstimate {
    /// One DATA attempt (or A-MPDU exchange) at `rate`.
    pub(super) fn attempt(&mut self, how: FailAverage, rate: Rate, acked: bool) {
        match how {
            FailAverage::Off => {}
            FailAverage::Attempts => {
                self.last_rate = Some(rate);
                self.fail_avg += FAIL_WEIGHT * (f64::from(u8::from(!acked)) - self.fail_avg);
            }
            FailAverage::Time => {
                self.last_rate = Some(rate);
                self.frame_attempts = self.frame_attempts.saturating_add(1);
            }
        }
    }

    /// The frame in service ended, delivered or dropped (`Time` only).
    pub(super) fn frame_done(&mut self, delivered: bool, now: SimTime) {
        let attempts = std::mem::take(&mut self.frame_attempts).max(1);
        let failed = if delivered { f64::from(attempts - 1) / f64::from(attempts) } else { 1.0 };
        self.time_average(failed, now);
    }

    /// An A-MPDU exchange ended with `acked` of its `mpdus` acknowledged (`Time` only).
    pub(super) fn ampdu_done(&mut self, mpdus: u32, acked: u32, now: SimTime) {
        self.frame_attempts = 0;
        let failed = 1.0 - f64::from(acked) / f64::from(mpdus.max(1));
        self.time_average(failed, now);
    }

    fn time_average(&mut self, failed: f64, now: SimTime) {
        let dt_ns = now.saturating_sub(self.updated_ns);
        let keep = (-(dt_ns as f64) / FAIL_MEMORY_NS as f64).exp();
        self.fail_avg = failed * (1.0 - keep) + keep * self.fail_avg;
        self.updated_ns = now;
    }
}

impl RateControl {
    /// The rate toward `dst` (that of the last DATA attempt; before any, the algorithm's
    /// first: the constant rate, SNR-ideal's for no report, else the top of the ladder) and
    /// the moving average of failures (0 before any). Reads only.
    pub fn link_estimate(&self, dst: NodeId) -> (Rate, f64) {
        let peer = self.peers.binary_search_by_key(&dst, |p| p.dst).ok().map(|i| &self.peers[i]);
        let first = match self.algo {
            RateAlgo::Constant(r) => r,
            RateAlgo::Ideal(_) => self.ideal.as_ref().map_or(self.top(), |i| i.rate_for(None)),
            _ => self.top(),
        };
        match peer {
            Some(p) => (p.est.last_rate.unwrap_or(first), p.est.fail_avg),
            None => (first, 0.0),
        }
    }

    /// How failures are averaged (`Attempts` unless set).
    pub fn with_fail_average(mut self, how: FailAverage) -> Self {
        self.fail_average = how;
        self
    }

    fn top(&self) -> Rate {
        self.rate_at(self.ladder_len - 1)
    }
}

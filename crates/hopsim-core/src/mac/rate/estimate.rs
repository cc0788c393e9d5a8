//! What the rate control knows of a link, for the layers above: the rate it sends at and the
//! share of attempts that fail, as a moving average (as ns-3's `WifiRemoteStationInfo` and
//! Linux's mesh `fail_avg` keep it): the inputs of 802.11s's airtime metric (IEEE
//! 802.11-2012 13.9, which leaves the estimate of the frame error rate to the implementation).

use super::{RateAlgo, RateControl};
use crate::ids::NodeId;
use crate::mac::timing::Rate;

/// The weight of the newest attempt in the failure average (an exponential moving average
/// over about eight attempts).
pub const FAIL_WEIGHT: f64 = 0.125;

impl RateControl {
    /// The rate toward `dst` (that of the last DATA attempt; before any, the algorithm's
    /// first: the constant rate, SNR-ideal's for no report, else the top of the ladder) and
    /// the moving average of failed attempts (0 before any). Reads only.
    pub fn link_estimate(&self, dst: NodeId) -> (Rate, f64) {
        let peer = self.peers.binary_search_by_key(&dst, |p| p.dst).ok().map(|i| &self.peers[i]);
        let first = match self.algo {
            RateAlgo::Constant(r) => r,
            RateAlgo::Ideal(_) => self.ideal.as_ref().map_or(self.top(), |i| i.rate_for(None)),
            _ => self.top(),
        };
        match peer {
            Some(p) => (p.last_rate.unwrap_or(first), p.fail_avg),
            None => (first, 0.0),
        }
    }

    fn top(&self) -> Rate {
        self.rate_at(self.ladder_len - 1)
    }
}

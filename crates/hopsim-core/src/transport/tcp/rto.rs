//! Retransmission timeout per RFC 6298: SRTT/RTTVAR smoothing (alpha 1/8, beta 1/4),
//! RTO = SRTT + max(G, 4 RTTVAR) clamped to [min, max], exponential backoff on expiry.
//! Karn's rule (no samples from retransmitted segments) is applied by the caller. The ns2
//! profile's Vegas agent uses ns-2's own timer instead (`rto_ns2.rs`).

use super::rto_ns2::Ns2Rto;
use crate::engine::time::{SimDuration, SimTime};
use crate::ids::SeqNo;

#[derive(Debug, Clone)]
pub struct RtoEstimator {
    srtt_ns: Option<f64>,
    rttvar_ns: f64,
    rto_ns: f64,
    min_ns: f64,
    max_ns: f64,
    granularity_ns: f64,
    backoff: u32,
    /// ns-2.35's timer (tcp.cc), which times its own segments.
    ns2: Option<Ns2Rto>,
}

impl RtoEstimator {
    pub fn new(
        initial_ns: SimDuration,
        min_ns: SimDuration,
        max_ns: SimDuration,
        granularity_ns: SimDuration,
    ) -> Self {
        RtoEstimator {
            srtt_ns: None,
            rttvar_ns: 0.0,
            rto_ns: initial_ns as f64,
            min_ns: min_ns as f64,
            max_ns: max_ns as f64,
            granularity_ns: granularity_ns as f64,
            backoff: 0,
            ns2: None,
        }
    }

    /// ns-2.35's timer (`rto_ns2.rs`): ticks of `tick_ns` with the phase `phase_ns`.
    pub fn ns2(initial_ns: u64, min_ns: u64, max_ns: u64, tick_ns: u64, phase_ns: u64) -> Self {
        let mut e = Self::new(initial_ns, min_ns, max_ns, tick_ns);
        e.ns2 = Some(Ns2Rto::new(initial_ns, min_ns, max_ns, tick_ns, phase_ns));
        e
    }

    /// Does the timer take its own samples (`on_send_new`, `on_ack`), ns-2's way?
    pub fn times_itself(&self) -> bool {
        self.ns2.is_some()
    }

    /// A segment never sent before leaves (ns-2: timed if none is).
    pub fn on_send_new(&mut self, seg: SeqNo, now: SimTime) {
        if let Some(n) = &mut self.ns2 {
            n.on_send_new(seg, now);
        }
    }

    /// A new cumulative ACK (ns-2: the sample, if it covers the timed segment).
    pub fn on_ack(&mut self, ack: SeqNo, now: SimTime) {
        if let Some(n) = &mut self.ns2 {
            n.on_ack(ack, now);
        }
    }

    /// A retransmission by fast retransmit or timeout (ns-2: the timing is abandoned).
    pub fn cancel_timing(&mut self) {
        if let Some(n) = &mut self.ns2 {
            n.cancel_timing();
        }
    }

    /// A new RTT measurement R (RFC 6298 section 2.2 and 2.3); resets the backoff (5.7).
    pub fn sample(&mut self, rtt_ns: SimDuration) {
        let r = rtt_ns as f64;
        match self.srtt_ns {
            None => {
                self.srtt_ns = Some(r);
                self.rttvar_ns = r / 2.0;
            }
            Some(srtt) => {
                self.rttvar_ns = 0.75 * self.rttvar_ns + 0.25 * (srtt - r).abs();
                self.srtt_ns = Some(0.875 * srtt + 0.125 * r);
            }
        }
        let srtt = self.srtt_ns.expect("set above");
        self.rto_ns =
            (srtt + self.granularity_ns.max(4.0 * self.rttvar_ns)).clamp(self.min_ns, self.max_ns);
        self.backoff = 0;
    }

    /// The timer expired: back off (section 5.5), up to the maximum.
    pub fn on_timeout(&mut self) {
        if let Some(n) = &mut self.ns2 {
            return n.back_off();
        }
        self.backoff += 1;
    }

    /// Current RTO including backoff, in nanoseconds; never above the maximum, the
    /// initial RTO included (ns-2's rtt_timeout() clamps every timeout to maxrto_).
    pub fn rto_ns(&self) -> SimDuration {
        if let Some(n) = &self.ns2 {
            return n.timeout_ns();
        }
        let backed_off = self.rto_ns * 2f64.powi(self.backoff.min(30) as i32);
        backed_off.min(self.max_ns) as SimDuration
    }

    pub fn srtt_ns(&self) -> Option<f64> {
        if let Some(n) = &self.ns2 {
            return n.srtt_ns();
        }
        self.srtt_ns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn est() -> RtoEstimator {
        RtoEstimator::new(3000 * MS, 200 * MS, 60_000 * MS, 10 * MS)
    }

    #[test]
    fn initial_rto_until_first_sample() {
        assert_eq!(est().rto_ns(), 3000 * MS);
    }

    #[test]
    fn first_sample_sets_srtt_and_rttvar() {
        let mut e = est();
        e.sample(100 * MS);
        // SRTT = 100, RTTVAR = 50, RTO = 100 + 4 * 50 = 300 ms.
        assert_eq!(e.rto_ns(), 300 * MS);
    }

    #[test]
    fn later_samples_smooth_with_alpha_and_beta() {
        let mut e = est();
        e.sample(100 * MS);
        e.sample(200 * MS);
        // RTTVAR = 3/4 * 50 + 1/4 * 100 = 62.5; SRTT = 7/8 * 100 + 1/8 * 200 = 112.5;
        // RTO = 112.5 + 250 = 362.5 ms.
        assert_eq!(e.rto_ns(), 362_500_000);
    }

    #[test]
    fn minimum_and_granularity_apply() {
        let mut e = est();
        for _ in 0..50 {
            e.sample(10 * MS);
        }
        assert_eq!(e.rto_ns(), 200 * MS, "clamped to the minimum RTO");
        let mut g = RtoEstimator::new(3000 * MS, 0, 60_000 * MS, 10 * MS);
        for _ in 0..200 {
            g.sample(5 * MS);
        }
        assert_eq!(g.rto_ns(), 15 * MS, "SRTT + G when RTTVAR has decayed");
    }

    #[test]
    fn backoff_doubles_up_to_the_maximum_and_resets_on_sample() {
        let mut e = RtoEstimator::new(1000 * MS, 200 * MS, 2000 * MS, 10 * MS);
        e.on_timeout();
        assert_eq!(e.rto_ns(), 2000 * MS);
        e.on_timeout();
        assert_eq!(e.rto_ns(), 2000 * MS, "capped at max_rto");
        e.sample(100 * MS);
        assert_eq!(e.rto_ns(), 300 * MS);
    }

    #[test]
    fn the_initial_rto_is_capped_by_the_maximum_too() {
        // The MANET study's max RTO of 2 s applies before the first RTT sample as well.
        let mut e = RtoEstimator::new(3000 * MS, 200 * MS, 2000 * MS, 10 * MS);
        assert_eq!(e.rto_ns(), 2000 * MS);
        e.on_timeout();
        assert_eq!(e.rto_ns(), 2000 * MS);
    }
}

//! ns-2.35's coarse retransmission timer (tcp.cc), as the ns2 profile's Vegas agent uses it
//! beside its fine-grained timeout:
//!
//! - One timed segment at a time (`output`, `newack`): a new segment leaving while none is
//!   timed is timed; the ACK that covers it gives the one RTT sample (and the only backoff
//!   reset); a fast retransmit or a timeout cancels the timing (`reset_rtx_timer`).
//! - Tick arithmetic (`rtt_update`): the sample is counted in whole `tcpTick_` ticks of a clock
//!   with a random phase (`boot_time_`), at least one; SRTT x 8 and RTTVAR x 4 are integers;
//!   RTO = floor(SRTT + 4 RTTVAR) ticks.
//! - `rtt_timeout` (`rfc2988_`): minrto x backoff below minrto, else RTO x backoff; at most
//!   maxrto; at least 2 ticks. No clock-granularity term.
//! - `rtt_backoff`: doubles while below 64 or while the timeout is below maxrto; past a backoff
//!   of 8 SRTT is folded into RTTVAR and cleared, so the next sample restarts the estimator.

use crate::engine::time::{SimDuration, SimTime};
use crate::ids::SeqNo;

#[derive(Debug, Clone)]
pub struct Ns2Rto {
    tick_ns: u64,
    /// `boot_time_`: the phase of the tick clock, uniform in [0, tick).
    phase_ns: u64,
    /// `t_srtt_` (SRTT x 8, ticks) and `t_rttvar_` (RTTVAR x 4, ticks).
    srtt8: i64,
    rttvar4: i64,
    /// `t_rtxcur_`: the RTO before backoff and clamping.
    rtxcur_ns: u64,
    /// `t_backoff_`.
    backoff: u64,
    min_ns: u64,
    max_ns: u64,
    /// `rtt_active_`, `rtt_seq_`, `rtt_ts_`: the segment being timed.
    active: bool,
    timed: Option<SeqNo>,
    timed_at: SimTime,
}

impl Ns2Rto {
    pub fn new(initial_ns: u64, min_ns: u64, max_ns: u64, tick_ns: u64, phase_ns: u64) -> Ns2Rto {
        Ns2Rto {
            tick_ns: tick_ns.max(1),
            phase_ns,
            srtt8: 0,
            rttvar4: 0,
            rtxcur_ns: initial_ns,
            backoff: 1,
            min_ns,
            max_ns,
            active: false,
            timed: None,
            timed_at: 0,
        }
    }

    /// A segment never sent before leaves now (tcp.cc / tcp-vegas.cc `output`).
    pub fn on_send_new(&mut self, seg: SeqNo, now: SimTime) {
        if !self.active {
            self.active = true;
            if self.timed.is_none_or(|t| seg > t) {
                self.timed = Some(seg);
                self.timed_at = now;
            }
        }
    }

    /// A new cumulative ACK (`ack`: the next segment expected) arrived (`newack`).
    pub fn on_ack(&mut self, ack: SeqNo, now: SimTime) {
        let Some(timed) = self.timed else { return };
        if self.active && ack > timed {
            self.backoff = 1;
            self.active = false;
            self.update(self.timed_at, now);
        }
    }

    /// A fast retransmit or a timeout (`reset_rtx_timer`): the timing is abandoned.
    pub fn cancel_timing(&mut self) {
        self.active = false;
    }

    /// `rtt_update`, the segment sent at `sent` and acknowledged at `now`.
    fn update(&mut self, sent: SimTime, now: SimTime) {
        let tao = now - sent;
        let tickoff = (sent + self.phase_ns) % self.tick_ns;
        let rtt = (((tao + tickoff) / self.tick_ns) as i64).max(1);
        if self.srtt8 != 0 {
            let mut delta = rtt - (self.srtt8 >> 3);
            self.srtt8 = (self.srtt8 + delta).max(1);
            delta = delta.abs() - (self.rttvar4 >> 2);
            self.rttvar4 = (self.rttvar4 + delta).max(1);
        } else {
            self.srtt8 = rtt << 3;
            self.rttvar4 = rtt << 1;
        }
        self.rtxcur_ns = (((self.rttvar4 << 3) + self.srtt8) >> 3) as u64 * self.tick_ns;
    }

    /// The timer expired, or Vegas' fast retransmit backs it off (`rtt_backoff`).
    pub fn back_off(&mut self) {
        if self.backoff < 64 || self.timeout_ns() < self.max_ns {
            self.backoff = self.backoff.saturating_mul(2);
        }
        if self.backoff > 8 {
            self.rttvar4 += self.srtt8 >> 3;
            self.srtt8 = 0;
        }
    }

    /// `rtt_timeout`.
    pub fn timeout_ns(&self) -> SimDuration {
        let base = self.rtxcur_ns.max(self.min_ns);
        base.saturating_mul(self.backoff).min(self.max_ns).max(2 * self.tick_ns)
    }

    /// SRTT (None while cleared or before the first sample).
    pub fn srtt_ns(&self) -> Option<f64> {
        (self.srtt8 > 0).then_some((self.srtt8 >> 3) as f64 * self.tick_ns as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::tcp::test_support::s;

    const MS: u64 = 1_000_000;

    fn rto() -> Ns2Rto {
        Ns2Rto::new(3000 * MS, 200 * MS, 60_000 * MS, 10 * MS, 4 * MS)
    }

    #[test]
    fn samples_are_whole_ticks_of_a_clock_with_a_phase() {
        // Sent at 100 ms: 104 ms on the tick clock, 4 ms into a tick. 137 ms later the clock
        // has ticked 14 times ((137 + 4) / 10): SRTT 14 ticks, RTTVAR 7, RTO 14 + 28 = 42.
        let mut r = rto();
        r.on_send_new(s(0), 100 * MS);
        r.on_ack(s(1), 237 * MS);
        assert_eq!(r.timeout_ns(), 420 * MS);
        // The same 137 ms from 106 ms (110 on the tick clock, at a tick) counts 13 ticks:
        // SRTT 13, RTTVAR 6.5, RTO 13 + 26 = 39 ticks.
        let mut r = rto();
        r.on_send_new(s(0), 106 * MS);
        r.on_ack(s(1), 243 * MS);
        assert_eq!(r.timeout_ns(), 390 * MS);
    }

    #[test]
    fn integer_smoothing_as_ns2_computes_it() {
        // Samples 10 then 20 ticks: t_srtt 80 -> 90 (delta 10), t_rttvar 20 -> 20 + 10 - 5 =
        // 25; RTO = (25 x 8 + 90) >> 3 = 36 ticks (the float estimator says 11.25 + 25 =
        // 36.25).
        let mut r = Ns2Rto::new(3000 * MS, 0, 60_000 * MS, 10 * MS, 0);
        r.on_send_new(s(0), 0);
        r.on_ack(s(1), 100 * MS);
        assert_eq!(r.timeout_ns(), 300 * MS);
        r.on_send_new(s(1), 100 * MS);
        r.on_ack(s(2), 300 * MS);
        assert_eq!(r.timeout_ns(), 360 * MS);
    }

    #[test]
    fn one_timed_segment_at_a_time_and_only_its_ack_is_a_sample() {
        let mut r = rto();
        r.on_send_new(s(0), 0); // timed
        r.on_send_new(s(1), 10 * MS); // not timed: s(0) is
        r.on_ack(s(1), 100 * MS); // covers s(0): 10 ticks
        assert_eq!(r.timeout_ns(), 300 * MS);
        r.on_ack(s(2), 900 * MS); // s(1) was never timed: no sample
        assert_eq!(r.timeout_ns(), 300 * MS);
        // A retransmission cancels the timing: its ACK gives no sample either.
        r.on_send_new(s(2), 1000 * MS);
        r.cancel_timing();
        r.on_ack(s(3), 2000 * MS);
        assert_eq!(r.timeout_ns(), 300 * MS);
    }

    #[test]
    fn backoff_lasts_until_the_timed_segment_is_acknowledged() {
        let mut r = rto();
        r.on_send_new(s(0), 0);
        r.on_ack(s(1), 100 * MS);
        r.on_send_new(s(1), 100 * MS);
        r.cancel_timing(); // a fast retransmit: reset_rtx_timer(1)
        r.back_off();
        assert_eq!(r.timeout_ns(), 600 * MS);
        r.on_ack(s(2), 200 * MS); // s(1) was not timed: still backed off
        assert_eq!(r.timeout_ns(), 600 * MS);
        r.on_send_new(s(2), 200 * MS);
        // Timed and acknowledged (10 ticks again): backoff 1, t_srtt 80, t_rttvar 20 - 5 =
        // 15, RTO (120 + 80) >> 3 = 25 ticks.
        r.on_ack(s(3), 300 * MS);
        assert_eq!(r.timeout_ns(), 250 * MS);
    }

    #[test]
    fn minrto_is_backed_off_too_and_a_long_backoff_restarts_the_estimator() {
        let mut r = rto();
        r.on_send_new(s(0), 0);
        r.on_ack(s(1), 20 * MS); // 2 ticks: RTO 6 ticks, below minrto
        assert_eq!(r.timeout_ns(), 200 * MS);
        r.back_off();
        assert_eq!(r.timeout_ns(), 400 * MS, "minrto x backoff");
        for _ in 0..3 {
            r.back_off(); // backoff 16 > 8: SRTT cleared, RTTVAR += SRTT
        }
        assert_eq!(r.srtt_ns(), None);
        r.on_send_new(s(1), 1000 * MS);
        r.on_ack(s(2), 1500 * MS); // restarts: SRTT 50, RTTVAR 25 ticks
        assert_eq!(r.timeout_ns(), 1500 * MS);
        assert_eq!(r.srtt_ns(), Some(500.0 * MS as f64));
    }

    #[test]
    fn capped_at_maxrto_and_at_least_two_ticks() {
        let mut r = Ns2Rto::new(3000 * MS, 0, 2000 * MS, 10 * MS, 0);
        r.back_off();
        assert_eq!(r.timeout_ns(), 2000 * MS);
        r.on_send_new(s(0), 0);
        r.on_ack(s(1), 1); // under a tick: counted as one, RTO 3 ticks
        assert_eq!(r.timeout_ns(), 30 * MS);
        let mut r = Ns2Rto::new(3000 * MS, 0, 2000 * MS, 100 * MS, 0);
        r.rtxcur_ns = 10 * MS;
        assert_eq!(r.timeout_ns(), 200 * MS, "2 ticks");
    }
}

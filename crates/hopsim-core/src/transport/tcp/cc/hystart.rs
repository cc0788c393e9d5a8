//! HyStart (Ha & Rhee, "Taming the elephants: new TCP slow start", Computer Networks 2011),
//! as Linux's CUBIC runs it (net/ipv4/tcp_cubic.c, `hystart_update`, 5.x): slow start ends
//! (ssthresh = cwnd) before the first loss when, in one round of ACKs,
//! - an ACK train (ACKs at most 2 ms apart) has lasted more than half the minimum RTT, or
//! - the least RTT of the round's first 8 samples exceeds the minimum RTT by a threshold of
//!   minimum RTT / 8 clamped to [4, 16] ms;
//!
//! once the window is at least 16 segments (`hystart_low_window`).

use crate::engine::time::{SimDuration, SimTime};
use crate::ids::SeqNo;

/// `hystart_low_window`: HyStart acts from this window on.
pub const LOW_WINDOW: f64 = 16.0;
/// `hystart_ack_delta_us`: ACKs this close belong to one train.
pub const ACK_DELTA_NS: SimDuration = 2_000_000;
/// `HYSTART_MIN_SAMPLES`: RTT samples per round before the delay test.
pub const MIN_SAMPLES: u32 = 8;
/// `HYSTART_DELAY_MIN` / `HYSTART_DELAY_MAX`: bounds of the delay threshold.
pub const DELAY_MIN_NS: SimDuration = 4_000_000;
pub const DELAY_MAX_NS: SimDuration = 16_000_000;
/// `hystart_ack_delay` for a sender at these rates: 1 ms (USEC_PER_MSEC).
pub const ACK_DELAY_NS: SimDuration = 1_000_000;

#[derive(Debug, Clone, Default)]
pub struct HyStart {
    /// The round ends when the cumulative ACK passes this segment (`end_seq`).
    end_seg: SeqNo,
    round_start_ns: SimTime,
    last_ack_ns: SimTime,
    /// The least RTT of this round's samples (`curr_rtt`) and their count.
    curr_rtt_ns: Option<SimDuration>,
    samples: u32,
    /// The least RTT of the connection (`delay_min`).
    delay_min_ns: Option<SimDuration>,
    /// Slow start was ended (`found`); re-armed by [`HyStart::reset`].
    pub found: bool,
}

impl HyStart {
    /// `bictcp_hystart_reset`: a new round from `now`, ending when `snd_max` is acknowledged.
    fn new_round(&mut self, now: SimTime, snd_max: SeqNo) {
        self.round_start_ns = now;
        self.last_ack_ns = now;
        self.end_seg = snd_max;
        self.curr_rtt_ns = None;
        self.samples = 0;
    }

    /// After a loss (`bictcp_reset` in Linux's CA_Loss state): detect again.
    pub fn reset(&mut self) {
        self.found = false;
    }

    /// A new ACK in slow start: `snd_una` and `snd_max` after it, its RTT sample and the
    /// window. True: slow start ends now.
    pub fn on_ack(
        &mut self,
        now: SimTime,
        snd_una: SeqNo,
        snd_max: SeqNo,
        rtt_ns: Option<SimDuration>,
        cwnd: f64,
    ) -> bool {
        if snd_una > self.end_seg {
            self.new_round(now, snd_max);
        }
        let Some(rtt) = rtt_ns.map(|r| r.max(1)) else { return false };
        let delay_min = self.delay_min_ns.map_or(rtt, |d| d.min(rtt));
        self.delay_min_ns = Some(delay_min);
        if self.found || cwnd < LOW_WINDOW {
            return false;
        }
        // ACK train: a train longer than half of (minimum RTT + ACK delay), unpaced sender.
        if now - self.last_ack_ns <= ACK_DELTA_NS {
            self.last_ack_ns = now;
            if now - self.round_start_ns > (delay_min + ACK_DELAY_NS) / 2 {
                self.found = true;
            }
        }
        // Delay increase over the round's first samples.
        let curr = self.curr_rtt_ns.map_or(rtt, |c| c.min(rtt));
        self.curr_rtt_ns = Some(curr);
        if self.samples < MIN_SAMPLES {
            self.samples += 1;
        } else if curr > delay_min + (delay_min / 8).clamp(DELAY_MIN_NS, DELAY_MAX_NS) {
            self.found = true;
        }
        self.found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::tcp::test_support::s;

    const MS: SimTime = 1_000_000;

    #[test]
    fn a_delay_increase_ends_slow_start_after_eight_samples_of_a_round() {
        let mut h = HyStart::default();
        // Round 1: minimum RTT 40 ms (threshold 40 + max(5, 4) = 45 ms).
        for k in 0..10u32 {
            assert!(!h.on_ack(k as SimTime * 10 * MS, s(k + 1), s(20), Some(40 * MS), 20.0));
        }
        // Round 2 (the ACK passes segment 20): RTTs of 46 ms.
        let mut ended = None;
        for k in 0..12u32 {
            let now = 200 * MS + k as SimTime * 10 * MS;
            if h.on_ack(now, s(21 + k), s(40), Some(46 * MS), 20.0) {
                ended = Some(k);
                break;
            }
        }
        assert_eq!(ended, Some(8), "the 9th sample of the round, after MIN_SAMPLES");
    }

    #[test]
    fn below_the_low_window_or_within_the_threshold_slow_start_goes_on() {
        let mut h = HyStart::default();
        for k in 0..30u32 {
            let rtt = if k < 10 { 40 } else { 100 } * MS;
            assert!(!h.on_ack(k as SimTime * 10 * MS, s(k + 1), s(5), Some(rtt), 15.0));
        }
        let mut h = HyStart::default();
        for k in 0..30u32 {
            let rtt = if k < 10 { 40 } else { 44 } * MS;
            assert!(!h.on_ack(k as SimTime * 10 * MS, s(k + 1), s(5), Some(rtt), 20.0), "{k}");
        }
    }

    #[test]
    fn an_ack_train_longer_than_half_the_minimum_rtt_ends_slow_start() {
        let mut h = HyStart::default();
        h.on_ack(0, s(1), s(100), Some(20 * MS), 20.0);
        // ACKs 1 ms apart: the train passes (20 + 1) / 2 = 10.5 ms at the 11th.
        let mut ended = None;
        for k in 1..20u32 {
            if h.on_ack(k as SimTime * MS, s(1 + k), s(100), Some(20 * MS), 20.0) {
                ended = Some(k);
                break;
            }
        }
        assert_eq!(ended, Some(11));
    }
}

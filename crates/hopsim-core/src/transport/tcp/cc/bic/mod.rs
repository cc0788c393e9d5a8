//! BIC (Xu, Harfoush, Rhee, INFOCOM 2004), in segments, as Linux 2.6.8 implemented it
//! (`bictcp_cwnd` and `tcp_recalc_ssthresh` in include/net/tcp.h of 2.6.8-2.6.10, the era
//! when BIC was Linux's default): the window grows by 1 segment every `cnt` ACKs (counted per
//! ACK as 2.6.8's `tcp_cong_avoid` does, without byte counting), where `cnt` sets the
//! increase per RTT. Below W_max the increase is a binary search towards W_max
//! (the distance / B per RTT, clamped to Smax and to a minimum near W_max); above W_max it
//! probes for a new maximum, slowly first, then faster (max probing), then linearly. Below
//! the low window it behaves as Reno. Loss recovery is SACK's (RFC 6675), the sender's.

use super::{AckSample, CongestionControl, Loss, Window};

/// Binary-search divisor B: each RTT goes 1/B of the way to W_max (`BICTCP_B`).
pub const B: u32 = 4;
/// Smax: the largest increase per RTT (`BICTCP_MAX_INCREMENT` 32 in 2.6.8; the paper's 32).
pub const S_MAX: u32 = 32;
/// cnt = cwnd x FUNC / B near W_max: an increase of B / FUNC = 0.36 segments per RTT, the
/// paper's Smin after log(B / Smin) / log(B / (B - 1)) + 1 = 11 halvings
/// (`BICTCP_FUNC_OF_MIN_INCR`).
pub const FUNC_OF_MIN_INCR: u32 = 11;
/// At or below this window BIC grows as Reno (`sysctl_tcp_bic_low_window` 14).
pub const LOW_WINDOW: u32 = 14;
/// Multiplicative decrease: cwnd - cwnd / 8, i.e. beta = 7/8 (`BICTCP_1_OVER_BETA` 8, before
/// 2.6.11 made it 819/1024).
pub const ONE_OVER_BETA: u32 = 8;

#[derive(Debug, Clone)]
pub struct Bic {
    /// W_max: the window before the last reduction (lowered by fast convergence).
    last_max: u32,
    /// Linux's fast convergence (`sysctl_tcp_bic_fast_convergence` 1).
    pub fast_convergence: bool,
    /// ACKs since the last one-segment increase (Linux `snd_cwnd_cnt`).
    acks: u32,
}

impl Default for Bic {
    fn default() -> Bic {
        Bic { last_max: 0, fast_convergence: true, acks: 0 }
    }
}

impl Bic {
    pub fn w_max(&self) -> u32 {
        self.last_max
    }

    /// `cnt`: ACKs per one-segment increase at window `cwnd` (whole segments), so the window
    /// grows by cwnd / cnt per RTT (Linux `bictcp_cwnd`, integer arithmetic as there).
    pub fn acks_per_increment(&self, cwnd: u32) -> u32 {
        let max = self.last_max;
        let cnt = if cwnd <= LOW_WINDOW {
            cwnd // Reno: one segment per window of ACKs
        } else if cwnd < max {
            // Binary search increase: the midpoint-like target (max - cwnd) / B per RTT,
            // at most Smax (linear increase far below W_max), at least Smin close to it.
            let dist = (max - cwnd) / B;
            if dist > S_MAX {
                cwnd / S_MAX
            } else if dist <= 1 {
                cwnd * FUNC_OF_MIN_INCR / B
            } else {
                cwnd / dist
            }
        } else if cwnd < max + B {
            cwnd * FUNC_OF_MIN_INCR / B // max probing starts at Smin ...
        } else if cwnd < max + S_MAX * (B - 1) {
            // ... and grows as (cwnd - W_max) / (B - 1) per RTT: slow start away from W_max
            cwnd * (B - 1) / (cwnd - max)
        } else {
            cwnd / S_MAX // far above: linear at Smax
        };
        cnt.max(1) // cnt 0 means an increase on every ACK in tcp_cong_avoid
    }
}

impl CongestionControl for Bic {
    fn clone_box(&self) -> Box<dyn CongestionControl> {
        Box::new(self.clone())
    }

    fn name(&self) -> &'static str {
        "bic"
    }

    fn on_new_ack(&mut self, w: &mut Window, ack: &AckSample) {
        if ack.acked == 0 {
            return;
        }
        if w.in_slow_start() {
            w.grow(1.0); // RFC 5681 slow start, as Linux's tcp_cong_avoid
            return;
        }
        // Whole segments, as Linux's integer snd_cwnd: +1 once cnt ACKs have arrived.
        self.acks += 1;
        if self.acks >= self.acks_per_increment(w.cwnd().floor().max(1.0) as u32) {
            w.grow(1.0);
            self.acks = 0;
        }
    }

    /// `tcp_recalc_ssthresh`: W_max = cwnd, or with fast convergence (cwnd below the previous
    /// W_max: a new flow is taking its share) cwnd (1 + beta) / 2 = cwnd - cwnd / 16; then
    /// ssthresh = cwnd - cwnd / 8 above the low window, cwnd / 2 at or below it, at least 2.
    fn ssthresh_after_loss(&mut self, w: &Window, _loss: &Loss) -> f64 {
        let cwnd = w.cwnd().floor().max(1.0) as u32;
        self.acks = 0;
        self.last_max = if self.fast_convergence && cwnd < self.last_max {
            cwnd - cwnd / (2 * ONE_OVER_BETA)
        } else {
            cwnd
        };
        let ssthresh = if cwnd > LOW_WINDOW { cwnd - cwnd / ONE_OVER_BETA } else { cwnd / 2 };
        ssthresh.max(2) as f64
    }
}

#[cfg(test)]
mod tests;

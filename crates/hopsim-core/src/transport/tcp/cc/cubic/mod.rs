//! CUBIC (RFC 9438), in segments: after a congestion event the window follows
//! W_cubic(t) = C (t - K)^3 + W_max (section 4.2), concave up to the window before the loss,
//! then convex; never below the window Reno would have (the Reno-friendly region, 4.3). Loss
//! recovery is SACK's (RFC 6675), the sender's business. Slow start is standard (RFC 5681),
//! ended early by HyStart when asked (`hystart.rs`, Linux's default).

use super::hystart::HyStart;
use super::{AckSample, CongestionControl, Loss, Window};
use crate::engine::time::SimTime;

/// RFC 9438 section 5: C = 0.4 segments / s^3, beta_cubic = 0.7.
pub const C: f64 = 0.4;
pub const BETA: f64 = 0.7;
/// Section 4.3: the Reno-friendly additive increase for beta = 0.7 (about 0.53).
pub const ALPHA: f64 = 3.0 * (1.0 - BETA) / (1.0 + BETA);

/// The current congestion-avoidance stage ("epoch", section 4.2).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Epoch {
    start_ns: SimTime,
    /// K: the time W_cubic takes to come back to W_max (seconds), eq. 2.
    k_s: f64,
    /// W_est: the window of a Reno flow with CUBIC's decrease (section 4.3).
    w_est: f64,
}

#[derive(Debug, Clone, Default)]
pub struct Cubic {
    /// The window just before the last reduction (fast convergence may lower it, 4.7).
    w_max: f64,
    /// The window before the last reduction, unlowered: where W_est's increase turns to 1.
    cwnd_prior: f64,
    epoch: Option<Epoch>,
    /// Smoothed RTT for W_cubic(t + RTT) (section 4.4), from the samples the ACKs carry.
    srtt_s: Option<f64>,
    /// Slow start counts the segments an ACK covers (Linux, `linux.rs`).
    count_acked: bool,
    /// HyStart ends slow start before the first loss (`hystart.rs`).
    hystart: Option<HyStart>,
}

impl Cubic {
    pub fn new(count_acked: bool, hystart: bool) -> Cubic {
        Cubic { count_acked, hystart: hystart.then(HyStart::default), ..Cubic::default() }
    }

    /// W_cubic(t), eq. 1.
    pub fn w_cubic(&self, t_s: f64) -> Option<f64> {
        let e = self.epoch?;
        Some(C * (t_s - e.k_s).powi(3) + self.w_max)
    }

    /// K of the current epoch (seconds).
    pub fn k_s(&self) -> Option<f64> {
        self.epoch.map(|e| e.k_s)
    }

    pub fn w_max(&self) -> f64 {
        self.w_max
    }

    fn note_rtt(&mut self, sample_ns: Option<u64>) {
        if let Some(ns) = sample_ns {
            let s = ns as f64 / 1e9;
            // RFC 6298's gain of 1/8.
            self.srtt_s = Some(self.srtt_s.map_or(s, |r| r + (s - r) / 8.0));
        }
    }
}

impl CongestionControl for Cubic {
    fn clone_box(&self) -> Box<dyn CongestionControl> {
        Box::new(self.clone())
    }

    fn name(&self) -> &'static str {
        "cubic"
    }

    fn on_new_ack(&mut self, w: &mut Window, ack: &AckSample) {
        self.note_rtt(ack.rtt_ns);
        if ack.acked == 0 {
            return;
        }
        if let (true, Some(h)) = (w.in_slow_start(), self.hystart.as_mut()) {
            if h.on_ack(ack.now, ack.snd_una, ack.snd_max, ack.rtt_ns, w.cwnd()) {
                w.set_ssthresh(w.cwnd()); // hystart_update: leave slow start here
            }
        }
        if w.in_slow_start() {
            // RFC 5681 (3.2), or Linux's tcp_slow_start by segments acknowledged.
            // (tcp_slow_start stops at ssthresh; the rest of this ACK is not carried over.)
            let by_acked = (ack.acked as f64).min(w.ssthresh() - w.cwnd());
            w.grow(if self.count_acked { by_acked } else { 1.0 });
            return;
        }
        let cwnd = w.cwnd();
        let epoch = match self.epoch {
            Some(e) => e,
            None => {
                // A new stage (section 4.2): after a loss, or when slow start ends with no
                // loss yet (W_max = cwnd then: K = 0, the convex region straight away).
                self.w_max = self.w_max.max(cwnd);
                let k_s = ((self.w_max - cwnd) / C).cbrt();
                Epoch { start_ns: ack.now, k_s, w_est: cwnd }
            }
        };
        let t_s = (ack.now - epoch.start_ns) as f64 / 1e9;
        let rtt_s = self.srtt_s.unwrap_or(0.0);
        // Section 4.3: W_est grows by alpha per window of ACKs, by 1 once past cwnd_prior.
        let alpha = if epoch.w_est >= self.cwnd_prior { 1.0 } else { ALPHA };
        let w_est = epoch.w_est + alpha * ack.acked as f64 / cwnd;
        self.epoch = Some(Epoch { w_est, ..epoch });
        let w_cubic_now = C * (t_s - epoch.k_s).powi(3) + self.w_max;
        if w_cubic_now < w_est {
            w.set_cwnd(w_est); // the Reno-friendly region
            return;
        }
        // Sections 4.4-4.5: towards W_cubic one RTT ahead, at most 1.5 cwnd.
        let target = (C * (t_s + rtt_s - epoch.k_s).powi(3) + self.w_max).clamp(cwnd, 1.5 * cwnd);
        w.grow((target - cwnd) / cwnd * ack.acked as f64);
    }

    /// Section 4.6: ssthresh = max(flight_size x beta, 2); W_max with fast convergence (4.7);
    /// a new stage starts once recovery is over.
    fn ssthresh_after_loss(&mut self, w: &Window, loss: &Loss) -> f64 {
        let cwnd = w.cwnd();
        self.w_max = if cwnd < self.w_max { cwnd * (1.0 + BETA) / 2.0 } else { cwnd };
        self.cwnd_prior = cwnd;
        self.epoch = None;
        (loss.flight * BETA).max(2.0)
    }

    /// A timeout (Linux's CA_Loss: `bictcp_reset`) re-arms HyStart for the slow start after.
    fn on_timeout(&mut self, w: &mut Window, loss: &Loss) {
        if let Some(h) = self.hystart.as_mut() {
            h.reset();
        }
        w.set_ssthresh(self.ssthresh_after_loss(w, loss));
        w.set_cwnd(1.0);
    }
}

#[cfg(test)]
mod tests;

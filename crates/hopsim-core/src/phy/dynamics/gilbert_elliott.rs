//! Gilbert-Elliott losses: each link is in a good or a bad state, a two-state Markov chain
//! in continuous time with mean sojourns `good_mean_s` and `bad_mean_s` (Gilbert 1960,
//! Elliott 1963); a frame that would have been received is lost with the state's own
//! probability. The chain is advanced exactly, only when a frame arrives: with rates
//! a = 1 / good_mean (good -> bad) and b = 1 / bad_mean, P(bad at t + dt | state at t) =
//! pi_bad + (1[bad] - pi_bad) exp(-(a + b) dt), pi_bad = a / (a + b) (Kleinrock 1975,
//! the two-state chain's transient solution).

use super::fitted::FittedLinks;
use crate::engine::rng::Rng;
use serde::{Deserialize, Serialize};

/// `[radio.gilbert_elliott]`: bursty frame losses per link, on top of what the PHY decides.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GilbertElliott {
    /// Mean time in the good state, seconds.
    pub good_mean_s: f64,
    /// Mean time in the bad state (a loss burst's mean length in time), seconds.
    pub bad_mean_s: f64,
    /// Probability that a frame received in the good state is lost.
    pub loss_good: f64,
    /// Probability that a frame received in the bad state is lost.
    pub loss_bad: f64,
    /// Both directions of a link share one chain (else each direction has its own).
    pub symmetric: bool,
    /// Each link's four parameters drawn from a set of measured links instead
    /// (`fitted.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawn_from: Option<FittedLinks>,
}

impl Default for GilbertElliott {
    fn default() -> Self {
        GilbertElliott {
            good_mean_s: 1.0,
            bad_mean_s: 0.1,
            loss_good: 0.0,
            loss_bad: 1.0,
            symmetric: false,
            drawn_from: None,
        }
    }
}

impl GilbertElliott {
    /// Long-run share of time in the bad state.
    pub fn bad_share(&self) -> f64 {
        self.bad_mean_s / (self.good_mean_s + self.bad_mean_s)
    }

    /// Long-run loss probability of a frame (frames arriving independently of the state).
    pub fn mean_loss(&self) -> f64 {
        let b = self.bad_share();
        (1.0 - b) * self.loss_good + b * self.loss_bad
    }

    /// Sum of the two transition rates, per ns.
    fn rate_per_ns(&self) -> f64 {
        (1.0 / self.good_mean_s + 1.0 / self.bad_mean_s) * 1e-9
    }
}

/// One link's chain: its state at the last frame and when that was.
#[derive(Debug, Clone)]
pub(super) struct GeState {
    at_ns: u64,
    bad: bool,
    rng: Rng,
}

impl GeState {
    /// A chain started in its stationary law at `at_ns`.
    pub fn new(at_ns: u64, m: &GilbertElliott, mut rng: Rng) -> GeState {
        let bad = rng.uniform() < m.bad_share();
        GeState { at_ns, bad, rng }
    }

    /// Is a frame arriving at `at_ns` lost? Advances the chain to `at_ns` first; an instant
    /// before the last frame's (a reception completed out of order) keeps the state.
    pub fn lost(&mut self, at_ns: u64, m: &GilbertElliott) -> bool {
        let dt_ns = at_ns.saturating_sub(self.at_ns);
        if dt_ns > 0 {
            let pi = m.bad_share();
            let was = if self.bad { 1.0 } else { 0.0 };
            let p_bad = pi + (was - pi) * (-(dt_ns as f64) * m.rate_per_ns()).exp();
            self.bad = self.rng.uniform() < p_bad;
            self.at_ns = at_ns;
        }
        let p = if self.bad { m.loss_bad } else { m.loss_good };
        // No draw for a sure outcome: the default model spends one uniform per frame.
        p >= 1.0 || (p > 0.0 && self.rng.uniform() < p)
    }

    #[cfg(test)]
    pub fn is_bad(&self) -> bool {
        self.bad
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::Purpose;

    const MS: u64 = 1_000_000;

    fn model(good_s: f64, bad_s: f64) -> GilbertElliott {
        GilbertElliott { good_mean_s: good_s, bad_mean_s: bad_s, ..GilbertElliott::default() }
    }

    /// Sampled every millisecond for 2,000 s, the chain spends bad_mean / (good + bad) of its
    /// time bad and its bad runs last bad_mean on average (runs of 1 ms samples: the
    /// sampled run of an exponential sojourn is longer by about half a step).
    #[test]
    fn stationary_share_and_mean_sojourns() {
        let m = model(0.9, 0.1);
        let mut s = GeState::new(0, &m, Rng::derive(5, Purpose::LinkLoss, 0));
        let (mut bad, mut runs, mut prev, n) = (0u64, 0u64, false, 2_000_000u64);
        for k in 0..n {
            s.lost(k * MS, &m);
            if s.is_bad() {
                bad += 1;
                runs += u64::from(!prev);
            }
            prev = s.is_bad();
        }
        let share = bad as f64 / n as f64;
        assert!((share - 0.1).abs() < 0.005, "{share}");
        let mean_run_s = bad as f64 / runs as f64 * 1e-3;
        assert!((mean_run_s - 0.1).abs() < 0.006, "{mean_run_s}");
    }

    /// Frames 10 s apart see independent states: their loss rate is the long-run one.
    #[test]
    fn far_apart_frames_are_lost_at_the_mean_rate() {
        let m = GilbertElliott { loss_good: 0.02, loss_bad: 0.8, ..model(0.3, 0.2) };
        let mut s = GeState::new(0, &m, Rng::derive(9, Purpose::LinkLoss, 1));
        let n = 200_000u64;
        let lost = (1..=n).filter(|k| s.lost(k * 10_000 * MS, &m)).count();
        let rate = lost as f64 / n as f64;
        // mean_loss = 0.6 * 0.02 + 0.4 * 0.8 = 0.332; SE ~0.001.
        assert!((rate - m.mean_loss()).abs() < 0.005, "{rate} vs {}", m.mean_loss());
    }

    /// Given bad now, the chance of bad dt later follows the transient law exactly.
    #[test]
    fn transient_after_a_bad_state() {
        let m = model(0.4, 0.1);
        let dt = 50 * MS;
        let (mut still, mut tries) = (0, 0);
        for i in 0..100_000 {
            let mut s = GeState::new(0, &m, Rng::derive(1, Purpose::LinkLoss, i));
            if !s.is_bad() {
                continue;
            }
            tries += 1;
            s.lost(dt, &m);
            still += usize::from(s.is_bad());
        }
        let want = 0.2 + 0.8 * (-0.05f64 * (1.0 / 0.4 + 1.0 / 0.1)).exp();
        let got = still as f64 / tries as f64;
        assert!((got - want).abs() < 0.02, "{got} vs {want} over {tries}");
    }
}

//! Gauss-Markov shadowing: a link's extra gain in dB is a stationary Ornstein-Uhlenbeck
//! process with deviation sigma and correlation exp(-dt / coherence) between two instants
//! dt apart (Gudmundson 1991, the exponential autocorrelation of shadowing). It is sampled
//! exactly, only when a frame crosses the link: x(t + dt) = rho x(t) + sqrt(1 - rho^2)
//! N(0, 1), rho = exp(-dt / tau) (the OU transition law, Gillespie 1996), so no per-slot
//! work and the same law whatever the spacing of the frames.

use crate::engine::rng::Rng;
use serde::{Deserialize, Serialize};

/// `[radio.gauss_markov]`: time-correlated shadowing added to the path loss (and to the
/// static `shadowing_sigma_db` draw, if any).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GaussMarkov {
    /// Stationary deviation of the gain, dB.
    pub sigma_db: f64,
    /// Time over which the correlation falls to 1/e, seconds.
    pub coherence_s: f64,
    /// Both directions of a link share one process (else each direction has its own).
    pub symmetric: bool,
}

impl Default for GaussMarkov {
    fn default() -> Self {
        GaussMarkov { sigma_db: 4.0, coherence_s: 1.0, symmetric: false }
    }
}

/// One link's process: the last sample (in units of sigma), when it was taken, and the
/// second normal of the link's last pair of draws.
#[derive(Debug, Clone)]
pub(super) struct GmState {
    at_ns: u64,
    x: f64,
    spare: Option<f64>,
    rng: Rng,
}

/// The last step's coefficients, rho and sqrt(1 - rho^2): every link of a transmitter is
/// usually sampled at the same frames, so one exp serves them all.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Step {
    dt_ns: u64,
    rho: f64,
    innovation: f64,
}

impl Step {
    fn of(&mut self, dt_ns: u64, coherence_ns: f64) -> (f64, f64) {
        if dt_ns != self.dt_ns {
            let rho = (-(dt_ns as f64) / coherence_ns).exp();
            *self = Step { dt_ns, rho, innovation: (1.0 - rho * rho).sqrt() };
        }
        (self.rho, self.innovation)
    }
}

impl GmState {
    /// A process started in its stationary law at `at_ns`.
    pub fn new(at_ns: u64, rng: Rng) -> GmState {
        let mut s = GmState { at_ns, x: 0.0, spare: None, rng };
        s.x = s.normal();
        s
    }

    fn normal(&mut self) -> f64 {
        match self.spare.take() {
            Some(z) => z,
            None => {
                let (a, b) = self.rng.standard_normal_pair();
                self.spare = Some(b);
                a
            }
        }
    }

    /// The standard-normal state at `at_ns`; an instant before the last sample (a reception
    /// completed out of order, world/air.rs `complete_early`) gets the current state.
    pub fn sample(&mut self, at_ns: u64, coherence_ns: f64, step: &mut Step) -> f64 {
        let dt_ns = at_ns.saturating_sub(self.at_ns);
        if dt_ns > 0 {
            let (rho, innovation) = step.of(dt_ns, coherence_ns);
            self.x = rho * self.x + innovation * self.normal();
            self.at_ns = at_ns;
        }
        self.x
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::Purpose;

    fn link(i: u64) -> GmState {
        GmState::new(0, Rng::derive(11, Purpose::LinkShadowing, i))
    }

    impl GmState {
        fn sample_(&mut self, at_ns: u64, coherence_ns: f64) -> f64 {
            self.sample(at_ns, coherence_ns, &mut Step::default())
        }
    }

    #[test]
    fn stationary_law_is_standard_normal() {
        // 20,000 links, each sampled at 3 s: mean 0, variance 1 (SE of the variance ~0.01).
        let (mut s1, mut s2, n) = (0.0, 0.0, 20_000);
        for i in 0..n {
            let x = link(i).sample_(3_000_000_000, 1e9);
            s1 += x;
            s2 += x * x;
        }
        let mean = s1 / n as f64;
        let var = s2 / n as f64 - mean * mean;
        assert!(mean.abs() < 0.03, "{mean}");
        assert!((var - 1.0).abs() < 0.04, "{var}");
    }

    /// The correlation of samples dt apart is exp(-dt / tau), whether the link was sampled
    /// in between or not: the transition law is exact, not an Euler step.
    #[test]
    fn autocorrelation_is_exponential_whatever_the_sampling() {
        let tau_ns = 0.5e9;
        for (dt_ns, between) in [(250_000_000u64, 0u64), (500_000_000, 9), (1_000_000_000, 3)] {
            let (mut sxy, mut sxx, n) = (0.0, 0.0, 20_000);
            for i in 0..n {
                let mut l = link(i);
                let x = l.sample_(0, tau_ns);
                for k in 1..=between {
                    l.sample_(dt_ns * k / (between + 1), tau_ns);
                }
                let y = l.sample_(dt_ns, tau_ns);
                sxy += x * y;
                sxx += x * x;
            }
            let rho = sxy / sxx;
            let want = (-(dt_ns as f64) / tau_ns).exp();
            assert!((rho - want).abs() < 0.02, "dt {dt_ns}: {rho} vs {want}");
        }
    }

    #[test]
    fn the_same_instant_gives_the_same_sample() {
        let mut l = link(3);
        let a = l.sample_(1_000, 1e9);
        assert_eq!(a, l.sample_(1_000, 1e9));
    }
}

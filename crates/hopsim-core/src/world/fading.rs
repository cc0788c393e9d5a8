//! Per-frame fading of the received power: each listener of a frame gets its own draw from
//! the transmitter's fading stream (in listener order), so the same scenario and seed fade
//! the same way. Rayleigh: the power gain is exponential with mean 1 (Rappaport 5.6.1);
//! Ricean with factor K: |sqrt(K/(K+1)) + CN(0, 1/(K+1))|^2, also mean 1 (Rappaport 5.6.2).
//! The links' own processes over time (Gauss-Markov shadowing, Gilbert-Elliott losses,
//! phy/dynamics) live here too: a frame's power at a listener is the mean link power times
//! both factors.

use crate::engine::budget::Budget;
use crate::engine::rng::Rng;
use crate::error::ScenarioError;
use crate::ids::NodeId;
use crate::phy::config::{Fading, Radio};
use crate::phy::dynamics::{LinkDynamics, LinkTrace, Replay};
use crate::phy::links::LinkModel;

#[derive(Debug, Clone)]
pub(crate) struct Fader {
    kind: Fading,
    /// Ricean: the line-of-sight amplitude and the scattered part's per-dimension deviation.
    los: f64,
    sigma: f64,
    pub rx_w: f64,
    pub cs_w: f64,
    /// With Gauss-Markov shadowing: frames arriving weaker than this at a listener are left
    /// out (`LinkModel::floor_w`), as the links below it are without it.
    pub floor_w: Option<f64>,
    /// Per node, the faded power of each listener of the frame it has on the air (in the
    /// order of its links).
    pub on_air_w: Vec<Vec<f64>>,
    /// Per link, the processes over time.
    pub dynamics: LinkDynamics,
}

impl Fader {
    /// The fading of `radio` over the links of `model` for `nodes` transmitters, the links'
    /// processes seeded by `seed`.
    pub fn new(radio: &Radio, model: &LinkModel, nodes: usize, seed: u64) -> Fader {
        let k = 10f64.powf(radio.ricean_k_db / 10.0);
        let dynamics = LinkDynamics::new(radio.gauss_markov, radio.gilbert_elliott, seed, nodes);
        let on = radio.fading != Fading::None || dynamics.varies_power();
        Fader {
            kind: radio.fading,
            los: (k / (k + 1.0)).sqrt(),
            sigma: (0.5 / (k + 1.0)).sqrt(),
            rx_w: model.rx_w,
            cs_w: model.cs_w,
            floor_w: dynamics.varies_power().then_some(model.floor_w),
            on_air_w: if on { vec![Vec::new(); nodes] } else { Vec::new() },
            dynamics,
        }
    }

    /// As [`Fader::new`], with the losses of the radio's link trace, if it names one, read
    /// within the run's memory budget.
    pub fn for_run(
        radio: &Radio,
        model: &LinkModel,
        (nodes, seed): (usize, u64),
        budget: &Budget,
    ) -> Result<Fader, ScenarioError> {
        let mut f = Fader::new(radio, model, nodes, seed);
        if let Some(t) = &radio.link_trace {
            f.dynamics.add_replay(read_trace(t, nodes, budget)?);
        }
        Ok(f)
    }

    /// Does a link's power change from frame to frame (fading or Gauss-Markov shadowing)?
    pub fn enabled(&self) -> bool {
        self.kind != Fading::None || self.dynamics.varies_power()
    }

    /// The power factor of one frame from `tx` at `rx`, starting at `now_ns`: the link's
    /// shadowing now, then a fade drawn from the transmitter's stream `rng`.
    pub fn frame_gain(&mut self, rng: &mut Rng, (tx, rx): (NodeId, NodeId), now_ns: u64) -> f64 {
        self.dynamics.gain(tx, rx, now_ns) * self.gain(rng)
    }

    /// The power gain of one frame at one listener.
    pub fn gain(&self, rng: &mut Rng) -> f64 {
        match self.kind {
            Fading::None => 1.0,
            Fading::Rayleigh => rng.exponential(),
            Fading::Ricean => {
                let i = self.los + self.sigma * rng.standard_normal();
                let q = self.sigma * rng.standard_normal();
                i * i + q * q
            }
        }
    }
}

/// The trace `t` names, for `nodes` nodes: a regular file that fits a quarter of the memory
/// budget (not a device such as /dev/zero, whose reading would never end), read whole.
fn read_trace(t: &LinkTrace, nodes: usize, budget: &Budget) -> Result<Replay, ScenarioError> {
    let key = "radio.link_trace.file";
    let invalid = |why: &str| ScenarioError::invalid(key, &t.file, why);
    let fits = std::fs::metadata(&t.file)
        .map(|md| md.is_file() && (md.len() as f64) < budget.max_bytes() / 4.0);
    if let Ok(false) = fits {
        return Err(invalid(&format!(
            "must be a regular file of less than {:.0} MB (a quarter of the run's memory budget)",
            budget.max_memory_mb / 4.0
        )));
    }
    let text = std::fs::read_to_string(&t.file)
        .map_err(|e| invalid(&format!("must be a readable link trace ({e})")))?;
    Replay::parse(&text, nodes, t)
        .map_err(|e| invalid(&format!("is not a valid link trace (src,dst,time_s,delivered): {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::Purpose;
    use crate::phy::links::Walls;

    fn fader(radio: &Radio) -> Fader {
        Fader::new(radio, &LinkModel::new(radio, 1, Walls::default()), 0, 1)
    }

    fn mean_and_deep_fades(f: &Fader) -> (f64, f64) {
        let mut rng = Rng::derive(7, Purpose::Fading, 0);
        let n = 200_000;
        let (mut sum, mut deep) = (0.0, 0);
        for _ in 0..n {
            let g = f.gain(&mut rng);
            sum += g;
            if g < 0.1 {
                deep += 1;
            }
        }
        (sum / n as f64, deep as f64 / n as f64)
    }

    #[test]
    fn fading_gains_have_unit_mean_and_the_right_tails() {
        let radio = Radio { fading: Fading::Rayleigh, ..Radio::default() };
        let (mean, deep) = mean_and_deep_fades(&fader(&radio));
        assert!((mean - 1.0).abs() < 0.01, "{mean}");
        // Rayleigh: P(gain < 0.1) = 1 - exp(-0.1) = 0.0952.
        assert!((deep - 0.0952).abs() < 0.003, "{deep}");
        let ricean = Radio { fading: Fading::Ricean, ricean_k_db: 10.0, ..Radio::default() };
        let (mean, deep) = mean_and_deep_fades(&fader(&ricean));
        assert!((mean - 1.0).abs() < 0.01, "{mean}");
        assert!(deep < 0.01, "a strong line of sight rarely fades 10 dB: {deep}");
    }
}

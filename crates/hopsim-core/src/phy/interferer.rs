//! Transmitters outside the network (the scenario's `[[interference]]`): a microwave oven, a
//! neighbour's access point, a Bluetooth piconet. Each sits at a point, sends energy no
//! station can decode at `power_dbm`, and alternates between on and off: exponentially
//! distributed periods (an alternating renewal process; the long-run share of time on, the
//! occupancy, is on_mean / (on_mean + off_mean)), or fixed ones (`periodic`, e.g. a
//! microwave oven's half-cycles). The process starts in its stationary state, so the
//! occupancy holds from time 0. Its power reaches the nodes by the radio's own path loss.
//! What the energy does at a receiver (carrier sense, capture, SINR) is the receiver's
//! business (`radio/`, `sinr/`); the glue is world/interference.rs (docs/models.md 24).

use crate::engine::rng::Rng;
use crate::engine::time::SimTime;
use serde::{Deserialize, Serialize};

/// How the lengths of the on and off periods are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnOffProcess {
    /// Exponential periods with the given means (memoryless, bursty traffic).
    #[default]
    Exponential,
    /// Exactly `on_mean_s` on, then exactly `off_mean_s` off, at a phase drawn from the seed.
    Periodic,
}

/// One `[[interference]]` table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Interferer {
    pub x_m: f64,
    pub y_m: f64,
    /// Transmit power, dBm (the radio's antenna gains and path loss apply).
    pub power_dbm: f64,
    /// Mean length of a period on the air, seconds.
    pub on_mean_s: f64,
    /// Mean length of a silent period, seconds.
    pub off_mean_s: f64,
    #[serde(default)]
    pub process: OnOffProcess,
    /// Silent before this time, seconds.
    #[serde(default)]
    pub start_s: f64,
    /// Silent from this time on, seconds (default: the end of the run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_s: Option<f64>,
}

impl Interferer {
    /// Long-run share of time on the air.
    pub fn occupancy(&self) -> f64 {
        self.on_mean_s / (self.on_mean_s + self.off_mean_s)
    }

    /// Transmit power, watts.
    pub fn power_w(&self) -> f64 {
        10f64.powf((self.power_dbm - 30.0) / 10.0)
    }
}

/// A period's length, ns: at least 1 (a time never stands still).
fn ns(seconds: f64) -> SimTime {
    (seconds * 1e9).round().max(1.0) as SimTime
}

/// The on/off state of one interferer, drawing its periods from its own stream.
#[derive(Debug, Clone)]
pub struct OnOff {
    cfg: Interferer,
    rng: Rng,
}

impl OnOff {
    pub fn new(cfg: Interferer, rng: Rng) -> Self {
        OnOff { cfg, rng }
    }

    pub fn config(&self) -> &Interferer {
        &self.cfg
    }

    /// Where the process stands at its start: `(on, left_ns)`, on the air or not, for how
    /// much longer. Stationary: on with probability the occupancy, and the time left drawn
    /// as a renewal process's residual life (exponential: memoryless, the full law again;
    /// periodic: a uniform phase of the cycle).
    pub fn first(&mut self) -> (bool, SimTime) {
        let (on_s, off_s) = (self.cfg.on_mean_s, self.cfg.off_mean_s);
        match self.cfg.process {
            OnOffProcess::Exponential => {
                if self.rng.uniform() < self.cfg.occupancy() {
                    (true, ns(on_s * self.rng.exponential()))
                } else {
                    (false, ns(off_s * self.rng.exponential()))
                }
            }
            OnOffProcess::Periodic => {
                let phase_s = self.rng.uniform() * (on_s + off_s);
                if phase_s < on_s {
                    (true, ns(on_s - phase_s))
                } else {
                    (false, ns(on_s + off_s - phase_s))
                }
            }
        }
    }

    /// The length of the next period on the air, ns.
    pub fn on_ns(&mut self) -> SimTime {
        self.draw(self.cfg.on_mean_s)
    }

    /// The length of the next silent period, ns.
    pub fn off_ns(&mut self) -> SimTime {
        self.draw(self.cfg.off_mean_s)
    }

    fn draw(&mut self, mean_s: f64) -> SimTime {
        match self.cfg.process {
            OnOffProcess::Exponential => ns(mean_s * self.rng.exponential()),
            OnOffProcess::Periodic => ns(mean_s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::Purpose;

    fn source(process: OnOffProcess) -> Interferer {
        Interferer {
            x_m: 0.0,
            y_m: 0.0,
            power_dbm: 20.0,
            on_mean_s: 0.002,
            off_mean_s: 0.006,
            process,
            start_s: 0.0,
            stop_s: None,
        }
    }

    /// The share of time on over a long run, and at a fixed instant over many seeds
    /// (stationary from the start), is the occupancy 0.25; the periods have their means.
    #[test]
    fn occupancy_holds_over_time_and_from_the_start() {
        for process in [OnOffProcess::Exponential, OnOffProcess::Periodic] {
            let mut p = OnOff::new(source(process), Rng::derive(1, Purpose::Probe, 0));
            let (mut on, mut total, mut on_periods, mut on_sum) = (0u64, 0u64, 0u64, 0u64);
            let (mut state, first) = p.first();
            let mut left = first;
            for _ in 0..200_000 {
                total += left;
                if state {
                    on += left;
                }
                state = !state;
                left = if state { p.on_ns() } else { p.off_ns() };
                if state {
                    on_periods += 1;
                    on_sum += left;
                }
            }
            let share = on as f64 / total as f64;
            assert!((share - 0.25).abs() < 0.005, "{process:?} {share}");
            let mean_on_s = on_sum as f64 / on_periods as f64 * 1e-9;
            assert!((mean_on_s - 0.002).abs() < 0.002 * 0.02, "{process:?} {mean_on_s}");
            let starts_on = (0..20_000)
                .filter(|&k| {
                    let rng = Rng::derive(k, Purpose::Probe, 1);
                    OnOff::new(source(process), rng).first().0
                })
                .count();
            let p0 = starts_on as f64 / 20_000.0;
            assert!((p0 - 0.25).abs() < 0.01, "{process:?} starts on {p0}");
        }
    }

    #[test]
    fn power_and_periods_are_in_their_units() {
        let s = source(OnOffProcess::Periodic);
        assert!((s.power_w() - 0.1).abs() < 1e-12, "20 dBm = 100 mW");
        let mut p = OnOff::new(s, Rng::derive(1, Purpose::Probe, 0));
        assert_eq!((p.on_ns(), p.off_ns()), (2_000_000, 6_000_000));
        let tiny = Interferer { on_mean_s: 1e-12, ..s };
        assert_eq!(OnOff::new(tiny, Rng::derive(1, Purpose::Probe, 0)).on_ns(), 1);
    }
}

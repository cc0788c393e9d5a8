//! The mean received power of every link: path loss, then static log-normal shadowing drawn
//! once per link from the seed (Rappaport eq. 4.69a), then the extra loss of links between
//! the clusters ("buildings") of a testbed topology. Which links a transmission reaches:
//! above carrier sense in `capture` mode; in `sinr` mode also the weaker ones that still
//! add interference (down to 10 dB below the noise floor); with fading, a margin lower.

use super::channel::Link;
use super::noise::noise_floor_w;
use super::propagation::{delay_ns, thresholds_w, PathLoss};
use crate::rng::{Purpose, Rng};
use crate::scenario::{Fading, Reception, Scenario};

/// Interference this far below the noise floor is left out (it moves the SINR by < 0.5 dB).
const INTERFERENCE_FLOOR_DB: f64 = -10.0;
/// With fading, links this much weaker on average are kept: a Rayleigh fade exceeds +15 dB
/// with probability exp(-10^1.5) ~ 2e-14.
const FADING_MARGIN_DB: f64 = 15.0;

#[derive(Debug, Clone)]
pub struct LinkModel {
    pub path: PathLoss,
    seed: u64,
    sigma_db: f64,
    symmetric: bool,
    /// Cluster of each node (testbed topologies), empty otherwise.
    clusters: Vec<u32>,
    wall_loss_db: f64,
    wall_sigma_db: f64,
    /// Decode threshold: the least power at which a frame is received (capture) or a
    /// preamble can be detected (sinr).
    pub rx_w: f64,
    /// Carrier-sense (energy detection) threshold.
    pub cs_w: f64,
    /// Links weaker than this are not listeners at all.
    pub include_w: f64,
}

fn db(x: f64) -> f64 {
    10f64.powf(x / 10.0)
}

impl LinkModel {
    /// The links of a scenario: its radio, and for testbed topologies the walls between
    /// buildings.
    pub fn for_scenario(s: &Scenario) -> Self {
        match &s.topology.testbed {
            Some(b) if s.topology.kind == crate::scenario::TopologyKind::Testbed => LinkModel::new(
                s,
                crate::topology::clusters(&s.topology),
                b.wall_loss_db,
                b.wall_sigma_db,
            ),
            _ => LinkModel::new(s, Vec::new(), 0.0, 0.0),
        }
    }

    pub fn new(s: &Scenario, clusters: Vec<u32>, wall_loss_db: f64, wall_sigma_db: f64) -> Self {
        let path = PathLoss::new(&s.radio);
        let (rx_w, cs_w) = thresholds_w(&s.radio, &path);
        let mut include_w = match s.radio.reception {
            Reception::Capture => cs_w,
            Reception::Sinr => cs_w.min(noise_floor_w(&s.radio) * db(INTERFERENCE_FLOOR_DB)),
        };
        if s.radio.fading != Fading::None {
            include_w *= db(-FADING_MARGIN_DB);
        }
        LinkModel {
            path,
            seed: s.topology.seed.unwrap_or(s.seed),
            sigma_db: s.radio.shadowing_sigma_db,
            symmetric: s.radio.shadowing_symmetric,
            clusters,
            wall_loss_db,
            wall_sigma_db,
            rx_w,
            cs_w,
            include_w,
        }
    }

    /// A standard normal draw that belongs to the link tx -> rx (and to rx -> tx when
    /// shadowing is symmetric): independent of every other link and of the node count.
    fn link_normal(&self, tx: u32, rx: u32, which: u64) -> f64 {
        let (a, b) = if self.symmetric { (tx.min(rx), tx.max(rx)) } else { (tx, rx) };
        let index = ((a as u64) << 32 | b as u64) ^ which.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut rng = Rng::derive(self.seed, Purpose::Shadowing, index);
        rng.standard_normal()
    }

    /// Extra gain of the link in dB (shadowing and walls; 0 when neither is configured).
    pub fn gain_db(&self, tx: u32, rx: u32) -> f64 {
        let mut g = 0.0;
        if self.sigma_db > 0.0 {
            g += self.sigma_db * self.link_normal(tx, rx, 0);
        }
        if !self.clusters.is_empty() && self.clusters[tx as usize] != self.clusters[rx as usize] {
            g -= self.wall_loss_db;
            if self.wall_sigma_db > 0.0 {
                g += self.wall_sigma_db * self.link_normal(tx, rx, 1);
            }
        }
        g
    }

    /// Mean received power at `rx` of `tx`'s frames over `distance_m`.
    pub fn power_w(&self, tx: u32, rx: u32, distance_m: f64) -> f64 {
        let p = self.path.rx_power_w(distance_m);
        let g = self.gain_db(tx, rx);
        if g == 0.0 {
            p
        } else {
            p * db(g)
        }
    }

    /// The link tx -> rx, if `rx` hears `tx` at all.
    pub fn link(&self, tx: u32, rx: u32, distance_m: f64) -> Option<Link> {
        let power_w = self.power_w(tx, rx, distance_m);
        (power_w >= self.include_w).then(|| Link {
            listener: rx,
            power_w,
            delay_ns: delay_ns(distance_m),
            decodable: power_w >= self.rx_w,
            sensed: power_w >= self.cs_w,
        })
    }

    /// Distance beyond which no link is included, whatever the shadowing (for delays).
    pub fn max_reach_m(&self) -> f64 {
        let best_gain_db = 4.0 * self.sigma_db + 4.0 * self.wall_sigma_db;
        self.path.range_for_threshold_m(self.include_w * db(-best_gain_db))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{parse_toml, Propagation};

    fn scenario(extra: &str) -> Scenario {
        let text = format!(
            "[topology]\nkind = \"chain\"\nhops = 3\n[radio]\npropagation = \"log_distance\"\n{extra}"
        );
        parse_toml(&text).expect("scenario")
    }

    #[test]
    fn shadowing_is_seeded_symmetric_and_has_its_sigma() {
        let s = scenario("shadowing_sigma_db = 8.0\n");
        assert_eq!(s.radio.propagation, Propagation::LogDistance);
        let m = LinkModel::new(&s, Vec::new(), 0.0, 0.0);
        assert_eq!(m.gain_db(3, 7), m.gain_db(7, 3));
        assert_eq!(m.gain_db(3, 7), LinkModel::new(&s, Vec::new(), 0.0, 0.0).gain_db(3, 7));
        let draws: Vec<f64> = (0..2000).map(|j| m.gain_db(0, j + 1)).collect();
        let mean = draws.iter().sum::<f64>() / draws.len() as f64;
        let var = draws.iter().map(|g| (g - mean) * (g - mean)).sum::<f64>() / 1999.0;
        assert!(mean.abs() < 0.6, "mean {mean}");
        assert!((var.sqrt() - 8.0).abs() < 0.5, "sigma {}", var.sqrt());
        let asym = LinkModel::new(
            &scenario("shadowing_sigma_db = 8.0\nshadowing_symmetric = false\n"),
            Vec::new(),
            0.0,
            0.0,
        );
        assert_ne!(asym.gain_db(3, 7), asym.gain_db(7, 3));
    }

    #[test]
    fn walls_between_clusters_cost_their_loss() {
        let s = scenario("");
        let m = LinkModel::new(&s, vec![0, 0, 1, 1], 12.0, 0.0);
        assert_eq!(m.gain_db(0, 1), 0.0);
        assert_eq!(m.gain_db(1, 2), -12.0);
        let p = m.path.rx_power_w(50.0);
        assert!((m.power_w(1, 2, 50.0) / p - db(-12.0)).abs() < 1e-12);
    }
}

//! The mean received power of every link: path loss, then static log-normal shadowing drawn
//! once per link from the seed (Rappaport eq. 4.69a), then the extra loss of links between
//! the clusters ("buildings") of a testbed topology. Which links a transmission reaches:
//! above carrier sense in `capture` mode; in `sinr` mode also the weaker ones that still
//! add interference (down to 10 dB below the noise floor); with fading or Gauss-Markov
//! shadowing, a margin lower.

use super::config::{Fading, Radio, Reception};
use super::dynamics::GM_REACH_SIGMAS;
use super::noise::noise_floor_w;
use super::propagation::{delay_ns, thresholds_w, PathLoss};
use crate::engine::rng::{Purpose, Rng};
use crate::ids::NodeId;

/// Interference this far below the noise floor is left out (it moves the SINR by < 0.5 dB).
const INTERFERENCE_FLOOR_DB: f64 = -10.0;
/// With fading, links this much weaker on average are kept: a Rayleigh fade exceeds +15 dB
/// with probability exp(-10^1.5) ~ 2e-14.
const FADING_MARGIN_DB: f64 = 15.0;

/// One transmitter -> listener link above the carrier-sense threshold.
#[derive(Debug, Clone, Copy)]
pub struct Link {
    pub listener: NodeId,
    pub power_w: f64,
    pub delay_ns: u64,
    /// Received power reaches the decode threshold.
    pub decodable: bool,
    /// Received power reaches the carrier-sense threshold (weaker links only interfere).
    pub sensed: bool,
}

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
    /// `include_w` without the margins for fading and Gauss-Markov shadowing: a frame
    /// arriving weaker than this is no signal at all (where a link's power varies by frame).
    pub floor_w: f64,
}

fn db(x: f64) -> f64 {
    10f64.powf(x / 10.0)
}

/// Walls between clusters of nodes (a testbed's buildings): a link between two clusters
/// loses `loss_db` more and gets `sigma_db` more shadowing. No walls: empty `clusters`.
#[derive(Debug, Clone, Default)]
pub struct Walls {
    /// Cluster of each node.
    pub clusters: Vec<u32>,
    pub loss_db: f64,
    pub sigma_db: f64,
}

impl LinkModel {
    /// The links of `radio`, with shadowing drawn from `seed`, through `walls`.
    pub fn new(radio: &Radio, seed: u64, walls: Walls) -> Self {
        let path = PathLoss::new(radio);
        let (rx_w, cs_w) = thresholds_w(radio, &path);
        let floor_w = match radio.reception {
            Reception::Capture => cs_w,
            Reception::Sinr => cs_w.min(noise_floor_w(radio) * db(INTERFERENCE_FLOOR_DB)),
        };
        let mut include_w = floor_w;
        if radio.fading != Fading::None {
            include_w *= db(-FADING_MARGIN_DB);
        }
        // Gauss-Markov shadowing may lift a link this much above its mean, frame by frame.
        if let Some(m) = radio.gauss_markov {
            include_w *= db(-GM_REACH_SIGMAS * m.sigma_db);
        }
        LinkModel {
            path,
            seed,
            sigma_db: radio.shadowing_sigma_db,
            symmetric: radio.shadowing_symmetric,
            clusters: walls.clusters,
            wall_loss_db: walls.loss_db,
            wall_sigma_db: walls.sigma_db,
            rx_w,
            cs_w,
            include_w,
            floor_w,
        }
    }

    /// A standard normal draw that belongs to the link tx -> rx (and to rx -> tx when
    /// shadowing is symmetric): independent of every other link and of the node count.
    fn link_normal(&self, tx: NodeId, rx: NodeId, which: u64) -> f64 {
        let (a, b) = if self.symmetric { (tx.min(rx), tx.max(rx)) } else { (tx, rx) };
        let index =
            (u64::from(a.0) << 32 | u64::from(b.0)) ^ which.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut rng = Rng::derive(self.seed, Purpose::Shadowing, index);
        rng.standard_normal()
    }

    /// Extra gain of the link in dB (shadowing and walls; 0 when neither is configured).
    pub fn gain_db(&self, tx: NodeId, rx: NodeId) -> f64 {
        let mut g = 0.0;
        if self.sigma_db > 0.0 {
            g += self.sigma_db * self.link_normal(tx, rx, 0);
        }
        if !self.clusters.is_empty() && self.clusters[tx.index()] != self.clusters[rx.index()] {
            g -= self.wall_loss_db;
            if self.wall_sigma_db > 0.0 {
                g += self.wall_sigma_db * self.link_normal(tx, rx, 1);
            }
        }
        g
    }

    /// Do links get an extra gain (shadowing or walls)? Without, `power_w` is the path loss's.
    pub fn has_gain(&self) -> bool {
        !(self.sigma_db == 0.0 && self.clusters.is_empty())
    }

    /// Mean received power at `rx` of `tx`'s frames over `distance_m`.
    #[inline]
    pub fn power_w(&self, tx: NodeId, rx: NodeId, distance_m: f64) -> f64 {
        let p = self.path.rx_power_w(distance_m);
        if !self.has_gain() {
            return p; // gain_db would be 0
        }
        let g = self.gain_db(tx, rx);
        if g == 0.0 {
            p
        } else {
            p * db(g)
        }
    }

    /// The link tx -> rx, if `rx` hears `tx` at all.
    #[inline]
    pub fn link(&self, tx: NodeId, rx: NodeId, distance_m: f64) -> Option<Link> {
        self.link_at_power(rx, self.power_w(tx, rx, distance_m), distance_m)
    }

    /// The link to `rx` at `distance_m` with the mean received power `power_w`, if above
    /// the least power a listener needs.
    #[inline(always)]
    pub fn link_at_power(&self, rx: NodeId, power_w: f64, distance_m: f64) -> Option<Link> {
        (power_w >= self.include_w).then(|| Link {
            listener: rx,
            power_w,
            delay_ns: delay_ns(distance_m),
            decodable: power_w >= self.rx_w,
            sensed: power_w >= self.cs_w,
        })
    }

    /// The squared distance beyond which no link exists for certain, when the links have no
    /// random gain (no shadowing): a moving transmitter skips those listeners without
    /// working out their power. `None` with shadowing (a draw may exceed any bound).
    pub fn sure_reach_sq_m2(&self) -> Option<f64> {
        // Walls only subtract a fixed loss unless they add their own shadowing.
        // Gauss-Markov shadowing's reach is inside include_w (GM_REACH_SIGMAS).
        (self.sigma_db == 0.0 && self.wall_sigma_db == 0.0).then(|| {
            // A relative margin far above the rounding of the range's inversion.
            let reach_m = self.path.range_for_threshold_m(self.include_w) * (1.0 + 1e-6);
            reach_m * reach_m
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
    use crate::phy::config::Propagation;

    fn radio(sigma_db: f64, symmetric: bool) -> Radio {
        Radio {
            propagation: Propagation::LogDistance,
            shadowing_sigma_db: sigma_db,
            shadowing_symmetric: symmetric,
            ..Radio::default()
        }
    }

    #[test]
    fn shadowing_is_seeded_symmetric_and_has_its_sigma() {
        let r = radio(8.0, true);
        let m = LinkModel::new(&r, 1, Walls::default());
        assert_eq!(m.gain_db(NodeId(3), NodeId(7)), m.gain_db(NodeId(7), NodeId(3)));
        assert_eq!(
            m.gain_db(NodeId(3), NodeId(7)),
            LinkModel::new(&r, 1, Walls::default()).gain_db(NodeId(3), NodeId(7))
        );
        let draws: Vec<f64> = (0..2000).map(|j| m.gain_db(NodeId(0), NodeId(j + 1))).collect();
        let mean = draws.iter().sum::<f64>() / draws.len() as f64;
        let var = draws.iter().map(|g| (g - mean) * (g - mean)).sum::<f64>() / 1999.0;
        assert!(mean.abs() < 0.6, "mean {mean}");
        assert!((var.sqrt() - 8.0).abs() < 0.5, "sigma {}", var.sqrt());
        let asym = LinkModel::new(&radio(8.0, false), 1, Walls::default());
        assert_ne!(asym.gain_db(NodeId(3), NodeId(7)), asym.gain_db(NodeId(7), NodeId(3)));
    }

    #[test]
    fn sure_reach_is_tight_and_only_without_shadowing() {
        for propagation in [Propagation::TwoRayGround, Propagation::LogDistance] {
            let r = Radio { propagation, ..Radio::default() };
            let m = LinkModel::new(&r, 1, Walls::default());
            let reach_m = m.sure_reach_sq_m2().expect("no shadowing").sqrt();
            assert!(m.link(NodeId(0), NodeId(1), reach_m).is_none(), "{propagation:?}");
            assert!(
                m.link(NodeId(0), NodeId(1), reach_m * (1.0 - 1e-5)).is_some(),
                "{propagation:?}"
            );
        }
        assert!(LinkModel::new(&radio(4.0, true), 1, Walls::default())
            .sure_reach_sq_m2()
            .is_none());
    }

    #[test]
    fn walls_between_clusters_cost_their_loss() {
        let walls = Walls { clusters: vec![0, 0, 1, 1], loss_db: 12.0, sigma_db: 0.0 };
        let m = LinkModel::new(&radio(0.0, true), 1, walls);
        assert_eq!(m.gain_db(NodeId(0), NodeId(1)), 0.0);
        assert_eq!(m.gain_db(NodeId(1), NodeId(2)), -12.0);
        let p = m.path.rx_power_w(50.0);
        assert!((m.power_w(NodeId(1), NodeId(2), 50.0) / p - db(-12.0)).abs() < 1e-12);
    }
}

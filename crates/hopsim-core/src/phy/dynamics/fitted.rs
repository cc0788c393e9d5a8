//! Links drawn from a real mesh: `[radio.gilbert_elliott] drawn_from = "roofnet_1mbps"` gives
//! each link (each direction, or each pair when symmetric) the fitted chain of one measured
//! link, drawn uniformly from the set by the link's own stream. Uniform, not matched to the
//! link's distance or SNR: in Roofnet, distance and SNR predict a link's delivery ratio only
//! weakly (Aguayo et al., SIGCOMM 2004, section 4). The sets are compiled in (the data's one
//! home is the CSV beside this file, with its source).

use super::gilbert_elliott::GilbertElliott;
use crate::engine::rng::Rng;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// A set of fitted links.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FittedLinks {
    /// MIT Roofnet at 1 Mbit/s: 521 directed links (`roofnet_1mbps.csv`).
    #[serde(rename = "roofnet_1mbps")]
    Roofnet1mbps,
}

const ROOFNET_1MBPS: &str = include_str!("roofnet_1mbps.csv");

/// (good_mean_s, bad_mean_s, loss_good, loss_bad) of each link of a set.
type Row = [f64; 4];

fn parse(text: &str) -> Vec<Row> {
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    assert_eq!(lines.next(), Some("good_mean_s,bad_mean_s,loss_good,loss_bad"));
    lines
        .map(|l| {
            let mut row = [0.0; 4];
            for (x, cell) in row.iter_mut().zip(l.split(',')) {
                *x = cell.parse().expect("a number in a compiled-in set");
            }
            row
        })
        .collect()
}

impl FittedLinks {
    pub const ALL: [FittedLinks; 1] = [FittedLinks::Roofnet1mbps];

    /// Its scenario name.
    pub fn name(self) -> &'static str {
        match self {
            FittedLinks::Roofnet1mbps => "roofnet_1mbps",
        }
    }

    pub fn rows(self) -> &'static [Row] {
        static ROOFNET: OnceLock<Vec<Row>> = OnceLock::new();
        match self {
            FittedLinks::Roofnet1mbps => ROOFNET.get_or_init(|| parse(ROOFNET_1MBPS)),
        }
    }

    /// The row of one link, drawn with `rng`.
    fn index(self, rng: &mut Rng) -> usize {
        rng.up_to(self.rows().len() as u32 - 1) as usize
    }

    /// One link's chain, drawn with `rng`; the direction rule is `symmetric`'s.
    pub fn draw(self, rng: &mut Rng, symmetric: bool) -> GilbertElliott {
        let [good_mean_s, bad_mean_s, loss_good, loss_bad] = self.rows()[self.index(rng)];
        GilbertElliott { good_mean_s, bad_mean_s, loss_good, loss_bad, symmetric, drawn_from: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::Purpose;

    #[test]
    fn names_are_the_scenarios() {
        for set in FittedLinks::ALL {
            assert_eq!(serde_json::to_value(set).unwrap(), set.name());
        }
    }

    #[test]
    fn the_roofnet_set_is_whole_and_valid() {
        let rows = FittedLinks::Roofnet1mbps.rows();
        assert_eq!(rows.len(), 521);
        for r in rows {
            assert!(
                r[0] > 0.0
                    && r[1] > 0.0
                    && (0.0..=1.0).contains(&r[2])
                    && (0.0..=1.0).contains(&r[3])
            );
        }
        // Aguayo et al.: most links have intermediate delivery ratios. The fitted chains'
        // long-run loss: median 0.43 over the set.
        let mut loss: Vec<f64> =
            rows.iter().map(|&[g, b, lg, lb]| (g * lg + b * lb) / (g + b)).collect();
        loss.sort_by(f64::total_cmp);
        let median = loss[loss.len() / 2];
        assert!((0.3..0.6).contains(&median), "{median}");
    }

    /// Every row is drawn about equally often.
    #[test]
    fn draws_are_uniform_over_the_set() {
        let set = FittedLinks::Roofnet1mbps;
        let n = set.rows().len();
        let mut counts = vec![0u32; n];
        let mut rng = Rng::derive(3, Purpose::LinkLoss, 0);
        for _ in 0..n * 200 {
            counts[set.index(&mut rng)] += 1;
        }
        // 200 expected each (SD 14): six deviations either way.
        let (lo, hi) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
        assert!(*lo >= 115 && *hi <= 285, "{lo} {hi}");
        let m = set.draw(&mut rng, true);
        assert!(m.symmetric && m.drawn_from.is_none() && m.good_mean_s > 0.0);
    }
}

//! Path loss: two-ray ground reflection (Friis below the crossover distance) and free space,
//! as in ns-2's mobile/tworayground.cc and mobile/propagation.cc (Rappaport, Wireless
//! Communications, eq. 4.5 and 4.52), and log-distance (Rappaport eq. 4.68).

use super::config::{Propagation, Radio};

/// Speed of light in m/s, used for wavelengths and propagation delays.
/// (ns-2 uses 3e8 for the wavelength; the difference only touches the Friis region < 86 m.)
pub const SPEED_OF_LIGHT_M_PER_S: f64 = 299_792_458.0;

/// Distances below this are treated as this, so co-located nodes get a finite power.
const MIN_DISTANCE_M: f64 = 0.01;

#[derive(Debug, Clone)]
pub struct PathLoss {
    kind: Propagation,
    tx_power_w: f64,
    gain_product: f64,
    antenna_height_m: f64,
    wavelength_m: f64,
    system_loss: f64,
    exponent: f64,
    reference_distance_m: f64,
    /// Received power at the reference distance (log-distance only).
    reference_power_w: f64,
    /// Two-ray ground's crossover distance and its numerator Pt Gt Gr ht^2 hr^2, worked out
    /// once (the same operations in the same order as per call: bit-identical powers).
    crossover_m: f64,
    two_ray_numerator: f64,
}

/// Milliwatts in dBm to watts.
pub fn dbm_to_w(dbm: f64) -> f64 {
    10f64.powf(dbm / 10.0) * 1e-3
}

/// Watts to dBm.
pub fn w_to_dbm(w: f64) -> f64 {
    10.0 * (w * 1e3).log10()
}

impl PathLoss {
    pub fn new(radio: &Radio) -> PathLoss {
        let mut p = PathLoss {
            kind: radio.propagation,
            tx_power_w: radio.tx_power_dbm.map_or(radio.tx_power_w, dbm_to_w),
            gain_product: radio.antenna_gain * radio.antenna_gain,
            antenna_height_m: radio.antenna_height_m,
            wavelength_m: SPEED_OF_LIGHT_M_PER_S / radio.frequency_hz,
            system_loss: radio.system_loss,
            exponent: radio.path_loss_exponent,
            reference_distance_m: radio.reference_distance_m,
            reference_power_w: 0.0,
            crossover_m: 0.0,
            two_ray_numerator: 0.0,
        };
        p.crossover_m =
            4.0 * std::f64::consts::PI * p.antenna_height_m * p.antenna_height_m / p.wavelength_m;
        let h2 = p.antenna_height_m * p.antenna_height_m;
        p.two_ray_numerator = p.tx_power_w * p.gain_product * h2 * h2;
        // PL(d0): given, or the free-space loss at d0 (as ns-3's default 46.68 dB is Friis
        // at 1 m for 5.15 GHz).
        p.reference_power_w = match radio.reference_loss_db {
            Some(loss_db) => p.tx_power_w * p.gain_product * 10f64.powf(-loss_db / 10.0),
            None => p.friis_w(p.reference_distance_m),
        };
        p
    }

    pub fn tx_power_w(&self) -> f64 {
        self.tx_power_w
    }

    /// Friis free-space received power: Pt Gt Gr lambda^2 / ((4 pi d)^2 L).
    fn friis_w(&self, d: f64) -> f64 {
        let four_pi_d = 4.0 * std::f64::consts::PI * d;
        self.tx_power_w * self.gain_product * self.wavelength_m * self.wavelength_m
            / (four_pi_d * four_pi_d * self.system_loss)
    }

    /// Crossover distance of two-ray ground: 4 pi ht hr / lambda.
    pub fn crossover_m(&self) -> f64 {
        self.crossover_m
    }

    /// Received power in watts at distance `distance_m`.
    pub fn rx_power_w(&self, distance_m: f64) -> f64 {
        let d = distance_m.max(MIN_DISTANCE_M);
        match self.kind {
            Propagation::FreeSpace => self.friis_w(d),
            Propagation::LogDistance => {
                // Below d0 the power is held at its d0 value (the model starts at d0).
                let ratio = (d / self.reference_distance_m).max(1.0);
                self.reference_power_w / ratio.powf(self.exponent)
            }
            Propagation::TwoRayGround => self.two_ray_w(distance_m),
        }
    }

    pub fn is_two_ray_ground(&self) -> bool {
        self.kind == Propagation::TwoRayGround
    }

    /// `rx_power_w` of two-ray ground, for callers that chose the model once for many calls.
    #[inline(always)]
    pub fn two_ray_w(&self, distance_m: f64) -> f64 {
        let d = distance_m.max(MIN_DISTANCE_M);
        if d < self.crossover_m {
            self.friis_w(d)
        } else {
            // Pt Gt Gr ht^2 hr^2 / (d^4 L)
            self.two_ray_numerator / (d * d * d * d * self.system_loss)
        }
    }

    /// Largest distance at which the received power is still >= `threshold_w`
    /// (power falls monotonically with distance), found by bisection.
    pub fn range_for_threshold_m(&self, threshold_w: f64) -> f64 {
        let (mut lo, mut hi) = (MIN_DISTANCE_M, 1.0);
        while self.rx_power_w(hi) >= threshold_w && hi < 1e9 {
            hi *= 2.0;
        }
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if self.rx_power_w(mid) >= threshold_w {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

/// Receive and carrier-sense thresholds in watts: explicit ranges override the thresholds.
pub fn thresholds_w(radio: &Radio, path: &PathLoss) -> (f64, f64) {
    let rx = radio.rx_range_m.map_or(radio.rx_threshold_w, |r| path.rx_power_w(r));
    let cs = radio.cs_range_m.map_or(radio.cs_threshold_w, |r| path.rx_power_w(r));
    (rx, cs)
}

/// Straight-line distance between two positions (x, y) in metres.
///
/// The square root of the sum of squares, not `hypot`: hypot's guard against overflow costs a
/// library call per listener of every frame of a moving network, and no scenario's
/// coordinates come near 1e154 m, where squares would overflow. The two may differ in the
/// last bit.
#[inline]
pub fn distance_m(a: [f64; 2], b: [f64; 2]) -> f64 {
    let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
    (dx * dx + dy * dy).sqrt()
}

/// Propagation delay over `distance_m`, in whole nanoseconds (rounded).
#[inline]
pub fn delay_ns(distance_m: f64) -> u64 {
    round_ns(distance_m / SPEED_OF_LIGHT_M_PER_S * 1e9)
}

/// `x.round() as u64` for 0 <= x < 2^53 (halves away from zero) without libm's `round`, a
/// call on the baseline x86-64 target: the truncation is exact and so is `x - whole`.
/// The conversions go through i64 (single instructions on x86-64, where the unsigned ones
/// branch) whenever that gives the same integers: `x as i64` in [0, i64::MAX) means x is in
/// (-1, 2^63) or NaN, where the truncation is the same as `x as u64`'s (0 for NaN).
#[inline]
fn round_ns(x: f64) -> u64 {
    let whole = x as i64;
    if (0..i64::MAX).contains(&whole) {
        return whole as u64 + (x - whole as f64 >= 0.5) as u64;
    }
    let whole = x as u64;
    if x - whole as f64 >= 0.5 {
        whole + 1
    } else {
        whole
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ns2_defaults_give_250m_decode_and_550m_carrier_sense() {
        let radio = Radio::default();
        let pl = PathLoss::new(&radio);
        // crossover 4 pi 1.5^2 / (c / 914 MHz) ~ 86.2 m
        assert!((pl.crossover_m() - 86.2).abs() < 0.2, "{}", pl.crossover_m());
        let rx = pl.range_for_threshold_m(radio.rx_threshold_w);
        let cs = pl.range_for_threshold_m(radio.cs_threshold_w);
        assert!((rx - 250.0).abs() < 0.1, "rx range {rx}");
        assert!((cs - 550.0).abs() < 0.1, "cs range {cs}");
        assert!(pl.rx_power_w(250.0) >= radio.rx_threshold_w);
        assert!(pl.rx_power_w(550.0) >= radio.cs_threshold_w);
        assert!(pl.rx_power_w(251.0) < radio.rx_threshold_w);
    }

    #[test]
    fn log_distance_follows_its_exponent_and_reference() {
        let radio = Radio {
            propagation: Propagation::LogDistance,
            tx_power_dbm: Some(18.0),
            frequency_hz: 2.412e9,
            path_loss_exponent: 3.0,
            reference_loss_db: Some(40.0),
            ..Radio::default()
        };
        let pl = PathLoss::new(&radio);
        // 18 dBm - 40 dB at 1 m; -30 dB per decade with n = 3.
        assert!((w_to_dbm(pl.rx_power_w(1.0)) - -22.0).abs() < 1e-9);
        assert!((w_to_dbm(pl.rx_power_w(10.0)) - -52.0).abs() < 1e-9);
        assert!((w_to_dbm(pl.rx_power_w(100.0)) - -82.0).abs() < 1e-9);
        // Default PL(d0): Friis at 1 m, 2.412 GHz = 20 log10(4 pi / lambda) = 40.09 dB.
        let friis = PathLoss::new(&Radio { reference_loss_db: None, ..radio });
        let loss_db = 18.0 - w_to_dbm(friis.rx_power_w(1.0));
        assert!((loss_db - 40.09).abs() < 0.01, "{loss_db}");
        assert!((dbm_to_w(30.0) - 1.0).abs() < 1e-12 && (w_to_dbm(1e-3)).abs() < 1e-12);
    }

    #[test]
    fn two_ray_is_continuous_enough_and_d4() {
        let pl = PathLoss::new(&Radio::default());
        let ratio = pl.rx_power_w(200.0) / pl.rx_power_w(400.0);
        assert!((ratio - 16.0).abs() < 1e-9);
    }

    #[test]
    fn explicit_ranges_override_thresholds() {
        let radio = Radio { rx_range_m: Some(100.0), cs_range_m: Some(300.0), ..Radio::default() };
        let pl = PathLoss::new(&radio);
        let (rx, cs) = thresholds_w(&radio, &pl);
        assert!((pl.range_for_threshold_m(rx) - 100.0).abs() < 0.01);
        assert!((pl.range_for_threshold_m(cs) - 300.0).abs() < 0.01);
    }

    #[test]
    fn rounding_matches_round_half_away_from_zero() {
        let mut x = 0.0f64;
        let two_pow_63 = 2f64.powi(63);
        let below_2_63 = two_pow_63 - 1024.0; // the largest f64 below 2^63
        let cases = [0.5, 1.5, 2.5, 0.49999999999999994, 1e15 + 0.5, 3.4999999, 7.0, 0.0, -0.0]
            .into_iter()
            .chain([below_2_63, two_pow_63, 1e19, -0.3, -0.7, -1e30, f64::NAN])
            .chain((0..64).flat_map(|e| [1.37 * 2f64.powi(e), 2f64.powi(e) + 0.5]));
        for c in cases.into_iter().chain(std::iter::from_fn(|| {
            x += 0.123456789;
            (x < 5000.0).then_some(x)
        })) {
            assert_eq!(round_ns(c), c.round() as u64, "{c}");
        }
    }

    #[test]
    fn delay_at_light_speed() {
        assert_eq!(delay_ns(299.792458), 1000);
    }
}

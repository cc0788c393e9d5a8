//! Receiver noise: thermal noise kTB over the channel (22 MHz for 802.11b, the channel's
//! width for OFDM and HT: phy/standard.rs), raised by the noise figure (ns-3 YansWifiPhy: RxNoiseFigure 7 dB;
//! -174 dBm/Hz at 290 K).

use super::config::Radio;

/// Boltzmann's constant (J/K), exact since the 2019 SI.
const BOLTZMANN_J_PER_K: f64 = 1.380_649e-23;
/// Reference temperature of noise figures (IEEE definition), kelvin.
const T0_K: f64 = 290.0;
/// Noise power at the receiver input, watts.
pub fn noise_floor_w(radio: &Radio) -> f64 {
    BOLTZMANN_J_PER_K
        * T0_K
        * radio.standard.noise_bandwidth_hz(radio.channel_width_mhz)
        * 10f64.powf(radio.noise_figure_db / 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::propagation::w_to_dbm;
    use crate::phy::standard::Standard;

    #[test]
    fn thermal_noise_over_22_mhz_is_minus_100_6_dbm() {
        let radio = Radio { noise_figure_db: 0.0, ..Radio::default() };
        // kT0 = -173.98 dBm/Hz at 290 K, + 10 log10(22e6) = -100.55 dBm (ns-3: -100.5523).
        assert!((w_to_dbm(noise_floor_w(&radio)) - -100.552).abs() < 0.002);
        let nf7 = Radio { noise_figure_db: 7.0, ..Radio::default() };
        assert!((w_to_dbm(noise_floor_w(&nf7)) - -93.552).abs() < 0.002);
        // 20 MHz OFDM: -173.98 + 73.01 = -100.97 dBm (ns-3: -100.97 for 20 MHz).
        let a = Radio { noise_figure_db: 0.0, standard: Standard::A, ..Radio::default() };
        assert!((w_to_dbm(noise_floor_w(&a)) - -100.966).abs() < 0.002);
        // 40 MHz HT: 3.01 dB more.
        let n40 = Radio { channel_width_mhz: 40, standard: Standard::N, ..a };
        assert!((w_to_dbm(noise_floor_w(&n40)) - -97.956).abs() < 0.002);
    }
}

//! Frame success of the OFDM modulations (802.11a/g/n/ac) in white Gaussian noise: the
//! "NIST" model that ns-3 validated for OFDM (G. Pei and T. R. Henderson, "Validation of
//! OFDM error rate model in ns-3", Boeing, 2010), so that hopsim and ns-3 decode alike.
//!
//! * Uncoded bit error rate per subcarrier symbol at SNR s (signal over noise in the channel's
//!   bandwidth): BPSK erfc(sqrt s) / 2, QPSK erfc(sqrt(s / 2)) / 2, square M-QAM with Gray
//!   coding (sqrt M - 1) / (sqrt M log2 sqrt M) erfc(sqrt(3 s / (2 (M - 1)))) (Proakis,
//!   Digital Communications, 5th ed., 4.3-30, nearest-neighbour approximation).
//! * The K = 7 (133, 171) convolutional code, punctured to 2/3, 3/4 and 5/6, decoded with hard
//!   decisions: the union bound P_e <= 1/(2k) sum_d c_d D^d with the Bhattacharyya parameter
//!   D = sqrt(4 p (1 - p)) of the uncoded bit error rate p, over the first ten terms of the
//!   code's distance spectrum (c_d: the information-bit weights; Frenger, Orten and Ottosson,
//!   IEEE Commun. Lett. 3(11), 1999, for 1/2; Haccoun and Begin, IEEE Trans. Commun. 37(11),
//!   1989, and 32(3), 1984, for the punctured rates); k = 1 for rate 1/2 (its spectrum is
//!   per input bit already), the puncturing period's numerator otherwise.
//! * A stretch of n data bits succeeds with probability (1 - min(P_e, 1))^n.

use super::erfc;
use crate::phy::ofdm::{CodeRate, Constellation};

/// The first terms of each code's distance spectrum: (d_free, c_d for d = d_free, d_free +
/// step, ...), and the step (2 for the rate-1/2 mother code, whose distances are even).
struct Spectrum {
    k: f64,
    d_free: i32,
    step: i32,
    c: &'static [f64],
}

const RATE_1_2: Spectrum = Spectrum {
    k: 1.0,
    d_free: 10,
    step: 2,
    c: &[36.0, 211.0, 1404.0, 11633.0, 77433.0, 502690.0, 3322763.0, 21292910.0, 134365911.0],
};
const RATE_2_3: Spectrum = Spectrum {
    k: 2.0,
    d_free: 6,
    step: 1,
    c: &[3.0, 70.0, 285.0, 1276.0, 6160.0, 27128.0, 117019.0, 498860.0, 2103891.0, 8784123.0],
};
const RATE_3_4: Spectrum = Spectrum {
    k: 3.0,
    d_free: 5,
    step: 1,
    c: &[
        42.0,
        201.0,
        1492.0,
        10469.0,
        62935.0,
        379644.0,
        2253373.0,
        13073811.0,
        75152755.0,
        428005675.0,
    ],
};
const RATE_5_6: Spectrum = Spectrum {
    k: 5.0,
    d_free: 4,
    step: 1,
    c: &[
        92.0,
        528.0,
        8694.0,
        79453.0,
        792114.0,
        7375573.0,
        67884974.0,
        610875423.0,
        5427275376.0,
        47664215639.0,
    ],
};

fn spectrum(rate: CodeRate) -> &'static Spectrum {
    match rate {
        CodeRate(1, 2) => &RATE_1_2,
        CodeRate(2, 3) => &RATE_2_3,
        CodeRate(3, 4) => &RATE_3_4,
        CodeRate(5, 6) => &RATE_5_6,
        other => panic!("no 802.11 code rate {}/{}", other.0, other.1),
    }
}

/// The uncoded bit error rate of `c` at SNR `snr` (linear).
pub fn uncoded_ber(c: Constellation, snr: f64) -> f64 {
    let m = f64::from(1u32 << c.bits()); // constellation points
    match c {
        Constellation::Bpsk => 0.5 * erfc(snr.sqrt()),
        Constellation::Qpsk => 0.5 * erfc((snr / 2.0).sqrt()),
        Constellation::Qam16 | Constellation::Qam64 | Constellation::Qam256 => {
            let side = m.sqrt(); // points per axis
            (side - 1.0) / (side * side.log2()) * erfc((3.0 * snr / (2.0 * (m - 1.0))).sqrt())
        }
    }
}

/// The union bound on the decoded bit error rate, for uncoded bit error rate `p`.
pub fn coded_ber_bound(p: f64, rate: CodeRate) -> f64 {
    let s = spectrum(rate);
    let d = (4.0 * p * (1.0 - p)).sqrt();
    let sum: f64 =
        s.c.iter().enumerate().map(|(i, c)| c * d.powi(s.d_free + s.step * i as i32)).sum();
    sum / (2.0 * s.k)
}

/// The probability that `bits` data bits sent with `c` and `rate` at SNR `snr` all decode.
pub fn chunk_success(c: Constellation, rate: CodeRate, snr: f64, bits: f64) -> f64 {
    bit_success(c, rate, snr).powf(bits)
}

/// The success probability of one decoded bit at `snr`: a chunk of n bits succeeds with its
/// n-th power.
pub fn bit_success(c: Constellation, rate: CodeRate, snr: f64) -> f64 {
    let p = uncoded_ber(c, snr);
    if p == 0.0 {
        return 1.0;
    }
    1.0 - coded_ber_bound(p, rate).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::ofdm::OfdmRate;

    fn db(x: f64) -> f64 {
        10f64.powf(x / 10.0)
    }

    #[test]
    fn uncoded_rates_match_the_textbook_values() {
        // BPSK needs Eb/N0 = 9.59 dB for 1e-5: Q(sqrt(2 x 9.10)) = Q(4.265) = 1.0e-5.
        let p = uncoded_ber(Constellation::Bpsk, db(9.59));
        assert!((p / 1e-5 - 1.0).abs() < 0.03, "{p}");
        // QPSK at twice the SNR has BPSK's bit error rate (Gray coding, per bit).
        let (b, q) = (uncoded_ber(Constellation::Bpsk, 3.0), uncoded_ber(Constellation::Qpsk, 6.0));
        assert!((b - q).abs() < 1e-15);
        // 16-QAM: 3/8 erfc(sqrt(s / 10)); at s = 10: 3/8 erfc(1) = 0.0590.
        assert!((uncoded_ber(Constellation::Qam16, 10.0) - 0.375 * 0.157_299_207).abs() < 1e-6);
        // 64-QAM: 7/24 erfc(sqrt(s / 42)); at s = 42: 7/24 erfc(1).
        let want = 7.0 / 24.0 * 0.157_299_207;
        assert!((uncoded_ber(Constellation::Qam64, 42.0) - want).abs() < 1e-6);
        // 256-QAM: 15/64 erfc(sqrt(s / 170)); at s = 170: 15/64 erfc(1).
        let want = 15.0 / 64.0 * 0.157_299_207;
        assert!((uncoded_ber(Constellation::Qam256, 170.0) - want).abs() < 1e-6);
    }

    #[test]
    fn the_bound_starts_at_the_free_distance_term() {
        // For small p, D -> 2 sqrt p and the first term dominates: c_dfree (4p)^(dfree/2) / 2k.
        let p: f64 = 1e-10;
        for (rate, dfree, c, k) in [
            (CodeRate(1, 2), 10, 36.0, 1.0),
            (CodeRate(2, 3), 6, 3.0, 2.0),
            (CodeRate(3, 4), 5, 42.0, 3.0),
            (CodeRate(5, 6), 4, 92.0, 5.0),
        ] {
            let lead = c * (4.0 * p * (1.0 - p)).sqrt().powi(dfree) / (2.0 * k);
            let got = coded_ber_bound(p, rate);
            assert!(got >= lead && got < lead * 1.01, "{rate:?}: {got} vs {lead}");
        }
    }

    /// The SNR at which a 1000-octet frame (the standard's sensitivity test frame) is lost
    /// with probability 10%, by bisection.
    fn snr_db_for_10_percent_per(r: OfdmRate) -> f64 {
        let (c, code) = r.modulation();
        let (mut lo, mut hi) = (-10.0, 40.0);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if chunk_success(c, code, db(mid), 8000.0) < 0.9 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        hi
    }

    /// Faster rates need more SNR, in about the steps of the standard's minimum sensitivity
    /// (Table 17-18: 17 dB from 6 to 54 Mbit/s, each rate 1-4 dB above the one below).
    #[test]
    fn each_rate_needs_more_snr_in_the_standards_steps() {
        let need: Vec<f64> = OfdmRate::ALL.iter().map(|&r| snr_db_for_10_percent_per(r)).collect();
        for (w, r) in need.windows(2).zip(OfdmRate::ALL.windows(2)) {
            let (step, table) =
                (w[1] - w[0], r[1].min_sensitivity_dbm() - r[0].min_sensitivity_dbm());
            assert!(step > 0.0 && (step - table).abs() < 2.5, "{r:?}: {step:.2} dB vs {table}");
        }
        let span = need[7] - need[0];
        assert!((span - 17.0).abs() < 2.0, "6 -> 54 Mbit/s: {span:.2} dB ({need:?})");
        // A frame is (nearly) never lost a few dB above its need, and nearly always below.
        let (c, code) = OfdmRate::R24.modulation();
        assert!(chunk_success(c, code, db(need[4] + 3.0), 8000.0) > 0.999);
        assert!(chunk_success(c, code, db(need[4] - 3.0), 8000.0) < 0.01);
    }
}

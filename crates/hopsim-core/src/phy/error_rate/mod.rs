//! Bit error rates of the 802.11b DSSS/CCK modulations in white Gaussian noise, as functions
//! of the SINR over the 22 MHz channel, and the success probability of a stretch of bits.
//!
//! * 1 Mbit/s DBPSK: Pb = exp(-Eb/N0) / 2 (Proakis, Digital Communications, 5th ed., 5.2-69).
//! * 2 Mbit/s DQPSK (Gray coded, differentially coherent): the exact expression with
//!   Marcum's Q function, Pb = Q1(a, b) - I0(ab) exp(-(a^2 + b^2)/2) / 2,
//!   a = sqrt(2 Eb/N0 (1 - 1/sqrt 2)), b = sqrt(2 Eb/N0 (1 + 1/sqrt 2)) (Proakis 5.2-80).
//! * 5.5 and 11 Mbit/s CCK: Pursley & Royster's approximation (IEEE Trans. Commun. 57(2),
//!   2009, eqs. 17-18), the one ns-3's DsssErrorRateModel uses: a 5.5 Mbit/s symbol (4 bits)
//!   is a 16-ary biorthogonal decision at Es/N0 = 16 SINR, whose error probability is
//!   P16(e) = 1 - integral over x > -b of (2 Phi(x + b) - 1)^7 phi(x) dx, b = sqrt(2e), e = 8 SINR
//!   (Proakis 5.2-?; 8 antipodal pairs); an 11 Mbit/s symbol (8 bits) is two such decisions
//!   at e = 4 SINR: P256 = 1 - (1 - P16)^2. A frame's chunk succeeds with (1 - P)^(bits/4)
//!   or (1 - P)^(bits/8).
//! * For reference, [`cck_union_bound_ber`] gives the union bound of ideal coherent ML
//!   detection over the code's distance spectrum (computed from the codewords of IEEE
//!   802.11-2007 18.4.6.5): about 2.5 dB more optimistic, because it ignores the
//!   differentially detected phase.
//!
//! Eb/N0 = SINR x B / Rb with B = 22 MHz (the DSSS processing gain), as ns-3 derives it. The
//! curves are checked against the frame success rates of Pei & Henderson's validation of
//! ns-3's 802.11b model (tests). They are tabulated once (0.05 dB grid, log-linear
//! interpolation), so a frame costs no special functions.

use std::sync::OnceLock;

/// Signal over noise (linear) below which a bit is a coin toss, above which it never errs.
const TABLE_MIN_DB: f64 = -20.0;
const TABLE_MAX_DB: f64 = 30.0;
const TABLE_STEP_DB: f64 = 0.05;
const BANDWIDTH_HZ: f64 = 22e6;
const CHIP_RATE_HZ: f64 = 11e6;

/// The modulation of each 802.11b rate (IEEE 802.11-2007 clause 18).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modulation {
    Dbpsk1,
    Dqpsk2,
    Cck55,
    Cck11,
}

impl Modulation {
    /// The modulation of a rate in units of 100 kbit/s (10, 20, 55, 110).
    pub fn of_rate(rate_100kbps: u32) -> Modulation {
        match rate_100kbps {
            10 => Modulation::Dbpsk1,
            20 => Modulation::Dqpsk2,
            55 => Modulation::Cck55,
            _ => Modulation::Cck11,
        }
    }

    fn bit_rate_hz(self) -> f64 {
        match self {
            Modulation::Dbpsk1 => 1e6,
            Modulation::Dqpsk2 => 2e6,
            Modulation::Cck55 => 5.5e6,
            Modulation::Cck11 => 11e6,
        }
    }

    /// Bits decided together: 1 (DBPSK, DQPSK bit errors), 4 and 8 (CCK symbols).
    pub fn bits_per_unit(self) -> f64 {
        match self {
            Modulation::Cck55 => 4.0,
            Modulation::Cck11 => 8.0,
            _ => 1.0,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Standard normal tail Q(x) = erfc(x / sqrt 2) / 2.
pub fn q_function(x: f64) -> f64 {
    0.5 * erfc(x / std::f64::consts::SQRT_2)
}

/// Complementary error function (W. J. Cody's rational Chebyshev fits are overkill here:
/// Numerical Recipes' erfc with fractional error < 1.2e-7 everywhere).
pub(super) fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// e^{-x} I0(x) for x >= 0 (scaled modified Bessel function, series / asymptotic).
fn bessel_i0_scaled(x: f64) -> f64 {
    if x < 15.0 {
        // Power series sum (x/2)^{2k} / (k!)^2.
        let mut term = 1.0;
        let mut sum = 1.0;
        let q = x * x / 4.0;
        for k in 1..200 {
            term *= q / (k as f64 * k as f64);
            sum += term;
            if term < 1e-17 * sum {
                break;
            }
        }
        sum * (-x).exp()
    } else {
        // Asymptotic expansion (Abramowitz & Stegun 9.7.1).
        let inv = 1.0 / (8.0 * x);
        let series = 1.0 + inv + 9.0 * inv * inv / 2.0 + 225.0 * inv * inv * inv / 6.0;
        series / (2.0 * std::f64::consts::PI * x).sqrt()
    }
}

/// Marcum's Q1(a, b) = integral from b to infinity of x exp(-(x^2 + a^2)/2) I0(a x) dx,
/// by Simpson's rule on the (well-behaved) scaled integrand.
fn marcum_q1(a: f64, b: f64) -> f64 {
    // b > a here (DQPSK), and the integrand has decayed by exp(-72) 12 past b.
    let upper = b.max(a) + 12.0;
    let n = 600; // even
    let h = (upper - b) / n as f64;
    let f = |x: f64| x * (-(x - a) * (x - a) / 2.0).exp() * bessel_i0_scaled(a * x);
    let mut s = f(b) + f(upper);
    for i in 1..n {
        let x = b + i as f64 * h;
        s += if i % 2 == 1 { 4.0 } else { 2.0 } * f(x);
    }
    (s * h / 3.0).min(1.0)
}

fn ber_dbpsk(eb_n0: f64) -> f64 {
    0.5 * (-eb_n0).exp()
}

fn ber_dqpsk(eb_n0: f64) -> f64 {
    let r = std::f64::consts::FRAC_1_SQRT_2;
    let a = (2.0 * eb_n0 * (1.0 - r)).sqrt();
    let b = (2.0 * eb_n0 * (1.0 + r)).sqrt();
    let second = 0.5 * bessel_i0_scaled(a * b) * (-(a - b) * (a - b) / 2.0).exp();
    (marcum_q1(a, b) - second).clamp(0.0, 0.5)
}

/// The CCK codewords (IEEE 802.11-2007 eq. 18-1): chips
/// (e^{j(p1+p2+p3+p4)}, e^{j(p1+p3+p4)}, e^{j(p1+p2+p4)}, -e^{j(p1+p4)},
///  e^{j(p1+p2+p3)}, e^{j(p1+p3)}, -e^{j(p1+p2)}, e^{j p1}).
fn cck_codeword(p: [f64; 4]) -> [(f64, f64); 8] {
    let [p1, p2, p3, p4] = p;
    let phases = [
        (p1 + p2 + p3 + p4, 1.0),
        (p1 + p3 + p4, 1.0),
        (p1 + p2 + p4, 1.0),
        (p1 + p4, -1.0),
        (p1 + p2 + p3, 1.0),
        (p1 + p3, 1.0),
        (p1 + p2, -1.0),
        (p1, 1.0),
    ];
    phases.map(|(ph, sign)| (sign * ph.cos(), sign * ph.sin()))
}

/// The code's distance spectrum: (squared distance in chip energies, mean number of
/// codewords at that distance from a codeword), over every ordered pair of codewords.
fn cck_distance_spectrum(rate_11: bool) -> Vec<(f64, f64)> {
    use std::f64::consts::{FRAC_PI_2, PI};
    let quarter = |k: usize| k as f64 * FRAC_PI_2;
    let mut words = Vec::new();
    if rate_11 {
        for a in 0..4 {
            for b in 0..4 {
                for c in 0..4 {
                    for d in 0..4 {
                        words.push(cck_codeword([quarter(a), quarter(b), quarter(c), quarter(d)]));
                    }
                }
            }
        }
    } else {
        // 5.5 Mbit/s: p2 = d2 pi + pi/2, p3 = 0, p4 = d3 pi (18.4.6.5.3).
        for a in 0..4 {
            for d2 in 0..2 {
                for d3 in 0..2 {
                    let p = [quarter(a), d2 as f64 * PI + FRAC_PI_2, 0.0, d3 as f64 * PI];
                    words.push(cck_codeword(p));
                }
            }
        }
    }
    let m = words.len() as f64;
    let mut spectrum: Vec<(f64, f64)> = Vec::new();
    for (i, wi) in words.iter().enumerate() {
        for (j, wj) in words.iter().enumerate() {
            if i == j {
                continue;
            }
            let d2: f64 = wi
                .iter()
                .zip(wj.iter())
                .map(|(x, y)| (x.0 - y.0).powi(2) + (x.1 - y.1).powi(2))
                .sum();
            let d2 = (d2 * 1e6).round() / 1e6;
            match spectrum.iter_mut().find(|e| e.0 == d2) {
                Some(e) => e.1 += 1.0 / m,
                None => spectrum.push((d2, 1.0 / m)),
            }
        }
    }
    spectrum.sort_by(|a, b| a.0.total_cmp(&b.0));
    spectrum
}

/// Error probability of a 16-ary biorthogonal decision (8 antipodal pairs) at energy ratio
/// `e` (Pursley & Royster 2009 eq. 17): P16 = Q(b) + integral over x > -b of
/// phi(x) (1 - (1 - 2 Q(x + b))^7) dx, b = sqrt(2 e); the complement form keeps its
/// precision when P16 is tiny.
fn p16(e: f64) -> f64 {
    let b = (2.0 * e).sqrt();
    let phi = |x: f64| (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt();
    let wrong = |x: f64| {
        // The erfc fit can overshoot 0.5 by 1e-9 at 0: a coin toss there.
        let q = q_function(x + b);
        if q >= 0.5 {
            1.0
        } else {
            -(7.0 * (-2.0 * q).ln_1p()).exp_m1()
        }
    };
    let (lo, hi) = (-b, 12.0f64.max(-b + 1.0));
    let n = 600; // even
    let h = (hi - lo) / n as f64;
    let mut sum = phi(lo) * wrong(lo) + phi(hi) * wrong(hi);
    for i in 1..n {
        let x = lo + i as f64 * h;
        sum += if i % 2 == 1 { 4.0 } else { 2.0 } * phi(x) * wrong(x);
    }
    (q_function(b) + sum * h / 3.0).min(1.0)
}

/// Symbol error probability of CCK at a linear SINR (5.5: 4-bit symbols, 11: 8-bit).
fn sep_cck(sinr: f64, rate_11: bool) -> f64 {
    if rate_11 {
        let p = p16(4.0 * sinr);
        1.0 - (1.0 - p) * (1.0 - p)
    } else {
        p16(8.0 * sinr)
    }
}

/// Bit error rate of ideal coherent ML detection of CCK by the union bound (reference only).
pub fn cck_union_bound_ber(sinr: f64, rate_11: bool) -> f64 {
    ber_cck(sinr * BANDWIDTH_HZ / CHIP_RATE_HZ, &cck_distance_spectrum(rate_11))
}

fn ber_cck(ec_n0: f64, spectrum: &[(f64, f64)]) -> f64 {
    let m = 1.0 + spectrum.iter().map(|e| e.1).sum::<f64>();
    let word_error: f64 =
        spectrum.iter().map(|&(d2, count)| count * q_function((d2 * ec_n0 / 2.0).sqrt())).sum();
    (word_error * m / (2.0 * (m - 1.0))).min(0.5)
}

/// The unit error probability at a linear SINR, computed from the formulas (slow: use
/// [`ber`]): a bit error rate for DBPSK/DQPSK, a symbol error rate for CCK (see
/// [`Modulation::bits_per_unit`]).
pub fn ber_exact(m: Modulation, sinr: f64) -> f64 {
    let eb_n0 = sinr * BANDWIDTH_HZ / m.bit_rate_hz();
    match m {
        Modulation::Dbpsk1 => ber_dbpsk(eb_n0),
        Modulation::Dqpsk2 => ber_dqpsk(eb_n0),
        Modulation::Cck55 => sep_cck(sinr, false),
        Modulation::Cck11 => sep_cck(sinr, true),
    }
}

fn tables() -> &'static [Vec<f64>; 4] {
    static TABLES: OnceLock<[Vec<f64>; 4]> = OnceLock::new();
    TABLES.get_or_init(|| {
        let n = ((TABLE_MAX_DB - TABLE_MIN_DB) / TABLE_STEP_DB).round() as usize + 1;
        let grid = |m: Modulation| -> Vec<f64> {
            (0..n)
                .map(|i| {
                    let sinr = 10f64.powf((TABLE_MIN_DB + i as f64 * TABLE_STEP_DB) / 10.0);
                    ber_exact(m, sinr).max(1e-300).ln()
                })
                .collect()
        };
        [
            grid(Modulation::Dbpsk1),
            grid(Modulation::Dqpsk2),
            grid(Modulation::Cck55),
            grid(Modulation::Cck11),
        ]
    })
}

/// The unit error probability of modulation `m` at a linear SINR (tabulated: linear in dB
/// of its logarithm). Below the table: the lowest entry; above: no errors.
pub fn ber(m: Modulation, sinr: f64) -> f64 {
    if sinr <= 0.0 {
        return 0.5;
    }
    let db = 10.0 * sinr.log10();
    let table = &tables()[m.index()];
    if db <= TABLE_MIN_DB {
        return table[0].exp();
    }
    if db.is_nan() || db >= TABLE_MAX_DB {
        return 0.0; // above the table, or an infinite SINR (no interference, no noise)
    }
    let x = (db - TABLE_MIN_DB) / TABLE_STEP_DB;
    let i = (x.floor() as usize).min(table.len() - 2);
    let f = x - i as f64;
    let ln = table[i] * (1.0 - f) + table[i + 1] * f;
    if ln < -690.0 {
        0.0
    } else {
        ln.exp()
    }
}

/// Probability that `bits` bits at modulation `m` and a constant SINR all arrive intact.
pub fn chunk_success(m: Modulation, sinr: f64, bits: f64) -> f64 {
    let p = ber(m, sinr);
    if p <= 0.0 {
        1.0
    } else {
        ((-p).ln_1p() * bits / m.bits_per_unit()).exp()
    }
}

pub mod ofdm;

#[cfg(test)]
mod tests;

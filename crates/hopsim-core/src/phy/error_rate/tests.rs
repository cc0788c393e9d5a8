use super::*;

fn db(x: f64) -> f64 {
    10f64.powf(x / 10.0)
}

/// SINR at which modulation `m` sees Eb/N0 = `eb_n0_db`.
fn sinr_for_eb_n0(m: Modulation, eb_n0_db: f64) -> f64 {
    db(eb_n0_db) * m.bit_rate_hz() / BANDWIDTH_HZ
}

#[test]
fn q_function_matches_tables() {
    // Standard normal tail values (Abramowitz & Stegun table 26.1).
    for (x, q) in [(0.0, 0.5), (1.0, 0.158_655_25), (2.0, 0.022_750_13), (3.0, 1.349_898e-3)] {
        assert!((q_function(x) - q).abs() < 2e-7 * q.max(1e-3) * 10.0, "Q({x})");
    }
    assert!((q_function(4.753_424) / 1e-6 - 1.0).abs() < 1e-3);
}

#[test]
fn dbpsk_is_half_exp_minus_eb_n0() {
    // Proakis 5.2-69: Pb = exp(-Eb/N0)/2; 10 dB -> 2.27e-5.
    let s = sinr_for_eb_n0(Modulation::Dbpsk1, 10.0);
    let b = ber_exact(Modulation::Dbpsk1, s);
    assert!((b - 0.5 * (-10f64).exp()).abs() < 1e-12, "{b}");
    // 1 Mbit/s has a processing gain of 22: Eb/N0 = 10 dB at SINR = -3.4 dB.
    assert!((10.0 * s.log10() - -3.424).abs() < 1e-3);
}

#[test]
fn dqpsk_costs_about_2_3_db_more_than_coherent_qpsk() {
    // Differentially coherent QPSK needs about 2.3 dB more Eb/N0 than coherent QPSK at
    // high SNR (Proakis 5.2.8); coherent QPSK reaches 1e-5 at 9.59 dB.
    let target = 1e-5;
    let (mut lo, mut hi) = (5.0, 20.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        let b = ber_exact(Modulation::Dqpsk2, sinr_for_eb_n0(Modulation::Dqpsk2, mid));
        if b > target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let penalty = lo - 9.59;
    assert!((1.9..2.7).contains(&penalty), "DQPSK reaches 1e-5 at {lo} dB");
    // At Eb/N0 = 0 the exact expression gives 0.5 - ... > 0.1; monotone decreasing.
    let mut last = 1.0;
    for eb in [0.0, 4.0, 8.0, 12.0] {
        let b = ber_exact(Modulation::Dqpsk2, sinr_for_eb_n0(Modulation::Dqpsk2, eb));
        assert!(b < last, "not decreasing at {eb} dB");
        last = b;
    }
}

/// Frame success rates of an 8624-bit frame against SNR: the values of Pei & Henderson's
/// validation of ns-3's 802.11b model ("Validation of ns-3 802.11b PHY model", 80211b.c),
/// as ns-3's error-rate test suite checks them (noise: kTB over 22 MHz + 7 dB).
#[test]
fn frame_success_matches_the_published_validation() {
    let cases: [(Modulation, [(f64, f64); 3]); 4] = [
        (Modulation::Dbpsk1, [(-4.45, 0.202), (-3.45, 0.813), (-2.45, 0.984)]),
        (Modulation::Dqpsk2, [(-0.45, 0.036), (0.55, 0.519), (1.55, 0.915)]),
        (Modulation::Cck55, [(2.55, 0.132), (3.55, 0.744), (4.55, 0.974)]),
        (Modulation::Cck11, [(5.55, 0.128), (6.55, 0.739), (7.55, 0.973)]),
    ];
    for (m, points) in cases {
        for (snr_db, fsr) in points {
            let ours = chunk_success(m, db(snr_db), 8624.0);
            // Within 0.03 absolute, or 15% relative for the small success rates.
            let ok = (ours - fsr).abs() < 0.03 || (ours / fsr - 1.0).abs() < 0.15;
            assert!(ok, "{m:?} at {snr_db} dB: success {ours:.4}, published {fsr}");
        }
    }
}

#[test]
fn union_bound_is_the_optimistic_reference_for_cck() {
    // The coherent union bound ignores the differential phase: it needs less SINR.
    for sinr_db in [3.0, 5.0, 7.0] {
        let s = db(sinr_db);
        assert!(cck_union_bound_ber(s, true) < ber_exact(Modulation::Cck11, s) / 8.0);
    }
}

#[test]
fn cck_codes_have_the_standard_minimum_distances() {
    // With unit chips the 8-chip codewords have energy 8; the closest distinct codewords
    // of CCK differ by d^2 = 8 (11 Mbit/s) and 16 (5.5 Mbit/s: the code is a subset).
    let s11 = cck_distance_spectrum(true);
    let s55 = cck_distance_spectrum(false);
    assert!((s11[0].0 - 8.0).abs() < 1e-6, "{:?}", &s11[..3]);
    assert!((s55[0].0 - 16.0).abs() < 1e-6, "{:?}", &s55[..3]);
    let m11: f64 = 1.0 + s11.iter().map(|e| e.1).sum::<f64>();
    let m55: f64 = 1.0 + s55.iter().map(|e| e.1).sum::<f64>();
    assert!((m11 - 256.0).abs() < 1e-9 && (m55 - 16.0).abs() < 1e-9);
}

#[test]
fn faster_rates_need_more_sinr() {
    // At every SINR the error rates order as the rates: 1 < 2 < 5.5 < 11 Mbit/s.
    for sinr_db in [-2.0, 2.0, 5.0, 8.0] {
        let s = db(sinr_db);
        let b: Vec<f64> =
            [Modulation::Dbpsk1, Modulation::Dqpsk2, Modulation::Cck55, Modulation::Cck11]
                .iter()
                .map(|&m| ber_exact(m, s))
                .collect();
        assert!(b[0] < b[1] && b[1] < b[2] && b[2] < b[3], "at {sinr_db} dB: {b:?}");
    }
}

#[test]
fn table_matches_the_formulas() {
    for m in [Modulation::Dbpsk1, Modulation::Dqpsk2, Modulation::Cck55, Modulation::Cck11] {
        for sinr_db in [-6.0, -1.234, 0.0, 3.3, 7.77, 10.0] {
            let exact = ber_exact(m, db(sinr_db));
            let tab = ber(m, db(sinr_db));
            if exact > 1e-12 {
                assert!(
                    (tab / exact - 1.0).abs() < 0.01,
                    "{m:?} at {sinr_db} dB: {tab} vs {exact}"
                );
            }
        }
    }
    assert_eq!(ber(Modulation::Cck11, 0.0), 0.5);
    assert_eq!(ber(Modulation::Dbpsk1, db(45.0)), 0.0);
}

#[test]
fn chunk_success_is_the_product_over_bits() {
    let s = db(2.0);
    let p = ber(Modulation::Cck11, s);
    let whole = chunk_success(Modulation::Cck11, s, 8000.0);
    let halves = chunk_success(Modulation::Cck11, s, 4000.0).powi(2);
    assert!((whole - halves).abs() < 1e-12);
    assert!((whole - (1.0 - p).powf(1000.0)).abs() < 1e-9, "8000 bits = 1000 CCK-11 symbols");
}

/// Regression (fuzzing, issue 12): an infinite SINR (radio.frequency_hz = 1e-300 made the
/// received power infinite) indexed past the table. Any SINR gives a probability now.
#[test]
fn any_sinr_gives_a_probability() {
    for m in [Modulation::Dbpsk1, Modulation::Dqpsk2, Modulation::Cck55, Modulation::Cck11] {
        assert_eq!(ber(m, f64::INFINITY), 0.0);
        assert_eq!(ber(m, f64::MAX), 0.0);
        assert_eq!(ber(m, 1e3), 0.0); // 30 dB: the table's top
        assert!((0.0..=1.0).contains(&ber(m, 0.0)));
        assert!((0.0..=1.0).contains(&ber(m, f64::MIN_POSITIVE)), "a symbol error rate for CCK");
        assert!((0.0..=1.0).contains(&chunk_success(m, f64::INFINITY, 8000.0)));
    }
}

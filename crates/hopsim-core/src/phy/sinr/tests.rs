use super::*;
use crate::engine::time::us;
use crate::ids::NodeId;
use crate::phy::error_rate::{chunk_success, ofdm as ofdm_error, Modulation};
use crate::phy::ofdm::{CodeRate, Constellation};

const A: FrameRef = FrameRef { tx: NodeId(1), serial: 0 };
const B: FrameRef = FrameRef { tx: NodeId(2), serial: 0 };

fn psdu(rate: u32, bytes: u32) -> Psdu<'static> {
    Psdu { rate, bytes, subframes: &[] }
}

fn dbm(x: f64) -> f64 {
    10f64.powf(x / 10.0) * 1e-3
}

/// Noise -93.55 dBm (kTB over 22 MHz + 7 dB), CS -82 dBm, detection -82 dBm, 4 dB preamble.
fn radio() -> SinrRadio {
    SinrRadio::new(
        dbm(-93.55),
        dbm(-82.0),
        dbm(-82.0),
        4.0,
        Rng::derive(1, crate::engine::rng::Purpose::FrameError, 99),
    )
}

/// A 1000-byte MPDU at 11 Mbit/s: 192 us + 728 us.
const END: SimTime = us(192 + 728);

#[test]
fn strong_lone_frame_is_received() {
    let mut r = radio();
    let (early, busy) = r.signal_start(A, dbm(-60.0), (0, END), psdu(110, 1000));
    assert!(early.is_none());
    assert_eq!(busy, Some((0, END)), "receiving keeps the medium busy");
    assert!((r.locked_success().unwrap() - 1.0).abs() < 1e-12);
    assert_eq!(
        r.signal_end(A),
        RxEnd::Locked { ok: true, overlapped: false, parts: all_or_none(true) }
    );
}

#[test]
fn weak_distant_interferer_is_harmless_strong_one_is_not() {
    // Signal at -70 dBm; an interferer 30 dB weaker (SINR ~ 23 dB) leaves 11 Mbit/s intact,
    // one 3 dB weaker (SINR ~ 3 dB) in the middle of the payload ruins it.
    for (interferer_dbm, expect_ok) in [(-100.0, true), (-73.0, false)] {
        let mut r = radio();
        r.signal_start(A, dbm(-70.0), (0, END), psdu(110, 1000));
        r.signal_start(B, dbm(interferer_dbm), (us(400), us(700)), psdu(110, 400));
        let p = r.locked_success().unwrap();
        if expect_ok {
            assert!(p > 0.999, "p = {p}");
        } else {
            assert!(p < 1e-6, "p = {p}");
        }
        assert_eq!(r.signal_end(B), RxEnd::Missed);
        assert_eq!(
            r.signal_end(A),
            RxEnd::Locked { ok: expect_ok, overlapped: true, parts: all_or_none(expect_ok) }
        );
    }
}

#[test]
fn sinr_is_evaluated_chunk_by_chunk() {
    // A short interferer over 100 us of the payload: the success probability is the
    // product of the clean stretches and the interfered one.
    let mut r = radio();
    let (s, i) = (dbm(-80.0), dbm(-84.0));
    r.signal_start(A, s, (0, END), psdu(110, 1000));
    r.signal_start(B, i, (us(500), us(600)), psdu(10, 10));
    let bits_per_ns = 8000.0 / (END - us(192)) as f64;
    let noise = dbm(-93.55);
    let m = Modulation::Cck11;
    let clean = chunk_success(m, s / noise, (END - us(192) - us(100)) as f64 * bits_per_ns);
    let hit = chunk_success(m, s / (noise + i), us(100) as f64 * bits_per_ns);
    let header = chunk_success(Modulation::Dbpsk1, s / noise, 48.0);
    let expected = header * clean * hit;
    let got = r.locked_success().unwrap();
    assert!((got - expected).abs() < 1e-12, "{got} vs {expected}");
    assert!(hit < 0.5 && clean > 0.9, "the interfered stretch decides: {hit} {clean}");
}

#[test]
fn preamble_needs_power_and_sinr() {
    let mut r = radio();
    // Below the detection threshold: not locked, and not enough energy for carrier sense.
    let (_, busy) = r.signal_start(A, dbm(-85.0), (0, END), psdu(20, 1000));
    assert!(r.lock.is_none() && busy.is_none());
    assert_eq!(r.signal_end(A), RxEnd::Missed);
    // Above the threshold but under a strong ongoing signal: SINR < 4 dB, not locked.
    let mut r = radio();
    r.signal_start(B, dbm(-70.0), (0, us(2000)), psdu(20, 400));
    r.signal_end(B); // (ends early for the test, so B is not the lock)
    let mut r = radio();
    r.signal_start(B, dbm(-72.0), (0, us(2000)), psdu(20, 400));
    let l = r.lock.unwrap();
    assert_eq!(l.signal.frame, B);
    r.signal_start(A, dbm(-71.0), (us(100), END), psdu(20, 1000));
    assert_eq!(r.lock.unwrap().signal.frame, B, "no capture: the first frame keeps the lock");
}

#[test]
fn energy_detection_sums_signals() {
    // Two signals of -85 dBm each: each alone is below -82 dBm, together -82 dBm.
    let mut r = radio();
    let (_, b1) = r.signal_start(A, dbm(-85.0), (0, us(1000)), psdu(20, 100));
    assert!(b1.is_none());
    let (_, b2) = r.signal_start(B, dbm(-84.9), (us(200), us(1500)), psdu(20, 100));
    assert_eq!(b2, Some((us(200), us(1000))), "busy while both are on the air");
    assert!(r.signal_busy_at(us(500)) && !r.signal_busy_at(us(1200)));
}

#[test]
fn transmitting_kills_the_reception() {
    let mut r = radio();
    r.signal_start(A, dbm(-60.0), (0, END), psdu(110, 1000));
    r.start_tx(us(300), us(600));
    assert_eq!(
        r.signal_end(A),
        RxEnd::Locked { ok: false, overlapped: false, parts: all_or_none(false) }
    );
}

/// 802.11a's thresholds: detection at -82 dBm, energy detection at -62 dBm.
fn ofdm_radio() -> SinrRadio {
    SinrRadio::for_standard(
        Standard::A,
        dbm(-93.97),
        dbm(-62.0),
        dbm(-82.0),
        4.0,
        Rng::derive(1, crate::engine::rng::Purpose::FrameError, 99),
    )
}

#[test]
fn a_detectable_frame_missed_during_a_reception_keeps_the_medium_busy_to_its_end() {
    // Timeline (us):   0 .......... 1000                 A: -70 dBm, locked
    //                        300 ................ 1500   B: -75 dBm, arrives during A
    // B is above the -82 dBm detection threshold but far below -62 dBm energy detection;
    // as in ns-3 (CCA busy while the energy is at least CcaSensitivity once a PPDU has been
    // seen), the medium stays busy after A ends, until B does.
    let mut r = ofdm_radio();
    r.signal_start(A, dbm(-70.0), (0, us(1000)), psdu(60, 500));
    let (_, busy) = r.signal_start(B, dbm(-75.0), (us(300), us(1500)), psdu(60, 800));
    assert_eq!(busy, Some((us(300), us(1500))));
    assert!(r.signal_busy_at(us(1200)), "A is over, B is not");
    // A signal under the detection threshold is heard by energy only: not busy.
    let mut r = ofdm_radio();
    r.signal_start(A, dbm(-70.0), (0, us(1000)), psdu(60, 500));
    let (_, busy) = r.signal_start(B, dbm(-85.0), (us(300), us(1500)), psdu(60, 800));
    assert_eq!(busy, Some((us(300), us(1000))), "busy with A, not after it");
}

#[test]
fn ofdm_frames_succeed_by_their_signal_field_and_data_symbols() {
    // 1000-byte MPDU at 54 Mbit/s: 16 + 4 + 4 ceil(8022 / 216) = 20 + 152 us.
    let end = us(20 + 152);
    let noise = dbm(-93.97);
    for (power_dbm, lo, hi) in [(-60.0, 0.999_999, 1.0), (-76.0, 0.0, 1e-3)] {
        let mut r = ofdm_radio();
        r.signal_start(A, dbm(power_dbm), (0, end), psdu(540, 1000));
        let snr = dbm(power_dbm) / noise;
        let (c, code) = crate::phy::ofdm::OfdmRate::R54.modulation();
        let expected = ofdm_error::chunk_success(Constellation::Bpsk, CodeRate(1, 2), snr, 24.0)
            * ofdm_error::chunk_success(c, code, snr, (16 + 8000 + 6) as f64);
        let got = r.locked_success().unwrap();
        assert!((got - expected).abs() < 1e-9 * expected.max(1e-300), "{got} vs {expected}");
        assert!((lo..=hi).contains(&got), "{power_dbm} dBm: {got}");
    }
}

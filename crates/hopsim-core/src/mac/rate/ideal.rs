//! SNR-ideal rate control, as ns-3.44's IdealWifiManager: every receiver tells the sender
//! the SNR at which it received the frame it answers (in the CTS, ACK or BlockAck: mac/frame.rs
//! `snr_cdb`), and the sender sends its next frame at the fastest rate whose SNR threshold is
//! not above the last SNR told: the least SNR at which the receiver's error model loses at
//! most one bit in 10^6 (IdealWifiManager's BerThreshold). Before the first answer it sends at
//! the slowest rate. The candidates: the standard's non-HT rates; for HT and VHT stations
//! every MCS of the channel's width and guard interval with at most as many streams as
//! antennas (ns-3 also tries narrower widths and the long GI; on one channel of one width a
//! narrower transmission only loses, and the short GI is faster at the same threshold).

use crate::mac::timing::Rate;
use crate::phy::mcs::McsMode;
use crate::phy::sinr::payload_bit_error;
use crate::phy::standard::Standard;

/// IdealWifiManager's BerThreshold.
pub const BER_THRESHOLD: f64 = 1e-6;

/// What an SNR-ideal station may send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdealConfig {
    pub width_mhz: u32,
    pub short_gi: bool,
    /// Antennas: the most spatial streams.
    pub max_streams: u8,
}

/// The candidates, fastest first, with their thresholds in 0.01 dB.
#[derive(Debug, Clone)]
pub struct Ideal {
    table: Vec<(i16, Rate)>,
}

impl Ideal {
    pub fn new(standard: Standard, cfg: IdealConfig) -> Ideal {
        let mut rates: Vec<Rate> = standard.rate_ladder().iter().map(|&r| Rate(r)).collect();
        if standard.is_ht() {
            rates = mcs_candidates(standard, cfg).into_iter().map(Rate::mcs).collect();
        }
        let mut table: Vec<(i16, Rate)> =
            rates.into_iter().map(|r| (threshold_cdb(standard, r), r)).collect();
        table.sort_by(|a, b| b.1.mbps().total_cmp(&a.1.mbps()).then(a.0.cmp(&b.0)));
        Ideal { table }
    }

    /// The rate for a peer last heard to receive at `snr_cdb` (None: never).
    pub fn rate_for(&self, snr_cdb: Option<i16>) -> Rate {
        let slowest = self.table.last().expect("a standard has rates").1;
        let Some(snr) = snr_cdb else { return slowest };
        self.table.iter().find(|(t, _)| *t <= snr).map_or(slowest, |&(_, r)| r)
    }

    /// Every candidate with its threshold, fastest first (tests, docs).
    pub fn table(&self) -> &[(i16, Rate)] {
        &self.table
    }
}

fn mcs_candidates(standard: Standard, cfg: IdealConfig) -> Vec<McsMode> {
    let mut out = Vec::new();
    for streams in 1..=cfg.max_streams.max(1) {
        if standard.is_vht() {
            for mcs in 0..=9 {
                out.extend(McsMode::vht(mcs, streams, cfg.width_mhz, cfg.short_gi));
            }
        } else {
            for i in 0..8 {
                out.extend(McsMode::ht(8 * (streams - 1) + i, cfg.width_mhz, cfg.short_gi));
            }
        }
    }
    out
}

/// The least SNR (0.01 dB) at which a payload bit at `rate` is lost with probability at most
/// [`BER_THRESHOLD`]: bisection on the error model (its BER falls as the SNR grows).
fn threshold_cdb(standard: Standard, rate: Rate) -> i16 {
    let ber = |cdb: f64| payload_bit_error(standard, rate.0, 10f64.powf(cdb / 1000.0));
    let (mut lo, mut hi) = (-3_000.0f64, 8_000.0f64);
    while hi - lo > 0.5 {
        let mid = 0.5 * (lo + hi);
        if ber(mid) > BER_THRESHOLD {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi.ceil() as i16
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(width_mhz: u32, max_streams: u8) -> IdealConfig {
        IdealConfig { width_mhz, short_gi: false, max_streams }
    }

    #[test]
    fn thresholds_meet_the_ber_target_and_grow_with_the_rate() {
        let ideal = Ideal::new(Standard::A, cfg(20, 1));
        let t = ideal.table();
        assert_eq!(t.len(), 8);
        assert_eq!(t[0].1, Rate(540));
        for &(cdb, r) in t {
            let at = |c: f64| payload_bit_error(Standard::A, r.0, 10f64.powf(c / 1000.0));
            assert!(at(f64::from(cdb)) <= BER_THRESHOLD, "{r:?} at {cdb}");
            assert!(at(f64::from(cdb) - 10.0) > BER_THRESHOLD, "{r:?}: not the least SNR");
        }
        // Faster OFDM rates need more SNR, except 9 Mbit/s (BPSK 3/4), which needs more
        // than 12 (QPSK 1/2): the list is by rate, and the choice takes the first that fits.
        assert!(t[0].0 > t[1].0 && t[1].0 > t[2].0);
    }

    #[test]
    fn the_fastest_rate_whose_threshold_is_met_is_chosen() {
        let ideal = Ideal::new(Standard::A, cfg(20, 1));
        assert_eq!(ideal.rate_for(None), Rate(60), "nothing heard yet: the slowest");
        assert_eq!(ideal.rate_for(Some(5_000)), Rate(540), "50 dB: 54 Mbit/s");
        assert_eq!(ideal.rate_for(Some(-500)), Rate(60), "below every threshold: the slowest");
        let at = |r: u32| ideal.table().iter().find(|e| e.1 == Rate(r)).unwrap().0;
        let (t24, t36) = (at(240), at(360));
        assert_eq!(ideal.rate_for(Some(t36 - 1)), Rate(240));
        assert_eq!(ideal.rate_for(Some(t36)), Rate(360));
        assert!(t24 < t36);
    }

    #[test]
    fn ht_and_vht_candidates_follow_width_streams_and_the_standards_exclusions() {
        let n = Ideal::new(Standard::N, cfg(40, 2));
        assert_eq!(n.table().len(), 16);
        assert_eq!(n.rate_for(Some(6_000)), Rate::mcs(McsMode::ht(15, 40, false).unwrap()));
        // MCS 15 decodes at MCS 7's SNR (each stream alike): it is preferred there.
        let t7 = n.table().iter().find(|e| e.1 == Rate::mcs(McsMode::ht(7, 40, false).unwrap()));
        assert_eq!(n.rate_for(Some(t7.unwrap().0)), Rate::mcs(McsMode::ht(15, 40, false).unwrap()));
        // VHT 20 MHz, one stream: MCS 9 does not exist there.
        let ac = Ideal::new(Standard::Ac, cfg(20, 1));
        assert_eq!(ac.table().len(), 9);
        assert_eq!(ac.rate_for(Some(6_000)), Rate::mcs(McsMode::vht(8, 1, 20, false).unwrap()));
    }
}

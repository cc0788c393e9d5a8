//! How the bits of a frame sit on the air, from its start: the stretches that carry bits
//! and their coding (the header at its own rate, then the payload), and the success of a
//! chunk of them at a given SINR.

use super::super::dsss::{self, PLCP_HEADER_BITS};
use super::super::error_rate::{chunk_success, ofdm as ofdm_error, Modulation};
use super::super::mcs::McsMode;
use super::super::ofdm::{self, CodeRate, Constellation, OfdmRate};
use super::super::standard::Standard;
use crate::engine::time::{us, SimDuration};

/// How the bits of a frame sit on the air, from its start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Coding {
    Dsss(Modulation),
    Ofdm(Constellation, CodeRate),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Layout {
    /// The header (PLCP header / SIGNAL field): offsets from the start, bits, coding.
    pub(super) header: (SimDuration, SimDuration, f64, Coding),
    /// The payload from this offset to (end - `tail_silence`), its bits, its coding.
    pub(super) payload_from: SimDuration,
    pub(super) tail_silence: SimDuration,
    pub(super) payload_bits: f64,
    pub(super) payload: Coding,
    /// Spatial streams of the payload (the header is one).
    pub(super) streams: u32,
}

impl Layout {
    pub(super) fn of(standard: Standard, rate_100kbps: u32, mpdu_bytes: u32) -> Layout {
        if let Some(m) = McsMode::from_code(rate_100kbps) {
            let (c, code) = m.modulation();
            let bpsk = Coding::Ofdm(Constellation::Bpsk, CodeRate(1, 2));
            let sig = ofdm::PREAMBLE_NS;
            return Layout {
                // L-SIG (24 bits, 4 us) and HT-SIG or VHT-SIG-A (48 bits, 8 us), all BPSK 1/2
                // (19.3.9.3.5, 19.3.9.4.3, 21.3.8.3.3); then the training fields, which carry
                // no bits. VHT-SIG-B (26-29 bits BPSK 1/2 after the VHT-LTFs, 21.3.8.3.6) is
                // not decoded apart: ns-3.44 gives SU PPDUs none (phy/vht.rs).
                header: (sig, sig + us(12), 72.0, bpsk),
                payload_from: m.preamble_ns(),
                tail_silence: 0,
                payload_bits: f64::from(m.data_bits(mpdu_bytes)),
                payload: Coding::Ofdm(c, code),
                streams: m.streams(),
            };
        }
        match OfdmRate::from_kbps(100 * rate_100kbps) {
            Some(r) => {
                let (c, code) = r.modulation();
                let bpsk = Coding::Ofdm(Constellation::Bpsk, CodeRate(1, 2));
                let start = ofdm::PREAMBLE_NS;
                Layout {
                    // SIGNAL: RATE, LENGTH, parity and tail, 24 bits in one symbol (17.3.4).
                    header: (start, start + ofdm::SIGNAL_NS, 24.0, bpsk),
                    payload_from: start + ofdm::SIGNAL_NS,
                    tail_silence: standard.signal_extension_ns(),
                    payload_bits: (ofdm::SERVICE_BITS + 8 * mpdu_bytes + ofdm::TAIL_BITS) as f64,
                    payload: Coding::Ofdm(c, code),
                    streams: 1,
                }
            }
            None => Layout {
                header: (
                    dsss::PREAMBLE_NS,
                    dsss::PLCP_NS,
                    PLCP_HEADER_BITS as f64,
                    Coding::Dsss(Modulation::Dbpsk1),
                ),
                payload_from: dsss::PLCP_NS,
                tail_silence: 0,
                payload_bits: 8.0 * mpdu_bytes as f64,
                payload: Coding::Dsss(Modulation::of_rate(rate_100kbps)),
                streams: 1,
            },
        }
    }
}

/// The probability that one payload bit of a frame sent at `rate_100kbps` is lost at SNR
/// `snr` (linear), by the error model the receiver decodes with: what an SNR-ideal sender
/// compares with its bit-error threshold (ns-3.44 ErrorRateModel::CalculateSnr asks the same
/// of its model, a chunk of one bit).
pub fn payload_bit_error(standard: Standard, rate_100kbps: u32, snr: f64) -> f64 {
    1.0 - success(Layout::of(standard, rate_100kbps, 0).payload, snr, 1.0)
}

pub(super) fn success(coding: Coding, sinr: f64, bits: f64) -> f64 {
    match coding {
        Coding::Dsss(m) => chunk_success(m, sinr, bits),
        Coding::Ofdm(c, r) => ofdm_error::chunk_success(c, r, sinr, bits),
    }
}

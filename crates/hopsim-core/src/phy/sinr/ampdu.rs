//! Reception of an A-MPDU: one PPDU whose PSDU is a train of subframes, each an MPDU with
//! its own FCS (IEEE 802.11-2016 9.7). The PHY header is decoded once; then each MPDU is
//! decoded or not by itself, over the stretch of the DATA field its bits occupy, with a draw
//! of its own, as ns-3.44's PhyEntity::EndOfMpdu / GetReceptionStatus judge each MPDU of an
//! A-MPDU. The subframes' bits follow the 16 SERVICE bits in order (9.7.1; 19.3.11.2).

use super::{Coding, Cuts, PayloadGeometry, SinrRadio};
use crate::engine::time::SimTime;
use crate::phy::ofdm::SERVICE_BITS;

/// The octets of each subframe of the frame being received (none for a single MPDU).
#[derive(Debug, Clone, Default)]
pub(super) struct Subframes {
    octets: Vec<u16>,
}

impl Subframes {
    pub(super) fn set(&mut self, subframes: &[u16]) {
        self.octets.clear();
        self.octets.extend_from_slice(subframes);
    }

    pub(super) fn len(&self) -> usize {
        self.octets.len()
    }
}

impl SinrRadio {
    /// Which MPDUs of the locked A-MPDU are decoded: none if its header fails (one draw),
    /// else each by a draw against the success of its own bits.
    pub(super) fn ampdu_parts(&mut self, l: &super::Lock) -> u64 {
        let (p_header, g) = self.lock_geometry(l);
        if self.rng.uniform() >= p_header {
            return 0;
        }
        let Coding::Ofdm(c, r) = g.coding else { unreachable!("A-MPDUs are HT PPDUs") };
        // ln P(bit ok) per stretch of constant SINR, worked out once for all the MPDUs (the
        // product over an MPDU's bits of the stretch_success it would get alone).
        let mut cuts: Cuts = [0; 34];
        let n = self.cuts(g.span, &mut cuts);
        let mut ln_q = [0.0; 34];
        for k in 0..n - 1 {
            let q = self.bit_cache.bit_success(c, r, self.sinr_at(g.power_w, cuts[k]));
            ln_q[k] = q.ln();
        }
        let mut parts = 0;
        let mut bit = f64::from(SERVICE_BITS);
        for i in 0..self.lock_parts.len() {
            let bits = 8.0 * f64::from(self.lock_parts.octets[i]);
            let (from, to) = (at(&g, bit), at(&g, bit + bits).min(g.span.1));
            bit += bits;
            let mut ln_p = 0.0;
            for k in 0..n - 1 {
                let (a, b) = (cuts[k].max(from), cuts[k + 1].min(to));
                if b > a {
                    ln_p += ln_q[k] * (b - a) as f64 * g.density;
                }
            }
            if self.rng.uniform() < ln_p.exp() {
                parts |= 1 << i;
            }
        }
        parts
    }
}

/// The moment the payload's `bit`-th bit is on the air.
fn at(g: &PayloadGeometry, bit: f64) -> SimTime {
    g.span.0 + (bit / g.density).round() as SimTime
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::{Purpose, Rng};
    use crate::ids::NodeId;
    use crate::phy::ht::{HtMode, HtWidth};
    use crate::phy::radio::FrameRef;
    use crate::phy::radio::{Psdu, RxEnd};
    use crate::phy::standard::Standard;

    const A: FrameRef = FrameRef { tx: NodeId(1), serial: 0 };
    const B: FrameRef = FrameRef { tx: NodeId(2), serial: 0 };

    fn dbm(x: f64) -> f64 {
        10f64.powf(x / 10.0) * 1e-3
    }

    /// Ten 1544-octet subframes (the last without its 2 octets of padding) at MCS 7, 20 MHz:
    /// 15,438 octets, (16 + 123,504 + 6) / 260 -> 476 symbols after 36 us of preamble.
    const SUBFRAMES: [u16; 10] = [1544, 1544, 1544, 1544, 1544, 1544, 1544, 1544, 1544, 1542];

    fn mcs7() -> HtMode {
        HtMode::new(7, HtWidth::Mhz20, false).unwrap()
    }

    fn radio() -> SinrRadio {
        // 20 MHz noise with 7 dB noise figure: -93.99 dBm.
        let rng = Rng::derive(3, Purpose::FrameError, 7);
        SinrRadio::for_standard(Standard::N, dbm(-93.99), dbm(-62.0), dbm(-82.0), 4.0, rng)
    }

    fn psdu() -> Psdu<'static> {
        let bytes = SUBFRAMES.iter().map(|&b| u32::from(b)).sum();
        Psdu { rate: mcs7().code(), bytes, subframes: &SUBFRAMES }
    }

    /// When the payload's bit `bit` is on the air, from the PPDU's start (the DATA field's bits
    /// spread evenly over its 476 symbols).
    fn bit_at_ns(bit: f64) -> SimTime {
        let m = mcs7();
        let bytes = psdu().bytes;
        let data_ns = (m.txtime_ns(bytes, false) - m.preamble_ns()) as f64;
        m.preamble_ns() + (bit / f64::from(m.data_bits(bytes)) * data_ns) as SimTime
    }

    #[test]
    fn a_clean_a_mpdu_is_decoded_whole() {
        let mut r = radio();
        let end = mcs7().txtime_ns(psdu().bytes, false);
        assert_eq!(end, 36_000 + 476 * 4_000);
        r.signal_start(A, dbm(-60.0), (0, end), psdu());
        assert_eq!(r.signal_end(A), RxEnd::Locked { ok: true, overlapped: false, parts: 0x3ff });
    }

    #[test]
    fn an_interferer_over_the_last_subframes_takes_only_those() {
        // A -65 dBm interferer (about 5 dB of SINR: 64-QAM 5/6 cannot live with it) from the
        // middle of subframe 7 to the end: subframes 0-6 survive, 7-9 are lost.
        let mut r = radio();
        let end = mcs7().txtime_ns(psdu().bytes, false);
        r.signal_start(A, dbm(-60.0), (0, end), psdu());
        let from = bit_at_ns(16.0 + 8.0 * 1544.0 * 7.5);
        r.signal_start(B, dbm(-65.0), (from, end + 1000), psdu());
        match r.signal_end(A) {
            RxEnd::Locked { ok, parts, .. } => {
                assert!(ok);
                assert_eq!(parts, 0x7f, "{parts:#b}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_interferer_over_the_phy_header_takes_everything() {
        // Over L-SIG and HT-SIG (16-28 us): BPSK 1/2 at about -1 dB of SINR.
        let mut r = radio();
        let end = mcs7().txtime_ns(psdu().bytes, false);
        r.signal_start(A, dbm(-60.0), (0, end), psdu());
        r.signal_start(B, dbm(-59.0), (15_000, 30_000), psdu());
        assert!(matches!(r.signal_end(A), RxEnd::Locked { ok: false, parts: 0, .. }));
    }
}

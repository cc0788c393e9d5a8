//! ERP protection (802.11-2016 10.26.2, 18.1): an 802.11g station that shares the channel
//! with non-ERP (802.11b) stations precedes each ERP-OFDM frame with a control frame those
//! stations decode, at a DSSS/CCK rate, whose Duration keeps them off the medium for the
//! exchange: a CTS to itself, or an RTS/CTS exchange. ns-3.44's `ErpProtectionMode`
//! (`WifiDefaultProtectionManager`) alike; hopsim turns it on by scenario key
//! (`mac.erp_protection`), as ns-3's `UseNonErpProtection` does.

use super::*;
use serde::{Deserialize, Serialize};

/// `mac.erp_protection`: what precedes an ERP-OFDM unicast frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErpProtection {
    /// Nothing (a network of ERP stations only).
    #[default]
    None,
    /// A CTS addressed to the sender at the basic rate, SIFS before the frame (10.26.2.2).
    CtsToSelf,
    /// An RTS/CTS exchange at the basic rate, whatever the RTS threshold.
    RtsCts,
}

impl ErpProtection {
    pub fn name(self) -> &'static str {
        match self {
            ErpProtection::None => "none",
            ErpProtection::CtsToSelf => "cts_to_self",
            ErpProtection::RtsCts => "rts_cts",
        }
    }
}

impl Dcf {
    /// The protection this attempt of `job` needs: unicast at an ERP-OFDM rate.
    #[inline]
    pub(super) fn erp_protection(&self, job: &Job) -> ErpProtection {
        let p = self.cfg.erp_protection;
        if p == ErpProtection::None || job.dst == NodeId::BROADCAST || !job.rate.is_ofdm() {
            return ErpProtection::None;
        }
        p
    }

    /// CTS-to-self: Duration = SIFS + the frame + SIFS + its ACK (10.26.2.2, 9.2.5.7).
    pub(super) fn send_cts_to_self(&mut self, cx: &mut MacCtx, job: &Job) {
        let t = &self.cfg.timing;
        let nav_ns = t.sifs + t.airtime_ns(job.mpdu_bytes, job.rate) + t.data_nav(job.rate);
        let frame = Frame::control(FrameKind::Cts, self.node, self.node, nav_ns, t, t.basic_rate);
        self.counters.cts_sent += 1;
        self.phase = Phase::TxCtsSelf;
        self.transmit(cx, frame, false);
    }

    /// The CTS-to-self has left the air: the frame follows SIFS later.
    pub(super) fn on_cts_to_self_end(&mut self, cx: &mut MacCtx) {
        let job = self.job().expect("a protected frame in service");
        self.phase = Phase::SifsData;
        let data = self.data_frame(&job);
        self.respond_after_sifs(cx, cx.now, data);
    }
}

#[cfg(test)]
mod tests {
    use super::super::bench::{Bench, ME, PEER};
    use super::*;
    use crate::engine::time::us;
    use crate::mac::timing::{Rate, Standard};

    fn bench(protection: ErpProtection, data: Rate) -> Bench {
        let timing = Timing::for_standard(Standard::G, Rate(20), data, 1000);
        let cfg = DcfConfig {
            ns2: false,
            timing,
            cw_min: 15,
            cw_max: 1023,
            rts_threshold_bytes: 65535,
            short_retry_limit: 7,
            long_retry_limit: 4,
            rate_algo: crate::mac::rate::RateAlgo::Constant(data),
            agg: None,
            amsdu: None,
            edca: None,
            erp_protection: protection,
            fail_average: Default::default(),
        };
        let mut b = Bench::with_config(cfg);
        b.answer_rts = true;
        b.answer_data = true;
        b
    }

    /// ```text
    ///  me    |CTS (RA = me) 2 Mbit/s DSSS|SIFS|DATA 54 Mbit/s ERP-OFDM|SIFS|      |
    ///  peer                                                               |ACK 24|
    ///        t0                     t0 + 248 us  t0 + 258 us
    /// ```
    /// The CTS (14 octets: 192 us long preamble + 56 us) keeps the 802.11b stations off the
    /// medium for SIFS + DATA + SIFS + ACK (its Duration); DATA follows it SIFS later, with
    /// no wait for an answer; the exchange then ends as an unprotected one.
    #[test]
    fn cts_to_self_goes_sifs_before_an_erp_ofdm_frame() {
        let mut b = bench(ErpProtection::CtsToSelf, Rate(540));
        let p = b.packet();
        b.offer(us(0), p);
        b.run_until(us(20_000));
        let t = b.timing;
        let (t0, cts) = b.sent[0];
        assert_eq!((cts.kind, cts.src, cts.dst, cts.rate), (FrameKind::Cts, ME, ME, Rate(20)));
        assert_eq!(cts.airtime_ns, us(248));
        let (t1, data) = b.sent[1];
        assert_eq!((data.kind, data.dst, data.rate), (FrameKind::Data, PEER, Rate(540)));
        assert_eq!(t1, t0 + us(248) + t.sifs);
        assert_eq!(cts.nav_ns, t.sifs + data.airtime_ns + t.sifs + t.ack_after_ns(Rate(540)));
        assert_eq!(b.done.len(), 1);
        assert!(b.done[0].1, "acknowledged");
        assert_eq!((b.dcf.counters.cts_sent, b.dcf.counters.mac_attempts), (1, 1));
    }

    /// A frame at a DSSS/CCK rate needs no protection: the 802.11b stations decode it.
    #[test]
    fn dsss_frames_go_unprotected() {
        for protection in [ErpProtection::CtsToSelf, ErpProtection::RtsCts] {
            let mut b = bench(protection, Rate(110));
            let p = b.packet();
            b.offer(us(0), p);
            b.run_until(us(20_000));
            assert_eq!(b.sent[0].1.kind, FrameKind::Data, "{protection:?}");
            assert_eq!(b.dcf.counters.cts_sent + b.dcf.counters.rts_sent, 0);
        }
    }

    /// ```text
    ///  me    |RTS 2 Mbit/s|      |SIFS|DATA 54|      |
    ///  peer               |SIFS|CTS 2|       |SIFS|ACK 24|
    /// ```
    /// With RTS/CTS protection an ERP-OFDM frame goes after an RTS/CTS at the basic rate
    /// whatever the RTS threshold (65,535 octets here).
    #[test]
    fn rts_cts_protection_ignores_the_threshold() {
        let mut b = bench(ErpProtection::RtsCts, Rate(540));
        let p = b.packet();
        b.offer(us(0), p);
        b.run_until(us(20_000));
        let kinds: Vec<FrameKind> = b.sent.iter().map(|(_, f)| f.kind).collect();
        assert_eq!(kinds, [FrameKind::Rts, FrameKind::Data]);
        assert_eq!(b.sent[0].1.rate, Rate(20));
        assert!(b.done[0].1);
    }
}

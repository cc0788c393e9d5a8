//! FeW, the fractional window increment (Nahm, Helmy, Kuo, "TCP over multihop 802.11
//! networks: issues and performance enhancement", MobiHoc 2005): NewReno whose congestion
//! avoidance grows the window by a fraction alpha of a segment per RTT, cwnd += alpha / cwnd
//! per new ACK; slow start and loss reactions are NewReno's. Default alpha = 0.01 (the value the
//! paper recommends, as far as we could establish: see docs/research/tcp-rules.md, section 5).

use super::{AckSample, Aimd, CongestionControl, Loss, Window};

#[derive(Debug, Clone)]
pub struct Few {
    pub alpha: f64,
}

impl CongestionControl for Few {
    fn clone_box(&self) -> Box<dyn CongestionControl> {
        Box::new(self.clone())
    }

    fn name(&self) -> &'static str {
        "few"
    }

    fn on_new_ack(&mut self, w: &mut Window, ack: &AckSample) {
        if ack.acked == 0 {
            return;
        }
        if w.in_slow_start() {
            w.grow(1.0);
        } else {
            w.grow(self.alpha / w.cwnd());
        }
    }

    fn ssthresh_after_loss(&mut self, w: &Window, loss: &Loss) -> f64 {
        Aimd::default().ssthresh_after_loss(w, loss)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::tcp::cc::reno::ack;
    use crate::transport::tcp::test_support::s;

    #[test]
    fn grows_alpha_segments_per_round_trip() {
        let mut cc = Few { alpha: 0.1 };
        let mut w = Window::new(4.0, 2.0);
        // Ten round trips of about cwnd ACKs each.
        for _ in 0..10 {
            let n = w.cwnd().floor() as u32;
            for _ in 0..n {
                cc.on_new_ack(&mut w, &ack(0, 1, s(0), s(4), None));
            }
        }
        assert!((w.cwnd() - 5.0).abs() < 0.1, "10 RTTs x 0.1 segment: {}", w.cwnd());
    }
}

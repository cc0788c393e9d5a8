//! Standard AIMD (RFC 5681 section 3.1), as ns-2's Agent/TCP `opencwnd` with the default
//! increase: in slow start +1 segment per new ACK; in congestion avoidance +1/cwnd per new
//! ACK (about one segment per RTT); on loss ssthresh = max(FlightSize / 2, 2 segments), or, as
//! ns-2's `TcpAgent::slowdown` computes it (ns2 profile), half the usable window
//! floor(min(cwnd, window_)), rounded down, at least 2.
//! Used by the Reno, NewReno and SACK variants, which differ only in loss recovery.

use super::{AckSample, CongestionControl, Loss, Window};

#[derive(Debug, Clone, Default)]
pub struct Aimd {
    /// ssthresh from the usable window (ns-2 tcp.cc `slowdown`, `halfwin`), not FlightSize.
    pub window_basis: bool,
    /// Count the segments an ACK covers (Linux `tcp_slow_start`, `tcp_cong_avoid_ai`).
    pub count_acked: bool,
    /// ns-2: ssthresh starts at the advertised window (tcp.cc `reset`: `ssthresh_ = wnd_`),
    /// so slow start ends there; None: arbitrarily high (RFC 5681 3.1).
    pub initial_ssthresh: Option<f64>,
}

impl CongestionControl for Aimd {
    fn clone_box(&self) -> Box<dyn CongestionControl> {
        Box::new(self.clone())
    }

    fn name(&self) -> &'static str {
        "aimd"
    }

    fn initial_ssthresh(&self) -> Option<f64> {
        self.initial_ssthresh
    }

    fn on_new_ack(&mut self, w: &mut Window, ack: &AckSample) {
        if ack.acked == 0 {
            return;
        }
        if self.count_acked {
            w.grow_by_acked(ack.acked);
        } else if w.in_slow_start() {
            w.grow(1.0); // RFC 5681 (3.2): at most SMSS per ACK
        } else {
            w.grow(1.0 / w.cwnd()); // RFC 5681 (3.3)
        }
    }

    fn ssthresh_after_loss(&mut self, _w: &Window, loss: &Loss) -> f64 {
        if self.window_basis {
            (loss.usable / 2.0).floor().max(2.0)
        } else {
            (loss.flight / 2.0).max(2.0) // RFC 5681 (4)
        }
    }
}

#[cfg(test)]
pub(crate) fn ack(
    now: u64,
    acked: u32,
    snd_una: crate::ids::SeqNo,
    snd_max: crate::ids::SeqNo,
    rtt_ns: Option<u64>,
) -> AckSample {
    AckSample { now, acked, rtt_ns, snd_max, snd_una }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::tcp::test_support::s;

    #[test]
    fn slow_start_then_congestion_avoidance() {
        let mut cc = Aimd::default();
        let mut w = Window::new(2.0, 4.0);
        cc.on_new_ack(&mut w, &ack(0, 1, s(1), s(3), None));
        cc.on_new_ack(&mut w, &ack(0, 2, s(3), s(5), None));
        assert_eq!(w.cwnd(), 4.0, "+1 per ACK in slow start, whatever it acknowledges");
        cc.on_new_ack(&mut w, &ack(0, 1, s(4), s(8), None));
        assert_eq!(w.cwnd(), 4.25);
        for _ in 0..4 {
            cc.on_new_ack(&mut w, &ack(0, 1, s(5), s(9), None));
        }
        // Four ACKs at cwnd ~4.25..5 add 1/cwnd each: just under one segment per window.
        assert!(
            w.cwnd() > 5.0 && w.cwnd() < 5.25,
            "about one segment per window of ACKs: {}",
            w.cwnd()
        );
    }

    fn loss(flight: f64, usable: f64) -> Loss {
        Loss {
            now: 0,
            flight,
            usable,
            dupack_threshold: 3,
            dupacks: 3,
            sent_ns: 0,
            retransmitted: false,
        }
    }

    #[test]
    fn halving_with_floor_of_two() {
        let mut cc = Aimd::default();
        let w = Window::new(10.0, 64.0);
        assert_eq!(cc.ssthresh_after_loss(&w, &loss(10.0, 10.0)), 5.0);
        assert_eq!(cc.ssthresh_after_loss(&w, &loss(3.0, 10.0)), 2.0);
    }

    #[test]
    fn ns2_halves_the_usable_window_not_the_flight() {
        // tcp.cc slowdown(CLOSE_SSTHRESH_HALF): ssthresh_ = int(window() / 2), at least 2.
        // After go-back-N the flight can be far above the window of 1 a timeout left.
        let mut cc = Aimd { window_basis: true, ..Aimd::default() };
        let w = Window::new(7.6, 64.0);
        assert_eq!(cc.ssthresh_after_loss(&w, &loss(12.0, 7.0)), 3.0, "floor(7 / 2)");
        assert_eq!(cc.ssthresh_after_loss(&w, &loss(12.0, 1.0)), 2.0, "repeated timeouts: 2");
        assert_eq!(Aimd::default().ssthresh_after_loss(&w, &loss(12.0, 1.0)), 6.0);
    }

    // tcp.cc `reset`: ssthresh_ = wnd_ (window_ 20 by default), so ns-2's first slow start
    // ends at the advertised window; RFC 5681 3.1 starts arbitrarily high.
    #[test]
    fn ns2_slow_start_ends_at_the_advertised_window() {
        use crate::engine::rng::{Purpose, Rng};
        use crate::transport::tcp::config::{TcpSpec, TcpVariant};
        use crate::transport::tcp::congestion_control;
        for variant in [TcpVariant::Reno, TcpVariant::NewReno, TcpVariant::Sack] {
            let spec = TcpSpec { variant, receiver_window: 20, ..TcpSpec::default() };
            let rng = || Rng::derive(1, Purpose::Transport, 0);
            assert_eq!(congestion_control(&spec, true, rng()).initial_ssthresh(), Some(20.0));
            assert_eq!(congestion_control(&spec, false, rng()).initial_ssthresh(), None);
        }
    }
}

//! The congestion window and the slow-start threshold, in segments (fractional where needed).
//!
//! The fields are private: every change of cwnd or ssthresh is one of the methods below, so
//! this file is the one place to read them all. Who calls what:
//! - congestion control (`cc/`): [`Window::grow`] on new ACKs, [`Window::set_cwnd`] and
//!   [`Window::set_ssthresh`] for its cuts and resets (loss, timeout, Vegas' periods) and
//!   BBR's window set from its path model on every ACK;
//! - loss recovery (`recovery.rs`): [`Window::inflate`], [`Window::deflate_partial`],
//!   [`Window::deflate_full`], [`Window::to_ssthresh`], each named after its RFC step, and
//!   [`Window::deflate_to`] for ns-2's NewReno;
//! - the sender (`sender.rs`): [`Window::cap`], the usable-window ceiling.

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    cwnd: f64,
    ssthresh: f64,
}

impl Window {
    pub fn new(cwnd: f64, ssthresh: f64) -> Window {
        Window { cwnd, ssthresh }
    }

    pub fn cwnd(&self) -> f64 {
        self.cwnd
    }

    pub fn ssthresh(&self) -> f64 {
        self.ssthresh
    }

    pub fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }

    /// Congestion control's growth on a new ACK (RFC 5681 3.1: +1 in slow start, +1/cwnd in
    /// congestion avoidance; Vegas' and FeW's own increments).
    pub fn grow(&mut self, segments: f64) {
        self.cwnd += segments;
    }

    /// Linux's growth by the segments an ACK covers (tcp_cong.c `tcp_slow_start`, then
    /// `tcp_cong_avoid_ai` for what is left above ssthresh): +1 per segment up to ssthresh,
    /// +1/cwnd per segment beyond (RFC 3465 without its limit L, as Linux).
    pub fn grow_by_acked(&mut self, acked: u32) {
        let mut acked = acked as f64;
        if self.in_slow_start() {
            let step = acked.min(self.ssthresh - self.cwnd);
            self.cwnd += step;
            acked -= step;
        }
        if acked > 0.0 {
            self.cwnd += acked / self.cwnd;
        }
    }

    /// Congestion control's cut or reset (loss window, Vegas' reductions).
    pub fn set_cwnd(&mut self, segments: f64) {
        self.cwnd = segments;
    }

    /// Congestion control's threshold after a loss (RFC 5681 eq. 4, or the algorithm's own).
    pub fn set_ssthresh(&mut self, segments: f64) {
        self.ssthresh = segments;
    }

    /// RFC 5681 3.2 step 4 (and RFC 6582 3.2 step 3): each further duplicate ACK during
    /// recovery means a segment left the network: one more segment may be sent.
    pub fn inflate(&mut self) {
        self.cwnd += 1.0;
    }

    /// RFC 6582 3.2 step 4: a partial ACK deflates by the segments it acknowledges and adds
    /// back one, so about ssthresh segments stay in flight when recovery ends.
    pub fn deflate_partial(&mut self, acked_segments: u32) {
        self.cwnd = (self.cwnd - acked_segments as f64 + 1.0).max(1.0);
    }

    /// RFC 6582 3.2 step 3, option (1): a full ACK ends recovery with
    /// cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS), avoiding a burst.
    pub fn deflate_full(&mut self, flight_segments: u32) {
        let flight = flight_segments as f64;
        self.cwnd = self.ssthresh.min(flight.max(1.0) + 1.0);
    }

    /// ns-2's NewReno (tcp-newreno.cc `partialnewack`, `recv`): the window in recovery is
    /// cwnd_ + dupwnd_, and deflating it sets both parts.
    pub fn deflate_to(&mut self, segments: f64) {
        self.cwnd = segments;
    }

    /// cwnd = ssthresh: RFC 5681 3.2 step 6 (Reno's deflation when recovery ends) and
    /// RFC 6675 section 5 step 4.2 (SACK recovery counts the pipe instead of inflating).
    pub fn to_ssthresh(&mut self) {
        self.cwnd = self.ssthresh;
    }

    /// cwnd is not grown beyond what can be used (the CWL and the receiver's window), as
    /// ns-2's `maxcwnd_` and RFC 7661 do.
    pub fn cap(&mut self, max_segments: f64) {
        self.cwnd = self.cwnd.min(max_segments);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovery_rules() {
        let mut w = Window::new(8.0, 5.0);
        w.inflate();
        assert_eq!(w.cwnd(), 9.0);
        w.deflate_partial(4);
        assert_eq!(w.cwnd(), 6.0, "RFC 6582 3.2 step 4: 9 - 4 + 1");
        w.deflate_partial(10);
        assert_eq!(w.cwnd(), 1.0, "never below one segment");
        w.deflate_full(2);
        assert_eq!(w.cwnd(), 3.0, "min(ssthresh 5, FlightSize 2 + 1)");
        w.deflate_full(0);
        assert_eq!(w.cwnd(), 2.0, "max(FlightSize, SMSS) + SMSS");
        w.to_ssthresh();
        assert_eq!(w.cwnd(), 5.0);
        w.cap(4.5);
        assert_eq!(w.cwnd(), 4.5);
        assert!(w.in_slow_start());
    }

    #[test]
    fn growth_by_acked_segments_stops_slow_start_at_ssthresh() {
        // tcp_slow_start: cwnd = min(cwnd + acked, ssthresh), the rest by tcp_cong_avoid_ai.
        let mut w = Window::new(2.0, 5.0);
        w.grow_by_acked(2);
        assert_eq!(w.cwnd(), 4.0, "a delayed ACK of two segments adds two");
        w.grow_by_acked(3);
        assert_eq!(w.cwnd(), 5.0 + 2.0 / 5.0, "one to ssthresh, then two of 1/cwnd");
    }
}

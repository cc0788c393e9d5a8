//! Changes made to a paused run from outside (issue 35, `world/steer.rs`): the window limit,
//! the congestion window itself, a maximum pacing rate, and whether the application has new
//! data. Each takes effect at `now`; what it lets the sender send goes out when the world next
//! runs the connection (`start`).

use super::TcpSender;
use crate::engine::time::SimTime;
use crate::transport::tcp::limits::LimitPolicy;

impl TcpSender {
    /// A fixed window limit (CWL) from now on, or none (`segments` = None). The window in use
    /// is capped at once; a raised limit is used from the next ACK on (cwnd grows into it).
    pub fn set_fixed_limit(&mut self, segments: Option<f64>, now: SimTime) {
        self.cfg.limit_policy = segments.map_or(LimitPolicy::None, LimitPolicy::Fixed);
        self.limit = segments;
        self.window_changed(now);
    }

    /// The window limit in force (None: none beyond the receiver's window).
    pub fn window_limit(&self) -> Option<f64> {
        self.limit
    }

    /// cwnd = `segments` now (at most the limit in force); congestion control goes on from
    /// there, as after one of its own cuts (ssthresh is left alone).
    pub fn set_cwnd(&mut self, segments: f64, now: SimTime) {
        self.w.set_cwnd(segments);
        self.window_changed(now);
    }

    /// Segments leave no closer than `gap_ns` apart from now on (None: no such cap).
    pub fn set_min_gap(&mut self, gap_ns: Option<SimTime>) {
        self.pacer.set_min_gap(gap_ns);
    }

    /// The application has new data until `stop_ns` (`now`: none from now on; retransmissions
    /// go on either way).
    pub fn set_stop(&mut self, stop_ns: SimTime) {
        self.cfg.stop_ns = stop_ns;
    }

    /// When the application stops having new data.
    pub fn stop_ns(&self) -> SimTime {
        self.cfg.stop_ns
    }
}

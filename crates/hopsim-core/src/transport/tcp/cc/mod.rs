//! Congestion control: how the window grows on new ACKs and how far it is cut on loss. One
//! file per algorithm behind one trait (as ns-3 separates TcpCongestionOps); loss *recovery*
//! (Reno, NewReno, SACK) is the sender's business, see `recovery.rs`.

mod reno;

pub use reno::Aimd;

use crate::time::{SimDuration, SimTime};

/// The window state an algorithm works on, in segments (fractional where needed).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    pub cwnd: f64,
    pub ssthresh: f64,
}

impl Window {
    pub fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }
}

pub trait CongestionControl: Send + Sync {
    fn name(&self) -> &'static str;
    /// A new cumulative ACK acknowledged `acked` segments outside loss recovery.
    fn on_new_ack(&mut self, w: &mut Window, acked: u32, now: SimTime, rtt: Option<SimDuration>);
    /// Slow-start threshold after a loss, given the data in flight (segments).
    fn ssthresh_after_loss(&mut self, w: &Window, flight: f64) -> f64;
}

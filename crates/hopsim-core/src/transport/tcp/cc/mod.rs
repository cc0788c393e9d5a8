//! Congestion control: how the window grows on new ACKs and how it is cut on loss. One file
//! per algorithm behind one trait (as ns-3 separates TcpCongestionOps); the *kind* of loss
//! recovery (Reno, NewReno, SACK) is `recovery.rs`'s. Algorithms change the window only
//! through [`Window`]'s methods (`window.rs`).

mod cubic;
mod few;
pub mod hystart;
mod reno;
mod vegas;
mod vegas_w;

pub use cubic::Cubic;
pub use few::Few;
pub use reno::Aimd;
pub use vegas::{Vegas, VegasParams};
pub use vegas_w::{VegasW, VegasWParams};

pub use super::window::Window;
use crate::engine::time::{SimDuration, SimTime};

/// What a new cumulative ACK tells the algorithm (segment numbers after the ACK).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AckSample {
    pub now: SimTime,
    /// Segments newly acknowledged.
    pub acked: u32,
    /// RTT sample of this ACK (None under Karn's rule).
    pub rtt_ns: Option<SimDuration>,
    /// Next new segment to be sent (ns-2 `t_seqno_`) and first unacknowledged segment.
    pub snd_max: u32,
    pub snd_una: u32,
}

impl AckSample {
    pub fn outstanding(&self) -> f64 {
        (self.snd_max - self.snd_una) as f64
    }
}

/// The loss that triggers a fast retransmit, or a timeout.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Loss {
    pub now: SimTime,
    /// Segments outstanding (FlightSize).
    pub flight: f64,
    /// The window in use: floor(min(cwnd, limits)).
    pub usable: f64,
    pub dupack_threshold: u32,
    /// When the segment to retransmit was last sent, and whether it was sent before.
    pub sent_ns: SimTime,
    pub retransmitted: bool,
}

pub trait CongestionControl: Send + Sync {
    fn name(&self) -> &'static str;

    /// Initial slow-start threshold (None: arbitrarily high, RFC 5681).
    fn initial_ssthresh(&self) -> Option<f64> {
        None
    }

    /// A new cumulative ACK outside loss recovery.
    fn on_new_ack(&mut self, w: &mut Window, ack: &AckSample);

    /// Slow-start threshold after a loss, given the data in flight (segments).
    fn ssthresh_after_loss(&mut self, w: &Window, loss: &Loss) -> f64;

    /// Fast retransmit (RFC 5681 3.2 steps 2-3): ssthresh, and cwnd inflated by the
    /// duplicates.
    fn enter_recovery(&mut self, w: &mut Window, loss: &Loss) {
        w.set_ssthresh(self.ssthresh_after_loss(w, loss));
        w.set_cwnd(w.ssthresh() + loss.dupack_threshold as f64);
    }

    /// Reno-style recovery ends with the first new ACK (RFC 5681 step 6: deflate);
    /// `dupacks`: the duplicate ACKs counted before it.
    fn exit_recovery(&mut self, w: &mut Window, _dupacks: u32) {
        w.to_ssthresh();
    }

    /// Retransmission timeout (RFC 5681 eq. 4 and the loss window of one segment).
    fn on_timeout(&mut self, w: &mut Window, loss: &Loss) {
        w.set_ssthresh(self.ssthresh_after_loss(w, loss));
        w.set_cwnd(1.0);
    }

    /// Vegas' fine-grained timeout: a segment outstanding this long is retransmitted on the
    /// first duplicate (or first two new) ACKs without waiting for three duplicates.
    fn fine_grained_timeout_ns(&self) -> Option<SimDuration> {
        None
    }

    /// The smallest window the algorithm uses.
    fn min_window(&self) -> f64 {
        1.0
    }
}

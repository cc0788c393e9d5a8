//! Congestion control: how the window grows on new ACKs and how it is cut on loss, or, for a
//! rate-based algorithm (BBR), the window and pacing rate set from delivery-rate samples on
//! every ACK. One file per algorithm behind one trait (as ns-3 separates TcpCongestionOps,
//! Linux `tcp_congestion_ops` with its `cong_control` hook); the *kind* of loss
//! recovery (Reno, NewReno, SACK) is `recovery.rs`'s. Algorithms change the window only
//! through [`Window`]'s methods (`window.rs`).

mod bbr;
mod bbr_filter;
mod bic;
mod cubic;
mod few;
pub mod hystart;
mod reno;
mod vegas;
mod vegas_w;

pub use bbr::{Bbr, BbrState};
pub use bbr_filter::WindowedMax;
pub use bic::Bic;
pub use cubic::Cubic;
pub use few::Few;
pub use reno::Aimd;
pub use vegas::{Vegas, VegasParams};
pub use vegas_w::{VegasW, VegasWParams};

pub use super::rate_sample::RateSample;
pub use super::window::Window;
use crate::engine::time::{SimDuration, SimTime};
use crate::ids::SeqNo;

/// What a new cumulative ACK tells the algorithm (segment numbers after the ACK).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AckSample {
    pub now: SimTime,
    /// Segments newly acknowledged.
    pub acked: u32,
    /// RTT sample of this ACK (None under Karn's rule).
    pub rtt_ns: Option<SimDuration>,
    /// Next new segment to be sent (ns-2 `t_seqno_`) and first unacknowledged segment.
    pub snd_max: SeqNo,
    pub snd_una: SeqNo,
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
    /// Duplicate ACKs counted when the loss was found (ns-2's Vegas inflates its reduced window
    /// by this count, not by the threshold: tcp-vegas.cc `recv`, `cwnd_ = v_newcwnd_ + dupacks_`).
    pub dupacks: u32,
    /// When the segment to retransmit was last sent, and whether it was sent before.
    pub sent_ns: SimTime,
    pub retransmitted: bool,
}

/// The sender's loss state (Linux's TCP_CA_Open, TCP_CA_Recovery, TCP_CA_Loss): in fast
/// recovery, or repairing after a timeout until `recover` is acknowledged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CaState {
    #[default]
    Open,
    Recovery,
    Loss,
}

/// What every ACK (new, duplicate, during recovery) tells a rate-based algorithm, after the
/// sender has processed it: the delivery-rate sample (`rate_sample.rs`) and the flight.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AckRate {
    pub now: SimTime,
    pub rs: RateSample,
    /// Segments delivered so far (C.delivered).
    pub delivered: u64,
    /// Segments in flight (RFC 6675 pipe) before and after the ACK.
    pub prior_in_flight: u32,
    pub in_flight: u32,
    /// Segments newly deemed lost by this ACK (RFC 6675 IsLost).
    pub newly_lost: u32,
    pub state: CaState,
    pub srtt_ns: Option<f64>,
}

pub trait CongestionControl: Send + Sync {
    fn name(&self) -> &'static str;

    /// A copy of this controller and its state (a forked run's sender has its own).
    fn clone_box(&self) -> Box<dyn CongestionControl>;

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

    /// SACK recovery's entry (RFC 6675 section 5 step 4.2): ssthresh as on any fast
    /// retransmit, and cwnd = ssthresh (no inflation: the pipe counts what left).
    fn enter_sack_recovery(&mut self, w: &mut Window, loss: &Loss) {
        self.enter_recovery(w, loss);
        w.to_ssthresh();
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

    /// Does the algorithm want a delivery-rate sample on every ACK ([`Self::on_rate_sample`])?
    fn wants_rate_samples(&self) -> bool {
        false
    }

    /// Every ACK, new or duplicate, in recovery or not, once the sender has processed it
    /// (Linux's `cong_control` hook): rate-based algorithms set cwnd here.
    fn on_rate_sample(&mut self, _w: &mut Window, _ack: &AckRate) {}

    /// Rate-based pacing: the gap between segments (one segment / pacing rate), which the
    /// sender's pacer then uses instead of SRTT / cwnd.
    fn pacing_gap_ns(&self) -> Option<SimDuration> {
        None
    }

    /// Should the rate samples until what is in flight now is delivered count as
    /// app-limited (BBR's PROBE_RTT, which leaves the pipe unused on purpose)?
    fn app_limited_now(&self) -> bool {
        false
    }

    /// The smallest window the algorithm uses.
    fn min_window(&self) -> f64 {
        1.0
    }
}

impl Clone for Box<dyn CongestionControl> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

//! What the scripted sender tests share: a bulk sender's configuration and RTO estimator
//! (receiver window 64, DupThresh 3, initial RTO 1 s per RFC 6298 2.1, no window limit, the
//! standard profile's agent). Each test file overrides the fields it is about. Segment
//! numbers are written `s(3)`.

use super::cc::Loss;
use super::config::TcpSpec;
use super::limits::LimitPolicy;
use super::recovery;
use super::rto::RtoEstimator;
use super::sender::{RetransmitGuard, SenderConfig};
use crate::ids::{FlowId, SeqNo};

pub const MS: u64 = 1_000_000;

/// A loss found by DupThresh (3) duplicates at time 0, with `flight` segments in flight and
/// all of them usable: what a window-based controller's `ssthresh_after_loss` sees.
pub fn dupack_loss(flight: f64) -> Loss {
    Loss {
        now: 0,
        flight,
        usable: flight,
        dupack_threshold: 3,
        dupacks: 3,
        sent_ns: 0,
        retransmitted: false,
    }
}

/// Segment number `n`.
pub fn s(n: u32) -> SeqNo {
    SeqNo::ZERO + n
}

/// A scripted bulk sender of `spec`'s variant and recovery.
pub fn sender_config(spec: &TcpSpec) -> SenderConfig {
    SenderConfig {
        flow: FlowId(0),
        recovery: recovery(spec),
        initial_window: spec.initial_window,
        limit_policy: LimitPolicy::None,
        receiver_window: 64,
        initial_receiver_window: 64,
        timestamps: false,
        dupack_threshold: 3,
        total_segments: None,
        stop_ns: u64::MAX,
        pacing: false,
        window_ns: (0, u64::MAX),
        limited_transmit: false,
        ns2_vegas: false,
        guard: RetransmitGuard::Rfc6582,
        delay_growth: false,
        syn: false,
    }
}

/// RTO 1 s initial, 200 ms minimum, 60 s maximum, G 10 ms.
pub fn rto() -> RtoEstimator {
    RtoEstimator::new(1000 * MS, 200 * MS, 60_000 * MS, 10 * MS)
}

//! A node's receiver in the scenario's reception mode: ns-2 capture or SINR.

use super::radio::{EarlyEnd, FrameRef, Psdu, Radio, RxEnd, Start};
use super::sinr::SinrRadio;
use crate::engine::time::SimTime;

#[derive(Debug, Clone)]
pub enum Receiver {
    Capture(Radio),
    Sinr(SinrRadio),
}

impl Receiver {
    #[inline]
    pub fn signal_busy_at(&self, t: SimTime) -> bool {
        match self {
            Receiver::Capture(r) => r.signal_busy_at(t),
            Receiver::Sinr(r) => r.signal_busy_at(t),
        }
    }

    #[inline]
    pub fn idle_since(&self, t: SimTime) -> SimTime {
        match self {
            Receiver::Capture(r) => r.idle_since(t),
            Receiver::Sinr(r) => r.idle_since(t),
        }
    }

    #[inline]
    pub fn transmitting_at(&self, t: SimTime) -> bool {
        match self {
            Receiver::Capture(r) => r.transmitting_at(t),
            Receiver::Sinr(r) => r.transmitting_at(t),
        }
    }

    /// The capture receiver (the caller knows the reception mode).
    #[inline]
    pub fn capture_mut(&mut self) -> &mut Radio {
        match self {
            Receiver::Capture(r) => r,
            Receiver::Sinr(_) => unreachable!("a capture-mode world has capture receivers"),
        }
    }

    /// A signal arrives over [start, end): a reception that ended before it (to complete
    /// first), the carrier-sense busy interval to tell the MAC, and whether the frame being
    /// received captured the signal away (capture mode only).
    #[inline]
    pub fn signal_start(
        &mut self,
        frame: FrameRef,
        power_w: f64,
        decodable: bool,
        (start, end): (SimTime, SimTime),
        psdu: Psdu,
    ) -> (Option<EarlyEnd>, Option<(SimTime, SimTime)>, bool) {
        match self {
            // Capture mode only sees signals above carrier sense (the caller filters).
            Receiver::Capture(r) => {
                let outcome = r.signal_start(frame, power_w, decodable, start, end);
                let early = (outcome == Start::Early).then(|| r.early_end());
                (early, Some((start, end)), outcome == Start::Captured)
            }
            Receiver::Sinr(r) => {
                let (early, busy) = r.signal_start(frame, power_w, (start, end), psdu);
                (early, busy, false)
            }
        }
    }

    /// Energy that is no 802.11 frame (an outside interferer) arrives over [start, end): a
    /// reception that ended before it, and the carrier-sense busy interval. Capture mode
    /// treats it as ns-2 treats a signal it cannot decode: it occupies an idle receiver and
    /// collides with a frame being received unless that frame is `capture_threshold_db`
    /// stronger. SINR mode adds it to the interference; having no preamble, it is never
    /// locked on.
    pub fn foreign_start(
        &mut self,
        source: FrameRef,
        power_w: f64,
        (start, end): (SimTime, SimTime),
    ) -> (Option<EarlyEnd>, Option<(SimTime, SimTime)>) {
        match self {
            Receiver::Capture(r) => {
                let outcome = r.signal_start(source, power_w, false, start, end);
                let early = (outcome == Start::Early).then(|| r.early_end());
                (early, Some((start, end)))
            }
            Receiver::Sinr(r) => r.foreign_start(source, power_w, (start, end)),
        }
    }

    /// A capture receiver that only senses frames below the decode threshold
    /// (`weak_frames = "sense"`); SINR receivers always do, and are never asked.
    pub fn senses_weak(&self) -> bool {
        matches!(self, Receiver::Capture(r) if r.senses_weak())
    }

    /// What the MAC's NAV reset asks of the receiver: when the last frame it took began to
    /// arrive, and when physical carrier sense (its own frames included) ends as known now.
    pub fn nav_reset_report(&self) -> (SimTime, SimTime) {
        match self {
            Receiver::Capture(r) => (r.last_rx_start(), r.busy_until()),
            Receiver::Sinr(r) => (r.last_rx_start(), r.busy_until()),
        }
    }

    #[inline]
    pub fn signal_end(&mut self, frame: FrameRef) -> RxEnd {
        match self {
            Receiver::Capture(r) => r.signal_end(frame),
            Receiver::Sinr(r) => r.signal_end(frame),
        }
    }

    /// The SNR of the last frame received whole, 0.01 dB; `i16::MIN` where reception is by
    /// capture threshold (no noise is modelled).
    #[inline]
    pub fn last_rx_snr_cdb(&self) -> i16 {
        match self {
            Receiver::Capture(_) => i16::MIN,
            Receiver::Sinr(r) => r.last_rx_snr_cdb(),
        }
    }

    #[inline]
    pub fn start_tx(&mut self, now: SimTime, end: SimTime) {
        match self {
            Receiver::Capture(r) => r.start_tx(now, end),
            Receiver::Sinr(r) => r.start_tx(now, end),
        }
    }
}

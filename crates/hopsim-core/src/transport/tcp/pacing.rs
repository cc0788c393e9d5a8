//! Pacing: segments leave one every SRTT / window instead of in a burst per ACK. It applies
//! when configured, and always while the window is below one segment (a fractional window is
//! a rate: one segment per RTT / cwnd). Before the first RTT sample nothing is paced.
//! Rate-based congestion control (BBR) sets the gap itself (`release_after`).

use super::TcpTimer;
use crate::engine::sched::{Timer, TimerSink};
use crate::engine::time::SimTime;
use crate::ids::FlowId;

#[derive(Clone)]
pub struct Pacer {
    /// Pace every window (TCP pacing), not only fractional ones.
    enabled: bool,
    /// When the last segment left (None: nothing sent yet).
    last_release_ns: Option<SimTime>,
    /// The gap a maximum pacing rate sets (Linux's SO_MAX_PACING_RATE), set mid-run.
    min_gap_ns: Option<SimTime>,
    timer: Timer,
}

impl Pacer {
    pub fn new(enabled: bool) -> Pacer {
        Pacer { enabled, last_release_ns: None, min_gap_ns: None, timer: Timer::default() }
    }

    /// No faster than one segment per `gap_ns` from now on (None: no such cap): a maximum
    /// pacing rate, as Linux's SO_MAX_PACING_RATE caps the rate whatever paces.
    pub fn set_min_gap(&mut self, gap_ns: Option<SimTime>) {
        self.min_gap_ns = gap_ns;
    }

    /// The gap between segments for a usable window of `window` segments: SRTT / window.
    fn interval_ns(&self, window: f64, srtt_ns: Option<f64>) -> Option<SimTime> {
        if !(self.enabled || window < 1.0) {
            return None;
        }
        let srtt = srtt_ns?;
        Some((srtt / window.max(1e-3)) as SimTime)
    }

    /// May a segment leave at `now`? If not, the pacing timer is set for when it may.
    pub fn may_release(
        &mut self,
        now: SimTime,
        window: f64,
        srtt_ns: Option<f64>,
        timers: &mut dyn TimerSink<TcpTimer, FlowId>,
        flow: FlowId,
    ) -> bool {
        let gap = self.interval_ns(window, srtt_ns);
        self.release_after(now, gap, timers, flow)
    }

    /// May a segment leave at `now`, `gap_ns` after the last one (None: unpaced)? Rate-based
    /// congestion control (BBR) gives the gap itself: one segment / pacing rate.
    pub fn release_after(
        &mut self,
        now: SimTime,
        gap: Option<SimTime>,
        timers: &mut dyn TimerSink<TcpTimer, FlowId>,
        flow: FlowId,
    ) -> bool {
        let gap = match (gap, self.min_gap_ns) {
            (Some(g), Some(m)) => Some(g.max(m)),
            (g, m) => g.or(m),
        };
        if let (Some(gap), Some(last)) = (gap, self.last_release_ns) {
            let at = last + gap;
            if now < at {
                if !self.timer.is_armed() {
                    let generation = self.timer.arm(at);
                    timers.arm(at, flow, TcpTimer::Pace, generation);
                }
                return false;
            }
        }
        self.last_release_ns = Some(now);
        true
    }

    /// The pacing timer fired: is it the live one?
    pub fn fire(&mut self, generation: u32) -> bool {
        self.timer.fire(generation)
    }
}

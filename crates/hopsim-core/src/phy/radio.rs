//! Per-node radio in ns-2's `capture` reception mode (mac-802_11.cc recv/capture/collision):
//! one frame is decoded at a time; a frame arriving during a reception is ignored if the frame
//! being received is at least `capture_threshold_db` stronger, otherwise both are lost and the
//! longer-lasting one keeps the receiver busy. Signals between the carrier-sense and decode
//! thresholds occupy the receiver as undecodable frames. Transmitting corrupts a reception.
//!
//! Signals are registered when their transmission starts, with arrival times that include the
//! propagation delay; nothing here needs an event per listener.

use super::busy::BusyPeriods;
use crate::engine::time::SimTime;

/// Identifies a frame on the air: its transmitter and that transmitter's frame serial number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameRef {
    pub tx: u32,
    pub serial: u32,
}

#[derive(Debug, Clone, Copy)]
struct Lock {
    frame: FrameRef,
    power_w: f64,
    end: SimTime,
    ok: bool,
    overlapped: bool,
}

/// How a frame ended at this listener.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RxEnd {
    /// The receiver was locked on it: decoded if `ok`; `overlapped` when lost to another frame.
    Locked { ok: bool, overlapped: bool },
    /// It arrived while the receiver was busy (captured by another frame or transmitting).
    Missed,
    /// Already completed (see [`Radio::signal_start`]'s early completion).
    AlreadyDone,
}

/// A reception finished early (its end lies before a new arrival whose end event comes later).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EarlyEnd {
    pub frame: FrameRef,
    pub end: SimTime,
    pub ok: bool,
    pub overlapped: bool,
}

#[derive(Debug, Clone)]
pub struct Radio {
    /// End of this node's own transmission (the radio is half duplex).
    pub tx_until: SimTime,
    lock: Option<Lock>,
    last_done: Option<FrameRef>,
    /// Physical carrier sense from other nodes' signals.
    busy: BusyPeriods,
    capture_ratio: f64,
    /// The last signal to arrive was captured away (ns-2 `capture()`): the MAC of the ns2
    /// profile sets its EIFS NAV from it.
    captured: bool,
}

impl Radio {
    pub fn new(capture_threshold_db: f64) -> Radio {
        Radio {
            tx_until: 0,
            lock: None,
            last_done: None,
            busy: BusyPeriods::default(),
            capture_ratio: 10f64.powf(capture_threshold_db / 10.0),
            captured: false,
        }
    }

    /// Physical carrier sense from other nodes' signals at `t`.
    pub fn signal_busy_at(&self, t: SimTime) -> bool {
        self.busy.busy_at(t)
    }

    /// When the medium last became idle of other nodes' signals, as seen at `t`
    /// (meaningful when it is not busy at `t`).
    pub fn idle_since(&self, t: SimTime) -> SimTime {
        self.busy.idle_since(t)
    }

    pub fn transmitting_at(&self, t: SimTime) -> bool {
        t < self.tx_until
    }

    /// A signal arrives over [start, end). Returns a reception that ended before `start`
    /// but whose end event has not been processed yet, so the caller can complete it first.
    pub fn signal_start(
        &mut self,
        frame: FrameRef,
        power_w: f64,
        decodable: bool,
        start: SimTime,
        end: SimTime,
    ) -> Option<EarlyEnd> {
        self.busy.add(start, end);
        self.captured = false;
        let mut early = None;
        if let Some(cur) = self.lock {
            if cur.end <= start {
                early = Some(EarlyEnd {
                    frame: cur.frame,
                    end: cur.end,
                    ok: cur.ok,
                    overlapped: cur.overlapped,
                });
                self.last_done = Some(cur.frame);
                self.lock = None;
            }
        }
        let transmitting = self.transmitting_at(start);
        match self.lock.as_mut() {
            None => {
                // ns-2 locks even while transmitting, with the frame marked in error.
                self.lock = Some(Lock {
                    frame,
                    power_w,
                    end,
                    ok: decodable && !transmitting,
                    overlapped: transmitting,
                });
            }
            Some(cur) => {
                if cur.power_w >= power_w * self.capture_ratio {
                    // Capture: the current frame survives, the newcomer is missed.
                    self.captured = true;
                } else {
                    cur.ok = false;
                    cur.overlapped = true;
                    if end > cur.end {
                        // Both lost; the longer one holds the receiver (ns-2 collision()).
                        *cur = Lock { frame, power_w, end, ok: false, overlapped: true };
                    }
                }
            }
        }
        early
    }

    /// Was the signal that arrived last captured away by the frame being received?
    pub fn captured_newcomer(&self) -> bool {
        self.captured
    }

    /// The signal of `frame` ends at this listener at `at`.
    pub fn signal_end(&mut self, frame: FrameRef) -> RxEnd {
        if self.last_done == Some(frame) {
            self.last_done = None;
            return RxEnd::AlreadyDone;
        }
        match self.lock {
            Some(cur) if cur.frame == frame => {
                self.lock = None;
                RxEnd::Locked { ok: cur.ok, overlapped: cur.overlapped }
            }
            _ => RxEnd::Missed,
        }
    }

    /// This node starts transmitting over [now, end): an ongoing reception is lost.
    pub fn start_tx(&mut self, now: SimTime, end: SimTime) {
        self.tx_until = end;
        if let Some(cur) = self.lock.as_mut() {
            if cur.end > now {
                cur.ok = false;
                cur.overlapped = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: FrameRef = FrameRef { tx: 1, serial: 0 };
    const B: FrameRef = FrameRef { tx: 2, serial: 0 };

    #[test]
    fn lone_frame_is_received() {
        let mut r = Radio::new(10.0);
        assert_eq!(r.signal_start(A, 1e-9, true, 100, 500), None);
        assert!(
            r.signal_busy_at(100)
                && r.signal_busy_at(499)
                && !r.signal_busy_at(500)
                && !r.signal_busy_at(99)
        );
        assert_eq!(r.signal_end(A), RxEnd::Locked { ok: true, overlapped: false });
    }

    #[test]
    fn stronger_by_10db_captures() {
        let mut r = Radio::new(10.0);
        r.signal_start(A, 1e-9, true, 100, 500);
        r.signal_start(B, 0.99e-10, true, 200, 600);
        assert_eq!(r.signal_end(A), RxEnd::Locked { ok: true, overlapped: false });
        assert_eq!(r.signal_end(B), RxEnd::Missed);
        assert!(r.signal_busy_at(550), "the missed frame still occupies the medium");
    }

    #[test]
    fn weaker_margin_collides_and_longer_frame_holds_receiver() {
        let mut r = Radio::new(10.0);
        r.signal_start(A, 1e-9, true, 100, 500);
        r.signal_start(B, 0.5e-9, true, 200, 600);
        assert_eq!(r.signal_end(A), RxEnd::Missed);
        assert_eq!(r.signal_end(B), RxEnd::Locked { ok: false, overlapped: true });
    }

    #[test]
    fn undecodable_signal_is_locked_in_error() {
        let mut r = Radio::new(10.0);
        r.signal_start(A, 1e-11, false, 0, 10);
        assert_eq!(r.signal_end(A), RxEnd::Locked { ok: false, overlapped: false });
    }

    #[test]
    fn transmitting_corrupts_reception() {
        let mut r = Radio::new(10.0);
        r.signal_start(A, 1e-9, true, 100, 500);
        r.start_tx(300, 400);
        assert_eq!(r.signal_end(A), RxEnd::Locked { ok: false, overlapped: true });
        r.signal_start(B, 1e-9, true, 350, 450);
        assert_eq!(r.signal_end(B), RxEnd::Locked { ok: false, overlapped: true });
    }

    #[test]
    fn early_completion_when_next_arrival_is_later() {
        let mut r = Radio::new(10.0);
        r.signal_start(A, 1e-9, true, 100, 500);
        let early = r.signal_start(B, 1e-9, true, 501, 900).expect("A ended before B began");
        assert_eq!(early.frame, A);
        assert!(early.ok);
        assert_eq!(r.signal_end(A), RxEnd::AlreadyDone);
        assert_eq!(r.signal_end(B), RxEnd::Locked { ok: true, overlapped: false });
    }
}

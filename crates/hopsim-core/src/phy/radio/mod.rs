//! Per-node radio in ns-2's `capture` reception mode (mac-802_11.cc recv/capture/collision):
//! one frame is decoded at a time; a frame arriving during a reception is ignored if the frame
//! being received is at least `capture_threshold_db` stronger, otherwise both are lost and the
//! longer-lasting one keeps the receiver busy. Signals between the carrier-sense and decode
//! thresholds occupy the receiver as undecodable frames (`weak_frames = "receive"`, ns-2) or
//! are only sensed and judged as interference by the same rule (`"sense"`). Transmitting
//! corrupts a reception.
//!
//! Signals are registered when their transmission starts, with arrival times that include the
//! propagation delay; nothing here needs an event per listener.

use super::busy::BusyPeriods;
use super::config::WeakFrames;
use crate::engine::time::SimTime;
use crate::ids::NodeId;

/// Identifies a frame on the air: its transmitter and that transmitter's frame serial number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameRef {
    pub tx: NodeId,
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

/// What a receiver needs to know of a frame's PSDU: its rate, its length in octets and, for an
/// A-MPDU of several MPDUs, the octets of each subframe in order (delimiter and padding
/// included; empty otherwise).
#[derive(Debug, Clone, Copy)]
pub struct Psdu<'a> {
    pub rate: u32,
    pub bytes: u32,
    pub subframes: &'a [u16],
}

/// The `parts` of a frame decoded whole (every MPDU) or lost whole.
#[inline]
pub fn all_or_none(ok: bool) -> u64 {
    if ok {
        u64::MAX
    } else {
        0
    }
}

/// How a frame ended at this listener.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RxEnd {
    /// The receiver was locked on it: decoded if `ok`; `overlapped` when lost to another frame.
    /// `parts`: of an A-MPDU, bit i set if its MPDU i was decoded (`ok`: any was); of a
    /// single frame, every bit set or none.
    Locked { ok: bool, overlapped: bool, parts: u64 },
    /// It arrived while the receiver was busy (captured by another frame or transmitting).
    Missed,
    /// Already completed (see [`Radio::signal_start`]'s early completion).
    AlreadyDone,
}

/// What a signal's start did at the receiver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// The receiver was idle and locked on it.
    Locked,
    /// A reception had ended before it ([`Radio::early_end`]); then it locked on the signal
    /// (a weak one under `weak_frames = "sense"`: only noted).
    Early,
    /// The frame being received captured it away (ns-2 `capture()`: the ns2 profile's MAC
    /// sets its EIFS NAV from it).
    Captured,
    /// It collided with the frame being received.
    Collided,
    /// A frame below the decode threshold, only sensed (`weak_frames = "sense"`): the
    /// receiver did not lock on it (it may have ruined the frame being received).
    Sensed,
}

/// A reception finished early (its end lies before a new arrival whose end event comes later).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EarlyEnd {
    pub frame: FrameRef,
    pub end: SimTime,
    pub ok: bool,
    /// As in [`RxEnd::Locked`].
    pub parts: u64,
    pub overlapped: bool,
}

#[derive(Debug, Clone)]
pub struct Radio {
    /// End of this node's own transmission (the radio is half duplex).
    pub tx_until: SimTime,
    lock: Option<Lock>,
    /// A reception completed early (its end event still to come).
    last_done: Option<Lock>,
    /// Physical carrier sense from other nodes' signals.
    busy: BusyPeriods,
    capture_ratio: f64,
    last_rx_start: SimTime,
    /// `weak_frames = "sense"`: frames below the decode threshold are never locked on.
    sense_weak: bool,
    /// Those frames still on the air, as (end, power W): a frame arriving while one lasts is
    /// lost unless `capture_ratio` times stronger (capacity reused: no steady-state allocation).
    weak: Vec<(SimTime, f64)>,
}

impl Radio {
    /// The receiver `[radio]` asks for (`weak_frames` unset: ns-2's `"receive"`).
    pub fn from_config(c: &super::config::Radio) -> Radio {
        Radio::new(c.capture_threshold_db, c.weak_frames.unwrap_or(WeakFrames::Receive))
    }

    pub fn new(capture_threshold_db: f64, weak_frames: WeakFrames) -> Radio {
        Radio {
            tx_until: 0,
            lock: None,
            last_done: None,
            busy: BusyPeriods::default(),
            capture_ratio: 10f64.powf(capture_threshold_db / 10.0),
            last_rx_start: 0,
            sense_weak: weak_frames == WeakFrames::Sense,
            weak: Vec::new(),
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

    /// A signal arrives over [start, end): what it did to the receiver. On
    /// [`Start::Early`], [`Radio::early_end`] is a reception that ended before `start` but
    /// whose end event has not been processed yet, for the caller to complete first.
    #[inline]
    pub fn signal_start(
        &mut self,
        frame: FrameRef,
        power_w: f64,
        decodable: bool,
        start: SimTime,
        end: SimTime,
    ) -> Start {
        self.busy.add(start, end);
        if self.sense_weak {
            return self.sensing_start(frame, power_w, decodable, start, end);
        }
        self.capture_start(frame, power_w, decodable, start, end)
    }

    /// [`Radio::signal_start`] for a receiver that takes weak frames as receptions (ns-2,
    /// `weak_frames = "receive"`): the capture-mode fast path, with no test of the mode.
    #[inline]
    pub fn signal_start_ns2(
        &mut self,
        frame: FrameRef,
        power_w: f64,
        decodable: bool,
        start: SimTime,
        end: SimTime,
    ) -> Start {
        debug_assert!(!self.sense_weak, "a sensing receiver takes Radio::signal_start");
        self.busy.add(start, end);
        self.capture_start(frame, power_w, decodable, start, end)
    }

    /// `weak_frames = "sense"`: frames below the decode threshold are only sensed.
    pub fn senses_weak(&self) -> bool {
        self.sense_weak
    }

    /// ns-2's rules for a signal arriving over [start, end) (`mac-802_11.cc` `recv`,
    /// `capture`, `collision`).
    #[inline(always)]
    fn capture_start(
        &mut self,
        frame: FrameRef,
        power_w: f64,
        decodable: bool,
        start: SimTime,
        end: SimTime,
    ) -> Start {
        let outcome = match self.lock.as_mut() {
            Some(cur) if cur.end > start => {
                return if cur.power_w >= power_w * self.capture_ratio {
                    // Capture: the current frame survives, the newcomer is missed.
                    Start::Captured
                } else {
                    cur.ok = false;
                    cur.overlapped = true;
                    if end > cur.end {
                        // Both lost; the longer one holds the receiver (ns-2 collision()).
                        *cur = Lock { frame, power_w, end, ok: false, overlapped: true };
                    }
                    Start::Collided
                };
            }
            Some(cur) => {
                self.last_done = Some(*cur);
                Start::Early
            }
            None => Start::Locked,
        };
        // ns-2 locks even while transmitting, with the frame marked in error.
        let transmitting = self.transmitting_at(start);
        let ok = decodable && !transmitting;
        if ok {
            self.last_rx_start = start;
        }
        self.lock = Some(Lock { frame, power_w, end, ok, overlapped: transmitting });
        outcome
    }

    /// `weak_frames = "sense"`: a weak frame is only noted ([`Radio::weak_start`]); a
    /// decodable one follows ns-2's rules, and is ruined if it locks while a noted weak frame
    /// within the capture margin is still on the air. Kept off the default path.
    #[cold]
    #[inline(never)]
    fn sensing_start(
        &mut self,
        frame: FrameRef,
        power_w: f64,
        decodable: bool,
        start: SimTime,
        end: SimTime,
    ) -> Start {
        if !decodable {
            return self.weak_start(power_w, start, end);
        }
        let ruined = self.weak_interferes(power_w, start);
        let last_rx_start = self.last_rx_start;
        let outcome = self.capture_start(frame, power_w, true, start, end);
        if ruined && matches!(outcome, Start::Locked | Start::Early) {
            // Locked in error, as a frame that arrives while transmitting.
            let cur = self.lock.as_mut().expect("just locked");
            cur.ok = false;
            cur.overlapped = true;
            self.last_rx_start = last_rx_start;
        }
        outcome
    }

    /// A frame below the decode threshold under `weak_frames = "sense"`: it ruins the frame
    /// being received unless that one is `capture_ratio` times stronger, and is remembered
    /// while it lasts; the receiver never locks on it (no reception, so no EIFS after it).
    fn weak_start(&mut self, power_w: f64, start: SimTime, end: SimTime) -> Start {
        let outcome = match self.lock.as_mut() {
            Some(cur) if cur.end > start => {
                if cur.power_w < power_w * self.capture_ratio {
                    cur.ok = false;
                    cur.overlapped = true;
                }
                Start::Sensed
            }
            Some(cur) => {
                self.last_done = Some(*cur);
                self.lock = None;
                Start::Early
            }
            None => Start::Sensed,
        };
        self.weak.retain(|&(until, _)| until > start);
        self.weak.push((end, power_w));
        outcome
    }

    /// Whether a sensed weak frame still on the air at `start` is within the capture margin
    /// of a frame of `power_w` arriving then (each judged alone: capture mode adds no powers).
    fn weak_interferes(&mut self, power_w: f64, start: SimTime) -> bool {
        self.weak.retain(|&(until, _)| until > start);
        self.weak.iter().any(|&(_, p)| p * self.capture_ratio > power_w)
    }

    /// The reception that a signal's start reported as [`Start::Early`].
    /// When the last decodable frame the receiver took began to arrive (PHY-RXSTART follows
    /// its PHY header).
    pub fn last_rx_start(&self) -> SimTime {
        self.last_rx_start
    }

    /// End of physical carrier sense as known now: signals sensed, and this node's own frame.
    pub fn busy_until(&self) -> SimTime {
        self.busy.until().max(self.tx_until)
    }

    pub fn early_end(&self) -> EarlyEnd {
        let done = self.last_done.expect("an early completion");
        EarlyEnd {
            frame: done.frame,
            end: done.end,
            ok: done.ok,
            parts: all_or_none(done.ok),
            overlapped: done.overlapped,
        }
    }

    /// The signal of `frame` ends at this listener at `at`.
    pub fn signal_end(&mut self, frame: FrameRef) -> RxEnd {
        if self.last_done.is_some_and(|d| d.frame == frame) {
            self.last_done = None;
            return RxEnd::AlreadyDone;
        }
        match self.lock {
            Some(cur) if cur.frame == frame => {
                self.lock = None;
                RxEnd::Locked { ok: cur.ok, overlapped: cur.overlapped, parts: all_or_none(cur.ok) }
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
mod tests;
#[cfg(test)]
mod weak_tests;

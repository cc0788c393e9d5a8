//! DCF channel access (802.11-2007 9.2.5): when may this station start a transmission?
//!
//! Computed arithmetically from timestamps, as ns-3's ChannelAccessManager does: the MAC keeps
//! the latest busy period (physical carrier sense, own transmissions and NAV, which may begin a
//! few hundred nanoseconds in the future because arrivals carry their propagation delay), the
//! end of the last erroneous reception (EIFS), and the backoff as "remaining slots, counted from
//! a reference time". Elapsed idle slots are subtracted only when a busy period interrupts the
//! countdown; there is never one event per slot.
//!
//! Carrier sense takes time: a station decides at a slot boundary (and at the end of DIFS or
//! EIFS) from what its CCA reported during the slot before (802.11-2007 9.2.10, slot time
//! composition). A busy period that begins at most `cca` before such an instant is not sensed
//! there: the slot still counts as idle, and a countdown that ends then goes ahead, so two
//! stations whose countdowns end in the same slot both transmit and collide.

use crate::engine::time::{SimDuration, SimTime};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    /// Slots still to count down, as of `reference`.
    pub slots: u32,
    /// Counting may start at this time if the medium is idle then.
    pub reference: SimTime,
}

#[derive(Debug, Clone)]
pub struct Access {
    slot: SimDuration,
    difs: SimDuration,
    eifs: SimDuration,
    /// A busy period is sensed only once it has lasted longer than this (timing.rs CCA_NS).
    cca: SimDuration,
    busy_from: SimTime,
    busy_until: SimTime,
    /// Time the medium had been idle for an IFS after the period before the current one.
    prev_ready: SimTime,
    /// End of the last reception in error, until a correct reception ends after it.
    err_end: Option<SimTime>,
    backoff: Option<Backoff>,
}

/// Whole idle slots in [from, to).
fn slots_between(from: SimTime, to: SimTime, slot: SimDuration) -> u32 {
    if to > from {
        ((to - from) / slot).min(u32::MAX as u64) as u32
    } else {
        0
    }
}

impl Access {
    pub fn new(
        slot: SimDuration,
        difs: SimDuration,
        eifs: SimDuration,
        cca: SimDuration,
    ) -> Access {
        Access {
            slot,
            difs,
            eifs,
            cca,
            busy_from: 0,
            busy_until: 0,
            // The medium is idle from time 0: DIFS first.
            prev_ready: difs,
            err_end: None,
            backoff: None,
        }
    }

    /// Earliest time after the latest busy period at which the medium has been idle for DIFS,
    /// or EIFS after a reception in error.
    fn ready_after_period(&self) -> SimTime {
        let after_busy = self.busy_until + self.difs;
        match self.err_end {
            Some(e) => after_busy.max(e + self.eifs),
            None => after_busy,
        }
    }

    /// Last instant at which a busy period beginning at `start` is not yet sensed.
    fn unsensed_until(&self, start: SimTime) -> SimTime {
        start + self.cca
    }

    /// Medium (physical or virtual carrier sense, or own transmission) busy over [start, end).
    pub fn note_busy(&mut self, start: SimTime, end: SimTime) {
        if start > self.busy_until {
            self.close_period();
            self.busy_from = start;
            self.busy_until = end;
            // A countdown that had not begun when this period is sensed begins after it, at
            // the DIFS or EIFS that follows it as things stand then: a correct reception in
            // it ends a pending EIFS (9.2.3.4). Its reference becomes the first instant the
            // period is sensed (so that it cannot count as begun before).
            let sensed = self.unsensed_until(start) + 1;
            if let Some(b) = self.backoff.as_mut() {
                if b.reference >= sensed {
                    b.reference = sensed;
                }
            }
        } else {
            self.busy_from = self.busy_from.min(start);
            self.busy_until = self.busy_until.max(end);
        }
    }

    /// The current busy period is over and a new one begins: bank the slots counted before it.
    /// A countdown that had ended before the period stays over, its end in the past: the
    /// periods after it (an exchange spaced by SIFS, which never leaves DIFS idle) must not
    /// make it a countdown of no slots still to come (9.2.5.2: a frame that then finds the
    /// medium busy backs off).
    fn close_period(&mut self) {
        let ready = self.ready_after_period();
        let unsensed = self.unsensed_until(self.busy_from);
        if let Some(b) = self.backoff.as_mut() {
            let done_at = b.reference + b.slots as u64 * self.slot;
            if done_at <= unsensed {
                *b = Backoff { slots: 0, reference: done_at };
            } else {
                let counted = slots_between(b.reference, unsensed, self.slot);
                b.slots -= counted.min(b.slots);
                b.reference = b.reference.max(ready);
            }
        }
        self.prev_ready = ready;
    }

    /// The NAV that held the current busy period was reset: the period ends at `until` (the
    /// caller gives the latest of now and physical carrier sense), if that is earlier than it
    /// would have. A backoff whose countdown was to begin after the old end (its reference
    /// was a DIFS or EIFS after it, or after an earlier extension of the period) begins
    /// after the new one.
    pub fn reset_nav(&mut self, until: SimTime) {
        if until < self.busy_until {
            self.busy_until = until.max(self.busy_from);
            let ready = self.ready_after_period();
            if let Some(b) = self.backoff.as_mut() {
                b.reference = b.reference.min(ready);
            }
        }
    }

    /// A reception ended at `at`; an error means EIFS instead of DIFS (9.2.3.4). True if a
    /// correct one ended a pending EIFS (the only way the access time moves earlier).
    pub fn note_rx_end(&mut self, at: SimTime, ok: bool) -> bool {
        match (ok, self.err_end) {
            (false, Some(e)) => self.err_end = Some(e.max(at)),
            (false, None) => self.err_end = Some(at),
            (true, Some(e)) if at >= e => {
                self.err_end = None;
                // A countdown set to begin EIFS after the error begins DIFS after the period.
                let ready = self.ready_after_period();
                if let Some(b) = self.backoff.as_mut() {
                    b.reference = b.reference.min(ready);
                }
                return true;
            }
            _ => {}
        }
        false
    }

    /// Is the medium busy at `t` as far as this station knows (sensed by then)?
    pub fn busy_at(&self, t: SimTime) -> bool {
        self.unsensed_until(self.busy_from) < t && t < self.busy_until
    }

    /// Time from which the medium counts as idle-for-an-IFS, seen from `now`.
    fn ready_time(&self, now: SimTime) -> SimTime {
        if now <= self.unsensed_until(self.busy_from) {
            self.prev_ready
        } else {
            self.ready_after_period()
        }
    }

    /// Start a backoff of `slots` slots now.
    pub fn start_backoff(&mut self, now: SimTime, slots: u32) {
        self.start_backoff_not_before(now, slots, now);
    }

    /// Start a backoff of `slots` slots now whose countdown begins no earlier than
    /// `not_before` (and, as always, only once the medium has been idle for DIFS or EIFS).
    pub fn start_backoff_not_before(&mut self, now: SimTime, slots: u32, not_before: SimTime) {
        let reference = now.max(not_before).max(self.ready_time(now));
        self.backoff = Some(Backoff { slots, reference });
    }

    /// A frame is queued with no backoff running: if the medium is idle now, the station may
    /// transmit once it has been idle for DIFS/EIFS (returns true); if busy, it must back off.
    pub fn try_immediate(&mut self, now: SimTime) -> bool {
        if self.busy_at(now) {
            false
        } else {
            self.start_backoff(now, 0);
            true
        }
    }

    pub fn backoff(&self) -> Option<Backoff> {
        self.backoff
    }

    pub fn clear_backoff(&mut self) {
        self.backoff = None;
    }

    /// When the backoff (if any) completes, given every busy period known so far. A countdown
    /// (or DIFS/EIFS, with no slots) that ends before the latest busy period is sensed is not
    /// stopped by it.
    pub fn access_time(&self) -> Option<SimTime> {
        let b = self.backoff?;
        let direct = b.reference + b.slots as u64 * self.slot;
        let unsensed = self.unsensed_until(self.busy_from);
        if direct <= unsensed {
            return Some(direct);
        }
        let counted = slots_between(b.reference, unsensed, self.slot).min(b.slots);
        let start = self.ready_after_period().max(b.reference);
        Some(start + (b.slots - counted) as u64 * self.slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::us;

    /// Zero detection time (the ns2 profile, dcf/ns2.rs): the slot arithmetic is exact at the
    /// boundaries. The standard's CCA time is scripted in access/timeline_tests.rs.
    fn access() -> Access {
        Access::new(us(20), us(50), us(364), 0)
    }

    #[test]
    fn medium_counts_as_idle_only_after_difs_at_start() {
        let mut a = access();
        a.start_backoff(0, 1);
        assert_eq!(a.access_time(), Some(us(50 + 20)));
    }

    #[test]
    fn idle_medium_counts_down_from_reference() {
        let mut a = access();
        a.start_backoff(us(1000), 5);
        assert_eq!(a.access_time(), Some(us(1000 + 100)));
    }

    #[test]
    fn busy_period_freezes_and_resumes_after_difs() {
        let mut a = access();
        a.start_backoff(us(1000), 5);
        // Busy from 1045 us (2 whole slots counted) to 2000 us.
        a.note_busy(us(1045), us(2000));
        assert_eq!(a.access_time(), Some(us(2000 + 50 + 3 * 20)));
        // A later period: 2050..2070 counts one more slot; 2 left.
        a.note_busy(us(2070), us(3000));
        assert_eq!(a.access_time(), Some(us(3000 + 50 + 2 * 20)));
    }

    #[test]
    fn partial_slot_is_not_counted() {
        let mut a = access();
        a.start_backoff(us(1000), 3);
        a.note_busy(us(1039), us(1100));
        assert_eq!(a.access_time(), Some(us(1100 + 50 + 2 * 20)));
    }

    #[test]
    fn eifs_after_error_and_cleared_by_good_frame() {
        let mut a = access();
        a.note_busy(us(100), us(500));
        a.note_rx_end(us(500), false);
        a.start_backoff(us(200), 0);
        assert_eq!(a.access_time(), Some(us(500 + 364)));
        a.note_busy(us(600), us(900));
        assert!(!a.note_rx_end(us(400), true), "a frame ending before the error clears nothing");
        assert!(a.note_rx_end(us(900), true), "the access time moved earlier");
        assert!(!a.note_rx_end(us(950), true), "nothing left to clear");
        a.start_backoff(us(700), 0);
        assert_eq!(a.access_time(), Some(us(950)));
    }

    #[test]
    fn backoff_ending_before_a_future_arrival_is_not_delayed() {
        let mut a = access();
        a.start_backoff(us(1000), 2); // done at 1040 us
        a.note_busy(us(1040) + 500, us(1400));
        assert_eq!(a.access_time(), Some(us(1040)));
        // ...nor is one starting at the very instant it ends (ns-2 runs the backoff timer, set
        // earlier, before the frame's arrival at the same time), but one a nanosecond earlier
        // defers it: the medium is busy at the boundary (9.2.5.2).
        let mut b = access();
        b.start_backoff(us(1000), 2);
        b.note_busy(us(1040), us(1400));
        assert_eq!(b.access_time(), Some(us(1040)));
        let mut c = access();
        c.start_backoff(us(1000), 2);
        c.note_busy(us(1040) - 1, us(1400));
        assert_eq!(c.access_time(), Some(us(1450) + 20_000), "last slot not counted");
    }

    #[test]
    fn immediate_access_needs_idle_medium() {
        let mut a = access();
        a.note_busy(us(100), us(300));
        assert!(!a.try_immediate(us(200)));
        assert!(a.try_immediate(us(310)));
        assert_eq!(a.access_time(), Some(us(350)));
    }
}

#[cfg(test)]
mod timeline_tests;

//! ns-2.35's Mac802_11 where it departs from the standard (`DcfConfig::ns2`, the ns2 profile).
//! Source: ns-2.35 mac/mac-802_11.cc.
//!
//! EIFS is a NAV in ns-2: `capture()` sets it when a frame arrives that the receiver captures
//! away (until that frame's end + EIFS), and `recv_timer` at the end of a frame received in
//! error (+ EIFS). It is never cleared by a later good frame, and when it expires the backoff
//! resumes only after a further DIFS (`navHandler`). A CTS goes out only if the medium is idle
//! when SIFS has passed (`check_pktCTRL` -> `is_idle()`: nothing received, NAV expired), so a
//! node that hears a weaker frame during an RTS addressed to it stays silent.

use super::*;

/// ns-2 senses a frame the instant its first bit arrives (`recv()` sets the receive state,
/// and `setRxState` -> `checkBackoffTimer` pauses the backoff), so a busy period that began
/// before the countdown ends always pauses it. One that begins at the very instant the
/// countdown ends does not: the backoff timer event was scheduled before the frame's
/// arrival event (the arrival is scheduled when the peer transmits, later), and the
/// Calendar scheduler runs same-time events in insertion order (`CalendarScheduler::insert`
/// places a new event after every event of equal time), so `BackoffTimer::handle` ->
/// `backoffHandler` -> `check_pktTx`/`check_pktRTS` find `is_idle()` true and transmit.
/// (ns-2's double clock can put the two an ulp apart either way; hopsim's integer clock
/// makes them equal, the case above.) A detection time of zero under access.rs's rule
/// ("not sensed if it begins at most this long before the decision") is exactly that.
pub(super) const NS2_CCA_NS: SimTime = 0;

impl Dcf {
    /// A frame arriving over [start, end) was captured away by the one being received.
    pub fn on_captured(&mut self, start: SimTime, end: SimTime) {
        if self.cfg.ns2 {
            self.ns2_eifs_nav(start, end);
        }
    }

    /// NAV until `end` + EIFS, counted as a busy period from `start` (so DIFS follows it).
    #[inline]
    pub(super) fn ns2_eifs_nav(&mut self, start: SimTime, end: SimTime) {
        let until = end + self.cfg.timing.eifs;
        if until > self.eifs_nav_until {
            self.eifs_nav_until = until;
        }
        self.access.note_busy(start, until);
    }

    /// ns-2 `is_idle()` at the moment a CTS would go out (always true outside the profile).
    pub(super) fn ns2_may_answer(&self, now: SimTime) -> bool {
        !self.cfg.ns2
            || (self.nav_until <= now && self.eifs_nav_until <= now && !self.access.busy_at(now))
    }
}

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
use crate::engine::time::SimDuration;

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

/// ns-2's allowance for propagation in its CTS, ACK and DATA waits (mac-802_11.h
/// `DSSS_MaxPropagationDelay`, 2 us).
pub(super) const NS2_MAX_PROP_NS: SimDuration = 2_000;

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
        self.medium_busy(start, until);
    }

    /// How long after the end of its RTS (DATA) the sender waits for the CTS (ACK). ns-2
    /// (`check_pktRTS`, `check_pktTx`): 2 us + SIFS + the response at the basic rate + 2 us;
    /// the standard (timing.rs): SIFS + the response + a slot + the round trip.
    pub(super) fn response_timeout(&self, response_ns: SimDuration) -> SimDuration {
        let t = &self.cfg.timing;
        if self.cfg.ns2 {
            t.sifs + response_ns + 2 * NS2_MAX_PROP_NS
        } else {
            t.response_timeout(response_ns)
        }
    }

    /// After a CTS or ACK timeout, how long the retry's countdown waits from the timeout
    /// itself. ns-2 starts that backoff while `tx_state_` is still `MAC_RTS`/`MAC_SEND`
    /// (`RetransmitRTS`/`RetransmitDATA`: `mhBackoff_.start(cw_, is_idle())`, paused since
    /// `is_idle()` is false), and `tx_resume` -> `setTxState(MAC_IDLE)` ->
    /// `checkBackoffTimer` resumes it after DIFS (`BackoffTimer::resume(DIFS)`): DIFS from
    /// the timeout, not from the end of the RTS. The standard counts from the end of the
    /// last busy period (9.2.5.2), which the timeout already lies DIFS past.
    pub(super) fn retry_countdown_delay(&self) -> SimDuration {
        if self.cfg.ns2 {
            self.cfg.timing.difs
        } else {
            0
        }
    }

    /// ns-2 `check_pktCTRL` for a CTS sent at `now`: `tx_state_` is `MAC_CTS` until the
    /// DATA should have ended (CTS + 2 us + the CTS's duration + 2 us - SIFS - ACK, i.e. the
    /// DATA's end + 4 us). Meanwhile the node answers no RTS (`recvRTS`) and its backoff is
    /// paused, to resume DIFS after (`tx_resume`); the DATA's arrival ends the wait early
    /// (`recvDATA`: `mhSend_.stop()`), its ACK following at once.
    pub(super) fn ns2_await_data(&mut self, now: SimTime, cts: &Frame) {
        if !self.cfg.ns2 {
            return;
        }
        let t = &self.cfg.timing;
        let until = (now + cts.airtime_ns + 2 * NS2_MAX_PROP_NS + cts.nav_ns)
            .saturating_sub(t.sifs + t.ack_ns);
        self.ns2_cts_until = until;
        self.medium_busy(now, until);
    }

    /// ns-2 `check_pktTx` SIFS after the CTS: the medium is not idle (a frame being
    /// received, the NAV or EIFS set), so the DATA does not go out; the exchange starts over
    /// with an RTS after a doubled window (`sendRTS`, `inc_cw`, a backoff resumed DIFS after
    /// the medium is idle), no retry counted (the CTS reset the short count).
    pub(super) fn ns2_data_deferred(&mut self, cx: &mut MacCtx) {
        self.double_cw();
        self.phase = Phase::Contend;
        self.draw_backoff(cx);
    }

    /// ns-2 `is_idle()` at the moment a CTS (or the DATA after a CTS) would go out (always
    /// true outside the profile).
    pub(super) fn ns2_may_answer(&self, now: SimTime) -> bool {
        !self.cfg.ns2
            || (self.nav_until <= now && self.eifs_nav_until <= now && !self.medium_busy_at(now))
    }
}

//! NAV reset (IEEE 802.11-2016 10.3.2.4): a station whose NAV was last set from an RTS may
//! reset it when no PHY-RXSTART follows within NAVTimeout of the RTS's end (2 SIFS + CTS +
//! the PHY's start delay + 2 slots): the RTS went unanswered, and the exchange it announced is
//! not taking place. ns-3.44 resets it (`FrameExchangeManager::UpdateNav` arms
//! `NavResetTimeout`, `RxStartIndication` cancels it); ns-2.35's Mac802_11 does not, so the
//! ns2 profile never does.

use super::*;

/// The NAV an overheard RTS set, and until when a reception must start to keep it.
#[derive(Debug, Clone, Copy)]
pub(super) struct NavReset {
    rts_end: SimTime,
    nav_end: SimTime,
    deadline: SimTime,
}

impl Dcf {
    /// An RTS addressed elsewhere ended at `rts_end` and set the NAV to `nav_end`.
    pub(super) fn nav_from_rts(&mut self, cx: &mut MacCtx, rts_end: SimTime, nav_end: SimTime) {
        if self.cfg.ns2 {
            return;
        }
        let deadline = rts_end + self.cfg.timing.nav_timeout_ns();
        if deadline >= nav_end {
            return; // the NAV ends before it could be reset
        }
        self.nav_reset = Some(NavReset { rts_end, nav_end, deadline });
        let generation = self.nav_reset_timer.arm(deadline);
        cx.timers.arm(deadline, self.node, MacTimer::NavReset, generation);
    }

    /// PHY-RXSTART: this node's receiver took a frame that began arriving at `start` (its
    /// PHY header ends aRxPHYStartDelay later). One after the RTS, in time, keeps the NAV.
    #[inline]
    pub fn on_rx_start(&mut self, start: SimTime) {
        if let Some(r) = self.nav_reset {
            let rx_start = start + self.cfg.timing.rx_phy_start_ns();
            if start >= r.rts_end && rx_start <= r.deadline {
                self.nav_reset = None;
            }
        }
    }

    /// NAVTimeout passed with no reception: the NAV set by the RTS ends now, unless a later
    /// frame set it since. The medium then stays busy only as long as signals and this node's
    /// own transmissions keep it.
    pub(super) fn on_nav_reset_timer(&mut self, cx: &mut MacCtx, generation: u32) {
        if !self.nav_reset_timer.fire(generation) {
            return;
        }
        let Some(r) = self.nav_reset.take() else { return };
        if self.nav_until != r.nav_end || self.nav_until <= cx.now {
            return;
        }
        self.nav_until = cx.now;
        self.note(cx, MacNote::Nav { until: cx.now });
        self.access.cut_busy(cx.now.max(self.phys_busy_until));
        self.arm_access(cx);
    }
}

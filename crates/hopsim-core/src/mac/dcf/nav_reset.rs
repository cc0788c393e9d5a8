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
        // Only a MAC with a packet needs to wake for it; an idle one settles it when its next
        // packet arrives (Dcf::offer): no event per overheard RTS at every idle listener.
        if self.has_work() {
            self.arm_nav_reset(cx);
        }
    }

    fn arm_nav_reset(&mut self, cx: &mut MacCtx) {
        if let Some(r) = self.nav_reset {
            let generation = self.nav_reset_timer.arm(r.deadline);
            cx.timers.arm(r.deadline, self.node, MacTimer::NavReset, generation);
        }
    }

    /// A packet arrives at an idle MAC: a NAV reset still pending is timed now, or settled
    /// at once if its deadline has passed (`report` reads the receiver, as for the timer).
    pub(super) fn nav_reset_on_offer(
        &mut self,
        cx: &mut MacCtx,
        report: impl FnOnce() -> (SimTime, SimTime),
    ) {
        match self.nav_reset {
            Some(r) if r.deadline > cx.now => self.arm_nav_reset(cx),
            Some(_) => self.settle_nav_reset(cx, report()),
            None => {}
        }
    }

    /// NAVTimeout passed. The receiver reports when the frame it last took began to arrive
    /// (PHY-RXSTART comes aRxPHYStartDelay later; one after the RTS, in time, keeps the NAV)
    /// and when physical carrier sense ends. Otherwise the NAV set by the RTS ends now,
    /// unless a later frame set it since, and the medium stays busy only as long as signals
    /// and this node's own frames keep it. (The PHY's report is read here, once, rather than
    /// sent with every frame a receiver takes.)
    pub fn on_nav_reset(
        &mut self,
        cx: &mut MacCtx,
        generation: u32,
        (last_rx_start, phys_busy_until): (SimTime, SimTime),
    ) {
        if self.nav_reset_timer.fire(generation) {
            self.settle_nav_reset(cx, (last_rx_start, phys_busy_until));
        }
    }

    fn settle_nav_reset(
        &mut self,
        cx: &mut MacCtx,
        (last_rx_start, phys_busy_until): (SimTime, SimTime),
    ) {
        let Some(r) = self.nav_reset.take() else { return };
        // A reception that started after the RTS and reached PHY-RXSTART by the deadline keeps
        // the NAV: the exchange is under way. Settled late (at an offer, after the deadline),
        // a later reception hides whether one started in time: the NAV is then kept.
        if last_rx_start >= r.rts_end {
            let in_time = last_rx_start + self.cfg.timing.rx_phy_start_ns() <= r.deadline;
            if in_time || cx.now > r.deadline {
                return;
            }
        }
        if self.nav_until != r.nav_end || self.nav_until <= cx.now {
            return;
        }
        self.nav_until = cx.now;
        self.note(cx, MacNote::Nav { until: cx.now });
        self.medium_reset_nav(cx.now.max(phys_busy_until));
        self.arm_access(cx);
    }
}

//! The DCF's access timer: armed for the time the backoff (or DIFS/EIFS) completes as far as
//! the MAC knows (`access.rs`), and re-armed lazily. A busy period that interrupts the
//! countdown does not touch the timer; the firing at the old deadline finds the access time
//! later and re-arms for it, once. So the timer is never late and never moved per frame.

use super::*;

/// What a firing of the access timer finds ([`Dcf::check_access`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessCheck {
    /// Cancelled, superseded, or nothing waits for the medium: nothing to do.
    Stale,
    /// The access time moved later: the timer is re-armed for `at` with `generation`, and the
    /// caller must queue that firing (as if scheduled now).
    Later { at: SimTime, generation: u32 },
    /// The medium is won: [`Dcf::win_access`] sends.
    Due,
}

impl Dcf {
    /// (Re)arm the access timer if a function waits for the medium and the deadline moved
    /// earlier or none is pending.
    #[inline]
    pub(super) fn arm_access(&mut self, cx: &mut MacCtx) {
        if let Some(at) = self.next_access_time() {
            let at = at.max(cx.now);
            if self.access_timer.deadline().is_none_or(|d| at < d) {
                let generation = self.access_timer.arm(at);
                cx.timers.arm(at, self.node, MacTimer::Access, generation);
            }
        }
    }

    /// Would [`Dcf::arm_access`] at `now` leave the timer as it is? (Checks that a change
    /// which never re-arms the timer only moved the access time later.)
    pub fn access_timer_holds(&self, now: SimTime) -> bool {
        match (self.next_access_time(), self.access_timer.deadline()) {
            (Some(at), Some(d)) => at.max(now) >= d,
            (at, _) => at.is_none(),
        }
    }

    /// The access timer's event of `generation` fires at `now`.
    pub fn on_access_timer(&mut self, cx: &mut MacCtx, generation: u32) {
        match self.check_access(cx.now, generation) {
            AccessCheck::Stale => {}
            AccessCheck::Later { at, generation } => {
                cx.timers.arm(at, self.node, MacTimer::Access, generation)
            }
            AccessCheck::Due => self.win_access(cx),
        }
    }

    /// The state change of a firing at `now`, without scheduling or sending anything: an event
    /// loop that re-queues a `Later` firing in place (`Scheduler::requeue_next`, world/run.rs)
    /// saves taking it off the queue and putting it back.
    #[inline]
    pub fn check_access(&mut self, now: SimTime, generation: u32) -> AccessCheck {
        if !self.access_timer.fire(generation) {
            return AccessCheck::Stale;
        }
        if let [dcf] = self.efs.as_mut_slice() {
            // One DCF (every 802.11a/b/g MAC, the hot path): no ties, no TXOP.
            if self.phase != Phase::Contend {
                return AccessCheck::Stale;
            }
            let a = &mut dcf.access;
            let Some(mut at) = a.access_time() else {
                return AccessCheck::Stale;
            };
            if at < now && a.busy_at(now) {
                // The countdown ended before a busy period this timer fired inside of (cannot
                // happen while the timer is re-armed on every earlier deadline; kept safe):
                // the backoff is spent, access follows the busy period.
                a.start_backoff(now, 0);
                at = a.access_time().expect("backoff set");
            }
            if at > now {
                let generation = self.access_timer.arm(at);
                return AccessCheck::Later { at, generation };
            }
            return AccessCheck::Due;
        }
        if self.pick_winner(now) {
            return AccessCheck::Due;
        }
        match self.next_access_time() {
            Some(at) if at > now => {
                let generation = self.access_timer.arm(at);
                AccessCheck::Later { at, generation }
            }
            _ => AccessCheck::Stale,
        }
    }

    /// The current function's backoff is over and the medium idle: send its first frame (RTS
    /// or DATA), after settling the internal collisions it won.
    pub fn win_access(&mut self, cx: &mut MacCtx) {
        self.internal_collisions(cx);
        let continuing = self.txop_on_win(cx.now);
        // A TXOP's later frames follow a response by SIFS, as responses do.
        self.txop_burst = continuing;
        if self.agg_mgmt_due() {
            return self.send_mgmt(cx); // an ADDBA frame goes first (dcf/agg/addba.rs)
        }
        let Some(mut job) = self.job() else {
            // A continuation offered nothing this function sends (cannot happen: kept safe).
            return self.txop_give_up(cx);
        };
        if job.aggregate {
            self.efs[self.cur].access.clear_backoff();
            return self.agg_win_access(cx, job.dst, continuing);
        }
        // Each attempt asks rate control afresh (ARF may have stepped down after a failure).
        job.rate = if job.dst == NodeId::BROADCAST {
            self.cfg.timing.basic_rate
        } else {
            self.rates.data_rate(job.dst, cx.now)
        };
        if continuing && !self.fits_txop(cx.now, &job) {
            // The next exchange does not fit what is left: the TXOP ends, the function
            // contends with the backoff it drew when the last one ended.
            return self.txop_give_up(cx);
        }
        if self.amsdu_wanted(&job) {
            *self.job_mut() = Some(job);
            return self.amsdu_fill(cx, job); // more MSDUs join first (dcf/amsdu.rs)
        }
        self.send_first(cx, job);
    }

    /// The first frame of a lone MPDU's exchange: an RTS, a CTS to itself, or the DATA.
    #[inline(always)]
    pub(super) fn send_first(&mut self, cx: &mut MacCtx, mut job: Job) {
        self.efs[self.cur].access.clear_backoff();
        let protection = self.erp_protection(&job);
        if self.cfg.erp_protection == ErpProtection::RtsCts {
            // Per attempt, as the rate: RTS/CTS by the threshold or to protect ERP-OFDM.
            job.use_rts = self.rts_by_threshold(job.dst, job.mpdu_bytes)
                || protection == ErpProtection::RtsCts;
        }
        *self.job_mut() = Some(job);
        if job.use_rts {
            self.send_rts(cx, job);
        } else if protection == ErpProtection::CtsToSelf {
            self.send_cts_to_self(cx, &job);
        } else {
            self.send_data(cx, job);
        }
    }

    /// Would the exchange of a lone frame of `job` (its RTS/CTS, the frame, SIFS and the ACK)
    /// end within the TXOP?
    fn fits_txop(&self, now: SimTime, job: &Job) -> bool {
        let Some(left) = self.txop_left(now) else { return true };
        let t = &self.cfg.timing;
        let data_ns = t.airtime_ns(job.mpdu_bytes, job.rate);
        let mut need = data_ns + t.sifs + t.ack_after_ns(job.rate);
        if job.use_rts {
            need += t.rts_ns + t.sifs + t.cts_ns + t.sifs;
        }
        need <= left
    }
}

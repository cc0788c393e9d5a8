//! The channel access functions of one MAC: a single DCF (802.11-2016 10.3.2), or a QoS
//! station's four EDCAFs (10.22.2), each with its own AIFS, contention window, backoff and
//! packet in service, all counting down on the same medium. When two finish their countdown
//! at the same slot the higher category transmits and the others act as if they had collided
//! (an internal collision, 10.22.2.4: the frame's retry count and the CW grow, a new backoff
//! is drawn; ns-3.44's `FrameExchangeManager::NotifyInternalCollision`). A category with a
//! TXOP limit keeps the medium after a successful exchange for further ones SIFS apart while
//! they fit within the limit (10.22.2.8); the Duration fields protect each exchange alone
//! (ns-3.44's `ProtectSingleExchange`), so no CF-End is needed. A failed exchange ends the
//! TXOP with a backoff (10.22.2.2; not PIFS recovery).

use super::*;
use crate::engine::time::SimDuration;
use crate::mac::access::Access;

/// One channel access function.
#[derive(Debug, Clone)]
pub(super) struct Edcaf {
    pub params: EdcaParams,
    pub access: Access,
    pub cw: u32,
    pub job: Option<Job>,
    /// TID of its QoS Data frames (the category's user priority, mac/edca.rs).
    pub tid: u8,
}

impl Edcaf {
    /// The functions a MAC of `cfg` has: four by category, or one DCF.
    pub fn all(cfg: &DcfConfig, cca: SimDuration) -> Vec<Edcaf> {
        let t = &cfg.timing;
        match cfg.edca {
            Some(params) => Ac::ALL
                .iter()
                .map(|&ac| {
                    let p = params[ac.index()];
                    let aifs = p.aifs_ns(t.slot, t.sifs);
                    // EIFS - DIFS + AIFS[AC] after an erroneous frame (10.22.2.4).
                    let eifs = t.eifs - t.difs + aifs;
                    let access = Access::new(t.slot, aifs, eifs, cca);
                    Edcaf { params: p, access, cw: p.cw_min, job: None, tid: ac.tid() }
                })
                .collect(),
            None => {
                let p = EdcaParams {
                    aifsn: 2,
                    cw_min: cfg.cw_min,
                    cw_max: cfg.cw_max,
                    txop_limit_ns: 0,
                };
                let access = Access::new(t.slot, t.difs, t.eifs, cca);
                vec![Edcaf { params: p, access, cw: cfg.cw_min, job: None, tid: 0 }]
            }
        }
    }

    #[inline]
    pub fn double_cw(&mut self) {
        self.cw = (2 * self.cw + 1).min(self.params.cw_max);
    }

    #[inline]
    pub fn reset_cw(&mut self) {
        self.cw = self.params.cw_min;
    }
}

/// The TXOP the current function holds.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Txop {
    /// End of the TXOP (TXOP start + limit); 0: none beyond the exchange in progress.
    until: SimTime,
    /// An exchange of the TXOP ended well at `.0`: a packet offered then to the same function
    /// may go at `.1` (SIFS later) without contending.
    next: Option<(SimTime, SimTime)>,
    /// Set when the continuation was taken up: the access time of the current function.
    due: Option<SimTime>,
}

impl Txop {
    pub fn end(&mut self) {
        *self = Txop::default();
    }
}

impl Dcf {
    /// The function serving category `ac` (the DCF serves them all).
    #[inline]
    pub(super) fn ef_index(&self, ac: Ac) -> usize {
        if self.efs.len() == 1 {
            0
        } else {
            ac.index()
        }
    }

    /// The current function's packet in service.
    #[inline]
    pub(super) fn job(&self) -> Option<Job> {
        self.efs[self.cur].job
    }

    #[inline]
    pub(super) fn job_mut(&mut self) -> &mut Option<Job> {
        &mut self.efs[self.cur].job
    }

    /// The TID of the current function's frames.
    #[inline]
    pub(super) fn tid(&self) -> u8 {
        self.efs[self.cur].tid
    }

    /// An exchange is under way or some function waits for the medium.
    pub(super) fn has_work(&self) -> bool {
        self.phase != Phase::Idle || self.efs.iter().any(|e| e.job.is_some())
    }

    /// No exchange is under way: the functions may contend.
    #[inline]
    fn exchange_free(&self) -> bool {
        matches!(self.phase, Phase::Idle | Phase::Contend)
    }

    /// Does function `i` contend for the medium now?
    #[inline]
    fn contends(&self, i: usize) -> bool {
        if i == self.cur {
            self.phase == Phase::Contend
        } else {
            self.efs[i].job.is_some() || self.agg_mgmt_due_for(self.efs[i].tid)
        }
    }

    /// When function `i` would win the medium, if it contends.
    #[inline]
    fn access_time_of(&self, i: usize) -> Option<SimTime> {
        if !self.contends(i) {
            return None;
        }
        match self.txop.due {
            Some(at) if i == self.cur => Some(at),
            _ => self.efs[i].access.access_time(),
        }
    }

    /// The earliest time a contending function wins the medium (none during an exchange).
    #[inline]
    pub(super) fn next_access_time(&self) -> Option<SimTime> {
        if !self.exchange_free() {
            return None;
        }
        if let [dcf] = self.efs.as_slice() {
            // One DCF (every 802.11a/b/g MAC): no TXOP.
            return if self.phase == Phase::Contend { dcf.access.access_time() } else { None };
        }
        (0..self.efs.len()).filter_map(|i| self.access_time_of(i)).min()
    }

    /// The functions whose countdown has ended at `now` (after fixing a countdown that
    /// ended inside a busy period, dcf/access_timer.rs): the highest becomes the current one
    /// and the others are marked for an internal collision. False if none has.
    pub(super) fn pick_winner(&mut self, now: SimTime) -> bool {
        let mut winner = None;
        self.losers = 0;
        for i in (0..self.efs.len()).rev() {
            if !self.contends(i) {
                continue;
            }
            let in_txop = i == self.cur && self.txop.due.is_some();
            let a = &mut self.efs[i].access;
            if !in_txop {
                match a.access_time() {
                    Some(at) if at < now && a.busy_at(now) => {
                        // The countdown ended before a busy period this timer fired inside
                        // of (cannot happen while the timer is re-armed on every earlier
                        // deadline; kept safe): access follows the busy period.
                        a.start_backoff(now, 0);
                    }
                    _ => {}
                }
            }
            if self.access_time_of(i).is_some_and(|at| at <= now) {
                match winner {
                    None => winner = Some(i),
                    Some(_) => self.losers |= 1 << i,
                }
            }
        }
        let Some(w) = winner else { return false };
        if w != self.cur {
            self.txop.end();
            self.cur = w;
            self.phase = Phase::Contend;
        }
        true
    }

    /// The functions that lost an internal collision to the current one (10.22.2.4): each
    /// counts a failed attempt of its frame (dropped at the retry limit, except under a
    /// Block Ack agreement, whose MPDUs only age out), doubles its CW and backs off again.
    #[inline]
    pub(super) fn internal_collisions(&mut self, cx: &mut MacCtx) {
        if self.losers != 0 {
            self.settle_internal_collisions(cx);
        }
    }

    #[inline(never)]
    fn settle_internal_collisions(&mut self, cx: &mut MacCtx) {
        while self.losers != 0 {
            let i = self.losers.trailing_zeros() as usize;
            self.losers &= self.losers - 1;
            self.counters.internal_collisions += 1;
            let limit = self.cfg.short_retry_limit;
            let e = &mut self.efs[i];
            e.double_cw();
            if let Some(job) = e.job.as_mut().filter(|j| j.dst != NodeId::BROADCAST) {
                if !job.aggregate && !job.awaiting_agreement {
                    job.short_retries += 1;
                    if job.short_retries >= limit {
                        let job = e.job.take().expect("a job");
                        e.reset_cw();
                        self.rates.finish_packet(
                            job.dst,
                            job.mpdu_bytes,
                            job.use_rts,
                            false,
                            cx.now,
                        );
                        self.counters.retry_limit_drops += 1;
                        self.counters.unicast_done += 1;
                        let service_ns = cx.now - job.offered_ns;
                        let output = MacOutput::Done {
                            packet: job.packet,
                            next_hop: job.dst,
                            acked: false,
                            service_ns,
                        };
                        cx.out.push(Tagged { output, node: self.node });
                    }
                }
            }
            self.draw_backoff_for(cx, i, cx.now);
        }
    }

    /// Medium busy over [start, end) for every function.
    #[inline]
    pub(super) fn medium_busy(&mut self, start: SimTime, end: SimTime) {
        match self.efs.as_mut_slice() {
            [dcf] => dcf.access.note_busy(start, end),
            efs => efs.iter_mut().for_each(|e| e.access.note_busy(start, end)),
        }
    }

    /// A reception ended at `at` (EIFS after an error); true if an access time moved earlier.
    #[inline]
    pub(super) fn medium_rx_end(&mut self, at: SimTime, ok: bool) -> bool {
        match self.efs.as_mut_slice() {
            [dcf] => dcf.access.note_rx_end(at, ok),
            efs => efs.iter_mut().fold(false, |earlier, e| e.access.note_rx_end(at, ok) | earlier),
        }
    }

    pub(super) fn medium_reset_nav(&mut self, until: SimTime) {
        for e in &mut self.efs {
            e.access.reset_nav(until);
        }
    }

    /// The medium as carrier sense reports it (the same for every function).
    #[inline]
    pub(super) fn medium_busy_at(&self, t: SimTime) -> bool {
        self.efs[0].access.busy_at(t)
    }

    /// The current function wins the medium: a TXOP begins, or (returns true) continues.
    #[inline]
    pub(super) fn txop_on_win(&mut self, now: SimTime) -> bool {
        self.txop.next = None;
        if self.txop.due.take().is_some() {
            return true;
        }
        let limit = self.efs[self.cur].params.txop_limit_ns;
        self.txop = Txop { until: if limit > 0 { now + limit } else { 0 }, ..Txop::default() };
        false
    }

    /// The current function's exchange succeeded and it is idle: if its TXOP has time left,
    /// a packet offered at once may follow after SIFS.
    #[inline]
    pub(super) fn txop_on_finish(&mut self, now: SimTime) {
        let sifs = self.cfg.timing.sifs;
        if self.txop.until > now + sifs {
            self.txop.next = Some((now, now + sifs));
        } else {
            self.txop.end();
        }
    }

    /// The least idle time before a countdown: DIFS, or the shortest AIFS.
    pub fn min_aifs_ns(&self) -> SimDuration {
        let t = &self.cfg.timing;
        match self.cfg.edca {
            Some(p) => p.iter().map(|p| p.aifs_ns(t.slot, t.sifs)).min().unwrap_or(t.difs),
            None => t.difs,
        }
    }

    /// The current function's exchange was answered and it still has a frame to send: it
    /// goes SIFS later if the TXOP has time left (true).
    pub(super) fn txop_continue(&mut self, now: SimTime) -> bool {
        let at = now + self.cfg.timing.sifs;
        if self.txop.until <= at {
            return false;
        }
        self.txop.next = None;
        self.txop.due = Some(at);
        true
    }

    /// A packet for function `i` is offered at `now`: it continues the TXOP if the exchange
    /// before it just ended.
    #[inline]
    pub(super) fn txop_on_offer(&mut self, now: SimTime, i: usize) {
        match self.txop.next {
            Some((ended, at)) if ended == now && i == self.cur => {
                self.txop.next = None;
                self.txop.due = Some(at);
            }
            Some(_) => self.txop.end(),
            None => {}
        }
    }

    /// Time left in the TXOP for an exchange starting now (none: no TXOP limit).
    pub(super) fn txop_left(&self, now: SimTime) -> Option<SimDuration> {
        (self.txop.until > 0).then(|| self.txop.until.saturating_sub(now))
    }

    /// A continuation that does not fit what is left of the TXOP: the TXOP ends and the
    /// function contends with the backoff drawn when its last exchange ended.
    pub(super) fn txop_give_up(&mut self, cx: &mut MacCtx) {
        self.txop.end();
        self.txop_burst = false;
        if self.efs[self.cur].access.backoff().is_none() {
            self.draw_backoff_for(cx, self.cur, cx.now);
        }
        self.arm_access(cx);
    }

    /// Uniform on {0, ..., CW}, CW that of function `i` (802.11 9.2.4), or ns-2's
    /// `Random::random() % cw`.
    #[inline]
    pub(super) fn backoff_slots(&mut self, i: usize) -> u32 {
        let cw = self.efs[i].cw;
        if self.cfg.ns2 {
            self.rng.up_to(cw.saturating_sub(1))
        } else {
            self.rng.up_to(cw)
        }
    }

    /// CW after a failed attempt: 2 CW + 1, at most CWmax (9.2.4; ns-2 `inc_cw`).
    pub(super) fn double_cw(&mut self) {
        self.efs[self.cur].double_cw();
    }

    pub(super) fn draw_backoff(&mut self, cx: &mut MacCtx) {
        self.draw_backoff_not_before(cx, cx.now);
    }

    /// A backoff whose countdown begins no earlier than `not_before` (after DIFS/EIFS).
    pub(super) fn draw_backoff_not_before(&mut self, cx: &mut MacCtx, not_before: SimTime) {
        self.draw_backoff_for(cx, self.cur, not_before);
        self.arm_access(cx);
    }

    /// Function `i` draws a backoff (its countdown from `not_before` at the earliest).
    #[inline]
    pub(super) fn draw_backoff_for(&mut self, cx: &mut MacCtx, i: usize, not_before: SimTime) {
        let slots = self.backoff_slots(i);
        self.note(cx, MacNote::Backoff { slots, cw: self.efs[i].cw });
        self.efs[i].access.start_backoff_not_before(cx.now, slots, not_before);
    }
}

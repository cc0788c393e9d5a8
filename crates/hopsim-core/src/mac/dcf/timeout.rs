//! The CTS and ACK timeouts (802.11-2007 9.2.5.3, 9.2.8): which retry counter a failure
//! counts against, and the retry limit's drop; an aggregate's failures go to dcf/agg.

use super::*;

impl Dcf {
    /// The timer awaiting a CTS, an ACK or a BlockAck fired (unless stale).
    pub fn on_timeout(&mut self, cx: &mut MacCtx, generation: u32) {
        if !self.timeout_timer.fire(generation) {
            return;
        }
        if self.phase == Phase::WaitAck && self.agg_mgmt().is_some() {
            return self.on_mgmt_timeout(cx);
        }
        if self.phase == Phase::WaitAddba {
            return self.on_addba_timeout(cx);
        }
        let Some(mut job) = self.job() else { return };
        if job.aggregate {
            return match self.phase {
                Phase::WaitAck | Phase::WaitBa => self.agg_settle(cx, None),
                Phase::WaitCts => self.agg_rts_failed(cx),
                _ => {}
            };
        }
        // Which counter: RTS failures and frames not longer than the RTS threshold use the
        // short retry counter, DATA frames sent after an RTS use the long one (9.2.5.3).
        let (count, limit) = match self.phase {
            Phase::WaitCts => {
                job.short_retries += 1;
                (job.short_retries, self.cfg.short_retry_limit)
            }
            Phase::WaitAck if job.use_rts => {
                self.rates.report_attempt(job.dst, job.rate, false, job.mpdu_bytes, cx.now);
                job.long_retries += 1;
                (job.long_retries, self.cfg.long_retry_limit)
            }
            Phase::WaitAck => {
                self.rates.report_attempt(job.dst, job.rate, false, job.mpdu_bytes, cx.now);
                job.short_retries += 1;
                (job.short_retries, self.cfg.short_retry_limit)
            }
            _ => return,
        };
        if count >= limit {
            self.rates.finish_packet(job.dst, job.mpdu_bytes, job.use_rts, false, cx.now);
            self.counters.retry_limit_drops += 1;
            self.counters.unicast_done += 1;
            *self.job_mut() = None;
            self.done(cx, &job, false);
        } else {
            self.counters.mac_retries += 1;
            self.txop.end();
            *self.job_mut() = Some(job);
            self.double_cw();
            self.phase = Phase::Contend;
            let not_before = cx.now + self.retry_countdown_delay();
            self.draw_backoff_not_before(cx, not_before);
        }
    }
}

//! A-MSDU aggregation (`mac.amsdu_max_bytes`; framing in mac/amsdu.rs): when the medium is
//! won for an MPDU that has never been sent, more MSDUs for the same receiver and TID join
//! it from the queue, in queue order, while the A-MSDU, the MPDU and the PPDU stay within
//! their limits (ns-3.44 `MsduAggregator::GetNextAmsdu` with
//! `HtFrameExchangeManager::TryAggregateMsdu`, which is called as an MPDU is first dequeued).
//! The A-MSDU is the unit of retransmission from then on: its MSDUs are acknowledged,
//! retried and given up together.
//!
//! Without A-MPDUs the node is asked for packets as for an aggregate (`MacOutput::Fill`) and
//! they join the job's MPDU; with them, the draft's last MPDU takes packets while it can and
//! a new MPDU starts when it cannot (dcf/agg/send.rs). The MAC keeps only an MPDU's first
//! MSDU (the packet it names), its last (where the next links on) and their number; the node
//! links the packets (`PacketArena::link_msdu`).

use super::*;
use crate::mac::amsdu;
use crate::mac::timing::FCS_BYTES;

impl Dcf {
    /// The MPDU of `msdus` MSDUs in `mpdu_bytes`, with an MSDU of `msdu_bytes` more: its new
    /// length, if the A-MSDU and the MPDU stay within their limits.
    pub(super) fn amsdu_grown(
        &self,
        (msdus, mpdu_bytes): (u16, u32),
        msdu_bytes: u32,
    ) -> Option<u32> {
        let cfg = self.cfg.amsdu?;
        let overhead = self.cfg.timing.data_header_bytes() + FCS_BYTES;
        let body = mpdu_bytes - overhead;
        let so_far = if msdus > 1 { body } else { amsdu::of_one(body) };
        let grown = amsdu::grown(so_far, msdu_bytes);
        let mpdu = overhead + grown;
        (grown <= cfg.max_bytes && mpdu <= cfg.max_mpdu_bytes).then_some(mpdu)
    }

    /// The medium is won for a lone MPDU of `job` that may take more MSDUs: ask the node
    /// for them (it answers through [`Dcf::aggregate_wants`], [`Dcf::add_msdu`] and
    /// [`Dcf::send_aggregate`]).
    pub(super) fn amsdu_wanted(&self, job: &Job) -> bool {
        self.cfg.amsdu.is_some() && job.dst != NodeId::BROADCAST && !job.data_sent
    }

    pub(super) fn amsdu_fill(&mut self, cx: &mut MacCtx, job: Job) {
        let t = &self.cfg.timing;
        let mut overhead = t.sifs + t.ack_after_ns(job.rate);
        // An RTS/CTS if the grown MPDU may pass the RTS threshold (as for an A-MPDU's budget).
        let largest = self.cfg.amsdu.map_or(0, |a| t.data_header_bytes() + a.max_bytes + FCS_BYTES);
        if job.use_rts || self.cfg.rts_threshold_bytes < largest {
            overhead += t.rts_ns + t.sifs + t.cts_ns + t.sifs;
        }
        let budget = self.txop_left(cx.now).map(|left| left.saturating_sub(overhead));
        self.psdu_budget_ns = budget;
        self.growing = true;
        self.phase = Phase::Filling;
        let ac = Ac::of_up(self.efs[self.cur].tid);
        let output = MacOutput::Fill { next_hop: job.dst, ac };
        cx.out.push(Tagged { output, node: self.node });
    }

    /// The lone MPDU of the job with an MSDU of `msdu_bytes` more, if it fits every limit
    /// (the A-MSDU's, aPPDUMaxTime and the TXOP's).
    fn lone_grown(&self, msdu_bytes: u32) -> Option<u32> {
        let job = self.job().filter(|_| self.growing)?;
        let bytes = self.amsdu_grown((job.msdus, job.mpdu_bytes), msdu_bytes)?;
        let max_ns = self.psdu_budget_ns.map_or(agg::PPDU_MAX_NS, |b| b.min(agg::PPDU_MAX_NS));
        (self.cfg.timing.airtime_ns(bytes, job.rate) <= max_ns).then_some(bytes)
    }

    /// Would an MSDU of `msdu_bytes` for the job's receiver join what is being drafted (as an
    /// MSDU of an A-MSDU, or as an MPDU of an A-MPDU)?
    pub fn aggregate_wants(&self, msdu_bytes: u32) -> bool {
        if self.phase != Phase::Filling {
            return false;
        }
        match self.job() {
            Some(j) if j.aggregate => self.agg_wants(&j, msdu_bytes),
            Some(_) => self.lone_grown(msdu_bytes).is_some(),
            None => false,
        }
    }

    /// A packet of `msdu_bytes` for the job's receiver, taken from the queue, joins the draft
    /// ([`Dcf::aggregate_wants`] said it would). Returns the packet it follows in an A-MSDU
    /// (the caller links them), or none when it starts an MPDU of its own.
    pub fn add_msdu(
        &mut self,
        packet: PacketId,
        msdu_bytes: u32,
        now: SimTime,
    ) -> Option<PacketId> {
        let job = self.job().expect("filling a draft");
        if job.aggregate {
            return self.agg_add_msdu(&job, packet, (msdu_bytes, now));
        }
        let bytes = self.lone_grown(msdu_bytes).expect("the MSDU was wanted");
        let j = self.job_mut().as_mut().expect("filling a draft");
        let after = std::mem::replace(&mut j.tail, packet);
        j.msdus += 1;
        j.mpdu_bytes = bytes;
        Some(after)
    }

    /// The node has added what fits: the job's frame goes (after an RTS if the RTS
    /// threshold now calls for one).
    pub fn send_aggregate(&mut self, cx: &mut MacCtx) {
        debug_assert_eq!(self.phase, Phase::Filling);
        self.growing = false;
        let mut job = self.job().expect("filling a draft");
        if job.aggregate {
            return self.agg_send(cx);
        }
        job.use_rts = self.rts_by_threshold(job.dst, job.mpdu_bytes);
        *self.job_mut() = Some(job);
        self.phase = Phase::Contend;
        self.send_first(cx, job);
    }

    /// Whether MSDUs are aggregated here.
    pub fn amsdu_on(&self) -> bool {
        self.cfg.amsdu.is_some()
    }

    /// A finished MPDU of `msdus` MSDUs: counted if it was an A-MSDU.
    pub(super) fn count_amsdu(&mut self, msdus: u16) {
        if msdus > 1 {
            self.counters.amsdus += 1;
            self.counters.amsdu_msdus += u64::from(msdus);
        }
    }
}

//! Data-rate control per destination: a constant rate, ARF, AARF, or SampleRate.
//!
//! * ARF (Kamerman & Monteban, WaveLAN-II, Bell Labs Technical Journal 1997): after 10
//!   consecutive acknowledged frames, or 15 attempts since the last change, try the next
//!   rate; if that first frame fails (the "probe"), fall back at once; otherwise fall back
//!   after 2 consecutive failures.
//! * AARF (Lacage, Manshaei, Turletti, MSWiM 2004): ARF whose success threshold doubles (up
//!   to 60, ns-3's AarfWifiManager bound) each time a probe fails, and returns to 10 after a
//!   fallback by 2 consecutive failures; the attempt timer scales alike.
//! * SampleRate (Bicket, MIT MS thesis 2005): each packet goes at one rate, the one with the
//!   least average transmission time per delivered packet (retries and failures included,
//!   over an exponentially fading window); every 10th packet samples another rate whose
//!   lossless time beats the current average, except rates with 4 successive failed
//!   packets (all tries lost; madwifi's sample.c counts packets), which are not sampled
//!   for 10 s.
//!
//! * SNR-ideal (ns-3.44's IdealWifiManager): the fastest rate whose SNR threshold the
//!   receiver's last reported SNR meets (ideal.rs).
//!
//! The rates are the standard's ladder, slowest first (phy/standard.rs: 802.11b's four, the
//! eight OFDM rates of 802.11a, the twelve of an ERP station). Control frames go at the basic
//! rate or answer at the control-response rate (mac/timing.rs); only unicast DATA frames use
//! these rates.

mod chain;
mod estimate;
pub use estimate::FailAverage;
pub mod ideal;
pub mod minstrel_ht;

use super::timing::{Rate, Timing};
use crate::engine::rng::Rng;
use crate::engine::time::SimTime;
use crate::ids::NodeId;
use crate::phy::standard::MAX_RATES;
use ideal::{Ideal, IdealConfig};

const ARF_SUCCESS: u32 = 10;
const ARF_TIMER: u32 = 15;
const AARF_MAX_SUCCESS: u32 = 60;
const SAMPLE_EVERY: u32 = 10;
const SAMPLE_MAX_FAILURES: u32 = 4;
const SAMPLE_EXCLUDE_NS: SimTime = 10_000_000_000;
/// Weight of history per packet in SampleRate's averages (a window of about 20 packets).
const SAMPLE_DECAY: f64 = 0.95;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateAlgo {
    Constant(Rate),
    Arf,
    Aarf,
    Sample,
    Ideal(IdealConfig),
    /// Linux mac80211's Minstrel-HT (minstrel_ht/), HT and VHT stations.
    MinstrelHt(minstrel_ht::MinstrelConfig),
}

#[derive(Debug, Clone, Copy, Default)]
struct ArfState {
    idx: usize,
    successes: u32,
    failures: u32,
    timer: u32,
    probing: bool,
    success_threshold: u32,
    timer_threshold: u32,
}

#[derive(Debug, Clone, Copy, Default)]
struct SampleStats {
    /// Decayed sums: transmission time spent and packets delivered at this rate.
    time_ns: f64,
    delivered: f64,
    successive_failures: u32,
    excluded_until: SimTime,
}

/// Per-destination state and statistics.
#[derive(Debug, Clone)]
struct Peer {
    dst: NodeId,
    arf: ArfState,
    sample: [SampleStats; MAX_RATES],
    packets: u32,
    /// The packet in service (SampleRate): the rate of its first attempt, the rate of its
    /// retries (differs when the first is a sample), its attempts, size and RTS use.
    packet_rate: usize,
    retry_rate: usize,
    packet_attempts: u32,
    packet_bytes: u32,
    packet_rts: bool,
    /// The SNR (0.01 dB) the peer last told it received a frame of ours at (SNR-ideal).
    snr_cdb: Option<i16>,
    /// Minstrel-HT's state and the retry chain in service (chain.rs).
    mrr: Option<Box<chain::Mrr>>,
    /// DATA attempts and acknowledged DATA frames per rate used (the metrics), in the order
    /// first used; a rate joins once, so this stops growing.
    counts: Vec<RateCount>,
    /// The rate of the last DATA attempt and the moving average of failures (estimate.rs).
    est: estimate::LinkEstimate,
}

/// DATA attempts at one rate to one peer, and how many were acknowledged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateCount {
    pub rate: Rate,
    pub attempts: u64,
    pub acked: u64,
    /// Airtime of those transmissions (the PPDUs alone).
    pub airtime_ns: u64,
}

/// Per-link statistics reported in the results: the destination and its counts, slowest
/// rate first.
pub type LinkRateStats = (NodeId, Vec<RateCount>);

#[derive(Debug, Clone)]
pub struct RateControl {
    algo: RateAlgo,
    timing: Timing,
    /// The rates, slowest first: the standard's non-HT ladder, or a constant HT rate alone.
    ladder_rates: [u32; MAX_RATES],
    ladder_len: usize,
    cw_min: u32,
    /// Sorted by destination.
    peers: Vec<Peer>,
    /// The candidates and thresholds of SNR-ideal control.
    ideal: Option<Box<Ideal>>,
    rng: Rng,
    fail_average: estimate::FailAverage,
}

impl RateControl {
    pub fn new(algo: RateAlgo, timing: Timing, cw_min: u32, rng: Rng) -> RateControl {
        let standard = timing.standard.rate_ladder();
        let constant = match algo {
            RateAlgo::Constant(r) => [r.0],
            _ => [0],
        };
        let ladder = if constant[0] != 0 && !standard.contains(&constant[0]) {
            &constant[..]
        } else {
            standard
        };
        let mut ladder_rates = [0; MAX_RATES];
        ladder_rates[..ladder.len()].copy_from_slice(ladder);
        RateControl {
            algo,
            timing,
            ladder_rates,
            ladder_len: ladder.len(),
            cw_min,
            peers: Vec::new(),
            ideal: match algo {
                RateAlgo::Ideal(cfg) => Some(Box::new(Ideal::new(timing.standard, cfg))),
                _ => None,
            },
            rng,
            fail_average: estimate::FailAverage::Attempts,
        }
    }

    #[inline]
    fn rates(&self) -> &[u32] {
        &self.ladder_rates[..self.ladder_len]
    }

    /// The ladder's rates, slowest first.
    pub fn ladder(&self) -> impl Iterator<Item = Rate> + '_ {
        self.rates().iter().map(|&r| Rate(r))
    }

    fn rate_at(&self, i: usize) -> Rate {
        Rate(self.rates()[i])
    }

    fn peer(&mut self, dst: NodeId) -> &mut Peer {
        let i = match self.peers.binary_search_by_key(&dst, |p| p.dst) {
            Ok(i) => i,
            Err(i) => {
                // ARF and AARF start at the top rate; SampleRate knows nothing yet.
                let arf = ArfState {
                    idx: self.ladder_len - 1,
                    success_threshold: ARF_SUCCESS,
                    timer_threshold: ARF_TIMER,
                    ..ArfState::default()
                };
                let p = Peer {
                    dst,
                    arf,
                    sample: [SampleStats::default(); MAX_RATES],
                    packets: 0,
                    packet_rate: 0,
                    retry_rate: 0,
                    packet_attempts: 0,
                    packet_bytes: 0,
                    packet_rts: false,
                    snr_cdb: None,
                    mrr: None,
                    counts: Vec::new(),
                    est: estimate::LinkEstimate::default(),
                };
                self.peers.insert(i, p);
                i
            }
        };
        &mut self.peers[i]
    }

    /// Time one attempt of a `bytes`-byte MPDU takes at `rate` with no loss: DIFS, the mean
    /// initial backoff, the RTS/CTS exchange if used, DATA, SIFS and ACK.
    fn lossless_ns(&self, rate: Rate, bytes: u32, rts: bool) -> f64 {
        let t = &self.timing;
        let mut ns = t.difs + self.cw_min as u64 * t.slot / 2 + t.airtime_ns(bytes, rate) + t.sifs;
        ns += t.ack_after_ns(rate);
        if rts {
            ns += t.rts_ns + t.cts_ns + 2 * t.sifs;
        }
        ns as f64
    }

    /// A new packet for `dst` enters service (SampleRate picks its rate here).
    pub fn start_packet(&mut self, dst: NodeId, bytes: u32, rts: bool, now: SimTime) {
        if matches!(self.algo, RateAlgo::MinstrelHt(_)) {
            return self.mrr_start(dst);
        }
        if self.algo != RateAlgo::Sample {
            return;
        }
        let n = self.ladder_len;
        let mut lossless = [0.0; MAX_RATES];
        for (i, l) in lossless[..n].iter_mut().enumerate() {
            *l = self.lossless_ns(self.rate_at(i), bytes, rts);
        }
        let sample_turn = {
            let p = self.peer(dst);
            p.packets += 1;
            p.packets.is_multiple_of(SAMPLE_EVERY)
        };
        let p_stats = self.peer(dst).sample;
        let average = |i: usize| {
            let s = &p_stats[i];
            if s.delivered > 1e-9 {
                s.time_ns / s.delivered
            } else if s.time_ns > 0.0 {
                f64::INFINITY // tried and never delivered
            } else {
                lossless[i] // untried: as good as it could be (start high, as Bicket does)
            }
        };
        let usable = |i: usize| p_stats[i].excluded_until <= now;
        // The exclusion only stops sampling: the best rate is chosen on its record.
        let best = (0..n).min_by(|&a, &b| average(a).total_cmp(&average(b))).unwrap_or(0);
        let mut chosen = best;
        if sample_turn {
            let candidates: Vec<usize> =
                (0..n).filter(|&i| i != best && usable(i) && lossless[i] < average(best)).collect();
            if !candidates.is_empty() {
                chosen = candidates[self.rng.up_to(candidates.len() as u32 - 1) as usize];
            }
        }
        let p = self.peer(dst);
        p.packet_rate = chosen;
        p.retry_rate = best;
        p.packet_attempts = 0;
        p.packet_bytes = bytes;
        p.packet_rts = rts;
    }

    /// The rate of an A-MPDU to `dst` about to be sent (each A-MPDU asks afresh), and
    /// whether it is a probe of rate control (then sent with one MPDU).
    pub fn ppdu_rate(&mut self, dst: NodeId, now: SimTime) -> (Rate, bool) {
        match self.algo {
            RateAlgo::MinstrelHt(_) => self.mrr_ppdu_rate(dst, now),
            _ => (self.data_rate(dst, now), false),
        }
    }

    /// The rate of the next DATA attempt to `dst`.
    pub fn data_rate(&mut self, dst: NodeId, now: SimTime) -> Rate {
        match self.algo {
            RateAlgo::Constant(r) => r,
            RateAlgo::MinstrelHt(_) => self.mrr_rate(dst, now),
            RateAlgo::Arf | RateAlgo::Aarf => {
                let i = self.peer(dst).arf.idx;
                self.rate_at(i)
            }
            RateAlgo::Ideal(_) => {
                let snr = self.peer(dst).snr_cdb;
                self.ideal.as_ref().expect("SNR-ideal tables").rate_for(snr)
            }
            RateAlgo::Sample => {
                // A sample gets one try; its retries go at the best rate (as madwifi's
                // multi-rate retry chain does), so sampling a bad rate costs one frame.
                let p = self.peer(dst);
                let i = if p.packet_attempts == 0 { p.packet_rate } else { p.retry_rate };
                self.rate_at(i)
            }
        }
    }

    /// Outcome of an A-MPDU of `mpdus` MPDUs at `rate`, `acked` of them acknowledged (0 when
    /// its BlockAck was missed), `airtime_ns` on the air.
    pub fn report_ampdu(
        &mut self,
        dst: NodeId,
        rate: Rate,
        (mpdus, acked): (u32, u32),
        airtime_ns: u64,
        now: SimTime,
    ) {
        debug_assert!(acked <= mpdus);
        self.count(dst, rate, acked > 0, airtime_ns);
        if self.fail_average == estimate::FailAverage::Time {
            self.peer(dst).est.ampdu_done(mpdus, acked, now);
        }
        if matches!(self.algo, RateAlgo::MinstrelHt(_)) {
            return self.mrr_ampdu(dst, (mpdus, acked), now);
        }
        self.adapt(dst, acked > 0, now);
    }

    /// Outcome of one DATA attempt of an `mpdu_bytes` MPDU at `rate` (acknowledged or not).
    pub fn report_attempt(
        &mut self,
        dst: NodeId,
        rate: Rate,
        acked: bool,
        mpdu_bytes: u32,
        now: SimTime,
    ) {
        let airtime_ns = self.timing.airtime_ns(mpdu_bytes, rate);
        self.count(dst, rate, acked, airtime_ns);
        self.adapt(dst, acked, now);
    }

    /// The results' count of one transmission at `rate`.
    fn count(&mut self, dst: NodeId, rate: Rate, acked: bool, airtime_ns: u64) {
        let how = self.fail_average;
        let p = self.peer(dst);
        let k = match p.counts.iter().position(|c| c.rate == rate) {
            Some(k) => k,
            None => {
                p.counts.push(RateCount { rate, attempts: 0, acked: 0, airtime_ns: 0 });
                p.counts.len() - 1
            }
        };
        p.counts[k].attempts += 1;
        p.counts[k].airtime_ns += airtime_ns;
        p.counts[k].acked += u64::from(acked);
        p.est.attempt(how, rate, acked);
    }

    /// The algorithm's reaction to one transmission's outcome.
    fn adapt(&mut self, dst: NodeId, acked: bool, now: SimTime) {
        let (algo, n) = (self.algo, self.ladder_len);
        if matches!(algo, RateAlgo::MinstrelHt(_)) {
            return self.mrr_tried(dst);
        }
        let p = self.peer(dst);
        p.packet_attempts += 1;
        if algo == RateAlgo::Sample {
            if p.packet_attempts == 1 && p.packet_rate != p.retry_rate {
                // The one try of a sample: its record is that single frame.
                let (i, bytes, rts) = (p.packet_rate, p.packet_bytes, p.packet_rts);
                self.record_sample(dst, i, 1, bytes, rts, acked, now);
            }
            return;
        }
        let aarf = algo == RateAlgo::Aarf;
        if !matches!(algo, RateAlgo::Arf | RateAlgo::Aarf) {
            return;
        }
        let a = &mut p.arf;
        a.timer += 1;
        if acked {
            a.successes += 1;
            a.failures = 0;
            a.probing = false;
            let up = a.successes >= a.success_threshold || a.timer >= a.timer_threshold;
            if up && a.idx + 1 < n {
                a.idx += 1;
                a.successes = 0;
                a.timer = 0;
                a.probing = true;
            }
            return;
        }
        a.successes = 0;
        a.failures += 1;
        if a.probing {
            // The probe at the new rate failed: back down at once.
            a.probing = false;
            a.idx = a.idx.saturating_sub(1);
            a.timer = 0;
            a.failures = 0;
            if aarf {
                a.success_threshold = (a.success_threshold * 2).min(AARF_MAX_SUCCESS);
                a.timer_threshold = (a.timer_threshold * 2).min(AARF_MAX_SUCCESS);
            }
        } else if a.failures >= 2 {
            a.idx = a.idx.saturating_sub(1);
            a.timer = 0;
            a.failures = 0;
            if aarf {
                a.success_threshold = ARF_SUCCESS;
                a.timer_threshold = ARF_TIMER;
            }
        }
    }

    /// The packet in service to `dst` is finished (SampleRate updates its averages).
    pub fn finish_packet(
        &mut self,
        dst: NodeId,
        bytes: u32,
        rts: bool,
        delivered: bool,
        now: SimTime,
    ) {
        if self.fail_average == estimate::FailAverage::Time {
            self.peer(dst).est.frame_done(delivered, now);
        }
        if matches!(self.algo, RateAlgo::MinstrelHt(_)) {
            return self.mrr_finish(dst, delivered, now);
        }
        if self.algo != RateAlgo::Sample {
            return;
        }
        let p = self.peer(dst);
        let sampled = p.packet_rate != p.retry_rate;
        // Attempts at the packet's main rate: all of them, or those after a sample's try.
        let main = p.packet_attempts.saturating_sub(u32::from(sampled));
        if main == 0 && sampled {
            return; // the sample itself got through; it is recorded
        }
        let i = if sampled { p.retry_rate } else { p.packet_rate };
        self.record_sample(dst, i, main.max(1), bytes, rts, delivered, now);
    }

    /// Add `attempts` at rate `i` to its record, delivered or not (SampleRate).
    #[allow(clippy::too_many_arguments)]
    fn record_sample(
        &mut self,
        dst: NodeId,
        i: usize,
        attempts: u32,
        bytes: u32,
        rts: bool,
        delivered: bool,
        now: SimTime,
    ) {
        let spent = attempts as f64 * self.lossless_ns(self.rate_at(i), bytes, rts);
        let p = self.peer(dst);
        for s in p.sample.iter_mut() {
            s.time_ns *= SAMPLE_DECAY;
            s.delivered *= SAMPLE_DECAY;
        }
        let s = &mut p.sample[i];
        s.time_ns += spent;
        if delivered {
            s.delivered += 1.0;
            s.successive_failures = 0;
        } else {
            s.successive_failures += 1;
            if s.successive_failures >= SAMPLE_MAX_FAILURES {
                s.excluded_until = now + SAMPLE_EXCLUDE_NS;
                s.successive_failures = 0;
            }
        }
    }

    /// The receiver `dst` told (in a CTS, ACK or BlockAck) the SNR at which it received our
    /// frame: 0.01 dB, [`crate::mac::frame::Frame::NO_SNR`] if it could not measure.
    pub fn report_snr(&mut self, dst: NodeId, snr_cdb: i16) {
        if matches!(self.algo, RateAlgo::Ideal(_)) && snr_cdb != i16::MIN {
            self.peer(dst).snr_cdb = Some(snr_cdb);
        }
    }

    /// Attempts and acknowledged DATA frames per destination and rate, slowest rate first.
    pub fn stats(&self) -> Vec<LinkRateStats> {
        self.peers
            .iter()
            .map(|p| {
                let mut counts = p.counts.clone();
                counts.sort_by(|a, b| a.rate.mbps().total_cmp(&b.rate.mbps()));
                (p.dst, counts)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;

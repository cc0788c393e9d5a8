//! Per-node radio in `sinr` reception mode, in the manner of ns-3's InterferenceHelper:
//! every concurrent signal adds to the interference over the noise floor; the receiver locks
//! on a frame whose preamble arrives while it is idle with power above the detection
//! threshold and SINR above `preamble_snr_db`; a later frame, however strong, only adds
//! interference (no capture). At the frame's end its success probability is the product over
//! the stretches of constant SINR of (1 - unit error rate)^(units), and one uniform draw from
//! the node's own stream decides. The stretches that carry bits ([`Layout`]): for DSSS the
//! 48-bit PLCP header at 1 Mbit/s DBPSK and the MPDU at the frame's rate (the 144-bit
//! preamble carries no data); for OFDM the 24-bit SIGNAL field at BPSK 1/2 and the DATA
//! field's SERVICE + MPDU + tail bits at the frame's modulation and coding (error_rate/ofdm.rs;
//! the 16 us of training fields and an ERP signal extension carry none). Carrier sense is by
//! energy: the medium is busy while the summed power of the signals reaches the lower of the
//! carrier-sense and detection thresholds, or while a frame is being received.

use super::busy::BusyPeriods;
use super::radio::{all_or_none, EarlyEnd, FrameRef, Psdu, RxEnd};
use super::standard::Standard;
use crate::engine::rng::Rng;
use crate::engine::time::SimTime;

#[derive(Debug, Clone, Copy)]
struct Signal {
    frame: FrameRef,
    power_w: f64,
    start: SimTime,
    end: SimTime,
}

/// Cut points of a stretch (at most 16 interferers' starts and ends, and the two ends).
type Cuts = [SimTime; 34];

/// Where the payload's bits lie on the air: its span, bits per ns, coding, and the power the
/// receiver decodes it with.
#[derive(Debug, Clone, Copy)]
struct PayloadGeometry {
    span: (SimTime, SimTime),
    density: f64,
    coding: Coding,
    power_w: f64,
}

#[derive(Debug, Clone, Copy)]
struct Lock {
    signal: Signal,
    rate_100kbps: u32,
    mpdu_bytes: u32,
    /// The node transmitted during the frame: lost whatever the SINR.
    killed: bool,
}

#[derive(Debug, Clone)]
pub struct SinrRadio {
    pub tx_until: SimTime,
    /// Signals still on the air at this listener (their own intervals).
    signals: Vec<Signal>,
    lock: Option<Lock>,
    /// Every signal that overlapped the locked frame (reused buffer).
    interferers: Vec<Signal>,
    last_done: Option<FrameRef>,
    /// Physical carrier sense from other nodes' signals.
    busy: BusyPeriods,
    noise_w: f64,
    cs_w: f64,
    detect_w: f64,
    preamble_snr: f64,
    standard: Standard,
    /// Receive antennas: more than a frame's streams give a diversity gain.
    antennas: u32,
    /// The subframes of the locked frame when it is an A-MPDU.
    lock_parts: ampdu::Subframes,
    rng: Rng,
    last_rx_start: SimTime,
    /// The SNR of the last frame that ended locked, 0.01 dB (see [`SinrRadio::last_rx_snr_cdb`]).
    last_rx_snr_cdb: i16,
    /// The last OFDM bit-success values worked out (a link's SINR repeats frame after frame).
    bit_cache: Box<cache::BitCache>,
}

impl SinrRadio {
    pub fn new(noise_w: f64, cs_w: f64, detect_w: f64, preamble_snr_db: f64, rng: Rng) -> Self {
        Self::for_standard(Standard::B, noise_w, cs_w, detect_w, preamble_snr_db, rng)
    }

    pub fn for_standard(
        standard: Standard,
        noise_w: f64,
        cs_w: f64,
        detect_w: f64,
        preamble_snr_db: f64,
        rng: Rng,
    ) -> Self {
        SinrRadio {
            tx_until: 0,
            signals: Vec::with_capacity(8),
            lock: None,
            interferers: Vec::with_capacity(8),
            last_done: None,
            busy: BusyPeriods::default(),
            noise_w,
            // A signal strong enough to be detected keeps the medium busy to its end even when
            // its preamble was missed (the receiver was locked on another frame): ns-3.44's
            // PhyEntity::DropPreambleEvent and EndReceivePayload call SwitchMaybeToCcaBusy with
            // the PPDU, which holds CCA busy while the summed energy is at least
            // CcaSensitivity (the -82 dBm of Table 17-18), not only the -62 dBm of energy
            // detection. With cs_w <= detect_w (every 802.11b set-up) this is cs_w as before.
            cs_w: cs_w.min(detect_w),
            detect_w,
            preamble_snr: 10f64.powf(preamble_snr_db / 10.0),
            standard,
            antennas: 1,
            lock_parts: ampdu::Subframes::default(),
            rng,
            last_rx_start: 0,
            last_rx_snr_cdb: i16::MIN,
            bit_cache: Box::default(),
        }
    }

    /// A receiver of `antennas` antennas (radio.antennas).
    pub fn with_antennas(mut self, antennas: u32) -> Self {
        self.antennas = antennas.max(1);
        self
    }

    /// The SNR gain of receiving `streams` streams on this node's antennas: N_rx / N_ss when
    /// there are more antennas than streams, else none (ns-3.44 InterferenceHelper::
    /// CalculateSnr: the diversity gain of an AWGN error model; its header SNR takes one
    /// stream).
    fn diversity_gain(&self, streams: u32) -> f64 {
        f64::from(self.antennas.max(streams)) / f64::from(streams)
    }

    /// When the last frame the receiver locked on began to arrive (PHY-RXSTART follows its
    /// PHY header).
    pub fn last_rx_start(&self) -> SimTime {
        self.last_rx_start
    }

    /// End of physical carrier sense as known now: signals sensed, and this node's own frame.
    pub fn busy_until(&self) -> SimTime {
        self.busy.until().max(self.tx_until)
    }

    pub fn signal_busy_at(&self, t: SimTime) -> bool {
        self.busy.busy_at(t)
    }

    pub fn idle_since(&self, t: SimTime) -> SimTime {
        self.busy.idle_since(t)
    }

    pub fn transmitting_at(&self, t: SimTime) -> bool {
        t < self.tx_until
    }

    fn power_at(&self, t: SimTime, except: FrameRef) -> f64 {
        self.signals
            .iter()
            .filter(|s| s.frame != except && s.start <= t && t < s.end)
            .map(|s| s.power_w)
            .sum()
    }

    /// A signal arrives over [start, end). Returns a reception that ended before `start`
    /// (to be completed first) and the interval over which carrier sense becomes busy.
    pub fn signal_start(
        &mut self,
        frame: FrameRef,
        power_w: f64,
        span: (SimTime, SimTime),
        psdu: Psdu,
    ) -> (Option<EarlyEnd>, Option<(SimTime, SimTime)>) {
        self.arrive(frame, power_w, span, Some(psdu))
    }

    /// Energy that is no 802.11 frame (an outside interferer, phy/interferer.rs) arrives over
    /// [start, end): it has no preamble to lock on, so it only interferes and is sensed.
    pub fn foreign_start(
        &mut self,
        frame: FrameRef,
        power_w: f64,
        span: (SimTime, SimTime),
    ) -> (Option<EarlyEnd>, Option<(SimTime, SimTime)>) {
        self.arrive(frame, power_w, span, None)
    }

    fn arrive(
        &mut self,
        frame: FrameRef,
        power_w: f64,
        (start, end): (SimTime, SimTime),
        psdu: Option<Psdu>,
    ) -> (Option<EarlyEnd>, Option<(SimTime, SimTime)>) {
        self.signals.retain(|s| s.end > start);
        let mut early = None;
        if let Some(l) = self.lock {
            if l.signal.end <= start {
                let (ok, parts) = self.finish_lock();
                early = Some(EarlyEnd {
                    frame: l.signal.frame,
                    end: l.signal.end,
                    ok,
                    parts,
                    overlapped: !self.interferers.is_empty(),
                });
                self.last_done = Some(l.signal.frame);
            }
        }
        let signal = Signal { frame, power_w, start, end };
        if self.lock.is_some() {
            self.interferers.push(signal);
        } else if let Some(psdu) =
            psdu.filter(|_| power_w >= self.detect_w && !self.transmitting_at(start))
        {
            let interference = self.power_at(start, frame);
            let gain = self.diversity_gain(1);
            if power_w * gain >= self.preamble_snr * (self.noise_w + interference) {
                self.interferers.clear();
                let overlapping = self.signals.iter().filter(|s| s.start < end && s.end > start);
                self.interferers.extend(overlapping);
                let (rate_100kbps, mpdu_bytes) = (psdu.rate, psdu.bytes);
                self.lock = Some(Lock { signal, rate_100kbps, mpdu_bytes, killed: false });
                self.lock_parts.set(psdu.subframes);
                self.last_rx_start = start;
            }
        }
        self.signals.push(signal);
        let busy = self.busy_after(start, end, frame);
        if let Some((from, until)) = busy {
            self.busy.add(from, until);
        }
        (early, busy)
    }

    /// Carrier sense from `start` on: busy while the summed energy reaches the threshold
    /// (given the signals known now), or until the end of a frame being received.
    fn busy_after(
        &mut self,
        start: SimTime,
        end: SimTime,
        frame: FrameRef,
    ) -> Option<(SimTime, SimTime)> {
        let locked_until = self.lock.filter(|l| l.signal.frame == frame).map(|_| end);
        let mut energy: f64 =
            self.signals.iter().filter(|s| s.start <= start).map(|s| s.power_w).sum();
        let mut energy_until = None;
        if energy >= self.cs_w {
            // Remove signals in order of their end until the sum falls below the threshold.
            let mut ends: [(SimTime, f64); 16] = [(0, 0.0); 16];
            let mut n = 0;
            for s in self.signals.iter().filter(|s| s.start <= start) {
                if n < ends.len() {
                    ends[n] = (s.end, s.power_w);
                    n += 1;
                }
            }
            ends[..n].sort_unstable_by_key(|e| e.0);
            let mut until = start;
            for &(t, p) in &ends[..n] {
                until = t;
                energy -= p;
                if energy < self.cs_w {
                    break;
                }
            }
            energy_until = Some(until);
        }
        match (locked_until, energy_until) {
            (None, None) => None,
            (a, b) => Some((start, a.unwrap_or(0).max(b.unwrap_or(0)))),
        }
    }

    /// Success of the locked frame: the product over stretches of constant SINR, then a draw;
    /// an A-MPDU's MPDUs each have their own (ampdu.rs). Returns (any decoded, which).
    fn finish_lock(&mut self) -> (bool, u64) {
        let l = self.lock.take().expect("a frame is locked");
        self.last_rx_snr_cdb = self.snr_cdb(&l);
        if l.killed {
            return (false, 0);
        }
        if self.lock_parts.len() > 1 {
            let parts = self.ampdu_parts(&l);
            return (parts != 0, parts);
        }
        let ok = self.rng.uniform() < self.lock_success(&l);
        (ok, all_or_none(ok))
    }

    fn lock_success(&self, l: &Lock) -> f64 {
        let (p_header, payload) = self.lock_geometry(l);
        p_header
            * self.stretch_success(payload.power_w, payload.span, payload.coding, payload.density)
    }

    /// The header's success probability and where and how the payload's bits lie.
    fn lock_geometry(&self, l: &Lock) -> (f64, PayloadGeometry) {
        let s = l.signal;
        let lay = Layout::of(self.standard, l.rate_100kbps, l.mpdu_bytes);
        let (h_from, h_to, h_bits, h_coding) = lay.header;
        let header = (s.start + h_from, s.start + h_to);
        let header_w = s.power_w * self.diversity_gain(1);
        let p_header =
            self.stretch_success(header_w, header, h_coding, h_bits / (h_to - h_from) as f64);
        let span = (s.start + lay.payload_from, s.end.saturating_sub(lay.tail_silence));
        // Bits are spread evenly over the payload's airtime (DSSS: its last microsecond is
        // padding; OFDM: the last symbol's pad bits, 17.3.5.4).
        let airtime_ns = (span.1.saturating_sub(span.0)).max(1) as f64;
        let density = match lay.payload {
            Coding::Dsss(_) => (lay.payload_bits / airtime_ns).min(l.rate_100kbps as f64 * 1e-4),
            Coding::Ofdm(..) => lay.payload_bits / airtime_ns,
        };
        let power_w = s.power_w * self.diversity_gain(lay.streams);
        (p_header, PayloadGeometry { span, density, coding: lay.payload, power_w })
    }

    /// The SINR of a frame at the start of its payload (signal over noise and the interference
    /// then, no diversity gain), 0.01 dB: what ns-3.44's receiver reports of a PPDU
    /// (InterferenceHelper::CalculateSnr over its first chunk) and an SNR-ideal sender uses.
    fn snr_cdb(&self, l: &Lock) -> i16 {
        let lay = Layout::of(self.standard, l.rate_100kbps, l.mpdu_bytes);
        let sinr = self.sinr_at(l.signal.power_w, l.signal.start + lay.payload_from);
        (1000.0 * sinr.log10()).round().clamp(-32_767.0, 32_767.0) as i16
    }

    /// The SNR (0.01 dB) of the last frame that ended while locked on.
    pub fn last_rx_snr_cdb(&self) -> i16 {
        self.last_rx_snr_cdb
    }

    /// The success probability the locked frame would have now (tests).
    #[cfg(test)]
    fn locked_success(&self) -> Option<f64> {
        self.lock.as_ref().map(|l| self.lock_success(l))
    }

    /// Success probability of [from, to) at `bits_per_ns`, cut where interference changes.
    fn stretch_success(
        &self,
        power_w: f64,
        (from, to): (SimTime, SimTime),
        coding: Coding,
        bits_per_ns: f64,
    ) -> f64 {
        let mut cuts: Cuts = [0; 34];
        let n = self.cuts((from, to), &mut cuts);
        let mut p = 1.0;
        for w in cuts[..n].windows(2) {
            let (a, b) = (w[0], w[1]);
            if b <= a {
                continue;
            }
            let (sinr, bits) = (self.sinr_at(power_w, a), (b - a) as f64 * bits_per_ns);
            p *= match coding {
                // ofdm_error::chunk_success, its per-bit part remembered.
                Coding::Ofdm(c, r) => self.bit_cache.bit_success(c, r, sinr).powf(bits),
                Coding::Dsss(_) => success(coding, sinr, bits),
            };
        }
        p
    }

    /// The moments in [from, to] where the interference changes, with both ends, in order:
    /// the stretches of constant SINR lie between consecutive cuts.
    fn cuts(&self, (from, to): (SimTime, SimTime), cuts: &mut Cuts) -> usize {
        let mut n = 0;
        cuts[n] = from;
        n += 1;
        for s in &self.interferers {
            for t in [s.start, s.end] {
                if t > from && t < to && n < cuts.len() - 1 {
                    cuts[n] = t;
                    n += 1;
                }
            }
        }
        cuts[n] = to;
        n += 1;
        cuts[..n].sort_unstable();
        n
    }

    /// The SINR of a signal of `power_w` from moment `a` on (to the next cut).
    fn sinr_at(&self, power_w: f64, a: SimTime) -> f64 {
        let interference: f64 =
            self.interferers.iter().filter(|s| s.start <= a && a < s.end).map(|s| s.power_w).sum();
        power_w / (self.noise_w + interference)
    }

    pub fn signal_end(&mut self, frame: FrameRef) -> RxEnd {
        if let Some(i) = self.signals.iter().position(|s| s.frame == frame) {
            self.signals.swap_remove(i);
        }
        if self.last_done == Some(frame) {
            self.last_done = None;
            return RxEnd::AlreadyDone;
        }
        match self.lock {
            Some(l) if l.signal.frame == frame => {
                let (ok, parts) = self.finish_lock();
                RxEnd::Locked { ok, overlapped: !self.interferers.is_empty(), parts }
            }
            _ => RxEnd::Missed,
        }
    }

    /// This node starts transmitting over [now, end): an ongoing reception is lost.
    pub fn start_tx(&mut self, now: SimTime, end: SimTime) {
        self.tx_until = end;
        if let Some(l) = self.lock.as_mut() {
            if l.signal.end > now {
                l.killed = true;
            }
        }
    }
}

mod ampdu;
mod cache;
mod layout;

pub use layout::payload_bit_error;
use layout::{success, Coding, Layout};

#[cfg(test)]
mod tests;

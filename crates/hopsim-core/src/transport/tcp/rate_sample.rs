//! Delivery-rate estimation (draft-cheng-iccrg-delivery-rate-estimation-00; Linux
//! `tcp_rate.c`), in segments: each transmission records how much had been delivered and
//! when (section 3.2, "upon transmitting"); each ACK, for every segment it newly delivers
//! (cumulatively or by SACK), takes the newest such record (3.3) and turns the delivered
//! count and the longer of the send and ACK intervals into a rate sample. Sending with
//! nothing to send marks the connection app-limited (3.4), so samples taken then do not
//! lower a bandwidth estimate. Used only by algorithms that ask for it (BBR).

use crate::engine::time::{SimDuration, SimTime};

/// What a transmission records (the draft's per-packet P.delivered, P.delivered_time,
/// P.first_sent_time, P.is_app_limited).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TxRecord {
    pub delivered: u64,
    pub delivered_ns: SimTime,
    pub first_sent_ns: SimTime,
    pub app_limited: bool,
    /// Already counted as delivered (the draft clears P.delivered_time): a later cumulative
    /// ACK of a SACKed segment, or of a needless resend, does not count it again.
    pub done: bool,
}

/// One ACK's rate sample (the draft's rs), in segments.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RateSample {
    /// Segments newly delivered by this ACK (cumulatively or SACKed).
    pub newly_delivered: u32,
    /// C.delivered when the newest delivered segment was sent (rs.prior_delivered); None
    /// when the ACK delivered nothing.
    pub prior_delivered: Option<u64>,
    /// Segments delivered over the sample's interval (rs.delivered).
    pub delivered: u64,
    /// max(send_elapsed, ack_elapsed) (section 3.3), when the sample is valid.
    pub interval_ns: Option<SimDuration>,
    /// Delivered / interval, segments per second (None: no valid sample).
    pub delivery_rate_sps: Option<f64>,
    pub is_app_limited: bool,
    /// Now minus the last send time of the newest delivered segment; None if it was
    /// retransmitted (Karn's rule, as Linux's ACK-based RTT for congestion control).
    pub rtt_ns: Option<SimDuration>,
}

/// The connection's state (the draft's C.*) and the sample being built for this ACK.
#[derive(Debug, Clone, Default)]
pub struct RateSampler {
    delivered: u64,
    delivered_ns: SimTime,
    first_sent_ns: SimTime,
    /// C.app_limited: the delivered count at which the app-limited period ends (0: none).
    app_limited_until: u64,
    /// Smallest RTT seen: shorter intervals are unreliable (section 3.3, ACK compression).
    min_rtt_ns: Option<SimDuration>,
    rs: RateSample,
    /// The chosen record's timings for this ACK.
    send_elapsed_ns: SimDuration,
    ack_elapsed_ns: SimDuration,
}

impl RateSampler {
    /// C.delivered: segments delivered so far.
    pub fn delivered(&self) -> u64 {
        self.delivered
    }

    /// Section 3.2: a segment leaves at `now`; `idle`: nothing was outstanding, so the
    /// intervals restart here. `prev`: the segment's earlier record (resends keep `done`).
    pub fn on_send(&mut self, now: SimTime, idle: bool, prev: TxRecord) -> TxRecord {
        if idle {
            self.first_sent_ns = now;
            self.delivered_ns = now;
        }
        TxRecord {
            delivered: self.delivered,
            delivered_ns: self.delivered_ns,
            first_sent_ns: self.first_sent_ns,
            app_limited: self.app_limited_until != 0,
            done: prev.done,
        }
    }

    /// A new ACK arrives: start an empty sample.
    pub fn begin_ack(&mut self) {
        self.rs = RateSample::default();
    }

    /// Section 3.3 UpdateRateSample: the segment sent last at `sent_ns` is delivered now.
    pub fn on_delivered(
        &mut self,
        tx: &mut TxRecord,
        sent_ns: SimTime,
        resent: bool,
        now: SimTime,
    ) {
        if tx.done {
            return;
        }
        tx.done = true;
        self.delivered += 1;
        self.delivered_ns = now;
        self.rs.newly_delivered += 1;
        // The newest transmission delivered gives the sample (the highest P.delivered; a
        // later send of equal P.delivered is newer still).
        if self.rs.prior_delivered.is_none_or(|p| tx.delivered >= p) {
            self.rs.prior_delivered = Some(tx.delivered);
            self.rs.is_app_limited = tx.app_limited;
            self.send_elapsed_ns = sent_ns.saturating_sub(tx.first_sent_ns);
            self.ack_elapsed_ns = now - tx.delivered_ns;
            self.rs.rtt_ns = (!resent).then(|| now - sent_ns);
            self.first_sent_ns = sent_ns;
        }
    }

    /// Section 3.3 GenerateRateSample, once the ACK's deliveries are in.
    pub fn generate(&mut self) -> RateSample {
        if self.app_limited_until != 0 && self.delivered > self.app_limited_until {
            self.app_limited_until = 0; // the app-limited period's data is all delivered
        }
        if let Some(rtt) = self.rs.rtt_ns {
            self.min_rtt_ns = Some(self.min_rtt_ns.map_or(rtt, |m| m.min(rtt)));
        }
        let mut rs = self.rs;
        let Some(prior) = rs.prior_delivered else { return rs };
        rs.delivered = self.delivered - prior;
        // Use the longer of the send and ACK phases, so that neither ACK compression nor
        // a burst of sends inflates the rate; intervals below the minimum RTT are unreliable.
        let interval = self.send_elapsed_ns.max(self.ack_elapsed_ns);
        if interval > 0 && self.min_rtt_ns.is_none_or(|m| interval >= m) {
            rs.interval_ns = Some(interval);
            rs.delivery_rate_sps = Some(rs.delivered as f64 * 1e9 / interval as f64);
        }
        rs
    }

    /// Section 3.4: the sender is not using the window (nothing to send, or BBR's
    /// PROBE_RTT): samples until what is in flight now is delivered are app-limited.
    pub fn mark_app_limited(&mut self, in_flight: u32) {
        self.app_limited_until = (self.delivered + in_flight as u64).max(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    /// A bottleneck of one segment per 10 ms, 100 ms base RTT, ten segments sent back to
    /// back at t = 0 and then one per ACK: every valid sample is the bottleneck rate.
    #[test]
    fn samples_equal_the_bottleneck_rate() {
        let mut r = RateSampler::default();
        let mut recs: Vec<(TxRecord, SimTime)> = Vec::new();
        for i in 0..10 {
            let prev = TxRecord::default();
            recs.push((r.on_send(0, i == 0, prev), 0));
        }
        let mut rates = Vec::new();
        for k in 0..40usize {
            let now = 100 * MS + k as u64 * 10 * MS; // segment k arrives after its queueing
            r.begin_ack();
            let (mut tx, sent) = recs[k];
            r.on_delivered(&mut tx, sent, false, now);
            recs[k].0 = tx;
            let rs = r.generate();
            assert_eq!(rs.newly_delivered, 1);
            rates.extend(rs.delivery_rate_sps);
            recs.push((r.on_send(now, false, TxRecord::default()), now));
        }
        assert!(rates.len() >= 30, "{} valid samples", rates.len());
        for rate in &rates[rates.len() - 20..] {
            assert!((rate - 100.0).abs() < 1e-6, "100 segments/s, got {rate}");
        }
    }

    #[test]
    fn a_segment_is_counted_once_and_app_limited_marks_expire() {
        let mut r = RateSampler::default();
        let mut tx = r.on_send(0, true, TxRecord::default());
        r.mark_app_limited(1);
        let mut tx2 = r.on_send(0, false, TxRecord::default());
        assert!(tx2.app_limited && !tx.app_limited);
        r.begin_ack();
        r.on_delivered(&mut tx, 0, false, 50 * MS);
        r.on_delivered(&mut tx, 0, false, 50 * MS); // SACKed, then cumulatively ACKed
        assert_eq!(r.generate().newly_delivered, 1);
        r.begin_ack();
        r.on_delivered(&mut tx2, 0, false, 60 * MS);
        let rs = r.generate();
        assert!(rs.is_app_limited, "sent while app-limited");
        assert_eq!(r.app_limited_until, 0, "everything in flight then is delivered");
        let resent = r.on_send(70 * MS, true, tx2);
        assert!(resent.done, "a resend of a delivered segment is not counted again");
    }
}

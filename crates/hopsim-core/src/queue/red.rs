//! RED, Random Early Detection (Floyd & Jacobson, IEEE/ACM ToN 1(4), 1993), in packets: the
//! average queue as an EWMA with weight w_q updated at each arrival, decayed over idle
//! periods as if m small packets had been sent (Figure 2, `m = f(time - q_time)`); between
//! min_th and max_th the arrival is dropped (or marked) with probability
//! p_b = max_p (avg - min_th) / (max_th - min_th) spread by the count since the last drop,
//! p_a = p_b / (1 - count p_b) (section 7); gentle RED (Floyd 2000, ns-2's `gentle_ true`)
//! raises p_b from max_p to 1 between max_th and 2 max_th; above that every arrival is
//! dropped. ns-2 red.cc's `wait_` (on by default) spaces drops further: p_a = 0 while
//! count p_b < 1, p_b / (2 - count p_b) while below 2, else 1 (`drop_early`). ECN (RFC 3168
//! section 7, ns-2 `setbit_`): an early drop of an ECN-capable packet becomes a CE mark;
//! forced drops (above the gentle range, or a full queue) stay drops.

use crate::engine::rng::Rng;

/// RED's parameters (docs/models.md 18.1 for the defaults and their sources).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RedConfig {
    pub min_th_packets: f64,
    pub max_th_packets: f64,
    pub max_p: f64,
    pub w_q: f64,
    pub gentle: bool,
    /// ns-2 `wait_`: keep at least 1/p_b arrivals between drops.
    pub wait: bool,
    /// s, the typical transmission time of a packet, for the idle-period decay.
    pub packet_time_ns: u64,
    /// Mark ECN-capable packets CE instead of an early drop.
    pub ecn: bool,
}

/// RED's decision on a data arrival.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Enqueue,
    Mark,
    Drop,
}

#[derive(Debug, Clone)]
pub struct Red {
    cfg: RedConfig,
    avg: f64,
    /// Arrivals since the last drop or mark while avg was in the drop range (-1: below it).
    count: i64,
    /// Start of the current idle period (the queue emptied), if idle.
    idle_since_ns: Option<u64>,
    rng: Rng,
}

impl Red {
    pub fn min_th_packets(&self) -> f64 {
        self.cfg.min_th_packets
    }

    pub fn new(cfg: RedConfig, rng: Rng) -> Red {
        Red { cfg, avg: 0.0, count: -1, idle_since_ns: Some(0), rng }
    }

    /// The average queue size (packets).
    pub fn avg(&self) -> f64 {
        self.avg
    }

    /// The queue emptied at `now_ns` (Figure 2: `q_time <- time`).
    pub fn queue_empty(&mut self, now_ns: u64) {
        if self.idle_since_ns.is_none() {
            self.idle_since_ns = Some(now_ns);
        }
    }

    /// A forced drop (the queue was full): the count starts again (ns-2 red.cc `enque`).
    pub fn forced_drop(&mut self) {
        self.count = 0;
    }

    /// Update the average for an arrival that finds `qlen` packets queued (Figure 2).
    pub fn update_avg(&mut self, now_ns: u64, qlen: usize) {
        let w = self.cfg.w_q;
        match self.idle_since_ns.take() {
            Some(since) if qlen == 0 => {
                // m small packets could have been sent while the queue was idle.
                let m = (now_ns - since) as f64 / self.cfg.packet_time_ns as f64;
                self.avg *= (1.0 - w).powf(m);
            }
            _ => self.avg = (1.0 - w) * self.avg + w * qlen as f64,
        }
    }

    /// p_b for the current average (None below min_th; 1 above the drop range).
    pub fn p_b(&self) -> Option<f64> {
        let c = &self.cfg;
        if self.avg < c.min_th_packets {
            None
        } else if self.avg < c.max_th_packets {
            Some(c.max_p * (self.avg - c.min_th_packets) / (c.max_th_packets - c.min_th_packets))
        } else if c.gentle && self.avg < 2.0 * c.max_th_packets {
            // Gentle RED: from max_p at max_th to 1 at 2 max_th.
            Some(c.max_p + (1.0 - c.max_p) * (self.avg - c.max_th_packets) / c.max_th_packets)
        } else {
            Some(1.0)
        }
    }

    /// p_a, the drop probability of this arrival given `count` (section 7 and ns-2 `wait_`).
    fn p_a(&self, p_b: f64) -> f64 {
        let cp = self.count as f64 * p_b;
        if self.cfg.wait {
            if cp < 1.0 {
                0.0
            } else if cp < 2.0 {
                p_b / (2.0 - cp)
            } else {
                1.0
            }
        } else if cp < 1.0 {
            p_b / (1.0 - cp)
        } else {
            1.0
        }
    }

    /// A data packet arrives and finds `qlen` packets queued; `ect`: ECN-capable.
    pub fn on_arrival(&mut self, now_ns: u64, qlen: usize, ect: bool) -> Decision {
        self.update_avg(now_ns, qlen);
        let Some(p_b) = self.p_b() else {
            self.count = -1;
            return Decision::Enqueue;
        };
        if p_b >= 1.0 {
            // Above the drop range (max_th, or 2 max_th when gentle): a forced drop.
            self.count = 0;
            return Decision::Drop;
        }
        self.count += 1;
        if self.rng.uniform() < self.p_a(p_b) {
            self.count = 0;
            return if self.cfg.ecn && ect { Decision::Mark } else { Decision::Drop };
        }
        Decision::Enqueue
    }
}

//! Linux's receiver-side ACK timing (net/ipv4/tcp_input.c): quick-ACK mode, in which every
//! segment is acknowledged at once (at the start, after a duplicate segment, after an idle
//! period), and the delayed-ACK timeout ("ATO") adapted to the gaps between arrivals
//! (`tcp_event_data_recv`). Outside quick-ACK mode the receiver ACKs every second full
//! segment or when the ATO expires, as RFC 1122 4.2.3.2 allows.

use crate::engine::time::SimTime;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuickAckConfig {
    /// `TCP_ATO_MIN`: the first ATO and the step of its adaptation.
    pub ato_min_ns: SimTime,
    /// Ceiling of the ATO (`tcp_send_delayed_ack`'s max_ato).
    pub ato_max_ns: SimTime,
    /// The receiver's RTO (`TCP_TIMEOUT_INIT` with no RTT samples of its own): a gap above it
    /// re-enters quick-ACK mode; the ATO never exceeds it.
    pub rto_ns: SimTime,
    /// `TCP_MAX_QUICKACKS`.
    pub max_quickacks: u32,
}

#[derive(Debug, Clone)]
pub struct QuickAck {
    cfg: QuickAckConfig,
    /// ACKs still to send at once (`icsk_ack.quick`).
    quick: u32,
    /// The ATO (None before the first data segment).
    ato_ns: Option<SimTime>,
    /// When the last data segment arrived (`icsk_ack.lrcvtime`).
    last_rcv_ns: SimTime,
}

impl QuickAck {
    pub fn new(cfg: QuickAckConfig) -> QuickAck {
        QuickAck { cfg, quick: 0, ato_ns: None, last_rcv_ns: 0 }
    }

    /// `tcp_incr_quickack`: allow up to half the receive window of quick ACKs (at least 2,
    /// at most `max_quickacks`), never fewer than are left.
    fn incr(&mut self, rcv_wnd_segments: u32) {
        let n = match rcv_wnd_segments / 2 {
            0 => 2,
            n => n,
        };
        self.quick = self.quick.max(n.min(self.cfg.max_quickacks));
    }

    /// `tcp_enter_quickack_mode`: a duplicate segment (the sender is recovering) or the
    /// start; the ATO starts over from its minimum.
    pub fn enter(&mut self, rcv_wnd_segments: u32) {
        self.incr(rcv_wnd_segments);
        self.ato_ns = Some(self.cfg.ato_min_ns);
    }

    /// `tcp_event_data_recv`: an in-order data segment arrived at `now`.
    pub fn on_data(&mut self, now: SimTime, rcv_wnd_segments: u32) {
        let min = self.cfg.ato_min_ns;
        match self.ato_ns {
            None => {
                // The first data: quick ACKs to speed up the sender's slow start.
                self.incr(rcv_wnd_segments);
                self.ato_ns = Some(min);
            }
            Some(ato) => {
                let gap = now - self.last_rcv_ns;
                if gap <= min / 2 {
                    // Close arrivals: the ATO shrinks towards its minimum.
                    self.ato_ns = Some(ato / 2 + min / 2);
                } else if gap < ato {
                    // The ATO follows the gap (half old, plus the gap), within the RTO.
                    self.ato_ns = Some((ato / 2 + gap).min(self.cfg.rto_ns));
                } else if gap > self.cfg.rto_ns {
                    // Data after an idle period: acknowledge quickly again.
                    self.incr(rcv_wnd_segments);
                }
            }
        }
        self.last_rcv_ns = now;
    }

    /// In quick-ACK mode: acknowledge this segment at once.
    pub fn active(&self) -> bool {
        self.quick > 0
    }

    /// `tcp_dec_quickack_mode`: an ACK went out.
    pub fn on_ack_sent(&mut self) {
        self.quick = self.quick.saturating_sub(1);
    }

    /// The delayed-ACK timeout to arm now (`tcp_send_delayed_ack`).
    pub fn timeout_ns(&self) -> SimTime {
        self.ato_ns.unwrap_or(self.cfg.ato_min_ns).clamp(self.cfg.ato_min_ns, self.cfg.ato_max_ns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: SimTime = 1_000_000;

    fn linux() -> QuickAck {
        QuickAck::new(QuickAckConfig {
            ato_min_ns: 40 * MS,
            ato_max_ns: 500 * MS,
            rto_ns: 1000 * MS,
            max_quickacks: 16,
        })
    }

    #[test]
    fn the_first_data_allows_half_the_window_of_quick_acks_at_most_sixteen() {
        let mut q = linux();
        q.on_data(0, 10);
        let mut n = 0;
        while q.active() {
            q.on_ack_sent();
            n += 1;
        }
        assert_eq!(n, 5, "rcv_wnd 10 / 2");
        let mut q = linux();
        q.on_data(0, 100);
        assert_eq!(q.quick, 16, "TCP_MAX_QUICKACKS");
        let mut q = linux();
        q.on_data(0, 1);
        assert_eq!(q.quick, 2, "at least two");
    }

    #[test]
    fn the_ato_adapts_to_the_arrival_gaps() {
        let mut q = linux();
        q.on_data(0, 10);
        assert_eq!(q.timeout_ns(), 40 * MS);
        // A gap of 30 ms (> 20, < 40): ato = 40 / 2 + 30 = 50 ms.
        q.on_data(30 * MS, 10);
        assert_eq!(q.timeout_ns(), 50 * MS);
        // Close arrivals (10 ms <= ATO_MIN / 2): ato = 50 / 2 + 20 = 45 ms.
        q.on_data(40 * MS, 10);
        assert_eq!(q.timeout_ns(), 45 * MS);
        // A gap above the ATO but below the RTO leaves it.
        q.on_data(140 * MS, 10);
        assert_eq!(q.timeout_ns(), 45 * MS);
    }

    #[test]
    fn an_idle_period_or_a_duplicate_re_enters_quick_ack_mode() {
        let mut q = linux();
        q.on_data(0, 10);
        (0..5).for_each(|_| q.on_ack_sent());
        assert!(!q.active());
        q.on_data(2000 * MS, 10);
        assert!(q.active(), "gap above the RTO");
        (0..5).for_each(|_| q.on_ack_sent());
        q.on_data(2010 * MS, 10);
        q.on_data(2040 * MS, 10);
        assert!(q.timeout_ns() > 40 * MS);
        q.enter(40);
        assert_eq!((q.quick, q.timeout_ns()), (16, 40 * MS), "duplicate: ATO back to its minimum");
    }
}

//! TCP receiver (segment-based, like ns-2's TCPSink): cumulative ACKs, SACK blocks (RFC 2018),
//! delayed ACK (RFC 1122 4.2.3.2 / RFC 5681 4.2: every second segment, timer 100 ms) and ACK
//! thinning as dynamic delayed ACK (Altman & Jimenez, PWC 2003: acknowledge every d-th
//! segment, d = 1, 2, 3, 4 as the segment number passes l1, l2, l3). Out-of-order, duplicate and
//! hole-filling segments are acknowledged at once (RFC 5681 4.2).

use super::quick_ack::{QuickAck, QuickAckConfig};
use super::rcv_window::RcvWindow;
use super::timestamps::{ts_clock, ts_elapsed_ns, TsRecent};
use super::{TcpCtx, TcpTimer};
use crate::engine::sched::{Timer, TimerSink};
use crate::engine::time::SimTime;
use crate::ids::{FlowId, SeqNo};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AckPolicy {
    /// One ACK per segment.
    EverySegment,
    /// ACK every second segment, or when the timer expires.
    Delayed { timeout_ns: SimTime },
    /// ACK every d-th segment, d from the segment number and thresholds l1 <= l2 <= l3.
    Thinning { thresholds: [u32; 3], timeout_ns: SimTime },
}

/// An acknowledgment to send: next expected segment and up to three SACK blocks
/// (segment ranges [start, end)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AckInfo {
    pub next_expected: SeqNo,
    pub sack: [(SeqNo, SeqNo); 3],
    pub sack_len: u8,
    /// The window advertised, in segments.
    pub window: u32,
    /// RFC 7323 TSval and TSecr (None: timestamps off).
    pub ts: Option<(u32, u32)>,
}

/// What a Linux receiver does beyond ns-2's TCPSink (`linux.rs`); all off for ns-2's.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ReceiverExtras {
    pub quick_ack: Option<QuickAckConfig>,
    /// Receive-window autotuning from this initial window (`rcv_window.rs`).
    pub autotune_from: Option<u32>,
    pub timestamps: bool,
}

#[derive(Debug, Clone)]
pub struct TcpReceiver {
    flow: FlowId,
    policy: AckPolicy,
    sack_enabled: bool,
    rcv_nxt: SeqNo,
    /// Out-of-order segment ranges [start, end) above rcv_nxt, sorted, disjoint.
    ooo: Vec<(SeqNo, SeqNo)>,
    /// Most recently received out-of-order segments, newest first (for SACK block order).
    recent: [Option<SeqNo>; 3],
    unacked: u32,
    timer: Timer,
    /// The fixed window advertised without autotuning (ns-2 `window_`).
    window_segments: u32,
    quick: Option<QuickAck>,
    rwnd: Option<RcvWindow>,
    /// The right edge of the window last advertised (rcv_nxt + window of the last ACK).
    right_edge: SeqNo,
    ts: Option<TsRecent>,
    pub acks_sent: u64,
    pub segments_received: u64,
    pub duplicate_segments: u64,
}

impl TcpReceiver {
    pub fn new(flow: FlowId, policy: AckPolicy, sack_enabled: bool, window_segments: u32) -> Self {
        TcpReceiver {
            flow,
            policy,
            sack_enabled,
            rcv_nxt: SeqNo::ZERO,
            ooo: Vec::with_capacity(window_segments as usize + 1),
            recent: [None; 3],
            unacked: 0,
            timer: Timer::default(),
            window_segments,
            quick: None,
            rwnd: None,
            right_edge: SeqNo::ZERO + window_segments,
            ts: None,
            acks_sent: 0,
            segments_received: 0,
            duplicate_segments: 0,
        }
    }

    /// Switch on a Linux receiver's behaviour.
    pub fn with_extras(mut self, x: ReceiverExtras) -> Self {
        self.quick = x.quick_ack.map(QuickAck::new);
        self.rwnd = x.autotune_from.map(|w| RcvWindow::new(w, self.window_segments));
        self.ts = x.timestamps.then(TsRecent::default);
        self.right_edge = SeqNo::ZERO + self.advertised_window();
        self
    }

    /// The window advertised now, in segments.
    pub fn advertised_window(&self) -> u32 {
        self.rwnd.as_ref().map_or(self.window_segments, RcvWindow::advertised)
    }

    /// Next segment expected in order (= segments delivered to the application).
    pub fn next_expected(&self) -> SeqNo {
        self.rcv_nxt
    }

    /// ACK every d-th in-order segment; `n` is the 1-based number of the segment.
    fn ack_every(&self, n: u32) -> u32 {
        match self.policy {
            AckPolicy::EverySegment => 1,
            AckPolicy::Delayed { .. } => 2,
            AckPolicy::Thinning { thresholds: [l1, l2, l3], .. } => {
                if n <= l1 {
                    1
                } else if n <= l2 {
                    2
                } else if n <= l3 {
                    3
                } else {
                    4
                }
            }
        }
    }

    fn timeout_ns(&self) -> Option<SimTime> {
        if let Some(q) = &self.quick {
            return Some(q.timeout_ns());
        }
        match self.policy {
            AckPolicy::EverySegment => None,
            AckPolicy::Delayed { timeout_ns } | AckPolicy::Thinning { timeout_ns, .. } => {
                Some(timeout_ns)
            }
        }
    }

    /// A data segment arrived: the segments newly delivered in order; an ACK to send now
    /// goes to `cx.out`, a delayed one arms the timer.
    pub fn on_segment(&mut self, cx: &mut TcpCtx<AckInfo>, seg: SeqNo) -> u32 {
        self.on_data(cx, seg, None)
    }

    /// As [`Self::on_segment`], for a segment carrying RFC 7323 (TSval, TSecr).
    pub fn on_data(&mut self, cx: &mut TcpCtx<AckInfo>, seg: SeqNo, ts: Option<(u32, u32)>) -> u32 {
        let (delivered, ack) = self.receive(seg, ts, cx.now, cx.timers);
        cx.out.extend(ack);
        delivered
    }

    fn receive(
        &mut self,
        seg: SeqNo,
        ts: Option<(u32, u32)>,
        now: SimTime,
        timers: &mut dyn TimerSink<TcpTimer, FlowId>,
    ) -> (u32, Option<AckInfo>) {
        self.segments_received += 1;
        if let (Some(recent), Some((ts_val, _))) = (self.ts.as_mut(), ts) {
            recent.on_segment(seg, ts_val);
        }
        if seg < self.rcv_nxt || self.ooo.iter().any(|&(a, b)| a <= seg && seg < b) {
            self.duplicate_segments += 1;
            // The sender is retransmitting: ACK quickly for a while (tcp_data_queue).
            let window = self.advertised_window();
            if let Some(q) = self.quick.as_mut() {
                q.enter(window);
            }
            return (0, Some(self.ack_now(now)));
        }
        if seg > self.rcv_nxt {
            self.insert_ooo(seg);
            return (0, Some(self.ack_now(now)));
        }
        // In order.
        let had_hole = !self.ooo.is_empty();
        let before = self.rcv_nxt;
        self.rcv_nxt += 1;
        if let Some(&(a, b)) = self.ooo.first() {
            if a == self.rcv_nxt {
                self.rcv_nxt = b;
                self.ooo.remove(0);
            }
        }
        let delivered = self.rcv_nxt - before;
        self.in_order_extras(now, ts);
        if had_hole {
            return (delivered, Some(self.ack_now(now)));
        }
        self.unacked += 1;
        let quick = self.quick.as_ref().is_some_and(QuickAck::active);
        if quick || self.unacked >= self.ack_every(seg - SeqNo::ZERO + 1) || self.window_update() {
            return (delivered, Some(self.ack_now(now)));
        }
        if !self.timer.is_armed() {
            if let Some(t) = self.timeout_ns() {
                let generation = self.timer.arm(now + t);
                timers.arm(now + t, self.flow, TcpTimer::DelAck, generation);
            }
        }
        (delivered, None)
    }

    /// A Linux receiver's bookkeeping for in-order data: the receive window and its RTT
    /// (`rcv_window.rs`), the ATO (`quick_ack.rs`).
    fn in_order_extras(&mut self, now: SimTime, ts: Option<(u32, u32)>) {
        // tcp_event_data_recv: the ATO and quick ACKs from the window as advertised so far,
        // then the window grows (tcp_grow_window).
        let window = self.advertised_window();
        if let Some(q) = self.quick.as_mut() {
            q.on_data(now, window);
        }
        if let Some(rw) = self.rwnd.as_mut() {
            match ts {
                Some((_, ecr)) if ecr != 0 => rw.rtt_sample_ts(ts_elapsed_ns(now, ecr)),
                _ => {}
            }
            rw.on_in_order(now, self.rcv_nxt, self.ts.is_none());
        }
    }

    /// The delayed-ACK timer fired: the ACK it held back goes to `cx.out`.
    pub fn on_timer(&mut self, cx: &mut TcpCtx<AckInfo>, generation: u32) {
        if self.timer.fire(generation) && self.unacked > 0 {
            cx.out.push(self.ack_now(cx.now));
        }
    }

    /// Send the ACK held back now (a CE-marked segment, `sender/ecn.rs`), if one is held.
    pub fn ack_at_once(&mut self, cx: &mut TcpCtx<AckInfo>) {
        if self.unacked > 0 {
            cx.out.push(self.ack_now(cx.now));
        }
    }

    fn insert_ooo(&mut self, seg: SeqNo) {
        let i = self.ooo.partition_point(|&(_, b)| b < seg);
        // Merge with a neighbour range where possible.
        if i < self.ooo.len() && self.ooo[i].1 == seg {
            self.ooo[i].1 += 1;
            if i + 1 < self.ooo.len() && self.ooo[i + 1].0 == seg + 1 {
                self.ooo[i].1 = self.ooo[i + 1].1;
                self.ooo.remove(i + 1);
            }
        } else if i < self.ooo.len() && self.ooo[i].0 == seg + 1 {
            self.ooo[i].0 = seg;
        } else {
            self.ooo.insert(i, (seg, seg + 1));
        }
        if self.recent[0] != Some(seg) {
            self.recent = [Some(seg), self.recent[0], self.recent[1]];
        }
    }

    /// Linux's receiver (`tcp_cleanup_rbuf`): the application's read freed "lots" of space,
    /// a window at least twice what is left of the one last advertised (and that remnant at
    /// most half the clamp): acknowledge at once to open it. With a small fixed receive
    /// window this ACKs when half of it is used, so a window of one segment is not held by
    /// the delayed-ACK timer.
    fn window_update(&self) -> bool {
        if self.quick.is_none() {
            return false;
        }
        let remaining = self.right_edge.saturating_sub(self.rcv_nxt);
        let clamp = self.rwnd.as_ref().map_or(self.window_segments, RcvWindow::clamp);
        2 * remaining <= clamp && self.advertised_window() >= 2 * remaining
    }

    fn ack_now(&mut self, now: SimTime) -> AckInfo {
        self.unacked = 0;
        self.timer.cancel();
        self.acks_sent += 1;
        if let Some(q) = self.quick.as_mut() {
            q.on_ack_sent();
        }
        let ts = self.ts.as_mut().map(|r| {
            let echo = r.echo();
            r.on_ack_sent(self.rcv_nxt);
            (ts_clock(now), echo)
        });
        let window = self.advertised_window();
        self.right_edge = self.rcv_nxt + window;
        let mut info = AckInfo {
            next_expected: self.rcv_nxt,
            sack: [(SeqNo::ZERO, SeqNo::ZERO); 3],
            sack_len: 0,
            window,
            ts,
        };
        if !self.sack_enabled {
            return info;
        }
        // RFC 2018 section 4: the first block holds the most recent segment, then the other
        // most recently reported blocks.
        for seg in self.recent.iter().flatten() {
            if info.sack_len == 3 {
                break;
            }
            if let Some(&block) = self.ooo.iter().find(|&&(a, b)| a <= *seg && *seg < b) {
                if !info.sack[..info.sack_len as usize].contains(&block) {
                    info.sack[info.sack_len as usize] = block;
                    info.sack_len += 1;
                }
            }
        }
        for &block in &self.ooo {
            if info.sack_len == 3 {
                break;
            }
            if !info.sack[..info.sack_len as usize].contains(&block) {
                info.sack[info.sack_len as usize] = block;
                info.sack_len += 1;
            }
        }
        info
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::tcp::test_support::s;

    /// The timers the receiver armed, in order: (time, flow, timer, generation).
    #[derive(Default)]
    struct Armed(Vec<(SimTime, FlowId, TcpTimer, u32)>);

    impl TimerSink<TcpTimer, FlowId> for Armed {
        fn arm(&mut self, at: SimTime, flow: FlowId, timer: TcpTimer, generation: u32) {
            self.0.push((at, flow, timer, generation));
        }
    }

    fn rx(policy: AckPolicy, sack: bool) -> (TcpReceiver, Armed) {
        (TcpReceiver::new(FlowId(0), policy, sack, 20), Armed::default())
    }

    impl TcpReceiver {
        /// Segment `seg` arrives at `now`: (delivered in order, ACK sent at once).
        fn seg(&mut self, seg: SeqNo, now: SimTime, armed: &mut Armed) -> (u32, Option<AckInfo>) {
            let mut acks = Vec::new();
            let delivered =
                self.on_segment(&mut TcpCtx { now, timers: armed, out: &mut acks }, seg);
            assert!(acks.len() <= 1, "one ACK per segment at most");
            (delivered, acks.pop())
        }

        fn timer(&mut self, generation: u32) -> Option<AckInfo> {
            let (mut armed, mut acks) = (Armed::default(), Vec::new());
            self.on_timer(&mut TcpCtx { now: 0, timers: &mut armed, out: &mut acks }, generation);
            acks.pop()
        }
    }

    #[test]
    fn every_segment_is_acked_cumulatively() {
        let (mut r, mut armed) = rx(AckPolicy::EverySegment, false);
        assert_eq!(
            r.seg(s(0), 0, &mut armed),
            (
                1,
                Some(AckInfo {
                    next_expected: s(1),
                    sack: [(s(0), s(0)); 3],
                    sack_len: 0,
                    window: 20,
                    ts: None
                })
            )
        );
        assert_eq!(r.seg(s(1), 0, &mut armed).1.unwrap().next_expected, s(2));
    }

    #[test]
    fn hole_gives_duplicate_acks_with_sack_then_filling_acks_everything() {
        let (mut r, mut armed) = rx(AckPolicy::Delayed { timeout_ns: 100 }, true);
        r.seg(s(0), 0, &mut armed);
        let (d, ack) = r.seg(s(2), 0, &mut armed);
        assert_eq!(d, 0);
        let ack = ack.expect("out of order: immediate ACK");
        assert_eq!((ack.next_expected, ack.sack_len, ack.sack[0]), (s(1), 1, (s(2), s(3))));
        let ack = r.seg(s(4), 0, &mut armed).1.unwrap();
        assert_eq!(ack.sack[..2], [(s(4), s(5)), (s(2), s(3))], "most recent block first");
        let ack = r.seg(s(3), 0, &mut armed).1.unwrap();
        assert_eq!(ack.sack[..1], [(s(2), s(5))], "blocks merge");
        let (d, ack) = r.seg(s(1), 0, &mut armed);
        assert_eq!(d, 4, "segments 1..=4 delivered at once");
        assert_eq!(ack.unwrap().next_expected, s(5));
        let ack = r.seg(s(1), 0, &mut armed).1.expect("duplicate: immediate ACK");
        assert_eq!(ack.next_expected, s(5));
        assert_eq!(r.duplicate_segments, 1);
    }

    #[test]
    fn delayed_ack_every_second_segment_or_on_timer() {
        let (mut r, mut armed) = rx(AckPolicy::Delayed { timeout_ns: 100 }, false);
        assert_eq!(r.seg(s(0), 0, &mut armed).1, None);
        assert_eq!(r.seg(s(1), 10, &mut armed).1.unwrap().next_expected, s(2));
        assert_eq!(r.seg(s(2), 20, &mut armed).1, None);
        let &(at, flow, timer, generation) = armed.0.last().unwrap();
        assert_eq!((at, flow, timer), (120, FlowId(0), TcpTimer::DelAck));
        assert_eq!(r.timer(generation).unwrap().next_expected, s(3));
        assert_eq!(r.acks_sent, 2);
    }

    #[test]
    fn thinning_acks_each_segment_up_to_l1_then_every_fourth() {
        let (mut r, mut armed) =
            rx(AckPolicy::Thinning { thresholds: [8, 8, 8], timeout_ns: 100 }, false);
        let mut acked = Vec::new();
        for seg in 0..24 {
            if let (_, Some(a)) = r.seg(s(seg), 0, &mut armed) {
                acked.push(a.next_expected);
            }
        }
        assert_eq!(acked, [1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 24].map(s));
    }

    #[test]
    fn thinning_grows_through_two_and_three() {
        let (mut r, mut armed) =
            rx(AckPolicy::Thinning { thresholds: [2, 6, 9], timeout_ns: 100 }, false);
        let mut acked = Vec::new();
        for seg in 0..17 {
            if let (_, Some(a)) = r.seg(s(seg), 0, &mut armed) {
                acked.push(a.next_expected);
            }
        }
        // d = 1 for segments 1-2, 2 for 3-6, 3 for 7-9, 4 after.
        assert_eq!(acked, [1, 2, 4, 6, 9, 13, 17].map(s));
    }
}

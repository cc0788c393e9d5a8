//! Linux's receive window with autotuning (net/ipv4/tcp_input.c), in segments, for an
//! application that reads at once (a bulk sink: the buffer never holds data, so the
//! advertised window is Linux's `rcv_ssthresh`):
//! - `tcp_grow_window`: each in-order segment raises the window by two segments, up to the
//!   clamp;
//! - `tcp_rcv_space_adjust` ("dynamic right-sizing"): once per receiver RTT the clamp is
//!   raised to about twice what arrived in that RTT plus 16 segments, and more if the rate
//!   grew, up to the socket buffer's bound (`receiver_window`);
//! - the receiver's RTT (`tcp_rcv_rtt_measure_ts`): from the timestamps the sender echoes,
//!   else (`tcp_rcv_rtt_measure`) the time one advertised window takes to arrive.

use crate::engine::time::SimTime;
use crate::ids::SeqNo;

/// `tcp_rmem[1]` (128 KiB) / 2 / 1460: the clamp before autotuning raises it.
pub const INITIAL_CLAMP_SEGMENTS: u32 = 131_072 / 2 / 1460;

#[derive(Debug, Clone)]
pub struct RcvWindow {
    /// The window advertised (`rcv_ssthresh`).
    advertised: u32,
    /// `window_clamp`, raised by autotuning.
    clamp: u32,
    /// The socket buffer's bound.
    bound: u32,
    /// `rcvq_space`: segments that arrived in the last measured RTT, and where and when the
    /// current measurement began.
    space: u32,
    space_seq: SeqNo,
    space_ns: SimTime,
    /// Receiver RTT estimate (EWMA with gain 1/8 for timestamp samples, the minimum for
    /// window samples, as `tcp_rcv_rtt_update`).
    rtt_ns: Option<SimTime>,
    /// Window-based measurement: the segment that ends it and when it began.
    rtt_mark: Option<(SeqNo, SimTime)>,
}

impl RcvWindow {
    pub fn new(initial: u32, bound: u32) -> RcvWindow {
        let clamp = INITIAL_CLAMP_SEGMENTS.max(initial).min(bound);
        RcvWindow {
            advertised: initial.min(bound),
            clamp,
            bound,
            space: initial,
            space_seq: SeqNo::ZERO,
            space_ns: 0,
            rtt_ns: None,
            rtt_mark: None,
        }
    }

    pub fn advertised(&self) -> u32 {
        self.advertised
    }

    pub fn clamp(&self) -> u32 {
        self.clamp
    }

    /// A timestamp sample: now - TSecr of an in-order data segment.
    pub fn rtt_sample_ts(&mut self, sample_ns: SimTime) {
        let s = sample_ns.max(1);
        self.rtt_ns = Some(match self.rtt_ns {
            None => s,
            Some(r) => r - r / 8 + s / 8,
        });
    }

    /// An in-order segment arrived; `rcv_nxt` is the next segment expected after it.
    /// `ts_rtt`: no timestamps, so measure the RTT by the window.
    pub fn on_in_order(&mut self, now: SimTime, rcv_nxt: SeqNo, window_rtt: bool) {
        self.advertised = (self.advertised + 2).min(self.clamp);
        if window_rtt {
            match self.rtt_mark {
                Some((end, start)) if rcv_nxt >= end => {
                    let s = (now - start).max(1);
                    self.rtt_ns = Some(self.rtt_ns.map_or(s, |r| r.min(s)));
                    self.rtt_mark = None;
                }
                None => self.rtt_mark = Some((rcv_nxt + self.advertised, now)),
                _ => {}
            }
        }
        self.space_adjust(now, rcv_nxt);
    }

    /// `tcp_rcv_space_adjust`, once per receiver RTT.
    fn space_adjust(&mut self, now: SimTime, rcv_nxt: SeqNo) {
        let Some(rtt) = self.rtt_ns else { return };
        if now - self.space_ns < rtt {
            return;
        }
        let copied = rcv_nxt - self.space_seq;
        if copied > self.space {
            // Twice the last RTT's data plus 16 segments, and twice the growth on top.
            let mut win = 2 * copied as u64 + 16;
            win += 2 * (win * (copied - self.space) as u64 / self.space.max(1) as u64);
            self.clamp = self.clamp.max(win.min(self.bound as u64) as u32);
            self.space = copied;
        }
        self.space_seq = rcv_nxt;
        self.space_ns = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::tcp::test_support::s;

    const MS: SimTime = 1_000_000;

    #[test]
    fn the_window_grows_two_segments_per_segment_up_to_the_clamp() {
        let mut w = RcvWindow::new(10, 2154);
        assert_eq!((w.advertised(), w.clamp()), (10, 44));
        for seg in 1..=20 {
            w.on_in_order(0, s(seg), false);
        }
        assert_eq!(w.advertised(), 44, "10 + 2 x 20 = 50, held at the initial clamp of 44");
    }

    #[test]
    fn right_sizing_raises_the_clamp_to_twice_an_rtt_of_data_within_the_bound() {
        let mut w = RcvWindow::new(10, 2154);
        w.rtt_sample_ts(10 * MS);
        // 40 segments arrive in the first 10 ms: copied 40 > space 10, so
        // win = 2 x 40 + 16 = 96, plus 2 x 96 x 30 / 10 = 576: 672.
        for seg in 1..=40 {
            w.on_in_order(seg as SimTime * MS / 4, s(seg), false);
        }
        assert_eq!(w.clamp(), 672);
        let mut small = RcvWindow::new(10, 100);
        small.rtt_sample_ts(10 * MS);
        for seg in 1..=40 {
            small.on_in_order(seg as SimTime * MS / 4, s(seg), false);
        }
        assert_eq!(small.clamp(), 100, "the socket buffer bounds it");
    }

    #[test]
    fn without_timestamps_the_rtt_is_the_time_a_window_takes() {
        let mut w = RcvWindow::new(10, 2154);
        w.on_in_order(0, s(1), true); // mark: ends at 1 + 12
        for seg in 2..13 {
            w.on_in_order(seg as SimTime * MS, s(seg), true);
        }
        assert_eq!(w.rtt_ns, None);
        w.on_in_order(13 * MS, s(13), true);
        assert_eq!(w.rtt_ns, Some(13 * MS));
    }
}

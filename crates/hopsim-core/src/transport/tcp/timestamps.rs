//! RFC 7323 timestamps (TSopt): every segment carries TSval (the sender's clock) and TSecr
//! (the peer's TSval being echoed). The receiver echoes TS.Recent, updated by the rules of
//! section 4.3, so that an ACK covering several segments (delayed ACK) echoes the earliest,
//! an ACK for out-of-order data echoes the last in-order one, and an ACK after a
//! retransmission filled a hole echoes the retransmission: the sender's RTT measurement
//! (RTTM, section 4.1) on every ACK that acknowledges new data is then neither too short nor
//! ambiguous, retransmitted segments included.
//! The clock ticks in microseconds (RFC 7323 5.4 allows 1 ms to 1 s; Linux's usec timestamps
//! since 6.7), wrapping at 2^32 as the option's field does.

use crate::engine::time::SimTime;
use crate::ids::SeqNo;

/// TSopt on the wire: kind 8, length 10, padded with two NOPs (RFC 7323 appendix A).
pub const TS_OPTION_BYTES: u32 = 12;

/// The 32-bit timestamp clock at `now`.
pub fn ts_clock(now: SimTime) -> u32 {
    (now / 1_000) as u32
}

/// Nanoseconds since the clock read `ts`, at `now` (the wrap of the 32-bit field undone).
pub fn ts_elapsed_ns(now: SimTime, ts: u32) -> SimTime {
    ts_clock(now).wrapping_sub(ts) as SimTime * 1_000
}

/// TS.Recent and Last.ACK.sent of one endpoint (RFC 7323 section 4.3), in segments.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TsRecent {
    recent: Option<u32>,
    last_ack_sent: SeqNo,
}

impl TsRecent {
    /// A segment `seg` arrived with `ts_val`: kept if it starts at or before the
    /// acknowledgment last sent (rule 2; `tcp_store_ts_recent` under `!after(seq, rcv_wup)`).
    pub fn on_segment(&mut self, seg: SeqNo, ts_val: u32) {
        let newer = self.recent.is_none_or(|r| (ts_val.wrapping_sub(r) as i32) >= 0);
        if seg <= self.last_ack_sent && newer {
            self.recent = Some(ts_val);
        }
    }

    /// An ACK for `rcv_nxt` went out.
    pub fn on_ack_sent(&mut self, rcv_nxt: SeqNo) {
        self.last_ack_sent = rcv_nxt;
    }

    /// The TSecr to send (0 before any segment arrived, which RFC 7323 3.2 marks invalid).
    pub fn echo(&self) -> u32 {
        self.recent.unwrap_or(0)
    }

    /// A peer's ACK carrying `ts_val`: the sender of data keeps the newest (it sends no
    /// ACKs of its own, so every ACK is at or before its Last.ACK.sent).
    pub fn on_ack(&mut self, ts_val: u32) {
        self.on_segment(SeqNo::ZERO, ts_val);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::tcp::test_support::s;

    #[test]
    fn delayed_ack_echoes_the_earlier_segment() {
        let mut r = TsRecent::default();
        r.on_segment(s(0), 100);
        r.on_segment(s(1), 110); // seg 1 > Last.ACK.sent 0: ignored
        assert_eq!(r.echo(), 100);
        r.on_ack_sent(s(2));
        r.on_segment(s(2), 120);
        assert_eq!(r.echo(), 120);
    }

    #[test]
    fn out_of_order_keeps_the_in_order_value_and_a_filling_retransmission_replaces_it() {
        let mut r = TsRecent::default();
        r.on_segment(s(0), 100);
        r.on_ack_sent(s(1));
        r.on_segment(s(2), 130); // segment 1 lost: out of order, ignored
        assert_eq!(r.echo(), 100);
        r.on_ack_sent(s(1));
        r.on_segment(s(1), 400); // the retransmission fills the hole
        assert_eq!(r.echo(), 400);
    }

    #[test]
    fn an_older_timestamp_never_replaces_a_newer_one_and_the_clock_wraps() {
        let mut r = TsRecent::default();
        r.on_segment(s(0), 500);
        r.on_segment(s(0), 400);
        assert_eq!(r.echo(), 500);
        let mut r = TsRecent::default();
        r.on_segment(s(0), u32::MAX - 5);
        r.on_segment(s(0), 3); // after the wrap: newer (serial arithmetic, RFC 7323 5.2)
        assert_eq!(r.echo(), 3);
        r.on_segment(s(0), u32::MAX);
        assert_eq!(r.echo(), 3, "before the wrap: older");
        let now = (u32::MAX as SimTime + 10) * 1_000;
        assert_eq!(ts_elapsed_ns(now, u32::MAX - 5), 15_000);
    }
}

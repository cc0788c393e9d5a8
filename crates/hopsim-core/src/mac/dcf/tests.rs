//! Scripted timelines for the DCF (the bench: dcf/bench.rs).

pub(super) use super::bench::*;
use super::*;
use crate::engine::time::us;
use crate::mac::frame::Frame;
use crate::mac::timing::Timing;

#[test]
fn the_tap_reports_decoded_data_for_other_nodes_only_when_on() {
    let mut b = Bench::new(0);
    let t = b.timing;
    let (p, q) = (b.packet(), b.packet());
    let for_other = Frame { dst: OTHER, ..data_from(PEER, 1, false, p, &t) };
    b.hear((us(6000), for_other, true));
    b.run_until(us(7000));
    assert!(b.overheard.is_empty(), "no tap unless asked (standard profile, AODV)");
    b.dcf.set_tap(true);
    b.hear((us(12_000), for_other, true));
    b.hear((us(18_000), Frame { dst: OTHER, ..data_from(PEER, 2, false, q, &t) }, false));
    b.hear((us(24_000), data_from(PEER, 3, false, q, &t), true));
    b.run_until(us(30_000));
    assert_eq!(b.overheard, vec![p], "decoded, for another node: once; lost or mine: no");
    assert_eq!(b.received, vec![q]);
    assert_eq!(b.sent_kinds(), vec![FrameKind::Ack], "an overheard frame is not answered");
}

pub(super) fn data_from(src: NodeId, seq: u16, retry: bool, packet: PacketId, t: &Timing) -> Frame {
    Frame {
        kind: FrameKind::Data,
        src,
        dst: ME,
        nav_ns: t.data_nav(t.data_rate),
        bytes: 1060,
        rate: t.data_rate,
        airtime_ns: t.airtime_ns(1060, t.data_rate),
        seq,
        retry,
        packet: Some(packet),
        mpdus: 0,
        bitmap: 0,
        snr_cdb: Frame::NO_SNR,
        tid: 0,
    }
}

// ns-2.35 Mac802_11 (ns2 profile), from mac-802_11.cc `capture`, `recv_timer`, `check_pktCTRL`:
//
//   OTHER (weaker, captured)      |=================================|  900 .. 2500 us
//   RTS PEER -> ME           |=========|                                 .. 1000 us
//   ME                                 ^ 1010: CTS?  ns-2: NAV until 2500 + EIFS: no CTS
#[test]
fn ns2_a_frame_captured_during_an_rts_withholds_the_cts() {
    for (ns2, answered) in [(true, false), (false, true)] {
        let mut b = Bench::with_profile(0, ns2);
        let t = b.timing;
        b.dcf.on_medium_busy(us(900), us(2500));
        b.dcf.on_captured(us(900), us(2500));
        let rts = Frame::control(FrameKind::Rts, PEER, ME, us(5000), &t, t.basic_rate);
        b.hear((us(1000), rts, true));
        b.run_until(us(3000));
        assert_eq!(!b.sent.is_empty(), answered, "ns2 = {ns2}: {:?}", b.sent_kinds());
    }
}

//   a frame in error ends at 1000 us; a packet is offered then
//   standard: the RTS goes out EIFS after it (the medium is idle: immediate access)
//   ns-2: EIFS is a NAV, then DIFS and a backoff drawn from {0, ..., CW - 1}
#[test]
fn ns2_eifs_is_a_nav_followed_by_difs_and_a_backoff() {
    for ns2 in [false, true] {
        let mut b = Bench::with_profile(0, ns2);
        let t = b.timing;
        let garbled = Frame::control(FrameKind::Cts, OTHER, NodeId(3), 0, &t, t.basic_rate);
        b.hear((us(1000), garbled, false));
        b.run_until(us(1000) + 1);
        let p = b.packet();
        b.offer(us(1000) + 1, p);
        b.run_until(us(10_000));
        let (first, _) = b.sent[0];
        if ns2 {
            let earliest = us(1000) + t.eifs + t.difs;
            let latest = earliest + 30 * t.slot;
            assert!((earliest..=latest).contains(&first), "{first} not in [{earliest}, {latest}]");
        } else {
            assert_eq!(first, us(1000) + t.eifs);
        }
    }
}

#[test]
fn ns2_backoff_is_drawn_below_cw() {
    let mut b = Bench::with_profile(0, true);
    let draws: Vec<u32> = (0..20_000).map(|_| b.dcf.backoff_slots(0)).collect();
    assert_eq!(draws.iter().max(), Some(&30), "Random::random() % 31");
    assert_eq!(draws.iter().min(), Some(&0));
    let mut std = Bench::new(0);
    assert!((0..20_000).any(|_| std.dcf.backoff_slots(0) == 31), "802.11: [0, CW]");
}

#[test]
fn rts_is_answered_with_cts_after_sifs_carrying_the_remaining_nav() {
    let mut b = Bench::new(0);
    let t = b.timing;
    let rts = Frame::control(FrameKind::Rts, PEER, ME, us(5000), &t, t.basic_rate);
    b.hear((us(1000), rts, true));
    b.run_until(us(3000));
    assert_eq!(b.sent.len(), 1);
    let (at, cts) = b.sent[0];
    assert_eq!(at, us(1010));
    assert_eq!(cts.kind, FrameKind::Cts);
    assert_eq!(cts.dst, PEER);
    assert_eq!(cts.nav_ns, us(5000) - t.sifs - t.cts_ns);
}

#[test]
fn overheard_frames_set_nav_and_rts_is_not_answered_under_nav() {
    let mut b = Bench::new(0);
    let t = b.timing;
    let cts_elsewhere =
        Frame::control(FrameKind::Cts, OTHER, NodeId(3), us(8000), &t, t.basic_rate);
    b.hear((us(1000), cts_elsewhere, true));
    let rts = Frame::control(FrameKind::Rts, PEER, ME, us(5000), &t, t.basic_rate);
    b.hear((us(2000), rts, true));
    b.run_until(us(20_000));
    assert_eq!(b.dcf.nav_until(), us(9000));
    assert!(b.sent.is_empty(), "no CTS while the NAV is set: {:?}", b.sent_kinds());
}

#[test]
fn data_is_acked_and_a_retransmitted_duplicate_is_not_delivered_twice() {
    let mut b = Bench::new(0);
    let t = b.timing;
    let p = b.packet();
    b.hear((us(6000), data_from(PEER, 7, false, p, &t), true));
    b.hear((us(13_000), data_from(PEER, 7, true, p, &t), true));
    // Same sequence number from another transmitter is a different frame.
    b.hear((us(20_000), data_from(OTHER, 7, true, p, &t), true));
    b.run_until(us(30_000));
    assert_eq!(b.sent_kinds(), vec![FrameKind::Ack; 3]);
    assert_eq!(b.sent[0].0, us(6010));
    assert_eq!(b.received.len(), 2);
    assert_eq!(b.dcf.counters.duplicates, 1);
}

#[test]
fn idle_medium_gives_immediate_access_then_post_backoff_separates_frames() {
    let mut b = Bench::new(3000);
    b.answer_data = true;
    let p = b.packet();
    b.offer(us(1000), p);
    b.run_until(us(20_000));
    assert_eq!(b.sent[0].0, us(1000), "idle for more than DIFS: no backoff");
    assert_eq!(
        b.done,
        vec![(b.sent[0].0 + b.sent[0].1.airtime_ns + b.timing.sifs + b.timing.ack_ns, true)]
    );
    let ack_end = b.done[0].0;
    let q = b.packet();
    b.offer(ack_end, q);
    b.run_until(us(40_000));
    let second = b.sent[1].0;
    assert!(second >= ack_end + b.timing.difs, "waits DIFS plus the post-backoff");
    assert_eq!((second - ack_end - b.timing.difs) % b.timing.slot, 0, "on a slot boundary");
}

#[test]
fn rts_failures_hit_the_short_retry_limit_and_report_a_link_failure() {
    let mut b = Bench::new(0);
    let p = b.packet();
    b.offer(us(1000), p);
    b.run_until(1_000_000_000);
    assert_eq!(b.sent_kinds(), vec![FrameKind::Rts; 7], "7 RTS attempts (short retry limit)");
    assert_eq!(b.done.len(), 1);
    assert!(!b.done[0].1, "dropped");
    assert_eq!(b.dcf.counters.retry_limit_drops, 1);
    assert_eq!(b.dcf.counters.mac_retries, 6);
    // Each retry waits for the CTS timeout, then DIFS and a backoff.
    let t = b.timing;
    for w in b.sent.windows(2) {
        let end = w[0].0 + w[0].1.airtime_ns;
        assert!(w[1].0 >= end + t.response_timeout(t.cts_ns) + t.difs);
    }
}

#[test]
fn unacknowledged_data_after_rts_hits_the_long_retry_limit() {
    let mut b = Bench::new(0);
    b.answer_rts = true;
    let p = b.packet();
    b.offer(us(1000), p);
    b.run_until(1_000_000_000);
    use FrameKind::{Data, Rts};
    assert_eq!(
        b.sent_kinds(),
        vec![Rts, Data, Rts, Data, Rts, Data, Rts, Data],
        "4 DATA attempts (long limit)"
    );
    let retries: Vec<bool> =
        b.sent.iter().filter(|(_, f)| f.kind == Data).map(|(_, f)| f.retry).collect();
    assert_eq!(retries, vec![false, true, true, true]);
    assert_eq!(b.done.len(), 1);
    assert!(!b.done[0].1);
}

#[test]
fn basic_access_data_uses_the_short_retry_limit() {
    let mut b = Bench::new(3000);
    let p = b.packet();
    b.offer(us(1000), p);
    b.run_until(1_000_000_000);
    assert_eq!(b.sent_kinds(), vec![FrameKind::Data; 7]);
    assert_eq!(b.done, vec![(b.done[0].0, false)]);
}

#[test]
fn contention_window_doubles_per_failure_and_resets_after_a_drop() {
    let mut b = Bench::new(3000);
    let p = b.packet();
    b.offer(us(1000), p);
    b.run_until(1_000_000_000);
    assert_eq!(b.dcf.efs[0].cw, 31, "reset to CWmin after the drop");
    // The largest gap can only come from a window of 2^k*32-1 slots: check the bound holds.
    let t = b.timing;
    let mut cw = 31u64;
    for w in b.sent.windows(2) {
        cw = (2 * cw + 1).min(1023);
        let end = w[0].0 + w[0].1.airtime_ns + t.response_timeout(t.ack_ns);
        let gap = w[1].0 - end;
        assert!(gap >= t.difs && gap <= t.eifs + cw * t.slot, "gap {gap} with cw {cw}");
    }
}

/// The bench refuses a frame that would have started before time 0 (issue 12: a test built
/// one, and the subtraction underflowed in the debug profile).
#[test]
#[should_panic(expected = "impossible frame")]
fn the_bench_refuses_a_frame_that_started_before_time_zero() {
    let mut b = Bench::new(0);
    let t = b.timing;
    let p = b.packet();
    let frame = data_from(PEER, 7, false, p, &t);
    b.hear((frame.airtime_ns - 1, frame, true));
}

// 802.11-2007 9.2.5.2 (and ns-2's `send`: a new backoff whenever none is running):
//
//   ME    |RTS|  |DATA|  post-backoff over long before          |CTS|          |ACK| TX?
//   PEER      |CTS|   |ACK|              |RTS|                        |==DATA==|
//                                                                              ^ frame queued
// A frame queued while the medium is busy (we owe an ACK) backs off: it does not inherit a
// post-backoff that ran out before the RTS/CTS/DATA exchange (spaced by SIFS) came to us.
#[test]
fn a_frame_queued_after_an_exchange_draws_a_new_backoff() {
    for ns2 in [false, true] {
        let mut b = Bench::with_profile(0, ns2);
        b.answer_rts = true;
        b.answer_data = true;
        let t = b.timing;
        let p = b.packet();
        b.offer(us(1000), p);
        b.run_until(us(29_000) - t.rts_ns);
        let rts = Frame::control(FrameKind::Rts, PEER, ME, us(5000), &t, t.basic_rate);
        b.hear((us(29_000), rts, true));
        b.run_until(us(29_000) + 1);
        let q0 = b.packet();
        let data = data_from(PEER, 7, false, q0, &t);
        let end = us(29_000) + t.sifs + t.cts_ns + t.sifs + data.airtime_ns;
        b.hear((end, data, true));
        b.run_until(end + 1);
        let q = b.packet();
        b.offer(end + 1, q);
        let backoff = b.dcf.efs[0].access.backoff().expect("a backoff");
        assert!(backoff.reference > end, "ns2 = {ns2}: a new backoff, not {backoff:?}");
        b.run_until(us(60_000));
        let ack_end = end + t.sifs + t.ack_ns;
        let (rts_at, frame) = b.sent[b.sent.len() - 2];
        assert_eq!(frame.kind, FrameKind::Rts);
        let slots = (rts_at - ack_end - t.difs) / t.slot;
        assert_eq!(rts_at, ack_end + t.difs + slots * t.slot, "ns2 = {ns2}");
        assert_eq!(slots, u64::from(backoff.slots), "ns2 = {ns2}: the slots drawn");
    }
}

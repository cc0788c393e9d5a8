//! How queueing and virtual carrier sense time a relay's access: a packet forwarded on
//! reception, and the NAV an overheard RTS sets (ns-3.44 beside the standard).

use super::tests::{data_from, Bench, OTHER, PEER};
use super::*;
use crate::engine::time::us;

// A relay forwards the packet of a DATA frame at once. The world delivers it at the
// transmitter's end-of-frame event, `prop` before the frame ends here:
//
//   DATA PEER -> ME   |==========|                       ends here at T
//   delivered, forwarded       ^ T - prop
//   ME                           | SIFS |ACK| DIFS |DATA  no backoff: queued on an idle medium
//
// The forwarded packet counts as queued when the reception ended (idle medium, backoff timer
// zero: 9.2.5.1), so it goes DIFS after the ACK with no backoff, as ns-3.44 sends it.
#[test]
fn a_packet_forwarded_on_reception_is_queued_when_the_frame_has_ended() {
    let mut b = Bench::new(3000);
    b.answer_data = true;
    let t = b.timing;
    let (prop, end) = (us(1) / 2, us(20_000));
    let p = b.packet();
    let data = data_from(PEER, 1, false, p, &t);
    b.dcf.on_medium_busy(end - data.airtime_ns, end);
    let now = end - prop;
    let mut cx = MacCtx { now, timers: &mut b.sched, out: &mut b.out };
    b.dcf.on_rx(&mut cx, end, &data, true);
    b.handle_outputs(now); // the packet goes up
    assert_eq!(b.received, vec![p]);
    let q = b.packet();
    b.offer(now, q);
    b.run_until(us(40_000));
    let ack_end = end + t.sifs + t.ack_ns;
    assert_eq!(b.sent_kinds(), vec![FrameKind::Ack, FrameKind::Data]);
    assert_eq!(b.sent[1].0, ack_end + t.difs, "DIFS after the ACK, no backoff");
}

// NAV reset (10.3.2.4), 802.11b timing (NAVTimeout = 2 x 10 + CTS 304 + 192 + 2 x 20 = 556 us):
//
//   RTS PEER -> OTHER  |====|  ends at 10 ms, Duration: CTS + DATA + ACK (~ 10 ms)
//   OTHER's CTS               (never comes)
//   ME, a packet queued at 10.1 ms:  NAV ..............................| without the reset
//                                    |..556 us..| reset: DIFS + backoff, long before
fn overheard_rts(b: &mut Bench, end: SimTime) -> (SimTime, SimTime) {
    let t = b.timing;
    let nav = t.rts_nav(us(9_000), t.data_rate);
    b.hear((end, Frame::control(FrameKind::Rts, PEER, OTHER, nav, &t, t.basic_rate), true));
    (end + nav, end + t.nav_timeout_ns())
}

#[test]
fn an_unanswered_rts_releases_the_nav_after_nav_timeout() {
    let mut b = Bench::new(3000);
    let (nav_end, deadline) = overheard_rts(&mut b, us(10_000));
    b.run_until(us(10_050));
    let p = b.packet();
    b.offer(us(10_100), p);
    b.run_until(us(40_000));
    let first = b.sent[0].0;
    assert!(first >= deadline + b.timing.difs, "not before the NAV reset and DIFS");
    assert!(first < nav_end, "{first} ns: the NAV of the RTS was reset at {deadline}");
}

#[test]
fn a_frame_that_starts_in_time_keeps_the_nav_and_ns2_never_resets() {
    let mut b = Bench::new(3000);
    let (nav_end, _) = overheard_rts(&mut b, us(10_000));
    b.run_until(us(10_050));
    // The DATA the RTS announced begins (its CTS went unheard here): PHY-RXSTART.
    b.last_rx_start = us(10_000) + 2 * b.timing.sifs + b.timing.cts_ns;
    let p = b.packet();
    b.offer(us(10_100), p);
    b.run_until(us(40_000));
    assert!(b.sent[0].0 >= nav_end + b.timing.difs, "the NAV holds to its end");

    let mut b = Bench::with_profile(3000, true);
    let (nav_end, _) = overheard_rts(&mut b, us(10_000));
    b.run_until(us(10_050));
    let p = b.packet();
    b.offer(us(10_100), p);
    b.run_until(us(40_000));
    assert!(b.sent[0].0 >= nav_end, "ns-2.35 has no NAV reset");
}

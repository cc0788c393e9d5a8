//! How queueing and virtual carrier sense time a relay's access: a packet forwarded on
//! reception, and the NAV an overheard RTS sets (ns-3.44 beside the standard).

use super::tests::{data_from, Bench, PEER};
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

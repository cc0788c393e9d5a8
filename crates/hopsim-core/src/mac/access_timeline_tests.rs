//! Channel access scripted against 802.11-2007 9.2.5 (DCF), one timeline per test in the
//! manner of ns-3's channel-access-manager tests: the ASCII line shows the medium as this
//! station sees it (`=` busy: carrier sense, NAV or own frame; `-` idle; `s` a backoff slot
//! counted), the script below it feeds the same periods in time order. 802.11b DSSS timing:
//! slot 20 us, DIFS 50 us, EIFS 364 us (SIFS + ACK at 1 Mbit/s + DIFS, 9.2.10).

use super::Access;
use crate::engine::time::{us, SimTime};

/// A station's view of the medium, fed event by event.
struct Script(Access);

impl Script {
    fn new() -> Script {
        Script(Access::new(us(20), us(50), us(364)))
    }
    fn busy(mut self, from_us: u64, to_us: u64) -> Script {
        self.0.note_busy(us(from_us), us(to_us));
        self
    }
    fn rx_end(mut self, at_us: u64, ok: bool) -> Script {
        self.0.note_rx_end(us(at_us), ok);
        self
    }
    fn backoff(mut self, at_us: u64, slots: u32) -> Script {
        self.0.start_backoff(us(at_us), slots);
        self
    }
    fn frame_queued(mut self, at_us: u64) -> (Script, bool) {
        let at_once = self.0.try_immediate(us(at_us));
        (self, at_once)
    }
    fn access_at(&self) -> Option<SimTime> {
        self.0.access_time()
    }
}

#[test]
fn backoff_counts_only_idle_slots_after_difs_across_two_interruptions() {
    //   0       100      150  190           400      450 470    600      650    690
    //   |===rx===|--DIFS--|s s|=====rx=====|--DIFS--|s|===rx===|--DIFS--|s s| TX
    //   backoff of 5 slots drawn at 10 us: 2 counted, frozen; 1 counted, frozen; 2 more
    let s = Script::new().busy(0, 100).backoff(10, 5);
    assert_eq!(s.access_at(), Some(us(150 + 5 * 20)), "9.2.5.2: DIFS, then the slots");
    let s = s.busy(190, 400);
    assert_eq!(s.access_at(), Some(us(450 + 3 * 20)), "frozen with 3 slots left");
    let s = s.busy(470, 600);
    assert_eq!(s.access_at(), Some(us(690)));
}

#[test]
fn a_frame_finding_the_medium_idle_for_difs_goes_at_once() {
    //   0       100      150          400
    //   |===rx===|--DIFS--|-----------| frame queued: TX at once (no backoff)
    let (s, at_once) = Script::new().busy(0, 100).frame_queued(400);
    assert!(at_once, "9.2.5.1: medium idle for at least DIFS");
    assert_eq!(s.access_at(), Some(us(400)));
    //   0       100  120     150
    //   |===rx===|----| queued while the DIFS runs: TX when it ends
    let (s, _) = Script::new().busy(0, 100).frame_queued(120);
    assert_eq!(s.access_at(), Some(us(150)));
    //   0     60       100
    //   |==rx=|========| queued while busy: a backoff is needed
    let (_, at_once) = Script::new().busy(0, 100).frame_queued(60);
    assert!(!at_once, "9.2.5.2: busy medium, back off");
}

#[test]
fn nav_defers_access_like_physical_carrier_sense() {
    //   0     100              1000      1050  1090
    //   |=RTS=|=====NAV========|--DIFS---|s s| TX
    //   the RTS is heard, its NAV covers CTS, DATA and ACK the station may not hear
    let s = Script::new().busy(0, 100).backoff(50, 2).busy(100, 1000);
    assert_eq!(s.access_at(), Some(us(1090)), "9.2.5.4: virtual carrier sense");
}

#[test]
fn eifs_follows_a_frame_received_in_error_and_a_correct_frame_ends_it() {
    //   0         200                   564  584
    //   |==rx err==|--------EIFS---------|s| TX
    let s = Script::new().busy(0, 200).rx_end(200, false).backoff(300, 1);
    assert_eq!(s.access_at(), Some(us(584)), "9.2.3.4: EIFS after an erroneous frame");
    //   0         200       600       800      850  870
    //   |==rx err==|---------|==rx ok==|--DIFS--|s| TX
    let s = Script::new()
        .busy(0, 200)
        .rx_end(200, false)
        .busy(600, 800)
        .rx_end(800, true)
        .backoff(810, 1);
    assert_eq!(s.access_at(), Some(us(870)), "a correct reception resynchronises: DIFS");
}

#[test]
fn a_correct_frame_ends_the_eifs_of_a_backoff_that_had_not_begun() {
    //   0         200  210  250        400      450  470
    //   |==rx err==|----|----|===rx ok===|--DIFS--|s| TX
    //   backoff(1) drawn at 210 would count from 564 (EIFS); the correct frame received
    //   before then resynchronises the station: DIFS after it, then the slot (9.2.3.4)
    let s = Script::new().busy(0, 200).rx_end(200, false).backoff(210, 1);
    assert_eq!(s.access_at(), Some(us(200 + 364 + 20)));
    let s = s.busy(250, 400).rx_end(400, true);
    assert_eq!(s.access_at(), Some(us(470)));
    //   the same with the second frame also in error: EIFS after it
    let s = Script::new().busy(0, 200).rx_end(200, false).backoff(210, 1);
    let s = s.busy(250, 400).rx_end(400, false);
    assert_eq!(s.access_at(), Some(us(400 + 364 + 20)));
}

#[test]
fn the_medium_turning_busy_as_the_backoff_ends_defers_it_and_a_later_arrival_does_not() {
    //   1000  1020  1040         1400      1450
    //   |--s--|--s--|=====rx=====|--DIFS--| TX
    //   busy at the very instant the countdown ends: the medium is not idle, so the station
    //   defers (9.2.5.2) and sends DIFS after the busy period, with no slots left to count
    let s = Script::new().backoff(1000, 2).busy(1040, 1400);
    assert_eq!(s.access_at(), Some(us(1450)));
    //   1000  1020  1040 1040.5     1400
    //   |--s--|--s--|TX  |====rx====|   the signal arrives 0.5 us after the countdown ended
    //                                   (propagation delay): too late to stop the TX
    let mut late = Script::new().backoff(1000, 2);
    late.0.note_busy(us(1040) + 500, us(1400));
    assert_eq!(late.access_at(), Some(us(1040)));
}

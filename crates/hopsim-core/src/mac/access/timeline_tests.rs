//! Channel access scripted against 802.11-2007 9.2.5 (DCF), one timeline per test in the
//! manner of ns-3's channel-access-manager tests: the ASCII line shows the medium as this
//! station sees it (`=` busy: carrier sense, NAV or own frame; `-` idle; `s` a backoff slot
//! counted), the script below it feeds the same periods in time order. 802.11b DSSS timing:
//! slot 20 us, DIFS 50 us, EIFS 364 us (SIFS + ACK at 1 Mbit/s + DIFS, 9.2.10), CCA time
//! 15 us (aCCATime, 15.3.3): a signal that began at most that long before a slot boundary is
//! not yet reported there.

use super::Access;
use crate::engine::time::{us, SimTime};
use crate::mac::timing::CCA_NS;

/// A station's view of the medium, fed event by event.
struct Script(Access);

impl Script {
    fn new() -> Script {
        Script(Access::new(us(20), us(50), us(364), CCA_NS))
    }
    fn busy(mut self, from_us: u64, to_us: u64) -> Script {
        self.0.note_busy(us(from_us), us(to_us));
        self
    }
    /// Busy from `from_us` + `from_extra_ns` (a propagation delay) for `len_us`.
    fn busy_ns(mut self, from_us: u64, from_extra_ns: u64, len_us: u64) -> Script {
        let from = us(from_us) + from_extra_ns;
        self.0.note_busy(from, from + us(len_us));
        self
    }
    fn backoff_ns(mut self, at_us: u64, at_extra_ns: u64, slots: u32) -> Script {
        self.0.start_backoff(us(at_us) + at_extra_ns, slots);
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
fn two_countdowns_ending_in_the_same_slot_both_transmit() {
    // Station B sent the ACK that ends the last exchange; A is 150 m away (500 ns). Both
    // drew 3 slots. B's frame reaches A at the very instant A's countdown ends: A's CCA has
    // not reported it (it began 0 us, not more than aCCATime, before the boundary), so A
    // transmits too and the frames collide, as in 802.11 (9.2.5.2, slot time 9.2.10).
    //   B: 0    100     150   170   190   210
    //      |=ACK=|-DIFS--|s----|s----|s----| TX ->
    //   A: 0    100.5   150.5 170.5 190.5 210.5
    //      |=ACK==|-DIFS--|s----|s----|s----| TX, and B's frame arrives here
    const PROP_NS: u64 = 500;
    let b = Script::new().busy(0, 100).backoff(100, 3);
    assert_eq!(b.access_at(), Some(us(210)));
    let a = Script::new().busy_ns(0, PROP_NS, 100).backoff_ns(100, PROP_NS, 3);
    assert_eq!(a.access_at(), Some(us(210) + PROP_NS));
    let a = a.busy_ns(210, PROP_NS, 1000); // B's frame, sent at 210 us
    assert_eq!(a.access_at(), Some(us(210) + PROP_NS), "A transmits: same slot, collision");
    // ... and A's frame reaches B after B began: B is already on the air.
    let b = b.busy_ns(210, 2 * PROP_NS, 1000);
    assert_eq!(b.access_at(), Some(us(210)));
}

#[test]
fn a_busy_period_begun_a_slot_before_the_end_freezes_the_countdown() {
    //   100     150   170   190   210
    //   |-DIFS--|s----|s----|=====rx (from 190)=====|1000|--DIFS--|s| TX
    //   the frame began a full slot before the end: reported at 210, the countdown freezes
    //   with the last slot still to count
    let s = Script::new().busy(0, 100).backoff(100, 3).busy(190, 1000);
    assert_eq!(s.access_at(), Some(us(1000 + 50 + 20)));
    //   begun 16 us before the end: more than aCCATime, sensed, frozen the same way
    let s = Script::new().busy(0, 100).backoff(100, 3).busy(194, 1000);
    assert_eq!(s.access_at(), Some(us(1000 + 50 + 20)));
    //   begun 15 us before the end: within aCCATime, not yet reported, the station transmits
    let s = Script::new().busy(0, 100).backoff(100, 3).busy(195, 1000);
    assert_eq!(s.access_at(), Some(us(210)));
}

#[test]
fn a_signal_not_yet_sensed_at_a_slot_boundary_lets_that_slot_count() {
    //   100     150   170   190
    //   |-DIFS--|s----|s-===|=========rx (from 185)=========|1000|--DIFS--|s s s| TX
    //   5 slots; the frame begins 5 us before the boundary at 190, which it is not yet
    //   reported at: the slots ending at 170 and 190 count, the boundary at 210 reports
    //   busy, 3 slots are left
    let s = Script::new().busy(0, 100).backoff(100, 5).busy(185, 1000);
    assert_eq!(s.access_at(), Some(us(1000 + 50 + 3 * 20)));
    //   begun 20 us before (at 170): reported at 190, only the slot ending at 170 counts
    let s = Script::new().busy(0, 100).backoff(100, 5).busy(170, 1000);
    assert_eq!(s.access_at(), Some(us(1000 + 50 + 4 * 20)));
}

#[test]
fn a_signal_arriving_after_the_countdown_ended_does_not_delay_it() {
    //   1000  1020  1040 1040.5     1400
    //   |--s--|--s--|TX  |====rx====|   the signal arrives 0.5 us after the countdown ended
    //                                   (propagation delay): too late to stop the TX
    let s = Script::new().backoff(1000, 2).busy_ns(1040, 500, 360);
    assert_eq!(s.access_at(), Some(us(1040)));
}

#[test]
fn the_end_of_difs_decides_like_the_end_of_a_countdown() {
    //   0       100  120     150
    //   |===rx===|----|--DIFS-| TX        a frame queued at 120 goes when DIFS ends ...
    //                     |===rx==       ... even if a frame began at 140 (10 us before)
    let (s, _) = Script::new().busy(0, 100).frame_queued(120);
    assert_eq!(s.busy(140, 500).access_at(), Some(us(150)));
    //   begun at 130 (20 us before the end of DIFS): sensed, DIFS again after it
    let (s, _) = Script::new().busy(0, 100).frame_queued(120);
    assert_eq!(s.busy(130, 500).access_at(), Some(us(550)));
    //   0       100     150     300 305
    //   |===rx===|--DIFS-|-------|==rx===   queued at 305, 5 us into a frame not yet
    //                                       reported: the medium looks idle, TX at once
    let (s, at_once) = Script::new().busy(0, 100).busy(300, 800).frame_queued(305);
    assert!(at_once);
    assert_eq!(s.access_at(), Some(us(305)));
    //   queued at 320, 20 us into it: busy, back off
    let (_, at_once) = Script::new().busy(0, 100).busy(300, 800).frame_queued(320);
    assert!(!at_once);
}

#[test]
fn a_countdown_not_begun_when_a_frame_is_sensed_waits_for_its_end() {
    //   0       100     130        400      450  470
    //   |===rx===|----|=rx========|--DIFS--|s| TX   backoff(1) drawn at 110; DIFS would
    //   end at 150, 20 us after the frame began (sensed): count after the frame instead
    let s = Script::new().busy(0, 100).backoff(110, 1).busy(130, 400);
    assert_eq!(s.access_at(), Some(us(470)));
    //   the same with a backoff of 0 and the frame beginning 10 us before DIFS ends
    //   (not sensed yet): the station transmits when DIFS ends
    let s = Script::new().busy(0, 100).backoff(110, 0).busy(140, 400);
    assert_eq!(s.access_at(), Some(us(150)));
}

#[test]
fn a_post_backoff_that_ran_out_stays_over_through_an_exchange_spaced_by_sifs() {
    //   0      100     150  190                 5000 5300 5310 5610 5620        10000
    //   |==rx==|--DIFS--|s s|----- idle ---------|=RTS=|=CTS=|=DATA==============|
    //   post-backoff of 2 slots drawn at 100 us: over at 190; the exchange at 5000 is SIFS
    //   spaced (never DIFS idle): the backoff must still read as over (at 190), so that a
    //   frame queued at 10000 (busy medium: we owe an ACK) draws a new one.
    let s = Script::new().busy(0, 100).backoff(100, 2);
    assert_eq!(s.access_at(), Some(us(190)));
    let s = s.busy(5000, 5300).busy(5310, 5610).busy(5620, 10_000);
    assert_eq!(s.access_at(), Some(us(190)), "over before the exchange, and it stays over");
}

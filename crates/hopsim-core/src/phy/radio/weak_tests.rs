//! `weak_frames`: ns-2's receiver takes a frame below the decode threshold as an undecodable
//! reception (`"receive"`); 802.11's PHY only senses it (`"sense"`). Powers: S = 1e-9 W (a
//! neighbour, decodable), W = 6e-11 W (12 dB under S: a node 400 m away on the d^-4 law),
//! N = 2e-10 W (5 dB under S: within the 10 dB capture margin). Times in ns.

use super::{all_or_none, FrameRef, Radio, RxEnd, Start};
use crate::ids::NodeId;
use crate::phy::config::WeakFrames;

const S: f64 = 1e-9;
const W: f64 = 6e-11;
const N: f64 = 2e-10;
const WEAK: FrameRef = FrameRef { tx: NodeId(1), serial: 0 };
const GOOD: FrameRef = FrameRef { tx: NodeId(2), serial: 0 };
const ERR: RxEnd = RxEnd::Locked { ok: false, overlapped: false, parts: 0 };
const LOST: RxEnd = RxEnd::Locked { ok: false, overlapped: true, parts: 0 };
const OK: RxEnd = RxEnd::Locked { ok: true, overlapped: false, parts: u64::MAX };

fn radio(w: WeakFrames) -> Radio {
    Radio::new(10.0, w)
}

//   weak  |=========|            (100..500, 400 m away: undecodable)
//   good       |=========|       (200..700, the neighbour, 12 dB stronger)
#[test]
fn a_frame_arriving_during_a_weak_one_is_lost_in_ns2_and_received_when_weak_ones_are_sensed() {
    let mut ns2 = radio(WeakFrames::Receive);
    assert_eq!(ns2.signal_start(WEAK, W, false, 100, 500), Start::Locked);
    // ns-2 capture(): the frame being received (the weak one) is not 10 dB stronger: both lost.
    assert_eq!(ns2.signal_start(GOOD, S, true, 200, 700), Start::Collided);
    assert_eq!(ns2.signal_end(WEAK), RxEnd::Missed);
    assert_eq!(ns2.signal_end(GOOD), LOST);

    let mut sensed = radio(WeakFrames::Sense);
    assert_eq!(sensed.signal_start(WEAK, W, false, 100, 500), Start::Sensed);
    assert!(sensed.signal_busy_at(150), "the weak frame still holds carrier sense");
    assert_eq!(sensed.signal_start(GOOD, S, true, 200, 700), Start::Locked);
    assert_eq!(sensed.signal_end(WEAK), RxEnd::Missed, "never received: no EIFS after it");
    assert_eq!(sensed.signal_end(GOOD), OK);
}

#[test]
fn a_weak_frame_alone_ends_in_error_in_ns2_and_is_never_received_when_sensed() {
    let mut ns2 = radio(WeakFrames::Receive);
    ns2.signal_start(WEAK, W, false, 0, 100);
    assert_eq!(ns2.signal_end(WEAK), ERR, "ns-2: an undecodable reception (EIFS follows)");
    let mut sensed = radio(WeakFrames::Sense);
    sensed.signal_start(WEAK, W, false, 0, 100);
    assert_eq!(sensed.signal_end(WEAK), RxEnd::Missed);
    assert!(sensed.signal_busy_at(99) && !sensed.signal_busy_at(100));
}

//   near  |=========|            (100..500, within 10 dB of the good frame)
//   good       |=========|       (200..700): lost, but received as a frame (EIFS after it)
#[test]
fn a_weak_frame_within_the_capture_margin_ruins_a_frame_that_starts_during_it() {
    let mut r = radio(WeakFrames::Sense);
    r.signal_start(WEAK, N, false, 100, 500);
    assert_eq!(r.signal_start(GOOD, S, true, 200, 700), Start::Locked);
    assert_eq!(r.signal_end(GOOD), LOST);
}

//   good  |==============|       (100..700)
//   near       |=====|           (200..500): ruins it; weak: captured away
#[test]
fn a_weak_frame_arriving_during_a_reception_ruins_it_only_within_the_margin() {
    let mut r = radio(WeakFrames::Sense);
    r.signal_start(GOOD, S, true, 100, 700);
    assert_eq!(r.signal_start(WEAK, W, false, 200, 500), Start::Sensed);
    assert_eq!(r.signal_end(WEAK), RxEnd::Missed);
    assert_eq!(r.signal_end(GOOD), OK, "12 dB stronger: the frame survives");

    let good2 = FrameRef { tx: NodeId(2), serial: 1 };
    r.signal_start(good2, S, true, 1_000, 1_700);
    assert_eq!(r.signal_start(WEAK, N, false, 1_200, 2_500), Start::Sensed);
    // The receiver stays on the frame (it ends at 1,700), not on the longer weak one.
    assert_eq!(r.signal_end(good2), LOST);
    assert_eq!(r.signal_end(WEAK), RxEnd::Missed);
}

//   near  |====|                 (100..300)
//   good           |=====|       (400..900): the weak frame is gone, nothing interferes
#[test]
fn a_weak_frame_that_has_ended_interferes_with_nothing() {
    let mut r = radio(WeakFrames::Sense);
    r.signal_start(WEAK, N, false, 100, 300);
    r.signal_end(WEAK);
    assert_eq!(r.signal_start(GOOD, S, true, 400, 900), Start::Locked);
    assert_eq!(r.signal_end(GOOD), OK);
}

//   good  |=====|                (100..500, its end event not yet processed)
//   weak          |=====|        (600..900): the good frame completes first
#[test]
fn a_weak_frame_after_a_finished_reception_completes_it_early() {
    let mut r = radio(WeakFrames::Sense);
    r.signal_start(GOOD, S, true, 100, 500);
    assert_eq!(r.signal_start(WEAK, W, false, 600, 900), Start::Early);
    let e = r.early_end();
    assert_eq!((e.frame, e.end, e.ok, e.parts), (GOOD, 500, true, all_or_none(true)));
    assert_eq!(r.signal_end(GOOD), RxEnd::AlreadyDone);
    assert_eq!(r.signal_end(WEAK), RxEnd::Missed);
}

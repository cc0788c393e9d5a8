//! ns-2's capture rules, one frame at a time (`weak_frames = "receive"`).

use super::*;

const A: FrameRef = FrameRef { tx: NodeId(1), serial: 0 };
const B: FrameRef = FrameRef { tx: NodeId(2), serial: 0 };

#[test]
fn lone_frame_is_received() {
    let mut r = Radio::new(10.0, WeakFrames::Receive);
    assert_eq!(r.signal_start(A, 1e-9, true, 100, 500), Start::Locked);
    assert!(
        r.signal_busy_at(100)
            && r.signal_busy_at(499)
            && !r.signal_busy_at(500)
            && !r.signal_busy_at(99)
    );
    assert_eq!(
        r.signal_end(A),
        RxEnd::Locked { ok: true, overlapped: false, parts: all_or_none(true) }
    );
}

#[test]
fn stronger_by_10db_captures() {
    let mut r = Radio::new(10.0, WeakFrames::Receive);
    r.signal_start(A, 1e-9, true, 100, 500);
    assert_eq!(r.signal_start(B, 0.99e-10, true, 200, 600), Start::Captured);
    assert_eq!(
        r.signal_end(A),
        RxEnd::Locked { ok: true, overlapped: false, parts: all_or_none(true) }
    );
    assert_eq!(r.signal_end(B), RxEnd::Missed);
    assert!(r.signal_busy_at(550), "the missed frame still occupies the medium");
}

#[test]
fn weaker_margin_collides_and_longer_frame_holds_receiver() {
    let mut r = Radio::new(10.0, WeakFrames::Receive);
    r.signal_start(A, 1e-9, true, 100, 500);
    assert_eq!(r.signal_start(B, 0.5e-9, true, 200, 600), Start::Collided);
    assert_eq!(r.signal_end(A), RxEnd::Missed);
    assert_eq!(
        r.signal_end(B),
        RxEnd::Locked { ok: false, overlapped: true, parts: all_or_none(false) }
    );
}

#[test]
fn undecodable_signal_is_locked_in_error() {
    let mut r = Radio::new(10.0, WeakFrames::Receive);
    r.signal_start(A, 1e-11, false, 0, 10);
    assert_eq!(
        r.signal_end(A),
        RxEnd::Locked { ok: false, overlapped: false, parts: all_or_none(false) }
    );
}

#[test]
fn transmitting_corrupts_reception() {
    let mut r = Radio::new(10.0, WeakFrames::Receive);
    r.signal_start(A, 1e-9, true, 100, 500);
    r.start_tx(300, 400);
    assert_eq!(
        r.signal_end(A),
        RxEnd::Locked { ok: false, overlapped: true, parts: all_or_none(false) }
    );
    r.signal_start(B, 1e-9, true, 350, 450);
    assert_eq!(
        r.signal_end(B),
        RxEnd::Locked { ok: false, overlapped: true, parts: all_or_none(false) }
    );
}

#[test]
fn early_completion_when_next_arrival_is_later() {
    let mut r = Radio::new(10.0, WeakFrames::Receive);
    r.signal_start(A, 1e-9, true, 100, 500);
    assert_eq!(r.signal_start(B, 1e-9, true, 501, 900), Start::Early, "A ended before B");
    let early = r.early_end();
    assert_eq!(early.frame, A);
    assert!(early.ok);
    assert_eq!(r.signal_end(A), RxEnd::AlreadyDone);
    assert_eq!(
        r.signal_end(B),
        RxEnd::Locked { ok: true, overlapped: false, parts: all_or_none(true) }
    );
}

/// The receiver as it was before [`Start`]: a signal's start returned the early
/// completion, and a second call told whether the newcomer was captured.
struct TwoCallRadio {
    tx_until: SimTime,
    lock: Option<Lock>,
    last_done: Option<FrameRef>,
    capture_ratio: f64,
    captured: bool,
}

impl TwoCallRadio {
    fn signal_start(&mut self, frame: FrameRef, p: f64, dec: bool, start: u64, end: u64) {
        self.captured = false;
        let transmitting = start < self.tx_until;
        match self.lock.as_mut() {
            None => {
                let (ok, overlapped) = (dec && !transmitting, transmitting);
                self.lock = Some(Lock { frame, power_w: p, end, ok, overlapped });
            }
            Some(cur) if cur.power_w >= p * self.capture_ratio => self.captured = true,
            Some(cur) => {
                cur.ok = false;
                cur.overlapped = true;
                if end > cur.end {
                    *cur = Lock { frame, power_w: p, end, ok: false, overlapped: true };
                }
            }
        }
    }

    /// The early completion the old `signal_start` returned (before its own work).
    fn early(&mut self, start: u64) -> Option<EarlyEnd> {
        let cur = self.lock.filter(|c| c.end <= start)?;
        self.last_done = Some(cur.frame);
        self.lock = None;
        let (frame, end, ok, overlapped) = (cur.frame, cur.end, cur.ok, cur.overlapped);
        Some(EarlyEnd { frame, end, ok, parts: all_or_none(ok), overlapped })
    }

    fn signal_end(&mut self, frame: FrameRef) -> RxEnd {
        if self.last_done == Some(frame) {
            self.last_done = None;
            return RxEnd::AlreadyDone;
        }
        match self.lock {
            Some(cur) if cur.frame == frame => {
                self.lock = None;
                RxEnd::Locked { ok: cur.ok, overlapped: cur.overlapped, parts: all_or_none(cur.ok) }
            }
            _ => RxEnd::Missed,
        }
    }
}

#[test]
fn one_start_outcome_matches_the_two_call_sequence_over_random_signals() {
    use crate::engine::rng::{Purpose, Rng};
    let mut rng = Rng::derive(17, Purpose::Probe, 0);
    let (mut seen, mut early_seen) = ([0u32; 4], 0);
    for _ in 0..200 {
        let mut r = Radio::new(10.0, WeakFrames::Receive);
        let mut old = TwoCallRadio {
            tx_until: 0,
            lock: None,
            last_done: None,
            capture_ratio: r.capture_ratio,
            captured: false,
        };
        let (mut now, mut serial) = (0u64, 0u32);
        let mut on_air: Vec<FrameRef> = Vec::new();
        for _ in 0..60 {
            now += rng.up_to(1500) as u64;
            match rng.up_to(7) {
                0 => {
                    let end = now + 1 + rng.up_to(800) as u64;
                    r.start_tx(now, end);
                    old.tx_until = end;
                    if let Some(cur) = old.lock.as_mut().filter(|c| c.end > now) {
                        (cur.ok, cur.overlapped) = (false, true);
                    }
                }
                1..=3 if !on_air.is_empty() => {
                    let f = on_air.swap_remove(rng.up_to(on_air.len() as u32 - 1) as usize);
                    assert_eq!(r.signal_end(f), old.signal_end(f));
                }
                _ => {
                    serial += 1;
                    let f = FrameRef { tx: NodeId(rng.up_to(5)), serial };
                    let start = now + rng.up_to(300) as u64;
                    let end = start + 1 + rng.up_to(3000) as u64;
                    let p = 1e-10 * 10f64.powf(2.0 * rng.uniform());
                    let dec = rng.up_to(3) != 0;
                    let want_early = old.early(start);
                    old.signal_start(f, p, dec, start, end);
                    let got = r.signal_start(f, p, dec, start, end);
                    seen[got as usize] += 1;
                    assert_eq!(got == Start::Early, want_early.is_some(), "{got:?}");
                    assert_eq!(got == Start::Captured, old.captured);
                    if let Some(e) = want_early {
                        assert_eq!(r.early_end(), e);
                        early_seen += 1;
                    }
                    on_air.push(f);
                }
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 50) && early_seen > 50, "{seen:?}");
}

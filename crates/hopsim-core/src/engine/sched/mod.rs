//! Deterministic event queue: a binary min-heap ordered by (time, insertion sequence), so that
//! events at the same nanosecond run in the order they were scheduled. O(log n) scheduling.
//! Cancellation is lazy, by generation tokens held in [`Timer`] (a stale event is popped and
//! ignored, never searched for), except for the events of keyed slots (`keyed.rs`): timers
//! that are usually cancelled (the MAC's CTS/ACK timeout) are withdrawn from the queue.

use crate::engine::time::SimTime;
use keyed::KeyedHeap;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

mod keyed;

#[derive(Clone)]
struct Entry<E> {
    time: SimTime,
    seq: u64,
    event: E,
}

impl<E> Entry<E> {
    /// The queue's order, (time, sequence), as one number: compared in a few instructions.
    #[inline(always)]
    fn key(&self) -> u128 {
        ((self.time as u128) << 64) | self.seq as u128
    }
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl<E> Eq for Entry<E> {}

// Reversed: BinaryHeap is a max-heap and we want the earliest (time, seq) on top. The
// comparisons the heap's sifts use are spelled out, so none goes through `Ordering`.
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
    #[inline(always)]
    fn lt(&self, other: &Self) -> bool {
        self.key() > other.key()
    }
    #[inline(always)]
    fn le(&self, other: &Self) -> bool {
        self.key() >= other.key()
    }
    #[inline(always)]
    fn gt(&self, other: &Self) -> bool {
        self.key() < other.key()
    }
    #[inline(always)]
    fn ge(&self, other: &Self) -> bool {
        self.key() <= other.key()
    }
}
impl<E> Ord for Entry<E> {
    #[inline(always)]
    fn cmp(&self, other: &Self) -> Ordering {
        other.key().cmp(&self.key())
    }
}

/// Where a layer arms its timers. Each layer names its own timer kinds (`T`: the MAC's
/// [`crate::mac::dcf::MacTimer`], TCP's [`crate::transport::tcp::TcpTimer`]) and the kind
/// of id of their owner (`O`: a node, a flow); the world's event module maps them to its
/// events, so no layer imports the world's event type.
pub trait TimerSink<T, O> {
    /// Arm `timer` of `owner` for absolute time `at` (never in the past); `generation` is
    /// the token of [`Timer`] that tells a live firing from a stale one.
    fn arm(&mut self, at: SimTime, owner: O, timer: T, generation: u32);

    /// `timer` of `owner` was cancelled (its [`Timer`] already knows): a sink that holds the
    /// armed event in a keyed slot withdraws it; others leave it to be ignored as stale.
    fn disarm(&mut self, _owner: O, _timer: T) {}
}

/// A test bench's queue of one owner's timers, `(timer, generation)`: a layer's tests run
/// without the world's events.
impl<T, O> TimerSink<T, O> for Scheduler<(T, u32)> {
    fn arm(&mut self, at: SimTime, _owner: O, timer: T, generation: u32) {
        self.schedule(at, (timer, generation));
    }
}

/// The event queue. `now` only moves forward.
#[derive(Clone)]
pub struct Scheduler<E> {
    heap: BinaryHeap<Entry<E>>,
    /// Events that may be withdrawn, one per slot, ordered like the others.
    keyed: KeyedHeap<E>,
    next_seq: u64,
    now: SimTime,
    popped: u64,
    /// The event being handled is still at the root of the ordinary queue (`start_next`).
    in_place: bool,
}

impl<E> Scheduler<E> {
    pub fn with_capacity(capacity: usize) -> Self {
        Scheduler {
            heap: BinaryHeap::with_capacity(capacity),
            keyed: KeyedHeap::default(),
            next_seq: 0,
            now: 0,
            popped: 0,
            in_place: false,
        }
    }

    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Move `now` forward to `t` with nothing to process before it (the end of a run).
    pub fn advance_to(&mut self, t: SimTime) {
        debug_assert!(self.peek_time().is_none_or(|next| next >= t), "events before {t} pending");
        self.now = self.now.max(t);
    }

    /// Number of events taken off the queue so far (stale timer events included, withdrawn
    /// keyed events not).
    pub fn events_popped(&self) -> u64 {
        self.popped
    }

    /// Bytes of the pending events, for the run's memory budget.
    pub fn memory_bytes(&self) -> usize {
        self.heap.len() * std::mem::size_of::<Entry<E>>() + self.keyed.memory_bytes()
    }

    pub fn len(&self) -> usize {
        self.heap.len() + self.keyed.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty() && self.keyed.is_empty()
    }

    /// Schedule `event` at absolute time `at` (never in the past).
    pub fn schedule(&mut self, at: SimTime, event: E) {
        let seq = self.sequence(at);
        let entry = Entry { time: at, seq, event };
        // The event being handled is still the root (`start_next`): one due before both of
        // its children takes its place with no sifting at all.
        let children = self.heap.as_slice().get(1..3).unwrap_or(&[]);
        if self.in_place && children.iter().all(|c| entry.key() <= c.key()) {
            self.in_place = false;
            *self.heap.peek_mut().expect("the event being handled") = entry;
        } else {
            self.heap.push(entry);
        }
    }

    /// Schedule `event` in keyed slot `slot`, replacing the slot's pending event if any. It
    /// takes its turn among the others exactly as if scheduled with [`Scheduler::schedule`].
    pub fn schedule_keyed(&mut self, at: SimTime, slot: u32, event: E) {
        let seq = self.sequence(at);
        self.keyed.insert(slot, Entry { time: at, seq, event });
    }

    /// Withdraw the pending event of keyed slot `slot`, if any.
    pub fn cancel_keyed(&mut self, slot: u32) {
        self.keyed.remove(slot);
    }

    #[inline]
    fn sequence(&mut self, at: SimTime) -> u64 {
        assert!(at >= self.now, "event scheduled in the past: {at} < {}", self.now);
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    /// The next event's time and, when it is of the ordinary queue, the event itself (`None`:
    /// a keyed slot's): one look at both queues for an event loop, which then takes it with
    /// [`Scheduler::pop_peeked`], handles it in place with [`Scheduler::start_next`] or
    /// re-queues it with [`Scheduler::requeue_next`].
    #[inline]
    pub fn peek_next(&self) -> Option<(SimTime, Option<&E>)> {
        match (self.heap.peek(), self.keyed.peek()) {
            (Some(a), Some(b)) if b.key() < a.key() => Some((b.time, None)),
            (Some(a), _) => Some((a.time, Some(&a.event))),
            (None, Some(b)) => Some((b.time, None)),
            (None, None) => None,
        }
    }

    /// Take the next event, which [`Scheduler::peek_next`] found in a keyed slot (`keyed`) or
    /// in the ordinary queue, and advance `now` to its time.
    #[inline]
    pub fn pop_peeked(&mut self, keyed: bool) -> (SimTime, E) {
        debug_assert!(!self.in_place, "an event is still being handled");
        let entry = if keyed { self.keyed.pop() } else { self.heap.pop() };
        let entry = entry.expect("an event was peeked");
        // Checked in release too: one compare, and a broken order would corrupt every result.
        assert!(entry.time >= self.now, "time moved backwards");
        self.now = entry.time;
        self.popped += 1;
        (entry.time, entry.event)
    }

    /// Start handling the next event, which [`Scheduler::peek_next`] found in a keyed slot
    /// (`keyed`) or in the ordinary queue, and advance `now` to its time. A keyed event is
    /// taken off its slot. An event of the ordinary queue stays at the root while it is
    /// handled: an event its handler schedules that is due before both of the root's
    /// children takes its place with no sifting at all (one due later is pushed as usual:
    /// sifting it down from the root would cost more in a large queue), and
    /// [`Scheduler::handled`] takes it off if none did. The order of events is exactly that
    /// of taking it off first.
    #[inline]
    pub fn start_next(&mut self, keyed: bool) -> (SimTime, E)
    where
        E: Copy,
    {
        debug_assert!(!self.in_place, "an event is still being handled");
        if keyed {
            return self.pop_peeked(true);
        }
        let entry = self.heap.peek().expect("an event was peeked");
        // Checked in release too: one compare, and a broken order would corrupt every result.
        assert!(entry.time >= self.now, "time moved backwards");
        self.now = entry.time;
        self.popped += 1;
        self.in_place = true;
        (entry.time, entry.event)
    }

    /// The event started by [`Scheduler::start_next`] was handled: it leaves the queue,
    /// unless an event its handler scheduled took its place.
    #[inline]
    pub fn handled(&mut self) {
        if std::mem::take(&mut self.in_place) {
            self.heap.pop();
        }
    }

    /// Process the next event (of the ordinary queue, as [`Scheduler::peek_next`] gave it) as a timer that
    /// re-arms itself: exactly `pop` then `schedule(at, event)` (same time, same sequence
    /// number, same count of events), but with one sift of the heap instead of two.
    #[inline]
    pub fn requeue_next(&mut self, at: SimTime, event: E) {
        debug_assert!(!self.in_place, "an event is still being handled");
        let time = self.heap.peek().expect("an event to requeue").time;
        assert!(time >= self.now, "time moved backwards");
        self.now = time;
        self.popped += 1;
        let seq = self.sequence(at);
        // PeekMut sifts the new root down into place when dropped.
        *self.heap.peek_mut().expect("an event to requeue") = Entry { time: at, seq, event };
    }

    /// Time of the next event, if any.
    pub fn peek_time(&self) -> Option<SimTime> {
        match (self.heap.peek(), self.keyed.peek()) {
            (Some(a), Some(b)) => Some(a.time.min(b.time)),
            (a, b) => a.or(b).map(|e| e.time),
        }
    }

    /// Take the next event and advance `now` to its time.
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let keyed = self.peek_next()?.1.is_none();
        Some(self.pop_peeked(keyed))
    }
}

/// A single pending deadline with lazy cancellation: arming or cancelling bumps the
/// generation, so events carrying an older generation are recognised as stale when popped.
#[derive(Debug, Clone, Copy, Default)]
pub struct Timer {
    generation: u32,
    deadline: Option<SimTime>,
}

impl Timer {
    /// Arm for `at`, returning the generation the scheduled event must carry.
    pub fn arm(&mut self, at: SimTime) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        self.deadline = Some(at);
        self.generation
    }

    pub fn cancel(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        self.deadline = None;
    }

    /// True (and the timer disarmed) if an event with `generation` is the live one.
    pub fn fire(&mut self, generation: u32) -> bool {
        if self.deadline.is_some() && generation == self.generation {
            self.deadline = None;
            true
        } else {
            false
        }
    }

    /// Move a pending deadline later without scheduling anything: the event already queued
    /// for the earlier time finds the new deadline when it fires ([`Timer::fire_at`]) and is
    /// re-queued once. Restarting a timer on every ACK then costs no queue work.
    pub fn postpone(&mut self, at: SimTime) {
        debug_assert!(self.deadline.is_some_and(|d| at >= d));
        self.deadline = Some(at);
    }

    /// Like [`Timer::fire`] for timers that may have been postponed: `Due` when the live event
    /// has reached the deadline, `Postponed(at)` when it must be re-queued for `at` (same
    /// generation), `Stale` for a cancelled or superseded event.
    pub fn fire_at(&mut self, generation: u32, now: SimTime) -> Firing {
        match self.deadline {
            Some(d) if generation == self.generation => {
                if now >= d {
                    self.deadline = None;
                    Firing::Due
                } else {
                    Firing::Postponed(d)
                }
            }
            _ => Firing::Stale,
        }
    }

    pub fn deadline(&self) -> Option<SimTime> {
        self.deadline
    }

    pub fn is_armed(&self) -> bool {
        self.deadline.is_some()
    }
}

/// Outcome of [`Timer::fire_at`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Firing {
    Due,
    Postponed(SimTime),
    Stale,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postponed_timer_refires_at_its_new_deadline() {
        let mut t = Timer::default();
        let g = t.arm(100);
        t.postpone(250);
        assert_eq!(t.fire_at(g, 100), Firing::Postponed(250));
        assert_eq!(t.fire_at(g, 250), Firing::Due);
        assert_eq!(t.fire_at(g, 250), Firing::Stale);
    }

    #[test]
    fn ties_break_by_insertion_order() {
        let mut s = Scheduler::with_capacity(8);
        s.schedule(10, 'b');
        s.schedule(5, 'a');
        s.schedule(10, 'c');
        s.schedule(10, 'd');
        let order: Vec<char> = std::iter::from_fn(|| s.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['a', 'b', 'c', 'd']);
    }

    #[test]
    #[should_panic(expected = "in the past")]
    fn scheduling_in_the_past_panics() {
        let mut s = Scheduler::with_capacity(2);
        s.schedule(10, ());
        s.pop();
        s.schedule(5, ());
    }

    /// Handling the next event in place is `pop` then the handler's schedules: two queues
    /// driven by the same random script (ties, keyed slots, events due at once, handlers that
    /// schedule nothing, one or several events) give the same run.
    #[test]
    fn handling_in_place_is_pop_then_schedule() {
        use crate::engine::rng::{Purpose, Rng};
        for seed in 0..40 {
            let mut rng = Rng::derive(seed, Purpose::MacBackoff, 0);
            let (mut a, mut b) = (Scheduler::with_capacity(4), Scheduler::with_capacity(4));
            let mut runs = (Vec::new(), Vec::new());
            let mut label = 0u32;
            for _ in 0..3000 {
                let now = a.now();
                let at = now + rng.up_to(4) as u64 * 10; // coarse times: many ties
                label += 1;
                match rng.up_to(9) {
                    0..=3 => {
                        a.schedule(at, label);
                        b.schedule(at, label);
                    }
                    4 => {
                        let slot = rng.up_to(3);
                        a.schedule_keyed(at, slot, label);
                        b.schedule_keyed(at, slot, label);
                    }
                    5 => {
                        let slot = rng.up_to(3);
                        a.cancel_keyed(slot);
                        b.cancel_keyed(slot);
                    }
                    _ => {
                        let Some(t) = a.peek_time() else { continue };
                        let e = a.pop().expect("peeked");
                        runs.0.push(e);
                        let keyed = b.peek_next().expect("same queue").1.is_none();
                        runs.1.push(b.start_next(keyed));
                        for k in 0..rng.up_to(2) {
                            let later = t + rng.up_to(3) as u64 * 10;
                            a.schedule(later, label + 10_000 * (k + 1));
                            b.schedule(later, label + 10_000 * (k + 1));
                        }
                        b.handled();
                    }
                }
                assert_eq!(
                    (a.now(), a.events_popped(), a.len()),
                    (b.now(), b.events_popped(), b.len())
                );
            }
            while let Some(e) = a.pop() {
                runs.0.push(e);
                runs.1.push(b.pop().expect("same length"));
            }
            assert!(b.is_empty());
            assert_eq!(runs.0, runs.1, "seed {seed}");
        }
    }

    #[test]
    fn stale_timer_events_are_ignored() {
        let mut t = Timer::default();
        let g1 = t.arm(100);
        let g2 = t.arm(200);
        assert!(!t.fire(g1));
        assert!(t.fire(g2));
        assert!(!t.fire(g2), "fires once");
        let g3 = t.arm(300);
        t.cancel();
        assert!(!t.fire(g3));
    }
}

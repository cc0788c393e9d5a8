//! The scheduler's withdrawable events: an indexed binary min-heap on (time, sequence) with
//! at most one event per slot (a node's MAC timeout, say) and each slot's position in the
//! heap, so a cancelled event leaves the queue at once (O(log n)) instead of being popped
//! and ignored later. Slots are small integers; the position table grows to the largest.

use super::Entry;

const ABSENT: u32 = u32::MAX;

#[derive(Clone)]
pub(super) struct KeyedHeap<E> {
    heap: Vec<(Entry<E>, u32)>,
    /// Heap index of each slot's event, or `ABSENT`.
    pos: Vec<u32>,
}

impl<E> Default for KeyedHeap<E> {
    fn default() -> Self {
        KeyedHeap { heap: Vec::new(), pos: Vec::new() }
    }
}

impl<E> KeyedHeap<E> {
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    pub fn memory_bytes(&self) -> usize {
        self.heap.capacity() * std::mem::size_of::<(Entry<E>, u32)>() + self.pos.capacity() * 4
    }

    #[inline]
    pub fn peek(&self) -> Option<&Entry<E>> {
        self.heap.first().map(|(e, _)| e)
    }

    /// Put `entry` in `slot`, replacing the slot's pending entry.
    pub fn insert(&mut self, slot: u32, entry: Entry<E>) {
        self.remove(slot);
        if self.pos.len() <= slot as usize {
            self.pos.resize(slot as usize + 1, ABSENT);
        }
        self.heap.push((entry, slot));
        let last = self.heap.len() - 1;
        self.pos[slot as usize] = last as u32;
        self.sift_up(last);
    }

    /// Withdraw the entry of `slot`, if any.
    pub fn remove(&mut self, slot: u32) -> Option<Entry<E>> {
        let i = *self.pos.get(slot as usize)?;
        if i == ABSENT {
            return None;
        }
        Some(self.take(i as usize))
    }

    pub fn pop(&mut self) -> Option<Entry<E>> {
        (!self.heap.is_empty()).then(|| self.take(0))
    }

    /// Remove the entry at heap index `i`, moving the last one into its place.
    fn take(&mut self, i: usize) -> Entry<E> {
        let (entry, slot) = self.heap.swap_remove(i);
        self.pos[slot as usize] = ABSENT;
        if i < self.heap.len() {
            self.pos[self.heap[i].1 as usize] = i as u32;
            // The moved entry may belong above or below index i.
            let i = self.sift_up(i);
            self.sift_down(i);
        }
        entry
    }

    fn less(&self, a: usize, b: usize) -> bool {
        self.heap[a].0.key() < self.heap[b].0.key()
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.heap.swap(a, b);
        self.pos[self.heap[a].1 as usize] = a as u32;
        self.pos[self.heap[b].1 as usize] = b as u32;
    }

    fn sift_up(&mut self, mut i: usize) -> usize {
        while i > 0 {
            let parent = (i - 1) / 2;
            if !self.less(i, parent) {
                break;
            }
            self.swap(i, parent);
            i = parent;
        }
        i
    }

    fn sift_down(&mut self, mut i: usize) {
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let mut least = i;
            if l < self.heap.len() && self.less(l, least) {
                least = l;
            }
            if r < self.heap.len() && self.less(r, least) {
                least = r;
            }
            if least == i {
                return;
            }
            self.swap(i, least);
            i = least;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Scheduler;
    use crate::engine::rng::{Purpose, Rng};

    /// Against a plain list: random schedules, keyed re-arms and cancellations come out in
    /// (time, sequence) order, and every withdrawn event never comes out.
    #[test]
    fn keyed_events_interleave_in_order_and_cancelled_ones_vanish() {
        let mut rng = Rng::derive(7, Purpose::Shadowing, 0);
        let mut sched: Scheduler<u64> = Scheduler::with_capacity(16);
        // The model: live events (time, seq, id); keyed ones remember their slot.
        let mut model: Vec<(u64, u64, u64, Option<u32>)> = Vec::new();
        let (mut seq, mut id) = (0u64, 0u64);
        for step in 0..20_000u64 {
            let now = sched.now();
            match rng.up_to(9) {
                0..=3 => {
                    let at = now + rng.up_to(50) as u64;
                    sched.schedule(at, id);
                    model.push((at, seq, id, None));
                }
                4..=5 => {
                    let slot = rng.up_to(20);
                    let at = now + rng.up_to(50) as u64;
                    sched.schedule_keyed(at, slot, id);
                    model.retain(|e| e.3 != Some(slot));
                    model.push((at, seq, id, Some(slot)));
                }
                6 => {
                    let slot = rng.up_to(20);
                    sched.cancel_keyed(slot);
                    model.retain(|e| e.3 != Some(slot));
                    continue;
                }
                _ => {
                    let want = model.iter().enumerate().min_by_key(|(_, e)| (e.0, e.1));
                    let want = want.map(|(k, e)| (k, e.0, e.2));
                    let got = sched.pop();
                    assert_eq!(got, want.map(|w| (w.1, w.2)), "step {step}");
                    if let Some((k, ..)) = want {
                        model.swap_remove(k);
                    }
                    assert_eq!(sched.len(), model.len());
                    continue;
                }
            }
            seq += 1;
            id += 1;
        }
    }
}

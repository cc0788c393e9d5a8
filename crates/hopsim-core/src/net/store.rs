//! Where routing messages live while a frame carries them. A packet is `Copy` and small, so
//! it carries a number (in a protocol's reference type) and the message itself is here:
//! numbered in the order sent, kept `HORIZON_NS` (a control packet goes to the head of its
//! queue and is received, or lost, long before), then dropped, oldest first.

use std::collections::VecDeque;

use crate::engine::time::SimTime;

/// How long a message is kept after it was sent.
pub const HORIZON_NS: SimTime = 10_000_000_000;

#[derive(Debug, Clone)]
pub struct MessageStore<T> {
    /// The number of `ring`'s first message.
    first: u64,
    ring: VecDeque<(SimTime, T)>,
}

impl<T> Default for MessageStore<T> {
    fn default() -> Self {
        MessageStore { first: 0, ring: VecDeque::new() }
    }
}

impl<T> MessageStore<T> {
    /// Keep `item`, sent at `now`; its number. Messages past the horizon go to `dropped`.
    pub fn put(&mut self, now: SimTime, item: T, mut dropped: impl FnMut(T)) -> u64 {
        while self.ring.front().is_some_and(|(at, _)| *at + HORIZON_NS < now) {
            if let Some((_, old)) = self.ring.pop_front() {
                dropped(old);
            }
            self.first += 1;
        }
        self.ring.push_back((now, item));
        self.first + self.ring.len() as u64 - 1
    }

    /// Message `id` (None once it has passed the horizon).
    pub fn get(&self, id: u64) -> Option<&T> {
        let i = id.checked_sub(self.first)?;
        self.ring.get(i as usize).map(|(_, m)| m)
    }

    /// Messages kept now.
    pub fn len(&self) -> usize {
        self.ring.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ring.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_kept_for_the_horizon_then_dropped_oldest_first() {
        let (mut s, mut gone) = (MessageStore::default(), Vec::new());
        let a = s.put(0, 'a', |m| gone.push(m));
        let b = s.put(HORIZON_NS, 'b', |m| gone.push(m));
        assert_eq!((a, b, s.get(a), s.get(b)), (0, 1, Some(&'a'), Some(&'b')));
        let c = s.put(HORIZON_NS + 1, 'c', |m| gone.push(m));
        assert_eq!((s.get(a), s.get(c), s.len()), (None, Some(&'c'), 2));
        assert_eq!(gone, ['a']);
    }
}

//! The RREQs a node has already processed (RFC 3561 6.5), each remembered until a forget
//! time: a FIFO of (originator, RREQ id, forget at) for expiry, and a hash map from
//! (originator, id) to its latest forget time so that a lookup does not scan the FIFO.
//!
//! Same answers as a linear scan of the FIFO ("is there an entry for the key not yet
//! forgotten?") as long as time never goes back: the forget times of one key grow with its
//! entries, so the latest is the one that decides.

use crate::engine::time::SimTime;
use crate::ids::NodeId;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

#[derive(Debug, Clone, Default)]
pub(super) struct SeenRreqs {
    /// (originator, RREQ id, forget at), in the order remembered (so by forget time).
    fifo: VecDeque<(NodeId, u32, SimTime)>,
    /// (originator, RREQ id) -> forget time of its latest entry in `fifo`.
    latest: FxHashMap<(NodeId, u32), SimTime>,
}

impl SeenRreqs {
    /// Remember (orig, id) until `forget_ns`; entries whose time has come (<= `now`) go.
    /// `now` never decreases between calls, and `forget_ns` = `now` + a constant.
    pub(super) fn remember(&mut self, orig: NodeId, id: u32, now: SimTime, forget_ns: SimTime) {
        while let Some(&(o, i, t)) = self.fifo.front() {
            if t > now {
                break;
            }
            self.fifo.pop_front();
            // A later entry of the same key may still be live: keep the key for it.
            if self.latest.get(&(o, i)).is_some_and(|&latest| latest <= now) {
                self.latest.remove(&(o, i));
            }
        }
        self.fifo.push_back((orig, id, forget_ns));
        self.latest.insert((orig, id), forget_ns);
    }

    /// Was (orig, id) remembered with a forget time after `now`?
    pub(super) fn contains(&self, orig: NodeId, id: u32, now: SimTime) -> bool {
        self.latest.get(&(orig, id)).is_some_and(|&t| t > now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::{Purpose, Rng};

    /// The reference: the FIFO alone, scanned linearly (the table's former implementation).
    #[derive(Default)]
    struct Scan(VecDeque<(NodeId, u32, SimTime)>);

    impl Scan {
        fn remember(&mut self, orig: NodeId, id: u32, now: SimTime, forget_ns: SimTime) {
            while self.0.front().is_some_and(|e| e.2 <= now) {
                self.0.pop_front();
            }
            self.0.push_back((orig, id, forget_ns));
        }
        fn contains(&self, orig: NodeId, id: u32, now: SimTime) -> bool {
            self.0.iter().any(|e| e.0 == orig && e.1 == id && e.2 > now)
        }
    }

    #[test]
    fn answers_as_a_linear_scan_of_the_fifo_does() {
        const KEEP_NS: SimTime = 1000;
        for seed in 0..50 {
            let mut rng = Rng::derive(seed, Purpose::Routing, 0);
            let (mut set, mut scan) = (SeenRreqs::default(), Scan::default());
            let mut now = 0;
            let (mut hits, mut misses) = (0, 0);
            for _ in 0..3000 {
                // Steps around the keep time, so that keys expire, come back before or after
                // their entries are dropped, and are remembered again while still live.
                now += rng.up_to(400) as u64 + if rng.up_to(20) == 0 { KEEP_NS } else { 0 };
                let (orig, id) = (rng.up_to(4), rng.up_to(6));
                let expected = scan.contains(NodeId(orig), id, now);
                assert_eq!(set.contains(NodeId(orig), id, now), expected, "seed {seed} at {now}");
                if expected {
                    hits += 1;
                } else {
                    misses += 1;
                }
                // Mostly as the node does (remember what was not seen), sometimes regardless.
                if !expected || rng.up_to(4) == 0 {
                    set.remember(NodeId(orig), id, now, now + KEEP_NS);
                    scan.remember(NodeId(orig), id, now, now + KEEP_NS);
                }
                assert!(set.latest.len() <= set.fifo.len(), "no key outlives its entries");
            }
            assert!(hits > 100 && misses > 100, "both answers exercised: {hits} {misses}");
        }
    }
}

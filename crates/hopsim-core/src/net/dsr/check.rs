//! ns2: the send-buffer check of a node (dsragent.cc `SendBufferTimer`). Started with the
//! agent at time 0, it fires every `BUFFER_CHECK` x (1 + U(0, 1)) = 30-60 ms for the whole
//! run and runs each waiting packet through `handlePktWithoutSR` -> `getRouteForPacket`:
//! the only times, besides a new packet of the node's own, at which ns-2's DSR sends a
//! waiting packet on a route its cache learned, sends the propagating request of a cycle,
//! begins a cycle the backoff held back, or lets a salvaging forwarder ask or drop.
//!
//! hopsim keeps no event per check: the check instants are one renewal sequence per node,
//! drawn lazily from its own stream, and each use asks for the first check after an instant.
//! Instants up to `now` are committed; a later one is found on a copy of the stream, so every
//! use sees the same checks whatever the order of its questions.

use crate::engine::rng::Rng;
use crate::engine::time::{SimDuration, SimTime};

/// dsragent.h `BUFFER_CHECK`.
const NS2_BUFFER_CHECK_NS: SimDuration = 30_000_000;

#[derive(Debug, Clone)]
pub(super) struct CheckClock {
    /// The last check at or before the committed instant (0: the agent's start).
    last_ns: SimTime,
    /// The stream positioned to draw the gap after `last_ns`.
    rng: Rng,
}

impl CheckClock {
    pub fn new(rng: Rng) -> CheckClock {
        CheckClock { last_ns: 0, rng }
    }

    /// `SendBufferTimer::expire` reschedules itself BUFFER_CHECK + BUFFER_CHECK x U(0, 1).
    fn gap_ns(rng: &mut Rng) -> SimDuration {
        let c = NS2_BUFFER_CHECK_NS;
        c + (c as f64 * rng.uniform()) as SimDuration
    }

    /// The first check strictly after `t` (`t` >= `now`, the current instant).
    pub fn first_after(&mut self, t: SimTime, now: SimTime) -> SimTime {
        debug_assert!(t >= now, "a check is asked for ahead: {t} < {now}");
        loop {
            let mut r = self.rng.clone();
            let next = self.last_ns + Self::gap_ns(&mut r);
            if next > now {
                break;
            }
            (self.last_ns, self.rng) = (next, r);
        }
        let (mut at, mut r) = (self.last_ns, self.rng.clone());
        while at <= t {
            at += Self::gap_ns(&mut r);
        }
        at
    }
}

/// The checks of node `me` under `seed` up to `end_ns`, from a clock of their own (tests).
#[cfg(test)]
pub(super) fn checks_of(seed: u64, me: u32, end_ns: SimTime) -> Vec<SimTime> {
    use crate::engine::rng::Purpose;
    let mut c = CheckClock::new(Rng::derive(seed, Purpose::DsrBufferCheck, u64::from(me)));
    let mut at = vec![c.first_after(0, 0)];
    while *at.last().unwrap() < end_ns {
        let t = *at.last().unwrap();
        at.push(c.first_after(t, t));
    }
    at
}

/// The first of `checks` strictly after `t` (tests).
#[cfg(test)]
pub(super) fn after(checks: &[SimTime], t: SimTime) -> SimTime {
    *checks.iter().find(|&&c| c > t).expect("checks run past t")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::Purpose;

    const MS: u64 = 1_000_000;

    fn clock(seed: u64) -> CheckClock {
        CheckClock::new(Rng::derive(seed, Purpose::DsrBufferCheck, 0))
    }

    /// The instants of the checks, from 0 to `end`, asked one after the other.
    fn checks(c: &mut CheckClock, end: u64) -> Vec<u64> {
        let mut at = vec![c.first_after(0, 0)];
        while *at.last().unwrap() < end {
            let t = *at.last().unwrap();
            at.push(c.first_after(t, t));
        }
        at
    }

    #[test]
    fn checks_come_every_30_to_60_ms_from_the_start_mean_45() {
        let at = checks(&mut clock(3), 600_000 * MS);
        assert!((30 * MS..60 * MS).contains(&at[0]), "first {}", at[0]);
        let gaps: Vec<u64> = at.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(gaps.iter().all(|g| (30 * MS..60 * MS).contains(g)));
        let mean_ms = gaps.iter().sum::<u64>() as f64 / gaps.len() as f64 / MS as f64;
        // U(30, 60): mean 45 ms, sd 8.66 / sqrt(13,000) = 0.08 ms.
        assert!((mean_ms - 45.0).abs() < 0.3, "mean gap {mean_ms} ms");
        let below = gaps.iter().filter(|&&g| g < 45 * MS).count() as f64 / gaps.len() as f64;
        assert!((below - 0.5).abs() < 0.02, "half the gaps below 45 ms: {below}");
    }

    /// One sequence, whatever is asked when: a question far ahead does not move the checks
    /// a nearer question (asked later, at an earlier instant) finds.
    #[test]
    fn every_question_sees_the_same_checks() {
        let want = checks(&mut clock(8), 5_000 * MS);
        let mut c = clock(8);
        let far = c.first_after(4_000 * MS, 0);
        assert_eq!(far, *want.iter().find(|&&t| t > 4_000 * MS).unwrap());
        let near = c.first_after(100 * MS, 0);
        assert_eq!(near, *want.iter().find(|&&t| t > 100 * MS).unwrap());
        let mid = c.first_after(2_500 * MS, 2_000 * MS);
        assert_eq!(mid, *want.iter().find(|&&t| t > 2_500 * MS).unwrap());
        assert_eq!(c.first_after(4_000 * MS, 3_000 * MS), far);
    }

    /// From an instant taken independently of the checks, the wait has the residual law of
    /// U(30, 60) ms gaps: below 30 ms with probability 2/3, mean E[g^2] / 2E[g] = 23.33 ms.
    #[test]
    fn the_wait_from_an_arbitrary_instant_is_the_residual_of_the_gaps() {
        let mut c = clock(11);
        let (mut sum, mut below, n) = (0.0, 0u32, 20_000u32);
        for k in 0..n {
            let t = u64::from(k) * 997 * MS + 13 * MS; // not a multiple of any gap
            let w = c.first_after(t, t) - t;
            assert!(w <= 60 * MS);
            sum += w as f64 / MS as f64;
            below += u32::from(w < 30 * MS);
        }
        let (mean, share) = (sum / f64::from(n), f64::from(below) / f64::from(n));
        assert!((mean - 2100.0 / 90.0).abs() < 0.4, "mean wait {mean} ms");
        assert!((share - 2.0 / 3.0).abs() < 0.015, "below 30 ms {share}");
    }
}

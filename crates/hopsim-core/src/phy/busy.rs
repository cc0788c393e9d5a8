//! Physical carrier sense as a radio sees it: the current busy period (the union of the
//! overlapping busy intervals reported so far) and the end of the one before it, which is
//! all the MAC's DIFS/backoff arithmetic needs.

use crate::engine::time::SimTime;

#[derive(Debug, Clone, Copy, Default)]
pub struct BusyPeriods {
    /// The current (or latest) busy period: [from, until).
    from: SimTime,
    until: SimTime,
    /// End of the busy period before it.
    prev_until: SimTime,
}

impl BusyPeriods {
    /// The medium is busy over [start, end) (intervals arrive in non-decreasing start order,
    /// up to the propagation delays).
    #[inline]
    pub fn add(&mut self, start: SimTime, end: SimTime) {
        if start > self.until {
            self.prev_until = self.until;
            self.from = start;
            self.until = end;
        } else {
            self.from = self.from.min(start);
            self.until = self.until.max(end);
        }
    }

    #[inline]
    /// End of the latest busy period.
    pub fn until(&self) -> SimTime {
        self.until
    }

    pub fn busy_at(&self, t: SimTime) -> bool {
        self.from <= t && t < self.until
    }

    /// When the medium last became idle, as seen at `t` (meaningful when idle at `t`).
    #[inline]
    pub fn idle_since(&self, t: SimTime) -> SimTime {
        if t < self.from {
            self.prev_until
        } else {
            self.until
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_intervals_merge_and_gaps_start_a_new_period() {
        let mut b = BusyPeriods::default();
        b.add(100, 200);
        b.add(150, 300);
        assert!(b.busy_at(100) && b.busy_at(299) && !b.busy_at(300));
        assert_eq!(b.idle_since(400), 300);
        b.add(500, 600);
        assert_eq!(b.idle_since(450), 300, "before the new period: the old one's end");
        assert_eq!(b.idle_since(700), 600);
    }
}

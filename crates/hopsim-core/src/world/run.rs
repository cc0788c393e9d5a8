//! The event loop, within the run's budget: it stops with an error naming the cause when the
//! events processed or the memory of the growing structures (event queue, packets, time
//! series) pass their limits. The checks read counters only, so they never change a result.

use super::event::{Event, NodeTimer};
use super::World;
use crate::engine::time::{ns_to_secs, SimTime};
use crate::error::ScenarioError;
use crate::ids::NodeId;
use crate::mac::dcf::{AccessCheck, MacCtx, MacTimer};

/// Events between two looks at the memory taken (a look costs a few loads).
const MEMORY_CHECK_EVERY: u64 = 1 << 20;

impl World {
    /// Run until the end time; events at exactly the end time are not processed.
    pub fn run(&mut self) -> Result<(), ScenarioError> {
        while !self.run_events(u64::MAX)? {}
        Ok(())
    }

    /// Process at most `max_events` events; Ok(true) when the run has reached its end (so a
    /// caller can check for interruption between slices without changing the result).
    pub fn run_events(&mut self, max_events: u64) -> Result<bool, ScenarioError> {
        self.run_slice(max_events, self.cx.cfg.end_ns)
    }

    /// Run the events before `until_ns` (all of them up to the end time when it lies beyond):
    /// a pause. Continuing (`run`, `run_until`) gives what one uninterrupted run gives.
    /// Ok(true) when the run has reached its end.
    pub fn run_until(&mut self, until_ns: SimTime) -> Result<bool, ScenarioError> {
        while !self.run_events_until(until_ns, u64::MAX)? {}
        Ok(until_ns >= self.cx.cfg.end_ns)
    }

    /// At most `max_events` of the events before `until_ns` (or the end time): a slice of
    /// [`World::run_until`]; Ok(true) when none is left before it.
    pub fn run_events_until(
        &mut self,
        until_ns: SimTime,
        max_events: u64,
    ) -> Result<bool, ScenarioError> {
        self.run_slice(max_events, until_ns.min(self.cx.cfg.end_ns))
    }

    /// At most `max_events` events before `stop_ns` (the end time, or a pause before it);
    /// Ok(true) when none is left before it.
    fn run_slice(&mut self, max_events: u64, stop_ns: SimTime) -> Result<bool, ScenarioError> {
        let limit = self.budget.max_events;
        for _ in 0..max_events {
            let next = self.cx.sched.peek_next().map(|(t, queued)| (t, queued.copied()));
            let Some((t, queued)) = next.filter(|n| n.0 < stop_ns) else {
                // The run has reached its end time, or the pause: what `now()` reports from
                // here on, and when a change made while paused takes effect.
                self.cx.sched.advance_to(stop_ns);
                return Ok(true);
            };
            let popped = self.cx.sched.events_popped();
            if popped >= limit {
                return Err(self.budget.stopped_at_events(popped, ns_to_secs(t)));
            }
            if popped % MEMORY_CHECK_EVERY == MEMORY_CHECK_EVERY - 1 {
                self.check_memory(t)?;
            }
            match queued {
                Some(Event::Node { node, timer: NodeTimer::Mac(MacTimer::Access, generation) }) => {
                    self.access_timer_fires(t, node, generation)
                }
                _ => {
                    let (now, event) = self.cx.sched.start_next(queued.is_none());
                    self.dispatch(now, event);
                    self.cx.sched.handled();
                }
            }
        }
        Ok(false)
    }

    /// The next event is `node`'s access timer (of `generation`) firing at `now`. Most such
    /// firings find the access time moved later by a frame heard meanwhile and only re-arm the
    /// timer (`mac/dcf/access_timer.rs`): that firing is re-queued in place, with the same result as
    /// taking it off the queue and scheduling the new one.
    #[inline]
    fn access_timer_fires(&mut self, now: SimTime, node: NodeId, generation: u32) {
        let mac = &mut self.nodes[node.index()].mac;
        match mac.check_access(now, generation) {
            AccessCheck::Later { at, generation } => {
                let timer = NodeTimer::Mac(MacTimer::Access, generation);
                self.cx.sched.requeue_next(at, Event::Node { node, timer });
            }
            AccessCheck::Stale => {
                self.cx.sched.pop_peeked(false);
            }
            AccessCheck::Due => {
                self.cx.sched.pop_peeked(false);
                let mut cx = MacCtx { now, timers: &mut self.cx.sched, out: &mut self.cx.mac_out };
                mac.win_access(&mut cx);
                self.drain(now);
            }
        }
    }

    /// Bytes held by the structures that grow while the run goes on, with the largest.
    pub fn growing_memory(&self) -> (f64, &'static str) {
        let parts = [
            (self.cx.sched.memory_bytes(), "the event queue"),
            (self.cx.packets.memory_bytes(), "the packets in flight"),
            (self.series.as_ref().map_or(0, |s| s.memory_bytes()), "the time series"),
        ];
        let total = parts.iter().map(|p| p.0 as f64).sum();
        (total, parts.iter().max_by_key(|p| p.0).expect("parts").1)
    }

    fn check_memory(&self, t: u64) -> Result<(), ScenarioError> {
        let (bytes, what) = self.growing_memory();
        if bytes > self.budget.max_bytes() {
            return Err(self.budget.stopped_at_memory(bytes, ns_to_secs(t), what));
        }
        Ok(())
    }
}

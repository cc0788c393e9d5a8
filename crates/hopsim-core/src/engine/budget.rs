//! The work budget of one run: how many events it may process and how much memory its growing
//! structures may take. A scenario whose known work already exceeds the budget is refused
//! before anything is built ([`Budget::check_needs`]); the world counts what it builds
//! (mobility legs, links, route tables) and, while it runs, its events and its queues, and
//! stops with an error naming the cause the moment a limit is passed. The budget never
//! changes a result: a run that fits gives the same numbers whatever the limits.
//!
//! Work is counted in events; building the world counts one per pair of nodes it examines
//! (placement, connectivity), which costs about as much as an event.

use crate::error::ScenarioError;

/// About eight minutes at this engine's 10 million events per second.
pub const DEFAULT_MAX_EVENTS: u64 = 5_000_000_000;
pub const DEFAULT_MAX_MEMORY_MB: f64 = 4096.0;

/// Limits of one run (run options `max_events`, `max_memory_mb`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    pub max_events: u64,
    pub max_memory_mb: f64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { max_events: DEFAULT_MAX_EVENTS, max_memory_mb: DEFAULT_MAX_MEMORY_MB }
    }
}

/// Work a scenario needs whatever happens on the air, and the key that asks for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Need {
    pub key: String,
    pub value: String,
    pub events: f64,
    pub bytes: f64,
    /// How the figure follows from the key, for the message.
    pub why: String,
}

const MB: f64 = 1024.0 * 1024.0;
/// Bytes of one route table entry (next hop and hop count) of static routing.
pub const ROUTE_ENTRY_BYTES: f64 = 8.0;
/// Bytes of one sample of the time series (time, flow, cwnd, goodput, bytes).
pub const SERIES_SAMPLE_BYTES: f64 = 48.0;
/// Bytes of one flow's state, rounded up from the peak memory of 20,000 flows on a 2-hop
/// chain (TCP: sender, receiver and their statistics ~19 KB; UDP: source and sink ~2.7 KB).
pub const TCP_FLOW_BYTES: f64 = 20_000.0;
pub const UDP_FLOW_BYTES: f64 = 3_000.0;

impl Budget {
    pub fn max_bytes(&self) -> f64 {
        self.max_memory_mb * MB
    }

    /// Refuse known needs (`Scenario::needs`) that exceed the budget, naming the key behind
    /// the largest one.
    pub fn check_needs(&self, needs: &[Need]) -> Result<(), ScenarioError> {
        let events: f64 = needs.iter().map(|n| n.events).sum();
        if events > self.max_events as f64 {
            let top = needs.iter().max_by(|a, b| a.events.total_cmp(&b.events)).expect("some need");
            return Err(self.over_events(top, events));
        }
        let bytes: f64 = needs.iter().map(|n| n.bytes).sum();
        if bytes > self.max_bytes() {
            let top = needs.iter().max_by(|a, b| a.bytes.total_cmp(&b.bytes)).expect("some need");
            return Err(self.over_memory(&top.key, &top.value, bytes, &top.why));
        }
        Ok(())
    }

    fn over_events(&self, need: &Need, total: f64) -> ScenarioError {
        ScenarioError::invalid(
            &need.key,
            &need.value,
            &format!(
                "the run needs at least {total:.3e} events ({}), over its budget of {} events \
                 (about {} minutes); change the scenario, or raise the budget with the run \
                 option max_events (hopsim run/sweep --max-events)",
                need.why,
                self.max_events,
                (self.max_events / 10_000_000).div_ceil(60),
            ),
        )
    }

    /// The error of memory over the budget, caused by `key` = `value`.
    pub fn over_memory(&self, key: &str, value: &str, bytes: f64, why: &str) -> ScenarioError {
        ScenarioError::invalid(
            key,
            value,
            &format!(
                "the run needs at least {:.0} MB of memory ({why}), over its budget of {} MB; \
                 change the scenario, or raise the budget with the run option max_memory_mb \
                 (hopsim run/sweep --max-memory-mb)",
                bytes / MB,
                self.max_memory_mb
            ),
        )
    }

    /// The error of a run stopped after `events` events.
    pub fn stopped_at_events(&self, events: u64, now_s: f64) -> ScenarioError {
        ScenarioError {
            key: "max_events".into(),
            message: format!(
                "run stopped at {now_s:.3} s of simulated time after {events} events: over its \
                 budget of {} events (run option max_events; hopsim run/sweep --max-events); \
                 shorten duration_s, or raise the budget",
                self.max_events
            ),
        }
    }

    /// The error of a run whose structures grew past the memory budget.
    pub fn stopped_at_memory(&self, bytes: f64, now_s: f64, what: &str) -> ScenarioError {
        ScenarioError {
            key: "max_memory_mb".into(),
            message: format!(
                "run stopped at {now_s:.3} s of simulated time: {what} took {:.0} MB, over its \
                 memory budget of {} MB (run option max_memory_mb; hopsim run/sweep \
                 --max-memory-mb)",
                bytes / MB,
                self.max_memory_mb
            ),
        }
    }
}

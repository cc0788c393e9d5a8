//! A run copied mid-way (issue 35): every node, queue, timer, packet and random stream, so that
//! the copy continues exactly as the original would, and the two share their randomness until
//! something changes one of them (common random numbers).

use super::World;
use crate::engine::time::SimTime;
use crate::error::ScenarioError;

impl World {
    /// The simulated time: where the run is paused (`run_until`'s time, its events not yet
    /// run), or the end time once the run is over.
    pub fn now_ns(&self) -> SimTime {
        self.cx.sched.now()
    }

    /// When the run ends (`duration_s`).
    pub fn end_ns(&self) -> SimTime {
        self.cx.cfg.end_ns
    }

    /// An independent copy of the whole run as it stands. Refused while an event trace or
    /// pcap traces are written: a copy could not share the files, and would not have them.
    pub fn fork(&self) -> Result<World, ScenarioError> {
        if self.cx.trace.on() || self.cx.pcap.is_some() {
            return Err(ScenarioError {
                key: String::new(),
                message: "a run that writes an event trace or pcap traces cannot be forked: \
                          fork before attaching them, or run without traces"
                    .into(),
            });
        }
        Ok(self.clone())
    }
}

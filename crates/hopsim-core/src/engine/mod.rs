//! The engine: simulated time (`time.rs`), the event queue with its time-monotonicity checks
//! and the timer sink the layers arm through (`sched.rs`), seeded random streams per purpose
//! and node (`rng.rs`), the world's events, which only route to a node's, a flow's or the
//! simulation's own handlers (`event.rs`), and the work budget of a run (`budget.rs`).

pub mod budget;
pub mod event;
pub mod rng;
pub mod sched;
pub mod time;

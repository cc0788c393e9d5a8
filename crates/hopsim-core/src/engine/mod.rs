//! The engine: simulated time (`time.rs`), the event queue with its time-monotonicity checks
//! and the timer sink the layers arm through (`sched.rs`), seeded random streams per purpose
//! and node (`rng.rs`) and the work budget of a run (`budget.rs`). It knows no layer: each
//! layer names its own timer kinds and arms them through `sched::TimerSink`; the world's
//! event type (`world/event.rs`) maps them to events.

pub mod budget;
pub mod rng;
pub mod sched;
pub mod time;

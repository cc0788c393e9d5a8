//! What a run reports: the result document's types (`metrics.rs`, built by
//! `world/result.rs` from the nodes' and flows' counters), the schema of every result key
//! with its unit and meaning (`schema.rs`, exported to Python and the docs), the event trace
//! (`events.rs`) and the pcap traces (`trace/`).

pub mod event_rows;
pub mod events;
pub mod metrics;
pub mod schema;
pub mod trace;

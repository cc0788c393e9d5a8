//! Physical layer: path loss, who hears whom, and per-node reception with capture.

pub mod channel;
pub mod propagation;
pub mod radio;

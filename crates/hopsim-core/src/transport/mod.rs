//! Transport layer.

pub mod tcp;
pub mod udp;

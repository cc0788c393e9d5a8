//! Network layer: the packet model and routing.

pub mod packet;
pub mod routing;

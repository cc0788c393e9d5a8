//! Network layer: the packet model and routing.

pub mod aodv;
pub mod dsr;
pub mod etx;
pub mod hwmp;
pub mod olsr;
pub mod packet;
pub mod router;
pub mod routing;
pub mod store;

//! IEEE 802.11 DCF MAC.

pub mod access;
pub mod ampdu;
pub mod amsdu;
pub mod block_ack;
pub mod dcf;
pub mod edca;
pub mod frame;
pub mod rate;
pub mod timing;

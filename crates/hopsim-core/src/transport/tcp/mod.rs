//! TCP: sender and receiver modelled as ns-2's one-way agents (segment-based, bulk FTP
//! source), with real byte sequence numbers, ports and flags on the wire.

pub mod cc;
pub mod limits;
pub mod receiver;
pub mod rto;
pub mod sender;
pub mod stats;

#[cfg(test)]
mod sender_tests;

use crate::scenario::{TcpSpec, TcpVariant, WindowLimit};
use cc::{Aimd, CongestionControl};
use limits::LimitPolicy;

/// TCP header length without options.
pub const TCP_HEADER_BYTES: u32 = 20;

/// The congestion-control algorithm of a variant.
pub fn congestion_control(variant: TcpVariant) -> Box<dyn CongestionControl> {
    match variant {
        TcpVariant::Reno | TcpVariant::NewReno | TcpVariant::Sack => Box::new(Aimd),
    }
}

/// Bytes of TCP options an ACK carries for `sack_blocks` SACK blocks (2 NOPs + kind/length +
/// 8 bytes per block, RFC 2018), so the header stays a multiple of 4 bytes.
pub fn sack_option_bytes(sack_blocks: u8) -> u32 {
    if sack_blocks == 0 {
        0
    } else {
        4 + 8 * sack_blocks as u32
    }
}

/// The window limit policy a flow's settings select.
pub fn limit_policy(spec: &TcpSpec) -> LimitPolicy {
    match spec.window_limit {
        Some(WindowLimit::None) => LimitPolicy::None,
        Some(WindowLimit::Fixed) => LimitPolicy::Fixed(spec.max_window),
        Some(WindowLimit::HopBased) => LimitPolicy::HopTable,
        Some(WindowLimit::HopK) => LimitPolicy::HopK(spec.hop_k),
        Some(WindowLimit::DelayBased) => LimitPolicy::DelayBased,
        Some(WindowLimit::Fu) => LimitPolicy::Fu,
        Some(WindowLimit::Kawadia) => LimitPolicy::Kawadia,
        None if spec.max_window > 0.0 => LimitPolicy::Fixed(spec.max_window),
        None => LimitPolicy::None,
    }
}

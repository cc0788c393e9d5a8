//! TCP: sender and receiver modelled as ns-2's one-way agents (segment-based, bulk FTP
//! source), with real byte sequence numbers, ports and flags on the wire.

/// TCP's timers: the sender's retransmission timeout and pacing gap, the receiver's delayed
/// ACK. Armed through [`crate::engine::sched::TimerSink`]; the world turns them into its events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TcpTimer {
    Rto,
    DelAck,
    Pace,
}

/// What a TCP endpoint needs from outside for one call, the sender and the receiver alike:
/// the time, where to arm its timers, and where to list what it sends (the sender's
/// segments, the receiver's ACKs).
pub struct TcpCtx<'a, Out = sender::SendSegment> {
    pub now: crate::engine::time::SimTime,
    pub timers: &'a mut dyn crate::engine::sched::TimerSink<TcpTimer, crate::ids::FlowId>,
    pub out: &'a mut Vec<Out>,
}

pub mod cc;
pub mod config;
pub mod endpoint;
pub use sender::ecn;
pub mod limits;
pub mod linux;
mod pacing;
pub mod quick_ack;
pub mod rate_sample;
pub mod rcv_window;
pub mod receiver;
mod recovery;
pub mod rto;
mod rto_ns2;
mod scoreboard;
pub mod sender;
pub mod stats;
pub mod timestamps;
pub mod window;

#[cfg(test)]
mod ecn_tests;
#[cfg(test)]
mod linux_tests;
#[cfg(test)]
mod ns2_vegas_tests;
#[cfg(test)]
mod script_tests;
#[cfg(test)]
mod sender_tests;
#[cfg(test)]
mod syn_tests;
#[cfg(test)]
mod test_support;

use crate::engine::rng::Rng;
use cc::{Aimd, Bbr, Bic, CongestionControl, Cubic, Few, Vegas, VegasParams, VegasW, VegasWParams};
use config::{TcpHost, TcpSpec, TcpVariant, WindowLimit};
use limits::LimitPolicy;
pub use recovery::Recovery;

/// TCP header length without options.
pub const TCP_HEADER_BYTES: u32 = 20;

/// The congestion-control algorithm of a flow.
/// `ns2`: the ns2 profile (AIMD's ssthresh from the usable window as ns-2's `slowdown`;
/// Vegas as tcp-vegas.cc, `cc/vegas.rs`). `rng`: the flow's own stream (BBR's random
/// PROBE_BW phase).
pub fn congestion_control(spec: &TcpSpec, ns2: bool, rng: Rng) -> Box<dyn CongestionControl> {
    let rwnd = spec.receiver_window as f64;
    match spec.variant {
        TcpVariant::Reno | TcpVariant::NewReno | TcpVariant::Sack => Box::new(Aimd {
            window_basis: ns2,
            count_acked: spec.count_acked,
            initial_ssthresh: ns2.then_some(rwnd),
        }),
        TcpVariant::Vegas => {
            let params = VegasParams { alpha: spec.alpha, beta: spec.beta, gamma: spec.gamma };
            Box::new(Vegas::new(params, rwnd).with_ns2(ns2))
        }
        TcpVariant::VegasW => Box::new(VegasW::new(
            VegasWParams {
                alpha: spec.alpha,
                beta: spec.beta,
                gamma: spec.gamma,
                p: spec.vegas_w_p,
                n_fw: spec.n_fw,
                n_s: spec.n_s,
                n_ca: spec.n_ca,
                ns_ca: spec.ns_ca,
                to_ss: spec.to_ss,
            },
            rwnd,
        )),
        TcpVariant::Few => Box::new(Few { alpha: spec.few_alpha }),
        TcpVariant::Cubic => Box::new(Cubic::new(spec.count_acked, spec.hystart)),
        TcpVariant::Bic => Box::new(Bic::default()),
        TcpVariant::Bbr => Box::new(Bbr::new(spec.initial_window, rng)),
    }
}

/// The loss recovery of a variant: ns-2's Vegas (and Vegas-W built on it) recovers like Reno;
/// FeW is NewReno with a smaller increase. A Linux host recovers with SACK whatever the
/// congestion control (tcp_input.c: SACK is negotiated by default since 2.4).
pub fn recovery(spec: &TcpSpec) -> Recovery {
    if spec.host == TcpHost::Linux {
        return Recovery::Sack;
    }
    match spec.variant {
        TcpVariant::Reno | TcpVariant::Vegas | TcpVariant::VegasW => Recovery::Reno,
        TcpVariant::NewReno | TcpVariant::Few => Recovery::new_reno(),
        TcpVariant::Sack | TcpVariant::Cubic | TcpVariant::Bic | TcpVariant::Bbr => Recovery::Sack,
    }
}

/// Does the variant's receiver send SACK blocks (RFC 2018) for its sender's scoreboard?
pub fn uses_sack(spec: &TcpSpec) -> bool {
    spec.host == TcpHost::Linux
        || matches!(
            spec.variant,
            TcpVariant::Sack | TcpVariant::Cubic | TcpVariant::Bic | TcpVariant::Bbr
        )
}

/// Name of a variant as in scenarios and results.
pub fn variant_name(variant: TcpVariant) -> &'static str {
    match variant {
        TcpVariant::Reno => "reno",
        TcpVariant::NewReno => "newreno",
        TcpVariant::Sack => "sack",
        TcpVariant::Vegas => "vegas",
        TcpVariant::VegasW => "vegas_w",
        TcpVariant::Few => "few",
        TcpVariant::Cubic => "cubic",
        TcpVariant::Bic => "bic",
        TcpVariant::Bbr => "bbr",
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

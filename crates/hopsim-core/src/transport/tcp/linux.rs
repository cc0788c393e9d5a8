//! The `linux` host profile: what a Linux sender and receiver do that ns-2's one-way agents
//! don't, as defaults for every `[tcp]` key a scenario leaves unset (the parser fills them,
//! so a resolved scenario states them all). Values are Linux's (include/net/tcp.h,
//! net/ipv4/tcp_input.c, tcp_output.c, tcp_timer.c; 3.x-6.x kernels unless noted).

use super::config::{TcpHost, TcpSpec};

/// RFC 6928 / `TCP_INIT_CWND` (Linux 2.6.39 on; RFC 3390's 3 segments before).
pub const INIT_CWND_SEGMENTS: f64 = 10.0;
/// `TCP_RTO_MIN` (HZ / 5).
pub const RTO_MIN_S: f64 = 0.2;
/// `TCP_RTO_MAX` (120 HZ).
pub const RTO_MAX_S: f64 = 120.0;
/// `TCP_TIMEOUT_INIT`: RFC 6298 section 2.1's one second.
pub const TIMEOUT_INIT_S: f64 = 1.0;
/// `TCP_ATO_MIN` (HZ / 25): the first delayed-ACK timeout, and the floor of its adaptation.
pub const ATO_MIN_S: f64 = 0.04;
/// `tcp_send_delayed_ack`'s ceiling of the ATO for a receiver with no RTT estimate of its
/// own (HZ / 2).
pub const ATO_MAX_S: f64 = 0.5;
/// `TCP_MAX_QUICKACKS`: the most ACKs sent at once in a row after entering quick-ACK mode.
pub const MAX_QUICKACKS: u32 = 16;
/// `TCP_DEFAULT_INIT_RCVWND`: the first advertised window (tcp_select_initial_window,
/// 3.x-4.x kernels), in segments.
pub const INIT_RCVWND_SEGMENTS: u32 = 10;
/// `tcp_rmem[2]` (6 MiB): the receive buffer autotuning may reach. With
/// `tcp_adv_win_scale` = 1 half of it is window: 3 MiB, 2154 segments of 1460 bytes.
pub const RMEM_MAX_BYTES: u32 = 6 * 1024 * 1024;
/// `receiver_window` under the linux host: the autotuning bound in segments of 1460 bytes.
pub const RCVWND_MAX_SEGMENTS: u32 = RMEM_MAX_BYTES / 2 / 1460;

impl TcpSpec {
    /// The linux host's defaults (every other key as ns-2's agents).
    pub fn linux() -> TcpSpec {
        TcpSpec {
            host: TcpHost::Linux,
            initial_window: INIT_CWND_SEGMENTS,
            min_rto_s: RTO_MIN_S,
            max_rto_s: RTO_MAX_S,
            initial_rto_s: TIMEOUT_INIT_S,
            // tcp_rtt_estimator keeps the deviation term at least tcp_rto_min: RTO = SRTT +
            // max(4 RTTVAR, 200 ms), which is RFC 6298's formula with G = 200 ms.
            clock_granularity_s: RTO_MIN_S,
            delayed_ack: true,
            delayed_ack_timeout_s: ATO_MIN_S,
            quick_ack: true,
            timestamps: true,
            rwnd_autotuning: true,
            initial_receive_window: INIT_RCVWND_SEGMENTS,
            receiver_window: RCVWND_MAX_SEGMENTS,
            count_acked: true,
            hystart: true,
            ..TcpSpec::default()
        }
    }

    /// The defaults of a host profile.
    pub fn for_host(host: TcpHost) -> TcpSpec {
        match host {
            TcpHost::Ns2 => TcpSpec::default(),
            TcpHost::Linux => TcpSpec::linux(),
        }
    }
}

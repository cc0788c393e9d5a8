//! TCP's configuration, which is also the scenario's `[tcp]` table (and every flow's
//! `[flows.tcp]`): the variant, window limits, ACK policy, timers and the variants'
//! parameters (defaults and sources: docs/models.md section 8). TCP reads only this.

use serde::{Deserialize, Serialize};

/// Congestion window limit policy (see transport/tcp/limits.rs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WindowLimit {
    None,
    Fixed,
    HopBased,
    HopK,
    DelayBased,
    Fu,
    Kawadia,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TcpVariant {
    Reno,
    #[serde(rename = "newreno")]
    NewReno,
    Sack,
    Vegas,
    VegasW,
    Few,
    /// RFC 9438, over SACK loss recovery.
    Cubic,
    /// BIC (Xu, Harfoush, Rhee 2004) as Linux 2.6.8, over SACK loss recovery.
    Bic,
    /// BBR v1 (draft-cardwell-iccrg-bbr-congestion-control-00), paced, over SACK recovery.
    Bbr,
}

/// Whose TCP the endpoints are: ns-2's one-way agents (the studies' simulator), or a Linux
/// host's (transport/tcp/linux.rs: its defaults fill every key a scenario leaves unset).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TcpHost {
    #[default]
    Ns2,
    Linux,
}

/// TCP settings (ns-2 Agent/TCP defaults where ns-2 has one; see docs/models.md). The top-level
/// `[tcp]` table sets them for every TCP flow; a flow's `[flows.tcp]` overrides single keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TcpSpec {
    /// The host profile whose defaults the unset keys take (`linux.rs`).
    pub host: TcpHost,
    pub variant: TcpVariant,
    /// Congestion window limit (CWL) in segments, fractional allowed; 0 = none.
    pub max_window: f64,
    /// CWL policy; unset: `fixed` when max_window > 0, else `none`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_limit: Option<WindowLimit>,
    /// k of the `hop_k` policy (Chen et al. Corollary 1, empirical k = 1/5).
    pub hop_k: f64,
    /// Release segments evenly, one every SRTT / cwnd.
    pub pacing: bool,
    /// Receiver's advertised window in segments (ns-2 `window_` 20).
    pub receiver_window: u32,
    /// Initial congestion window in segments (ns-2 `windowInit_` 2).
    pub initial_window: f64,
    pub delayed_ack: bool,
    pub delayed_ack_timeout_s: f64,
    /// Linux's receiver: quick ACKs at the start and after a duplicate or an idle period, and
    /// the delayed-ACK timeout (ATO) adapted to the arrival gaps (`quick_ack.rs`).
    pub quick_ack: bool,
    /// RFC 7323 timestamps: 12 option bytes on every segment, an RTT sample on every ACK
    /// that advances the window, retransmitted segments included (`timestamps.rs`).
    pub timestamps: bool,
    /// Linux's receive-window autotuning: the advertised window starts at
    /// `initial_receive_window` and grows up to `receiver_window` (`rcv_window.rs`).
    pub rwnd_autotuning: bool,
    /// Advertised window at the start under autotuning, in segments.
    pub initial_receive_window: u32,
    /// Window growth counts the segments an ACK covers (Linux `tcp_slow_start`,
    /// `tcp_cong_avoid_ai`; RFC 3465), not one per ACK as ns-2 and RFC 5681 do.
    pub count_acked: bool,
    /// CUBIC: HyStart ends slow start on a delay increase or an ACK train (Linux's default
    /// since 2.6.29; `cc/hystart.rs`).
    pub hystart: bool,
    /// Dynamic delayed ACK (Altman & Jimenez 2003): ACK every d-th segment, d = 1, 2, 3, 4
    /// as the segment number passes the three thresholds.
    pub ack_thinning: bool,
    pub ack_thinning_thresholds: [u32; 3],
    pub min_rto_s: f64,
    pub max_rto_s: f64,
    pub initial_rto_s: f64,
    /// Clock granularity G of RFC 6298 (ns-2 `tcpTick_`).
    pub clock_granularity_s: f64,
    pub dupack_threshold: u32,
    /// Vegas and Vegas-W thresholds in segments (ns-2: 1, 3, 1; Vegas-W paper: 1, 3, 1).
    pub alpha: f64,
    pub beta: f64,
    pub gamma: f64,
    /// Vegas-W (Ding et al.): slow-start decrease p, and the counters N_fw, N_s, N_CA,
    /// NS_CA, TO_ss (paper defaults 1/8, 2, 10, 100, 100, 2).
    pub vegas_w_p: f64,
    pub n_fw: u32,
    pub n_s: u32,
    pub n_ca: u32,
    pub ns_ca: u32,
    pub to_ss: u32,
    /// FeW: congestion-avoidance growth in segments per RTT.
    pub few_alpha: f64,
    /// ECN (RFC 3168) at both ends, as negotiated in the handshake (section 6.1.1).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ecn: bool,
}

impl TcpSpec {
    /// Make the window limit policy explicit.
    pub fn resolve(&mut self) {
        if self.window_limit.is_none() {
            self.window_limit =
                Some(if self.max_window > 0.0 { WindowLimit::Fixed } else { WindowLimit::None });
        }
    }
}

impl Default for TcpSpec {
    fn default() -> Self {
        TcpSpec {
            host: TcpHost::Ns2,
            variant: TcpVariant::NewReno,
            max_window: 0.0,
            window_limit: None,
            hop_k: 0.2,
            pacing: false,
            receiver_window: 20,
            initial_window: 2.0,
            delayed_ack: false,
            delayed_ack_timeout_s: 0.1,
            quick_ack: false,
            timestamps: false,
            rwnd_autotuning: false,
            initial_receive_window: 10,
            count_acked: false,
            hystart: false,
            ack_thinning: false,
            ack_thinning_thresholds: [8, 8, 8],
            min_rto_s: 0.2,
            max_rto_s: 60.0,
            initial_rto_s: 3.0,
            clock_granularity_s: 0.01,
            dupack_threshold: 3,
            alpha: 1.0,
            beta: 3.0,
            gamma: 1.0,
            vegas_w_p: 0.125,
            n_fw: 2,
            n_s: 10,
            n_ca: 100,
            ns_ca: 100,
            to_ss: 2,
            few_alpha: 0.01,
            ecn: false,
        }
    }
}

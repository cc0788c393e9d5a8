//! The `[routing]` table: the protocol and its timers, and their checks.

use super::ranges;
use super::validate::{Check, Context};
use super::KeyPath;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoutingProtocol {
    Static,
    Aodv,
    Dsr,
    /// Shortest expected-transmission-count paths, measured by probes, then frozen.
    Etx,
    /// Proactive link-state routing (RFC 3626, `net/olsr/`).
    Olsr,
    /// IEEE 802.11s HWMP with the airtime metric (802.11-2012 13.9-13.10, `net/hwmp/`).
    Hwmp,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Routing {
    pub protocol: RoutingProtocol,
    /// AODV: detect broken links by HELLO messages as well (RFC 3561 6.9); link-layer
    /// feedback from the MAC is always on.
    pub hello: bool,
    pub hello_interval_s: f64,
    pub allowed_hello_loss: u32,
    /// AODV: expanding ring search (TTL 5, 7, then the network diameter), as ns-2 does.
    pub expanding_ring: bool,
    /// ETX: probe period, probing time before the routes are frozen, probe size.
    pub etx_probe_interval_s: f64,
    pub etx_warmup_s: f64,
    pub etx_probe_bytes: u32,
    /// OLSR (RFC 3626 section 18): HELLO_INTERVAL and TC_INTERVAL; the hold times are three
    /// of them (NEIGHB_HOLD_TIME, TOP_HOLD_TIME) and MAXJITTER a quarter HELLO interval.
    /// OLSR's keys are filled in (`resolve`) only where the protocol is OLSR, and refused
    /// with another protocol.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub olsr_hello_interval_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub olsr_tc_interval_s: Option<f64>,
    /// Every node's willingness to forward (WILL_NEVER 0 .. WILL_ALWAYS 7).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub olsr_willingness: Option<u8>,
    /// RFC 3626 section 13: a failed transmission breaks the OLSR link at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub olsr_link_layer_feedback: Option<bool>,
    /// Each node's first HELLO and TC at a uniform time within one interval (true), or every
    /// node's at 0 s (false: as in ns-3, where every node's OLSR starts with the run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub olsr_spread_start: Option<bool>,
    /// HWMP (802.11s, IEEE 802.11-2012 13.10): the root's announcements and which node is
    /// root; dot11MeshHWMPactivePathTimeout and maxPREQretries; the Target Only and Reply
    /// and Forward flags of a source's PREQs. Filled in (`resolve`) only for HWMP, refused
    /// with another protocol (`hwmp_root` only with a root mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hwmp_root_mode: Option<HwmpRootMode>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hwmp_root: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hwmp_active_path_timeout_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hwmp_max_preq_retries: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hwmp_target_only: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hwmp_reply_and_forward: Option<bool>,
    /// A source using a path sends a refreshing PREQ this long before the path expires
    /// (Linux mac80211's path_refresh_time, 1 s; 0: never, as ns-3, whose paths expire and
    /// are discovered anew).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hwmp_path_refresh_s: Option<f64>,
    /// How the airtime metric's frame error rate is averaged (mac/rate/estimate.rs):
    /// over DATA attempts (1/8 each), or over time as ns-3's WifiRemoteStationInfo.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hwmp_fail_average: Option<HwmpFailAverage>,
}

/// `routing.hwmp_fail_average` (mac/rate/estimate.rs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HwmpFailAverage {
    Attempts,
    Time,
}

/// dot11MeshHWMPRootMode: what the root announces (13.10.4.2, 13.10.12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HwmpRootMode {
    Off,
    ProactivePreq,
    ProactivePreqPrep,
    Rann,
}

/// HWMP's defaults, ns-3's `HwmpProtocol` attributes (`net/hwmp/mod.rs`): no root,
/// activePathTimeout 5000 TU, 3 PREQ retries, TO off, RF on; and Linux's path refresh 1 s
/// ahead.
pub const HWMP_DEFAULTS: (HwmpRootMode, f64, u32, bool, bool, f64) =
    (HwmpRootMode::Off, 5.12, 3, false, true, 1.0);

/// RFC 3626 section 18's HELLO_INTERVAL, TC_INTERVAL and WILL_DEFAULT; link-layer
/// notification off, as in ns-3's OLSR; first messages spread over an interval.
pub const OLSR_DEFAULTS: (f64, f64, u8, bool, bool) = (2.0, 5.0, 3, false, true);

impl Default for Routing {
    fn default() -> Self {
        Routing {
            protocol: RoutingProtocol::Static,
            hello: false,
            hello_interval_s: 1.0, // RFC 3561 HELLO_INTERVAL
            allowed_hello_loss: 2, // RFC 3561 ALLOWED_HELLO_LOSS
            expanding_ring: true,
            etx_probe_interval_s: 1.0, // De Couto et al. 2003
            etx_warmup_s: 20.0,
            etx_probe_bytes: 134,
            olsr_hello_interval_s: None,
            olsr_tc_interval_s: None,
            olsr_willingness: None,
            olsr_link_layer_feedback: None,
            olsr_spread_start: None,
            hwmp_root_mode: None,
            hwmp_root: None,
            hwmp_active_path_timeout_s: None,
            hwmp_max_preq_retries: None,
            hwmp_target_only: None,
            hwmp_reply_and_forward: None,
            hwmp_path_refresh_s: None,
            hwmp_fail_average: None,
        }
    }
}

impl Routing {
    /// OLSR's keys with their defaults, where the protocol is OLSR.
    pub(super) fn resolve(&mut self) {
        if self.protocol == RoutingProtocol::Olsr {
            let (hello, tc, will, feedback, spread) = OLSR_DEFAULTS;
            self.olsr_hello_interval_s.get_or_insert(hello);
            self.olsr_tc_interval_s.get_or_insert(tc);
            self.olsr_willingness.get_or_insert(will);
            self.olsr_link_layer_feedback.get_or_insert(feedback);
            self.olsr_spread_start.get_or_insert(spread);
        }
        if self.protocol == RoutingProtocol::Hwmp {
            let (mode, timeout, retries, to, rf, refresh) = HWMP_DEFAULTS;
            self.hwmp_root_mode.get_or_insert(mode);
            self.hwmp_active_path_timeout_s.get_or_insert(timeout);
            self.hwmp_max_preq_retries.get_or_insert(retries);
            self.hwmp_target_only.get_or_insert(to);
            self.hwmp_reply_and_forward.get_or_insert(rf);
            self.hwmp_path_refresh_s.get_or_insert(refresh);
            self.hwmp_fail_average.get_or_insert(HwmpFailAverage::Attempts);
        }
    }

    /// `run`: the ETX warm-up must end within the run; DSR's addresses bound the node count.
    pub(super) fn check(&self, at: &KeyPath, run: &Context) -> Check {
        for (name, v) in [
            ("hello_interval_s", self.hello_interval_s),
            ("allowed_hello_loss", self.allowed_hello_loss as f64),
            ("etx_probe_interval_s", self.etx_probe_interval_s),
            ("etx_warmup_s", self.etx_warmup_s),
            ("etx_probe_bytes", self.etx_probe_bytes as f64),
        ] {
            ranges::check(&at.field(name), v)?;
        }
        let olsr = [
            ("olsr_hello_interval_s", self.olsr_hello_interval_s),
            ("olsr_tc_interval_s", self.olsr_tc_interval_s),
            ("olsr_willingness", self.olsr_willingness.map(f64::from)),
            ("olsr_link_layer_feedback", self.olsr_link_layer_feedback.map(f64::from)),
            ("olsr_spread_start", self.olsr_spread_start.map(f64::from)),
        ];
        for (name, v) in olsr {
            let Some(v) = v else { continue };
            if self.protocol != RoutingProtocol::Olsr {
                return Err(at.field(name).refuse("is OLSR's: use it with protocol = \"olsr\""));
            }
            if !matches!(name, "olsr_link_layer_feedback" | "olsr_spread_start") {
                ranges::check(&at.field(name), v)?;
            }
        }
        self.check_hwmp(at, run)?;
        let protocol = self.protocol;
        if protocol == RoutingProtocol::Etx
            && !(self.etx_warmup_s >= self.etx_probe_interval_s
                && self.etx_warmup_s < run.duration_s)
        {
            return Err(at.field("etx_warmup_s").invalid(
                self.etx_warmup_s,
                &format!(
                    "must be at least one probe interval ({} s) and less than duration_s = {}",
                    self.etx_probe_interval_s, run.duration_s
                ),
            ));
        }
        if protocol == RoutingProtocol::Dsr && run.nodes > 65_536 {
            return Err(at.field("protocol").invalid(
                "\"dsr\"",
                "supports at most 65536 nodes (16-bit addresses in source routes)",
            ));
        }
        if self.hello && protocol != RoutingProtocol::Aodv {
            return Err(at.field("hello").invalid(
                true,
                "HELLO messages are part of AODV: use it with protocol = \"aodv\"",
            ));
        }
        Ok(())
    }

    /// HWMP's keys: only with HWMP, in range, a root named exactly when a root mode is on.
    fn check_hwmp(&self, at: &KeyPath, run: &Context) -> Check {
        let hwmp = [
            ("hwmp_root_mode", self.hwmp_root_mode.is_some()),
            ("hwmp_root", self.hwmp_root.is_some()),
            ("hwmp_active_path_timeout_s", self.hwmp_active_path_timeout_s.is_some()),
            ("hwmp_max_preq_retries", self.hwmp_max_preq_retries.is_some()),
            ("hwmp_target_only", self.hwmp_target_only.is_some()),
            ("hwmp_reply_and_forward", self.hwmp_reply_and_forward.is_some()),
            ("hwmp_path_refresh_s", self.hwmp_path_refresh_s.is_some()),
            ("hwmp_fail_average", self.hwmp_fail_average.is_some()),
        ];
        if self.protocol != RoutingProtocol::Hwmp {
            if let Some((name, _)) = hwmp.iter().find(|(_, set)| *set) {
                return Err(at.field(name).refuse("is HWMP's: use it with protocol = \"hwmp\""));
            }
            return Ok(());
        }
        if let Some(v) = self.hwmp_active_path_timeout_s {
            ranges::check(&at.field("hwmp_active_path_timeout_s"), v)?;
        }
        if let Some(v) = self.hwmp_path_refresh_s {
            ranges::check(&at.field("hwmp_path_refresh_s"), v)?;
        }
        if let Some(v) = self.hwmp_max_preq_retries {
            ranges::check(&at.field("hwmp_max_preq_retries"), f64::from(v))?;
        }
        let mode = self.hwmp_root_mode.unwrap_or(HWMP_DEFAULTS.0);
        match (mode, self.hwmp_root) {
            (HwmpRootMode::Off, Some(root)) => Err(at.field("hwmp_root").invalid(
                root,
                "names the root of a root mode: set hwmp_root_mode too, or leave it out",
            )),
            (HwmpRootMode::Off, None) => Ok(()),
            (_, None) => Err(at
                .field("hwmp_root")
                .invalid("nothing", "is needed with a root mode: the id of the root node")),
            (_, Some(root)) if root as usize >= run.nodes => Err(at.field("hwmp_root").invalid(
                root,
                &format!("must be a node id, 0 to {}", run.nodes.saturating_sub(1)),
            )),
            _ => Ok(()),
        }
    }
}

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
}

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
        }
    }
}

impl Routing {
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
}

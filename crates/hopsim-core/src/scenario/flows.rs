//! `[[flows]]` and `[traffic]`: the application flows, given one by one or drawn between
//! random node pairs from one template, and their checks.

use super::ranges;
use super::validate::{Check, Context};
use super::{KeyPath, TcpSpec};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transport {
    Udp,
    Tcp,
}

/// One application flow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flow {
    pub src: u32,
    pub dst: u32,
    #[serde(default = "d_transport")]
    pub transport: Transport,
    #[serde(default = "d_payload")]
    pub payload_bytes: u32,
    /// Fixed inter-send time (paced UDP); 0 = saturated source.
    #[serde(default)]
    pub interval_s: f64,
    #[serde(default)]
    pub start_s: f64,
    /// Default: the end of the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_s: Option<f64>,
    /// Application bytes to transfer; 0 = unlimited (bulk).
    #[serde(default)]
    pub bytes: u64,
    /// TCP settings of this flow (resolved from the top-level `[tcp]` and `[flows.tcp]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp: Option<TcpSpec>,
    /// EDCA access category of the flow's packets, both ways (802.11n/ac): the flow marks
    /// their DS field with its DSCP (mac/edca.rs).
    #[serde(default, skip_serializing_if = "AccessCategory::is_best_effort")]
    pub access_category: AccessCategory,
}

/// Flows between random distinct node pairs, all with the same settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Traffic {
    pub random_flows: u32,
    #[serde(default = "d_transport")]
    pub transport: Transport,
    #[serde(default = "d_payload")]
    pub payload_bytes: u32,
    #[serde(default)]
    pub interval_s: f64,
    #[serde(default)]
    pub start_s: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_s: Option<f64>,
    #[serde(default)]
    pub bytes: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp: Option<TcpSpec>,
    /// EDCA access category of the flow's packets, both ways (802.11n/ac): the flow marks
    /// their DS field with its DSCP (mac/edca.rs).
    #[serde(default, skip_serializing_if = "AccessCategory::is_best_effort")]
    pub access_category: AccessCategory,
}

/// The EDCA access category of a flow's packets (a QoS station's, 802.11n/ac).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum AccessCategory {
    #[serde(rename = "BK")]
    Background,
    #[default]
    #[serde(rename = "BE")]
    BestEffort,
    #[serde(rename = "VI")]
    Video,
    #[serde(rename = "VO")]
    Voice,
}

impl AccessCategory {
    pub fn is_best_effort(&self) -> bool {
        *self == AccessCategory::BestEffort
    }

    /// As the scenario writes it.
    pub fn name(self) -> &'static str {
        match self {
            AccessCategory::Background => "BK",
            AccessCategory::BestEffort => "BE",
            AccessCategory::Video => "VI",
            AccessCategory::Voice => "VO",
        }
    }
}

fn d_transport() -> Transport {
    Transport::Udp
}
fn d_payload() -> u32 {
    1460
}

impl Traffic {
    /// The flow these settings describe between `src` and `dst`.
    pub fn flow(&self, src: u32, dst: u32) -> Flow {
        Flow {
            src,
            dst,
            transport: self.transport,
            payload_bytes: self.payload_bytes,
            interval_s: self.interval_s,
            start_s: self.start_s,
            stop_s: self.stop_s,
            bytes: self.bytes,
            tcp: self.tcp.clone(),
            access_category: self.access_category,
        }
    }

    /// Fill in what the template does not say, as for a flow given on its own.
    pub(super) fn inherit(&mut self, duration_s: f64, run_tcp: &TcpSpec) {
        let mut template = self.flow(0, 0);
        template.inherit(duration_s, run_tcp);
        self.stop_s = template.stop_s;
        self.tcp = template.tcp;
    }

    /// The template is checked as a flow whose keys read `traffic.<key>` (its src and dst
    /// are placeholders).
    pub(super) fn check(&self, at: &KeyPath, run: &Context) -> Check {
        ranges::check(&at.field("random_flows"), self.random_flows as f64)?;
        self.flow(0, 1).check(at, run)
    }
}

impl Flow {
    /// The one inheritance path of a flow's defaults: `stop_s` = the end of the run; a TCP
    /// flow without a `[flows.tcp]` table of its own takes the whole top-level `[tcp]` (the
    /// parser has already merged a partial table key by key).
    pub(super) fn inherit(&mut self, duration_s: f64, run_tcp: &TcpSpec) {
        if self.stop_s.is_none() {
            self.stop_s = Some(duration_s);
        }
        if self.transport == Transport::Tcp && self.tcp.is_none() {
            self.tcp = Some(run_tcp.clone());
        }
        if let Some(t) = self.tcp.as_mut() {
            t.resolve();
        }
    }

    /// `run`: the endpoints must be nodes of the topology, the start inside the run.
    pub(super) fn check(&self, at: &KeyPath, run: &Context) -> Check {
        let tcp = at.field("tcp");
        match (self.transport, &self.tcp) {
            (Transport::Udp, Some(_)) => {
                return Err(tcp.refuse("applies only to flows with transport = \"tcp\"; remove it"))
            }
            (Transport::Tcp, Some(t)) => t.check(&tcp)?,
            _ => {}
        }
        if !self.access_category.is_best_effort() && !run.qos {
            return Err(at.field("access_category").invalid(
                format!("\"{}\"", self.access_category.name()),
                "needs a QoS station's EDCA: radio.standard = \"80211n\" or \"80211ac\" \
                 (802.11a/b/g stations here use the DCF, best effort only)",
            ));
        }
        if self.transport == Transport::Tcp && self.interval_s != 0.0 {
            return Err(at.field("interval_s").invalid(
                self.interval_s,
                "applies only to UDP flows (TCP sends as its window allows); remove it",
            ));
        }
        for (name, v) in [
            ("src", self.src as f64),
            ("dst", self.dst as f64),
            ("payload_bytes", self.payload_bytes as f64),
            ("interval_s", self.interval_s),
            ("start_s", self.start_s),
            ("stop_s", self.stop_s.unwrap_or(self.start_s)),
            ("bytes", self.bytes as f64),
        ] {
            ranges::check(&at.field(name), v)?;
        }
        let (src, dst) = (at.field("src"), at.field("dst"));
        let node_ids = || format!("must be a node id in 0..={}", run.nodes - 1);
        if self.src as usize >= run.nodes {
            return Err(src.invalid(self.src, &node_ids()));
        }
        if self.dst as usize >= run.nodes {
            return Err(dst.invalid(self.dst, &node_ids()));
        }
        if self.src == self.dst {
            return Err(dst.invalid(self.dst, "must differ from the flow's src"));
        }
        // 802.11 MSDU at most 2304 B = 8 LLC/SNAP + 20 IP + 8 UDP (20 TCP) + payload.
        let (max_payload, proto) = match self.transport {
            Transport::Udp => (2268, "UDP"),
            Transport::Tcp => (2256, "TCP"),
        };
        if !(1..=max_payload).contains(&self.payload_bytes) {
            return Err(at.field("payload_bytes").invalid(
                self.payload_bytes,
                &format!(
                    "must be between 1 and {max_payload} bytes (802.11 MSDU limit 2304 B less \
                     LLC/SNAP, IP and {proto} headers)"
                ),
            ));
        }
        if self.start_s >= run.duration_s {
            return Err(at.field("start_s").invalid(
                self.start_s,
                &format!("must be before the end of the run (duration_s = {})", run.duration_s),
            ));
        }
        if let Some(stop) = self.stop_s {
            if stop <= self.start_s {
                return Err(at.field("stop_s").invalid(
                    stop,
                    &format!("must be a time after the flow's start_s = {}", self.start_s),
                ));
            }
        }
        Ok(())
    }
}

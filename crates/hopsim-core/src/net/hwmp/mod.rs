//! HWMP, the Hybrid Wireless Mesh Protocol of IEEE 802.11-2012 (802.11s) clause 13.10, with
//! the airtime link metric of 13.9 (`metric.rs`), one interface per mesh STA. Implemented:
//! - on-demand path discovery (13.10.9, 13.10.10): PREQ flooded with the metric accumulated
//!   hop by hop, forwarding information updated when (HWMP SN, metric) is newer or better
//!   (13.10.8.3), PREP from the target or, with TO clear, from an intermediate STA holding a
//!   fresh path (which forwards the PREQ with TO set when RF is set); PREQs rate limited by
//!   dot11MeshHWMPpreqMinInterval and retried up to dot11MeshHWMPmaxPREQretries times
//!   (waiting 2 x netDiameterTraversalTime, doubled per retry: the binary backoff of Linux
//!   and RFC 3561; ns-3's waits grow linearly);
//! - HWMP sequence numbers (13.10.8.2), path lifetimes, path refresh by the source;
//! - PERR (13.10.11) on a link failure, for a data frame without forwarding information, and
//!   on receipt, to precursors, rate limited by dot11MeshHWMPperrMinInterval;
//! - proactive tree building (13.10.4.2): proactive PREQ with or without proactive PREP, and
//!   RANN (13.10.12) answered by an individually addressed PREQ to the root.
//!
//! Left out: external addresses and proxying (AE), gate announcements (GANN), PREQs with
//! several targets, the root as default route for unknown destinations, a PREP sent to the
//! root by a STA that learned the root from a PREQ without PREP, the data-frame TTL and
//! duplicate detection, and MCCA. Link metrics are the caller's (`receive`'s `link_metric`).
//!
//! Pure protocol logic, as `aodv/` and `olsr/`: the caller hands it elements, timer firings
//! and link failures and carries out the actions it returns. No randomness: the caller
//! jitters broadcasts. Defaults: `HwmpConfig::default`. Sub-clause numbers are 802.11-2012's
//! as far as known without the text at hand; element formats checked against implementations
//! that cite them.

mod discovery;
pub mod metric;
pub mod msg;
mod perr;
mod receive;
mod table;

use std::collections::VecDeque;

use crate::engine::time::{SimDuration, SimTime};
use crate::ids::NodeId;
use msg::{HwmpMsg, PerrDest};
use rustc_hash::FxHashMap;
use table::{Path, PathTable};

/// A time unit (TU) of 1024 us, the unit of HWMP lifetimes and intervals.
pub const TU_NS: u64 = 1_024_000;

pub fn tu_to_ns(tu: u32) -> SimDuration {
    tu as u64 * TU_NS
}

/// Whole TUs in `ns`, saturating.
pub fn ns_to_tu(ns: SimDuration) -> u32 {
    (ns / TU_NS).min(u32::MAX as u64) as u32
}

/// Is HWMP sequence number `a` newer than `b` (13.10.8.2, modulo 2^32)?
pub fn seq_newer(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) > 0
}

/// dot11MeshHWMPRootMode (Annex C): what a root mesh STA announces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootMode {
    Off,
    /// Proactive PREQ without the Proactive PREP flag.
    ProactivePreq,
    /// Proactive PREQ with the Proactive PREP flag: every STA answers with a PREP.
    ProactivePreqWithPrep,
    /// RANN; STAs set up the path with an individually addressed PREQ to the root.
    Rann,
}

/// The dot11MeshHWMP* attributes (13.10, Annex C). Defaults: ns-3's `HwmpProtocol`
/// attribute defaults (the standard's text is not at hand), except `max_ttl` (31, Linux
/// mac80211's element TTL; ns-3 has 32) and `path_refresh_ns` (Linux's path_refresh_time;
/// ns-3 does not refresh).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HwmpConfig {
    pub max_preq_retries: u32,
    pub net_diameter_traversal_ns: SimDuration,
    pub preq_min_interval_ns: SimDuration,
    pub perr_min_interval_ns: SimDuration,
    pub active_path_timeout_ns: SimDuration,
    /// dot11MeshHWMPactivePathToRootTimeout: lifetime of proactive paths.
    pub active_root_timeout_ns: SimDuration,
    /// dot11MeshHWMProotInterval: proactive PREQ period (ns-3 PathToRootInterval).
    pub root_interval_ns: SimDuration,
    pub rann_interval_ns: SimDuration,
    /// Element TTL of originated elements.
    pub max_ttl: u8,
    pub root_mode: RootMode,
    /// TO of originated PREQs (dot11MeshHWMPtargetOnly).
    pub target_only: bool,
    /// RF of originated PREQs: an intermediate STA that replies forwards the PREQ too.
    pub reply_and_forward: bool,
    /// A source refreshes a path it uses this long before active_path_timeout after it was
    /// set (0: never).
    pub path_refresh_ns: SimDuration,
    /// Forwarding a packet extends the path's lifetime to active_path_timeout from now.
    pub extend_on_use: bool,
}

impl Default for HwmpConfig {
    fn default() -> Self {
        HwmpConfig {
            max_preq_retries: 3,                      // ns-3 (Linux 4)
            net_diameter_traversal_ns: tu_to_ns(100), // 102.4 ms, ns-3 (Linux 50 TU)
            preq_min_interval_ns: tu_to_ns(100),      // ns-3 (Linux 10 TU)
            perr_min_interval_ns: tu_to_ns(100),      // ns-3, Linux
            active_path_timeout_ns: tu_to_ns(5000),   // 5.12 s, ns-3, Linux
            active_root_timeout_ns: tu_to_ns(5000),   // ns-3 (Linux 6000 TU)
            root_interval_ns: tu_to_ns(2000),         // 2.048 s, ns-3 (Linux 5000 TU)
            rann_interval_ns: tu_to_ns(5000),         // ns-3, Linux
            max_ttl: 31,                              // Linux (ns-3 32)
            root_mode: RootMode::Off,
            target_only: false,             // ns-3 DoFlag
            reply_and_forward: true,        // ns-3 RfFlag attribute
            path_refresh_ns: 1_000_000_000, // Linux path_refresh_time 1000 ms
            extend_on_use: false, // neither Linux nor ns-3 extends a path by forwarding on it
        }
    }
}

/// Timers the caller arms for the node and reports back to `on_timer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HwmpTimer {
    /// The wait for a PREP to this destination's PREQ ran out.
    Discovery(NodeId),
    /// A PREQ held back by preqMinInterval may go.
    PreqQueue,
    /// A PERR held back by perrMinInterval may go.
    PerrQueue,
    /// The root's next proactive PREQ or RANN.
    Root,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HwmpAction {
    /// Send `msg` to neighbour `to` (`NodeId::BROADCAST`: to every neighbour).
    Send { msg: HwmpMsg, to: NodeId },
    /// Call `on_timer(timer, at)` at `at`.
    Timer { timer: HwmpTimer, at: SimTime },
    /// A path to `dst` exists now: release the packets waiting for it.
    RouteFound { dst: NodeId },
    /// Discovery of `dst` failed: drop the packets waiting for it.
    Unreachable { dst: NodeId },
}

/// A path as the table holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouteView {
    pub next_hop: NodeId,
    pub hops: u8,
    pub metric: u32,
}

#[derive(Debug, Clone, Copy)]
struct Discovery {
    retries: u32,
    /// When the current PREQ's wait ends (0: the PREQ waits in the queue).
    deadline: SimTime,
    /// Packets wait for the path (false: a refresh of a path still in use).
    waiting: bool,
}

/// What the last accepted RANN of a root said (13.10.12).
#[derive(Debug, Clone, Copy)]
struct RootInfo {
    root: NodeId,
    seq: u32,
    metric: u32,
    via: NodeId,
}

/// HWMP at one mesh STA.
#[derive(Debug, Clone)]
pub struct HwmpNode {
    me: NodeId,
    cfg: HwmpConfig,
    /// Own HWMP sequence number.
    seq: u32,
    discovery_id: u32,
    table: PathTable,
    pending: FxHashMap<NodeId, Discovery>,
    /// PREQs held back by preqMinInterval: (target, individually addressed to a root).
    preq_queue: VecDeque<(NodeId, bool)>,
    last_preq_ns: Option<SimTime>,
    preq_timer_armed: bool,
    /// The PERR being gathered (destinations, receivers, TTL) until perrMinInterval allows.
    perr_dests: Vec<PerrDest>,
    perr_to: Vec<NodeId>,
    perr_ttl: u8,
    last_perr_ns: Option<SimTime>,
    perr_timer_armed: bool,
    roots: Vec<RootInfo>,
    /// The root last heard of (proactive PREQ or RANN).
    root: Option<NodeId>,
}

impl HwmpNode {
    pub fn new(me: NodeId, cfg: HwmpConfig) -> HwmpNode {
        HwmpNode {
            me,
            cfg,
            seq: 0,
            discovery_id: 0,
            table: PathTable::default(),
            pending: FxHashMap::default(),
            preq_queue: VecDeque::new(),
            last_preq_ns: None,
            preq_timer_armed: false,
            perr_dests: Vec::new(),
            perr_to: Vec::new(),
            perr_ttl: 0,
            last_perr_ns: None,
            perr_timer_armed: false,
            roots: Vec::new(),
            root: None,
        }
    }

    pub fn config(&self) -> &HwmpConfig {
        &self.cfg
    }

    /// This STA's HWMP sequence number.
    pub fn seq(&self) -> u32 {
        self.seq
    }

    /// The root this STA last heard a proactive PREQ or RANN from.
    pub fn root(&self) -> Option<NodeId> {
        self.root
    }

    /// Start: a root arms its first announcement now (the caller may delay it).
    pub fn start(&mut self, now: SimTime, out: &mut Vec<HwmpAction>) {
        if self.cfg.root_mode != RootMode::Off {
            out.push(HwmpAction::Timer { timer: HwmpTimer::Root, at: now });
        }
    }

    /// 13.10.8.2: the own HWMP SN is incremented before it goes into a PREQ, PREP or RANN.
    fn next_seq(&mut self) -> u32 {
        self.seq = self.seq.wrapping_add(1);
        self.seq
    }

    /// Next hop of the active path to `dst`; using it extends its lifetime (if configured).
    pub fn next_hop(&mut self, dst: NodeId, now: SimTime) -> Option<NodeId> {
        let (extend, timeout) = (self.cfg.extend_on_use, self.cfg.active_path_timeout_ns);
        let p = self.table.get_mut(dst).filter(|p| p.active(now))?;
        if extend {
            p.expires_ns = p.expires_ns.max(now.saturating_add(timeout));
        }
        Some(p.next_hop)
    }

    /// The active path to `dst`, changing nothing.
    pub fn route(&self, dst: NodeId, now: SimTime) -> Option<RouteView> {
        let p = self.table.active(dst, now)?;
        Some(RouteView { next_hop: p.next_hop, hops: p.hops, metric: p.metric })
    }

    /// The destination's HWMP SN as the table holds it (valid or not).
    pub fn dest_seq(&self, dst: NodeId) -> Option<u32> {
        self.table.get(dst).filter(|p| p.seq_known).map(|p| p.seq)
    }

    /// Next hop toward `dst`: its active path, else the transmitter of the root's RANN.
    fn toward(&self, dst: NodeId, now: SimTime) -> Option<NodeId> {
        self.table
            .active(dst, now)
            .map(|p| p.next_hop)
            .or_else(|| self.roots.iter().find(|r| r.root == dst).map(|r| r.via))
    }

    /// A discovery for `dst` ends with a path: release what waits.
    fn resolved(&mut self, dst: NodeId, out: &mut Vec<HwmpAction>) {
        if let Some(d) = self.pending.remove(&dst) {
            if d.waiting {
                out.push(HwmpAction::RouteFound { dst });
            }
        }
    }

    /// Create or update the forwarding information for `dst` (13.10.8.3): with an SN, if it
    /// is newer, or equal with a better metric (or the path is no longer active); without
    /// (a neighbour heard), if better or no active path. True if it changed.
    #[allow(clippy::too_many_arguments)]
    fn update(
        &mut self,
        dst: NodeId,
        next_hop: NodeId,
        metric: u32,
        hops: u8,
        seq: Option<u32>,
        lifetime_ns: SimDuration,
        now: SimTime,
        out: &mut Vec<HwmpAction>,
    ) -> bool {
        if dst == self.me || dst.is_broadcast() {
            return false;
        }
        let expires_ns = now.saturating_add(lifetime_ns);
        match self.table.get_mut(dst) {
            Some(p) => {
                let active = p.active(now);
                let better = match seq {
                    Some(s) => {
                        !p.seq_known
                            || seq_newer(s, p.seq)
                            || (s == p.seq && (metric < p.metric || !active))
                    }
                    None => !active || metric < p.metric,
                };
                if !better {
                    return false;
                }
                if let Some(s) = seq {
                    p.seq = s;
                    p.seq_known = true;
                    p.set_ns = now;
                } else if !active {
                    // Revalidated without an SN (a neighbour heard): the SN kept (raised by a
                    // link failure, 13.10.11.2) says nothing of the destination's own, and
                    // would make its next PREQ or PREP look stale.
                    p.seq_known = false;
                }
                let same = active && p.next_hop == next_hop;
                p.expires_ns = if same { p.expires_ns.max(expires_ns) } else { expires_ns };
                (p.next_hop, p.metric, p.hops, p.valid) = (next_hop, metric, hops, true);
            }
            None => {
                let path = Path {
                    next_hop,
                    metric,
                    hops,
                    seq: seq.unwrap_or(0),
                    seq_known: seq.is_some(),
                    valid: true,
                    expires_ns,
                    set_ns: now,
                    precursors: Vec::new(),
                };
                if !self.table.insert(dst, path) {
                    return false;
                }
            }
        }
        self.resolved(dst, out);
        true
    }

    /// The transmitter of any element is a neighbour at the link's metric (13.10.9.3 and
    /// 13.10.10.3: the path to the transmitter is created or updated).
    fn heard(&mut self, from: NodeId, link_metric: u32, now: SimTime, out: &mut Vec<HwmpAction>) {
        let timeout = self.cfg.active_path_timeout_ns;
        if let Some(p) = self.table.get_mut(from) {
            if p.active(now) && p.next_hop == from && p.hops == 1 {
                p.metric = link_metric;
                p.expires_ns = p.expires_ns.max(now.saturating_add(timeout));
                return;
            }
        }
        self.update(from, from, link_metric, 1, None, timeout, now, out);
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod tests_root;

#[cfg(test)]
mod tests_maint;

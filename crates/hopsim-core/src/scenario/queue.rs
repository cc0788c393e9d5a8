//! The `[queue]` table: the interface queue's discipline (drop-tail, RED, CoDel) and its
//! parameters, and its checks. Without the table the queue is drop-tail as always; with it,
//! the results also report the queueing delay, AQM drops and ECN marks per node. The limit
//! of every discipline stays `mac.queue_packets`. Defaults and sources: docs/models.md 18.

use super::ranges;
use super::validate::Check;
use super::KeyPath;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QueueDiscipline {
    #[default]
    #[serde(rename = "droptail")]
    DropTail,
    Red,
    Codel,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct QueueSpec {
    pub discipline: QueueDiscipline,
    /// The AQM marks ECN-capable packets CE instead of dropping them (RFC 3168; ns-2 RED
    /// `setbit_`, Linux codel `ecn`).
    pub ecn: bool,
    /// RED (Floyd & Jacobson 1993; Floyd's parameter notes; ns-2 red.cc).
    pub red_min_th_packets: f64,
    pub red_max_th_packets: f64,
    pub red_max_p: f64,
    pub red_w_q: f64,
    pub red_gentle: bool,
    pub red_wait: bool,
    /// CoDel (RFC 8289 section 4.3).
    pub codel_target_s: f64,
    pub codel_interval_s: f64,
}

impl Default for QueueSpec {
    fn default() -> Self {
        QueueSpec {
            discipline: QueueDiscipline::DropTail,
            ecn: true,
            red_min_th_packets: 5.0,
            red_max_th_packets: 15.0,
            red_max_p: 0.1,
            red_w_q: 0.002,
            red_gentle: true,
            red_wait: true,
            codel_target_s: 0.005,
            codel_interval_s: 0.1,
        }
    }
}

impl QueueSpec {
    /// `queue_packets`: the queue's limit (`mac.queue_packets`); `cmu`: the ns2 profile gives
    /// DSR ns-2's CMUPriQueue, which has no AQM.
    pub(super) fn check(&self, at: &KeyPath, queue_packets: u32, cmu: bool) -> Check {
        for (name, v) in [
            ("red_min_th_packets", self.red_min_th_packets),
            ("red_max_th_packets", self.red_max_th_packets),
            ("red_max_p", self.red_max_p),
            ("red_w_q", self.red_w_q),
            ("codel_target_s", self.codel_target_s),
            ("codel_interval_s", self.codel_interval_s),
        ] {
            ranges::check(&at.field(name), v)?;
        }
        let discipline = at.field("discipline");
        if cmu && self.discipline != QueueDiscipline::DropTail {
            return Err(discipline.invalid(
                name(self.discipline),
                "must be \"droptail\" with routing.protocol = \"dsr\" in the ns2 profile \
                 (ns-2's CMUPriQueue, which has no AQM)",
            ));
        }
        if self.red_max_th_packets <= self.red_min_th_packets {
            return Err(at.field("red_max_th_packets").invalid(
                self.red_max_th_packets,
                &format!("must be above red_min_th_packets = {}", self.red_min_th_packets),
            ));
        }
        if self.discipline == QueueDiscipline::Red
            && self.red_min_th_packets >= queue_packets as f64
        {
            return Err(at.field("red_min_th_packets").invalid(
                self.red_min_th_packets,
                &format!(
                    "must be below mac.queue_packets = {queue_packets} (the average could \
                     never reach it)"
                ),
            ));
        }
        if self.codel_target_s >= self.codel_interval_s {
            return Err(at.field("codel_target_s").invalid(
                self.codel_target_s,
                &format!(
                    "must be below codel_interval_s = {} (RFC 8289: 5-10% of it)",
                    self.codel_interval_s
                ),
            ));
        }
        Ok(())
    }
}

/// The discipline's name as in scenarios.
pub fn name(d: QueueDiscipline) -> &'static str {
    match d {
        QueueDiscipline::DropTail => "droptail",
        QueueDiscipline::Red => "red",
        QueueDiscipline::Codel => "codel",
    }
}

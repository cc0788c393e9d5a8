//! The `[queue]` table: the interface queue's discipline (drop-tail, RED, CoDel, FQ-CoDel) and its
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
    FqCodel,
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
    /// FQ-CoDel (RFC 8290 section 5.1): DRR quantum and flow queues.
    pub fq_codel_quantum_bytes: u32,
    pub fq_codel_flows: u32,
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
            fq_codel_quantum_bytes: 1514,
            fq_codel_flows: 1024,
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
            ("fq_codel_quantum_bytes", self.fq_codel_quantum_bytes as f64),
            ("fq_codel_flows", self.fq_codel_flows as f64),
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
        QueueDiscipline::FqCodel => "fq_codel",
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::{parse_toml, validate};

    fn check(queue: &str, extra: &str) -> Result<(), crate::error::ScenarioError> {
        let text = format!(
            "duration_s = 10.0\n{extra}\n[topology]\nkind = \"chain\"\nhops = 2\nspacing_m = 200.0\n\
             [queue]\n{queue}\n[[flows]]\nsrc = 0\ndst = 2\n"
        );
        validate(&parse_toml(&text)?)
    }

    #[test]
    fn bad_queue_settings_are_refused_naming_the_key() {
        let e = check("discipline = \"fifo\"", "").unwrap_err();
        assert_eq!(e.key, "queue.discipline", "{}", e.message);
        let e =
            check("discipline = \"red\"\nred_min_th_packets = 8.0\nred_max_th_packets = 6.0", "")
                .unwrap_err();
        assert_eq!(e.key, "queue.red_max_th_packets");
        assert!(e.message.contains("red_min_th_packets = 8"), "{}", e.message);
        let e =
            check("discipline = \"red\"\nred_min_th_packets = 60.0\nred_max_th_packets = 90.0", "")
                .unwrap_err();
        assert_eq!(e.key, "queue.red_min_th_packets");
        assert!(e.message.contains("mac.queue_packets = 50"), "{}", e.message);
        let e = check("discipline = \"codel\"\ncodel_target_s = 0.2", "").unwrap_err();
        assert_eq!(e.key, "queue.codel_target_s");
        let e = check("red_max_p = 1.5", "").unwrap_err();
        assert_eq!(e.key, "queue.red_max_p");
        let e = check("codle_target_s = 0.01", "").unwrap_err();
        assert!(e.message.contains("codle_target_s"), "{}", e.message);
    }

    #[test]
    fn the_ns2_profiles_dsr_queue_has_no_aqm() {
        let ns2_dsr = "profile = \"ns2\"\n[routing]\nprotocol = \"dsr\"";
        let e = check("discipline = \"codel\"", ns2_dsr).unwrap_err();
        assert_eq!(e.key, "queue.discipline");
        assert!(e.message.contains("CMUPriQueue"), "{}", e.message);
        check("discipline = \"droptail\"", ns2_dsr).expect("drop-tail is what it is");
        check("discipline = \"codel\"", "profile = \"ns2\"").expect("AODV/static keep PriQueue");
    }

    #[test]
    fn a_queue_table_resolves_with_every_key_and_no_table_adds_nothing() {
        let text = "[topology]\nkind = \"chain\"\nhops = 2\nspacing_m = 200.0\n[[flows]]\nsrc = 0\ndst = 2\n";
        let s = parse_toml(text).unwrap();
        let doc = serde_json::to_value(&s).unwrap();
        assert!(doc.get("queue").is_none(), "absent: drop-tail, resolved scenario unchanged");
        assert!(doc["tcp"].get("ecn").is_none(), "tcp.ecn false is left out likewise");
        let s = parse_toml(&format!("{text}[queue]\ndiscipline = \"red\"\n")).unwrap();
        let q = &serde_json::to_value(&s).unwrap()["queue"];
        assert_eq!(q["red_min_th_packets"], 5.0);
        assert_eq!(q["codel_interval_s"], 0.1);
        assert_eq!(q["ecn"], true);
    }
}

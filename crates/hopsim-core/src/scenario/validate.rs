//! Value checks: the walk over the sections, with the checks between them. Each section's own
//! checks are beside its structs (`topology.rs`, `flows.rs`...); the walk names each section,
//! so every rejection names its full dotted key, the value and what is allowed.
//! (Reachability of flows needs the radio graph and is checked when the world is built.)

use super::{node_count, ranges, KeyPath, RoutingProtocol, Scenario};
use crate::error::ScenarioError;

pub(super) type Check = Result<(), ScenarioError>;

/// What other sections fix for a section's checks: the run's length and the topology's node
/// count. Passed in, so that each section checks its rules in one place and in one order.
pub(super) struct Context {
    pub duration_s: f64,
    pub nodes: usize,
    /// The stations are QoS stations (EDCA: 802.11n/ac).
    pub qos: bool,
}

/// Check every value of a parsed scenario; the first rejection is returned.
pub fn validate(s: &Scenario) -> Check {
    let root = KeyPath::root();
    let (duration, warmup) = (root.field("duration_s"), root.field("warmup_s"));
    ranges::check(&duration, s.duration_s)?;
    ranges::check(&warmup, s.warmup_s)?;
    if s.warmup_s >= s.duration_s {
        return Err(
            warmup.invalid(s.warmup_s, &format!("must be less than {duration} = {}", s.duration_s))
        );
    }
    s.topology.check(&root.field("topology"))?;
    let run = Context {
        duration_s: s.duration_s,
        nodes: node_count(&s.topology),
        qos: s.radio.standard.is_ht(),
    };
    s.radio.check(&root.field("radio"))?;
    if s.profile == super::Profile::Ns2 && !s.radio.standard.is_b() {
        return Err(root.field("radio").field("standard").invalid(
            format!("\"{}\"", s.radio.standard.name()),
            "must be \"80211b\" with profile = \"ns2\" (ns-2.35's Mac/802_11 is timed as \
             802.11b DSSS); use profile = \"standard\" for 802.11a/g",
        ));
    }
    s.mac.check(&root.field("mac"), &s.radio)?;
    s.routing.check(&root.field("routing"), &run)?;
    if let Some(q) = &s.queue {
        let cmu = s.profile == super::Profile::Ns2 && s.routing.protocol == RoutingProtocol::Dsr;
        q.check(&root.field("queue"), s.mac.queue_packets, cmu)?;
        if s.mac.ampdu_max_bytes > 0 && q.discipline != super::queue::QueueDiscipline::DropTail {
            // An A-MPDU takes the queued packets for its receiver from anywhere in the queue;
            // the AQMs decide at the head.
            return Err(root.field("queue").field("discipline").invalid(
                format!("{:?}", q.discipline).to_lowercase(),
                "must be \"droptail\" while 802.11n aggregates (mac.ampdu_max_bytes > 0; set \
                 it to 0 to use an AQM): A-MPDUs with an AQM are not modelled yet",
            ));
        }
    }
    s.tcp.check(&root.field("tcp"))?;
    s.mobility.check(&root.field("mobility"))?;
    if let Some(t) = &s.traffic {
        t.check(&root.field("traffic"), &run)?;
    }
    // A run without traffic is only useful to measure links (ETX probes).
    let flows = root.field("flows");
    let probing = s.routing.protocol == RoutingProtocol::Etx;
    if s.flows.is_empty() && s.traffic.is_none() && !probing {
        return Err(ScenarioError {
            key: flows.to_string(),
            message: format!(
                "scenario key `{flows}`: at least one [[flows]] entry (or [traffic] \
                 random_flows) is required"
            ),
        });
    }
    for (i, f) in s.flows.iter().enumerate() {
        f.check(&flows.index(i), &run)?;
    }
    super::interference::check(&s.interference, &root.field("interference"), s.duration_s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse_toml;

    fn base() -> String {
        "duration_s = 10.0\n[topology]\nkind = \"chain\"\nhops = 2\nspacing_m = 200.0\n\
         [[flows]]\nsrc = 0\ndst = 2\n"
            .to_string()
    }

    fn err(extra_top: &str, tail: &str) -> ScenarioError {
        let text = format!("{extra_top}{}{tail}", base());
        let s = parse_toml(&text).expect("parses");
        validate(&s).expect_err("must be rejected")
    }

    #[test]
    fn base_is_valid() {
        validate(&parse_toml(&base()).unwrap()).unwrap();
    }

    #[test]
    fn rejections_name_key_and_value() {
        let e = err("warmup_s = 20.0\n", "");
        assert_eq!(e.key, "warmup_s");
        assert!(e.message.contains("20") && e.message.contains("duration_s"), "{}", e.message);
        let e = err("", "[mac]\ndata_rate_mbps = 3.0\n");
        assert_eq!(e.key, "mac.data_rate_mbps");
        let e = err("", "[[flows]]\nsrc = 0\ndst = 9\n");
        assert_eq!(e.key, "flows.1.dst");
        assert!(e.message.contains("0..=2"), "{}", e.message);
        let e = err("", "[[flows]]\nsrc = 1\ndst = 1\n");
        assert_eq!(e.key, "flows.1.dst");
    }

    #[test]
    fn nested_tables_are_named_by_the_walk() {
        let e =
            err("", "[[flows]]\nsrc = 0\ndst = 1\ntransport = \"tcp\"\n[flows.tcp]\nbeta = 0.5\n");
        assert_eq!(e.key, "flows.1.tcp.beta");
        let tail =
            "[traffic]\nrandom_flows = 1\ntransport = \"tcp\"\n[traffic.tcp]\nmax_rto_s = 0.1\n";
        let e = err("", tail);
        assert_eq!(e.key, "traffic.tcp.max_rto_s");
        assert!(
            e.message.starts_with("scenario key `traffic.tcp.max_rto_s` = 0.1"),
            "{}",
            e.message
        );
        let e = err("", "[topology.testbed]\nbuildings = 2\n");
        assert_eq!(e.key, "topology.testbed");
    }

    #[test]
    fn negative_spacing_is_rejected() {
        let s = parse_toml(
            "[topology]\nkind = \"chain\"\nhops = 2\nspacing_m = -5.0\n[[flows]]\nsrc=0\ndst=1\n",
        )
        .unwrap();
        let e = validate(&s).unwrap_err();
        assert_eq!(e.key, "topology.spacing_m");
        assert!(e.message.contains("-5"));
    }

    #[test]
    fn keys_of_another_kind_are_rejected() {
        let s = parse_toml("[topology]\nkind = \"chain\"\nhops = 2\nspacing_m = 5.0\nnodes = 3\n[[flows]]\nsrc=0\ndst=1\n").unwrap();
        assert_eq!(validate(&s).unwrap_err().key, "topology.nodes");
    }
}

//! Value checks: every rejection names the key, the value and what is allowed.
//! (Reachability of flows needs the radio graph and is checked when the world is built.)

use super::{
    Flow, Mobility, MobilityModel, Scenario, TcpSpec, Topology, TopologyKind, Transport,
    WindowLimit,
};
use crate::error::ScenarioError;

type Check = Result<(), ScenarioError>;

pub(super) fn positive(key: &str, v: f64, what: &str) -> Check {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(ScenarioError::invalid(key, v, &format!("must be a positive number ({what})")))
    }
}

pub(super) fn non_negative(key: &str, v: f64, what: &str) -> Check {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(ScenarioError::invalid(key, v, &format!("must be zero or positive ({what})")))
    }
}

fn required<T: Copy>(key: &str, v: Option<T>, kind: &str) -> Result<T, ScenarioError> {
    v.ok_or_else(|| ScenarioError {
        key: key.to_string(),
        message: format!(
            "scenario key `{key}` is missing: required when topology.kind = \"{kind}\""
        ),
    })
}

fn unused<T>(key: &str, v: &Option<T>, kind: &str) -> Check {
    if v.is_some() {
        Err(ScenarioError {
            key: key.to_string(),
            message: format!(
                "scenario key `{key}` is not used when topology.kind = \"{kind}\"; remove it"
            ),
        })
    } else {
        Ok(())
    }
}

/// Number of nodes the topology describes (assumes `check_topology` passed).
pub fn node_count(t: &Topology) -> usize {
    match t.kind {
        TopologyKind::Chain => t.hops.unwrap_or(0) as usize + 1,
        TopologyKind::Grid => (t.rows.unwrap_or(0) * t.cols.unwrap_or(0)) as usize,
        TopologyKind::Positions => t.positions.as_ref().map_or(0, |p| p.len()),
        TopologyKind::Random | TopologyKind::Testbed => t.nodes.unwrap_or(0) as usize,
    }
}

const MAX_NODES: u64 = 100_000;

fn check_topology(t: &Topology) -> Check {
    let kind = match t.kind {
        TopologyKind::Chain => "chain",
        TopologyKind::Grid => "grid",
        TopologyKind::Positions => "positions",
        TopologyKind::Random => "random",
        TopologyKind::Testbed => "testbed",
    };
    if t.kind != TopologyKind::Testbed {
        unused("topology.testbed", &t.testbed, kind)?;
    }
    let count_ok = |key: &str, v: u64| -> Check {
        if (1..=MAX_NODES).contains(&v) {
            Ok(())
        } else {
            Err(ScenarioError::invalid(key, v, &format!("must be between 1 and {MAX_NODES}")))
        }
    };
    match t.kind {
        TopologyKind::Chain => {
            count_ok("topology.hops", required("topology.hops", t.hops, kind)? as u64)?;
            positive(
                "topology.spacing_m",
                required("topology.spacing_m", t.spacing_m, kind)?,
                "metres",
            )?;
            unused("topology.rows", &t.rows, kind)?;
            unused("topology.cols", &t.cols, kind)?;
            unused("topology.positions", &t.positions, kind)?;
            unused("topology.nodes", &t.nodes, kind)?;
            unused("topology.area_m", &t.area_m, kind)?;
            unused("topology.connected", &t.connected, kind)?;
        }
        TopologyKind::Grid => {
            let rows = required("topology.rows", t.rows, kind)? as u64;
            let cols = required("topology.cols", t.cols, kind)? as u64;
            count_ok("topology.rows", rows)?;
            count_ok("topology.cols", cols)?;
            if rows * cols < 2 || rows * cols > MAX_NODES {
                return Err(ScenarioError::invalid(
                    "topology.rows",
                    rows,
                    &format!("rows x cols must be between 2 and {MAX_NODES} nodes (cols = {cols})"),
                ));
            }
            positive(
                "topology.spacing_m",
                required("topology.spacing_m", t.spacing_m, kind)?,
                "metres",
            )?;
            unused("topology.hops", &t.hops, kind)?;
            unused("topology.positions", &t.positions, kind)?;
            unused("topology.nodes", &t.nodes, kind)?;
            unused("topology.area_m", &t.area_m, kind)?;
            unused("topology.connected", &t.connected, kind)?;
        }
        TopologyKind::Positions => {
            let p = t.positions.as_ref().ok_or_else(|| ScenarioError {
                key: "topology.positions".into(),
                message: "scenario key `topology.positions` is missing: required when topology.kind = \"positions\"".into(),
            })?;
            if p.len() < 2 || p.len() as u64 > MAX_NODES {
                return Err(ScenarioError::invalid(
                    "topology.positions",
                    format!("a list of {} positions", p.len()),
                    &format!("must list between 2 and {MAX_NODES} [x, y] positions in metres"),
                ));
            }
            for (i, xy) in p.iter().enumerate() {
                if !(xy[0].is_finite() && xy[1].is_finite()) {
                    return Err(ScenarioError::invalid(
                        format!("topology.positions.{i}"),
                        format!("[{}, {}]", xy[0], xy[1]),
                        "coordinates must be finite numbers of metres",
                    ));
                }
            }
            unused("topology.hops", &t.hops, kind)?;
            unused("topology.spacing_m", &t.spacing_m, kind)?;
            unused("topology.rows", &t.rows, kind)?;
            unused("topology.cols", &t.cols, kind)?;
            unused("topology.nodes", &t.nodes, kind)?;
            unused("topology.area_m", &t.area_m, kind)?;
            unused("topology.connected", &t.connected, kind)?;
        }
        TopologyKind::Random => {
            let n = required("topology.nodes", t.nodes, kind)? as u64;
            if !(2..=MAX_NODES).contains(&n) {
                return Err(ScenarioError::invalid(
                    "topology.nodes",
                    n,
                    &format!("must be between 2 and {MAX_NODES}"),
                ));
            }
            let [w, h] = required("topology.area_m", t.area_m, kind)?;
            positive("topology.area_m.0", w, "width in metres")?;
            positive("topology.area_m.1", h, "height in metres")?;
            unused("topology.hops", &t.hops, kind)?;
            unused("topology.spacing_m", &t.spacing_m, kind)?;
            unused("topology.rows", &t.rows, kind)?;
            unused("topology.cols", &t.cols, kind)?;
            unused("topology.positions", &t.positions, kind)?;
        }
        TopologyKind::Testbed => {
            let n = required("topology.nodes", t.nodes, kind)? as u64;
            if !(2..=MAX_NODES).contains(&n) {
                return Err(ScenarioError::invalid(
                    "topology.nodes",
                    n,
                    &format!("must be between 2 and {MAX_NODES}"),
                ));
            }
            for (key, v) in [
                ("topology.hops", t.hops.is_some()),
                ("topology.spacing_m", t.spacing_m.is_some()),
                ("topology.rows", t.rows.is_some()),
                ("topology.cols", t.cols.is_some()),
                ("topology.positions", t.positions.is_some()),
                ("topology.area_m", t.area_m.is_some()),
            ] {
                unused(key, &v.then_some(()), kind)?;
            }
            if let Some(b) = &t.testbed {
                super::validate_radio::check_testbed(b, n)?;
            }
        }
    }
    Ok(())
}

fn check_tcp(prefix: &str, t: &TcpSpec) -> Check {
    let key = |k: &str| format!("{prefix}.{k}");
    non_negative(&key("max_window"), t.max_window, "segments; 0 = no limit")?;
    if t.window_limit == Some(WindowLimit::Fixed) && t.max_window <= 0.0 {
        return Err(ScenarioError::invalid(
            key("max_window"),
            t.max_window,
            "must be a positive number of segments when window_limit = \"fixed\"",
        ));
    }
    if t.window_limit == Some(WindowLimit::None) && t.max_window > 0.0 {
        return Err(ScenarioError::invalid(
            key("max_window"),
            t.max_window,
            "contradicts window_limit = \"none\"; set window_limit = \"fixed\" or max_window = 0",
        ));
    }
    non_negative(&key("alpha"), t.alpha, "segments (Vegas alpha)")?;
    non_negative(&key("gamma"), t.gamma, "segments (Vegas gamma)")?;
    if !(t.beta.is_finite() && t.beta >= t.alpha) {
        return Err(ScenarioError::invalid(
            key("beta"),
            t.beta,
            &format!("must be at least alpha = {} (Vegas holds its window between them)", t.alpha),
        ));
    }
    if !(0.0..1.0).contains(&t.vegas_w_p) {
        return Err(ScenarioError::invalid(
            key("vegas_w_p"),
            t.vegas_w_p,
            "must be in [0, 1) (Vegas-W slow-start decrease)",
        ));
    }
    if t.n_fw == 0 {
        return Err(ScenarioError::invalid(key("n_fw"), t.n_fw, "must be at least 1 timeout"));
    }
    if !(t.few_alpha > 0.0 && t.few_alpha <= 1.0) {
        return Err(ScenarioError::invalid(
            key("few_alpha"),
            t.few_alpha,
            "must be in (0, 1] segments per RTT",
        ));
    }
    if !(t.hop_k > 0.0 && t.hop_k <= 1.0) {
        return Err(ScenarioError::invalid(
            key("hop_k"),
            t.hop_k,
            "must be in (0, 1] (Chen: 1/8 < k < 1/4)",
        ));
    }
    if !(1..=1_000_000).contains(&t.receiver_window) {
        return Err(ScenarioError::invalid(
            key("receiver_window"),
            t.receiver_window,
            "must be between 1 and 1000000 segments",
        ));
    }
    positive(&key("initial_window"), t.initial_window, "segments")?;
    positive(&key("delayed_ack_timeout_s"), t.delayed_ack_timeout_s, "seconds")?;
    let [l1, l2, l3] = t.ack_thinning_thresholds;
    if !(l1 <= l2 && l2 <= l3) {
        return Err(ScenarioError::invalid(
            key("ack_thinning_thresholds"),
            format!("[{l1}, {l2}, {l3}]"),
            "must be three segment numbers l1 <= l2 <= l3",
        ));
    }
    positive(&key("min_rto_s"), t.min_rto_s, "seconds")?;
    positive(&key("initial_rto_s"), t.initial_rto_s, "seconds")?;
    positive(&key("max_rto_s"), t.max_rto_s, "seconds")?;
    if t.max_rto_s < t.min_rto_s {
        return Err(ScenarioError::invalid(
            key("max_rto_s"),
            t.max_rto_s,
            &format!("must be at least min_rto_s = {}", t.min_rto_s),
        ));
    }
    non_negative(&key("clock_granularity_s"), t.clock_granularity_s, "seconds")?;
    if !(1..=1000).contains(&t.dupack_threshold) {
        return Err(ScenarioError::invalid(
            key("dupack_threshold"),
            t.dupack_threshold,
            "must be between 1 and 1000 duplicate ACKs",
        ));
    }
    Ok(())
}

fn check_mobility(m: &Mobility) -> Check {
    non_negative("mobility.speed_min_mps", m.speed_min_mps, "m/s")?;
    positive("mobility.speed_max_mps", m.speed_max_mps, "m/s")?;
    if m.speed_max_mps < m.speed_min_mps {
        return Err(ScenarioError::invalid(
            "mobility.speed_max_mps",
            m.speed_max_mps,
            &format!("must be at least speed_min_mps = {}", m.speed_min_mps),
        ));
    }
    non_negative("mobility.pause_s", m.pause_s, "seconds")?;
    let needs_file = matches!(m.model, MobilityModel::Setdest | MobilityModel::Bonnmotion);
    match (&m.trace_file, needs_file) {
        (None, true) => Err(ScenarioError {
            key: "mobility.trace_file".into(),
            message: "scenario key `mobility.trace_file` is missing: required for model = \"setdest\" or \"bonnmotion\"".into(),
        }),
        (Some(f), false) => Err(ScenarioError::invalid(
            "mobility.trace_file",
            f,
            "is only used with model = \"setdest\" or \"bonnmotion\"; remove it",
        )),
        _ => Ok(()),
    }
}

/// Check one flow; `prefix` is its key (`flows.3`, or `traffic` for the random-flow template,
/// whose src/dst are placeholders).
fn check_flow(prefix: &str, f: &Flow, nodes: usize, s: &Scenario) -> Check {
    let key = |k: &str| format!("{prefix}.{k}");
    match (f.transport, &f.tcp) {
        (Transport::Udp, Some(_)) => {
            return Err(ScenarioError {
                key: key("tcp"),
                message: format!(
                    "scenario key `{prefix}.tcp` applies only to flows with transport = \"tcp\"; remove it"
                ),
            })
        }
        (Transport::Tcp, Some(t)) => check_tcp(&key("tcp"), t)?,
        _ => {}
    }
    if f.transport == Transport::Tcp && f.interval_s != 0.0 {
        return Err(ScenarioError::invalid(
            key("interval_s"),
            f.interval_s,
            "applies only to UDP flows (TCP sends as its window allows); remove it",
        ));
    }
    if f.src as usize >= nodes {
        return Err(ScenarioError::invalid(
            key("src"),
            f.src,
            &format!("must be a node id in 0..={}", nodes - 1),
        ));
    }
    if f.dst as usize >= nodes {
        return Err(ScenarioError::invalid(
            key("dst"),
            f.dst,
            &format!("must be a node id in 0..={}", nodes - 1),
        ));
    }
    if f.src == f.dst {
        return Err(ScenarioError::invalid(key("dst"), f.dst, "must differ from the flow's src"));
    }
    // 802.11 MSDU at most 2304 B = 8 LLC/SNAP + 20 IP + 8 UDP (20 TCP) + payload.
    let (max_payload, proto) = match f.transport {
        Transport::Udp => (2268, "UDP"),
        Transport::Tcp => (2256, "TCP"),
    };
    if !(1..=max_payload).contains(&f.payload_bytes) {
        return Err(ScenarioError::invalid(
            key("payload_bytes"),
            f.payload_bytes,
            &format!(
                "must be between 1 and {max_payload} bytes (802.11 MSDU limit 2304 B less \
                 LLC/SNAP, IP and {proto} headers)"
            ),
        ));
    }
    non_negative(&key("interval_s"), f.interval_s, "seconds between packets; 0 = saturated")?;
    non_negative(&key("start_s"), f.start_s, "seconds")?;
    if f.start_s >= s.duration_s {
        return Err(ScenarioError::invalid(
            key("start_s"),
            f.start_s,
            &format!("must be before the end of the run (duration_s = {})", s.duration_s),
        ));
    }
    if let Some(stop) = f.stop_s {
        if !(stop.is_finite() && stop > f.start_s) {
            return Err(ScenarioError::invalid(
                key("stop_s"),
                stop,
                &format!("must be a time after the flow's start_s = {}", f.start_s),
            ));
        }
    }
    Ok(())
}

const RATES_MBPS: [f64; 4] = [1.0, 2.0, 5.5, 11.0];

/// Check every value of a parsed scenario.
pub fn validate(s: &Scenario) -> Check {
    positive("duration_s", s.duration_s, "seconds of simulated time")?;
    if s.duration_s > 1e7 {
        return Err(ScenarioError::invalid(
            "duration_s",
            s.duration_s,
            "must be at most 1e7 seconds",
        ));
    }
    non_negative("warmup_s", s.warmup_s, "seconds")?;
    if s.warmup_s >= s.duration_s {
        return Err(ScenarioError::invalid(
            "warmup_s",
            s.warmup_s,
            &format!("must be less than duration_s = {}", s.duration_s),
        ));
    }
    check_topology(&s.topology)?;

    super::validate_radio::check_radio(&s.radio)?;
    check_tcp("tcp", &s.tcp)?;
    check_mobility(&s.mobility)?;
    let rt = &s.routing;
    if !(rt.etx_probe_interval_s.is_finite() && rt.etx_probe_interval_s >= 1e-3) {
        return Err(ScenarioError::invalid(
            "routing.etx_probe_interval_s",
            rt.etx_probe_interval_s,
            "must be at least 0.001 seconds",
        ));
    }
    if rt.protocol == super::RoutingProtocol::Etx
        && !(rt.etx_warmup_s.is_finite()
            && rt.etx_warmup_s >= rt.etx_probe_interval_s
            && rt.etx_warmup_s < s.duration_s)
    {
        return Err(ScenarioError::invalid(
            "routing.etx_warmup_s",
            rt.etx_warmup_s,
            &format!(
                "must be at least one probe interval ({} s) and less than duration_s = {}",
                rt.etx_probe_interval_s, s.duration_s
            ),
        ));
    }
    if !(20..=2000).contains(&rt.etx_probe_bytes) {
        return Err(ScenarioError::invalid(
            "routing.etx_probe_bytes",
            rt.etx_probe_bytes,
            "must be 20..2000 bytes",
        ));
    }
    if !(rt.hello_interval_s.is_finite() && rt.hello_interval_s >= 1e-3) {
        return Err(ScenarioError::invalid(
            "routing.hello_interval_s",
            rt.hello_interval_s,
            "must be at least 0.001 seconds",
        ));
    }
    if rt.protocol == super::RoutingProtocol::Dsr && node_count(&s.topology) > 65_536 {
        return Err(ScenarioError::invalid(
            "routing.protocol",
            "\"dsr\"",
            "supports at most 65536 nodes (16-bit addresses in source routes)",
        ));
    }
    if rt.allowed_hello_loss == 0 {
        return Err(ScenarioError::invalid("routing.allowed_hello_loss", 0, "must be at least 1"));
    }
    if rt.hello && rt.protocol != super::RoutingProtocol::Aodv {
        return Err(ScenarioError::invalid(
            "routing.hello",
            true,
            "HELLO messages are part of AODV: use it with protocol = \"aodv\"",
        ));
    }
    let m = &s.mac;
    if let Some(rate) = m.data_rate_mbps.fixed() {
        if !RATES_MBPS.contains(&rate) {
            return Err(ScenarioError::invalid(
                "mac.data_rate_mbps",
                rate,
                "must be one of 1, 2, 5.5, 11 (802.11b) or \"auto\"",
            ));
        }
    }
    if ![1.0, 2.0].contains(&m.basic_rate_mbps) {
        return Err(ScenarioError::invalid(
            "mac.basic_rate_mbps",
            m.basic_rate_mbps,
            "must be 1 or 2 (the 802.11b basic rate set, used for control frames)",
        ));
    }
    for (key, v) in [
        ("mac.short_retry_limit", m.short_retry_limit),
        ("mac.long_retry_limit", m.long_retry_limit),
    ] {
        if !(1..=255).contains(&v) {
            return Err(ScenarioError::invalid(key, v, "must be between 1 and 255 attempts"));
        }
    }
    if !(1..=1_000_000).contains(&m.queue_packets) {
        return Err(ScenarioError::invalid(
            "mac.queue_packets",
            m.queue_packets,
            "must be between 1 and 1000000 packets",
        ));
    }
    let cw_ok = |v: u32| (1..=65535).contains(&v) && (v + 1).is_power_of_two();
    if !cw_ok(m.cw_min) {
        return Err(ScenarioError::invalid(
            "mac.cw_min",
            m.cw_min,
            "must be 2^k - 1 between 1 and 65535 (802.11b: 31)",
        ));
    }
    if !cw_ok(m.cw_max) || m.cw_max < m.cw_min {
        return Err(ScenarioError::invalid(
            "mac.cw_max",
            m.cw_max,
            &format!(
                "must be 2^k - 1, at least mac.cw_min = {} and at most 65535 (802.11b: 1023)",
                m.cw_min
            ),
        ));
    }

    let nodes = node_count(&s.topology);
    if let Some(t) = &s.traffic {
        if !(1..=100_000).contains(&t.random_flows) {
            return Err(ScenarioError::invalid(
                "traffic.random_flows",
                t.random_flows,
                "must be between 1 and 100000 flows",
            ));
        }
        check_flow("traffic", &t.flow(0, 1), nodes, s)?;
    }
    // A run without traffic is only useful to measure links (ETX probes).
    let probing = s.routing.protocol == super::RoutingProtocol::Etx;
    if s.flows.is_empty() && s.traffic.is_none() && !probing {
        return Err(ScenarioError {
            key: "flows".into(),
            message: "scenario key `flows`: at least one [[flows]] entry (or [traffic] \
                      random_flows) is required"
                .into(),
        });
    }
    for (i, f) in s.flows.iter().enumerate() {
        check_flow(&format!("flows.{i}"), f, nodes, s)?;
    }
    Ok(())
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

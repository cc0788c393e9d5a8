//! Value checks: every rejection names the key, the value and what is allowed.
//! (Reachability of flows needs the radio graph and is checked when the world is built.)

use super::ranges;
use super::{
    Flow, Mobility, MobilityModel, Scenario, TcpSpec, Topology, TopologyKind, Transport,
    WindowLimit,
};
use crate::error::ScenarioError;

type Check = Result<(), ScenarioError>;

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
    // Which keys each kind uses (the others must be left out).
    let uses: &[&str] = match t.kind {
        TopologyKind::Chain => &["hops", "spacing_m"],
        TopologyKind::Grid => &["rows", "cols", "spacing_m"],
        TopologyKind::Positions => &["positions"],
        TopologyKind::Random => &["nodes", "area_m", "connected"],
        TopologyKind::Testbed => &["nodes", "connected", "testbed"],
    };
    for (k, given) in [
        ("hops", t.hops.is_some()),
        ("spacing_m", t.spacing_m.is_some()),
        ("rows", t.rows.is_some()),
        ("cols", t.cols.is_some()),
        ("positions", t.positions.is_some()),
        ("nodes", t.nodes.is_some()),
        ("area_m", t.area_m.is_some()),
        ("connected", t.connected.is_some()),
        ("testbed", t.testbed.is_some() && t.kind != TopologyKind::Testbed),
    ] {
        if given && !uses.contains(&k) {
            unused(&format!("topology.{k}"), &Some(()), kind)?;
        }
    }
    let count = |k: &str, v: Option<u32>| -> Result<u32, ScenarioError> {
        let key = format!("topology.{k}");
        let v = required(&key, v, kind)?;
        ranges::check(&key, &key, v as f64)?;
        Ok(v)
    };
    match t.kind {
        TopologyKind::Chain => {
            count("hops", t.hops)?;
        }
        TopologyKind::Grid => {
            let (rows, cols) = (count("rows", t.rows)? as u64, count("cols", t.cols)? as u64);
            if rows * cols < 2 || rows * cols > MAX_NODES {
                return Err(ScenarioError::invalid(
                    "topology.rows",
                    rows,
                    &format!("rows x cols must be between 2 and {MAX_NODES} nodes (cols = {cols})"),
                ));
            }
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
                for (j, &c) in xy.iter().enumerate() {
                    let key = format!("topology.positions.{i}.{j}");
                    ranges::check("topology.positions.N", &key, c)?;
                }
            }
        }
        TopologyKind::Random => {
            count("nodes", t.nodes)?;
            let [w, h] = required("topology.area_m", t.area_m, kind)?;
            ranges::check("topology.area_m", "topology.area_m.0", w)?;
            ranges::check("topology.area_m", "topology.area_m.1", h)?;
        }
        TopologyKind::Testbed => {
            let n = count("nodes", t.nodes)?;
            if let Some(b) = &t.testbed {
                super::validate_radio::check_testbed(b, n as u64)?;
            }
        }
    }
    if matches!(t.kind, TopologyKind::Chain | TopologyKind::Grid) {
        let v = required("topology.spacing_m", t.spacing_m, kind)?;
        ranges::check("topology.spacing_m", "topology.spacing_m", v)?;
    }
    Ok(())
}

fn check_tcp(prefix: &str, t: &TcpSpec) -> Check {
    let key = |k: &str| format!("{prefix}.{k}");
    for (k, v) in [
        ("max_window", t.max_window),
        ("hop_k", t.hop_k),
        ("receiver_window", t.receiver_window as f64),
        ("initial_window", t.initial_window),
        ("delayed_ack_timeout_s", t.delayed_ack_timeout_s),
        ("min_rto_s", t.min_rto_s),
        ("max_rto_s", t.max_rto_s),
        ("initial_rto_s", t.initial_rto_s),
        ("clock_granularity_s", t.clock_granularity_s),
        ("dupack_threshold", t.dupack_threshold as f64),
        ("alpha", t.alpha),
        ("beta", t.beta),
        ("gamma", t.gamma),
        ("vegas_w_p", t.vegas_w_p),
        ("n_fw", t.n_fw as f64),
        ("n_s", t.n_s as f64),
        ("n_ca", t.n_ca as f64),
        ("ns_ca", t.ns_ca as f64),
        ("to_ss", t.to_ss as f64),
        ("few_alpha", t.few_alpha),
    ] {
        ranges::check(&format!("tcp.{k}"), &key(k), v)?;
    }
    for (i, &l) in t.ack_thinning_thresholds.iter().enumerate() {
        ranges::check(
            "tcp.ack_thinning_thresholds",
            &key(&format!("ack_thinning_thresholds.{i}")),
            l as f64,
        )?;
    }
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
    if t.beta < t.alpha {
        return Err(ScenarioError::invalid(
            key("beta"),
            t.beta,
            &format!("must be at least alpha = {} (Vegas holds its window between them)", t.alpha),
        ));
    }
    let [l1, l2, l3] = t.ack_thinning_thresholds;
    if !(l1 <= l2 && l2 <= l3) {
        return Err(ScenarioError::invalid(
            key("ack_thinning_thresholds"),
            format!("[{l1}, {l2}, {l3}]"),
            "must be three segment numbers l1 <= l2 <= l3",
        ));
    }
    if t.max_rto_s < t.min_rto_s {
        return Err(ScenarioError::invalid(
            key("max_rto_s"),
            t.max_rto_s,
            &format!("must be at least min_rto_s = {}", t.min_rto_s),
        ));
    }
    Ok(())
}

fn check_mobility(m: &Mobility) -> Check {
    for (k, v) in [
        ("speed_min_mps", m.speed_min_mps),
        ("speed_max_mps", m.speed_max_mps),
        ("pause_s", m.pause_s),
    ] {
        let key = format!("mobility.{k}");
        ranges::check(&key, &key, v)?;
    }
    if m.speed_max_mps < m.speed_min_mps {
        return Err(ScenarioError::invalid(
            "mobility.speed_max_mps",
            m.speed_max_mps,
            &format!("must be at least speed_min_mps = {}", m.speed_min_mps),
        ));
    }
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
    for (k, v) in [
        ("src", f.src as f64),
        ("dst", f.dst as f64),
        ("payload_bytes", f.payload_bytes as f64),
        ("interval_s", f.interval_s),
        ("start_s", f.start_s),
        ("stop_s", f.stop_s.unwrap_or(f.start_s)),
        ("bytes", f.bytes as f64),
    ] {
        ranges::check(&format!("flows.N.{k}"), &key(k), v)?;
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
    if f.start_s >= s.duration_s {
        return Err(ScenarioError::invalid(
            key("start_s"),
            f.start_s,
            &format!("must be before the end of the run (duration_s = {})", s.duration_s),
        ));
    }
    if let Some(stop) = f.stop_s {
        if stop <= f.start_s {
            return Err(ScenarioError::invalid(
                key("stop_s"),
                stop,
                &format!("must be a time after the flow's start_s = {}", f.start_s),
            ));
        }
    }
    Ok(())
}

/// Check every value of a parsed scenario.
pub fn validate(s: &Scenario) -> Check {
    ranges::check("duration_s", "duration_s", s.duration_s)?;
    ranges::check("warmup_s", "warmup_s", s.warmup_s)?;
    if s.warmup_s >= s.duration_s {
        return Err(ScenarioError::invalid(
            "warmup_s",
            s.warmup_s,
            &format!("must be less than duration_s = {}", s.duration_s),
        ));
    }
    check_topology(&s.topology)?;
    super::validate_radio::check_radio(&s.radio)?;
    super::validate_radio::check_mac(&s.mac)?;
    super::validate_radio::check_routing(&s.routing, s.duration_s, node_count(&s.topology))?;
    check_tcp("tcp", &s.tcp)?;
    check_mobility(&s.mobility)?;

    let nodes = node_count(&s.topology);
    if let Some(t) = &s.traffic {
        ranges::check("traffic.random_flows", "traffic.random_flows", t.random_flows as f64)?;
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

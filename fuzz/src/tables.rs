//! Generated `[radio]`, `[mac]`, `[queue]`, `[routing]`, `[tcp]`, `[[flows]]`, `[mobility]` and `[[interference]]`
//! tables.

use super::{chance, number, pick, put, wild};
use arbitrary::{Result as AResult, Unstructured};
use hopsim_core::scenario::TcpVariant;
use serde_json::{json, Map, Value};

pub fn radio(u: &mut Unstructured) -> AResult<Value> {
    let mut m = Map::new();
    if chance(u, 50)? {
        let p = pick(u, &["two_ray_ground", "free_space", "log_distance", "okumura"])?;
        m.insert("propagation".into(), json!(p));
    }
    if chance(u, 50)? {
        m.insert("reception".into(), json!(pick(u, &["capture", "sinr", "ideal"])?));
    }
    if chance(u, 30)? {
        let standard = pick(u, &["80211b", "80211a", "80211g", "80211n", "80211ac"])?;
        m.insert("standard".into(), json!(standard));
    }
    if chance(u, 20)? {
        m.insert("channel_width_mhz".into(), json!(*u.choose(&[20u32, 40, 80, 160, 30])?));
    }
    if chance(u, 20)? {
        m.insert("guard_interval_ns".into(), json!(if chance(u, 50)? { 400 } else { 800 }));
    }
    if chance(u, 20)? {
        m.insert("antennas".into(), json!(u.int_in_range(0..=5u32)?));
    }
    if chance(u, 20)? {
        m.insert("spatial_streams".into(), json!(u.int_in_range(0..=5u32)?));
    }
    if chance(u, 15)? {
        m.insert("weak_frames".into(), json!(pick(u, &["receive", "sense", "lock"])?));
    }
    if chance(u, 30)? {
        m.insert("fading".into(), json!(pick(u, &["none", "rayleigh", "ricean", "nakagami"])?));
    }
    if chance(u, 20)? {
        m.insert("shadowing_symmetric".into(), json!(chance(u, 50)?));
    }
    for (k, p) in [
        ("tx_power_w", (0.01, 1.0)),
        ("frequency_hz", (9e8, 5.8e9)),
        ("antenna_height_m", (0.5, 3.0)),
        ("antenna_gain", (0.5, 4.0)),
        ("system_loss", (1.0, 3.0)),
        ("rx_threshold_w", (1e-11, 1e-9)),
        ("cs_threshold_w", (1e-12, 1e-10)),
        ("capture_threshold_db", (0.0, 20.0)),
        ("frame_error_rate", (0.0, 0.3)),
        ("path_loss_exponent", (2.0, 4.0)),
        ("shadowing_sigma_db", (0.0, 8.0)),
        ("ricean_k_db", (-5.0, 10.0)),
        ("noise_figure_db", (3.0, 10.0)),
        ("preamble_snr_db", (0.0, 10.0)),
    ] {
        if chance(u, 20)? {
            m.insert(k.into(), number(u, &format!("radio.{k}"), p, false)?);
        }
    }
    for (k, p) in [
        ("rx_range_m", (100.0, 300.0)),
        ("cs_range_m", (200.0, 600.0)),
        ("tx_power_dbm", (0.0, 25.0)),
        ("reference_loss_db", (30.0, 50.0)),
        ("reference_distance_m", (0.5, 2.0)),
    ] {
        if chance(u, 10)? {
            m.insert(k.into(), number(u, &format!("radio.{k}"), p, false)?);
        }
    }
    if chance(u, 10)? {
        m.insert("gauss_markov".into(), link_process(u, "gauss_markov", GM_KEYS)?);
    }
    if chance(u, 10)? {
        m.insert("gilbert_elliott".into(), link_process(u, "gilbert_elliott", GE_KEYS)?);
    }
    if chance(u, 3)? {
        // No trace ships with the campaign: each path must be refused by name.
        let file = pick(u, &["/nonexistent/links.csv", "/dev/null", "/", "", "/dev/zero"])?;
        let mut t = Map::new();
        t.insert("file".into(), json!(file));
        put(u, &mut t, "offset_s", "radio.link_trace", (0.0, 10.0), false)?;
        m.insert("link_trace".into(), Value::Object(t));
    }
    Ok(Value::Object(m))
}

type Plausible = &'static [(&'static str, (f64, f64))];
const GM_KEYS: Plausible = &[("sigma_db", (0.0, 10.0)), ("coherence_s", (0.001, 5.0))];
const GE_KEYS: Plausible = &[
    ("good_mean_s", (0.001, 5.0)),
    ("bad_mean_s", (0.001, 1.0)),
    ("loss_good", (0.0, 0.2)),
    ("loss_bad", (0.5, 1.0)),
];

/// `[radio.gauss_markov]` / `[radio.gilbert_elliott]`: each key sometimes, `symmetric` too.
fn link_process(u: &mut Unstructured, table: &str, keys: Plausible) -> AResult<Value> {
    let mut m = Map::new();
    for (k, p) in keys {
        if chance(u, 60)? {
            m.insert((*k).into(), number(u, &format!("radio.{table}.{k}"), *p, false)?);
        }
    }
    if chance(u, 30)? {
        m.insert("symmetric".into(), json!(chance(u, 50)?));
    }
    Ok(Value::Object(m))
}

pub fn mac(u: &mut Unstructured) -> AResult<Value> {
    let mut m = Map::new();
    if chance(u, 50)? {
        let rate = if wild(u)? {
            json!(3.0)
        } else {
            let rates = [1.0, 2.0, 5.5, 11.0, 6.0, 24.0, 54.0].map(|r| json!(r));
            let mut all = rates.to_vec();
            all.push(json!("auto"));
            all.extend(
                ["mcs0", "mcs7", "mcs8", "mcs9", "mcs15", "mcs31", "mcs32"].map(|r| json!(r)),
            );
            u.choose(&all)?.clone()
        };
        m.insert("data_rate_mbps".into(), rate);
    }
    if chance(u, 20)? {
        m.insert(
            "rate_control".into(),
            json!(pick(u, &["arf", "aarf", "sample", "ideal", "minstrel_ht", "minstrel"])?),
        );
    }
    if chance(u, 10)? {
        let basic = [json!(1.0), json!(2), json!(6.0), json!(24)];
        let rate = if wild(u)? { json!(11.0) } else { u.choose(&basic)?.clone() };
        m.insert("basic_rate_mbps".into(), rate);
    }
    put(u, &mut m, "rts_threshold_bytes", "mac", (0.0, 3000.0), true)?;
    if chance(u, 20)? {
        let sizes = [0u32, 8191, 65_535, 65_536, 1_048_575, 1_048_576];
        m.insert("ampdu_max_bytes".into(), json!(*u.choose(&sizes)?));
    }
    if chance(u, 15)? {
        // A-MSDU limits: small, each standard's largest, one past, and 0.
        let sizes = [0u32, 100, 3839, 4065, 7935, 7936, 11_398, 11_399];
        m.insert("amsdu_max_bytes".into(), json!(*u.choose(&sizes)?));
    }
    put(u, &mut m, "short_retry_limit", "mac", (1.0, 10.0), true)?;
    put(u, &mut m, "long_retry_limit", "mac", (1.0, 10.0), true)?;
    put(u, &mut m, "queue_packets", "mac", (1.0, 100.0), true)?;
    if chance(u, 20)? {
        let (lo, hi) = if wild(u)? {
            (json!(30), json!(1024))
        } else {
            (
                u.choose(&[json!(7), json!(15), json!(31)])?.clone(),
                u.choose(&[json!(31), json!(255), json!(1023)])?.clone(),
            )
        };
        m.insert("cw_min".into(), lo);
        m.insert("cw_max".into(), hi);
    }
    if chance(u, 10)? {
        let p = pick(u, &["none", "cts_to_self", "rts_cts", "cts"])?;
        m.insert("erp_protection".into(), json!(p));
    }
    if chance(u, 10)? {
        m.insert("edca".into(), edca(u)?);
    }
    Ok(Value::Object(m))
}

/// `[mac.edca.AC]` tables: each key sometimes outside 9.4.2.28's fields.
fn edca(u: &mut Unstructured) -> AResult<Value> {
    let mut m = Map::new();
    for _ in 0..u.int_in_range(1..=3u8)? {
        let mut ac = Map::new();
        if chance(u, 50)? {
            ac.insert("aifsn".into(), json!(u.int_in_range(1..=16u32)?));
        }
        for k in ["cw_min", "cw_max"] {
            if chance(u, 40)? {
                ac.insert(k.into(), json!(*u.choose(&[0u32, 3, 7, 10, 15, 1023, 32767, 65535])?));
            }
        }
        if chance(u, 40)? {
            let t = [0u32, 32, 1504, 3000, 3008, 2_097_120, 2_097_152];
            ac.insert("txop_limit_us".into(), json!(*u.choose(&t)?));
        }
        m.insert(pick(u, &["BK", "BE", "VI", "VO", "AC_VO"])?.into(), Value::Object(ac));
    }
    Ok(Value::Object(m))
}

pub fn queue(u: &mut Unstructured) -> AResult<Value> {
    let mut m = Map::new();
    let d = pick(u, &["droptail", "red", "codel", "fq_codel", "sfq"])?;
    m.insert("discipline".into(), json!(d));
    if chance(u, 30)? {
        m.insert("ecn".into(), json!(chance(u, 50)?));
    }
    for k in ["red_gentle", "red_wait"] {
        if chance(u, 15)? {
            m.insert(k.into(), json!(chance(u, 50)?));
        }
    }
    for (k, p, int) in [
        ("red_min_th_packets", (1.0, 10.0), false),
        ("red_max_th_packets", (5.0, 30.0), false),
        ("red_max_p", (0.01, 1.0), false),
        ("red_w_q", (0.001, 0.5), false),
        ("codel_target_s", (0.001, 0.02), false),
        ("codel_interval_s", (0.02, 0.5), false),
        ("fq_codel_quantum_bytes", (300.0, 3000.0), true),
        ("fq_codel_flows", (1.0, 2048.0), true),
    ] {
        if chance(u, 15)? {
            m.insert(k.into(), number(u, &format!("queue.{k}"), p, int)?);
        }
    }
    Ok(Value::Object(m))
}

pub fn routing(u: &mut Unstructured) -> AResult<Value> {
    let mut m = Map::new();
    let protocol = pick(u, &["static", "aodv", "dsr", "etx", "olsr", "hwmp"])?;
    m.insert("protocol".into(), json!(protocol));
    if chance(u, 20)? && (protocol == "aodv" || wild(u)?) {
        m.insert("hello".into(), json!(chance(u, 50)?));
    }
    if chance(u, 20)? {
        m.insert("expanding_ring".into(), json!(chance(u, 50)?));
    }
    put(u, &mut m, "hello_interval_s", "routing", (0.1, 2.0), false)?;
    put(u, &mut m, "allowed_hello_loss", "routing", (1.0, 4.0), true)?;
    if protocol == "etx" && !wild(u)? {
        m.insert(
            "etx_probe_interval_s".into(),
            number(u, "routing.etx_probe_interval_s", (0.02, 0.1), false)?,
        );
        m.insert("etx_warmup_s".into(), number(u, "routing.etx_warmup_s", (0.2, 0.5), false)?);
    } else {
        put(u, &mut m, "etx_probe_interval_s", "routing", (0.05, 1.0), false)?;
        put(u, &mut m, "etx_warmup_s", "routing", (0.1, 2.0), false)?;
    }
    put(u, &mut m, "etx_probe_bytes", "routing", (20.0, 500.0), true)?;
    // OLSR's keys: refused with another protocol (picked so when wild).
    if protocol == "olsr" || wild(u)? {
        put(u, &mut m, "olsr_hello_interval_s", "routing", (0.2, 2.0), false)?;
        put(u, &mut m, "olsr_tc_interval_s", "routing", (0.5, 5.0), false)?;
        put(u, &mut m, "olsr_willingness", "routing", (0.0, 7.0), true)?;
        if chance(u, 20)? {
            m.insert("olsr_link_layer_feedback".into(), json!(chance(u, 50)?));
        }
        if chance(u, 20)? {
            m.insert("olsr_spread_start".into(), json!(chance(u, 50)?));
        }
    }
    // HWMP's keys: refused with another protocol; a root mode needs a root (node 0 or a
    // wild one).
    if protocol == "hwmp" || wild(u)? {
        if chance(u, 40)? {
            let mode = pick(u, &["off", "proactive_preq", "proactive_preq_prep", "rann"])?;
            m.insert("hwmp_root_mode".into(), json!(mode));
            if mode != "off" || wild(u)? {
                let root = if wild(u)? { json!(1000) } else { json!(0) };
                m.insert("hwmp_root".into(), root);
            }
        }
        put(u, &mut m, "hwmp_active_path_timeout_s", "routing", (0.5, 10.0), false)?;
        put(u, &mut m, "hwmp_max_preq_retries", "routing", (0.0, 5.0), true)?;
        put(u, &mut m, "hwmp_path_refresh_s", "routing", (0.0, 2.0), false)?;
        if chance(u, 20)? {
            let how = if wild(u)? { "frames" } else { pick(u, &["attempts", "time"])? };
            m.insert("hwmp_fail_average".into(), json!(how));
        }
        for key in ["hwmp_target_only", "hwmp_reply_and_forward"] {
            if chance(u, 20)? {
                m.insert(key.into(), json!(chance(u, 50)?));
            }
        }
    }
    Ok(Value::Object(m))
}

pub fn tcp(u: &mut Unstructured) -> AResult<Value> {
    let mut m = Map::new();
    if chance(u, 60)? {
        // The core's variants, then one it does not have (picked when wild).
        let names: Vec<&str> =
            TcpVariant::ALL.iter().map(|v| v.name()).chain(["westwood"]).collect();
        let v = pick(u, &names)?;
        m.insert("variant".into(), json!(v));
    }
    if chance(u, 30)? {
        let w =
            pick(u, &["none", "fixed", "hop_based", "hop_k", "delay_based", "fu", "kawadia", "x"])?;
        m.insert("window_limit".into(), json!(w));
    }
    if chance(u, 10)? {
        m.insert("host".into(), json!(pick(u, &["ns2", "linux", "bsd"])?));
    }
    for k in [
        "pacing",
        "delayed_ack",
        "ack_thinning",
        "quick_ack",
        "timestamps",
        "rwnd_autotuning",
        "count_acked",
        "hystart",
        "ecn",
    ] {
        if chance(u, 15)? {
            m.insert(k.into(), json!(chance(u, 50)?));
        }
    }
    for (k, p, int) in [
        ("max_window", (1.0, 8.0), false),
        ("hop_k", (0.1, 0.3), false),
        ("receiver_window", (1.0, 64.0), true),
        ("initial_window", (1.0, 4.0), false),
        ("initial_receive_window", (1.0, 64.0), true),
        ("delayed_ack_timeout_s", (0.01, 0.5), false),
        ("min_rto_s", (0.1, 1.0), false),
        ("max_rto_s", (1.0, 64.0), false),
        ("initial_rto_s", (0.5, 3.0), false),
        ("clock_granularity_s", (0.0, 0.5), false),
        ("dupack_threshold", (1.0, 5.0), true),
        ("alpha", (0.0, 3.0), false),
        ("beta", (1.0, 6.0), false),
        ("gamma", (0.0, 3.0), false),
        ("vegas_w_p", (0.0, 0.5), false),
        ("n_fw", (1.0, 4.0), true),
        ("n_s", (1.0, 20.0), true),
        ("n_ca", (1.0, 200.0), true),
        ("ns_ca", (1.0, 200.0), true),
        ("to_ss", (1.0, 5.0), true),
        ("few_alpha", (0.001, 0.5), false),
    ] {
        if chance(u, 12)? {
            m.insert(k.into(), number(u, &format!("tcp.{k}"), p, int)?);
        }
    }
    if !wild(u)? {
        // Keep the window limit and its size consistent (validation's rule between them).
        match m.get("window_limit").and_then(Value::as_str) {
            Some("fixed") => {
                m.entry("max_window").or_insert(json!(4.0));
            }
            Some(_) => {
                m.remove("max_window");
            }
            None => {}
        }
    }
    if chance(u, 10)? {
        let t: AResult<Vec<Value>> =
            (0..3).map(|_| number(u, "tcp.ack_thinning_thresholds", (1.0, 20.0), true)).collect();
        m.insert("ack_thinning_thresholds".into(), Value::Array(t?));
    }
    Ok(Value::Object(m))
}

/// A flow between nodes of a network of `nodes` (with src/dst when `endpoints`).
pub fn flow(u: &mut Unstructured, nodes: u32, endpoints: bool) -> AResult<Value> {
    let mut m = Map::new();
    let last = nodes.saturating_sub(1) as f64;
    if endpoints && wild(u)? {
        m.insert("src".into(), number(u, "flows.N.src", (0.0, last), true)?);
        m.insert("dst".into(), number(u, "flows.N.dst", (0.0, last), true)?);
    } else if endpoints {
        let src = u.int_in_range(0..=nodes.saturating_sub(1))?;
        let dst = (src + u.int_in_range(1..=nodes.saturating_sub(1).max(1))?) % nodes.max(1);
        m.insert("src".into(), json!(src));
        m.insert("dst".into(), json!(dst));
    }
    let tcp = chance(u, 55)?;
    m.insert("transport".into(), json!(if tcp { "tcp" } else { "udp" }));
    put(u, &mut m, "payload_bytes", "flows.N", (40.0, 1500.0), true)?;
    if !tcp || wild(u)? {
        put(u, &mut m, "interval_s", "flows.N", (0.0, 0.2), false)?;
    }
    put(u, &mut m, "start_s", "flows.N", (0.0, 0.5), false)?;
    if chance(u, 20)? {
        m.insert("stop_s".into(), number(u, "flows.N.stop_s", (0.5, 5.0), false)?);
    }
    if chance(u, 15)? {
        m.insert("bytes".into(), number(u, "flows.N.bytes", (0.0, 200_000.0), true)?);
    }
    if tcp && chance(u, 25)? {
        m.insert("tcp".into(), self::tcp(u)?);
    }
    if chance(u, 15)? {
        m.insert("access_category".into(), json!(pick(u, &["BE", "VO", "VI", "BK", "AC_BE"])?));
    }
    Ok(Value::Object(m))
}

pub fn mobility(u: &mut Unstructured) -> AResult<Value> {
    let mut m = Map::new();
    let model = if wild(u)? {
        *u.choose(&["setdest", "bonnmotion", "gauss"])?
    } else {
        *u.choose(&["static", "random_waypoint", "random_waypoint"])?
    };
    m.insert("model".into(), json!(model));
    put(u, &mut m, "speed_min_mps", "mobility", (0.0, 5.0), false)?;
    put(u, &mut m, "speed_max_mps", "mobility", (1.0, 30.0), false)?;
    put(u, &mut m, "pause_s", "mobility", (0.0, 5.0), false)?;
    if wild(u)? {
        m.insert(
            "trace_file".into(),
            json!(pick(u, &["/nonexistent/scen.tcl", "/dev/null", "/", "/dev/zero"])?),
        );
    }
    Ok(Value::Object(m))
}

/// `[[interference]]`: an interferer somewhere over the nodes, periods of milliseconds.
pub fn interferer(u: &mut Unstructured) -> AResult<Value> {
    let mut m = Map::new();
    for (k, p) in [
        ("x_m", (-200.0, 1200.0)),
        ("y_m", (-200.0, 600.0)),
        ("power_dbm", (-10.0, 25.0)),
        ("on_mean_s", (0.0005, 0.05)),
        ("off_mean_s", (0.0005, 0.2)),
    ] {
        // Now and then a required key is missing.
        if !wild(u)? || chance(u, 90)? {
            m.insert(k.into(), number(u, &format!("interference.N.{k}"), p, false)?);
        }
    }
    if chance(u, 30)? {
        let process = if wild(u)? { "poisson" } else { pick(u, &["exponential", "periodic"])? };
        m.insert("process".into(), json!(process));
    }
    put(u, &mut m, "start_s", "interference.N", (0.0, 2.0), false)?;
    if chance(u, 20)? {
        m.insert("stop_s".into(), number(u, "interference.N.stop_s", (0.5, 5.0), false)?);
    }
    Ok(Value::Object(m))
}

//! Strict parsing with error messages that name the dotted key.

use super::tables::check_tables;
use super::{Scenario, TcpSpec};
use crate::error::ScenarioError;
use crate::transport::tcp::config::TcpHost;
use serde_json::Value;

/// Parse a scenario from a JSON document (what the Python front end sends).
pub fn parse_json(text: &str) -> Result<Scenario, ScenarioError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| ScenarioError::from_serde(String::new(), &without_position(&e.to_string())))?;
    from_value(value)
}

/// Parse a scenario from TOML text (used by Rust tests and benches).
pub fn parse_toml(text: &str) -> Result<Scenario, ScenarioError> {
    let value: Value =
        toml::from_str(text).map_err(|e| ScenarioError::from_serde(String::new(), e.message()))?;
    from_value(value)
}

fn typed<T: serde::de::DeserializeOwned>(value: Value, prefix: &str) -> Result<T, ScenarioError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = clean_path(&e.path().to_string());
        let key = match (prefix.is_empty(), path.is_empty()) {
            (true, _) => path,
            (false, true) => prefix.to_string(),
            (false, false) => format!("{prefix}.{path}"),
        };
        ScenarioError::from_serde(key, &without_position(&e.inner().to_string()))
    })
}

/// Give a flow's own `[flows.tcp]` (or the random traffic's) the top-level TCP keys it does
/// not set: key by key, which only the document can do (the structs have every default
/// filled in). A TCP flow without a table of its own gets the whole `[tcp]` in
/// `Scenario::resolve`, the one place that also serves scenarios built in code.
fn inherit_tcp(flow: &mut Value, base: &serde_json::Map<String, Value>) {
    if let Some(Value::Object(own)) = flow.get_mut("tcp") {
        for (k, v) in base {
            own.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
}

/// Fill the keys a `[tcp]` table leaves unset with its host profile's defaults
/// (`transport/tcp/linux.rs`); the ns2 host's are the structs' own defaults.
fn host_defaults(table: &mut Value) {
    let Value::Object(own) = table else { return };
    let host: TcpHost = match own.get("host") {
        Some(h) => match serde_json::from_value(h.clone()) {
            Ok(h) => h,
            Err(_) => return, // the typed parse names the key and what is allowed
        },
        None => return,
    };
    if host == TcpHost::Ns2 {
        return;
    }
    if let Ok(Value::Object(defaults)) = serde_json::to_value(TcpSpec::for_host(host)) {
        for (k, v) in defaults {
            own.entry(k).or_insert(v);
        }
    }
}

/// A flow's `[flows.tcp]` keys override the top-level `[tcp]` table, key by key. The top-level
/// table is checked on its own first, so that its errors name `tcp.<key>`.
fn from_value(mut value: Value) -> Result<Scenario, ScenarioError> {
    check_tables(&value)?;
    super::standard::fill_defaults(&mut value);
    if let Some(base) = value.get("tcp").cloned() {
        typed::<TcpSpec>(base.clone(), "tcp")?;
        if let Value::Object(base) = base {
            if let Some(Value::Array(flows)) = value.get_mut("flows") {
                flows.iter_mut().for_each(|f| inherit_tcp(f, &base));
            }
            if let Some(traffic) = value.get_mut("traffic") {
                inherit_tcp(traffic, &base);
            }
        }
    }
    // Host defaults after inheritance: a flow inherits only the keys written in `[tcp]`.
    if let Some(base) = value.get_mut("tcp") {
        host_defaults(base);
    }
    if let Some(Value::Array(flows)) = value.get_mut("flows") {
        flows.iter_mut().filter_map(|f| f.get_mut("tcp")).for_each(host_defaults);
    }
    if let Some(tcp) = value.get_mut("traffic").and_then(|t| t.get_mut("tcp")) {
        host_defaults(tcp);
    }
    let mut scenario: Scenario = typed(value, "")?;
    scenario.resolve();
    Ok(scenario)
}

/// serde_json appends "at line L column C" of the JSON the front end built, which means
/// nothing to the author of the scenario file: drop it.
fn without_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// serde_path_to_error writes list indices as `flows[0]`; scenario keys use `flows.0`.
fn clean_path(path: &str) -> String {
    if path == "." {
        return String::new();
    }
    let mut out = String::with_capacity(path.len());
    for ch in path.chars() {
        match ch {
            '[' => out.push('.'),
            ']' => {}
            c => out.push(c),
        }
    }
    out.trim_start_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_cleaning() {
        assert_eq!(clean_path("flows[0].src"), "flows.0.src");
        assert_eq!(clean_path("."), "");
    }

    #[test]
    fn unknown_nested_key_is_named() {
        let e = parse_json(r#"{"topology":{"kind":"chain","hops":2,"spacing_m":200,"bogus":1}}"#)
            .unwrap_err();
        assert!(e.message.contains("bogus"), "{}", e.message);
        assert!(e.message.contains("topology"), "{}", e.message);
    }

    #[test]
    fn wrong_type_is_named() {
        let e = parse_json(r#"{"topology":{"kind":"chain","hops":"seven"}}"#).unwrap_err();
        assert_eq!(e.key, "topology.hops");
        assert!(e.message.contains("seven"), "{}", e.message);
        assert!(!e.message.contains("column"), "{}", e.message);
    }

    #[test]
    fn flow_tcp_keys_override_top_level_tcp() {
        let s = parse_toml(
            "[tcp]\nvariant = \"sack\"\nmin_rto_s = 1.0\n[topology]\nkind = \"chain\"\nhops = 1\nspacing_m = 1.0\n\
             [[flows]]\nsrc = 0\ndst = 1\ntransport = \"tcp\"\n[flows.tcp]\nvariant = \"reno\"\n\
             [[flows]]\nsrc = 1\ndst = 0\ntransport = \"tcp\"\n",
        )
        .unwrap();
        let a = s.flows[0].tcp.as_ref().unwrap();
        let b = s.flows[1].tcp.as_ref().unwrap();
        assert_eq!(a.variant, crate::scenario::TcpVariant::Reno);
        assert_eq!(a.min_rto_s, 1.0);
        assert_eq!(b.variant, crate::scenario::TcpVariant::Sack);
        let e =
            parse_toml("[tcp]\nvariant = \"hybla\"\n[topology]\nkind = \"chain\"\n").unwrap_err();
        assert_eq!(e.key, "tcp.variant");
    }

    #[test]
    fn toml_parses_defaults() {
        let s = parse_toml("[topology]\nkind = \"chain\"\nhops = 3\nspacing_m = 200.0\n").unwrap();
        assert_eq!(s.mac.short_retry_limit, 7);
        assert_eq!(s.duration_s, 100.0);
    }

    #[test]
    fn the_linux_host_fills_the_keys_left_unset_and_keeps_those_written() {
        let s = parse_toml(
            "[tcp]\nhost = \"linux\"\ninitial_window = 3.0\n[topology]\nkind = \"chain\"\nhops = 1\n\
             spacing_m = 1.0\n[[flows]]\nsrc = 0\ndst = 1\ntransport = \"tcp\"\n\
             [[flows]]\nsrc = 1\ndst = 0\ntransport = \"tcp\"\n[flows.tcp]\nhost = \"ns2\"\n",
        )
        .unwrap();
        let (a, b) = (s.flows[0].tcp.as_ref().unwrap(), s.flows[1].tcp.as_ref().unwrap());
        let linux = TcpSpec::linux();
        assert_eq!(a.initial_window, 3.0, "written: kept (RFC 3390's 3, a 2.6.8 kernel)");
        assert_eq!((a.initial_rto_s, a.timestamps, a.quick_ack), (1.0, true, true));
        assert_eq!(a.receiver_window, linux.receiver_window);
        // The second flow's own host is ns2: it takes only the written keys of [tcp].
        assert_eq!(b.initial_window, 3.0);
        assert_eq!((b.initial_rto_s, b.timestamps), (TcpSpec::default().initial_rto_s, false));
        let e = parse_toml("[tcp]\nhost = \"bsd\"\n[topology]\nkind = \"chain\"\n").unwrap_err();
        assert_eq!(e.key, "tcp.host");
    }
}

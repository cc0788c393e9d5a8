//! Sections and flows are tables. serde's derived structs also accept a list, read by
//! position (`topology = ["chain", 5, 100.0]` would be a 5-hop chain, `mac = []` all the
//! defaults), which no author means and no message would reveal: refused here, on the
//! document every front end builds (TOML, JSON, a Python dict), before the typed parse.

use crate::error::ScenarioError;
use serde_json::Value;

/// Every key whose value is a table (a struct of the model); `*` is every element of a list.
/// `tests::every_table_of_the_model_is_listed` checks this against the structs.
pub(super) const TABLES: &[&str] = &[
    "topology",
    "topology.testbed",
    "radio",
    "radio.gauss_markov",
    "radio.gilbert_elliott",
    "radio.link_trace",
    "mac",
    "routing",
    "queue",
    "tcp",
    "flows.*",
    "flows.*.tcp",
    "mobility",
    "traffic",
    "traffic.tcp",
    "interference.*",
];

/// Refuse a document, or one of its [`TABLES`], written as a list or a single value, and a
/// `flows` that is not a list (of tables): serde would read a list by position, and name a
/// single value's expected type in Rust's words ("expected struct Mac").
pub(super) fn check_tables(doc: &Value) -> Result<(), ScenarioError> {
    if !doc.is_object() {
        return Err(ScenarioError::from_serde(
            String::new(),
            &format!("the document is {}, not a table of keys", kind(doc)),
        ));
    }
    for (list, one) in [("flows", "flow"), ("interference", "interferer")] {
        let Some(v) = doc.get(list) else { continue };
        if !matches!(v, Value::Array(_) | Value::Null) {
            return Err(ScenarioError::from_serde(
                list.to_string(),
                &format!(
                    "not allowed, it is {}; it must be an array of tables, one per {one} \
                     ([[{list}]] in TOML)",
                    kind(v)
                ),
            ));
        }
    }
    for path in TABLES {
        let parts: Vec<&str> = path.split('.').collect();
        check_at(doc, &parts, String::new())?;
    }
    Ok(())
}

fn check_at(node: &Value, parts: &[&str], here: String) -> Result<(), ScenarioError> {
    let Some((first, rest)) = parts.split_first() else {
        return match node {
            Value::Array(_) => Err(ScenarioError::from_serde(
                here.clone(),
                &format!(
                    "not allowed, it is {}; it must be a table ({}), whose keys are named, \
                     never read by position",
                    kind(node),
                    how_written(&here)
                ),
            )),
            Value::Bool(_) | Value::Number(_) | Value::String(_) => Err(ScenarioError::from_serde(
                here.clone(),
                &format!(
                    "not allowed, it is {}; it must be a table ({})",
                    kind(node),
                    how_written(&here)
                ),
            )),
            _ => Ok(()), // a table; null: absent, as the typed parse reads it
        };
    };
    let join = |k: &str| if here.is_empty() { k.to_string() } else { format!("{here}.{k}") };
    match (node, *first) {
        (Value::Array(items), "*") => {
            for (i, item) in items.iter().enumerate() {
                check_at(item, rest, join(&i.to_string()))?;
            }
            Ok(())
        }
        (Value::Object(map), key) if key != "*" => match map.get(key) {
            Some(child) => check_at(child, rest, join(key)),
            None => Ok(()),
        },
        _ => Ok(()),
    }
}

fn kind(v: &Value) -> String {
    match v {
        Value::Array(a) if a.is_empty() => "the empty list []".to_string(),
        Value::Array(a) => format!("a list of {} element(s)", a.len()),
        Value::Object(_) => "a table".to_string(),
        _ => format!("the value {v}"),
    }
}

/// How the table is written in a TOML file: `[mac]`, `[[flows]]`, `[flows.tcp]`.
fn how_written(key: &str) -> String {
    let mut parts: Vec<&str> = key.split('.').collect();
    let element = parts.last().is_some_and(|p| p.parse::<usize>().is_ok());
    parts.retain(|p| p.parse::<usize>().is_err());
    let name = parts.join(".");
    if element {
        format!("[[{name}]] in TOML")
    } else {
        format!("[{name}] in TOML")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{parse_json, parse_toml, Scenario, TestbedLayout};

    #[test]
    fn sections_and_flows_written_as_lists_are_refused() {
        for (doc, key) in [
            (r#"topology = ["chain", 5, 100.0]"#, "topology"),
            ("mac = []", "mac"),
            ("[radio]\ngilbert_elliott = [1.0, 0.1]", "radio.gilbert_elliott"),
            ("radio = []", "radio"),
            ("flows = [[0, 5, \"tcp\"]]\n[topology]\nkind = \"chain\"\nhops = 5", "flows.0"),
            (
                "[topology]\nkind = \"chain\"\nhops = 1\n[[flows]]\nsrc = 0\ndst = 1\ntcp = []",
                "flows.0.tcp",
            ),
        ] {
            let e = parse_toml(doc).unwrap_err();
            assert_eq!(e.key, key, "{doc}: {}", e.message);
            assert!(e.message.contains("must be a table"), "{}", e.message);
        }
        let e = parse_json(r#"{"topology": {"kind": "chain", "hops": 1}, "traffic": [3]}"#)
            .unwrap_err();
        assert!(e.message.contains("`traffic`") && e.message.contains("[traffic]"), "{e}");
        let e = parse_json("[1, 2]").unwrap_err();
        assert!(e.message.contains("not a table of keys"), "{e}");
    }

    #[test]
    fn sections_written_as_values_and_flows_as_a_table_are_refused() {
        let flow = "[[flows]]\nsrc = 0\ndst = 1";
        for (doc, key, says) in [
            (format!("mac = \"fast\"\n{flow}"), "mac", "[mac] in TOML"),
            (format!("radio = 1\n{flow}"), "radio", "[radio] in TOML"),
            (format!("tcp = true\n{flow}"), "tcp", "[tcp] in TOML"),
            (format!("{flow}\ntcp = 3"), "flows.0.tcp", "[flows.tcp] in TOML"),
            ("flows = [1]".to_string(), "flows.0", "[[flows]] in TOML"),
            ("[flows]\nsrc = 0\ndst = 1".to_string(), "flows", "an array of tables"),
            ("flows = \"tcp\"".to_string(), "flows", "an array of tables"),
        ] {
            let doc = format!("{doc}\n[topology]\nkind = \"chain\"\nhops = 1\n");
            let e = parse_toml(&doc).unwrap_err();
            assert_eq!(e.key, key, "{doc}: {}", e.message);
            assert!(e.message.contains("not allowed"), "{}", e.message);
            assert!(e.message.contains(says), "{}", e.message);
        }
    }

    #[test]
    fn tables_still_parse() {
        parse_toml("[topology]\nkind = \"chain\"\nhops = 1\nspacing_m = 1.0\n[mac]\n[[flows]]\nsrc = 0\ndst = 1")
            .unwrap();
    }

    /// Every table in a scenario with every optional table given is in [`TABLES`].
    #[test]
    fn every_table_of_the_model_is_listed() {
        let mut s =
            parse_toml("[topology]\nkind = \"chain\"\nhops = 1\nspacing_m = 1.0\n[queue]\n[[flows]]\nsrc = 0\ndst = 1\ntransport = \"tcp\"\n[traffic]\nrandom_flows = 1\ntransport = \"tcp\"")
                .unwrap();
        s.topology.testbed = Some(TestbedLayout::default());
        s.radio.gauss_markov = Some(Default::default());
        s.radio.gilbert_elliott = Some(Default::default());
        s.radio.link_trace = Some(serde_json::from_str(r#"{"file": "t.csv"}"#).unwrap());
        let one = r#"{"x_m": 0, "y_m": 0, "power_dbm": 0, "on_mean_s": 1, "off_mean_s": 1}"#;
        s.interference = vec![serde_json::from_str(one).unwrap()];
        let doc = serde_json::to_value::<&Scenario>(&s).unwrap();
        let mut found = Vec::new();
        collect(&doc, String::new(), &mut found);
        found.sort();
        found.dedup();
        for table in &found {
            assert!(TABLES.contains(&table.as_str()), "{table} is a table missing from TABLES");
        }
        for table in TABLES {
            assert!(found.iter().any(|f| f == table), "{table} in TABLES is no table");
        }
    }

    fn collect(v: &Value, here: String, out: &mut Vec<String>) {
        let join = |k: &str| if here.is_empty() { k.to_string() } else { format!("{here}.{k}") };
        match v {
            Value::Object(map) => {
                if !here.is_empty() {
                    out.push(here.clone());
                }
                for (k, child) in map {
                    collect(child, join(k), out);
                }
            }
            Value::Array(items) => items.iter().for_each(|c| collect(c, join("*"), out)),
            _ => {}
        }
    }
}

//! Strict parsing with error messages that name the dotted key.

use super::Scenario;
use crate::error::ScenarioError;

/// Parse a scenario from a JSON document (what the Python front end sends).
pub fn parse_json(text: &str) -> Result<Scenario, ScenarioError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut scenario: Scenario = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let key = clean_path(&e.path().to_string());
        ScenarioError::from_serde(key, &without_position(&e.inner().to_string()))
    })?;
    scenario.resolve();
    Ok(scenario)
}

/// Parse a scenario from TOML text (used by Rust tests and benches).
pub fn parse_toml(text: &str) -> Result<Scenario, ScenarioError> {
    let de = toml::Deserializer::new(text);
    let mut scenario: Scenario = serde_path_to_error::deserialize(de).map_err(|e| {
        let key = clean_path(&e.path().to_string());
        let msg = e.inner().message().to_string();
        ScenarioError::from_serde(key, &msg)
    })?;
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
    fn toml_parses_defaults() {
        let s = parse_toml("[topology]\nkind = \"chain\"\nhops = 3\nspacing_m = 200.0\n").unwrap();
        assert_eq!(s.mac.short_retry_limit, 7);
        assert_eq!(s.duration_s, 100.0);
    }
}

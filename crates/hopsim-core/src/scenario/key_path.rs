//! The dotted key of a scenario value, built as validation walks the model: the walk adds each
//! section's name and each list index, a check adds its field's name. So every key is written
//! once, as the field's name where the field is checked, and a `[tcp]` check names
//! `tcp.min_rto_s`, `flows.3.tcp.min_rto_s` or `traffic.tcp.min_rto_s` as it is reached.

use crate::error::ScenarioError;
use std::fmt;

/// A dotted scenario key: `KeyPath::root().field("flows").index(3).field("src")` is `flows.3.src`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyPath {
    dotted: String,
}

impl KeyPath {
    /// The whole document (the empty key).
    pub fn root() -> KeyPath {
        KeyPath::default()
    }

    /// The key `name` of this table.
    pub fn field(&self, name: &str) -> KeyPath {
        self.child(name)
    }

    /// Entry `i` of this list (scenario keys count from 0: `flows.0`).
    pub fn index(&self, i: usize) -> KeyPath {
        self.child(&i.to_string())
    }

    fn child(&self, segment: &str) -> KeyPath {
        let dotted =
            if self.dotted.is_empty() { segment.to_string() } else { format!("{self}.{segment}") };
        KeyPath { dotted }
    }

    pub fn as_str(&self) -> &str {
        &self.dotted
    }

    /// "scenario key `k` = value: allowed".
    pub fn invalid(&self, value: impl fmt::Display, allowed: &str) -> ScenarioError {
        ScenarioError::invalid(self.as_str(), value, allowed)
    }

    /// "scenario key `k` is missing: why".
    pub fn missing(&self, why: &str) -> ScenarioError {
        self.refuse(&format!("is missing: {why}"))
    }

    /// "scenario key `k` what" (a refusal that names no value).
    pub fn refuse(&self, what: &str) -> ScenarioError {
        ScenarioError { key: self.dotted.clone(), message: format!("scenario key `{self}` {what}") }
    }
}

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.dotted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_dotted_from_the_root() {
        let flow = KeyPath::root().field("flows").index(3);
        assert_eq!(flow.field("tcp").field("min_rto_s").as_str(), "flows.3.tcp.min_rto_s");
        assert_eq!(KeyPath::root().field("duration_s").to_string(), "duration_s");
        let e = flow.field("src").missing("required");
        assert_eq!(
            (e.key.as_str(), e.message.as_str()),
            ("flows.3.src", "scenario key `flows.3.src` is missing: required")
        );
    }
}

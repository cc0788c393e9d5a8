//! The one error type of bad input: names the key, the value and what is allowed.

/// A rejected scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioError {
    /// Dotted path of the offending key, e.g. `topology.spacing_m` (empty: the whole document).
    pub key: String,
    /// Message naming the key, the value and what is allowed.
    pub message: String,
}

impl ScenarioError {
    /// `key` = `value`: `allowed`.
    pub fn invalid(key: impl Into<String>, value: impl std::fmt::Display, allowed: &str) -> Self {
        let key = key.into();
        let message = format!("scenario key `{key}` = {value}: {allowed}");
        ScenarioError { key, message }
    }

    pub(crate) fn from_serde(key: String, inner: &str) -> Self {
        // Say what is allowed in the scenario author's terms, not Rust's type names.
        let inner = inner
            .replace("expected u32", "expected a whole number >= 0")
            .replace("expected u64", "expected a whole number >= 0")
            .replace("expected f64", "expected a number")
            .replace("expected a sequence", "expected a list");
        let message = if key.is_empty() {
            format!("scenario: {inner}")
        } else {
            format!("scenario key `{key}`: {inner}")
        };
        ScenarioError { key, message }
    }
}

/// A number as a scenario author would write it: plain in the usual range, else in exponent
/// form (`1e-300`, not three hundred zeros); always the shortest form that reads back exactly.
pub fn fmt_num(v: f64) -> String {
    let a = v.abs();
    if v != 0.0 && v.is_finite() && !(1e-4..1e6).contains(&a) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ScenarioError {}

//! hopsim-core: a fast, deterministic packet-level simulator of TCP over multihop IEEE 802.11
//! ad hoc networks. The layout follows the protocol stack: `phy`, `mac`, `queue`, `net`,
//! `transport`; `world` runs the events and glues the layers together.

pub mod control;
pub mod engine;
pub mod error;
pub mod ids;
pub mod mac;
pub mod mobility;
pub mod net;
pub mod node;
pub mod observe;
pub mod phy;
pub mod queue;
pub mod scenario;
pub mod transport;
pub mod world;

pub use error::ScenarioError;
pub use observe::metrics::RunResult;
pub use scenario::Scenario;
pub use world::World;

/// Version of the simulator, recorded in every result.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Validate a parsed scenario and build its world (flow reachability is checked here),
/// within the default budget.
pub fn prepare(scenario: &Scenario) -> Result<World, ScenarioError> {
    prepare_with(scenario, &RunOptions::default())
}

/// Validate a parsed scenario, check it against the options' budget, build its world and
/// apply the options (traces, time series).
pub fn prepare_with(scenario: &Scenario, options: &RunOptions) -> Result<World, ScenarioError> {
    scenario::validate(scenario)?;
    let budget = options.budget()?;
    budget.check_needs(&scenario.needs(options.series_interval_s))?;
    let mut world = World::build_within(scenario, budget)?;
    options.apply(&mut world)?;
    Ok(world)
}

/// Run a scenario to completion (an error if it passes the default budget).
pub fn run(scenario: &Scenario) -> Result<RunResult, ScenarioError> {
    let mut world = prepare(scenario)?;
    world.run()?;
    world.finish();
    Ok(world.result(scenario_doc(scenario)))
}

/// Validate a scenario given as JSON; returns the fully resolved scenario as JSON.
pub fn validate_json(scenario_json: &str) -> Result<String, ScenarioError> {
    validate_json_within(scenario_json, &RunOptions::default())
}

/// Validate a scenario given as JSON against the budget of `options` (its world is built,
/// nothing is recorded); returns the fully resolved scenario as JSON.
pub fn validate_json_within(
    scenario_json: &str,
    options: &RunOptions,
) -> Result<String, ScenarioError> {
    let scenario = scenario::parse_json(scenario_json)?;
    scenario::validate(&scenario)?;
    let budget = options.budget()?;
    budget.check_needs(&scenario.needs(options.series_interval_s))?;
    World::build_within(&scenario, budget)?;
    Ok(serde_json::to_string(&scenario).expect("scenario serialises"))
}

/// Validate a scenario given as JSON; returns its layout as JSON: node positions at time 0,
/// their moves, and every flow with random traffic drawn (`world::Layout`).
pub fn layout_json(scenario_json: &str) -> Result<String, ScenarioError> {
    let scenario = scenario::parse_json(scenario_json)?;
    scenario::validate(&scenario)?;
    let layout = world::layout(&scenario)?;
    Ok(serde_json::to_string(&layout).expect("layout serialises"))
}

/// How to run (what to record besides the results); none of it changes the results.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RunOptions {
    /// Directory for one radiotap/802.11 pcap per node.
    pub pcap_dir: Option<std::path::PathBuf>,
    /// Directory for one raw-IP pcap per flow endpoint.
    pub pcap_ip_dir: Option<std::path::PathBuf>,
    /// Stream the event trace (one CSV row per event at every layer) to this file.
    pub event_trace: Option<std::path::PathBuf>,
    /// Sample per-flow cwnd and goodput at this interval.
    pub series_interval_s: Option<f64>,
    /// The run's budget (default `budget::DEFAULT_MAX_EVENTS`, `DEFAULT_MAX_MEMORY_MB`).
    pub max_events: Option<u64>,
    pub max_memory_mb: Option<f64>,
}

impl RunOptions {
    pub fn from_json(text: &str) -> Result<RunOptions, ScenarioError> {
        serde_json::from_str(text).map_err(|e| ScenarioError {
            key: "options".into(),
            message: format!("run options: {e}"),
        })
    }

    /// The budget these options set.
    pub fn budget(&self) -> Result<engine::budget::Budget, ScenarioError> {
        let mut b = engine::budget::Budget::default();
        if let Some(n) = self.max_events {
            if n == 0 {
                return Err(ScenarioError::invalid("max_events", n, "must be at least 1 event"));
            }
            b.max_events = n;
        }
        if let Some(mb) = self.max_memory_mb {
            if !(mb.is_finite() && (1.0..=1e9).contains(&mb)) {
                return Err(ScenarioError::invalid(
                    "max_memory_mb",
                    mb,
                    "must be a number of megabytes between 1 and 1e9",
                ));
            }
            b.max_memory_mb = mb;
        }
        if let Some(s) = self.series_interval_s {
            if !(s.is_finite() && (1e-6..=scenario::MAX_TIME_S).contains(&s)) {
                return Err(ScenarioError::invalid(
                    "series_interval_s",
                    s,
                    "must be a number of seconds between 1e-6 and 1e7",
                ));
            }
        }
        Ok(b)
    }

    /// Apply to a freshly built world (creates the trace directories).
    pub fn apply(&self, world: &mut World) -> Result<(), ScenarioError> {
        if let Some(s) = self.series_interval_s {
            world.enable_series(engine::time::secs_to_ns(s).max(1));
        }
        if self.pcap_dir.is_some() || self.pcap_ip_dir.is_some() {
            let tracer = observe::trace::writer::PcapTracer::new(
                self.pcap_dir.clone(),
                self.pcap_ip_dir.clone(),
            )
            .map_err(|e| {
                let (key, dir) = match (&self.pcap_dir, &self.pcap_ip_dir) {
                    (Some(d), _) => ("pcap_dir", d),
                    (None, Some(d)) => ("pcap_ip_dir", d),
                    (None, None) => unreachable!("checked above"),
                };
                ScenarioError::invalid(
                    key,
                    dir.display(),
                    &format!("must be a directory that can be created and written ({e})"),
                )
            })?;
            world.attach_tracer(tracer);
        }
        if let Some(path) = &self.event_trace {
            let trace = observe::events::EventTrace::create(path).map_err(|e| {
                ScenarioError::invalid(
                    "trace",
                    path.display(),
                    &format!("must be a file that can be created and written ({e})"),
                )
            })?;
            world.attach_events(trace);
        }
        Ok(())
    }
}

/// Parse and validate a scenario given as JSON and build its world with `options`, ready to
/// run.
pub fn prepare_json(
    scenario_json: &str,
    options: &RunOptions,
) -> Result<(Scenario, World), ScenarioError> {
    let scenario = scenario::parse_json(scenario_json)?;
    let world = prepare_with(&scenario, options)?;
    Ok((scenario, world))
}

/// The result document of a finished world as JSON (closes its traces first).
pub fn result_json(world: &mut World, scenario: &Scenario) -> String {
    world.finish();
    serde_json::to_string(&world.result(scenario_doc(scenario))).expect("result serialises")
}

/// Run a scenario given as JSON; returns the result document as JSON.
pub fn run_json(scenario_json: &str) -> Result<String, ScenarioError> {
    run_json_with(scenario_json, &RunOptions::default())
}

/// Run a scenario given as JSON with run options.
pub fn run_json_with(scenario_json: &str, options: &RunOptions) -> Result<String, ScenarioError> {
    let (scenario, mut world) = prepare_json(scenario_json, options)?;
    world.run()?;
    Ok(result_json(&mut world, &scenario))
}

/// The scenario as the result document repeats it (defaults filled in).
fn scenario_doc(scenario: &Scenario) -> Box<serde_json::value::RawValue> {
    serde_json::value::to_raw_value(scenario).expect("scenario serialises")
}

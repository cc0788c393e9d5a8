//! hopsim-core: a fast, deterministic packet-level simulator of TCP over multihop IEEE 802.11
//! ad hoc networks. The layout follows the protocol stack: `phy`, `mac`, `queue`, `net`,
//! `transport`; `world` runs the events and glues the layers together.

pub mod error;
pub mod event;
pub mod mac;
pub mod metrics;
pub mod mobility;
pub mod net;
pub mod phy;
pub mod queue;
pub mod rng;
pub mod scenario;
pub mod sched;
pub mod time;
pub mod topology;
pub mod trace;
pub mod transport;
pub mod world;

pub use error::ScenarioError;
pub use metrics::RunResult;
pub use scenario::Scenario;
pub use world::World;

/// Version of the simulator, recorded in every result.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Validate a parsed scenario and build its world (flow reachability is checked here).
pub fn prepare(scenario: &Scenario) -> Result<World, ScenarioError> {
    scenario::validate(scenario)?;
    World::build(scenario)
}

/// Run a scenario to completion.
pub fn run(scenario: &Scenario) -> Result<RunResult, ScenarioError> {
    let mut world = prepare(scenario)?;
    world.run();
    world.finish();
    Ok(world.result(scenario))
}

/// Validate a scenario given as JSON; returns the fully resolved scenario as JSON.
pub fn validate_json(scenario_json: &str) -> Result<String, ScenarioError> {
    let scenario = scenario::parse_json(scenario_json)?;
    prepare(&scenario)?;
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
    /// Sample per-flow cwnd and goodput at this interval.
    pub series_interval_s: Option<f64>,
}

impl RunOptions {
    pub fn from_json(text: &str) -> Result<RunOptions, ScenarioError> {
        serde_json::from_str(text).map_err(|e| ScenarioError {
            key: "options".into(),
            message: format!("run options: {e}"),
        })
    }

    /// Apply to a freshly built world (creates the trace directories).
    pub fn apply(&self, world: &mut World) -> Result<(), ScenarioError> {
        if let Some(s) = self.series_interval_s {
            if !(s.is_finite() && s > 0.0) {
                return Err(ScenarioError::invalid(
                    "series_interval_s",
                    s,
                    "must be a positive number of seconds",
                ));
            }
            world.enable_series(time::secs_to_ns(s).max(1));
        }
        if self.pcap_dir.is_some() || self.pcap_ip_dir.is_some() {
            let tracer =
                trace::writer::PcapTracer::new(self.pcap_dir.clone(), self.pcap_ip_dir.clone())
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
        Ok(())
    }
}

/// Parse and validate a scenario given as JSON and build its world, ready to run.
pub fn prepare_json(scenario_json: &str) -> Result<(Scenario, World), ScenarioError> {
    let scenario = scenario::parse_json(scenario_json)?;
    let world = prepare(&scenario)?;
    Ok((scenario, world))
}

/// The result document of a finished world as JSON (closes its traces first).
pub fn result_json(world: &mut World, scenario: &Scenario) -> String {
    world.finish();
    serde_json::to_string(&world.result(scenario)).expect("result serialises")
}

/// Run a scenario given as JSON; returns the result document as JSON.
pub fn run_json(scenario_json: &str) -> Result<String, ScenarioError> {
    run_json_with(scenario_json, &RunOptions::default())
}

/// Run a scenario given as JSON with run options.
pub fn run_json_with(scenario_json: &str, options: &RunOptions) -> Result<String, ScenarioError> {
    let (scenario, mut world) = prepare_json(scenario_json)?;
    options.apply(&mut world)?;
    world.run();
    Ok(result_json(&mut world, &scenario))
}

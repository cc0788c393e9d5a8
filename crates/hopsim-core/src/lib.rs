//! hopsim-core: a fast, deterministic packet-level simulator of TCP over multihop IEEE 802.11
//! ad hoc networks. The layout follows the protocol stack: `phy`, `mac`, `queue`, `net`,
//! `transport`; `world` runs the events and glues the layers together.

pub mod error;
pub mod event;
pub mod mac;
pub mod metrics;
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
    Ok(world.result(scenario))
}

/// Validate a scenario given as JSON; returns the fully resolved scenario as JSON.
pub fn validate_json(scenario_json: &str) -> Result<String, ScenarioError> {
    let scenario = scenario::parse_json(scenario_json)?;
    prepare(&scenario)?;
    Ok(serde_json::to_string(&scenario).expect("scenario serialises"))
}

/// Parse and validate a scenario given as JSON and build its world, ready to run.
pub fn prepare_json(scenario_json: &str) -> Result<(Scenario, World), ScenarioError> {
    let scenario = scenario::parse_json(scenario_json)?;
    let world = prepare(&scenario)?;
    Ok((scenario, world))
}

/// The result document of a finished world as JSON.
pub fn result_json(world: &World, scenario: &Scenario) -> String {
    serde_json::to_string(&world.result(scenario)).expect("result serialises")
}

/// Run a scenario given as JSON; returns the result document as JSON.
pub fn run_json(scenario_json: &str) -> Result<String, ScenarioError> {
    let scenario = scenario::parse_json(scenario_json)?;
    let result = run(&scenario)?;
    Ok(serde_json::to_string(&result).expect("result serialises"))
}

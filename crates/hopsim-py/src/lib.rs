//! `hopsim._core`: thin PyO3 bindings over `hopsim-core`.
//!
//! The Python package serialises the scenario dict to JSON, calls `run_json` /
//! `validate_json` here, and parses the JSON answer. All simulation work happens with
//! the GIL released, so Python threads (progress bars, other runs) keep going.

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::panic::{catch_unwind, AssertUnwindSafe};

mod gym;
mod simulation;

create_exception!(
    hopsim._core,
    ScenarioError,
    PyValueError,
    "A rejected scenario: the message names the key, the value and what is allowed."
);

create_exception!(
    hopsim._core,
    InternalError,
    PyRuntimeError,
    "A bug in hopsim's core (a Rust panic), raised as an ordinary exception."
);

fn to_py_err(err: hopsim_core::ScenarioError) -> PyErr {
    ScenarioError::new_err(err.message)
}

/// Run `f`, turning a panic (a bug: no input may cause one) into `InternalError`, which
/// `except Exception` catches (pyo3's own PanicException derives from BaseException).
fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".into());
        Err(InternalError::new_err(format!("hopsim core panicked: {what}")))
    })
}

/// Run a scenario given as a JSON document; returns the result document as JSON.
///
/// Raises `ScenarioError` (a `ValueError`) when the scenario is rejected.
#[pyfunction]
#[pyo3(signature = (scenario_json, options_json=None))]
fn run_json(py: Python<'_>, scenario_json: &str, options_json: Option<&str>) -> PyResult<String> {
    guarded(|| run_json_inner(py, scenario_json, options_json))
}

fn run_json_inner(
    py: Python<'_>,
    scenario_json: &str,
    options_json: Option<&str>,
) -> PyResult<String> {
    let options = match options_json {
        Some(text) => hopsim_core::RunOptions::from_json(text).map_err(to_py_err)?,
        None => hopsim_core::RunOptions::default(),
    };
    let (scenario, mut world) =
        py.detach(|| hopsim_core::prepare_json(scenario_json, &options)).map_err(to_py_err)?;
    // Run in slices so that Ctrl-C (KeyboardInterrupt) is honoured during long runs;
    // slicing does not change the result.
    while !py.detach(|| world.run_events(EVENTS_PER_SLICE)).map_err(to_py_err)? {
        py.check_signals()?;
    }
    Ok(py.detach(|| hopsim_core::result_json(&mut world, &scenario)))
}

/// About 0.1-0.5 s of work between checks for signals.
const EVENTS_PER_SLICE: u64 = 2_000_000;

/// Validate a scenario given as a JSON document; returns the fully resolved scenario
/// (every default filled in) as JSON.
///
/// Raises `ScenarioError` (a `ValueError`) when the scenario is rejected.
/// `options_json`: run options whose budget (`max_events`, `max_memory_mb`) the scenario is
/// checked against, as a run would be; nothing else in them applies here.
#[pyfunction]
#[pyo3(signature = (scenario_json, options_json=None))]
fn validate_json(
    py: Python<'_>,
    scenario_json: &str,
    options_json: Option<&str>,
) -> PyResult<String> {
    guarded(|| {
        let options = match options_json {
            Some(text) => hopsim_core::RunOptions::from_json(text).map_err(to_py_err)?,
            None => hopsim_core::RunOptions::default(),
        };
        py.detach(|| hopsim_core::validate_json_within(scenario_json, &options)).map_err(to_py_err)
    })
}

/// Validate a scenario given as a JSON document; returns its layout as JSON: node positions
/// at time 0, each node's moves, and every flow (random traffic drawn).
///
/// Raises `ScenarioError` (a `ValueError`) when the scenario is rejected.
#[pyfunction]
fn layout_json(py: Python<'_>, scenario_json: &str) -> PyResult<String> {
    guarded(|| py.detach(|| hopsim_core::layout_json(scenario_json)).map_err(to_py_err))
}

/// Chen et al.'s Table 1: (largest round-trip hop count N of each row, optimal CWL), the
/// rows the core's `hop_based` window limit uses.
#[pyfunction]
fn chen_table1() -> Vec<(u32, f64)> {
    hopsim_core::transport::tcp::limits::CHEN_TABLE1.to_vec()
}

/// The result schema (`hopsim_core::observe::schema`): one dict per key of the result document with
/// `level`, `name`, `kind`, `nullable`, `unit`, `metric`, `present` and `description`.
#[pyfunction]
fn result_schema(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    hopsim_core::observe::schema::RESULT_SCHEMA
        .iter()
        .map(|f| {
            let d = PyDict::new(py);
            d.set_item("level", f.level)?;
            d.set_item("name", f.name)?;
            d.set_item("kind", f.kind)?;
            d.set_item("nullable", f.nullable)?;
            d.set_item("unit", f.unit)?;
            d.set_item("metric", f.metric)?;
            d.set_item("present", f.present)?;
            d.set_item("description", f.description)?;
            Ok(d)
        })
        .collect()
}

/// The levels of the result document, in order: (level, where it sits).
#[pyfunction]
fn result_levels() -> Vec<(&'static str, &'static str)> {
    hopsim_core::observe::schema::LEVELS.to_vec()
}

/// The rows (good_mean_s, bad_mean_s, loss_good, loss_bad) of a compiled-in set of fitted
/// links (`radio.gilbert_elliott.drawn_from`), by its scenario name.
#[pyfunction]
fn fitted_links_rows(name: &str) -> PyResult<Vec<[f64; 4]>> {
    let all = hopsim_core::phy::dynamics::FittedLinks::ALL;
    let set = all.iter().find(|s| s.name() == name).ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(|s| s.name()).collect();
        ScenarioError::new_err(format!("no fitted link set {name:?}; there are {names:?}"))
    })?;
    Ok(set.rows().to_vec())
}

/// The TCP variants' scenario names (`tcp.variant`), in the core's order: its one list.
#[pyfunction]
fn tcp_variants() -> Vec<&'static str> {
    hopsim_core::scenario::TcpVariant::ALL.iter().map(|v| v.name()).collect()
}

/// Panic on purpose, through the same guard as every entry point: lets the tests check that
/// a bug in the core reaches Python as `InternalError`, an ordinary `Exception`.
#[pyfunction]
fn _panic_for_test(message: &str) -> PyResult<()> {
    guarded(|| panic!("{message}"))
}

#[pymodule(gil_used = false)]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", hopsim_core::VERSION)?;
    // build.rs: profile-guided, plain release, ... (hopsim --version prints it).
    m.add("BUILD", env!("HOPSIM_BUILD"))?;
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add("InternalError", m.py().get_type::<InternalError>())?;
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add_class::<simulation::Simulation>()?;
    m.add_class::<gym::WindowEnvCore>()?;
    m.add_class::<gym::VecWindowEnvCore>()?;
    m.add_function(wrap_pyfunction!(validate_json, m)?)?;
    m.add_function(wrap_pyfunction!(layout_json, m)?)?;
    m.add_function(wrap_pyfunction!(chen_table1, m)?)?;
    m.add_function(wrap_pyfunction!(result_schema, m)?)?;
    m.add_function(wrap_pyfunction!(result_levels, m)?)?;
    m.add_function(wrap_pyfunction!(tcp_variants, m)?)?;
    m.add_function(wrap_pyfunction!(fitted_links_rows, m)?)?;
    m.add(
        "KAWADIA_SEGMENTS_PER_HOP",
        hopsim_core::transport::tcp::limits::KAWADIA_SEGMENTS_PER_HOP,
    )?;
    m.add("LINUX_RCVWND_MAX_SEGMENTS", hopsim_core::transport::tcp::linux::RCVWND_MAX_SEGMENTS)?;
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    Ok(())
}

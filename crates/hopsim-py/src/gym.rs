//! `hopsim._core.WindowEnvCore` and `VecWindowEnvCore`: the engine side of `hopsim.gym`
//! (issue 35; `hopsim_core::control`). A step's result crosses to Python as one bytes object
//! of native-endian f64, `ROW` per run: the observation (`OBS_FIELDS`), then terminated,
//! truncated (1.0 / 0.0) and the simulated time in seconds; numpy reads it without a copy
//! per field.

use std::sync::Mutex;

use hopsim_core::control::{
    Action, ControlConfig, ControlPool, StepLength, StepOut, WindowControl, OBS_FIELDS, OBS_LEN,
};
use hopsim_core::engine::time::secs_to_ns;
use hopsim_core::scenario::Scenario;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::{guarded, to_py_err};

/// f64 per run in a step's bytes.
const ROW: usize = OBS_LEN + 3;

fn push_row(buf: &mut Vec<u8>, out: &StepOut) {
    let tail = [f64::from(u8::from(out.terminated)), f64::from(u8::from(out.truncated)), out.now_s];
    for v in out.obs.iter().chain(&tail) {
        buf.extend_from_slice(&v.to_ne_bytes());
    }
}

/// The controller's settings, from the Python keywords (checked there, and here again).
fn config(
    flow: usize,
    action: &str,
    step_s: f64,
    step_rtt: bool,
    low: f64,
    high: f64,
    warmup_s: f64,
) -> PyResult<ControlConfig> {
    let action = match action {
        "window_limit" => Action::WindowLimit,
        "cwnd" => Action::Cwnd,
        other => {
            return Err(PyValueError::new_err(format!(
                "action = {other:?}: \"window_limit\" or \"cwnd\""
            )))
        }
    };
    if !(step_s.is_finite() && step_s > 0.0 && warmup_s.is_finite() && warmup_s >= 0.0) {
        return Err(PyValueError::new_err(format!(
            "step_s = {step_s}, warmup_s = {warmup_s}: step_s > 0, warmup_s >= 0 seconds"
        )));
    }
    let ns = secs_to_ns(step_s);
    let step = if step_rtt { StepLength::Rtt { min_ns: ns } } else { StepLength::Fixed(ns) };
    Ok(ControlConfig {
        flow,
        action,
        step,
        action_low: low,
        action_high: high,
        warmup_ns: secs_to_ns(warmup_s),
    })
}

/// A run built from `scenario_json` with `flows` under the controller `cfg`, warmed up, and
/// its scenario (for the result).
fn build_with_scenario(
    py: Python<'_>,
    scenario_json: &str,
    cfg: ControlConfig,
    flows: Vec<usize>,
) -> PyResult<(Scenario, WindowControl)> {
    py.detach(|| {
        let options = hopsim_core::RunOptions::default();
        let (scenario, world) = hopsim_core::prepare_json(scenario_json, &options)?;
        Ok((scenario, WindowControl::with_flows(world, cfg, flows)?))
    })
    .map_err(to_py_err)
}

fn build(
    py: Python<'_>,
    scenario_json: &str,
    cfg: ControlConfig,
    flows: Vec<usize>,
) -> PyResult<WindowControl> {
    Ok(build_with_scenario(py, scenario_json, cfg, flows)?.1)
}

/// The last step's rows of `run`, one per flow, appended to `buf`.
fn push_rows(buf: &mut Vec<u8>, run: &WindowControl) {
    for k in 0..run.flows().len() {
        push_row(buf, &run.out(k));
    }
}

/// One run under a window controller of one flow or several (`hopsim.gym.WindowEnv`, and
/// `FlowsParallelEnv` with one row per flow).
#[pyclass(module = "hopsim._core")]
pub struct WindowEnvCore {
    cfg: ControlConfig,
    flows: Vec<usize>,
    run: Mutex<Option<(Scenario, WindowControl)>>,
}

#[pymethods]
impl WindowEnvCore {
    #[new]
    #[pyo3(signature = (flows, action, step_s, step_rtt, low, high, warmup_s))]
    fn new(
        flows: Vec<usize>,
        action: &str,
        step_s: f64,
        step_rtt: bool,
        low: f64,
        high: f64,
        warmup_s: f64,
    ) -> PyResult<Self> {
        let first = flows.first().copied().unwrap_or(0);
        let cfg = config(first, action, step_s, step_rtt, low, high, warmup_s)?;
        Ok(WindowEnvCore { cfg, flows, run: Mutex::new(None) })
    }

    /// The observation's field names, in order.
    #[staticmethod]
    fn fields() -> Vec<&'static str> {
        OBS_FIELDS.to_vec()
    }

    /// A new episode: the run of `scenario_json`, warmed up; its first rows (one per flow).
    fn reset<'py>(&self, py: Python<'py>, scenario_json: &str) -> PyResult<Bound<'py, PyBytes>> {
        guarded(|| {
            let (scenario, run) =
                build_with_scenario(py, scenario_json, self.cfg, self.flows.clone())?;
            let mut rows = Vec::with_capacity(self.flows.len() * ROW * 8);
            push_rows(&mut rows, &run);
            *self.run.lock().map_err(|_| PyValueError::new_err("a failed run"))? =
                Some((scenario, run));
            Ok(PyBytes::new(py, &rows))
        })
    }

    /// One action per flow and one step; one row per flow.
    fn step_flows<'py>(&self, py: Python<'py>, actions: Vec<f64>) -> PyResult<Bound<'py, PyBytes>> {
        guarded(|| {
            let mut guard = self.run.lock().map_err(|_| PyValueError::new_err("a failed run"))?;
            let (_, run) = guard.as_mut().ok_or_else(|| PyValueError::new_err("reset() first"))?;
            run.step_flows(&actions).map_err(to_py_err)?;
            let mut rows = Vec::with_capacity(actions.len() * ROW * 8);
            push_rows(&mut rows, run);
            Ok(PyBytes::new(py, &rows))
        })
    }

    /// Apply `action` (segments) and run one step; its row.
    fn step<'py>(&self, py: Python<'py>, action: f64) -> PyResult<Bound<'py, PyBytes>> {
        guarded(|| {
            let mut guard = self.run.lock().map_err(|_| PyValueError::new_err("a failed run"))?;
            let (_, run) = guard.as_mut().ok_or_else(|| PyValueError::new_err("reset() first"))?;
            let out = run.step(action).map_err(to_py_err)?;
            let mut buf = Vec::with_capacity(ROW * 8);
            push_row(&mut buf, &out);
            Ok(PyBytes::new(py, &buf))
        })
    }

    /// The run's live state as JSON (`Simulation.state()`), for `info`.
    fn state_json(&self) -> PyResult<String> {
        let guard = self.run.lock().map_err(|_| PyValueError::new_err("a failed run"))?;
        let (_, run) = guard.as_ref().ok_or_else(|| PyValueError::new_err("reset() first"))?;
        Ok(run.world().live_state_json())
    }

    /// The ended episode's result document as JSON (`hopsim.Result`); the run is then
    /// closed (reset() starts the next).
    fn result_json(&self, py: Python<'_>) -> PyResult<String> {
        guarded(|| {
            let mut guard = self.run.lock().map_err(|_| PyValueError::new_err("a failed run"))?;
            let Some((_, run)) = guard.as_ref() else {
                return Err(PyValueError::new_err("no episode: reset() and step it to its end"));
            };
            if !run.truncated() {
                let at = run.world().now_ns() as f64 * 1e-9;
                return Err(PyValueError::new_err(format!(
                    "the episode is at {at} s: its result is there once it is truncated"
                )));
            }
            let (scenario, run) = guard.take().expect("checked above");
            let mut world = run.into_world();
            Ok(py.detach(|| hopsim_core::result_json(&mut world, &scenario)))
        })
    }
}

/// Runs stepped together on native threads (`hopsim.gym.VecWindowEnv`).
#[pyclass(module = "hopsim._core")]
pub struct VecWindowEnvCore {
    cfg: ControlConfig,
    pool: Mutex<ControlPool>,
    outs: Mutex<Vec<Result<StepOut, hopsim_core::ScenarioError>>>,
    /// The first rows, until taken.
    first: Mutex<Vec<u8>>,
}

#[pymethods]
impl VecWindowEnvCore {
    /// One run per scenario document, stepped by `workers` threads; its first rows are
    /// `first_rows()`.
    #[new]
    #[pyo3(signature = (scenarios, workers, flow, action, step_s, step_rtt, low, high, warmup_s))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        scenarios: Vec<String>,
        workers: usize,
        flow: usize,
        action: &str,
        step_s: f64,
        step_rtt: bool,
        low: f64,
        high: f64,
        warmup_s: f64,
    ) -> PyResult<Self> {
        guarded(|| {
            let cfg = config(flow, action, step_s, step_rtt, low, high, warmup_s)?;
            let mut runs = Vec::with_capacity(scenarios.len());
            let mut buf = Vec::with_capacity(scenarios.len() * ROW * 8);
            for s in &scenarios {
                let run = build(py, s, cfg, vec![cfg.flow])?;
                push_rows(&mut buf, &run);
                runs.push(run);
            }
            let pool = Mutex::new(ControlPool::new(runs, workers));
            let (outs, first) = (Mutex::new(Vec::new()), Mutex::new(buf));
            Ok(VecWindowEnvCore { cfg, pool, outs, first })
        })
    }

    /// The runs' first rows (after their warm-up); empty once taken.
    fn first_rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let mut first = self.first.lock().map_err(|_| PyValueError::new_err("a failed run"))?;
        Ok(PyBytes::new(py, &std::mem::take(&mut *first)))
    }

    /// Threads stepping the runs (the caller's included).
    #[getter]
    fn workers(&self) -> PyResult<usize> {
        Ok(self.pool.lock().map_err(|_| PyValueError::new_err("a failed run"))?.workers())
    }

    /// Step every run with its action (the GIL released); one row per run.
    fn step<'py>(&self, py: Python<'py>, actions: Vec<f64>) -> PyResult<Bound<'py, PyBytes>> {
        guarded(|| {
            let mut pool = self.pool.lock().map_err(|_| PyValueError::new_err("a failed run"))?;
            if actions.len() != pool.len() {
                return Err(PyValueError::new_err(format!(
                    "{} actions for {} environments",
                    actions.len(),
                    pool.len()
                )));
            }
            let mut outs = self.outs.lock().map_err(|_| PyValueError::new_err("a failed run"))?;
            let (pool, outs_mut): (&mut ControlPool, &mut Vec<_>) = (&mut pool, &mut outs);
            py.detach(|| pool.step(&actions, outs_mut));
            let mut buf = Vec::with_capacity(outs.len() * ROW * 8);
            for o in outs.iter() {
                push_row(&mut buf, o.as_ref().map_err(|e| to_py_err(e.clone()))?);
            }
            Ok(PyBytes::new(py, &buf))
        })
    }

    /// Run `i` starts a new episode from `scenario_json`; its first row.
    fn reset_one<'py>(
        &self,
        py: Python<'py>,
        i: usize,
        scenario_json: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        guarded(|| {
            let mut pool = self.pool.lock().map_err(|_| PyValueError::new_err("a failed run"))?;
            if i >= pool.len() {
                return Err(PyValueError::new_err(format!("environment {i} of {}", pool.len())));
            }
            let run = build(py, scenario_json, self.cfg, vec![self.cfg.flow])?;
            let mut buf = Vec::with_capacity(ROW * 8);
            push_rows(&mut buf, &run);
            pool.replace(i, run);
            Ok(PyBytes::new(py, &buf))
        })
    }
}

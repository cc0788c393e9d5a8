//! `hopsim._core.Simulation`: a run that can be paused, continued and forked (issue 35).
//! Work runs with the GIL released, in slices between which Ctrl-C is honoured.

use std::sync::{Mutex, MutexGuard};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::{guarded, to_py_err, EVENTS_PER_SLICE};

/// A built run: `run_until(t)` pauses it before `t`, `fork()` copies it whole, and
/// `result_json()` gives its result document once it has reached its end.
#[pyclass(module = "hopsim._core")]
pub struct Simulation {
    /// Behind a lock: Python may call from any thread (the world itself is not `Sync`).
    inner: Mutex<Inner>,
}

struct Inner {
    scenario: hopsim_core::scenario::Scenario,
    world: hopsim_core::World,
    /// The result was taken (its traces closed): the run cannot go on.
    closed: bool,
}

impl Inner {
    fn check_open(&self) -> PyResult<()> {
        if self.closed {
            return Err(PyValueError::new_err(
                "this run's result was taken: fork it before taking the result to go on",
            ));
        }
        Ok(())
    }
}

impl Simulation {
    fn wrap(scenario: hopsim_core::scenario::Scenario, world: hopsim_core::World) -> Self {
        Simulation { inner: Mutex::new(Inner { scenario, world, closed: false }) }
    }

    /// A change to the open run, refused as a `ScenarioError` naming what was asked.
    fn change(
        &self,
        f: impl FnOnce(&mut hopsim_core::World) -> Result<(), hopsim_core::ScenarioError>,
    ) -> PyResult<()> {
        guarded(|| {
            let mut inner = self.lock()?;
            inner.check_open()?;
            f(&mut inner.world).map_err(to_py_err)
        })
    }

    fn lock(&self) -> PyResult<MutexGuard<'_, Inner>> {
        self.inner
            .lock()
            .map_err(|_| PyValueError::new_err("this run failed in another call and cannot go on"))
    }
}

#[pymethods]
impl Simulation {
    #[new]
    #[pyo3(signature = (scenario_json, options_json=None))]
    fn new(py: Python<'_>, scenario_json: &str, options_json: Option<&str>) -> PyResult<Self> {
        guarded(|| {
            let options = match options_json {
                Some(text) => hopsim_core::RunOptions::from_json(text).map_err(to_py_err)?,
                None => hopsim_core::RunOptions::default(),
            };
            let (scenario, world) = py
                .detach(|| hopsim_core::prepare_json(scenario_json, &options))
                .map_err(to_py_err)?;
            Ok(Simulation::wrap(scenario, world))
        })
    }

    /// Simulated time in seconds: where the run is paused, or its end.
    #[getter]
    fn now_s(&self) -> PyResult<f64> {
        Ok(self.lock()?.world.now_ns() as f64 * 1e-9)
    }

    /// When the run ends, in seconds (the scenario's `duration_s`).
    #[getter]
    fn end_s(&self) -> PyResult<f64> {
        Ok(self.lock()?.world.end_ns() as f64 * 1e-9)
    }

    /// Run the events before `time_s` (all of them when it is at or past the end); returns
    /// whether the run has reached its end.
    fn run_until(&self, py: Python<'_>, time_s: f64) -> PyResult<bool> {
        guarded(|| {
            let mut inner = self.lock()?;
            inner.check_open()?;
            if !time_s.is_finite() || time_s < 0.0 {
                return Err(PyValueError::new_err(format!(
                    "time_s = {time_s}: a simulated time in seconds, 0 or more"
                )));
            }
            let end_ns = inner.world.end_ns();
            let until_ns = hopsim_core::engine::time::secs_to_ns(time_s.min(end_ns as f64 * 1e-9));
            let world = &mut inner.world;
            while !py
                .detach(|| world.run_events_until(until_ns, EVENTS_PER_SLICE))
                .map_err(to_py_err)?
            {
                py.check_signals()?;
            }
            Ok(until_ns >= end_ns)
        })
    }

    /// Every flow's and node's state now, as JSON (`hopsim_core::world::LiveState`); reading
    /// it changes nothing.
    fn state_json(&self) -> PyResult<String> {
        guarded(|| {
            let inner = self.lock()?;
            Ok(inner.world.live_state_json())
        })
    }

    /// Flow `flow`'s window limit from now on: a fixed CWL of `segments`, or none (None or
    /// 0). Raises `ScenarioError` naming the key for what cannot be changed so.
    #[pyo3(signature = (flow, segments))]
    fn set_window_limit(&self, flow: usize, segments: Option<f64>) -> PyResult<()> {
        guarded(|| {
            let mut inner = self.lock()?;
            inner.check_open()?;
            inner.world.set_window_limit(flow, segments).map_err(to_py_err)
        })
    }

    /// Flow `flow`'s congestion window = `segments` now (congestion control goes on from it).
    fn set_cwnd(&self, flow: usize, segments: f64) -> PyResult<()> {
        self.change(|w| w.set_cwnd(flow, segments))
    }

    /// Flow `flow`'s pacing rate (TCP: a maximum, None lifts it; paced UDP: its rate).
    #[pyo3(signature = (flow, rate_kbps))]
    fn set_pacing_rate(&self, flow: usize, rate_kbps: Option<f64>) -> PyResult<()> {
        self.change(|w| w.set_pacing_rate(flow, rate_kbps))
    }

    /// Flow `flow` starts (again) now.
    fn start_flow(&self, flow: usize) -> PyResult<()> {
        self.change(|w| w.start_flow(flow))
    }

    /// Flow `flow` has no new data from now on.
    fn stop_flow(&self, flow: usize) -> PyResult<()> {
        self.change(|w| w.stop_flow(flow))
    }

    /// The interface queue limit of `node` (every node when None) from now on.
    #[pyo3(signature = (node, packets))]
    fn set_queue_limit(&self, node: Option<usize>, packets: f64) -> PyResult<()> {
        self.change(|w| w.set_queue_limit(node, packets))
    }

    /// The route from `src` to `dst` as the tables hold it now (node ids; empty: none).
    fn route(&self, src: u32, dst: u32) -> PyResult<Vec<u32>> {
        guarded(|| {
            let inner = self.lock()?;
            let n = inner.world.node_count() as u32;
            if src >= n || dst >= n {
                let what = format!("node ids 0..{n}");
                let bad = if src >= n { src } else { dst };
                return Err(to_py_err(hopsim_core::ScenarioError::invalid("node", bad, &what)));
            }
            Ok(inner.world.route_now(hopsim_core::ids::NodeId(src), hopsim_core::ids::NodeId(dst)))
        })
    }

    /// An independent copy of the run as it stands, which continues exactly as this one
    /// would (random streams included). Refused for a run writing traces.
    fn fork(&self, py: Python<'_>) -> PyResult<Simulation> {
        guarded(|| {
            let mut inner = self.lock()?;
            inner.check_open()?;
            // Lent as `&mut`: the closure may move to another thread (the world is Send).
            let original = &mut inner.world;
            let world = py.detach(move || original.fork()).map_err(to_py_err)?;
            Ok(Simulation::wrap(inner.scenario.clone(), world))
        })
    }

    /// The result document as JSON; the run must have reached its end. Closes its traces:
    /// nothing more can be run or forked from it.
    fn result_json(&self, py: Python<'_>) -> PyResult<String> {
        guarded(|| {
            let mut inner = self.lock()?;
            let (now_ns, end_ns) = (inner.world.now_ns(), inner.world.end_ns());
            if now_ns < end_ns {
                return Err(PyValueError::new_err(format!(
                    "the run is at {} s of {} s: run it to its end first (run_until)",
                    now_ns as f64 * 1e-9,
                    end_ns as f64 * 1e-9
                )));
            }
            inner.closed = true;
            let Inner { world, scenario, .. } = &mut *inner;
            Ok(py.detach(|| hopsim_core::result_json(world, scenario)))
        })
    }
}

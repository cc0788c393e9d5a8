//! A run driven step by step by a controller that sets one TCP flow's window (issue 35): what
//! `hopsim.gym`'s environments step, and a Rust API of its own. Each step applies the action
//! (a window limit or a congestion window, in segments), runs a fixed simulated time or one
//! smoothed RTT, and observes the flow over that step (`Observation`). `pool.rs` steps many
//! such runs on native threads.

mod pool;

pub use pool::ControlPool;

use crate::engine::time::{secs_to_ns, SimDuration, SimTime};
use crate::error::ScenarioError;
use crate::ids::NodeId;
use crate::transport::flow::FlowApp;
use crate::world::{FlowProbe, World};

/// The observation's fields, in order (docs/interfaces.md, "Gymnasium environments").
pub const OBS_FIELDS: [&str; OBS_LEN] = [
    "cwnd_segments",
    "window_limit_segments",
    "rtt_ms",
    "min_rtt_ms",
    "rtt_samples",
    "goodput_kbps",
    "retransmissions",
    "timeouts",
    "mac_retries",
    "source_queue_packets",
    "route_changes",
    "hops",
];
pub const OBS_LEN: usize = 12;

/// What the action sets each step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// A fixed window limit (CWL, as `tcp.max_window`): congestion control runs under it.
    WindowLimit,
    /// The congestion window itself; congestion control goes on from it until the next step.
    Cwnd,
}

/// How long a step runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepLength {
    Fixed(SimDuration),
    /// One smoothed RTT of the flow, at least `min_ns` (and `min_ns` before a sample).
    Rtt {
        min_ns: SimDuration,
    },
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ControlConfig {
    pub flow: usize,
    pub action: Action,
    pub step: StepLength,
    /// Actions are clipped to [low, high] segments.
    pub action_low: f64,
    pub action_high: f64,
    /// Run this long before the first observation (no action applied before it).
    pub warmup_ns: SimTime,
}

/// What one step gives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepOut {
    pub obs: [f64; OBS_LEN],
    /// The transfer of a fixed size is complete.
    pub terminated: bool,
    /// The run reached its `duration_s`.
    pub truncated: bool,
    pub now_s: f64,
}

/// One run under a window controller of one flow or several (one action and one observation
/// per flow; a step's length follows the first flow's RTT in `StepLength::Rtt`).
#[derive(Clone)]
pub struct WindowControl {
    world: World,
    cfg: ControlConfig,
    flows: Vec<usize>,
    prev: Vec<FlowProbe>,
    /// Each flow's observation of the last step, and whether its transfer is complete.
    obs: Vec<[f64; OBS_LEN]>,
    completed: Vec<bool>,
    /// MAC retries of every node at the last step (the step's are differences).
    prev_retries: Vec<u64>,
    route: Vec<NodeId>,
}

impl WindowControl {
    /// Take over `world` (paused at its start or later) for `cfg` (the flow `cfg.flow`):
    /// checks the flow, runs the warm-up and gives the first observation.
    pub fn new(
        world: World,
        cfg: ControlConfig,
    ) -> Result<(WindowControl, StepOut), ScenarioError> {
        let c = WindowControl::with_flows(world, cfg, vec![cfg.flow])?;
        let out = c.out(0);
        Ok((c, out))
    }

    /// As [`WindowControl::new`] for every flow of `flows` (TCP flows, each once); the first
    /// observations are `observations()`.
    pub fn with_flows(
        world: World,
        cfg: ControlConfig,
        flows: Vec<usize>,
    ) -> Result<WindowControl, ScenarioError> {
        let n = world.flows().len();
        for (k, &flow) in flows.iter().enumerate() {
            let Some(f) = world.flows().get(flow) else {
                return Err(ScenarioError::invalid("flow", flow, &format!("a flow index 0..{n}")));
            };
            if !matches!(f.app, FlowApp::Tcp(_)) {
                let why = "a TCP flow (its window is what is set)";
                return Err(ScenarioError::invalid("flow", flow, why));
            }
            if flows[..k].contains(&flow) {
                return Err(ScenarioError::invalid("flow", flow, "each flow once"));
            }
        }
        if flows.is_empty() {
            return Err(ScenarioError::invalid("flows", "[]", "at least one flow"));
        }
        if !(cfg.action_low > 0.0 && cfg.action_low <= cfg.action_high && cfg.action_high <= 1e6) {
            return Err(ScenarioError::invalid(
                "action_range",
                format!("[{}, {}]", cfg.action_low, cfg.action_high),
                "0 < low <= high <= 1e6 segments",
            ));
        }
        let step_ns = match cfg.step {
            StepLength::Fixed(ns) | StepLength::Rtt { min_ns: ns } => ns,
        };
        if step_ns == 0 {
            return Err(ScenarioError::invalid("step_s", 0, "a step of at least 1 ns"));
        }
        let k = flows.len();
        let mut c = WindowControl {
            prev_retries: vec![0; world.node_count()],
            world,
            cfg,
            flows,
            prev: vec![FlowProbe::default(); k],
            obs: vec![[0.0; OBS_LEN]; k],
            completed: vec![false; k],
            route: Vec::new(),
        };
        c.world.run_until(cfg.warmup_ns.max(c.world.now_ns()))?;
        c.observe();
        Ok(c)
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    /// The run itself, for its result once it has ended (`hopsim_core::result_json`).
    pub fn into_world(self) -> World {
        self.world
    }

    pub fn config(&self) -> &ControlConfig {
        &self.cfg
    }

    /// The flows controlled, in the order of actions and observations.
    pub fn flows(&self) -> &[usize] {
        &self.flows
    }

    /// Each flow's observation of the last step (or of the warm-up's end).
    pub fn observations(&self) -> &[[f64; OBS_LEN]] {
        &self.obs
    }

    /// Has flow `k` (of `flows()`) completed its transfer?
    pub fn completed(&self, k: usize) -> bool {
        self.completed[k]
    }

    /// Has the run reached its `duration_s`?
    pub fn truncated(&self) -> bool {
        self.world.now_ns() >= self.world.end_ns()
    }

    /// The last step's result for flow `k`.
    pub fn out(&self, k: usize) -> StepOut {
        StepOut {
            obs: self.obs[k],
            terminated: self.completed[k],
            truncated: self.truncated(),
            now_s: self.world.now_ns() as f64 * 1e-9,
        }
    }

    /// Apply `action` (segments, clipped to the range), run one step, observe.
    pub fn step(&mut self, action: f64) -> Result<StepOut, ScenarioError> {
        self.step_flows(&[action])?;
        Ok(self.out(0))
    }

    /// Apply one action per flow, run one step, observe (`observations()`).
    pub fn step_flows(&mut self, actions: &[f64]) -> Result<(), ScenarioError> {
        if actions.len() != self.flows.len() {
            let why = format!("one action per flow controlled ({})", self.flows.len());
            return Err(ScenarioError::invalid(
                "action",
                format!("{} actions", actions.len()),
                &why,
            ));
        }
        for (&flow, &action) in self.flows.iter().zip(actions) {
            if action.is_nan() {
                return Err(ScenarioError::invalid("action", "NaN", "a number of segments"));
            }
            let w = action.clamp(self.cfg.action_low, self.cfg.action_high);
            match self.cfg.action {
                Action::WindowLimit => self.world.set_window_limit(flow, Some(w))?,
                Action::Cwnd => self.world.set_cwnd(flow, w)?,
            }
        }
        let length = match self.cfg.step {
            StepLength::Fixed(ns) => ns,
            StepLength::Rtt { min_ns } => {
                let srtt_ms = self.prev[0].srtt_ms;
                if srtt_ms.is_finite() {
                    secs_to_ns(srtt_ms * 1e-3).max(min_ns)
                } else {
                    min_ns
                }
            }
        };
        let until = self.world.now_ns().saturating_add(length).min(self.world.end_ns());
        self.world.run_until(until)?;
        self.observe();
        Ok(())
    }

    /// Each flow's step since the last observation; the probes kept for the next.
    fn observe(&mut self) {
        for k in 0..self.flows.len() {
            let p = self.world.probe_flow(self.flows[k], &mut self.route).expect("checked");
            let prev = std::mem::replace(&mut self.prev[k], p);
            let mut retries = 0;
            for node in self.route.iter().take(self.route.len().saturating_sub(1)) {
                let now = self.world.mac_retries(*node);
                retries += now.saturating_sub(self.prev_retries[node.index()]);
            }
            self.obs[k] = observation(&prev, &p, retries);
            self.completed[k] = p.completed;
        }
        for (i, r) in self.prev_retries.iter_mut().enumerate() {
            *r = self.world.mac_retries(NodeId(i as u32));
        }
    }
}

/// The observation of a step from the probes at its ends (`OBS_FIELDS`).
fn observation(prev: &FlowProbe, p: &FlowProbe, mac_retries: u64) -> [f64; OBS_LEN] {
    let dt_s = p.now_ns.saturating_sub(prev.now_ns) as f64 * 1e-9;
    let samples = p.rtt_samples - prev.rtt_samples;
    let rtt_ms = if samples > 0 {
        (p.rtt_sum_ms - prev.rtt_sum_ms) / samples as f64
    } else if p.srtt_ms.is_finite() {
        p.srtt_ms
    } else {
        0.0
    };
    let goodput_kbps = if dt_s > 0.0 {
        (p.delivered_bytes - prev.delivered_bytes) as f64 * 8.0 / dt_s * 1e-3
    } else {
        0.0
    };
    [
        p.cwnd_segments,
        p.window_limit_segments,
        rtt_ms,
        if p.min_rtt_ms.is_finite() { p.min_rtt_ms } else { 0.0 },
        samples as f64,
        goodput_kbps,
        (p.retransmissions - prev.retransmissions) as f64,
        (p.timeouts - prev.timeouts) as f64,
        mac_retries as f64,
        p.source_queue_packets as f64,
        (p.route_changes - prev.route_changes) as f64,
        p.hops as f64,
    ]
}

#[cfg(test)]
mod tests;

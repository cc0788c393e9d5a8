//! The outside interferers on the air (phy/interferer.rs): two events per period on the air,
//! its start and its end, as for a frame. At its start the energy is registered with every
//! node it reaches (its power by the radio's path loss, arrival times carrying the
//! propagation delay); the receivers decide what it does (`Receiver::foreign_start`). It is
//! no frame: nothing is decoded from it, nothing completes when it ends, and it never causes
//! EIFS by itself. The nodes it reaches are worked out once for static nodes and at the start
//! of each period for moving ones (over every node: periods are rare beside frames).

use super::event::{Event, SimEvent};
use super::World;
use crate::engine::rng::{Purpose, Rng};
use crate::engine::sched::Scheduler;
use crate::engine::time::{secs_to_ns, SimTime};
use crate::ids::NodeId;
use crate::observe::metrics::InterferenceResult;
use crate::phy::interferer::{Interferer, OnOff};
use crate::phy::links::LinkModel;
use crate::phy::propagation::{delay_ns, distance_m, PathLoss};
use crate::phy::radio::FrameRef;

use crate::scenario::{Scenario, MAX_INTERFERERS};

/// The frame reference of interferer `k`'s period `serial`.
fn source_ref(k: usize, serial: u32) -> FrameRef {
    FrameRef { tx: NodeId(u32::MAX - k as u32), serial }
}

/// Is `tx` an interferer rather than a node?
pub(super) fn is_foreign(tx: NodeId) -> bool {
    tx.0 > u32::MAX - MAX_INTERFERERS as u32
}

#[derive(Debug, Clone)]
struct Source {
    process: OnOff,
    at_m: [f64; 2],
    power_w: f64,
    start_ns: SimTime,
    stop_ns: SimTime,
    /// The nodes the current period reaches: node, power (W), propagation delay (ns).
    reach: Vec<(NodeId, f64, u64)>,
    /// The length of the next period on the air when already drawn (the first one).
    next_on_ns: Option<SimTime>,
    serial: u32,
    periods: u64,
    on_ns: SimTime,
}

#[derive(Debug, Clone)]
pub(super) struct Interference {
    sources: Vec<Source>,
    path: PathLoss,
    /// Weaker than this, the energy is no signal at a node (the links' own floor).
    floor_w: f64,
    moving: bool,
}

impl Interference {
    /// The interferers of a run ending at `end_ns`, over nodes at `positions` (their
    /// starting points when `moving`).
    pub fn new(
        list: &[Interferer],
        (seed, end_ns): (u64, SimTime),
        model: &LinkModel,
        positions: &[[f64; 2]],
        moving: bool,
    ) -> Option<Interference> {
        if list.is_empty() {
            return None;
        }
        let mut me = Interference {
            sources: Vec::with_capacity(list.len()),
            path: model.path.clone(),
            floor_w: model.floor_w,
            moving,
        };
        for (k, cfg) in list.iter().enumerate() {
            let rng = Rng::derive(seed, Purpose::Interference, k as u64);
            me.sources.push(Source {
                process: OnOff::new(*cfg, rng),
                at_m: [cfg.x_m, cfg.y_m],
                power_w: cfg.power_w(),
                start_ns: secs_to_ns(cfg.start_s),
                stop_ns: cfg.stop_s.map_or(end_ns, secs_to_ns).min(end_ns),
                reach: Vec::new(),
                next_on_ns: None,
                serial: 0,
                periods: 0,
                on_ns: 0,
            });
            if !moving {
                me.reach(k, positions.len(), |j| positions[j]);
            }
        }
        Some(me)
    }

    /// Work out which of `n` nodes source `k` reaches, node j being at `position(j)`.
    fn reach(&mut self, k: usize, n: usize, mut position: impl FnMut(usize) -> [f64; 2]) {
        let s = &mut self.sources[k];
        s.reach.clear();
        let scale = s.power_w / self.path.tx_power_w();
        for j in 0..n {
            let d = distance_m(s.at_m, position(j));
            let power_w = self.path.rx_power_w(d) * scale;
            if power_w >= self.floor_w {
                s.reach.push((NodeId(j as u32), power_w, delay_ns(d)));
            }
        }
    }

    /// Each source's first event: its stationary state at its start time.
    pub fn schedule_first(&mut self, sched: &mut Scheduler<Event>) {
        for (k, s) in self.sources.iter_mut().enumerate() {
            if s.start_ns >= s.stop_ns {
                continue;
            }
            let source = k as u16;
            let (on, left_ns) = s.process.first();
            let at = if on {
                s.next_on_ns = Some(left_ns); // on from the start, for what is left
                s.start_ns
            } else {
                s.start_ns.saturating_add(left_ns)
            };
            sched.schedule(at, Event::Sim(SimEvent::InterferenceOn { source }));
        }
    }

    pub fn results(&self) -> Vec<InterferenceResult> {
        self.sources
            .iter()
            .map(|s| {
                let span_ns = s.stop_ns.saturating_sub(s.start_ns);
                InterferenceResult {
                    periods: s.periods,
                    on_s: s.on_ns as f64 * 1e-9,
                    occupancy: if span_ns == 0 { 0.0 } else { s.on_ns as f64 / span_ns as f64 },
                    nodes_reached: s.reach.len() as u32,
                }
            })
            .collect()
    }
}

impl World {
    /// The scenario's interferers, each with its first event.
    pub(super) fn start_interference(&mut self, s: &Scenario, model: &LinkModel) {
        let run = (s.seed, secs_to_ns(s.duration_s));
        let moving = self.motion.is_some();
        self.interference = Interference::new(&s.interference, run, model, &self.positions, moving);
        if let Some(i) = self.interference.as_mut() {
            i.schedule_first(&mut self.cx.sched);
        }
    }

    /// Interferer `k` goes on the air at `now` (unless its stop time has come).
    pub(super) fn interference_on(&mut self, now: SimTime, k: usize) {
        let Some(inter) = self.interference.as_mut() else { return };
        if inter.moving {
            let m = self.motion.as_mut().expect("moving nodes have a motion");
            inter.reach(k, self.nodes.len(), |j| m.position(NodeId(j as u32), now));
        }
        let s = &mut inter.sources[k];
        let len_ns = s.next_on_ns.take().unwrap_or_else(|| s.process.on_ns());
        let end = now.saturating_add(len_ns).min(s.stop_ns);
        if end <= now {
            return;
        }
        s.serial = s.serial.wrapping_add(1);
        s.periods += 1;
        s.on_ns += end - now;
        let fref = source_ref(k, s.serial);
        let reach = std::mem::take(&mut s.reach);
        for &(node, power_w, delay) in &reach {
            let span = (now + delay, end + delay);
            let (early, busy) = self.nodes[node.index()].radio.foreign_start(fref, power_w, span);
            if let Some(e) = early {
                self.complete_early(now, node, e);
            }
            if let Some((from, until)) = busy {
                self.nodes[node.index()].mac.on_medium_busy(from, until);
            }
        }
        let inter = self.interference.as_mut().expect("interference");
        inter.sources[k].reach = reach;
        let source = k as u16;
        self.cx.sched.schedule(end, Event::Sim(SimEvent::InterferenceOff { source }));
    }

    /// Interferer `k` leaves the air at `now`: its energy ends at each node it reached; then
    /// it is silent for a period (unless its stop time has come).
    pub(super) fn interference_off(&mut self, now: SimTime, k: usize) {
        let Some(inter) = self.interference.as_mut() else { return };
        let s = &mut inter.sources[k];
        let fref = source_ref(k, s.serial);
        for &(node, _, _) in &s.reach {
            // Energy ends: nothing was decoded from it and nothing completes.
            let _ = self.nodes[node.index()].radio.signal_end(fref);
        }
        if now < s.stop_ns {
            let at = now.saturating_add(s.process.off_ns());
            if at < s.stop_ns {
                let source = k as u16;
                self.cx.sched.schedule(at, Event::Sim(SimEvent::InterferenceOn { source }));
            }
        }
    }
}

//! Each node's router at the start of a run (`net/router/`) and the first timers of the
//! protocols that send periodically (AODV's HELLOs, OLSR's HELLOs and TCs, an HWMP root's
//! announcements).

use super::Node;
use crate::engine::sched::{Scheduler, TimerSink};
use crate::engine::time::secs_to_ns;
use crate::ids::NodeId;
use crate::net::aodv::AodvConfig;
use crate::net::dsr::DsrConfig;
use crate::net::hwmp::{HwmpConfig, HwmpTimer, RootMode};
use crate::net::olsr::OlsrConfig;
use crate::net::router::{HwmpRouter, OlsrRouter, RouteTimer, Router};
use crate::scenario::{
    HwmpRootMode, Profile, RoutingProtocol, Scenario, HWMP_DEFAULTS, OLSR_DEFAULTS,
};

/// ns-3's `HwmpProtocol::RandomStart`: a root's first announcement within this of the start.
const HWMP_RANDOM_START_NS: u64 = 100_000_000;

use super::event::Event;

/// OLSR's constants from the scenario (RFC 3626 section 18: hold times of three intervals,
/// MAXJITTER a quarter HELLO interval, DUP_HOLD_TIME 30 s).
pub(super) fn olsr_config(s: &Scenario) -> OlsrConfig {
    let r = &s.routing;
    let (hello_s, tc_s, will, _, _) = OLSR_DEFAULTS;
    let hello = secs_to_ns(r.olsr_hello_interval_s.unwrap_or(hello_s));
    let tc = secs_to_ns(r.olsr_tc_interval_s.unwrap_or(tc_s));
    OlsrConfig {
        hello_interval_ns: hello,
        tc_interval_ns: tc,
        neighb_hold_ns: 3 * hello,
        top_hold_ns: 3 * tc,
        willingness: r.olsr_willingness.unwrap_or(will),
        max_jitter_ns: hello / 4,
        ..OlsrConfig::default()
    }
}

/// HWMP's attributes at node `id` from the scenario (the root mode at the root only).
fn hwmp_config(s: &Scenario, id: NodeId) -> HwmpConfig {
    let r = &s.routing;
    let (mode, timeout_s, retries, to, rf, refresh_s) = HWMP_DEFAULTS;
    let root_mode = match (r.hwmp_root == Some(id.0), r.hwmp_root_mode.unwrap_or(mode)) {
        (false, _) | (_, HwmpRootMode::Off) => RootMode::Off,
        (true, HwmpRootMode::ProactivePreq) => RootMode::ProactivePreq,
        (true, HwmpRootMode::ProactivePreqPrep) => RootMode::ProactivePreqWithPrep,
        (true, HwmpRootMode::Rann) => RootMode::Rann,
    };
    HwmpConfig {
        root_mode,
        active_path_timeout_ns: secs_to_ns(r.hwmp_active_path_timeout_s.unwrap_or(timeout_s)),
        max_preq_retries: r.hwmp_max_preq_retries.unwrap_or(retries),
        target_only: r.hwmp_target_only.unwrap_or(to),
        reply_and_forward: r.hwmp_reply_and_forward.unwrap_or(rf),
        path_refresh_ns: secs_to_ns(r.hwmp_path_refresh_s.unwrap_or(refresh_s)),
        ..HwmpConfig::default()
    }
}

/// The routing protocol of node `id`.
pub(super) fn router(s: &Scenario, id: NodeId) -> Router {
    let ns2 = s.profile == Profile::Ns2;
    let r = &s.routing;
    match r.protocol {
        RoutingProtocol::Static => Router::Static,
        RoutingProtocol::Etx => Router::Etx { frozen: false },
        RoutingProtocol::Aodv => {
            let cfg = AodvConfig { expanding_ring: r.expanding_ring, ns2, ..AodvConfig::default() };
            let hello = r.hello.then(|| (secs_to_ns(r.hello_interval_s), r.allowed_hello_loss));
            Router::aodv(id, cfg, hello)
        }
        RoutingProtocol::Dsr => {
            Router::dsr(id, DsrConfig { ns2, seed: s.seed, ..DsrConfig::default() })
        }
        RoutingProtocol::Olsr => Router::Olsr(Box::new(OlsrRouter::new(
            id,
            olsr_config(s),
            r.olsr_link_layer_feedback.unwrap_or(OLSR_DEFAULTS.3),
        ))),
        RoutingProtocol::Hwmp => Router::Hwmp(Box::new(HwmpRouter::new(id, hwmp_config(s, id)))),
    }
}

/// The first periodic timers: spread over one interval, each node from its own stream (OLSR
/// with `olsr_spread_start = false`: all at 0 s, the draws made all the same).
pub(super) fn first_timers(s: &Scenario, nodes: &mut [Node], sched: &mut Scheduler<Event>) {
    let mut spread = |interval_s: f64, timer: RouteTimer| {
        let interval = secs_to_ns(interval_s) as f64;
        for n in nodes.iter_mut() {
            let at = (n.routing_rng.uniform() * interval) as u64;
            sched.arm(at, n.id, timer, 0);
        }
    };
    match s.routing.protocol {
        RoutingProtocol::Aodv if s.routing.hello => {
            spread(s.routing.hello_interval_s, RouteTimer::Hello)
        }
        RoutingProtocol::Olsr => {
            let cfg = olsr_config(s);
            let over = match s.routing.olsr_spread_start.unwrap_or(OLSR_DEFAULTS.4) {
                true => 1e-9,
                false => 0.0,
            };
            spread(cfg.hello_interval_ns as f64 * over, RouteTimer::OlsrHello);
            spread(cfg.tc_interval_ns as f64 * over, RouteTimer::OlsrTc);
        }
        RoutingProtocol::Hwmp => {
            let mode = s.routing.hwmp_root_mode.unwrap_or(HWMP_DEFAULTS.0);
            if let (Some(root), false) = (s.routing.hwmp_root, mode == HwmpRootMode::Off) {
                if let Some(n) = nodes.get_mut(root as usize) {
                    let at = (n.routing_rng.uniform() * HWMP_RANDOM_START_NS as f64) as u64;
                    sched.arm(at, n.id, RouteTimer::Hwmp(HwmpTimer::Root), 0);
                }
            }
        }
        _ => {}
    }
}

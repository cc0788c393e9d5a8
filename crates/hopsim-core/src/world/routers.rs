//! Each node's router at the start of a run (`net/router/`) and the first timers of the
//! protocols that send periodically (AODV's HELLOs, OLSR's HELLOs and TCs).

use super::Node;
use crate::engine::sched::{Scheduler, TimerSink};
use crate::engine::time::secs_to_ns;
use crate::ids::NodeId;
use crate::net::aodv::AodvConfig;
use crate::net::dsr::DsrConfig;
use crate::net::olsr::OlsrConfig;
use crate::net::router::{OlsrRouter, RouteTimer, Router};
use crate::scenario::{Profile, RoutingProtocol, Scenario, OLSR_DEFAULTS};

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
        _ => {}
    }
}

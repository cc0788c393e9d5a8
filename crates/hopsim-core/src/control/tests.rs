//! The controller against what it must equal: a constant window limit is the configured
//! `tcp.max_window` (the run is the same, bit for bit), a step observes what the flow did, and
//! the pool's results do not depend on its threads.

use super::*;
use crate::engine::time::secs_to_ns;
use crate::scenario::parse_toml;

const CHAIN: &str = r#"
duration_s = 20.0
seed = 3
[topology]
kind = "chain"
hops = 7
spacing_m = 200.0
[mac]
data_rate_mbps = 2.0
basic_rate_mbps = 1.0
rts_threshold_bytes = 0
[routing]
protocol = "static"
[[flows]]
src = 0
dst = 7
transport = "tcp"
payload_bytes = 1460
"#;

fn world(extra: &str) -> World {
    crate::prepare(&parse_toml(&format!("{CHAIN}\n{extra}")).unwrap()).unwrap()
}

fn cfg(step_s: f64) -> ControlConfig {
    ControlConfig {
        flow: 0,
        action: Action::WindowLimit,
        step: StepLength::Fixed(secs_to_ns(step_s)),
        action_low: 1.0,
        action_high: 64.0,
        warmup_ns: 0,
    }
}

fn delivered(w: &World) -> u64 {
    w.probe_flow(0, &mut Vec::new()).unwrap().delivered_bytes
}

#[test]
fn a_constant_limit_is_the_configured_one() {
    for limit in [2.0, 3.5, 8.0] {
        let mut configured = world(&format!("[tcp]\nmax_window = {limit}"));
        configured.run().unwrap();
        let (mut c, first) = WindowControl::new(world(""), cfg(0.01)).unwrap();
        assert_eq!(first.obs[1], 0.0, "no limit before the first action");
        let mut steps = 0;
        loop {
            let out = c.step(limit).unwrap();
            steps += 1;
            assert!(out.obs[0] <= limit + 1e-12, "cwnd {} under the limit {limit}", out.obs[0]);
            assert_eq!(out.obs[1], limit);
            if out.truncated {
                break;
            }
        }
        assert_eq!(steps, 2000, "20 s in 10 ms steps");
        assert_eq!(delivered(c.world()), delivered(&configured), "limit {limit}");
        assert_eq!(c.world().events(), configured.events(), "limit {limit}: the same events");
    }
}

#[test]
fn a_step_observes_what_the_flow_did() {
    let (mut c, _) = WindowControl::new(world(""), cfg(0.5)).unwrap();
    let mut total_bytes = 0.0;
    let (mut hops_seen, mut samples) = (Vec::new(), 0.0);
    loop {
        let out = c.step(4.0).unwrap();
        total_bytes += out.obs[5] * 1e3 / 8.0 * 0.5; // goodput_kbps over the 0.5 s step
        hops_seen.push(out.obs[11]);
        samples += out.obs[4];
        if out.obs[4] > 0.0 {
            assert!(out.obs[2] >= out.obs[3], "the step's mean RTT is at least the least");
        }
        if out.truncated {
            break;
        }
    }
    let d = delivered(c.world()) as f64;
    assert!((total_bytes - d).abs() < 1e-6 * d.max(1.0), "{total_bytes} vs {d}");
    assert!(hops_seen.iter().all(|h| *h == 7.0), "static 7-hop route: {hops_seen:?}");
    let p = c.world().probe_flow(0, &mut Vec::new()).unwrap();
    assert_eq!(samples as u64, p.rtt_samples, "every sample counted once");
    assert!(p.rtt_samples > 100);
}

#[test]
fn rtt_steps_follow_the_smoothed_rtt() {
    let mut step = cfg(0.0);
    step.step = StepLength::Rtt { min_ns: secs_to_ns(0.001) };
    let (mut c, _) = WindowControl::new(world(""), step).unwrap();
    let mut last = 0.0;
    for _ in 0..200 {
        let srtt = c.world().probe_flow(0, &mut Vec::new()).unwrap().srtt_ms;
        let out = c.step(3.0).unwrap();
        let want_ms = if srtt.is_finite() { (srtt).max(1.0) } else { 1.0 };
        assert!(
            ((out.now_s - last) * 1e3 - want_ms).abs() < 1e-6,
            "{} vs {want_ms}",
            (out.now_s - last) * 1e3
        );
        last = out.now_s;
    }
}

#[test]
fn the_pool_gives_the_same_steps_on_any_number_of_threads() {
    let runs = |n: usize| -> Vec<WindowControl> {
        (0..n)
            .map(|k| {
                let w = crate::prepare(
                    &parse_toml(&CHAIN.replace("seed = 3", &format!("seed = {}", k + 1))).unwrap(),
                )
                .unwrap();
                WindowControl::new(w, cfg(0.05)).unwrap().0
            })
            .collect()
    };
    let mut results = Vec::new();
    for workers in [1, 2, 3] {
        let mut pool = ControlPool::new(runs(5), workers);
        assert_eq!(pool.workers(), workers);
        let mut out = Vec::new();
        let mut all = Vec::new();
        for i in 0..100 {
            let actions: Vec<f64> = (0..5).map(|k| 1.0 + ((i + k) % 6) as f64).collect();
            pool.step(&actions, &mut out);
            all.extend(out.iter().map(|r| r.as_ref().unwrap().obs));
        }
        pool.replace(4, runs(1).pop().unwrap());
        pool.step(&[2.0; 5], &mut out);
        all.extend(out.iter().map(|r| r.as_ref().unwrap().obs));
        results.push(all);
    }
    assert!(results[0] == results[1] && results[1] == results[2]);
    assert_ne!(results[0][0], results[0][1], "the runs differ by seed");
}

#[test]
fn bad_settings_are_refused_by_name() {
    let mut bad = cfg(0.01);
    bad.flow = 3;
    assert_eq!(WindowControl::new(world(""), bad).err().unwrap().key, "flow");
    let mut bad = cfg(0.0);
    bad.step = StepLength::Fixed(0);
    assert_eq!(WindowControl::new(world(""), bad).err().unwrap().key, "step_s");
    let mut bad = cfg(0.01);
    bad.action_low = 0.0;
    assert_eq!(WindowControl::new(world(""), bad).err().unwrap().key, "action_range");
    let (mut c, _) = WindowControl::new(world(""), cfg(0.01)).unwrap();
    assert_eq!(c.step(f64::NAN).err().unwrap().key, "action");
    assert!(c.step(1e9).is_ok(), "clipped to the range");
}

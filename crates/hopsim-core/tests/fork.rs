//! Pause and fork (issue 35): on every scenario of the golden set, a run paused at a third and
//! at two thirds of its time and resumed gives the document of an uninterrupted run, and a
//! fork taken at the pause, continued unchanged, gives the same document as the original; and
//! reading routes at pauses changes nothing.

use std::path::{Path, PathBuf};

use hopsim_core::ids::NodeId;
use hopsim_core::scenario::parse_toml;
use hopsim_core::{prepare, result_json};
use serde_json::Value;

fn doc(world: &mut hopsim_core::world::World, scenario: &hopsim_core::scenario::Scenario) -> Value {
    let mut d: Value = serde_json::from_str(&result_json(world, scenario)).unwrap();
    d.as_object_mut().unwrap().remove("hopsim_version");
    d
}

/// The golden set's scenario files, in name order.
fn golden() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "toml").then_some(p)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 30, "the golden set");
    names
}

/// A golden case's scenario, its end and the document of its uninterrupted run.
fn uninterrupted(path: &Path) -> (hopsim_core::scenario::Scenario, u64, Value) {
    let scenario = parse_toml(&std::fs::read_to_string(path).unwrap()).unwrap();
    let end_ns = (scenario.duration_s * 1e9) as u64;
    let mut whole = prepare(&scenario).unwrap();
    whole.run().unwrap();
    let want = doc(&mut whole, &scenario);
    (scenario, end_ns, want)
}

#[test]
fn paused_resumed_and_forked_runs_equal_the_uninterrupted_one() {
    for path in golden() {
        let (scenario, end_ns, want) = uninterrupted(&path);

        let mut paused = prepare(&scenario).unwrap();
        assert!(!paused.run_until(end_ns / 3).unwrap());
        let mut fork = paused.fork().unwrap();
        assert!(!paused.run_until(2 * end_ns / 3).unwrap());
        paused.run().unwrap();
        fork.run().unwrap();
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(doc(&mut paused, &scenario) == want, "{name}: paused and resumed differs");
        assert!(doc(&mut fork, &scenario) == want, "{name}: the fork differs");
    }
}

#[test]
fn reading_routes_at_every_pause_changes_nothing() {
    // Every route between every pair read at ten pauses (OLSR computes its table for a read
    // when the sets changed since the last one): the document is the uninterrupted run's.
    for path in golden() {
        let (scenario, end_ns, want) = uninterrupted(&path);
        let mut read = prepare(&scenario).unwrap();
        let n = read.node_count() as u32;
        for k in 1..=10 {
            read.run_until(k * end_ns / 11).unwrap();
            for a in 0..n {
                assert_eq!(read.route_now(NodeId(a), NodeId(a)), [a], "to itself");
                for b in 0..n {
                    let route = read.route_now(NodeId(a), NodeId(b));
                    assert!(route.is_empty() || (route[0] == a && route.last() == Some(&b)));
                }
            }
        }
        read.run().unwrap();
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(doc(&mut read, &scenario) == want, "{name}: reading routes changed the run");
    }
}

#[test]
fn a_run_writing_traces_is_not_forked_and_a_fork_is_its_own_run() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let toml = std::fs::read_to_string(dir.join("tcp-newreno.toml")).unwrap();
    let scenario = parse_toml(&toml).unwrap();
    let out = std::env::temp_dir().join(format!("hopsim-fork-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let traced =
        hopsim_core::RunOptions { event_trace: Some(out.join("events.csv")), ..Default::default() };
    let world = hopsim_core::prepare_with(&scenario, &traced).unwrap();
    let err = world.fork().err().expect("refused");
    assert!(err.message.contains("cannot be forked"), "{}", err.message);
    let pcap = hopsim_core::RunOptions { pcap_dir: Some(out.join("pcap")), ..Default::default() };
    assert!(hopsim_core::prepare_with(&scenario, &pcap).unwrap().fork().is_err());
    std::fs::remove_dir_all(&out).ok();

    // A fork stopped early is its own run: the original goes on to the end unaffected.
    let mut original = prepare(&scenario).unwrap();
    original.run_until(1_000_000_000).unwrap();
    let mut fork = original.fork().unwrap();
    fork.run_until(2_000_000_000).unwrap();
    drop(fork);
    original.run().unwrap();
    let mut whole = prepare(&scenario).unwrap();
    whole.run().unwrap();
    assert!(doc(&mut original, &scenario) == doc(&mut whole, &scenario));
}

//! Pause and fork (issue 35): on every scenario of the golden set, a run paused at a third and
//! at two thirds of its time and resumed gives the document of an uninterrupted run, and a
//! fork taken at the pause, continued unchanged, gives the same document as the original.

use std::path::Path;

use hopsim_core::scenario::parse_toml;
use hopsim_core::{prepare, result_json};
use serde_json::Value;

fn doc(world: &mut hopsim_core::world::World, scenario: &hopsim_core::scenario::Scenario) -> Value {
    let mut d: Value = serde_json::from_str(&result_json(world, scenario)).unwrap();
    d.as_object_mut().unwrap().remove("hopsim_version");
    d
}

#[test]
fn paused_resumed_and_forked_runs_equal_the_uninterrupted_one() {
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
    for path in names {
        let scenario = parse_toml(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let end_ns = (scenario.duration_s * 1e9) as u64;
        let mut whole = prepare(&scenario).unwrap();
        whole.run().unwrap();
        let want = doc(&mut whole, &scenario);

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

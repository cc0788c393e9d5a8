//! Runs one scenario (a JSON file, as the core validates it) once and prints its event count:
//! the program benches/cost_guard.py counts the instructions of, under valgrind, to guard the
//! engine's cost in CI (docs/speed.md, "The cost guard"). No timing: instruction counts do not
//! depend on the machine's speed or load.

use hopsim_core::{prepare_json, RunOptions};

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(path), None) = (args.next(), args.next()) else {
        eprintln!("usage: cost_run SCENARIO.json");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cost_run: cannot read {path:?}: {e}");
            std::process::exit(2);
        }
    };
    let (_, mut world) = match prepare_json(&text, &RunOptions::default()) {
        Ok(prepared) => prepared,
        Err(e) => {
            eprintln!("cost_run: {path:?}: {}", e.message);
            std::process::exit(2);
        }
    };
    if let Err(e) = world.run() {
        eprintln!("cost_run: {path:?}: the run stopped ({})", e.key);
        std::process::exit(1);
    }
    println!("{} events", world.events());
}

//! Scenario generation for fuzzing, and the one function every fuzzer calls: scenario JSON ->
//! validation -> a short run under a tight budget. The generator turns raw bytes into mostly
//! plausible scenarios (so runs reach the MAC, routing and TCP) with wild values, wrong types,
//! missing and unknown keys mixed in; every numeric key of the range table is drawn from its
//! range, its bounds, just outside them, or from the extremes of f64.
//!
//! Properties checked on every input (a failure panics, which the fuzzers report):
//! * no panic, and the run ends (the budget stops any run at `MAX_EVENTS` events);
//! * a refusal names its key, and says why;
//! * every number of an accepted scenario resolves bit-identically.

use arbitrary::{Result as AResult, Unstructured};
use hopsim_core::scenario::RANGES;
use hopsim_core::{prepare_json, result_json, RunOptions, ScenarioError};
use serde_json::{json, Map, Value};

/// Events and memory of one fuzzed run: a few milliseconds of work at most.
pub const MAX_EVENTS: u64 = 300_000;
pub const MAX_MEMORY_MB: f64 = 256.0;

/// How one input ended (a panic is not an outcome: it propagates).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// Ran to its end.
    Ok,
    /// Refused with a clean error naming the key.
    Refused,
    /// Stopped by the run's budget, with a clean error.
    Stopped,
}

/// Exercise the core with one scenario given as JSON text.
pub fn exercise(json: &str) -> Outcome {
    let opts = RunOptions {
        max_events: Some(MAX_EVENTS),
        max_memory_mb: Some(MAX_MEMORY_MB),
        ..RunOptions::default()
    };
    let (scenario, mut world) = match prepare_json(json, &opts) {
        Ok(pair) => pair,
        Err(e) => {
            clean(&e);
            if std::env::var_os("HOPSIM_FUZZ_VERBOSE").is_some() {
                eprintln!("refused: {}", e.message);
            }
            return Outcome::Refused;
        }
    };
    exact_numbers(json, &serde_json::to_value(&scenario).expect("serialises"));
    match world.run() {
        Ok(()) => {
            let out = result_json(&mut world, &scenario);
            assert!(out.starts_with('{'), "a result document");
            Outcome::Ok
        }
        Err(e) => {
            clean(&e);
            assert!(e.key == "max_events" || e.key == "max_memory_mb", "{e:?}");
            Outcome::Stopped
        }
    }
}

/// A clean error says what is wrong and, when it is about a key, names it.
fn clean(e: &ScenarioError) {
    assert!(!e.message.trim().is_empty(), "an error without a message");
    assert!(e.message.contains(&e.key), "the message must name the key {:?}: {}", e.key, e.message);
}

/// Every number the input gave appears bit-identically where the resolved scenario has it.
fn exact_numbers(input: &str, resolved: &Value) {
    let Ok(given) = serde_json::from_str::<Value>(input) else { return };
    fn walk(given: &Value, resolved: &Value, path: &str) {
        match (given, resolved) {
            (Value::Object(g), Value::Object(r)) => {
                for (k, v) in g {
                    if let Some(rv) = r.get(k) {
                        walk(v, rv, &format!("{path}.{k}"));
                    }
                }
            }
            (Value::Array(g), Value::Array(r)) if g.len() == r.len() => {
                for (i, (a, b)) in g.iter().zip(r).enumerate() {
                    walk(a, b, &format!("{path}.{i}"));
                }
            }
            (Value::Number(a), Value::Number(b)) => {
                let (x, y) = (a.as_f64().expect("finite"), b.as_f64().expect("finite"));
                assert_eq!(x.to_bits(), y.to_bits(), "{path}: {a} resolved as {b}");
            }
            _ => {}
        }
    }
    // Flows inherit [tcp] and traffic is drawn: compare the tables the author wrote.
    walk(&given, resolved, "");
}

/// Bytes -> scenario JSON text: a generated scenario, or (one input in eight) the bytes
/// themselves as text, for the parser.
pub fn scenario_text(data: &[u8]) -> String {
    if data.first().is_some_and(|b| b % 8 == 0) {
        return String::from_utf8_lossy(&data[1..]).into_owned();
    }
    let mut u = Unstructured::new(data);
    scenario(&mut u).unwrap_or_else(|_| json!({})).to_string()
}

fn chance(u: &mut Unstructured, percent: u8) -> AResult<bool> {
    Ok(u.int_in_range(0..=99u8)? < percent)
}

thread_local! {
    /// Percent of draws that leave the plausible: 0 for a clean input (about 60% of them).
    static WILD: std::cell::Cell<u8> = const { std::cell::Cell::new(0) };
}

fn wild(u: &mut Unstructured) -> AResult<bool> {
    let p = WILD.with(|w| w.get());
    Ok(p > 0 && chance(u, p)?)
}

/// One of `options`; the last one is invalid, and drawn only as a wild draw.
fn pick<'a>(u: &mut Unstructured, options: &[&'a str]) -> AResult<&'a str> {
    if wild(u)? {
        return Ok(options[options.len() - 1]);
    }
    Ok(options[u.choose_index(options.len() - 1)?])
}

/// A value for a numeric key: mostly plausible, sometimes at or past its bounds, sometimes
/// absurd or of the wrong type.
fn number(u: &mut Unstructured, key: &str, plausible: (f64, f64), integer: bool) -> AResult<Value> {
    let range = RANGES.iter().find(|r| r.key == key);
    let roll = if wild(u)? { u.int_in_range(0..=99u8)? } else { 0 };
    let v = if roll < 40 {
        let (lo, hi) = plausible;
        let v = lo + (hi - lo) * u.int_in_range(0..=1000u32)? as f64 / 1000.0;
        if integer && roll == 0 {
            v.round()
        } else {
            v
        }
    } else if roll < 80 {
        let r = range.map_or((0.0, 1e6), |r| (r.min, r.max));
        let tiny = |x: f64| x.abs().max(1.0) * 1e-9;
        *u.choose(&[r.0, r.1, r.0 - tiny(r.0), r.1 + tiny(r.1), (r.0 + r.1) / 2.0])?
    } else if roll < 94 {
        *u.choose(&[0.0, -1.0, 1e-300, 1e300, -1e300, 5e-324, 1.8e19, 4294967296.0, 0.1 + 0.2])?
    } else {
        return Ok(u
            .choose(&[json!("7"), json!(true), json!([1]), json!({}), Value::Null])?
            .clone());
    };
    Ok(if integer && v.fract() == 0.0 && v.abs() < 9e15 { json!(v as i64) } else { json!(v) })
}

fn put(
    u: &mut Unstructured,
    m: &mut Map<String, Value>,
    key: &str,
    table: &str,
    plausible: (f64, f64),
    integer: bool,
) -> AResult<()> {
    if chance(u, 50)? {
        let full = if table.is_empty() { key.to_string() } else { format!("{table}.{key}") };
        m.insert(key.into(), number(u, &full, plausible, integer)?);
    }
    Ok(())
}

/// A generated scenario document.
pub fn scenario(u: &mut Unstructured) -> AResult<Value> {
    let wild_percent = if chance(u, 60)? { 0 } else { u.int_in_range(1..=20u8)? };
    WILD.with(|w| w.set(wild_percent));
    let mut doc = Map::new();
    put(u, &mut doc, "duration_s", "", (0.6, 5.0), false)?;
    put(u, &mut doc, "warmup_s", "", (0.0, 0.5), false)?;
    if chance(u, 20)? {
        doc.insert("seed".into(), json!(u.arbitrary::<u64>()?));
    }
    if chance(u, 30)? {
        doc.insert("profile".into(), json!(pick(u, &["standard", "ns2", "linux"])?));
    }
    let (topology, nodes) = super_topology(u)?;
    doc.insert("topology".into(), topology);
    if chance(u, 60)? {
        doc.insert("radio".into(), crate::tables::radio(u)?);
    }
    if chance(u, 50)? {
        doc.insert("mac".into(), crate::tables::mac(u)?);
    }
    if chance(u, 25)? {
        doc.insert("queue".into(), crate::tables::queue(u)?);
    }
    if chance(u, 60)? {
        doc.insert("routing".into(), crate::tables::routing(u)?);
    }
    if chance(u, 50)? {
        doc.insert("tcp".into(), crate::tables::tcp(u)?);
    }
    let least = if wild(u)? { 0 } else { 1 };
    let flows = u.int_in_range(least..=4u8)?;
    let list: AResult<Vec<Value>> =
        (0..flows).map(|_| crate::tables::flow(u, nodes, true)).collect();
    doc.insert("flows".into(), Value::Array(list?));
    if chance(u, 15)? {
        let mut t = crate::tables::flow(u, nodes, false)?;
        t["random_flows"] = number(u, "traffic.random_flows", (1.0, 5.0), true)?;
        doc.insert("traffic".into(), t);
    }
    if chance(u, 25)? {
        doc.insert("mobility".into(), crate::tables::mobility(u)?);
    }
    if chance(u, 10)? {
        let n = u.int_in_range(1..=3u8)?;
        let list: AResult<Vec<Value>> = (0..n).map(|_| crate::tables::interferer(u)).collect();
        doc.insert("interference".into(), Value::Array(list?));
    }
    if wild(u)? && chance(u, 10)? {
        doc.insert("bogus_key".into(), json!(1));
    }
    Ok(Value::Object(doc))
}

fn super_topology(u: &mut Unstructured) -> AResult<(Value, u32)> {
    let kind =
        pick(u, &["chain", "chain", "chain", "grid", "positions", "random", "testbed", "ring"])?;
    let mut t = Map::new();
    t.insert("kind".into(), json!(kind));
    let n = match kind {
        "chain" => {
            let hops = u.int_in_range(1..=8u32)?;
            t.insert("hops".into(), json!(hops));
            put(u, &mut t, "spacing_m", "topology", (10.0, 400.0), false)?;
            t.entry("spacing_m").or_insert(json!(200.0));
            hops + 1
        }
        "grid" => {
            let (r, c) = (u.int_in_range(1..=5u32)?, u.int_in_range(1..=5u32)?);
            t.insert("rows".into(), json!(r));
            t.insert("cols".into(), json!(c));
            t.insert("spacing_m".into(), number(u, "topology.spacing_m", (50.0, 300.0), false)?);
            r * c
        }
        "positions" => {
            let least = if wild(u)? { 1 } else { 2 };
            let n = u.int_in_range(least..=8u32)?;
            let pos: AResult<Vec<Value>> = (0..n)
                .map(|_| {
                    Ok(json!([
                        number(u, "topology.positions.N", (0.0, 800.0), false)?,
                        number(u, "topology.positions.N", (0.0, 300.0), false)?
                    ]))
                })
                .collect();
            t.insert("positions".into(), Value::Array(pos?));
            n
        }
        _ => {
            let n = u.int_in_range(2..=30u32)?;
            t.insert("nodes".into(), json!(n));
            if kind == "random" {
                let side = number(u, "topology.area_m", (50.0, 1500.0), false)?;
                t.insert("area_m".into(), json!([side.clone(), side]));
            }
            if chance(u, 50)? {
                t.insert(
                    "connected".into(),
                    json!(pick(u, &["ignore", "reject", "reseed", "always"])?),
                );
            }
            n
        }
    };
    if chance(u, 10)? {
        t.insert("seed".into(), json!(u.arbitrary::<u32>()?));
    }
    Ok((Value::Object(t), n))
}

mod tables;

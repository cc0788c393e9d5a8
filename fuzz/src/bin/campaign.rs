//! A fuzzing campaign on stable Rust: the libFuzzer target's generator fed from a seeded byte
//! stream, each input run in-process under `catch_unwind` and a watchdog. Prints inputs per
//! second and the outcome of every class (ok, refused with a clean error, stopped by the
//! budget, panic, hang, runaway); saves each failing input to `fuzz/artifacts/`; exits 1 if
//! any input failed.
//!
//! Usage: campaign [INPUTS] [SEED] [--corpus DIR]   (defaults: 10000 inputs, seed 1)

use hopsim_fuzz::{exercise, scenario_text, Outcome};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// An input still running after this long is a hang (a budgeted run takes milliseconds).
const HANG_AFTER: Duration = Duration::from_secs(20);
/// An input taking longer than this, or growing the peak memory past `RUNAWAY_MB`, ran away.
const RUNAWAY_AFTER: Duration = Duration::from_secs(2);
const RUNAWAY_MB: u64 = 1024;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let inputs: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let corpus = args.iter().position(|a| a == "--corpus").and_then(|i| args.get(i + 1));

    // Quiet panics: they are counted and saved, not printed one by one.
    std::panic::set_hook(Box::new(|_| {}));
    let started_ms = Arc::new(AtomicU64::new(u64::MAX));
    let clock = Instant::now();
    let watch = Arc::clone(&started_ms);
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(500));
        let at = watch.load(Ordering::Relaxed);
        if at != u64::MAX && clock.elapsed().as_millis() as u64 - at > HANG_AFTER.as_millis() as u64
        {
            eprintln!("campaign: HANG: an input ran for more than {HANG_AFTER:?} (saved as fuzz/artifacts/running.json)");
            std::process::exit(1);
        }
    });

    let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
    let mut counts = [0u64; 6]; // ok, refused, stopped, panic, hang, runaway
    let mut inputs_run = 0;
    let mut texts: Vec<String> = corpus.map(read_corpus).unwrap_or_default();
    let from_corpus = texts.len() as u64;
    for i in 0..inputs + from_corpus {
        let text = if i < from_corpus {
            std::mem::take(&mut texts[i as usize])
        } else {
            let len = 16 + (next(&mut state) % 2048) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| next(&mut state) as u8).collect();
            scenario_text(&bytes)
        };
        let _ = std::fs::create_dir_all("fuzz/artifacts");
        let _ = std::fs::write("fuzz/artifacts/running.json", &text);
        reset_peak();
        let t0 = Instant::now();
        started_ms.store(clock.elapsed().as_millis() as u64, Ordering::Relaxed);
        let outcome = catch_unwind(AssertUnwindSafe(|| exercise(&text)));
        started_ms.store(u64::MAX, Ordering::Relaxed);
        let class = match outcome {
            Ok(_) if t0.elapsed() > RUNAWAY_AFTER || peak_mb() > RUNAWAY_MB => 5,
            Ok(Outcome::Ok) => 0,
            Ok(Outcome::Refused) => 1,
            Ok(Outcome::Stopped) => 2,
            Err(_) => 3,
        };
        counts[class] += 1;
        inputs_run += 1;
        if class >= 3 {
            let name = format!(
                "fuzz/artifacts/{}-{seed}-{i}.json",
                ["", "", "", "panic", "hang", "runaway"][class]
            );
            let _ = std::fs::write(&name, &text);
            eprintln!(
                "campaign: input {i}: {} saved as {name}",
                ["", "", "", "panic", "hang", "runaway"][class]
            );
        }
    }
    let _ = std::fs::remove_file("fuzz/artifacts/running.json");
    let secs = clock.elapsed().as_secs_f64();
    println!(
        "campaign: {inputs_run} inputs in {secs:.1} s ({:.0} inputs/s), seed {seed}, peak {} MB",
        inputs_run as f64 / secs,
        peak_mb()
    );
    println!(
        "campaign: ok {}, refused (clean error) {}, stopped by budget {}, panic {}, hang {}, runaway {}",
        counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]
    );
    if counts[3] + counts[4] + counts[5] > 0 {
        std::process::exit(1);
    }
}

/// xorshift64*: a fixed stream per seed, so a campaign is repeatable.
fn next(s: &mut u64) -> u64 {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    s.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

/// Start a new peak: the peak resident memory (VmHWM) is the process's since its start,
/// so without a reset one large input would mark every later one (Linux `clear_refs` 5).
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The process's peak resident memory (VmHWM) in MB since the last `reset_peak`.
fn peak_mb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |kb| kb / 1024)
}

/// Scenario texts of a corpus folder (regression cases), one per file.
fn read_corpus(dir: &String) -> Vec<String> {
    let mut files: Vec<_> =
        std::fs::read_dir(dir).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    files.sort();
    files.iter().filter_map(|p| std::fs::read_to_string(p).ok()).collect()
}

//! libFuzzer target: bytes -> scenario JSON -> validation -> a short run (cargo fuzz run
//! scenario --features libfuzzer). A panic, a hang (-timeout) or a runaway (-rss_limit_mb)
//! is a finding; the properties checked are in `hopsim_fuzz::exercise`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    hopsim_fuzz::exercise(&hopsim_fuzz::scenario_text(data));
});

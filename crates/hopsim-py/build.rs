//! Which build this is, for the user to see: profile-guided (`make setup`, `make wheel`:
//! benches/build_ext.sh), the instrumented build that trains it, a plain release build
//! (`pip install .` or `maturin build` without a profile), or a debug build. Compiled into
//! `_core.BUILD` (printed by `hopsim --version`); a plain release build says so in the build
//! output too, with how to get the fast one (docs/speed.md, "Profile-guided build").

fn main() {
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default().replace('\x1f', " ");
    let release = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    let kind = if flags.contains("profile-use=") {
        "profile-guided"
    } else if flags.contains("profile-generate=") {
        "instrumented for profile training"
    } else if release {
        "plain release"
    } else {
        "debug"
    };
    println!("cargo:rustc-env=HOPSIM_BUILD={kind}");
    if kind == "plain release" {
        println!(
            "cargo:warning=hopsim: a plain release build, not profile-guided (about a third \
             slower); in a source tree, `make setup` builds the profile-guided one"
        );
    }
}

"""The cost guard: the engine's instruction counts on three representative runs, against the
baseline recorded in benches/cost_baseline.json (`make cost-guard`, part of `make test`).

    .venv/bin/python benches/cost_guard.py                   # check (exit 1 past +3%)
    .venv/bin/python benches/cost_guard.py --update --why "..."   # record a new baseline

Instructions, not seconds: valgrind's count of the instructions a run executes does not
depend on the machine's speed or load (the same binary and scenario give the same count to
within a few hundred instructions), so a slower engine fails CI on any machine. The runs are
the speed table's rows (benches/speed_scenarios.py), shortened: the 7-hop chain with Vegas
over AODV, Chen et al.'s MANET over DSR, and the 100-node random network. The program run is
crates/hopsim-core/examples/cost_run.rs, built with the workspace's release profile (not the
profile-guided build, whose layout depends on its training). A count depends on the compiler
too: the baseline names its rustc, and a different rustc only reports (the baseline is then
re-recorded with that rustc, in a commit that says so).
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BASELINE = HERE / "cost_baseline.json"
BINARY = ROOT / "target" / "release" / "examples" / "cost_run"
#: A run costing more than this over its baseline fails.
TOLERANCE = 0.03
#: Simulated seconds of each run (a few seconds each under valgrind).
RUNS_S = {"chain7-vegas-aodv": 200.0, "manet-chen": 100.0, "random100": 50.0}


def scenarios() -> dict[str, dict[str, Any]]:
    sys.path.insert(0, str(HERE))
    import speed_scenarios as sc

    return {
        "chain7-vegas-aodv": sc.chain7_vegas_aodv(RUNS_S["chain7-vegas-aodv"]),
        "manet-chen": sc.manet_chen(RUNS_S["manet-chen"]),
        "random100": sc.random100(RUNS_S["random100"]),
    }


def rustc_version() -> str:
    out = subprocess.run(["rustc", "--version"], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def build() -> None:
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "-p", "hopsim-core", "--example", "cost_run"],
        cwd=ROOT,
        check=True,
    )


def instructions(scenario: Path) -> int:
    """The instructions ``cost_run`` executes on ``scenario`` (valgrind's I refs)."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    proc = subprocess.run(
        [*cmd, str(BINARY), str(scenario)], capture_output=True, text=True, check=False
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
    if proc.returncode != 0 or found is None:
        sys.exit(f"cost guard: {scenario.stem}: the run failed:\n{proc.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def measure() -> dict[str, int]:
    out = {}
    with tempfile.TemporaryDirectory(prefix="hopsim-cost-") as tmp:
        for name, s in scenarios().items():
            path = Path(tmp) / f"{name}.json"
            path.write_text(json.dumps(s))
            out[name] = instructions(path)
    return out


def check(counts: dict[str, int], baseline: dict[str, Any], rustc: str) -> int:
    worse = []
    print(f"cost guard: instructions per run against {BASELINE.name} (fail past +{TOLERANCE:.0%})")
    for name, n in counts.items():
        base = baseline["runs"].get(name)
        if base is None:
            print(f"  {name}: {n:,} (no baseline: record one with --update)")
            worse.append(name)
            continue
        change = (n - base) / base
        flag = "  <- more than the tolerance" if change > TOLERANCE else ""
        print(f"  {name} ({RUNS_S[name]:g} s): {base:,} -> {n:,} ({change:+.2%}){flag}")
        if change > TOLERANCE:
            worse.append(name)
    if baseline.get("rustc") != rustc:
        print(
            f"cost guard: the baseline was recorded with {baseline.get('rustc')!r}, this is "
            f"{rustc!r}: counts move with the compiler, so this only reports; record a "
            "baseline with this rustc (--update --why ...)"
        )
        return 0
    if worse:
        print(
            f"cost guard: FAILED: {', '.join(worse)} cost more than {TOLERANCE:.0%} over the "
            "baseline. Find the change that made the engine slower (valgrind --tool=callgrind "
            "on target/release/examples/cost_run), or, if the cost is wanted, record a new "
            "baseline in a commit that says why: benches/cost_guard.py --update --why '...'"
        )
        return 1
    print("cost guard: passed")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="record the counts as baseline")
    parser.add_argument("--why", default="", help="why the baseline changes (with --update)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("cost guard: skipped: valgrind is not installed (apt-get install valgrind)")
        return 0
    if args.update and not args.why.strip():
        parser.error("--update needs --why: a baseline changes only for a stated reason")
    build()
    counts, rustc = measure(), rustc_version()
    if args.update:
        doc = {
            "rustc": rustc,
            "recorded": datetime.date.today().isoformat(),
            "why": args.why.strip(),
            "simulated_s": RUNS_S,
            "runs": counts,
        }
        BASELINE.write_text(json.dumps(doc, indent=2) + "\n")
        print(f"cost guard: baseline recorded in {BASELINE}: {counts}")
        return 0
    if not BASELINE.exists():
        sys.exit(f"cost guard: no baseline {BASELINE}: record one with --update --why ...")
    return check(counts, json.loads(BASELINE.read_text()), rustc)


if __name__ == "__main__":
    sys.exit(main())

"""hopsim's speed, side by side with ns-2.35 where both run the scenario (`make bench`).

    .venv/bin/python benches/speed.py [--quick] [--json PATH] [--rows ROW,ROW]
                                      [--large-duration S] [--sweep-duration S]

Rows (docs/speed.md): chain4-80211n (hopsim and ns-3.44: TCP over a 4-hop 802.11n chain with
A-MPDUs), chain7-vegas-aodv and manet-chen (hopsim and ns-2.35), random100,
large1000 (and large1000-vs-ns2: the same network over 5 s in both), build5000, cli-run,
and the sweep executors (local 1 and 2 processes, local Dask clusters of 2 and 4 workers:
benches/sweep_scaling.py). Every row runs in a fresh process,
so its peak resident set (ru_maxrss, read with wait4) is its own. --quick (or BENCH_QUICK=1)
shortens the simulated durations tenfold for a fast pass. A benchmark: it reports, it does
not assert; a missing ns-2 makes its columns say "ns-2 not installed".
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import speed_ns2
import speed_scenarios as sc
from speed_proc import run_measured
from speed_table import print_table

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PY = sys.executable
CLI_SCENARIO = ROOT / "scenarios" / "chain-tcp.toml"
CLI_REPEAT = 5

ROWS = (
    "chain4-80211n",
    "chain7-vegas-aodv",
    "manet-chen",
    "random100",
    "large1000",
    "build5000",
    "cli-run",
    "sweep",
)
NS2_ROWS = {"chain7-vegas-aodv": sc.chain7_vegas_aodv, "manet-chen": sc.manet_chen}
QUICK_FACTOR = 10.0
SWEEP_DURATION_S = 300.0  # sweep_scaling.py's default


def hopsim_row(row: str, duration_s: float | None) -> dict[str, Any]:
    """Run benches/speed_row.py ROW in a fresh process; its figures and peak RSS."""
    argv = [PY, str(HERE / "speed_row.py"), row]
    if duration_s is not None:
        argv += ["--duration", repr(duration_s)]
    m = run_measured(argv, cwd=ROOT)
    if m.returncode != 0:
        raise RuntimeError(f"{row}: exit {m.returncode}: {m.stderr.strip()[-800:]}")
    doc: dict[str, Any] = json.loads(m.stdout.strip().splitlines()[-1])
    doc["peak_rss_kb"] = m.peak_rss_kb
    doc["process_wall_s"] = m.wall_s
    doc["mem_per_node_kb"] = (m.peak_rss_kb - doc["baseline_rss_kb"]) / doc["nodes"]
    return doc


def cli_row() -> dict[str, Any]:
    """`hopsim run scenarios/chain-tcp.toml` from process start to exit, median of 5; in the
    notes, `hopsim --help` the same way.

    The package is byte-compiled first, as pip does when it installs a wheel: an editable
    checkout under PYTHONDONTWRITEBYTECODE=1 would otherwise compile hopsim's modules from
    source on every start (about 20 ms), which no installed copy pays.
    """
    hopsim = Path(PY).parent / "hopsim"
    argv = [str(hopsim), "run", str(CLI_SCENARIO)]
    package = ROOT / "python" / "hopsim"
    subprocess.run([PY, "-m", "compileall", "-q", str(package)], check=True)
    runs = [run_measured(argv, cwd=ROOT, keep_stdout=False) for _ in range(CLI_REPEAT)]
    help_argv = [str(hopsim), "--help"]
    helps = [run_measured(help_argv, cwd=ROOT, keep_stdout=False) for _ in range(CLI_REPEAT)]
    for m in runs + helps:
        if m.returncode != 0:
            raise RuntimeError(f"cli-run: exit {m.returncode}: {m.stderr.strip()[-800:]}")
    # One more run, untimed, for the engine's event count.
    doc = json.loads(run_measured([*argv, "--json"], cwd=ROOT).stdout)
    return {
        "row": "cli-run",
        "duration_s": float(doc["scenario"]["duration_s"]),
        "wall_s": statistics.median(m.wall_s for m in runs),
        "walls_s": [round(m.wall_s, 4) for m in runs],
        "help_wall_s": statistics.median(m.wall_s for m in helps),
        "events": int(doc["engine"]["events"]),
        "peak_rss_kb": max(m.peak_rss_kb for m in runs),
        "command": " ".join([hopsim.name, *argv[1:2], str(CLI_SCENARIO.relative_to(ROOT))]),
    }


def sweep_rows(duration_s: float) -> list[dict[str, Any]]:
    """benches/sweep_scaling.py in a fresh process: one row per executor."""
    with tempfile.TemporaryDirectory(prefix="hopsim-bench-") as tmp:
        path = Path(tmp) / "sweep.json"
        argv = [PY, str(HERE / "sweep_scaling.py"), "--duration", repr(duration_s)]
        m = run_measured([*argv, "--dask", "2,4", "--json", str(path)], cwd=ROOT)
        if m.returncode != 0:
            raise RuntimeError(f"sweep: exit {m.returncode}: {m.stderr.strip()[-800:]}")
        doc = json.loads(path.read_text())
    rows = []
    for c in doc["configs"]:
        rows.append(
            {
                "row": f"sweep-{c['name']}",
                "duration_s": doc["runs"] * doc["duration_s"],
                "wall_s": c["wall_s"],
                "events": c["events"],
                "runs": doc["runs"],
                "workers": c["workers"],
                "speedup": c["speedup"],
                "identical": c["identical"],
                "busy_s": c["busy_s"],
            }
        )
    return rows


#: large1000 beside ns-2.35 runs this long (simulated s): ns-2.35 needs about 10 s of wall time
#: per simulated second there, so the row's full 100 s would take it over a quarter hour.
LARGE_NS2_S = 5.0


def large_beside_ns2(duration_s: float) -> dict[str, Any]:
    """The large1000 network over ``duration_s`` in hopsim and in ns-2.35 (the AODV flood of
    the first routes is a larger share of so short a run than of the 100 s row)."""
    doc = hopsim_row("large1000", duration_s)
    doc["row"] = "large1000-vs-ns2"
    doc = with_ns2(doc, sc.large_random(1000, 100, duration_s), skip=False)
    if "off_peak_rss_kb" in doc:
        doc["ns2_mem_per_node_kb"] = doc["off_peak_rss_kb"] / doc["nodes"]
    return doc


def with_ns3(doc: dict[str, Any], scenario: dict[str, Any], skip: bool) -> dict[str, Any]:
    """ns-3.44's wall time for the same run beside hopsim's (its simulation alone, as
    chain_tcp.cc times it), and the ratio ns-3 wall / hopsim wall."""
    if skip:
        doc["ns3"] = "ns-3 skipped (--no-ns3)"
        return doc
    from hopsim.api import validate
    from hopsim.crosscheck.ns3build import Ns3Missing
    from hopsim.crosscheck.ns3run import run_ns3

    try:
        ns3 = run_ns3(validate(scenario), 1)
    except (Ns3Missing, RuntimeError) as exc:
        doc["ns3"] = f"ns-3 not run: {exc}".splitlines()[0]
        return doc
    doc["ns3_wall_s"] = float(ns3["wall_s"])
    doc["ns3_events"] = int(ns3["events"])
    doc["ratio_ns3"] = doc["ns3_wall_s"] / float(doc["wall_s"])
    return doc


def with_ns2(doc: dict[str, Any], scenario: dict[str, Any], skip: bool) -> dict[str, Any]:
    """ns-2's figures beside hopsim's, and the ratios ns-2 wall / hopsim wall."""
    if skip:
        doc["ns2"] = "ns-2 skipped (--no-ns2)"
        return doc
    try:
        ns2 = speed_ns2.measure(scenario)
    except RuntimeError as exc:  # ns-2 crashed: say so in the row, keep the others
        doc["ns2"] = f"ns-2 failed: {exc}"
        return doc
    doc.update(ns2)
    if "traced_wall_s" in ns2:
        doc["ratio_traced"] = ns2["traced_wall_s"] / doc["wall_s"]
        doc["ratio_off"] = ns2["off_wall_s"] / doc["wall_s"]
    return doc


def _package_version(package: str) -> str:
    try:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f", "${Version}", package],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return "unknown"
    return f"{package} {out.stdout.strip()}" if out.returncode == 0 else "unknown"


def machine() -> dict[str, Any]:
    from hopsim import _core

    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ns = speed_ns2.ns_command()
    if ns is not None:
        from hopsim.crosscheck.ns2run import ns2_version

        ns_version = ns2_version()
        if ns_version == "unknown":  # Debian's ns prints no version: ask its package
            ns_version = _package_version(speed_ns2.NS2_PACKAGE)
    else:
        ns_version = "ns-2 not installed"
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "load_average": list(os.getloadavg()),
        "python": platform.python_version(),
        "hopsim": _core.__version__,
        "ns2": ns_version,
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        default=os.environ.get("BENCH_QUICK", "") not in ("", "0"),
        help="a tenth of the simulated durations (also BENCH_QUICK=1)",
    )
    parser.add_argument("--json", type=Path, default=None, help="write every figure here")
    parser.add_argument("--rows", default=",".join(ROWS), help=f"some of {','.join(ROWS)}")
    parser.add_argument("--large-duration", type=float, default=None, help="large1000 s")
    parser.add_argument("--sweep-duration", type=float, default=None, help="s per sweep run")
    parser.add_argument("--no-ns2", action="store_true", help="leave ns-2 out")
    parser.add_argument("--no-ns3", action="store_true", help="leave ns-3 out")
    args = parser.parse_args()
    rows = [r for r in args.rows.split(",") if r]
    unknown = sorted(set(rows) - set(ROWS))
    if unknown:
        parser.error(f"--rows: unknown {', '.join(unknown)}; rows: {', '.join(ROWS)}")
    factor = QUICK_FACTOR if args.quick else 1.0
    info = machine()
    print(
        f"hopsim {info['hopsim']} beside ns-2.35 ({info['ns2']}) on {info['cpu']}, "
        f"{info['cores']} cores, load {info['load_average'][0]:.2f}"
        + (" [quick: durations / 10]" if args.quick else ""),
        flush=True,
    )
    results: list[dict[str, Any]] = []
    failed = False
    for row in rows:
        t0 = time.perf_counter()
        load = os.getloadavg()[0]  # other work on the machine skews every figure
        first = len(results)
        try:
            if row == "chain4-80211n":
                duration_s = sc.FULL_DURATION_S[row] / factor
                doc = hopsim_row(row, duration_s)
                results.append(with_ns3(doc, sc.chain4_80211n(duration_s), args.no_ns3))
            elif row in NS2_ROWS:
                duration_s = sc.FULL_DURATION_S[row] / factor
                doc = hopsim_row(row, duration_s)
                results.append(with_ns2(doc, NS2_ROWS[row](duration_s), args.no_ns2))
            elif row == "large1000":
                duration_s = args.large_duration or sc.FULL_DURATION_S[row] / factor
                results.append(hopsim_row(row, duration_s))
                if not args.no_ns2:
                    results.append(large_beside_ns2(2.0 if args.quick else LARGE_NS2_S))
            elif row in sc.FULL_DURATION_S:
                results.append(hopsim_row(row, sc.FULL_DURATION_S[row] / factor))
            elif row == "build5000":
                results.append(hopsim_row(row, None))
            elif row == "cli-run":
                results.append(cli_row())
            else:
                duration_s = args.sweep_duration or SWEEP_DURATION_S / factor
                results.extend(sweep_rows(duration_s))
        except Exception as exc:  # one broken row must not hide the others
            failed = True
            results.append({"row": row, "error": f"{type(exc).__name__}: {exc}"})
        for doc in results[first:]:
            doc["load_before"] = load
        print(
            f"  {row}: done in {time.perf_counter() - t0:.1f} s (load average before {load:.2f})",
            file=sys.stderr,
            flush=True,
        )
    print_table(results)
    sys.stdout.flush()
    if args.json:
        doc = {"machine": info, "quick": args.quick, "rows": results}
        args.json.write_text(json.dumps(doc, indent=1) + "\n")
        print(f"figures written to {args.json}")
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()

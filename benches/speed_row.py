"""One hopsim row of the speed benchmark, in a process of its own (benches/speed.py runs it).

    .venv/bin/python benches/speed_row.py ROW --duration S [--repeat N]

Prints one JSON line: the best wall time of ``hopsim._core.run_json`` over ``--repeat`` runs
(fewer once they have taken 10 s together), timed after the import and after the scenario
is built and serialised; the engine's events (the result's ``engine.events``), the node
count and this process's resident set after the import (``baseline_rss_kb``). The parent
reads the peak from ``wait4``.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from typing import Any

import speed_scenarios as sc

ROWS = ("chain4-80211n", "chain7-vegas-aodv", "manet-chen", "random100", "large1000", "build5000")

#: build5000: nodes and flows (the density and flows per node of large1000) and the run's
#: length: the shortest run whose world is built, validated and started.
BUILD_NODES = 5000
BUILD_FLOWS = 500
BUILD_DURATION_S = 1e-3

#: Runs stop repeating once they have taken this long together (one run of a long row).
REPEAT_BELOW_S = 10.0

#: manet-chen also times a fork (issue 35: under 1% of running to the point of the fork):
#: the run paused at this simulated time, then forked, best of FORK_REPEAT.
FORK_AT_S = 100.0
FORK_REPEAT = 5


def fork_figures(text: str, at_s: float) -> dict[str, Any]:
    """Wall time to run ``text`` to ``at_s`` (a paused Simulation) and to fork it there."""
    from hopsim import _core

    sim = _core.Simulation(text)
    t0 = time.perf_counter()
    sim.run_until(at_s)
    run_s = time.perf_counter() - t0
    forks = []
    for _ in range(FORK_REPEAT):
        t0 = time.perf_counter()
        sim.fork()
        forks.append(time.perf_counter() - t0)
    return {"fork_at_s": at_s, "run_to_fork_wall_s": run_s, "fork_wall_s": min(forks)}


def scenario_of(row: str, duration_s: float) -> dict[str, Any]:
    if row == "chain4-80211n":
        return sc.chain4_80211n(duration_s)
    if row == "chain7-vegas-aodv":
        return sc.chain7_vegas_aodv(duration_s)
    if row == "manet-chen":
        return sc.manet_chen(duration_s)
    if row == "random100":
        return sc.random100(duration_s)
    if row == "large1000":
        return sc.large_random(1000, 100, duration_s)
    if row == "build5000":
        s = sc.large_random(BUILD_NODES, BUILD_FLOWS, BUILD_DURATION_S)
        s["traffic"]["start_s"] = 0.0
        return s
    raise SystemExit(f"unknown row {row!r}; rows: {', '.join(ROWS)}")


def nodes_of(resolved: dict[str, Any]) -> int:
    topo = resolved["topology"]
    if topo["kind"] == "chain":
        return int(topo["hops"]) + 1
    return int(topo["nodes"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("row", choices=ROWS)
    parser.add_argument("--duration", type=float, default=None, help="simulated s")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best is reported")
    args = parser.parse_args()
    from hopsim import _core

    baseline_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    duration_s = args.duration or sc.FULL_DURATION_S.get(args.row, BUILD_DURATION_S)
    text = json.dumps(scenario_of(args.row, duration_s))
    out: dict[str, Any] = {"row": args.row, "baseline_rss_kb": baseline_kb}
    if args.row == "build5000":
        t0 = time.perf_counter()
        resolved = json.loads(_core.validate_json(text))
        out["validate_wall_s"] = time.perf_counter() - t0
    walls: list[float] = []
    result = ""
    while len(walls) < max(1, args.repeat) and sum(walls) < REPEAT_BELOW_S:
        t0 = time.perf_counter()
        result = _core.run_json(text)
        walls.append(time.perf_counter() - t0)
    doc = json.loads(result)
    resolved = doc["scenario"]
    out.update(
        duration_s=float(resolved["duration_s"]),
        wall_s=min(walls),
        walls_s=[round(w, 4) for w in walls],
        events=int(doc["engine"]["events"]),
        nodes=nodes_of(resolved),
        flows=len(doc["flows"]),
    )
    if args.row == "manet-chen":
        out.update(fork_figures(text, min(FORK_AT_S, duration_s / 2)))
    print(json.dumps(out))


if __name__ == "__main__":
    main()

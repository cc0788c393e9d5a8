"""Scaling of the sweep executors: the same 64-run sweep with 1 and with 2 local processes,
then on a local Dask cluster (dask.distributed LocalCluster) of 2 and of 4 worker processes.

    .venv/bin/python benches/sweep_scaling.py [--duration 300] [--jobs 2] [--dask 2,4]
                                              [--json PATH]

Each run is one TCP NewReno bulk transfer over a 4-hop chain (the set-up of
scenarios/chain-tcp.toml) for --duration simulated seconds (a few hundredths of a second of
wall time each at 300 s, so process start-up and store writes weigh); 4 window limits x 16
replications = 64 runs. Each sweep goes into a fresh temporary folder,
so nothing is reused. Prints the wall times, the ratio (the target on 2 free cores is
<= 0.6; 0.5 is perfect scaling) and the summed per-run times, which show how much of the
wall time is simulation rather than process start-up and store writes. The Dask sweeps run
through `run_sweep(..., scheduler=ADDRESS)`, as `hopsim sweep --scheduler` does, on a cluster
started (and its workers up) before the clock starts; each Dask worker is one process of one
thread. Every store must hold the same results as the 1-process one. A benchmark: it
reports, it does not assert (other load on the machine changes the figures). `--dask none`
leaves the Dask sweeps out.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from hopsim.sweeps import STORE_FILE, load_sweep, run_sweep


def sweep_doc(duration_s: float) -> dict[str, Any]:
    return {
        "name": "scaling",
        "replications": 16,
        "metrics": ["goodput_kbps", "retransmissions"],
        "scenario": {
            "duration_s": duration_s,
            "warmup_s": 10.0,
            "topology": {"kind": "chain", "hops": 4, "spacing_m": 200.0},
            "mac": {"data_rate_mbps": 2.0, "basic_rate_mbps": 1.0, "rts_threshold_bytes": 0},
            "routing": {"protocol": "static"},
            "flows": [{"src": 0, "dst": 4, "transport": "tcp", "payload_bytes": 1460}],
        },
        "sweep": {"tcp.max_window": [0, 1, 2, 4]},
    }


def stored(folder: Path) -> tuple[dict[str, str], float]:
    """Run key -> result document, and the summed per-run wall time."""
    db = sqlite3.connect(folder / STORE_FILE)
    try:
        rows = db.execute("SELECT run_key, result, wall_s FROM runs").fetchall()
    finally:
        db.close()
    return {k: r for k, r, _ in rows}, sum(w for _, _, w in rows)


def events_of(results: dict[str, str]) -> int:
    """The engine events of every stored run together."""
    return sum(int(json.loads(r)["engine"]["events"]) for r in results.values())


def timed_sweep(spec: Any, out: Path, jobs: int = 1, scheduler: str | None = None) -> float:
    t0 = time.perf_counter()
    report = run_sweep(spec, out, jobs=jobs, scheduler=scheduler, progress="off")
    wall_s = time.perf_counter() - t0
    runs = len(spec.tasks())
    assert report.done == runs and report.failed == 0, report
    return wall_s


def dask_sweep(spec: Any, out: Path, workers: int) -> float:
    """The sweep on a fresh LocalCluster of ``workers`` single-threaded processes."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        return timed_sweep(spec, out, scheduler=cluster.scheduler_address)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=300.0, help="simulated s per run")
    parser.add_argument("--jobs", type=int, default=2, help="processes of the parallel sweep")
    parser.add_argument(
        "--dask", default="2,4", help="Dask worker counts, comma-separated, or none"
    )
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()
    dask_workers = [] if args.dask == "none" else [int(n) for n in args.dask.split(",")]
    spec = load_sweep(sweep_doc(args.duration))
    runs = len(spec.tasks())
    configs: list[tuple[str, int, bool]] = [(f"local-{j}", j, False) for j in (1, args.jobs)]
    configs += [(f"dask-{n}", n, True) for n in dask_workers]
    figures: list[dict[str, Any]] = []
    results: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory(prefix="hopsim-scaling-") as tmp:
        for name, n, on_dask in configs:
            out = Path(tmp) / name
            load = os.getloadavg()[0]  # other work on the machine skews the ratio
            wall = dask_sweep(spec, out, n) if on_dask else timed_sweep(spec, out, jobs=n)
            results[name], busy = stored(out)
            figures.append(
                {
                    "name": name,
                    "workers": n,
                    "wall_s": wall,
                    "busy_s": busy,
                    "events": events_of(results[name]),
                    "speedup": figures[0]["wall_s"] / wall if figures else 1.0,
                    "identical": results[name] == results[configs[0][0]],
                    "load_before": load,
                }
            )
            f = figures[-1]
            print(
                f"{name}: {runs} runs in {wall:.2f} s wall, speed-up {f['speedup']:.2f}x "
                f"({busy:.2f} s summed per-run time, {busy / runs:.3f} s per run; "
                f"load average before {load:.2f}; store identical to local-1: "
                f"{'yes' if f['identical'] else 'NO'})"
            )
    walls = {f["workers"]: f["wall_s"] for f in figures if f["name"].startswith("local")}
    ratio = walls[args.jobs] / walls[1]
    print(f"ratio jobs={args.jobs} / jobs=1: {ratio:.3f} (ideal {1 / args.jobs:.2f})")
    same = all(f["identical"] for f in figures)
    print(f"stores identical: {'yes' if same else 'NO'}")
    doc = {
        "runs": runs,
        "duration_s": args.duration,
        "wall_s": walls,
        "ratio": round(ratio, 3),
        "identical": same,
        "configs": figures,
    }
    if args.json:
        args.json.write_text(json.dumps(doc, indent=1))
    print(json.dumps({"runs": runs, "wall_s": walls, "ratio": round(ratio, 3)}))


if __name__ == "__main__":
    main()

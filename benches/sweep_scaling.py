"""Scaling of the local sweep executor: the same 64-run sweep with 1 and with 2 processes.

    .venv/bin/python benches/sweep_scaling.py [--duration 300] [--jobs 2]

Each run is one TCP NewReno bulk transfer over a 4-hop chain (the set-up of
scenarios/chain-tcp.toml) for --duration simulated seconds, ~0.2-0.5 s of wall time;
4 window limits x 16 replications = 64 runs. Each sweep goes into a fresh temporary folder,
so nothing is reused. Prints the wall times, the ratio (the target on 2 free cores is
<= 0.6; 0.5 is perfect scaling) and the summed per-run times, which show how much of the
wall time is simulation rather than process start-up and store writes. A benchmark: it
reports, it does not assert (other load on the machine changes the figures).
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=300.0, help="simulated s per run")
    parser.add_argument("--jobs", type=int, default=2, help="processes of the parallel sweep")
    args = parser.parse_args()
    spec = load_sweep(sweep_doc(args.duration))
    runs = len(spec.tasks())
    walls: dict[int, float] = {}
    results: dict[int, dict[str, str]] = {}
    with tempfile.TemporaryDirectory(prefix="hopsim-scaling-") as tmp:
        for jobs in (1, args.jobs):
            out = Path(tmp) / f"jobs{jobs}"
            load = os.getloadavg()[0]  # other work on the machine skews the ratio
            t0 = time.perf_counter()
            report = run_sweep(spec, out, jobs=jobs, progress="off")
            walls[jobs] = time.perf_counter() - t0
            results[jobs], busy = stored(out)
            assert report.done == runs and report.failed == 0, report
            print(
                f"jobs={jobs}: {runs} runs in {walls[jobs]:.2f} s wall "
                f"({busy:.2f} s summed per-run time, {busy / runs:.3f} s per run; "
                f"load average before {load:.2f})"
            )
    ratio = walls[args.jobs] / walls[1]
    print(f"ratio jobs={args.jobs} / jobs=1: {ratio:.3f} (ideal {1 / args.jobs:.2f})")
    same = results[1] == results[args.jobs]
    print(f"stores identical: {'yes' if same else 'NO'}")
    print(json.dumps({"runs": runs, "wall_s": walls, "ratio": round(ratio, 3)}))


if __name__ == "__main__":
    main()

"""A sweep sharing its warm-up against the same sweep without (issue 35's target: 8 window
limits on the 7-hop TCP chain, a 100 s warm-up shared, at least 1.5x faster, the same CIs
within noise). `make bench` runs it; it reports, it does not assert.

Both sweeps measure over [100 s, 200 s] (``warmup_s = 100``); with ``shared_warmup_s = 100``
each replication runs [0, 100 s] once and forks its 8 points there. Wall time of
``run_sweep`` into a fresh folder, local processes.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from hopsim.sweeps import load_sweep, run_sweep, summarize

LIMITS = [1, 2, 3, 4, 6, 8, 12, 0]


def sweep(shared: bool, replications: int, duration_s: float, warmup_s: float) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "name": "cwl-shared" if shared else "cwl",
        "base": str(Path(__file__).resolve().parent.parent / "scenarios" / "chain-tcp.toml"),
        "replications": replications,
        "metrics": ["goodput_kbps"],
        "set": {"duration_s": duration_s, "warmup_s": warmup_s},
        "sweep": {"tcp.max_window": LIMITS},
    }
    if shared:
        doc["shared_warmup_s"] = warmup_s
    return doc


def timed(doc: dict[str, Any], jobs: int) -> tuple[float, Any]:
    spec = load_sweep(doc)
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        run_sweep(spec, out, jobs=jobs, progress="off")
        wall = time.perf_counter() - t0
        rows = summarize(out)
    return wall, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 s warm-up of 40 s, 2 reps")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    reps, duration, warmup = (2, 40.0, 20.0) if args.quick else (4, 200.0, 100.0)
    plain_s, plain = timed(sweep(False, reps, duration, warmup), args.jobs)
    shared_s, shared = timed(sweep(True, reps, duration, warmup), args.jobs)
    print(
        f"sweep of {len(LIMITS)} window limits x {reps} replications, 7-hop chain, "
        f"{warmup:g} s warm-up of {duration:g} s, {args.jobs} processes:"
    )
    print(
        f"  without sharing {plain_s:6.2f} s   shared warm-up {shared_s:6.2f} s   "
        f"speed-up {plain_s / shared_s:.2f}x"
    )
    print("  goodput_kbps (mean +- 95% half-width): limit, without, shared")
    for a, b in zip(plain, shared, strict=True):
        sa, sb = a.stats["goodput_kbps"], b.stats["goodput_kbps"]
        print(
            f"  {a.params['tcp.max_window']:>5} {sa.mean:8.1f} +- {sa.half_width:5.1f}"
            f" {sb.mean:8.1f} +- {sb.half_width:5.1f}"
        )


if __name__ == "__main__":
    main()

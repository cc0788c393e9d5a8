"""Mesh routing against AODV on the same network (issue 36's target: a 100-node
random network with OLSR at no less than half the simulated seconds per wall second of the
same network with AODV). `make bench` runs it; it reports, it does not assert.

The network is `speed_scenarios.random100` (100 static nodes in 1 km x 1 km, ten CBR flows),
run with each protocol; best of ``--repeats`` wall times of ``run_json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import speed_scenarios  # noqa: E402

from hopsim import _core  # noqa: E402

PROTOCOLS = ("aodv", "olsr", "hwmp")


def best_wall_s(doc: dict, repeats: int) -> tuple[float, dict]:
    """The shortest of ``repeats`` runs of ``doc`` and the last result."""
    text, best, result = json.dumps(doc), float("inf"), {}
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = json.loads(_core.run_json(text))
        best = min(best, time.perf_counter() - t0)
    return best, result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--quick", action="store_true", help="50 s runs, 3 repeats")
    p.add_argument("--repeats", type=int, default=5)
    args = p.parse_args(argv)
    durations = [50.0] if args.quick else [50.0, 200.0]
    repeats = 3 if args.quick else args.repeats
    print("| network | protocol | wall s | simulated s / wall s | events | vs AODV |")
    print("|---|---|---|---|---|---|")
    for duration_s in durations:
        base = speed_scenarios.random100(duration_s)
        speed = {}
        for protocol in PROTOCOLS:
            doc = dict(base, routing={"protocol": protocol})
            wall_s, r = best_wall_s(doc, repeats)
            speed[protocol] = duration_s / wall_s
            ratio = speed[protocol] / speed["aodv"]
            print(
                f"| random100, {duration_s:.0f} s | {protocol} | {wall_s:.3f} | "
                f"{speed[protocol]:.1f} | {r['engine']['events']:,} | {ratio:.2f} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Steps per second of hopsim.gym's environments (issue 35's targets; `make bench` runs it).

One WindowEnv on the 7-hop TCP chain with 10 ms steps (target: 20,000 steps/s), and the
native vector environment with 1 and 2 worker threads (target: 2 workers at least 1.8x one
environment). Episodes are 1000 simulated seconds long, so no step is a reset; a constant
action of 4 segments. Reports, does not assert: best of 3.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

import hopsim.gym as hg


def single(steps: int) -> float:
    env = hg.WindowEnv(hg.chain_scenario(7, duration_s=1000.0))
    best = 0.0
    for seed in (1, 2, 3):
        env.reset(seed=seed)
        action = np.array([4.0], np.float32)
        t0 = time.perf_counter()
        for _ in range(steps):
            env.step(action)
        best = max(best, steps / (time.perf_counter() - t0))
    return best


def vector(num_envs: int, workers: int, steps: int) -> float:
    env = hg.VecWindowEnv(
        hg.chain_scenario(7, duration_s=1000.0), num_envs=num_envs, workers=workers
    )
    best = 0.0
    for seed in (1, 2, 3):
        env.reset(seed=seed)
        actions = np.full((num_envs, 1), 4.0, np.float32)
        t0 = time.perf_counter()
        for _ in range(steps // num_envs):
            env.step(actions)
        best = max(best, (steps // num_envs) * num_envs / (time.perf_counter() - t0))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a fifth of the steps")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    steps = 20_000 if args.quick else 100_000
    one = single(steps)
    rows = {"single env steps/s": one}
    for n in (16, 64):
        for w in (1, 2):
            rows[f"vector {n} envs, {w} worker(s), env steps/s"] = vector(n, w, steps)
    print(f"hopsim.gym, 7-hop TCP chain, 10 ms steps (load {os.getloadavg()[0]:.2f}):")
    for name, value in rows.items():
        print(f"  {name:42s} {value:>10,.0f}  ({value / one:.2f}x one env)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()

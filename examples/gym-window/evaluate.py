"""What cem.py and ppo.py share: the scenario, an episode under a policy, and the table of
a policy beside fixed windows, Chen's hop-based limit, NewReno without a limit and Vegas
(goodput and one-way delay from each run's result, over held-out seeds, 95% CIs)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

import hopsim
import hopsim.gym as hg
from hopsim.sweeps import summarize_values

HOPS = 7
STEP_S = 0.2
LOW, HIGH = 1.0, 32.0
Policy = Callable[[np.ndarray], float]


def scenario(duration_s: float) -> dict[str, Any]:
    doc = hg.chain_scenario(HOPS, duration_s=duration_s)
    doc["warmup_s"] = 5.0  # the result's goodput and delay are measured from here
    return doc


def make_env(duration_s: float) -> hg.WindowEnv:
    return hg.WindowEnv(scenario(duration_s), step_s=STEP_S, action_low=LOW, action_high=HIGH)


def episode(env: hg.WindowEnv, seed: int, policy: Policy) -> tuple[float, hopsim.Result]:
    """The episode's return and its result (goodput, delay) under ``policy(obs)``."""
    obs, _ = env.reset(seed=seed)
    total = 0.0
    while True:
        obs, reward, terminated, truncated, _ = env.step(np.array([policy(obs)], np.float32))
        total += reward
        if terminated or truncated:
            return total, env.result()


def compare(
    policies: dict[str, Policy], duration_s: float, seeds: list[int]
) -> dict[str, dict[str, list[float]]]:
    """Each policy's return, goodput and delay per seed, then the baselines' runs."""
    env = make_env(duration_s)
    rows: dict[str, dict[str, list[float]]] = {}
    for name, policy in {
        **policies,
        "fixed window 32 (bad)": lambda o: 32.0,
        "fixed window 2": lambda o: 2.0,
    }.items():
        row = rows.setdefault(name, {"return": [], "goodput": [], "delay": []})
        for s in seeds:
            ret, res = episode(env, s, policy)
            row["return"].append(ret)
            row["goodput"].append(res.flows[0].goodput_kbps)
            row["delay"].append(res.flows[0].mean_delay_ms)
    for name, overrides in (
        ("Chen hop-based limit", {"tcp.window_limit": "hop_based"}),
        ("NewReno, no limit", {}),
        ("Vegas", {"tcp.variant": "vegas"}),
    ):
        row = rows.setdefault(name, {"return": [], "goodput": [], "delay": []})
        for s in seeds:
            res = hopsim.run(scenario(duration_s), overrides, seed=s)
            row["goodput"].append(res.flows[0].goodput_kbps)
            row["delay"].append(res.flows[0].mean_delay_ms)
    return rows


def _ci(values: list[float]) -> str:
    if not values:
        return "-"
    s = summarize_values(values)
    return f"{s.mean:.1f} ± {s.half_width:.1f}" if math.isfinite(s.half_width) else f"{s.mean:.1f}"


def print_table(rows: dict[str, dict[str, list[float]]], duration_s: float, seeds: int) -> None:
    print(
        f"\n{HOPS}-hop chain, {duration_s:g} s episodes, {seeds} held-out seeds "
        "(mean ± 95% half-width):"
    )
    print(f"| {'policy':22s} | {'return':>14s} | {'goodput kbit/s':>14s} | {'delay ms':>14s} |")
    print(f"|{'-' * 24}|{'-' * 15}:|{'-' * 15}:|{'-' * 15}:|")
    for name, row in rows.items():
        print(
            f"| {name:22s} | {_ci(row['return']):>14s} | {_ci(row['goodput']):>14s} | "
            f"{_ci(row['delay']):>14s} |"
        )

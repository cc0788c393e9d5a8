"""Learn a TCP window policy for a 7-hop 802.11 chain with the cross-entropy method (numpy
only), then set it beside fixed windows, Chen's hop-based limit and TCP Vegas: goodput and
delay over held-out seeds with 95% confidence intervals (examples/gym-window/README.md).

    python examples/gym-window/cem.py --quick      # a few seconds (the CI's form)
    python examples/gym-window/cem.py              # the README's table

The policy is linear in the last step's observation: the queueing ratio q (RTT over the
least RTT, less one), the goodput g in Mbit/s and the window in use c over 8 set the flow's
window limit w = clip(theta . [1, q, g, c], 1, 32) segments.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from evaluate import HIGH, LOW, compare, episode, make_env, print_table

import hopsim.gym as hg

Q, G, C, BASE = (hg.OBS_INDEX[k] for k in ("rtt_ms", "goodput_kbps", "cwnd_segments", "min_rtt_ms"))


def window(theta: np.ndarray, obs: np.ndarray) -> float:
    q = obs[Q] / obs[BASE] - 1.0 if obs[BASE] > 0 and obs[Q] > 0 else 0.0
    return float(np.clip(theta @ np.array([1.0, q, obs[G] * 1e-3, obs[C] / 8.0]), LOW, HIGH))


def cem(
    duration_s: float, iterations: int, population: int, seeds: list[int], rng: np.random.Generator
) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """The cross-entropy method: sample parameters, keep the best quarter, refit, repeat."""
    env = make_env(duration_s)
    mean, std = np.array([4.0, 0.0, 0.0, 0.0]), np.array([3.0, 1.0, 1.0, 1.0])
    curve = []
    for _ in range(iterations):
        thetas = mean + std * rng.standard_normal((population, len(mean)))
        scores = [
            np.mean([episode(env, s, lambda o, t=t: window(t, o))[0] for s in seeds])
            for t in thetas
        ]
        elite = thetas[np.argsort(scores)[-max(2, population // 4) :]]
        # The floor keeps the search from collapsing before it has found the ridge.
        mean, std = elite.mean(axis=0), np.maximum(elite.std(axis=0), 0.3)
        curve.append((float(np.mean(scores)), float(np.max(scores))))
    return mean, curve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer iterations and seeds")
    parser.add_argument("--figure", type=Path, help="draw the learning curve and the bars")
    args = parser.parse_args()
    duration = 30.0 if args.quick else 60.0
    iterations, population = (6, 16) if args.quick else (12, 24)
    train_seeds = [1] if args.quick else [1, 2]
    test_seeds = list(range(101, 105 if args.quick else 111))
    theta, curve = cem(duration, iterations, population, train_seeds, np.random.default_rng(7))
    print("learned theta (1, queueing ratio, goodput Mbit/s, cwnd/8):", np.round(theta, 2))
    rows = compare({"learned (CEM)": lambda o: window(theta, o)}, duration, test_seeds)
    print_table(rows, duration, len(test_seeds))
    if args.figure:
        draw(args.figure, curve, rows)


def draw(
    path: Path, curve: list[tuple[float, float]], rows: dict[str, dict[str, list[float]]]
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from hopsim.sweeps import summarize_values

    fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.2))
    it = range(1, len(curve) + 1)
    a.plot(it, [m for m, _ in curve], marker="o", label="population mean")
    a.plot(it, [b for _, b in curve], marker="s", label="best")
    a.set(xlabel="CEM iteration", ylabel="episode return", title="learning the window")
    a.legend()
    names = list(rows)
    delay = [np.mean(rows[n]["delay"]) for n in names]
    errs = [summarize_values(rows[n]["delay"]).half_width for n in names]
    b.barh(names, delay, xerr=errs, color="tab:orange")
    b.set(xlabel="one-way delay (ms)", title="held-out seeds")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=80)


if __name__ == "__main__":
    main()

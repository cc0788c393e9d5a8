"""The best congestion window limit (CWL) per chain length on 802.11n, with and without
A-MPDUs, beside Chen et al.'s hop-based rule (examples/window-80211n/README.md).

    python examples/window-80211n/best_window.py [--fixed DIR] [--rule DIR] [--out PNG]

Reads the stores of sweep.toml (fixed CWLs) and rule.toml (the policies), prints one table
row per (chain length, aggregation) and draws a two-panel figure: goodput against the CWL
for some chain lengths, and the best CWL against the chain length beside Chen's Table 1.
The best CWL is the argmax of the mean goodput; "within CI" lists the CWLs whose mean lies
inside the best one's 95% confidence interval (as the chen-cwl study reads its optimum).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import hopsim  # noqa: E402
from hopsim.studies.chen_cwl import Optimum, optimum, table1  # noqa: E402
from hopsim.sweeps import Summary, summarize_values  # noqa: E402

AGG = "mac.ampdu_max_bytes"
CWL = "tcp.max_window"
HOPS = "topology.hops"
GOODPUT = "goodput_kbps"
DRAWN_HOPS = (1, 2, 4, 8)  # the chains of the left panel
LABEL = {0: "one MPDU per access", 65535: "A-MPDUs (Block Ack)"}
COLOR = {0: "tab:orange", 65535: "tab:blue"}


def summaries(df, by: list[str], metric: str) -> dict[tuple, Summary]:
    """(values of ``by``) -> summary of ``metric`` over the replications."""
    out: dict[tuple, Summary] = {}
    for key, group in df.groupby(by):
        s = summarize_values(group[metric].tolist())
        if s is not None:
            out[tuple(int(k) if isinstance(k, float) else k for k in key)] = s
    return out


def share(part: Summary | None, whole: float) -> str:
    """A policy's mean goodput as a share of the best fixed CWL's."""
    return "    -" if part is None else f"{part.mean / whole:5.0%}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fixed", default="results/window-80211n", help="store of sweep.toml")
    ap.add_argument("--rule", default="results/window-80211n-rule", help="store of rule.toml")
    ap.add_argument("--out", default="results/window-80211n/best_window.png")
    args = ap.parse_args()

    fixed = hopsim.results(args.fixed, per="run")
    rule = hopsim.results(args.rule, per="run")
    good = summaries(fixed, [AGG, HOPS, CWL], GOODPUT)
    ampdu = summaries(fixed, [AGG, HOPS, CWL], "totals.mean_ampdu_mpdus")
    policy = summaries(rule, [AGG, HOPS, "tcp.window_limit"], GOODPUT)
    limit = summaries(rule, [AGG, HOPS, "tcp.window_limit"], "avg_window_limit")
    aggs = sorted({k[0] for k in good})
    hops = sorted({k[1] for k in good})

    best: dict[int, list[Optimum]] = {a: [] for a in aggs}
    print("goodput kbit/s (mean ± 95% CI half-width); a policy's goodput as a share of the best")
    print(
        f"{'hops':>4}  {'A-MPDUs':7}  {'best CWL':>8}  {'within CI':>9}  {'goodput':>16}  "
        f"{'MPDUs':>5}  "
        f"{'hop-based':>13}  {'delay-based':>13}  {'no CWL':>7}"
    )
    for h in hops:
        for a in aggs:
            curve = {c: s for (aa, hh, c), s in good.items() if aa == a and hh == h}
            o = optimum(h, curve)
            best[a].append(o)
            s = curve[o.best]
            mpdus = ampdu.get((a, h, o.best))
            hw = 0.0 if math.isnan(s.half_width) else s.half_width
            delay = limit.get((a, h, "delay_based"))
            print(
                f"{h:4d}  {'yes' if a else 'no':7}  {o.best:8d}  {o.near_text():>9}  "
                f"{s.mean:7,.0f} ± {hw:6,.0f}  {'-' if mpdus is None else f'{mpdus.mean:.1f}':>5}  "
                f"{table1(2 * h):3d}: {share(policy.get((a, h, 'hop_based')), s.mean)}  "
                f"{'-' if delay is None else f'{delay.mean:3.1f}'}: "
                f"{share(policy.get((a, h, 'delay_based')), s.mean)}  "
                f"{share(policy.get((a, h, 'none')), s.mean):>7}"
            )

    fig, (left, right) = plt.subplots(1, 2, figsize=(11.0, 5.2))
    for a in aggs:
        for i, h in enumerate(DRAWN_HOPS):
            pts = sorted((c, s) for (aa, hh, c), s in good.items() if aa == a and hh == h)
            if not pts:
                continue
            xs = [c for c, _ in pts]
            ys = [s.mean for _, s in pts]
            err = [0.0 if math.isnan(s.half_width) else s.half_width for _, s in pts]
            left.errorbar(
                xs,
                ys,
                yerr=err,
                color=COLOR[a],
                marker="os^D"[i % 4],
                markersize=4,
                capsize=2,
                linestyle="-" if a else "--",
                label=f"{h} hop{'s' if h > 1 else ''}, {LABEL[a]}",
            )
    left.set_xscale("log", base=2)
    left.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    left.set_xticks([1, 2, 4, 8, 17, 32, 64])
    left.set_yscale("log")
    left.set_xlabel("window limit (CWL, segments)")
    left.set_ylabel("goodput (kbit/s; 95% CI)")
    left.set_title("goodput vs CWL, 802.11n MCS 4 chains")
    left.legend(fontsize=7, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.16))
    for a in aggs:
        opts = best[a]
        bars = [[o.best - min(o.near) for o in opts], [max(o.near) - o.best for o in opts]]
        right.errorbar(
            [o.h for o in opts],
            [o.best for o in opts],
            yerr=bars,
            color=COLOR[a],
            marker="o",
            capsize=3,
            linestyle="none",
            label=f"best CWL, {LABEL[a]} (bars: within CI)",
        )
    grid = list(range(1, max(hops) + 1))
    right.step(
        grid,
        [table1(2 * h) for h in grid],
        where="mid",
        color="black",
        linestyle="--",
        label="Chen et al. Table 1 (hop-based)",
    )
    right.set_yscale("log", base=2)
    right.yaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    right.set_yticks([1, 2, 3, 4, 8, 17, 32, 64])
    right.set_xlabel("chain length h (hops)")
    right.set_ylabel("CWL (segments)")
    right.set_title("best CWL vs chain length")
    right.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16))
    fig.tight_layout()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=90)
    print(f"figure: {out}")


if __name__ == "__main__":
    main()

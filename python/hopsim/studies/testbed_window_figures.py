"""The figures of the testbed study (:mod:`hopsim.studies.testbed_window`): throughput and
RTT against the maximum window per hop count and rate (as the paper's Figs. 2-13), and the
survey of random pairs."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from .common import StudyContext
from .testbed_window import HOPS, OFF, ON, WINDOWS, Grid, _w


def _panel(ax: Any, xs: list[int], ys: list[float | None], **kw: Any) -> None:
    ax.plot(xs, [math.nan if y is None else y for y in ys], **kw)


def _axes(ax: Any, ylabel: str, logy: bool = False) -> None:
    ax.set_xticks(range(len(WINDOWS)), [_w(w) if w else "unc." for w in WINDOWS])
    ax.set_ylabel(ylabel)
    ax.set_xlabel("max window (MSS)")
    if logy:
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)


def rate_figure(ctx: StudyContext, g: Grid, rate: Any) -> None:
    """As the paper's Figs. 2-13 for one rate: throughput (top) and RTT (bottom) vs max
    window per hop count; thin lines are single pairs (mean of their runs), thick the mean
    over the pairs (what Table 3 is read from)."""
    fig, axes = ctx.subplots(2, 4, figsize=(14, 7))
    xs = list(range(len(WINDOWS)))
    rows = (("goodput_kbps", "goodput (kbit/s)"), ("rtt_ms.mean", "mean RTT (ms, log)"))
    for col, h in enumerate(HOPS):
        keys = sorted(k for k, v in g.hops.items() if v == h)
        for row, (metric, label) in enumerate(rows):
            ax = axes[row][col]
            for rts, colour in ((ON, "tab:red"), (OFF, "tab:blue")):
                style = {"color": colour, "linestyle": "-" if rts == ON else "--"}
                for k in keys:
                    ys = [g.cells.get((k, rate, rts, w), {}).get(metric) for w in WINDOWS]
                    _panel(ax, xs, ys, alpha=0.35, linewidth=0.8, **style)
                ys = [g.mean(metric, h, rate, rts, w) for w in WINDOWS]
                name = f"RTS/CTS {'on' if rts == ON else 'off'}, mean"
                _panel(ax, xs, ys, linewidth=2.2, marker="o", markersize=4, label=name, **style)
            # A hop count without a pair (none carried TCP) has nothing to log-scale.
            _axes(ax, label, logy=row == 1 and bool(keys))
            if row == 0:
                ax.set_title(f"{h} hop{'s' * (h > 1)} ({len(keys)} pairs)", fontsize=10)
    axes[0][0].legend(fontsize=8)
    what = "auto rate (SampleRate)" if rate == "auto" else f"{rate} Mbit/s"
    title = f"TCP-SACK on a 32-node testbed, {what}; thin lines: single pairs (cf. S003 Figs. 2-13)"
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    ctx.save_figure(fig, f"testbed-rate-{str(rate).replace('.', '_')}", dpi=110)


def survey_figure(ctx: StudyContext, points: Sequence[Any], limit: float) -> None:
    fig, ax = ctx.subplots(figsize=(6.4, 4.4))
    jitter = random.Random(0)
    hs = [p.stats["hops"].mean + jitter.uniform(-0.15, 0.15) for p in points]
    ax.scatter(hs, [p.stats["goodput_kbps"].mean for p in points], s=14, label="random ETX pair")
    ax.axhline(limit, color="grey", linestyle=":", label=f"{limit:.0f} kbit/s ('close to zero')")
    ax.plot([3, 4], [300, 390], "kx", label="paper: 3-hop < 300, 4-hop <= 390 kbit/s")
    ax.set_xticks(HOPS)
    ax.set_yscale("log")
    ax.set_xlabel("hops of the frozen ETX route")
    ax.set_ylabel("goodput (kbit/s)")
    ax.set_title("Random pairs, cards' defaults: auto rate, RTS/CTS off, unclamped", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    ctx.save_figure(fig, "testbed-survey", dpi=110)

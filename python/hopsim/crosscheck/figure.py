"""The crosscheck figure: goodput per point, ns-2 beside hopsim, with 95% intervals."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ..sweeps.plot import axis_label

__all__ = ["draw"]


def _label(params: dict[str, Any]) -> str:
    return ", ".join(f"{k.rsplit('.', 1)[-1]}={v}" for k, v in params.items()) or "scenario"


def draw(report: Any, stem: Path, metric: str = "goodput_kbps") -> list[Path]:
    """Grouped bars (one group per point): ns-2 and each hopsim profile; PNG and PDF."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = report.metric_rows(metric)
    series = [("ns-2.35", [r.ns2 for r in rows])] + [
        (f"hopsim ({p})", [r.hopsim.get(p) for r in rows]) for p in report.profiles
    ]
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(max(6.0, 0.6 * len(rows) * len(series)), 4.0))
    for k, (name, stats) in enumerate(series):
        xs = [i + (k - (len(series) - 1) / 2) * width for i in range(len(rows))]
        means = [s.mean if s else math.nan for s in stats]
        errs = [s.half_width if s and not math.isnan(s.half_width) else 0.0 for s in stats]
        ax.bar(xs, means, width, yerr=errs, capsize=3, label=name)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([_label(r.params) for r in rows], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(axis_label(metric))
    ax.set_title(f"{report.name}: ns-2.35 and hopsim (95% CI)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    paths = []
    for ext in ("png", "pdf"):
        p = stem.with_suffix(f".{ext}")
        fig.savefig(p, dpi=120)
        paths.append(p)
    plt.close(fig)
    return paths

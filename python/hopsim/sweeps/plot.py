"""Figures of sweep results with 95% confidence-interval error bars (matplotlib).

``plot_points`` draws one metric against one swept key, one line per value of a series key
(or per combination of the remaining swept keys) for a numeric key, points per category side
by side for a categorical one, and writes PNG and PDF. What it draws (groups, x positions,
means and 95% CI bars) comes from :func:`ci_layout`, which ``hopsim view``'s SVG plots draw
too: the two renderers differ only in their medium.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from .._core import ScenarioError
from ..tables import short_names
from .runner import PointSummary

__all__ = ["CiGroup", "CiLayout", "CiPoint", "axis_label", "ci_layout", "default_x", "plot_points"]

#: Axis labels with units, for swept keys (matched on the last path components) and metrics.
LABELS = {
    "topology.hops": "hops",
    "hops": "hops",
    "topology.spacing_m": "node spacing (m)",
    "tcp.max_window": "congestion window limit (segments)",
    "max_window": "congestion window limit (segments)",
    "mac.data_rate_mbps": "data rate (Mbit/s)",
    "data_rate_mbps": "data rate (Mbit/s)",
    "interval_s": "inter-send time (s)",
    "tcp.variant": "TCP variant",
    "routing.protocol": "routing protocol",
    "duration_s": "simulated time (s)",
    "goodput_kbps": "goodput (kbit/s)",
    "throughput_pps": "throughput (packets/s)",
    "retransmissions": "transport retransmissions (segments)",
    "timeouts": "retransmission timeouts",
    "avg_cwnd": "average congestion window (segments)",
    "avg_window_limit": "average window limit (segments)",
    "mean_delay_ms": "end-to-end delay (ms)",
    "false_route_failures": "false route failures",
    "route_failures": "route failures",
    "slow_start_fraction": "time in slow start (fraction)",
    "link_drop_probability": "link-layer drop probability",
    "mac_retries": "MAC retries",
    "collisions": "collisions",
    "routing_packets": "routing packets",
    "rtt_ms.mean": "mean RTT (ms)",
    "rtt_ms.p50": "median RTT (ms)",
    "rtt_ms.p95": "95th percentile RTT (ms)",
    "flows": "flows",
}


def axis_label(name: str) -> str:
    """A label with units for a swept key or a metric name (``sum:goodput_kbps`` too)."""
    agg, sep, field = name.partition(":")
    if not sep:
        agg, field = "", name
    field = field.removeprefix("totals.")
    parts = field.split(".")
    for n in range(len(parts)):
        key = ".".join(parts[n:])
        if key in LABELS:
            label = LABELS[key]
            break
    else:
        label = field
    if agg == "jain":
        return f"Jain fairness of {label}"
    if agg in ("mean", "min", "max") or agg.startswith("flow"):
        return f"{label}, {agg}"
    return label


def _value_text(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _numeric(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


@dataclass(frozen=True)
class CiPoint:
    """One point of a CI plot: where it goes and its mean with the 95% CI half-width."""

    summary: PointSummary
    x: float  # position: the value, or the category's index for a categorical x
    raw: Any  # the x value as swept (the point number without swept keys)
    mean: float
    half_width: float  # 0 when unknown (one replication)


@dataclass(frozen=True)
class CiGroup:
    label: str | None  # None: the only group, nothing to tell apart
    points: list[CiPoint]  # by x


@dataclass(frozen=True)
class CiLayout:
    """A sweep's CI plot of ``y`` against ``x``, before any drawing."""

    x: str | None  # None: the point number (a sweep with no swept key)
    y: str
    categories: list[Any]  # the x values in sweep order when x is categorical, else empty
    groups: list[CiGroup]

    def offset(self, group: int) -> float:
        """The group's shift in x units: categorical groups share each category's slot."""
        if not self.categories:
            return 0.0
        width = 0.8 / len(self.groups)
        return (group - (len(self.groups) - 1) / 2) * width


def default_x(points: Sequence[PointSummary]) -> str | None:
    """The swept key to plot against when none is named: the first whose values are numbers
    that vary, else the first swept key (None without one)."""
    keys = list(points[0].params) if points else []
    for key in keys:
        values = {_hashable(p.params[key]) for p in points}
        if len(values) > 1 and all(_numeric(v) is not None for v in values):
            return key
    return keys[0] if keys else None


def ci_layout(
    points: Sequence[PointSummary], x: str | None, y: str, series: str | None = None
) -> CiLayout:
    """Group the points for a plot of ``y`` against ``x`` with 95% CI bars.

    Groups: one per value of ``series`` if given, else one per combination of the swept keys
    other than ``x``, leaving out keys that vary with ``x`` (a ``[[sweep.zip]]`` partner such
    as the destination of a chain). Points without a finite mean of ``y`` are left out.

    Raises:
        ScenarioError: ``x``/``series`` is not a swept key, ``y`` not a metric of the points,
            or no point has a value of ``y``.
    """
    if not points:
        raise ScenarioError("nothing to plot: the store has no finished runs for this sweep")
    keys = list(points[0].params)
    for name, what in ((x, "--x"), (series, "--series")):
        if name is not None and name not in keys:
            raise ScenarioError(
                f"{what} {name}: not a swept key of this sweep; swept keys: {', '.join(keys)}"
            )
    if y not in points[0].stats:
        raise ScenarioError(
            f"--y {y}: not a metric of this sweep; metrics: {', '.join(points[0].stats)}"
        )
    categories = _categories(points, x) if x is not None else []
    others = [k for k in keys if k != x and (x is None or not _tied(points, x, k))]
    if series is not None:
        others.sort(key=lambda k: k != series)
    names = short_names(others)  # legend keys: last parts, distinct (0.interval_s)
    groups: dict[tuple[Any, ...], list[CiPoint]] = {}
    for p in points:
        stat = p.stats.get(y)
        if stat is None or not math.isfinite(stat.mean):
            continue
        raw = p.params[x] if x is not None else p.point
        pos = categories.index(_hashable(raw)) if categories else _numeric(raw)
        err = stat.half_width if math.isfinite(stat.half_width) else 0.0
        label_key = tuple((k, _hashable(p.params[k])) for k in others)
        groups.setdefault(label_key, []).append(CiPoint(p, float(pos), raw, stat.mean, err))
    if not groups:
        raise ScenarioError(
            f"--y {y}: no point of this sweep has a value (e.g. a TCP metric of UDP flows, or "
            "a transfer that never completed); nothing to plot"
        )
    return CiLayout(
        x,
        y,
        categories,
        [
            CiGroup(
                ", ".join(f"{names[k]}={_value_text(v)}" for k, v in key) or None,
                sorted(pts, key=lambda c: c.x),
            )
            for key, pts in groups.items()
        ],
    )


def plot_points(
    points: Sequence[PointSummary],
    x: str,
    y: str,
    out_stem: str | PathLike[str],
    series: str | None = None,
    title: str | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    logx: bool = False,
    extra: Sequence[tuple[str, Sequence[float], Sequence[float]]] = (),
) -> list[Path]:
    """Draw ``y`` (a metric) against ``x`` (a swept key); write ``out_stem``.png and .pdf.

    Groups as :func:`ci_layout` makes them. A numeric ``x`` gives lines; a categorical one
    (strings, booleans, e.g. ``tcp.variant``) gives points per category, the groups side by
    side. Error bars are the 95% confidence intervals (none for one replication). ``extra``:
    further (label, xs, ys) lines drawn dashed, e.g. a paper's values (numeric ``x`` only).

    Raises:
        ScenarioError: as :func:`ci_layout` (never an empty figure).
    """
    layout = ci_layout(points, x, y, series)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    categories = layout.categories
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for g, group in enumerate(layout.groups):
        shift = layout.offset(g)
        ax.errorbar(
            [c.x + shift for c in group.points],
            [c.mean for c in group.points],
            yerr=[c.half_width for c in group.points],
            marker="o",
            markersize=5 if categories else 4,
            capsize=3,
            linestyle="none" if categories else "-",
            label=group.label,
        )
    if categories:
        ax.set_xticks(range(len(categories)), [_value_text(c) for c in categories])
        ax.set_xlim(-0.6, len(categories) - 0.4)
    else:
        for label, xs, ys in extra:
            ax.plot(xs, ys, linestyle="--", marker="x", color="black", label=label)
        if all(float(v).is_integer() for v in _x_values(points, x)) and not logx:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(xlabel or axis_label(x))
    ax.set_ylabel(ylabel or axis_label(y))
    if logx and not categories:
        ax.set_xscale("log", base=2)
    if title:
        ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.3)
    if len(layout.groups) > 1 or (extra and not categories):
        ax.legend(fontsize=8)
    fig.tight_layout()
    stem = Path(out_stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    # Not with_suffix: a stem may contain dots (goodput-vs-topology.hops).
    paths = [stem.parent / f"{stem.name}.png", stem.parent / f"{stem.name}.pdf"]
    for path in paths:
        fig.savefig(path, dpi=120)
    plt.close(fig)
    return paths


def _categories(points: Sequence[PointSummary], x: str) -> list[Any]:
    """The values of ``x`` in sweep order when any is not a number (else empty: numeric)."""
    values = [_hashable(p.params[x]) for p in points]
    if all(_numeric(v) is not None for v in values):
        return []
    return list(dict.fromkeys(values))


def _x_values(points: Sequence[PointSummary], x: str) -> list[float]:
    return [v for p in points if (v := _numeric(p.params[x])) is not None]


def _tied(points: Sequence[PointSummary], x: str, key: str) -> bool:
    """Whether ``key`` takes a single value for each value of ``x`` (and varies at all)."""
    seen: dict[Any, set[Any]] = {}
    for p in points:
        seen.setdefault(_hashable(p.params[x]), set()).add(_hashable(p.params[key]))
    values = set().union(*seen.values())
    return len(values) > 1 and all(len(v) == 1 for v in seen.values())


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value

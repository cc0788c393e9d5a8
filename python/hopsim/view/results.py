"""``hopsim view DIR``: an index page of a result store, each sweep's metrics plotted against
its first swept key with 95% CIs, every replication of every point linking to its run's
explorer page. The run pages are regenerated from the stored resolved scenarios (hopsim's
runs are deterministic) and each says whether the rerun gave the stored result bit for bit.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .._core import ScenarioError

__all__ = ["MAX_PAGES", "write_index"]

#: Run pages written at most (each up to about 7 MB); the others can be asked for by name.
MAX_PAGES = 40
#: Fields of a result document that name the build or the wall time, not the simulation.
#: ``series`` is added by the page's own sampling, which changes nothing else.
_NOT_COMPARED = ("engine", "hopsim_version", "wall_time_s", "series")


def write_index(
    folder: Path, out: Path, sweep: str | None = None, max_pages: int = MAX_PAGES
) -> dict[str, Any]:
    """Write ``out`` (the index) and ``out``'s folder ``runs/`` (run pages); what was written.

    Raises:
        ScenarioError: no such sweep, or the store cannot be read.
    """
    from ..sweeps import ResultStore, summarize
    from .data import page_data
    from .page import render

    with ResultStore(folder, create=False) as store:
        sweeps = store.sweeps()
        names = [sweep] if sweep is not None else list(sweeps)
        if sweep is not None and sweep not in sweeps:
            raise ScenarioError(
                f"--sweep {sweep!r}: not in this store; sweeps: {', '.join(sweeps) or 'none'}"
            )
        runs_dir = out.parent / "runs"
        runs_dir.mkdir(parents=True, exist_ok=True)
        sections, written, identical, skipped = [], 0, 0, 0
        for name in names:
            spec = sweeps[name]["spec"]
            metrics = list(spec.get("metrics") or [])
            points = summarize(store, name, metrics)
            runs = store.runs(name)
            pages: dict[str, str] = {}
            for run in runs:
                if written >= max_pages:
                    skipped += 1
                    continue
                stored = store.result(run.run_key)
                scenario = stored["scenario"]
                data = page_data(scenario, window_s=None)
                same = _same(stored, data.pop("_result"))
                identical += same
                data["provenance"] = _provenance(name, run, same, stored)
                page = runs_dir / f"{run.run_key[:16]}.html"
                page.write_text(render(data), encoding="utf-8")
                pages[run.run_key] = f"runs/{page.name}"
                written += 1
            sections.append(_section(name, spec, metrics, points, runs, pages))
    note = (
        f"<p class=note>{skipped} run pages not written (at most {max_pages}); "
        "use --sweep NAME or --max-pages N.</p>"
        if skipped
        else ""
    )
    out.write_text(_INDEX.format(title=html.escape(str(folder)), note=note, body="".join(sections)))
    return {"pages": written, "identical": identical, "skipped": skipped, "sweeps": names}


def _same(stored: Mapping[str, Any], rerun: Mapping[str, Any]) -> bool:
    a = {k: v for k, v in stored.items() if k not in _NOT_COMPARED}
    b = {k: v for k, v in rerun.items() if k not in _NOT_COMPARED}
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _provenance(name: str, run: Any, same: bool, stored: Mapping[str, Any]) -> str:
    what = ", ".join(f"{k} = {v}" for k, v in run.params.items())
    check = (
        "regenerated from the stored scenario: the same result, bit for bit"
        if same
        else "regenerated from the stored scenario: the result DIFFERS from the stored one "
        f"(stored by hopsim {stored.get('hopsim_version', '?')})"
    )
    where = f"point {run.point} ({what}), replication {run.replication}, seed {run.seed}"
    return f"sweep {name}, {where}: {check}"


def _section(
    name: str,
    spec: Mapping[str, Any],
    metrics: Sequence[str],
    points: Sequence[Any],
    runs: Sequence[Any],
    pages: Mapping[str, str],
) -> str:
    keys = list(points[0].params) if points else []
    x_key = _x_key(keys, points)
    by_point: dict[int, list[Any]] = {}
    for run in runs:
        by_point.setdefault(run.point, []).append(run)
    plots = "".join(_plot(metric, x_key, points, by_point, pages) for metric in metrics)
    rows = []
    for p in points:
        links = " ".join(
            f'<a class="run" href="{pages[r.run_key]}">rep {r.replication}</a>'
            if r.run_key in pages
            else f"rep {r.replication}"
            for r in by_point.get(p.point, [])
        )
        params = ", ".join(f"{k} = {html.escape(str(v))}" for k, v in p.params.items())
        rows.append(f"<tr><td>{p.point}</td><td>{params}</td><td>{links}</td></tr>")
    return (
        f"<h2>{html.escape(name)}</h2>{plots}"
        f"<table><tr><th>point</th><th>parameters</th><th>runs</th></tr>{''.join(rows)}</table>"
    )


def _plot(
    metric: str,
    x_key: str | None,
    points: Sequence[Any],
    by_point: Mapping[int, list[Any]],
    pages: Mapping[str, str],
) -> str:
    """An SVG of ``metric`` per point (mean and 95% CI), each point a link to its first run."""
    values = [(p, p.stats.get(metric)) for p in points]
    values = [(p, s) for p, s in values if s is not None and math.isfinite(s.mean)]
    # One colour per combination of the other swept keys (a legend names them).
    tied = _tied_keys(points, x_key)
    groups = sorted({_others(p, x_key, tied) for p, _ in values})
    if not values:
        return f"<p>{html.escape(metric)}: no value</p>"
    xs = [p.params.get(x_key) if x_key else p.point for p, _ in values]
    numeric = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in xs)
    categories = sorted({str(x) for x in xs}) if not numeric else []
    pos = [float(x) if numeric else categories.index(str(x)) for x in xs]
    lo = [s.mean - (s.half_width if math.isfinite(s.half_width) else 0) for _, s in values]
    hi = [s.mean + (s.half_width if math.isfinite(s.half_width) else 0) for _, s in values]
    w, h, pad = 640, 240, 48
    x0, x1 = min(pos), max(pos)
    y0, y1 = min(0.0, min(lo)), max(hi) or 1.0
    sx = lambda v: pad + (v - x0) / ((x1 - x0) or 1) * (w - 2 * pad)  # noqa: E731
    sy = lambda v: h - pad + -(v - y0) / ((y1 - y0) or 1) * (h - 2 * pad)  # noqa: E731
    parts = [f'<svg class="plot" viewBox="0 0 {w} {h}" data-metric="{html.escape(metric)}">']
    parts.append(f'<text x="{pad}" y="16">{html.escape(metric)} (mean, 95% CI)</text>')
    parts.append(f'<text x="{w // 2}" y="{h - 8}">{html.escape(str(x_key or "point"))}</text>')
    parts.append(f'<text x="4" y="{sy(y1) + 4:.0f}">{y1:.4g}</text>')
    parts.append(f'<text x="4" y="{sy(y0):.0f}">{y0:.4g}</text>')
    for k, g in enumerate(groups):
        if g:
            colour = _COLOURS[k % len(_COLOURS)]
            label = html.escape(g)
            at = f'x="{w - pad}" y="{16 + 13 * k}"'
            parts.append(f'<text {at} fill="{colour}" class="legend">{label}</text>')
    for (p, s), x, a, b, raw in zip(values, pos, lo, hi, xs, strict=True):
        k = groups.index(_others(p, x_key, tied))
        colour = _COLOURS[k % len(_COLOURS)]
        shift = (k - (len(groups) - 1) / 2) * 6
        cx, cy = sx(x) + shift, sy(s.mean)
        ci = f'x1="{cx:.1f}" x2="{cx:.1f}" y1="{sy(a):.1f}" y2="{sy(b):.1f}"'
        parts.append(f'<line {ci} class="ci" stroke="{colour}"/>')
        first = next((r for r in by_point.get(p.point, []) if r.run_key in pages), None)
        dot = (
            f'<circle class="point" cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="{colour}" '
            f'data-point="{p.point}">'
            f"<title>{html.escape(str(raw))}: {s.mean:.4g}</title></circle>"
        )
        parts.append(f'<a href="{pages[first.run_key]}">{dot}</a>' if first else dot)
        tick = html.escape(str(raw))
        parts.append(f'<text x="{sx(x):.1f}" y="{h - pad + 14}" class="tick">{tick}</text>')
    parts.append("</svg>")
    return "".join(parts)


_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"]


def _x_key(keys: Sequence[str], points: Sequence[Any]) -> str | None:
    """The swept key on the x axis: the first with numbers that vary, else the first."""
    for key in keys:
        values = {p.params.get(key) for p in points}
        if len(values) > 1 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in values
        ):
            return key
    return keys[0] if keys else None


def _others(point: Any, x_key: str | None, tied: frozenset[str] = frozenset()) -> str:
    """The point's values of the swept keys that are neither on the x axis nor tied to it."""
    return ", ".join(f"{k} = {v}" for k, v in point.params.items() if k != x_key and k not in tied)


def _tied_keys(points: Sequence[Any], x_key: str | None) -> frozenset[str]:
    """Keys that take one value per value of the x key (swept together with it: a zip)."""
    if x_key is None or not points:
        return frozenset()
    tied = set()
    for key in points[0].params:
        seen: dict[str, set[str]] = {}
        for p in points:
            seen.setdefault(str(p.params.get(x_key)), set()).add(str(p.params.get(key)))
        if key != x_key and all(len(v) == 1 for v in seen.values()) and len(seen) > 1:
            tied.add(key)
    return frozenset(tied)


_INDEX = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>hopsim results: {title}</title>
<style>
body {{ font: 13px/1.4 system-ui, sans-serif; margin: 12px 16px; }}
svg.plot {{ width: 640px; height: 240px; border: 1px solid #ddd; margin: 6px 0; display: block; }}
svg.plot circle.point {{ cursor: pointer; }}
svg.plot line.ci {{ stroke-width: 2; }}
svg.plot text.legend {{ text-anchor: end; }}
svg.plot text {{ font-size: 11px; }} svg.plot text.tick {{ text-anchor: middle; }}
table {{ border-collapse: collapse; }} td, th {{ padding: 1px 8px; border-bottom: 1px solid #eee; }}
.note {{ color: #a05a00; }}
</style></head>
<body><h1>hopsim results: {title}</h1>
<p>Each point is the mean over its replications with its 95% confidence interval; click a point
(or a replication below) for the run's explorer page, regenerated from the stored scenario.</p>
{note}{body}
</body></html>
"""

"""``hopsim view DIR``: an index page of a result store, each sweep's metrics plotted against
its first swept key with 95% CIs, every replication of every point linking to its run's
explorer page. The run pages are regenerated from the stored resolved scenarios (hopsim's
runs are deterministic) and each says whether the rerun gave the stored result bit for bit.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .._core import ScenarioError
from ..output import make_folder, writing

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
        make_folder(runs_dir, f"the run pages' folder {str(runs_dir)!r}")
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
                with writing(page, f"the run page {str(page)!r}"):
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
    with writing(out, f"the index {str(out)!r}"):
        out.write_text(
            _INDEX.format(title=html.escape(str(folder)), note=note, body="".join(sections))
        )
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
    from ..sweeps.plot import default_x

    x_key = default_x(points)
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
    """An SVG of ``metric`` per point (mean and 95% CI), each point a link to its first run.

    What is drawn is ``hopsim plot``'s figure (:func:`hopsim.sweeps.plot.ci_layout`): the same
    groups, positions and CI bars, drawn as SVG with links instead of matplotlib.
    """
    from ..sweeps.plot import ci_layout

    try:
        layout = ci_layout(points, x_key, metric)
    except ScenarioError:
        return f"<p>{html.escape(metric)}: no value</p>"
    placed = [
        (g, c, c.x + layout.offset(g))
        for g, group in enumerate(layout.groups)
        for c in group.points
    ]
    lo = [c.mean - c.half_width for _, c, _ in placed]
    hi = [c.mean + c.half_width for _, c, _ in placed]
    w, h, pad = 640, 240, 48
    x0 = min(x for _, _, x in placed) if not layout.categories else -0.6
    x1 = max(x for _, _, x in placed) if not layout.categories else len(layout.categories) - 0.4
    y0, y1 = min(0.0, min(lo)), max(hi) or 1.0
    sx = lambda v: pad + (v - x0) / ((x1 - x0) or 1) * (w - 2 * pad)  # noqa: E731
    sy = lambda v: h - pad + -(v - y0) / ((y1 - y0) or 1) * (h - 2 * pad)  # noqa: E731
    parts = [f'<svg class="plot" viewBox="0 0 {w} {h}" data-metric="{html.escape(metric)}">']
    parts.append(f'<text x="{pad}" y="16">{html.escape(metric)} (mean, 95% CI)</text>')
    parts.append(f'<text x="{w // 2}" y="{h - 8}">{html.escape(str(x_key or "point"))}</text>')
    parts.append(f'<text x="4" y="{sy(y1) + 4:.0f}">{y1:.4g}</text>')
    parts.append(f'<text x="4" y="{sy(y0):.0f}">{y0:.4g}</text>')
    for k, group in enumerate(layout.groups):
        if group.label:
            colour = _COLOURS[k % len(_COLOURS)]
            at = f'x="{w - pad}" y="{16 + 13 * k}"'
            label = html.escape(group.label)
            parts.append(f'<text {at} fill="{colour}" class="legend">{label}</text>')
    ticks: dict[str, float] = {}
    for k, c, x in placed:
        colour = _COLOURS[k % len(_COLOURS)]
        cx, cy = sx(x), sy(c.mean)
        a, b = sy(c.mean - c.half_width), sy(c.mean + c.half_width)
        parts.append(
            f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{a:.1f}" y2="{b:.1f}" class="ci" '
            f'stroke="{colour}"/>'
        )
        point = c.summary.point
        first = next((r for r in by_point.get(point, []) if r.run_key in pages), None)
        dot = (
            f'<circle class="point" cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="{colour}" '
            f'data-point="{point}"><title>{html.escape(str(c.raw))}: {c.mean:.4g}</title></circle>'
        )
        parts.append(f'<a href="{pages[first.run_key]}">{dot}</a>' if first else dot)
        ticks.setdefault(str(c.raw), sx(c.x))
    for text, tx in ticks.items():
        parts.append(
            f'<text x="{tx:.1f}" y="{h - pad + 14}" class="tick">{html.escape(text)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"]


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

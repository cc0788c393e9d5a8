"""A picture of a scenario's network: nodes with their numbers, decode and carrier-sense
links, flows and the routes they took, mobility tracks (``hopsim show``).

Static routing's routes are known before the run (shortest paths over decode links at time
0). AODV, DSR and ETX find theirs while they run, so for them the scenario is run and each
flow's routes are drawn with their share of the measurement window (the result's ``paths``;
an empty route is time without one).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from ._core import ScenarioError

__all__ = ["FlowRoutes", "NetworkPicture", "network_picture", "draw_network"]

#: The formats ``hopsim show`` writes (by suffix; both without one).
FORMATS = ("png", "svg")
#: Routes drawn per flow (the rest are summed into the text summary).
MAX_ROUTES_DRAWN = 4
#: Above this many nodes, labels and sense links are left out of the picture.
MANY_NODES = 150
#: Resolution of the PNG (dots per inch; the SVG is vector).
DEFAULT_DPI = 130.0


@dataclass
class FlowRoutes:
    """One flow and its routes: ``(nodes, time share)``, the largest share first."""

    index: int
    src: int
    dst: int
    transport: str
    routes: list[tuple[list[int], float]]
    goodput_kbps: float | None = None

    @property
    def label(self) -> str:
        return f"flow {self.index}: {self.src}\u2192{self.dst} ({self.transport})"


@dataclass
class NetworkPicture:
    """What ``hopsim show`` draws: the layout and each flow's routes."""

    positions: list[tuple[float, float]]
    moves: list[list[list[float]]]
    decode_links: list[tuple[int, int]]
    sense_links: list[tuple[int, int]]
    flows: list[FlowRoutes]
    protocol: str
    ran: bool
    title: str = ""
    notes: list[str] = field(default_factory=list)


def network_picture(
    scenario: Any,
    overrides: Any = None,
    seed: int | None = None,
    run: bool | None = None,
    result: Any = None,
    name: str | None = None,
) -> NetworkPicture:
    """The layout of ``scenario`` and its flows' routes (``hopsim show`` draws it with
    matplotlib, ``hopsim view`` in the browser).

    ``run``: run the scenario to learn the routes of AODV, DSR and ETX (default: only for
    those protocols; False draws their shortest paths at time 0 instead). ``result``: a
    result of this scenario already at hand (its routes are used, nothing is run).

    Raises:
        ScenarioError: the scenario or an override was rejected.
    """
    from . import _core
    from .api import prepare as prepare_scenario
    from .api import run as run_scenario
    from .scenario import to_json

    doc = prepare_scenario(scenario, overrides, seed)
    text = to_json(doc)
    resolved = json.loads(_core.validate_json(text))
    layout = json.loads(_core.layout_json(text))
    protocol = str(resolved["routing"]["protocol"])
    dynamic = protocol != "static"
    do_run = dynamic if run is None else run
    flows = []
    for i, (f, path) in enumerate(zip(layout["flows"], layout["shortest_paths"], strict=True)):
        routes = [(list(path), 1.0)] if path else []
        flows.append(FlowRoutes(i, f["src"], f["dst"], f["transport"], routes))
    notes = []
    if result is not None or do_run:
        result = result if result is not None else run_scenario(doc)
        do_run = True
        for fr, res in zip(flows, result.raw["flows"], strict=True):
            fr.routes = [(list(p["nodes"]), float(p["time_share"])) for p in res.get("paths", [])]
            fr.goodput_kbps = float(res["goodput_kbps"])
    elif dynamic:
        notes.append(f"{protocol}: not run, so the routes shown are the shortest paths at time 0")
    if name is None:
        name = Path(scenario).stem if isinstance(scenario, (str, PathLike)) else "scenario"
    if any(layout["moves"]):
        notes.append(
            "nodes move: they are drawn where they start, so routes formed later may join "
            "nodes that are far apart at time 0"
        )
    return NetworkPicture(
        positions=[(float(x), float(y)) for x, y in layout["positions"]],
        moves=layout["moves"],
        decode_links=[(a, b) for a, b in layout["decode_links"]],
        sense_links=[(a, b) for a, b in layout["sense_links"]],
        flows=flows,
        protocol=protocol,
        ran=do_run,
        title=(
            f"{name}: {len(layout['positions'])} nodes, {protocol} routing"
            + (", positions at time 0" if any(layout["moves"]) else "")
            + (", routes with their share of time" if do_run else "")
        ),
        notes=notes,
    )


def output_paths(out: str | PathLike[str]) -> list[Path]:
    """The files for ``-o``: FILE.png or FILE.svg as given, both for a name without suffix.

    Raises:
        ScenarioError: another suffix.
    """
    path = Path(out)
    suffix = path.suffix.lower().lstrip(".")
    if not path.name or str(out).endswith(("/", ".")):
        raise ScenarioError(f"-o {str(out)!r}: not allowed, give a file name (e.g. net.png)")
    if suffix in FORMATS:
        return [path]
    if suffix:
        raise ScenarioError(
            f"-o {str(out)!r}: the suffix .{suffix} is not allowed; use .png, .svg, or no "
            "suffix for both"
        )
    return [path.with_name(f"{path.name}.{fmt}") for fmt in FORMATS]


def draw_network(
    pic: NetworkPicture,
    paths: Sequence[str | PathLike[str]],
    links: str = "all",
    dpi: float = DEFAULT_DPI,
) -> list[Path]:
    """Draw ``pic`` into each of ``paths`` (PNG or SVG by suffix; ``dpi`` for PNG).

    ``links``: ``all`` (decode and carrier-sense links), ``decode`` or ``none``.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [p[0] for p in pic.positions] + [m[2] for ms in pic.moves for m in ms]
    ys = [p[1] for p in pic.positions] + [m[3] for ms in pic.moves for m in ms]
    width_m = max(max(xs) - min(xs), 1.0)
    height_m = max(max(ys) - min(ys), 1.0)
    aspect = height_m / width_m
    fig_w = 10.0
    rows = math.ceil((len(pic.flows) + 3) / 2)  # legend rows: flows, link kinds, tracks
    fig_h = min(max(fig_w * aspect, 3.0), 12.0) + 1.0 + 0.22 * rows
    fig, ax = plt.subplots(figsize=(fig_w, fig_h))
    many = len(pic.positions) > MANY_NODES
    pos = pic.positions
    handles = _draw_routes(ax, pic, width_m, height_m)
    handles += _draw_links(ax, pic, links, many)
    handles += _draw_tracks(ax, pic)
    ax.scatter(
        [p[0] for p in pos], [p[1] for p in pos], s=150 if not many else 12, zorder=4,
        color="white", edgecolors="black", linewidths=1.0,
    )  # fmt: skip
    if not many:
        for i, (x, y) in enumerate(pos):
            ax.annotate(str(i), (x, y), fontsize=6.5, ha="center", va="center", zorder=5)
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_title(pic.title, fontsize=10)
    ax.grid(True, alpha=0.2)
    # The legend gets its own strip under the axes, sized by its rows (never on the labels).
    rows = math.ceil(len(handles) / 2)
    strip = min((0.22 * rows + 0.15) / fig_h, 0.45) if handles else 0.0
    if handles:
        fig.legend(
            handles=handles, fontsize=7, loc="lower center", ncol=2, frameon=False,
            bbox_to_anchor=(0.5, 0.0),
        )  # fmt: skip
    fig.tight_layout(rect=(0.0, strip, 1.0, 1.0))
    written = []
    for p in paths:
        path = Path(p)
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=dpi)
        written.append(path)
    plt.close(fig)
    return written


def _draw_links(ax: Any, pic: NetworkPicture, links: str, many: bool) -> list[Any]:
    """Decode links straight, carrier-sense-only links as dotted arcs (visible on a chain,
    where they would lie on the decode links); returns their legend entries."""
    from matplotlib.lines import Line2D

    pos = pic.positions
    handles = []
    if links in ("all", "decode") and pic.decode_links:
        for a, b in pic.decode_links:
            ax.plot(*zip(pos[a], pos[b], strict=True), color="0.55", lw=0.8, zorder=1)
        handles.append(Line2D([], [], color="0.55", lw=0.8, label="decodes (time 0)"))
    if links == "all" and not many and pic.sense_links:
        for a, b in pic.sense_links:
            ax.annotate(
                "", xy=pos[b], xytext=pos[a], zorder=1,
                arrowprops={"arrowstyle": "-", "color": "0.7", "lw": 0.6, "ls": ":",
                            "connectionstyle": "arc3,rad=0.25", "shrinkA": 0, "shrinkB": 0},
            )  # fmt: skip
        handles.append(
            Line2D([], [], color="0.7", lw=0.6, ls=":", label="senses carrier only (time 0)")
        )
    return handles


def _draw_tracks(ax: Any, pic: NetworkPicture) -> list[Any]:
    """Each moving node's waypoints, from its start position."""
    from matplotlib.lines import Line2D

    moving = False
    for start, moves in zip(pic.positions, pic.moves, strict=True):
        if not moves:
            continue
        moving = True
        xs = [start[0]] + [m[2] for m in moves]
        ys = [start[1]] + [m[3] for m in moves]
        ax.plot(xs, ys, color="tab:olive", lw=0.5, alpha=0.3, zorder=0)
    if not moving:
        return []
    return [Line2D([], [], color="tab:olive", lw=0.5, alpha=0.6, label="mobility tracks")]


def _draw_routes(ax: Any, pic: NetworkPicture, width_m: float, height_m: float) -> list[Any]:
    """Each flow's routes as arrows, widths by time share, flows side by side."""
    from matplotlib.lines import Line2D

    colours = [f"C{i % 10}" for i in range(len(pic.flows))]
    # Flows on one link are drawn side by side, within 3% of the picture's extent in all.
    n = len(pic.flows)
    extent_m = max(width_m, height_m)
    offset_m = min(0.006 * extent_m, 0.03 * extent_m / max(n - 1, 1))
    handles = []
    for k, fr in enumerate(pic.flows):
        shift = (k - (len(pic.flows) - 1) / 2) * offset_m if len(pic.flows) > 1 else 0.0
        drawn = [(nodes, share) for nodes, share in fr.routes if nodes][:MAX_ROUTES_DRAWN]
        for nodes, share in drawn:
            pts = [pic.positions[n] for n in nodes]
            for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
                dx, dy = x1 - x0, y1 - y0
                norm = math.hypot(dx, dy) or 1.0
                ox, oy = -dy / norm * shift, dx / norm * shift
                ax.annotate(
                    "", xy=(x1 + ox, y1 + oy), xytext=(x0 + ox, y0 + oy), zorder=3,
                    arrowprops={"arrowstyle": "-|>", "color": colours[k], "alpha": 0.85,
                                "lw": 0.6 + 2.4 * share, "shrinkA": 5, "shrinkB": 5},
                )  # fmt: skip
        handles.append(Line2D([], [], color=colours[k], lw=2, label=_legend(fr, pic.ran)))
    return handles


def _legend(fr: FlowRoutes, ran: bool) -> str:
    parts = [fr.label]
    if fr.goodput_kbps is not None:
        parts.append(f"{fr.goodput_kbps:,.0f} kbit/s")
    if not fr.routes:
        parts.append("no route" if ran else "unreachable at time 0")
    else:
        best = fr.routes[0]
        shown = "-".join(map(str, best[0])) if best[0] else "no route"
        parts.append(f"{shown} {best[1]:.0%}" if ran else shown)
        if len(fr.routes) > 1:
            parts.append(f"+{len(fr.routes) - 1} more")
    return ", ".join(parts)


def summary_lines(pic: NetworkPicture) -> list[str]:
    """The picture in words: one line per flow and route."""
    lines = [
        f"{pic.title}; {len(pic.decode_links)} decode links, {len(pic.sense_links)} "
        "carrier-sense-only links at time 0"
    ]
    for fr in pic.flows:
        head = fr.label + (
            f", {fr.goodput_kbps:,.1f} kbit/s" if fr.goodput_kbps is not None else ""
        )
        lines.append(head)
        if not fr.routes:
            lines.append("    no route" if pic.ran else "    unreachable at time 0")
        for nodes, share in fr.routes:
            route = "-".join(map(str, nodes)) if nodes else "(no route)"
            lines.append(f"    {share:6.1%}  {route}" if pic.ran else f"    {route}")
    lines.extend(pic.notes)
    return lines

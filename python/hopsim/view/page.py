"""The run explorer's page: one self-contained HTML file (the data, the script and the style
inlined; nothing is fetched), for ``hopsim view``."""

from __future__ import annotations

import html
from collections.abc import Mapping
from importlib import resources
from typing import Any

from .data import to_json

__all__ = ["render"]

_LEGEND = (
    '<span><i style="background:#1f77b4"></i>DATA</span>'
    '<span><i style="background:#ff7f0e"></i>RTS</span>'
    '<span><i style="background:#2ca02c"></i>CTS</span>'
    '<span><i style="background:#9467bd"></i>ACK</span>'
    '<span><i style="background:rgba(0,0,0,.15)"></i>NAV</span>'
    '<span><i style="background:#e6a800;height:2px"></i>queue length</span>'
    '<span><i style="background:#d00;width:3px"></i>lost reception</span>'
    "<span>&#9660; drop (click: its packet's journey)</span>"
)
#: Routing control frames by role (viewer.js ROLE_COLOUR).
_ROLE_COLOUR = {
    "request": "#17becf", "reply": "#bcbd22", "error": "#8b0000", "beacon": "#c49c94",
    "other": "#555",
}  # fmt: skip
_ROUTE_LEGEND = (
    '<span><i style="background:#d62728;opacity:.55"></i>route in use (per flow, '
    "hover: its nodes)</span>"
    '<span><i style="background:#000;width:2px"></i>route change</span>'
    '<span><i style="background:repeating-linear-gradient(135deg,#999 0 1px,#fff 1px 4px)">'
    "</i>no route</span>"
)


def _legend(data: Mapping[str, Any]) -> str:
    """The legend: frame kinds, the routing control messages of this run, the route lanes."""
    roles = data.get("control_roles", [])
    controls = "".join(
        f'<span class="control"><i style="background:{_ROLE_COLOUR[roles[role]]}"></i>'
        f"{html.escape(name)}</span>"
        for name, role in data.get("control_kinds", [])
    )
    return _LEGEND + controls + (_ROUTE_LEGEND if data["flows"] else "")


def render(data: Mapping[str, Any]) -> str:
    """The HTML page for ``data`` (from :func:`hopsim.view.data.page_data`)."""
    files = resources.files(__package__)
    script = files.joinpath("viewer.js").read_text(encoding="utf-8")
    style = files.joinpath("viewer.css").read_text(encoding="utf-8")
    lo, hi = data["window"]
    notes = []
    if data["cut"]:
        notes.append(
            f"The trace is cut at {hi:g} s to keep the page small; choose a window with "
            "--window FROM:TO to see a later part."
        )
    if data.get("provenance"):
        notes.insert(0, str(data["provenance"]))
    note_html = "".join(f'<p class="note">{html.escape(n)}</p>' for n in notes)
    shown = {k: v for k, v in data.items() if not k.startswith("_")}
    title = html.escape(data["title"])
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>hopsim: {title}</title>
<style>{style}</style></head>
<body>
<h1>{title}</h1>
<p>{lo:g} s to {hi:g} s of a {data["duration_s"]:g} s run. Scroll on the timeline to zoom,
drag to pan, double-click to see it all; click a frame or a drop for its packet's journey.</p>
{note_html}
<svg id="net" role="img" aria-label="network"></svg>
<div><button id="play" type="button">play</button>
<input id="t" type="range" min="0" value="0" style="width:80%;max-width:820px">
<span id="tlabel"></span></div>
<div class="legend">{_legend(data)}</div>
<canvas id="air"></canvas>
<div id="status"></div>
<div id="details"></div>
<div id="flows"></div>
<script type="application/json" id="data">{to_json(shown)}</script>
<script>{script}</script>
</body></html>
"""

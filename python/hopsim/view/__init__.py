"""``hopsim view``: a run explorer in one self-contained HTML page (no install, no server).

The run is regenerated with its event trace (hopsim's runs are deterministic), reduced to
what the page draws (:mod:`.data`) and written with the viewer inlined (:mod:`.page`).
"""

from __future__ import annotations

from os import PathLike
from typing import Any

from ..output import writing
from .data import page_data
from .page import render
from .results import write_index

__all__ = ["page_data", "render", "write_index", "write_view"]


def write_view(
    scenario: Any,
    out: str | PathLike[str],
    overrides: Any = None,
    seed: int | None = None,
    window_s: tuple[float, float] | None = None,
) -> dict[str, Any]:
    """Run ``scenario`` and write its explorer page to ``out``; the page's data.

    Raises:
        ScenarioError: the scenario, an override or the window was rejected.
    """
    data = page_data(scenario, overrides, seed, window_s)
    with writing(out, f"the page {str(out)!r}") as path:
        path.write_text(render(data), encoding="utf-8")
    return data

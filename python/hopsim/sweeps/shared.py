"""Sweeps whose points share a warm-up (issue 35): ``shared_warmup_s = W`` in a sweep file.

Each replication runs the base scenario (its seed, the swept keys at the base's values) once
to ``W``; every point of that replication is a fork of that paused run in which the point's
values are set as changes at ``W`` (hopsim.Simulation's changes, docs/interfaces.md), run to
the end. Points therefore share their randomness up to ``W`` as well as after it (common
random numbers), and a sweep of ``n`` points pays the warm-up once instead of ``n`` times.

Only what a paused run can change may differ between the base and a point: a flow's window
limit (``tcp.max_window``, ``flows.N.tcp.max_window``) and the queue limit
(``mac.queue_packets``); anything else is refused before any run, naming the key. The
measurement window must start at or after the fork (``warmup_s >= W``), so that what is
measured is each point's own. The store records it: the sweep document names
``shared_warmup_s``, and each run's scenario carries ``shared_warmup`` (the fork time and the
warm-up's values), which is part of its key: such a run is never taken for a run whose values
held from time 0.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from .._core import ScenarioError

__all__ = ["KEY", "Change", "changes", "check_setting", "check_spec", "key_document"]

KEY = "shared_warmup_s"
#: A change: ("window_limit", flow, segments or None) or ("queue_packets", None, packets).
Change = tuple[str, int | None, float | None]

_FLOW_LIMIT = re.compile(r"flows\.(\d+)\.tcp\.(max_window|window_limit)")
#: Resolved paths that follow from the ones that change (the tcp template's copies).
_FOLLOWERS = {"tcp.max_window", "tcp.window_limit"}
_CAN_VARY = "tcp.max_window, flows.N.tcp.max_window, mac.queue_packets"


def check_setting(value: Any) -> float | None:
    """The file's ``shared_warmup_s``: absent, or seconds above 0."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ScenarioError(f"{KEY} = {value!r}: a time in seconds, above 0")
    if value <= 0:
        raise ScenarioError(f"{KEY} = {value!r}: a time in seconds, above 0 (omit it for none)")
    return float(value)


def _differences(a: Any, b: Any, path: str, out: list[str]) -> None:
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for k in sorted(set(a) | set(b)):
            _differences(a.get(k), b.get(k), f"{path}.{k}" if path else str(k), out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _differences(x, y, f"{path}.{i}", out)
    elif a != b:
        out.append(path)


def changes(warmup: Mapping[str, Any], point: Mapping[str, Any], label: str) -> list[Change]:
    """What turns the resolved warm-up scenario into the resolved ``point`` at the fork.

    Raises:
        ScenarioError: the two differ in a key a paused run cannot change (naming it).
    """
    diff: list[str] = []
    _differences(warmup, point, "", diff)
    out: list[Change] = []
    for path in diff:
        if path in _FOLLOWERS:
            continue
        if path == "mac.queue_packets":
            out.append(("queue_packets", None, float(point["mac"]["queue_packets"])))
            continue
        m = _FLOW_LIMIT.fullmatch(path)
        if m is None:
            raise ScenarioError(
                f"sweep point {label}: `{path}` differs from the base, and it cannot change "
                f"in a paused run; with {KEY} a sweep may vary only {_CAN_VARY}"
            )
        flow = int(m.group(1))
        tcp = point["flows"][flow]["tcp"]
        for side in (warmup["flows"][flow]["tcp"], tcp):
            if side["window_limit"] not in ("none", "fixed"):
                raise ScenarioError(
                    f"sweep point {label}: flows.{flow}.tcp.window_limit = "
                    f"{side['window_limit']!r}: with {KEY} the window limit must be fixed "
                    "(or none) to be set at the fork"
                )
        change: Change = ("window_limit", flow, tcp["max_window"] or None)
        if change not in out:
            out.append(change)
    return out


def check_spec(
    base_resolved: Mapping[str, Any],
    points: list[tuple[str, Mapping[str, Any]]],
    at_s: float,
    simulator: str,
) -> None:
    """The sweep can share its warm-up: hopsim's engine, a fork before the end and before the
    measurement, and points that differ from the base only in what may change."""
    if simulator != "hopsim":
        raise ScenarioError(f"{KEY}: {simulator} cannot fork a run; only hopsim's engine can")
    duration, warmup = float(base_resolved["duration_s"]), float(base_resolved["warmup_s"])
    if at_s >= duration:
        raise ScenarioError(f"{KEY} = {at_s}: must be before the end (duration_s = {duration})")
    if warmup < at_s:
        raise ScenarioError(
            f"{KEY} = {at_s}: after warmup_s = {warmup}, so the measurement would include the "
            f"shared part; set warmup_s >= {at_s}"
        )
    for label, resolved in points:
        changes(base_resolved, resolved, label)


def warmup_values(base_resolved: Mapping[str, Any]) -> dict[str, Any]:
    """The values the changeable keys hold during the warm-up."""
    values: dict[str, Any] = {"mac.queue_packets": base_resolved["mac"]["queue_packets"]}
    for i, f in enumerate(base_resolved.get("flows", [])):
        if "tcp" in f:
            values[f"flows.{i}.tcp.max_window"] = f["tcp"]["max_window"]
    return values


def key_document(
    point_resolved: Mapping[str, Any], at_s: float, base_resolved: Mapping[str, Any]
) -> dict[str, Any]:
    """The run's scenario as the store keeps it (and keys it): the point's, and the fork."""
    doc = dict(point_resolved)
    doc["shared_warmup"] = {"at_s": at_s, "warmup": warmup_values(base_resolved)}
    return doc

"""What a sweep file may not say although each of its points is a valid scenario: a key with
stray spaces, a value listed twice on an axis, two points that are the same run, a metric
naming a flow the runs do not have. Each would run and report something other than what the
file asked for (a key silently merged with another, one point shown as several, a column of
dashes), so each is refused before any run, naming the key, the value and what is allowed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .._core import ScenarioError
from .metrics import FLOW_AGG

__all__ = [
    "check_flow_metrics",
    "check_key",
    "check_key_path",
    "check_repeats",
    "check_same_runs",
    "flow_count",
]


def check_key(where: str, key: str) -> None:
    """A dotted key of a sweep file (swept, set or quick) has no component with spaces
    around it: the overrides strip them, so ``"tcp.max_window "`` would silently be
    ``tcp.max_window`` swept a second time."""
    for part in key.split("."):
        if part != part.strip():
            raise ScenarioError(
                f"{where} {json.dumps(key)}: not allowed, the key component {json.dumps(part)} "
                "has spaces around it; a key is a dotted scenario path without spaces "
                f"(e.g. {json.dumps('.'.join(p.strip() for p in key.split('.')))})"
            )


def _same(a: Any, b: Any) -> bool:
    """Equal as scenario values (0 and 0.0 are the same value; true and 1 are not)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


def check_repeats(axes: Sequence[Sequence[str]], values: Mapping[str, list[Any]]) -> None:
    """No value (for a zip group: no combination of values) is listed twice on an axis:
    the repeats would be one point, run once and shown as several."""
    for axis in axes:
        rows = list(zip(*(values[k] for k in axis), strict=True))
        for i, row in enumerate(rows):
            repeats = [j for j in range(i + 1, len(rows)) if _same(row, rows[j])]
            if not repeats:
                continue
            at = ", ".join(str(j) for j in [i, *repeats])
            if len(axis) == 1:
                shown = f"{json.dumps(axis[0])} = {json.dumps(values[axis[0]])}"
                what = f"the value {json.dumps(row[0])}"
            else:
                shown = "zip group " + ", ".join(json.dumps(k) for k in axis)
                what = "the combination " + ", ".join(
                    f"{k} = {json.dumps(v)}" for k, v in zip(axis, row, strict=True)
                )
            raise ScenarioError(
                f"sweep {shown}: not allowed, {what} is listed {len(repeats) + 1} times "
                f"(positions {at}); each value of a swept key makes one point, so list it once "
                "(more runs of a point: replications = N)"
            )


def check_same_runs(labels: Sequence[str], resolved: Sequence[Mapping[str, Any]]) -> None:
    """No two points resolve to the same scenario (e.g. ``4`` and ``4.0``): they would be the
    same runs, stored once and reported twice."""
    seen: dict[str, int] = {}
    for i, doc in enumerate(resolved):
        text = json.dumps(doc, sort_keys=True)
        if text in seen:
            raise ScenarioError(
                f"sweep points {labels[seen[text]]} and {labels[i]}: not allowed, they are the "
                "same scenario once resolved (the same runs); list each value once"
            )
        seen[text] = i


def flow_count(resolved: Mapping[str, Any]) -> int:
    """The flows a run of this resolved scenario reports: its ``flows`` and its random ones."""
    traffic = resolved.get("traffic") or {}
    return len(resolved.get("flows") or []) + int(traffic.get("random_flows", 0))


def check_flow_metrics(
    metrics: Sequence[str], label: str, flows: int, where: str = "metrics:"
) -> None:
    """A ``flowN:`` metric names a flow of the point (flows are numbered from 0); ``where``
    names the key or option that gives it."""
    for name in metrics:
        agg = name.partition(":")[0] if ":" in name else ""
        if FLOW_AGG.fullmatch(agg) and int(agg[4:]) >= flows:
            allowed = {0: "none", 1: "flow0"}.get(flows, f"flow0..flow{flows - 1}")
            at = f"at sweep point {label}" if label != "(base)" else "in the base scenario"
            raise ScenarioError(
                f"{where} {json.dumps(name)} names flow {int(agg[4:])}, which does not exist "
                f"{at}: it has {flows} flow(s), numbered from 0 (allowed: {allowed})"
            )


def check_key_path(base: Mapping[str, Any], key: str) -> None:
    """A swept key must name a place in the scenario (unknown names fail in the core)."""
    parts = key.split(".")
    if any(not p for p in parts):
        raise ScenarioError(f'sweep "{key}": the key has an empty component')
    if key == "seed":
        raise ScenarioError(
            'sweep "seed": not allowed, each replication gets its own seed (derived from the '
            "sweep's `seed`); use replications = N for N seeds"
        )
    node: Any = base
    for i, part in enumerate(parts):
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                here = ".".join(parts[:i])
                raise ScenarioError(
                    f'sweep "{key}": {here} is a list of {len(node)} element(s), so {part!r} '
                    f"must be an index 0..{len(node) - 1}"
                )
            node = node[int(part)]
        elif isinstance(node, Mapping):
            if part not in node:
                return  # a key not written in the base: the core decides whether it exists
            node = node[part]
        else:
            return

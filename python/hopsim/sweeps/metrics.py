"""Named metrics of a run: one number from a result document.

Names:

* a per-flow field, ``goodput_kbps`` or ``rtt_ms.p50``: combined over the run's flows by
  the field's natural aggregate (a sum for counts and rates such as goodput, packets,
  retransmissions, timeouts, route failures; a mean for averages such as ``avg_cwnd``,
  ``hops``, delays and RTTs);
* ``AGG:field`` chooses the aggregate: ``sum``, ``mean``, ``min``, ``max``, ``jain``
  (Jain's fairness index, (sum x)^2 / (n sum x^2)) or ``flowN`` (flow N only);
* ``totals.field``: a network total (``totals.mac_retries``, ``totals.route_failures``,
  ``totals.link_drop_probability`` ...).

The fields and their aggregates are the core's result schema (:mod:`hopsim.schema`, the
table in docs/interfaces.md). Flows without the field (UDP flows have no ``avg_cwnd``) or with
a null value are left out; a metric with no value at all is ``None``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from .._core import ScenarioError
from ..schema import names

__all__ = ["AGGREGATES", "FLOW_FIELDS", "TOTAL_FIELDS", "check_metric_name", "metric_value"]

# The names and their natural aggregates are the core's result schema (hopsim.schema).
#: Per-flow fields summed over flows by default (rates and counts).
SUM_FIELDS = set(names("flow", metric="sum"))
#: Per-flow fields averaged over flows by default.
MEAN_FIELDS = set(names("flow", metric="mean"))
FLOW_FIELDS = SUM_FIELDS | MEAN_FIELDS
#: Network totals (``totals.NAME``).
TOTAL_FIELDS = set(names("totals", metric="total"))
AGGREGATES = ("sum", "mean", "min", "max", "jain")
#: ``flowN``: one flow, by its number (ASCII digits, no leading zero: ``flow01`` would be a
#: second name, and a second column, for ``flow1``).
FLOW_AGG = re.compile(r"flow(0|[1-9][0-9]*)", re.ASCII)


def _split(name: str) -> tuple[str, str]:
    agg, sep, field = name.partition(":")
    if not sep:
        return "", name
    return agg, field


def check_metric_name(name: Any) -> None:
    """Raise a :class:`ScenarioError` naming the metric and what is allowed, if unknown."""
    if not isinstance(name, str) or not name:
        raise ScenarioError(f"metrics: {name!r} is not a metric name")
    if name.startswith("totals."):
        field = name[len("totals.") :]
        if field not in TOTAL_FIELDS:
            raise ScenarioError(
                f"metrics: {name!r} is not a network total; allowed: "
                + ", ".join(f"totals.{f}" for f in sorted(TOTAL_FIELDS))
            )
        return
    agg, field = _split(name)
    if agg and agg not in AGGREGATES and not FLOW_AGG.fullmatch(agg):
        raise ScenarioError(
            f"metrics: {name!r} has the aggregate {agg!r}; allowed: "
            f"{', '.join(AGGREGATES)}, flowN (N a flow's number from 0 in ASCII digits, no "
            "leading zero: flow0, flow1, ...)"
        )
    if field not in FLOW_FIELDS:
        raise ScenarioError(
            f"metrics: {name!r}: {field!r} is not a flow metric; allowed: "
            f"{', '.join(sorted(FLOW_FIELDS))}, or totals.<field>"
        )


def _flow_field(flow: Mapping[str, Any], field: str) -> float | None:
    node: Any = flow
    for part in field.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    if isinstance(node, bool) or not isinstance(node, (int, float)):
        return None
    return float(node)


def metric_value(result: Mapping[str, Any], name: str) -> float | None:
    """The value of metric ``name`` in a result document (see the module docs)."""
    if name.startswith("totals."):
        value = result.get("totals", {}).get(name[len("totals.") :])
        return None if value is None else float(value)
    agg, field = _split(name)
    flows = result.get("flows", [])
    if agg.startswith("flow"):
        idx = int(agg[4:])
        return _flow_field(flows[idx], field) if idx < len(flows) else None
    values = [v for v in (_flow_field(f, field) for f in flows) if v is not None]
    if not values:
        return None
    if not agg:
        agg = "sum" if field in SUM_FIELDS else "mean"
    if agg == "sum":
        return math.fsum(values)
    if agg == "mean":
        return math.fsum(values) / len(values)
    if agg == "min":
        return min(values)
    if agg == "max":
        return max(values)
    # Jain's fairness index; all-zero flows are equally (un)served: 1.
    squares = math.fsum(v * v for v in values)
    if squares == 0.0:
        return 1.0
    return math.fsum(values) ** 2 / (len(values) * squares)


def run_metrics(result: Mapping[str, Any], names: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """``{name: value}`` for every metric name."""
    return {name: metric_value(result, name) for name in names}

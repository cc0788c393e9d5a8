"""Typed, read-only wrappers over the JSON result document (see docs/interfaces.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["FlowResult", "NodeResult", "Record", "Result", "Totals"]


class Record(Mapping[str, Any]):
    """A read-only record: attribute access (``r.goodput_kbps``) and mapping access (``r["x"]``).

    Keys the core adds later are reachable the same way; the annotations on the subclasses
    document the keys of the current contract.
    """

    __slots__ = ("_data",)
    _data: dict[str, Any]

    def __init__(self, data: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_data", dict(data))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._data[name]
        except KeyError:
            known = ", ".join(sorted(self._data))
            raise AttributeError(
                f"{type(self).__name__} has no field {name!r} (fields: {known})"
            ) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self._data))

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v!r}" for k, v in self._data.items())
        return f"{type(self).__name__}({body})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Record):
            return self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._data,))

    def to_dict(self) -> dict[str, Any]:
        """A plain-dict copy of the record."""
        return dict(self._data)


class FlowResult(Record):
    """One flow of the result document."""

    __slots__ = ()

    id: int
    src: int
    dst: int
    transport: str
    hops: int
    payload_bytes: int
    goodput_kbps: float
    packets_sent: int
    packets_delivered: int
    packets_dropped: int
    packets_in_flight: int
    mean_delay_ms: float | None


class _Counters(Record):
    __slots__ = ()

    mac_attempts: int
    mac_retries: int
    retry_limit_drops: int
    collisions: int
    queue_drops: int
    no_route_drops: int
    link_failures: int
    link_drop_probability: float
    rts_sent: int
    cts_sent: int
    data_sent: int
    ack_sent: int


class NodeResult(_Counters):
    """One node of the result document: position and MAC/queue/routing counters."""

    __slots__ = ()

    id: int
    x_m: float
    y_m: float


class Totals(_Counters):
    """The node counters summed over all nodes (``link_drop_probability`` over all links)."""

    __slots__ = ()


class Result:
    """The result of one run: a typed view over the JSON result document.

    ``raw`` is the document itself (a dict); ``flows``, ``nodes`` and ``totals`` give
    attribute access to its parts. ``wall_time_s`` is measured in Python around the call into
    the core and is not part of the document.
    """

    __slots__ = ("raw", "flows", "nodes", "totals", "wall_time_s")

    raw: dict[str, Any]
    flows: list[FlowResult]
    nodes: list[NodeResult]
    totals: Totals
    wall_time_s: float | None

    def __init__(self, raw: Mapping[str, Any], wall_time_s: float | None = None) -> None:
        self.raw = dict(raw)
        self.flows = [FlowResult(f) for f in self.raw.get("flows", [])]
        self.nodes = [NodeResult(n) for n in self.raw.get("nodes", [])]
        self.totals = Totals(self.raw.get("totals", {}))
        self.wall_time_s = wall_time_s

    @classmethod
    def from_json(cls, text: str, wall_time_s: float | None = None) -> Result:
        """Build a result from the JSON result document."""
        return cls(json.loads(text), wall_time_s=wall_time_s)

    def to_json(self, indent: int | None = None) -> str:
        """The JSON result document."""
        return json.dumps(self.raw, indent=indent, allow_nan=False)

    @property
    def hopsim_version(self) -> str:
        return str(self.raw.get("hopsim_version", ""))

    @property
    def seed(self) -> int:
        return int(self.raw["seed"])

    @property
    def duration_s(self) -> float:
        return float(self.raw["duration_s"])

    @property
    def warmup_s(self) -> float:
        return float(self.raw["warmup_s"])

    @property
    def scenario(self) -> dict[str, Any]:
        """The fully resolved scenario the core ran."""
        return dict(self.raw.get("scenario", {}))

    @property
    def violations(self) -> list[str]:
        """Invariant violations found during the run (empty when every check held)."""
        return list(self.raw.get("invariants", {}).get("violations", []))

    @property
    def events(self) -> int:
        """Number of events the engine processed."""
        return int(self.raw.get("engine", {}).get("events", 0))

    @property
    def sim_time_s(self) -> float:
        """Simulated time reached by the engine."""
        return float(self.raw.get("engine", {}).get("sim_time_s", 0.0))

    @property
    def events_per_s(self) -> float | None:
        """Events per wall-clock second (``None`` without a wall time)."""
        if not self.wall_time_s:
            return None
        return self.events / self.wall_time_s

    @property
    def speedup(self) -> float | None:
        """Simulated seconds per wall-clock second (``None`` without a wall time)."""
        if not self.wall_time_s:
            return None
        return self.sim_time_s / self.wall_time_s

    def __repr__(self) -> str:
        flows = ", ".join(
            f"{f.get('src')}->{f.get('dst')}: {f.get('goodput_kbps')} kbit/s" for f in self.flows
        )
        return f"Result(seed={self.raw.get('seed')}, flows=[{flows}])"

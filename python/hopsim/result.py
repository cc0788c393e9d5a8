"""Typed, read-only wrappers over the JSON result document (see docs/interfaces.md), and the
optional time series as a table (pyarrow) or a Parquet / Arrow / CSV file."""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterator, Mapping
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .schema import arrow_type, fields, names

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow

__all__ = [
    "SERIES_COLUMNS",
    "SERIES_FORMATS",
    "FlowResult",
    "NodeResult",
    "Record",
    "Result",
    "RttStats",
    "Totals",
]

#: Columns of the time series in the order they are written (the core's result schema,
#: docs/interfaces.md); columns the core adds later follow them.
SERIES_COLUMNS: tuple[str, ...] = names("series")

#: File formats of :meth:`Result.write_series`, by file name suffix.
SERIES_FORMATS = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".arrow": "arrow",
    ".feather": "arrow",
    ".ipc": "arrow",
    ".csv": "csv",
}


class Record(Mapping[str, Any]):
    """A read-only record: attribute access (``r.goodput_kbps``) and mapping access (``r["x"]``).

    Keys the core adds later are reachable the same way; the annotations on the subclasses
    document the keys of the current contract, for type checkers: they mirror the core's
    result schema (:mod:`hopsim.schema`), and a test keeps them equal to it.
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


class RttStats(Record):
    """Round-trip times of a TCP flow in milliseconds (``None`` without samples)."""

    __slots__ = ()

    mean: float | None
    min: float | None
    max: float | None
    p50: float | None
    p95: float | None
    samples: int


class FlowResult(Record):
    """One flow of the result document.

    The TCP keys (``variant`` ... ``transfer_completed_s``) exist for TCP flows only; with
    attribute access ``rtt_ms`` is an :class:`RttStats` (``f.rtt_ms.p50``), with mapping access
    (``f["rtt_ms"]``) the plain dict of the document.
    """

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
    link_failures: int
    route_failures: int
    false_route_failures: int
    path: list[int]  # the route, node by node (absent without one)
    paths: list[dict[str, Any]]  # every route taken, with its share of the window
    route_changes: int  # times the route the source sampled changed
    first_route_s: float | None  # when the source first held a complete route
    # TCP flows only.
    variant: str
    throughput_pps: float
    segments_sent: int
    retransmissions: int
    timeouts: int
    fast_retransmits: int
    acks_sent: int
    avg_cwnd: float | None
    avg_window_limit: float | None
    window_distribution: list[float]
    window_limit: str
    slow_start_fraction: float | None
    rtt_ms: RttStats
    bytes_delivered: int
    transfer_completed_s: float | None
    ecn_reactions: int  # tcp.ecn only
    ece_acks: int
    ce_received: int

    def __getattr__(self, name: str) -> Any:
        value = super().__getattr__(name)
        if name == "rtt_ms" and isinstance(value, Mapping):
            return RttStats(value)
        return value

    @property
    def is_tcp(self) -> bool:
        """Whether the flow is a TCP flow (and so has the TCP keys)."""
        return self._data.get("transport") == "tcp"


class _Counters(Record):
    __slots__ = ()

    mac_attempts: int
    mac_retries: int
    retry_limit_drops: int
    collisions: int
    queue_drops: int
    queue_purge_drops: int
    no_route_drops: int
    ttl_drops: int
    link_failures: int
    route_failures: int
    false_route_failures: int
    frame_errors: int
    routing_packets: int
    routing_bytes: int
    link_drop_probability: float
    rts_sent: int
    cts_sent: int
    data_sent: int
    ack_sent: int
    # With a flow in an access category other than BE only:
    internal_collisions: int
    # With [radio.gilbert_elliott] only:
    channel_losses: int
    # With a [queue] table only:
    aqm_drops: int
    ecn_marks: int
    queue_delay_mean_ms: float | None
    queue_delay_p95_ms: float | None
    queue_delay_p99_ms: float | None
    queue_delay_max_ms: float | None
    queue_delay_samples: int
    # 802.11n with aggregation only:
    ampdus_sent: int
    ampdu_mpdus: int
    mean_ampdu_mpdus: float
    block_acks_sent: int
    block_acks_received: int
    mpdus_failed: int
    bars_sent: int
    late_drops: int
    reorder_timeouts: int
    # 802.11n/ac with A-MSDUs only:
    amsdus: int
    amsdu_msdus: int
    mean_amsdu_msdus: float


class NodeResult(_Counters):
    """One node of the result document: position and MAC/queue/routing counters."""

    __slots__ = ()

    id: int
    x_m: float
    y_m: float
    rate_stats: list[dict[str, Any]]  # unicast DATA per next hop and rate


class Totals(_Counters):
    """The node counters summed over all nodes (``link_drop_probability`` over all links)."""

    __slots__ = ()


class Result:
    """The result of one run: a typed view over the JSON result document.

    ``raw`` is the document itself (a dict); ``flows``, ``nodes`` and ``totals`` give
    attribute access to its parts. ``wall_time_s`` is measured in Python around the call into
    the core and is not part of the document.

    ``series`` is the optional time series (``series_interval_s`` of :func:`hopsim.run`): a
    dict of equally long columns ``time_s``, ``flow``, ``cwnd`` (``None`` for UDP flows),
    ``goodput_kbps`` (over the sample interval) and ``delivered_bytes``, one row per flow per
    sample; ``None`` when the run recorded none.
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

    @property
    def series(self) -> dict[str, list[Any]] | None:
        """The time series as a dict of columns (see the class docs), or ``None``."""
        series = self.raw.get("series")
        if series is None:
            return None
        return {k: list(v) for k, v in series.items()}

    def _series_columns(self) -> dict[str, list[Any]]:
        series = self.series
        if series is None:
            raise ValueError(
                "this result has no time series: run with series_interval_s "
                "(hopsim.run(..., series_interval_s=1.0), or --series FILE on the command line)"
            )
        lengths = {k: len(v) for k, v in series.items()}
        if len(set(lengths.values())) > 1:
            raise ValueError(f"time series columns differ in length: {lengths}")
        order = [k for k in SERIES_COLUMNS if k in series]
        order += [k for k in series if k not in SERIES_COLUMNS]
        return {k: series[k] for k in order}

    def series_table(self) -> pyarrow.Table:
        """The time series as a ``pyarrow.Table`` (long format: one row per flow per sample).

        Types: ``time_s`` float64, ``flow`` int32, ``cwnd`` float64 (null for UDP flows),
        ``goodput_kbps`` float64, ``delivered_bytes`` int64. The schema metadata records the
        hopsim version, the seed and the resolved scenario (JSON) of the run.

        Raises:
            ValueError: the result has no time series.
        """
        import pyarrow as pa

        types = {f.name: arrow_type(f.kind) for f in fields("series")}
        types["flow"] = pa.int32()  # flow ids are 32-bit in the core (and were so here)
        columns = self._series_columns()
        arrays = {k: pa.array(v, type=types.get(k)) for k, v in columns.items()}
        metadata = {
            "hopsim.version": self.hopsim_version,
            "hopsim.seed": str(self.raw.get("seed", "")),
            "hopsim.scenario": json.dumps(self.raw.get("scenario", {}), allow_nan=False),
        }
        return pa.table(arrays, metadata=metadata)

    def write_series(self, path: str | PathLike[str], format: str | None = None) -> Path:
        """Write the time series to ``path``; the format follows the file name suffix.

        ``.parquet`` / ``.pq``: Apache Parquet; ``.arrow`` / ``.feather`` / ``.ipc``: the Arrow
        IPC file format (Feather v2); ``.csv``: CSV with a header row, empty fields for
        missing values (``cwnd`` of UDP flows). ``format`` ("parquet", "arrow" or "csv")
        overrides the suffix. Parent directories are created. Returns the path written.

        Raises:
            ValueError: the result has no time series, or the format is not known.
        """
        p = Path(path)
        fmt = format or series_format(p)
        if fmt not in set(SERIES_FORMATS.values()):
            raise ValueError(f"unknown series format {fmt!r}: use parquet, arrow or csv")
        columns = self._series_columns()
        p.parent.mkdir(parents=True, exist_ok=True)
        if fmt == "csv":
            _write_csv(p, columns)
        elif fmt == "parquet":
            import pyarrow.parquet as pq

            pq.write_table(self.series_table(), p)
        else:
            import pyarrow.feather as feather

            feather.write_feather(self.series_table(), p)
        return p

    def __repr__(self) -> str:
        flows = ", ".join(
            f"{f.get('src')}->{f.get('dst')}: {f.get('goodput_kbps')} kbit/s" for f in self.flows
        )
        return f"Result(seed={self.raw.get('seed')}, flows=[{flows}])"


def series_format(path: str | PathLike[str]) -> str:
    """The series file format for a file name: "parquet", "arrow" or "csv".

    Raises:
        ValueError: the suffix is not one of :data:`SERIES_FORMATS`.
    """
    suffix = Path(path).suffix.lower()
    try:
        return SERIES_FORMATS[suffix]
    except KeyError:
        known = ", ".join(SERIES_FORMATS)
        raise ValueError(
            f"{str(path)!r}: unknown time series file type {suffix or '(no suffix)'!r}; "
            f"use one of {known}"
        ) from None


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, float):
        if not math.isfinite(value):
            return ""
        return repr(value)
    return value


def _write_csv(path: Path, columns: Mapping[str, list[Any]]) -> None:
    names = list(columns)
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(names)
        for row in zip(*(columns[n] for n in names), strict=True):
            w.writerow([_csv_cell(v) for v in row])

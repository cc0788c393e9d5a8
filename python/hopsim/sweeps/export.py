"""Export of a store for polars / pandas (Parquet or CSV): one row per flow per run
(:func:`flow_table`), or one row per run (:func:`run_table`).

Column types come from the core's result schema (:mod:`hopsim.schema`) for the flows' keys
and the totals, and from the annotations of :class:`~hopsim.sweeps.store.StoredRun`; a key
the core adds later gets the type Arrow infers from its values. Swept parameters are typed
by their values.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Iterable, Mapping
from functools import cache
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._core import ScenarioError
from ..output import writing
from ..result import Record
from ..schema import arrow_type
from ..schema import fields as schema_fields
from .metrics import metric_value
from .store import ResultStore, StoredRun

if TYPE_CHECKING:  # pragma: no cover
    import numpy
    import pyarrow

__all__ = [
    "TABLE_FORMATS",
    "flow_rows",
    "flow_table",
    "metric_values",
    "run_rows",
    "run_table",
    "swept_array",
    "write_flows",
    "write_runs",
    "write_table",
]

#: File formats of :func:`write_table`, by file name suffix.
TABLE_FORMATS = {".parquet": "parquet", ".csv": "csv"}

#: The run's columns in both tables: column name -> field of :class:`StoredRun`; the first
#: ones lead each row, the tail ones end a run's row.
_RUN_HEAD = {
    "run_id": "run_key",
    "sweep": "sweep",
    "point": "point",
    "replication": "replication",
    "seed": "seed",
}
_RUN_TAIL = {"wall_s": "wall_s", "hopsim_version": "hopsim_version"}


# ---------------------------------------------------------------------------- column types


def _arrow_type(hint: Any) -> pyarrow.DataType | None:
    """The Arrow type of a Python annotation (``None``: let Arrow infer it)."""
    import pyarrow as pa

    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        # ``float | None``: every Arrow column is nullable, so only the value type matters.
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        return _arrow_type(args[0]) if len(args) == 1 else None
    if typing.get_origin(hint) is list:
        (item,) = typing.get_args(hint) or (Any,)
        inner = _arrow_type(item)
        return None if inner is None else pa.list_(inner)
    scalars = {bool: pa.bool_(), int: pa.int64(), float: pa.float64(), str: pa.string()}
    return scalars.get(hint)


def _field_types(cls: type, prefix: str = "") -> dict[str, pyarrow.DataType | None]:
    """Dotted column name -> Arrow type of a class's annotated public fields; a field that is
    itself a :class:`Record` (``rtt_ms``) is flattened (``rtt_ms.p50``)."""
    out: dict[str, Any] = {}
    for name, hint in typing.get_type_hints(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(hint, type) and issubclass(hint, Record):
            out.update(_field_types(hint, f"{prefix}{name}."))
        else:
            out[f"{prefix}{name}"] = _arrow_type(hint)
    return out


@cache
def _declared_types() -> dict[str, pyarrow.DataType | None]:
    """The declared type of every column both tables can have (swept keys and metrics aside)."""
    run = _field_types(StoredRun)
    flow = {f.name: arrow_type(f.kind) for f in schema_fields("flow")}
    declared = {col: run[name] for col, name in {**_RUN_HEAD, **_RUN_TAIL}.items()}
    declared["flow"] = flow.pop("id")
    declared.update(flow)
    declared.update({f"totals.{f.name}": arrow_type(f.kind) for f in schema_fields("totals")})
    return declared


def _value_type(values: Iterable[Any]) -> pyarrow.DataType:
    """The Arrow type of a swept key from its values: bool, int64, float64 or string (text,
    and JSON text for lists, tables or mixed kinds)."""
    import pyarrow as pa

    kinds = {type(v) for v in values if v is not None}
    if kinds == {bool}:
        return pa.bool_()
    if kinds and kinds <= {int}:
        return pa.int64()
    if kinds and kinds <= {int, float}:
        return pa.float64()
    return pa.string()


def swept_array(values: list[Any]) -> numpy.ndarray:
    """A swept key's values as a numpy array of its column's type (text as ``str``)."""
    import numpy as np
    import pyarrow as pa

    array = _column(values, _value_type(values))
    if pa.types.is_string(array.type):
        return np.array(array.to_pylist(), dtype=str)
    return array.to_numpy(zero_copy_only=False)


def _as_text(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value)


def _column(values: list[Any], declared: pyarrow.DataType | None) -> pyarrow.Array:
    import pyarrow as pa

    if declared is not None:
        if pa.types.is_string(declared):
            values = [_as_text(v) for v in values]
        try:
            return pa.array(values, type=declared)
        except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
            pass  # the core changed a field's type: infer it rather than fail the export
    try:
        return pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
        return pa.array([_as_text(v) for v in values], type=pa.string())


def _table(
    rows: list[dict[str, Any]], extra: Mapping[str, pyarrow.DataType | None]
) -> pyarrow.Table:
    """Rows as a table: columns in order of first appearance, typed by ``extra`` (swept keys,
    metrics) and the declared field types."""
    import pyarrow as pa

    declared = {**_declared_types(), **extra}
    columns = list(dict.fromkeys(k for row in rows for k in row))
    arrays = [_column([row.get(c) for row in rows], declared.get(c)) for c in columns]
    return pa.table(arrays, names=columns)


# ---------------------------------------------------------------------------- rows


def _sweep_names(store: ResultStore, sweep: str | None) -> list[str]:
    return list(store.sweeps()) if sweep is None else [sweep]


def _param_types(store: ResultStore, sweep: str | None) -> dict[str, pyarrow.DataType]:
    """Type of each swept key from every value its sweep lists (finished or not) and holds."""
    values: dict[str, list[Any]] = {}
    specs = store.sweeps()
    for name in _sweep_names(store, sweep):
        for key, listed in specs.get(name, {}).get("spec", {}).get("values", {}).items():
            values.setdefault(key, []).extend(listed)
    for run in store.runs(sweep):
        for key, value in run.params.items():
            values.setdefault(key, []).append(value)
    return {key: _value_type(vals) for key, vals in values.items()}


def _base(run: StoredRun, columns: Mapping[str, str]) -> dict[str, Any]:
    return {col: getattr(run, name) for col, name in columns.items()}


def flow_rows(store: ResultStore, sweep: str | None = None) -> list[dict[str, Any]]:
    """Per flow per run: ``run_id``, sweep, point, replication, seed, wall_s,
    hopsim_version, the swept parameters (under their dotted keys), ``flow`` (its id), the
    flow's fields (``path``, ``rtt_ms.p50`` ...) and the run's network totals
    (``totals.mac_retries`` ...). Values as in the result document (lists stay lists)."""
    rows = []
    for run, result in store.iter_results(sweep):
        base = _base(run, {**_RUN_HEAD, **_RUN_TAIL})
        base.update(run.params)
        totals = {f"totals.{k}": v for k, v in result.get("totals", {}).items()}
        for flow in result.get("flows", []):
            row = dict(base)
            row["flow"] = flow.get("id")
            _flatten("", {k: v for k, v in flow.items() if k != "id"}, row)
            row.update(totals)
            rows.append(row)
    return rows


def _flatten(prefix: str, value: Any, row: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else k, v, row)
    else:
        row[prefix] = value


def metric_values(
    store: ResultStore,
    run: StoredRun,
    names: Iterable[str],
    result: Mapping[str, Any] | None = None,
) -> dict[str, float | None]:
    """``{name: value}`` of a run's metrics: the value stored with the run, or (for a metric
    the sweep did not have when the run finished) computed from its result document, as
    :func:`hopsim.sweeps.summarize` does."""
    out: dict[str, float | None] = {}
    for name in names:
        if name in run.metrics:
            value = run.metrics[name]
            out[name] = None if value is None else float(value)
        else:
            if result is None:
                result = store.result(run.run_key)
            out[name] = metric_value(result, name)
    return out


def _metric_names(store: ResultStore, sweep: str | None) -> list[str]:
    """The metrics of the selected sweeps, each sweep's in its order; a metric that is a
    network total (``totals.mac_retries``) is left to the total's own column."""
    specs = store.sweeps()
    names: dict[str, None] = {}
    for name in _sweep_names(store, sweep):
        names.update(dict.fromkeys(specs.get(name, {}).get("spec", {}).get("metrics", [])))
    totals = {c for c in _declared_types() if c.startswith("totals.")}
    return [n for n in names if n not in totals]


def run_rows(store: ResultStore, sweep: str | None = None) -> list[dict[str, Any]]:
    """Per run: ``run_id``, sweep, point, replication, seed, the swept parameters, the
    sweeps' metrics (``goodput_kbps``, ``mean:avg_cwnd`` ...), the network totals
    (``totals.mac_retries`` ...), wall_s and hopsim_version. A metric that is a total
    (``totals.mac_retries``) is the total's column (the same number, typed as the total)."""
    metrics = _metric_names(store, sweep)
    rows = []
    for run, result in store.iter_results(sweep):
        row = _base(run, _RUN_HEAD)
        row.update(run.params)
        row.update(metric_values(store, run, metrics, result))
        row.update({f"totals.{k}": v for k, v in result.get("totals", {}).items()})
        row.update(_base(run, _RUN_TAIL))
        rows.append(row)
    return rows


# ---------------------------------------------------------------------------- tables, files


def flow_table(store: ResultStore, sweep: str | None = None) -> pyarrow.Table:
    """:func:`flow_rows` as a typed ``pyarrow.Table`` (``path`` list<int64>,
    ``window_distribution`` list<float64>, ``transfer_completed_s`` float64 ...; null where a
    flow has no such field, e.g. the TCP fields of a UDP flow)."""
    return _table(flow_rows(store, sweep), _param_types(store, sweep))


def run_table(store: ResultStore, sweep: str | None = None) -> pyarrow.Table:
    """:func:`run_rows` as a typed ``pyarrow.Table`` (metrics float64, totals as declared)."""
    import pyarrow as pa

    extra: dict[str, Any] = {m: pa.float64() for m in _metric_names(store, sweep)}
    extra.update(_param_types(store, sweep))
    return _table(run_rows(store, sweep), extra)


def _csv_ready(table: pyarrow.Table) -> pyarrow.Table:
    """CSV has no lists: list (and struct) columns become JSON text."""
    import pyarrow as pa

    for i, field in enumerate(table.schema):
        if pa.types.is_nested(field.type):
            text = [None if v is None else json.dumps(v) for v in table.column(i).to_pylist()]
            table = table.set_column(i, field.name, pa.array(text, type=pa.string()))
    return table


def write_table(table: pyarrow.Table, path: str | PathLike[str], option: str = "FILE") -> Path:
    """Write ``table`` to ``path``: Parquet for ``.parquet``, CSV (list columns as JSON text,
    empty fields for nulls) for ``.csv``; parent folders are created. ``option`` names the
    file in the error message (``--parquet``).

    Raises:
        ScenarioError: the suffix is neither .parquet nor .csv.
    """
    out = Path(path)
    fmt = _format(out, option)
    with writing(out, f"{option} {str(out)!r}"):
        if fmt == "parquet":
            import pyarrow.parquet as pq

            pq.write_table(table, out)
        else:
            import pyarrow.csv as pacsv

            pacsv.write_csv(_csv_ready(table), out)
    return out


def _format(path: str | PathLike[str], option: str) -> str:
    fmt = TABLE_FORMATS.get(Path(path).suffix.lower())
    if fmt is None:
        raise ScenarioError(
            f"{option} {str(path)!r}: give a file name ending in .parquet (or .csv for CSV)"
        )
    return fmt


def write_flows(
    store: ResultStore,
    path: str | PathLike[str],
    sweep: str | None = None,
    option: str = "--parquet",
) -> tuple[Path, int]:
    """Write :func:`flow_table` to ``path`` (.parquet, or .csv); return the path and rows."""
    _format(path, option)  # a bad name fails before the store is read
    table = flow_table(store, sweep)
    return write_table(table, path, option), table.num_rows


def write_runs(
    store: ResultStore,
    path: str | PathLike[str],
    sweep: str | None = None,
    option: str = "--runs",
) -> tuple[Path, int]:
    """Write :func:`run_table` to ``path`` (.parquet, or .csv); return the path and rows."""
    _format(path, option)
    table = run_table(store, sweep)
    return write_table(table, path, option), table.num_rows

"""Export of a store for polars / pandas: one row per flow per run (Parquet or CSV)."""

from __future__ import annotations

import json
from os import PathLike
from pathlib import Path
from typing import Any

from .._core import ScenarioError
from .store import ResultStore

__all__ = ["flow_rows", "write_flows"]


def _flatten(prefix: str, value: Any, row: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else k, v, row)
    elif isinstance(value, list):
        row[prefix] = json.dumps(value)  # e.g. window_distribution: kept whole, as JSON text
    else:
        row[prefix] = value


def flow_rows(store: ResultStore, sweep: str | None = None) -> list[dict[str, Any]]:
    """Per flow per run: ``run_id``, sweep, point, replication, seed, the swept parameters
    (under their dotted keys), the flow's metrics (``rtt_ms.p50`` ...) and the run's
    network totals (``totals.mac_retries`` ...)."""
    rows = []
    for run, result in store.iter_results(sweep):
        base: dict[str, Any] = {
            "run_id": run.run_key,
            "sweep": run.sweep,
            "point": run.point,
            "replication": run.replication,
            "seed": run.seed,
            "wall_s": run.wall_s,
            "hopsim_version": run.hopsim_version,
        }
        for key, value in run.params.items():
            base[key] = json.dumps(value) if isinstance(value, (list, dict)) else value
        totals = {f"totals.{k}": v for k, v in result.get("totals", {}).items()}
        for flow in result.get("flows", []):
            row = dict(base)
            _flatten("", {"flow": flow.get("id")}, row)
            flow_fields: dict[str, Any] = {}
            _flatten("", {k: v for k, v in flow.items() if k != "id"}, flow_fields)
            row.update(flow_fields)
            row.update(totals)
            rows.append(row)
    return rows


def _column(values: list[Any]) -> Any:
    import pyarrow as pa

    try:
        return pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        # Mixed kinds (a swept key taking numbers and strings): keep them as text.
        return pa.array([None if v is None else str(v) for v in values], type=pa.string())


def write_flows(
    store: ResultStore, path: str | PathLike[str], sweep: str | None = None
) -> tuple[Path, int]:
    """Write :func:`flow_rows` to ``path`` (.parquet, or .csv); return the path and rows."""
    import pyarrow as pa

    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in (".parquet", ".csv"):
        raise ScenarioError(
            f"--parquet {str(path)!r}: give a file name ending in .parquet (or .csv for CSV)"
        )
    rows = flow_rows(store, sweep)
    columns = list(dict.fromkeys(k for row in rows for k in row))
    table = pa.table({c: _column([row.get(c) for row in rows]) for c in columns})
    out.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        pq.write_table(table, out)
    else:
        import pyarrow.csv as pacsv

        pacsv.write_csv(table, out)
    return out, len(rows)

"""Results for analysis (python/hopsim/sweeps/export.py, python/hopsim/sweeps/analysis.py): typed
Parquet/CSV tables per flow and per run, DataFrames (pandas, polars) and the xarray Dataset,
all checked against what the store holds, on a small real sweep (16 runs of a few ms)."""

from __future__ import annotations

import json
import math
import shutil
import sqlite3
import sys
from pathlib import Path

import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import hopsim
from hopsim import ScenarioError
from hopsim.sweeps import (
    STORE_FILE,
    ResultStore,
    load_sweep,
    metric_value,
    run_sweep,
    summarize,
)
from hopsim.sweeps.export import write_flows, write_runs

METRICS = ["goodput_kbps", "mean:avg_cwnd", "totals.mac_retries", "transfer_completed_s"]
SWEEP = {
    "name": "frames",
    "replications": 2,
    "metrics": METRICS,
    "scenario": {
        "duration_s": 10.0,
        "warmup_s": 1.0,
        "topology": {"kind": "chain", "hops": 2, "spacing_m": 200.0},
        "routing": {"protocol": "static"},
        "flows": [
            {"src": 0, "dst": 2, "transport": "tcp"},  # bulk: no transfer_completed_s
            {"src": 2, "dst": 0, "transport": "udp", "payload_bytes": 500, "interval_s": 0.05},
            {"src": 1, "dst": 0, "transport": "tcp", "bytes": 30000, "start_s": 2.0},
        ],
    },
    "sweep": {
        "topology.hops": [2, 3],
        "tcp.variant": ["newreno", "vegas"],
        "zip": [{"mac.data_rate_mbps": [2.0, 11.0], "tcp.max_window": [0.0, 4.0]}],
    },
}
RUNS = 2 * 2 * 2 * 2  # hops x variant x (rate, window) x replications
FLOWS = 3


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("frames")
    report = run_sweep(load_sweep(SWEEP), out, jobs=1, progress="off")
    assert (report.done, report.failed) == (RUNS, 0)
    return out


@pytest.fixture(scope="module")
def store(folder: Path):
    with ResultStore(folder, create=False) as st:
        yield st


def test_flow_parquet_has_typed_columns(store: ResultStore, tmp_path: Path) -> None:
    path, rows = write_flows(store, tmp_path / "flows.parquet")
    assert rows == RUNS * FLOWS
    schema = pq.read_schema(path)
    expected = {
        "run_id": pa.string(),
        "point": pa.int64(),
        "replication": pa.int64(),
        "seed": pa.int64(),
        "wall_s": pa.float64(),
        "flow": pa.int64(),
        "topology.hops": pa.int64(),
        "tcp.variant": pa.string(),
        "mac.data_rate_mbps": pa.float64(),
        "tcp.max_window": pa.float64(),
        "transport": pa.string(),
        "path": pa.list_(pa.int64()),
        "window_distribution": pa.list_(pa.float64()),
        "transfer_completed_s": pa.float64(),
        "mean_delay_ms": pa.float64(),
        "avg_cwnd": pa.float64(),
        "retransmissions": pa.int64(),
        "rtt_ms.p50": pa.float64(),
        "rtt_ms.samples": pa.int64(),
        "totals.mac_retries": pa.int64(),
        "totals.link_drop_probability": pa.float64(),
    }
    for column, arrow_type in expected.items():
        assert schema.field(column).type == arrow_type, column
        assert schema.field(column).nullable, column


def test_types_come_from_the_document_not_the_values(tmp_path_factory) -> None:
    """All-null columns (no fixed-size transfer, so no transfer_completed_s) keep their
    declared type; a key swept over 0 and 2.5 is float64; two sweeps share one table."""
    out = tmp_path_factory.mktemp("bulk")
    bulk = {
        "name": "bulk",
        "scenario": {**SWEEP["scenario"], "flows": SWEEP["scenario"]["flows"][:1]},
        "sweep": {"tcp.max_window": [0, 2.5]},
    }
    udp = {
        "name": "udp",
        "scenario": {**SWEEP["scenario"], "flows": SWEEP["scenario"]["flows"][1:2]},
        "sweep": {"flows.0.payload_bytes": [200, 500]},
    }
    for doc in (bulk, udp):
        run_sweep(load_sweep(doc), out, jobs=1, progress="off")
    with ResultStore(out, create=False) as st:
        path, rows = write_flows(st, tmp_path_factory.mktemp("x") / "flows.parquet")
    table = pq.read_table(path)
    assert rows == 4 and set(table.column("sweep").to_pylist()) == {"bulk", "udp"}
    assert table.column("transfer_completed_s").null_count == rows
    for column, arrow_type in {
        "transfer_completed_s": pa.float64(),
        "tcp.max_window": pa.float64(),
        "flows.0.payload_bytes": pa.int64(),
        "avg_cwnd": pa.float64(),
        "path": pa.list_(pa.int64()),
    }.items():
        assert table.schema.field(column).type == arrow_type, column
    with pytest.raises(ScenarioError, match="2 sweeps.*name one"):
        hopsim.results_dataset(out)
    ds = hopsim.results_dataset(out, sweep="udp")
    assert dict(ds.sizes) == {"flows.0.payload_bytes": 2, "replication": 1}


def test_flow_rows_hold_the_stored_documents(store: ResultStore, tmp_path: Path) -> None:
    path, _ = write_flows(store, tmp_path / "flows.parquet")
    rows = pq.read_table(path).to_pylist()
    runs = {run.run_key: run for run in store.runs()}
    assert {row["run_id"] for row in rows} == set(runs)
    completed = 0
    for row in rows:
        run = runs[row["run_id"]]
        doc = store.result(run.run_key)
        flow = doc["flows"][row["flow"]]
        assert (row["point"], row["replication"], row["seed"]) == (
            run.point,
            run.replication,
            run.seed,
        )
        assert row["tcp.variant"] == run.params["tcp.variant"]
        assert row["topology.hops"] == run.params["topology.hops"]
        assert row["path"] == flow["path"]
        assert row["goodput_kbps"] == flow["goodput_kbps"]
        assert row["totals.mac_retries"] == doc["totals"]["mac_retries"]
        if flow["transport"] == "udp":  # no TCP fields: nulls, not zeros or text
            assert row["avg_cwnd"] is None and row["window_distribution"] is None
            assert row["variant"] is None
        else:
            assert row["window_distribution"] == flow["window_distribution"]
            assert row["rtt_ms.p50"] == flow["rtt_ms"]["p50"]
            assert row["variant"] == run.params["tcp.variant"]
        assert row["transfer_completed_s"] == flow.get("transfer_completed_s")
        completed += row["transfer_completed_s"] is not None
    assert completed == RUNS  # the fixed-size transfer (flow 2) finishes in every run


def test_run_table_has_one_row_per_run_with_the_stored_metrics(
    store: ResultStore, tmp_path: Path
) -> None:
    path, rows = write_runs(store, tmp_path / "runs.parquet")
    table = pq.read_table(path)
    runs = store.runs()
    assert rows == table.num_rows == len(runs) == RUNS
    schema = table.schema
    for metric in ("goodput_kbps", "mean:avg_cwnd", "transfer_completed_s"):
        assert schema.field(metric).type == pa.float64(), metric
    # A metric that is a network total is the total's column, typed as the total.
    assert table.column_names.count("totals.mac_retries") == 1
    assert schema.field("totals.mac_retries").type == pa.int64()
    assert schema.field("tcp.variant").type == pa.string()
    assert table.column_names[:5] == ["run_id", "sweep", "point", "replication", "seed"]
    assert table.column_names[-2:] == ["wall_s", "hopsim_version"]
    by_key = {row["run_id"]: row for row in table.to_pylist()}
    for run in runs:
        row = by_key[run.run_key]
        for key, value in run.params.items():
            assert row[key] == value, key
        for metric in METRICS:
            assert row[metric] == run.metrics[metric], metric
        totals = store.result(run.run_key)["totals"]
        assert row["totals.collisions"] == totals["collisions"]
        assert (row["wall_s"], row["hopsim_version"]) == (run.wall_s, run.hopsim_version)
    # Per point, the mean over the replications is summarize()'s.
    frame = pd.DataFrame(table.to_pylist())
    for point in summarize(store):
        mine = frame.loc[frame["point"] == point.point, "goodput_kbps"]
        assert len(mine) == point.runs == 2
        assert mine.mean() == pytest.approx(point.stats["goodput_kbps"].mean, rel=1e-12)


def test_csv_round_trip(store: ResultStore, tmp_path: Path) -> None:
    runs_csv, _ = write_runs(store, tmp_path / "runs.csv")
    runs_pq, _ = write_runs(store, tmp_path / "runs.parquet")
    from_csv = pd.read_csv(runs_csv)
    from_pq = pd.read_parquet(runs_pq)
    pd.testing.assert_frame_equal(from_csv, from_pq, check_dtype=False, rtol=1e-15, atol=0)
    flows_csv, _ = write_flows(store, tmp_path / "flows.csv")
    flows_pq, _ = write_flows(store, tmp_path / "flows.parquet")
    text = pd.read_csv(flows_csv)
    typed = pq.read_table(flows_pq).to_pylist()
    assert len(text) == len(typed) == RUNS * FLOWS
    for i, row in enumerate(typed):
        # List columns are JSON text in CSV; nulls are empty fields.
        assert json.loads(text.loc[i, "path"]) == row["path"]
        cell = text.loc[i, "window_distribution"]
        wd = None if isinstance(cell, float) and math.isnan(cell) else json.loads(cell)
        assert wd == row["window_distribution"]
        if row["transfer_completed_s"] is None:
            assert math.isnan(text.loc[i, "transfer_completed_s"])
        else:
            assert text.loc[i, "transfer_completed_s"] == row["transfer_completed_s"]


def test_bad_file_names_are_refused_before_reading(store: ResultStore, tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=r"--runs .*runs\.txt.*\.parquet"):
        write_runs(store, tmp_path / "runs.txt")
    with pytest.raises(ScenarioError, match=r"--parquet"):
        write_flows(store, tmp_path / "flows")
    assert not list(tmp_path.iterdir())


def test_dataframes_from_both_backends(folder: Path, store: ResultStore) -> None:
    flows = hopsim.results(folder)
    assert isinstance(flows, pd.DataFrame) and len(flows) == RUNS * FLOWS
    assert list(flows.loc[flows["flow"] == 1, "path"].iloc[0]) == [2, 1, 0]
    runs = hopsim.results(folder, sweep="frames", per="run", backend="polars")
    assert isinstance(runs, pl.DataFrame) and runs.height == RUNS
    assert runs.schema["topology.hops"] == pl.Int64
    assert runs.schema["tcp.variant"] == pl.String
    pl_flows = hopsim.results(folder, backend="polars")
    assert pl_flows.schema["path"] == pl.List(pl.Int64)
    assert pl_flows.schema["window_distribution"] == pl.List(pl.Float64)
    assert pl_flows.schema["transfer_completed_s"] == pl.Float64
    stored = {run.run_key: run.metrics["goodput_kbps"] for run in store.runs()}
    got = dict(zip(runs["run_id"].to_list(), runs["goodput_kbps"].to_list(), strict=True))
    assert got == stored
    pandas_runs = hopsim.results(folder, per="run")
    assert dict(zip(pandas_runs["run_id"], pandas_runs["goodput_kbps"], strict=True)) == stored


def test_results_refuses_bad_arguments(folder: Path, tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="'nope'.*frames"):
        hopsim.results(folder, sweep="nope")
    with pytest.raises(ValueError, match="per='runs'"):
        hopsim.results(folder, per="runs")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="backend='arrow'"):
        hopsim.results(folder, backend="arrow")  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError, match="no result store"):
        hopsim.results(tmp_path)


def test_dataset_dims_coords_and_values(folder: Path, store: ResultStore) -> None:
    ds = hopsim.results_dataset(folder)
    assert dict(ds.sizes) == {
        "topology.hops": 2,
        "tcp.variant": 2,
        "mac.data_rate_mbps": 2,  # the zip group's dimension, named after its first key
        "replication": 2,
    }
    assert set(ds.data_vars) == set(METRICS)
    assert ds["tcp.max_window"].dims == ("mac.data_rate_mbps",)
    assert ds["tcp.max_window"].values.tolist() == [0.0, 4.0]
    assert ds["tcp.variant"].values.tolist() == ["newreno", "vegas"]
    assert ds["topology.hops"].values.tolist() == [2, 3]
    runs = store.runs()
    for run in runs:
        assert ds["seed"].sel(replication=run.replication).item() == run.seed
        where = {
            "topology.hops": run.params["topology.hops"],
            "tcp.variant": run.params["tcp.variant"],
            "mac.data_rate_mbps": run.params["mac.data_rate_mbps"],
            "replication": run.replication,
        }
        for metric in METRICS:
            assert ds[metric].sel(where).item() == run.metrics[metric], (where, metric)
    # The zipped key's value along its shared dimension is the run's.
    run = runs[-1]
    picked = ds.sel({"mac.data_rate_mbps": run.params["mac.data_rate_mbps"]})
    assert picked["tcp.max_window"].item() == run.params["tcp.max_window"]


def test_dataset_metrics_not_stored_are_computed(folder: Path, store: ResultStore) -> None:
    ds = hopsim.results_dataset(folder, sweep="frames", metrics=["jain:goodput_kbps"])
    assert list(ds.data_vars) == ["jain:goodput_kbps"]
    for run in store.runs():
        value = ds["jain:goodput_kbps"].sel(
            {
                "topology.hops": run.params["topology.hops"],
                "tcp.variant": run.params["tcp.variant"],
                "mac.data_rate_mbps": run.params["mac.data_rate_mbps"],
                "replication": run.replication,
            }
        )
        assert value.item() == metric_value(store.result(run.run_key), "jain:goodput_kbps")
    with pytest.raises(ScenarioError, match="goodput"):
        hopsim.results_dataset(folder, metrics=["goodput"])


def test_dataset_has_nan_where_a_run_is_missing(folder: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("*.lock"))
    with ResultStore(copy, create=False) as st:
        gone = st.runs()[5]
    db = sqlite3.connect(copy / STORE_FILE)
    with db:
        db.execute("DELETE FROM runs WHERE run_key = ?", (gone.run_key,))
    db.close()
    ds = hopsim.results_dataset(copy)
    where = {
        "topology.hops": gone.params["topology.hops"],
        "tcp.variant": gone.params["tcp.variant"],
        "mac.data_rate_mbps": gone.params["mac.data_rate_mbps"],
        "replication": gone.replication,
    }
    assert math.isnan(ds["goodput_kbps"].sel(where).item())
    assert int(ds["goodput_kbps"].notnull().sum()) == RUNS - 1
    assert len(hopsim.results(copy, per="run")) == RUNS - 1


@pytest.mark.parametrize(
    ("module", "call"),
    [
        ("pandas", lambda d: hopsim.results(d)),
        ("polars", lambda d: hopsim.results(d, backend="polars")),
        ("xarray", lambda d: hopsim.results_dataset(d)),
    ],
)
def test_missing_library_names_the_extra(
    folder: Path, monkeypatch: pytest.MonkeyPatch, module: str, call
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # import now raises ImportError
    with pytest.raises(ImportError, match=rf"{module}.*pip install 'hopsim\[analysis\]'"):
        call(folder)


def test_the_cli_writes_both_tables(folder: Path, tmp_path: Path) -> None:
    import subprocess

    runs, flows = tmp_path / "runs.csv", tmp_path / "flows.parquet"
    cmd = [sys.executable, "-m", "hopsim", "results", str(folder), "--runs", str(runs)]
    proc = subprocess.run(
        [*cmd, "--parquet", str(flows)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert f"wrote {RUNS} rows (one per run)" in proc.stdout
    assert f"wrote {RUNS * FLOWS} rows (one per flow per run)" in proc.stdout
    assert len(pl.read_csv(runs)) == RUNS and len(pq.read_table(flows)) == RUNS * FLOWS
    bad = subprocess.run([*cmd[:-1], str(tmp_path / "r.xlsx")], capture_output=True, text=True)
    assert bad.returncode == 2 and "--runs" in bad.stderr and "Traceback" not in bad.stderr

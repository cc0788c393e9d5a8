"""The experiment commands end to end: sweep -> results (Parquet) -> plot, and reproduce."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from hopsim.studies import CATALOGUE
from simhelpers import assert_no_traceback, run_cli

SWEEP = "sweeps/chain-cwl.toml"


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sweep") / "store"
    proc = run_cli("sweep", SWEEP, "--quick", "--jobs", "2", "--out", str(out), "--progress", "off")
    assert proc.returncode == 0, proc.stderr
    assert "±" in proc.stdout and "confidence interval" in proc.stdout
    # 5 windows x 4 chains x 2 replications, all run now.
    assert "40 runs, 0 already stored, 40 run now, 0 failed" in proc.stderr.replace("\n", " ")
    return out


def test_rerun_resumes_without_running_anything(swept: Path) -> None:
    proc = run_cli(
        "sweep", SWEEP, "--quick", "--jobs", "1", "--out", str(swept), "--progress", "off"
    )
    assert proc.returncode == 0, proc.stderr
    assert "40 already stored, 0 run now" in proc.stderr.replace("\n", " ")


def test_results_export_one_row_per_flow_per_run(swept: Path, tmp_path: Path) -> None:
    target = tmp_path / "flows.parquet"
    proc = run_cli("results", str(swept), "--parquet", str(target))
    assert proc.returncode == 0, proc.stderr
    table = pq.read_table(target)
    assert table.num_rows == 40  # one flow per run
    for column in (
        "run_id",
        "tcp.max_window",
        "topology.hops",
        "goodput_kbps",
        "totals.mac_retries",
    ):
        assert column in table.column_names, column
    assert len(set(table.column("run_id").to_pylist())) == 40


def test_plot_writes_png_and_pdf(swept: Path, tmp_path: Path) -> None:
    stem = tmp_path / "cwl"
    proc = run_cli(
        "plot", str(swept), "--x", "tcp.max_window", "--y", "goodput_kbps",
        "--series", "topology.hops", "--out", str(stem),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    for suffix in (".png", ".pdf"):
        path = tmp_path / f"cwl{suffix}"
        assert path.stat().st_size > 1000, path


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--x", "tcp.max_windw", "--y", "goodput_kbps"], ["--x", "tcp.max_windw", "swept keys"]),
        (["--x", "tcp.max_window", "--y", "goodput"], ["goodput"]),
    ],
)
def test_plot_bad_keys_are_named(swept: Path, args: list[str], words: list[str]) -> None:
    proc = run_cli("plot", str(swept), *args)
    assert proc.returncode == 2, proc.stderr
    assert_no_traceback(proc)
    for w in words:
        assert w in proc.stderr, proc.stderr


def test_reproduce_lists_the_catalogue() -> None:
    proc = run_cli("reproduce", "--list")
    assert proc.returncode == 0, proc.stderr
    for name in CATALOGUE:
        assert name in proc.stdout, name
    # The ready-made sweeps are listed with their folder (the text may fold in the table).
    flat = "".join(proc.stdout.split())
    assert "chen-cwl-policy.toml" in flat and "vegas-w-8flows.toml" in flat
    assert "studies/sweeps" in flat
    assert all(n in run_cli("reproduce", "--help").stdout for n in CATALOGUE)
    bad = run_cli("reproduce", "chen-cwll")
    assert bad.returncode == 2
    assert_no_traceback(bad)
    assert "chen-cwll" in bad.stderr and "chen-cwl" in bad.stderr


def test_results_on_a_folder_without_a_store(tmp_path: Path) -> None:
    proc = run_cli("results", str(tmp_path))
    assert proc.returncode == 2
    assert_no_traceback(proc)
    assert "no result store" in proc.stderr

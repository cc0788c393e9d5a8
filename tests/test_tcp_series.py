"""Time series of TCP and UDP flows (issue 3): ``--series`` / ``series_interval_s`` record
every flow without changing the results, the files read back equal in every format, and bad
output options are refused. Runs go through the shared runner (``run_scenario``), which
checks the simulator's invariants first.
"""

from __future__ import annotations

import json

import pytest

from simhelpers import (
    assert_no_traceback,
    chain_scenario,
    run_cli,
    tcp_flow,
    udp_flow,
    write_scenario,
)

# ------------------------------------------------------------------------------------------
# Time series
# ------------------------------------------------------------------------------------------


def mixed_chain() -> dict:
    """A TCP flow and a paced UDP flow sharing a 3-hop chain."""
    return chain_scenario(
        3,
        [tcp_flow(0, 3), udp_flow(3, 1, interval_s=0.1)],
        duration_s=10.0,
        warmup_s=1.0,
    )


def test_series_records_every_flow_and_does_not_change_the_results(run_scenario):
    plain = run_scenario(mixed_chain())
    res = run_scenario(mixed_chain(), series_interval_s=0.5)
    assert plain.series is None
    series = res.series
    assert series is not None  # and checked by the shared runner (simhelpers.check_series)
    n = len(series["time_s"])
    assert n > 0 and n % 2 == 0
    assert set(series["flow"]) == {0, 1}
    # 0.5 s samples over 10 s: 19 or 20 per flow (the last one at the very end is optional).
    assert 19 <= n // 2 <= 20, series["time_s"]
    tcp_rows = [i for i in range(n) if series["flow"][i] == 0]
    assert all(series["cwnd"][i] is not None for i in tcp_rows)
    assert all(series["cwnd"][i] is None for i in range(n) if series["flow"][i] == 1)

    # The sampling events themselves are counted by the engine; nothing else may change.
    def results(r):
        return {k: v for k, v in r.raw.items() if k not in ("series", "engine")}

    assert results(res) == results(plain), "recording a series changed the results"


def test_series_written_as_parquet_arrow_and_csv_read_back_equal(run_scenario, tmp_path):
    import csv

    import pyarrow.feather as feather
    import pyarrow.parquet as pq

    res = run_scenario(mixed_chain(), series_interval_s=1.0)
    cols = res.series
    table = res.series_table()
    assert table.column_names == ["time_s", "flow", "cwnd", "goodput_kbps", "delivered_bytes"]
    assert str(table.schema.field("flow").type) == "int32"
    assert table.schema.metadata[b"hopsim.seed"] == b"1"
    assert table.to_pydict() == cols

    assert pq.read_table(res.write_series(tmp_path / "s.parquet")).to_pydict() == cols
    assert feather.read_table(res.write_series(tmp_path / "s.arrow")).to_pydict() == cols
    with res.write_series(tmp_path / "sub" / "s.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == len(cols["time_s"])
    for i, row in enumerate(rows):
        assert float(row["time_s"]) == cols["time_s"][i]
        assert int(row["flow"]) == cols["flow"][i]
        assert (row["cwnd"] or None) == (None if cols["cwnd"][i] is None else row["cwnd"])
        if cols["cwnd"][i] is not None:
            assert float(row["cwnd"]) == cols["cwnd"][i]
        assert int(row["delivered_bytes"]) == cols["delivered_bytes"][i]

    with pytest.raises(ValueError, match="unknown time series file type"):
        res.write_series(tmp_path / "s.txt")
    with pytest.raises(ValueError, match="no time series"):
        run_scenario(mixed_chain()).write_series(tmp_path / "none.csv")


def test_cli_series_option_writes_the_file(tmp_path):
    path = write_scenario(tmp_path / "mixed.toml", mixed_chain())
    out = tmp_path / "out" / "series.parquet"
    proc = run_cli("run", str(path), "--series", str(out), "--series-interval", "0.5")
    assert proc.returncode == 0, proc.stderr
    assert_no_traceback(proc)
    assert out.is_file()
    assert "series" in proc.stdout and "series.parquet" in proc.stdout

    import pyarrow.parquet as pq

    table = pq.read_table(out)
    assert set(table.column("flow").to_pylist()) == {0, 1}
    proc = run_cli("run", str(path), "--json", "--series-interval", "2")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert len(doc["series"]["time_s"]) in (8, 10)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--series", "{tmp}/out.txt"], "unknown time series file type"),
        (["--series", "{tmp}/out.csv", "--series-interval", "0"], "--series-interval"),
        (["--series-interval", "1"], "needs --series"),
        (["--pcap", "{tmp}/mixed.toml"], "not a directory"),
    ],
)
def test_cli_rejects_bad_output_options(tmp_path, args, needle):
    path = write_scenario(tmp_path / "mixed.toml", mixed_chain())
    proc = run_cli("run", str(path), *[a.format(tmp=tmp_path) for a in args])
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert_no_traceback(proc)
    assert needle in proc.stderr, proc.stderr
    assert not (tmp_path / "out.csv").exists()


def test_api_rejects_bad_run_options(hopsim_mod, tmp_path):
    scn = mixed_chain()
    for bad in (0, -1.0, float("nan")):
        with pytest.raises(hopsim_mod.ScenarioError, match="series_interval_s"):
            hopsim_mod.run(scn, series_interval_s=bad)
    (tmp_path / "file").write_text("x")
    with pytest.raises(hopsim_mod.ScenarioError, match="pcap_dir"):
        hopsim_mod.run(scn, pcap_dir=tmp_path / "file")

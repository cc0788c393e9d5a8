"""The event trace through Python and the command line (issue 15): the Parquet file has the
documented columns and types, its counts agree with the result document of the same run, the
CSV form holds the same rows, the trace does not change the result, the conversion keeps
memory bounded (a long trace is converted block by block), and bad paths are refused before
the run with exit 2. The core's own test (crates/hopsim-core/tests/event_trace.rs) checks
every counter on ten scenarios.
"""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import hopsim
from hopsim import events
from simhelpers import assert_no_traceback, run_cli

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "crates" / "hopsim-core" / "tests" / "golden"


def _same(a: hopsim.Result, b: hopsim.Result) -> bool:
    da, db = json.loads(a.to_json()), json.loads(b.to_json())
    for d in (da, db):
        d.pop("engine", None)
    return da == db


def test_parquet_trace_has_the_columns_and_agrees_with_the_result(tmp_path: Path) -> None:
    scenario = GOLDEN / "routing-dsr-ns2.toml"
    out = tmp_path / "run.parquet"
    res = hopsim.run(scenario, trace=out)
    assert _same(res, hopsim.run(scenario)), "the trace changed the result"
    table = pq.read_table(out)
    assert table.schema.names == list(events.schema().names)
    assert table.schema == events.schema()
    rows = table.to_pylist()
    assert not list(tmp_path.glob(".*partial")), "the CSV stream is removed after conversion"
    by = collections.Counter((r["node"], r["event"], r["frame_kind"]) for r in rows)
    for n in res.raw["nodes"]:
        assert by[(n["id"], "frame_start", "data")] == n["data_sent"]
        assert by[(n["id"], "frame_start", "rts")] == n["rts_sent"]
    flow = res.raw["flows"][0]
    kinds = collections.Counter((r["flow"], r["event"]) for r in rows if r["layer"] == "transport")
    assert kinds[(0, "retransmission")] == flow["retransmissions"]
    assert kinds[(0, "send")] + kinds[(0, "retransmission")] == flow["segments_sent"]
    # A packet keeps its id at every hop: the first data segment is sent, queued at each
    # node of its path and received at the destination.
    first = next(r["packet"] for r in rows if r["event"] == "send" and r["seq"] == 0)
    seen = [r["node"] for r in rows if r["packet"] == first and r["event"] == "enqueue"]
    assert seen == flow["path"][:-1]
    assert any(
        r["packet"] == first and r["event"] == "receive" and r["node"] == flow["dst"] for r in rows
    )


def test_csv_trace_holds_the_same_rows(tmp_path: Path) -> None:
    scenario = GOLDEN / "udp-frame-errors.toml"
    hopsim.run(scenario, trace=tmp_path / "t.parquet")
    hopsim.run(scenario, trace=tmp_path / "t.csv")
    csv = pacsv.read_csv(tmp_path / "t.csv")
    parquet = pq.read_table(tmp_path / "t.parquet")
    assert csv.num_rows == parquet.num_rows > 1000
    assert csv.column("time_ns").to_pylist() == parquet.column("time_ns").to_pylist()
    reasons = collections.Counter(parquet.column("reason").to_pylist())
    assert reasons["frame_error"] > 0


def test_conversion_works_block_by_block(tmp_path: Path, monkeypatch) -> None:
    # Blocks far smaller than the trace: the writer sees many batches, the rows are whole.
    monkeypatch.setattr(events, "BLOCK_BYTES", 64 << 10)
    out = tmp_path / "t.parquet"
    hopsim.run(GOLDEN / "tcp-newreno.toml", trace=out)
    meta = pq.ParquetFile(out).metadata
    assert meta.num_row_groups > 10
    table = pq.read_table(out)
    times = table.column("time_ns").to_pylist()
    assert len(times) == meta.num_rows and all(t is not None for t in times)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("t.txt", "must end in .parquet or .csv"),
        ("missing/t.csv", "does not exist"),
        ("", "is a directory"),
    ],
)
def test_bad_trace_paths_are_refused_before_the_run(tmp_path: Path, name: str, message: str):
    target = str(tmp_path / name) if name else str(tmp_path)
    with pytest.raises(hopsim.ScenarioError, match=message):
        hopsim.run(GOLDEN / "tcp-reno.toml", trace=target)
    proc = run_cli("run", str(GOLDEN / "tcp-reno.toml"), "--trace", target)
    assert proc.returncode == 2, proc.stderr
    assert "--trace" in proc.stderr and message in proc.stderr
    assert_no_traceback(proc)


def test_cli_writes_the_trace_and_says_where(tmp_path: Path) -> None:
    out = tmp_path / "aodv.parquet"
    proc = run_cli("run", str(GOLDEN / "routing-aodv-chain.toml"), "--trace", str(out))
    assert proc.returncode == 0, proc.stderr
    assert_no_traceback(proc)
    assert "trace" in proc.stdout and str(out.name) in proc.stdout
    kinds = collections.Counter(pq.read_table(out).column("event").to_pylist())
    assert kinds["route_request"] > 0 and kinds["route_reply"] > 0


#: Goodput of a TCP flow from an ns-2 wireless trace, as the awk scripts published for ns-2
#: compute it: the payload (size minus 40 bytes of TCP/IP header) of the segments the
#: destination's agent receives in [start, stop), each sequence number counted once.
THROUGHPUT_AWK = r"""
$1 == "r" && $4 == "AGT" && $7 == "tcp" && $3 == "_" dst "_" && $2 >= start && $2 < stop {
    seq = substr($18, 2)
    if (!(seq in seen)) { seen[seq] = 1; bytes += $8 - 40 }
}
END { printf "%.6f\n", bytes * 8 / (stop - start) / 1000 }
"""

#: Delivery ratio and drops by reason, the other classic: AGT sends and receives of CBR
#: packets, D lines counted by their reason field.
DELIVERY_AWK = r"""
$1 == "s" && $4 == "AGT" && $7 == "cbr" { sent++ }
$1 == "r" && $4 == "AGT" && $7 == "cbr" { received++ }
$1 == "D" { drops[$5]++ }
END {
    printf "%d %d\n", sent, received
    for (r in drops) printf "%s %d\n", r, drops[r]
}
"""


def _awk(script: str, trace: Path, **variables: object) -> str:
    import shutil
    import subprocess

    awk = shutil.which("awk")
    if awk is None:
        pytest.skip("awk is not installed")
    args = [awk]
    for k, v in variables.items():
        args += ["-v", f"{k}={v}"]
    done = subprocess.run([*args, script, str(trace)], capture_output=True, text=True, check=True)
    return done.stdout


# Scenarios whose segments carry the plain 40 bytes of TCP/IP header the script assumes
# (DSR adds its source-route header to the IP length, as in ns-2).
@pytest.mark.parametrize("stem", ["tcp-newreno", "routing-aodv-chain", "tcp-sack", "routing-etx"])
def test_an_ns2_awk_throughput_script_gives_the_goodput(tmp_path: Path, stem: str) -> None:
    trace = tmp_path / "run.tr"
    res = hopsim.run(GOLDEN / f"{stem}.toml", trace_ns2=trace)
    scenario, flow = res.raw["scenario"], res.raw["flows"][0]
    got = float(
        _awk(
            THROUGHPUT_AWK,
            trace,
            start=scenario["warmup_s"],
            stop=scenario["duration_s"],
            dst=flow["dst"],
        )
    )
    # hopsim counts in-order delivery in the window, the script first arrivals. They differ
    # by the segments waiting behind a hole at either edge of the window: arrived before it
    # and delivered in it (hopsim counts them, the script not), or arrived in it and still
    # waiting at its end (the script counts them, hopsim not): at most the receiver's window
    # of them, and a retransmission or two.
    window_s = scenario["duration_s"] - scenario["warmup_s"]
    segment_kbps = 1460 * 8 / window_s / 1000
    behind_a_hole = (scenario["flows"][0]["tcp"]["receiver_window"] + 2) * segment_kbps
    assert got == pytest.approx(flow["goodput_kbps"], abs=behind_a_hole)
    assert flow["goodput_kbps"] > 100


def test_an_ns2_awk_delivery_script_counts_the_udp_packets_and_drops(tmp_path: Path) -> None:
    trace = tmp_path / "run.tr"
    res = hopsim.run(GOLDEN / "udp-frame-errors.toml", trace_ns2=trace)
    first, *drops = _awk(DELIVERY_AWK, trace).splitlines()
    sent, received = map(int, first.split())
    flows = res.raw["flows"]
    assert sent == sum(f["packets_sent"] for f in flows)
    assert received == sum(f["packets_delivered"] for f in flows)
    by_reason = {d.split()[0]: int(d.split()[1]) for d in drops}
    totals = res.raw["totals"]
    assert by_reason.get("RET", 0) == totals["retry_limit_drops"]
    assert by_reason.get("IFQ", 0) == totals["queue_drops"]
    assert by_reason.get("ERR", 0) > 0  # injected frame errors at the addressed receivers


def test_ns2_lines_have_the_cmu_layout(tmp_path: Path) -> None:
    trace = tmp_path / "run.tr"
    hopsim.run(GOLDEN / "routing-aodv-chain.toml", trace_ns2=trace)
    lines = trace.read_text().splitlines()
    data = [ln for ln in lines if " tcp " in ln]
    assert data
    for line in data[:200]:
        f = line.split()
        assert f[0] in "srfD" and f[2].startswith("_") and f[3] in ("AGT", "RTR", "MAC", "IFQ")
        assert f[8].startswith("[") and f[12] == "-------" and f[13].startswith("[")
        assert float(f[1]) >= 0 and int(f[7]) > 0
    assert any(ln.startswith("f ") and " RTR " in ln for ln in lines), "forwarding lines"
    assert any(" (REQUEST)" in ln for ln in lines) and any(" (REPLY)" in ln for ln in lines)
    proc = run_cli("run", str(GOLDEN / "tcp-reno.toml"), "--trace-ns2", str(tmp_path / "x.txt"))
    assert proc.returncode == 2 and "--trace-ns2" in proc.stderr and ".tr" in proc.stderr


def test_the_explorer_data_follows_routes_and_rtts_from_the_trace() -> None:
    from hopsim.view import page_data

    chain = page_data(GOLDEN / "tcp-newreno.toml")
    flows, times, routes = chain["route_changes"]
    assert routes == [[0, 1, 2, 3, 4]] and flows == [0], "a static chain has one route"
    rtt_flow, rtt_at, rtt_ms = chain["rtt"]
    assert len(rtt_ms) > 100 and set(rtt_flow) == {0}
    # An RTT over 4 hops of 2 Mbit/s with RTS/CTS is at least the 4 DATA + 4 ACK frames'
    # airtime (~8 ms): no sample below that, and samples are in time order.
    assert min(rtt_ms) > 8.0 and rtt_at == sorted(rtt_at)
    manet = page_data(GOLDEN / "manet-dsr-tcp.toml")
    per_flow = collections.Counter(manet["route_changes"][0])
    assert max(per_flow.values()) > 1, "moving nodes: some flow changes its route"
    for path in manet["route_changes"][2]:
        assert len(set(path)) == len(path), f"a route visits a node twice: {path}"

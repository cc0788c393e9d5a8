"""Tables never cut a number: at 80 and 60 columns the run and sweep tables either fit or are
printed stacked, and every number the result holds appears whole (issue 13)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hopsim.sweeps import load_sweep, run_sweep, summarize
from hopsim.tables import fmt_stat, short_names

# Big numbers: ~1.2e5 datagrams and a 30 MB transfer at 11 Mbit/s over one hop.
BIG = """
duration_s = 300.0
warmup_s = 10.0
[topology]
kind = "chain"
hops = 1
spacing_m = 100.0
[mac]
data_rate_mbps = 11.0
[[flows]]
src = 0
dst = 1
transport = "udp"
[[flows]]
src = 1
dst = 0
transport = "tcp"
bytes = 30000000
"""


def _cli(columns: int, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": str(columns)}
    cmd = [sys.executable, "-m", "hopsim", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    path = tmp_path_factory.mktemp("big") / "big.toml"
    path.write_text(BIG)
    proc = _cli(200, "run", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    return path, json.loads(proc.stdout)


@pytest.mark.parametrize("columns", [80, 60])
def test_run_tables_show_every_number_whole(big, columns: int):
    path, doc = big
    proc = _cli(columns, "run", str(path))
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "…" not in text, text
    words = set(text.replace("·", " ").split())
    for f in doc["flows"]:
        assert f["packets_sent"] > 10_000  # numbers wide enough to have been cut before
        for key in ("packets_sent", "packets_delivered"):
            assert str(f[key]) in words, (key, f[key], text)
        assert f"{f['goodput_kbps']:,.1f}" in words, text
    tcp = doc["flows"][1]
    assert str(tcp["segments_sent"]) in words and f"{tcp['transfer_completed_s']:,.2f}" in words
    # The totals lines break between "label number" pairs only: a number keeps its label.
    lines = text.splitlines()
    t = doc["totals"]
    pairs = [
        f"MAC attempts {t['mac_attempts']:,}",
        f"retries {t['mac_retries']:,}",
        f"retry-limit drops {t['retry_limit_drops']:,}",
        f"collisions {t['collisions']:,}",
        f"link drop probability {t['link_drop_probability']:.4f}",
    ]
    for pair in pairs:
        assert any(pair in line for line in lines), (pair, text)
    assert all(len(line.rstrip()) <= columns for line in lines if "·" in line), text


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("narrow")
    doc = {
        "name": "narrow",
        "scenario": {
            "duration_s": 20.0,
            "topology": {"kind": "chain", "hops": 2, "spacing_m": 200.0},
            "flows": [{"src": 0, "dst": 2, "transport": "tcp"}],
        },
        "replications": 2,
        "metrics": ["goodput_kbps", "retransmissions", "totals.mac_retries", "rtt_ms.p95"],
        "sweep": {"tcp.max_window": [0, 4], "mac.data_rate_mbps": [2.0, 11.0]},
    }
    run_sweep(load_sweep(doc), out, jobs=1, progress="off")
    return out


@pytest.mark.parametrize("columns", [80, 60])
def test_sweep_tables_show_every_cell_whole(store: Path, columns: int):
    proc = _cli(columns, "results", str(store))
    assert proc.returncode == 0, proc.stderr
    assert "…" not in proc.stdout
    flat = proc.stdout
    for p in summarize(store):
        for stat in p.stats.values():
            assert fmt_stat(stat) in flat, (fmt_stat(stat), flat)
    # Headers are the keys' last parts, and the full names are given once.
    assert "max_window" in flat and "data_rate_mbps" in flat
    assert "max_window = tcp.max_window" in " ".join(flat.split())


def test_wide_terminals_get_a_table(store: Path):
    text = _cli(200, "results", str(store)).stdout
    header = [line for line in text.splitlines() if "max_window" in line and "runs" in line]
    assert header, text  # one header line: the table form


def test_short_names_stay_distinct():
    assert short_names(["tcp.max_window", "topology.hops"]) == {
        "tcp.max_window": "max_window",
        "topology.hops": "hops",
    }
    names = short_names(["flows.0.interval_s", "flows.1.interval_s", "rtt_ms.p95"])
    assert names == {
        "flows.0.interval_s": "0.interval_s",
        "flows.1.interval_s": "1.interval_s",
        "rtt_ms.p95": "p95",
    }

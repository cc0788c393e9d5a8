"""benches/speed_ns2.py: ns-2's "tracing off" script of `make bench` is the crosscheck's script
with only the trace and the window sampler taken out.

The script checks need no ns-2: they fail as soon as python/hopsim/crosscheck/translate.py
changes how it writes the trace, rather than at benchmark time. With ns-2 installed, both
scripts run the 7-hop chain and the MANET and must give the same TCP counters (data packets
sent, retransmitted packets, retransmission timeouts): tracing and sampling only observe,
so taking them out must leave ns-2's simulation as it was.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHES = Path(__file__).resolve().parents[1] / "benches"


@pytest.fixture(scope="module")
def bench_mods(hopsim_mod):
    if str(BENCHES) not in sys.path:
        sys.path.insert(0, str(BENCHES))
    import speed_ns2
    import speed_scenarios

    return speed_ns2, speed_scenarios


def _scenarios(sc) -> dict[str, dict]:
    return {"chain": sc.chain7_vegas_aodv(20.0), "manet": sc.manet_chen(20.0, flows=5)}


def test_off_script_is_the_crosscheck_script_without_trace_and_sampler(bench_mods, tmp_path):
    speed_ns2, sc = bench_mods
    from hopsim import _core
    from hopsim.crosscheck.ns2run import ns2_script

    for s in _scenarios(sc).values():
        trace = str(tmp_path / "run.tr")
        scripts = speed_ns2.scripts(s, trace)
        resolved = json.loads(_core.validate_json(json.dumps(s)))
        assert scripts["traced"] == ns2_script(resolved, trace)
        off = scripts["off"]
        assert "-agentTrace OFF -routerTrace OFF -macTrace OFF" in off
        assert "Trace ON" not in off
        assert 'set tracefd [open "/dev/null" w]' in off
        assert "$ns at $warmup sample_cwnd" not in off
        # Everything else is the crosscheck's script, line for line.
        traced_lines = scripts["traced"].replace(trace, "/dev/null").splitlines()
        assert len(off.splitlines()) == len(traced_lines)
        differ = [(a, b) for a, b in zip(traced_lines, off.splitlines(), strict=True) if a != b]
        assert len(differ) == 2, differ


def test_a_changed_translator_is_reported(bench_mods):
    speed_ns2, _ = bench_mods
    with pytest.raises(RuntimeError, match="translate.py changed"):
        speed_ns2._replace_once("no trace flags here", speed_ns2.TRACE_FLAGS, "x")


def _tcp_counters(stdout: str) -> list[list[str]]:
    # "HOPSIM tcp i ndatapack nrexmitpack nrexmit avg_cwnd": all but the sampled average.
    return [line.split()[2:6] for line in stdout.splitlines() if line.startswith("HOPSIM tcp")]


def test_ns2_runs_the_same_simulation_with_tracing_off(bench_mods, ns2, tmp_path):
    speed_ns2, sc = bench_mods
    for name, s in _scenarios(sc).items():
        scripts = speed_ns2.scripts(s, str(tmp_path / "run.tr"))
        out = {}
        for kind, text in scripts.items():
            (tmp_path / f"{kind}.tcl").write_text(text)
            proc = subprocess.run(
                [ns2, f"{kind}.tcl"], cwd=tmp_path, capture_output=True, text=True, timeout=300
            )
            assert proc.returncode == 0 and "HOPSIM end" in proc.stdout, proc.stderr[-500:]
            out[kind] = _tcp_counters(proc.stdout)
        assert out["off"], name
        assert out["traced"] == out["off"], name
        assert (tmp_path / "run.tr").stat().st_size > 0  # the traced run did trace

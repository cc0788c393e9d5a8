"""Sweep files and sweep options that ran something other than what they said (issue 30): each
is refused before any run, exit 2, with a message naming the key or option, the value and
what is allowed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hopsim import ScenarioError
from hopsim.scenario import dumps_toml
from hopsim.sweeps import load_sweep
from hopsim.sweeps.checks import check_same_runs

SCENARIO: dict[str, Any] = {
    "duration_s": 2.0,
    "topology": {"kind": "chain", "hops": 2, "spacing_m": 200.0},
    "routing": {"protocol": "static"},
    "flows": [{"src": 0, "dst": 2, "transport": "tcp"}],
}


def _hopsim(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "hopsim", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=cwd)


def _files(tmp_path: Path, sweep_toml: str) -> Path:
    (tmp_path / "s.toml").write_text(dumps_toml(SCENARIO))
    path = tmp_path / "sw.toml"
    path.write_text('base = "s.toml"\n' + sweep_toml)
    return path


def _refused(tmp_path: Path, sweep_toml: str, *needles: str) -> str:
    """Run ``hopsim sweep`` on the file: exit 2, one message with every needle, no store."""
    path = _files(tmp_path, sweep_toml)
    out = tmp_path / "out"
    proc = _hopsim("sweep", str(path), "-o", str(out), "--progress", "off")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    for needle in needles:
        assert needle in proc.stderr, proc.stderr
    assert not (out / "results.sqlite").exists(), "refused before any run"
    return proc.stderr


def test_metric_of_a_flow_that_does_not_exist(tmp_path: Path) -> None:
    _refused(
        tmp_path,
        'metrics = ["flow99:goodput_kbps"]\n[sweep]\n"tcp.max_window" = [0, 4]\n',
        '"flow99:goodput_kbps"',
        "flow 99",
        "1 flow(s)",
        "allowed: flow0",
    )


def test_flow_metric_counts_random_flows() -> None:
    doc = {
        "scenario": {**SCENARIO, "traffic": {"random_flows": 2}},
        "metrics": ["flow2:goodput_kbps"],
    }
    load_sweep(doc)  # flow 2 is the second random flow: allowed
    with pytest.raises(ScenarioError, match=r"flow3:goodput_kbps.*3 flow\(s\)"):
        load_sweep({**doc, "metrics": ["flow3:goodput_kbps"]})


def test_key_with_a_trailing_space(tmp_path: Path) -> None:
    _refused(
        tmp_path,
        '[sweep]\n"tcp.max_window " = [0, 4]\n"tcp.max_window" = [1, 2]\n',
        '"tcp.max_window "',
        '"max_window "',
        "spaces",
    )


@pytest.mark.parametrize("where", ["set", "quick.set"])
def test_set_key_with_spaces(where: str) -> None:
    doc: dict[str, Any] = {"scenario": SCENARIO}
    if where == "set":
        doc["set"] = {" tcp.max_window": 4}
    else:
        doc["quick"] = {"set": {"tcp. max_window": 4}}
    with pytest.raises(ScenarioError, match=rf"^{where} .*spaces around it"):
        load_sweep(doc)


def test_repeated_values_on_an_axis(tmp_path: Path) -> None:
    _refused(
        tmp_path,
        '[sweep]\n"tcp.max_window" = [0, 0, 0]\n',
        '"tcp.max_window" = [0, 0, 0]',
        "listed 3 times",
        "replications",
    )


@pytest.mark.parametrize(
    "sweep",
    [
        {"tcp.max_window": [4, 4.0]},  # the same number
        {"zip": [{"tcp.max_window": [4, 2, 4], "topology.hops": [2, 3, 2]}]},
    ],
)
def test_repeats_and_zip_repeats(sweep: dict[str, Any]) -> None:
    with pytest.raises(ScenarioError, match="listed 2 times"):
        load_sweep({"scenario": SCENARIO, "sweep": sweep})


def test_repeats_after_quick() -> None:
    doc = {
        "scenario": SCENARIO,
        "sweep": {"tcp.max_window": [0, 2, 4]},
        "quick": {"sweep": {"tcp.max_window": [2, 2]}},
    }
    load_sweep(doc)  # full mode: three distinct values
    with pytest.raises(ScenarioError, match="listed 2 times"):
        load_sweep(doc, quick=True)


def test_distinct_values_that_make_a_zip_are_allowed() -> None:
    spec = load_sweep(
        {
            "scenario": SCENARIO,
            "sweep": {"zip": [{"tcp.max_window": [4, 4], "topology.hops": [2, 3]}]},
        }
    )
    assert len(spec.points) == 2


def test_points_that_resolve_to_the_same_run() -> None:
    same = {"a": 1, "b": [1.0]}
    with pytest.raises(ScenarioError, match="points x=1 and x=2: .*same scenario"):
        check_same_runs(["x=0", "x=1", "x=2"], [{"a": 0}, same, dict(same)])


def test_base_that_is_a_sweep_file(tmp_path: Path) -> None:
    inner = _files(tmp_path, '[sweep]\n"tcp.max_window" = [0, 4]\n')
    outer = tmp_path / "outer.toml"
    outer.write_text(f'base = "{inner.name}"\n')
    proc = _hopsim("sweep", str(outer), "-o", str(tmp_path / "out"), "--progress", "off")
    assert proc.returncode == 2, proc.stderr
    assert "base = 'sw.toml'" in proc.stderr
    assert "is a sweep file" in proc.stderr
    assert "base must be a scenario" in proc.stderr
    assert "run it with" not in proc.stderr, "the user did run it with hopsim sweep"


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--max-replications", "-5"], ["--max-replications -5", "1..100000"]),
        (["--until-ci", "0.1", "--max-replications", "-5"], ["--max-replications -5"]),
        (["--until-ci", "0.1", "--max-replications", "0"], ["--max-replications 0"]),
        (["--max-replications", "5"], ["--max-replications 5", "only applies with --until-ci"]),
        (["--ci-metric", "goodput_kbps"], ["--ci-metric goodput_kbps", "--until-ci"]),
        (["--jobs", "-1"], ["--jobs -1", "1..1024"]),
        (["--jobs", "100000"], ["--jobs 100000", "1..1024"]),
        (["--until-ci", "nan"], ["--until-ci nan", "(0, 1)"]),
        (["--until-ci", "-0.1"], ["--until-ci -0.1", "(0, 1)"]),
    ],
)
def test_numeric_sweep_options(tmp_path: Path, args: list[str], needles: list[str]) -> None:
    path = _files(tmp_path, '[sweep]\n"tcp.max_window" = [0, 4]\n')
    out = tmp_path / "out"
    proc = _hopsim("sweep", str(path), "-o", str(out), "--progress", "off", *args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    for needle in needles:
        assert needle in proc.stderr, proc.stderr
    assert not out.exists()


def test_max_replications_in_the_api(tmp_path: Path) -> None:
    from hopsim.sweeps import run_sweep

    spec = load_sweep({"scenario": SCENARIO})
    for bad in (-5, 0, True, 2.5):
        with pytest.raises(ScenarioError, match="--max-replications"):
            run_sweep(spec, tmp_path / "out", jobs=1, max_replications=bad, progress="off")
    assert not (tmp_path / "out").exists()


def test_ci_metric_of_a_flow_that_does_not_exist(tmp_path: Path) -> None:
    path = _files(tmp_path, '[sweep]\n"tcp.max_window" = [0, 4]\n')
    out = tmp_path / "out"
    args = ["--until-ci", "0.1", "--ci-metric", "flow5:goodput_kbps", "--max-replications", "4"]
    proc = _hopsim("sweep", str(path), "-o", str(out), "--progress", "off", *args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert '--ci-metric "flow5:goodput_kbps" names flow 5' in proc.stderr, proc.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["-r", "-5"], ["--replications -5", "1..100000"]),
        (["-r", "0"], ["--replications 0", "1..100000"]),
        (["-r", "100000000"], ["--replications 100000000", "1..100000"]),  # hung building tasks
        (["--seed", "-1"], ["--seed -1", "0..2^64-1"]),
        (["--seed", str(2**64)], [f"--seed {2**64}", "0..2^64-1"]),
    ],
)
def test_numeric_crosscheck_options(tmp_path: Path, args: list[str], needles: list[str]) -> None:
    """crosscheck's counterparts of --max-replications: a negative seed ran, a huge
    replication count built its task list for minutes, before anything was checked."""
    path = tmp_path / "s.toml"
    path.write_text(dumps_toml(SCENARIO))
    out = tmp_path / "out"
    proc = _hopsim("crosscheck", str(path), "-o", str(out), "--progress", "off", *args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    for needle in needles:
        assert needle in proc.stderr, proc.stderr
    assert not out.exists()


@pytest.mark.parametrize("agg", ["flow\u00b2", "flow\u0663", "flow00", "flow01"])
def test_flow_metric_number_in_ascii_digits(agg: str) -> None:
    """``flow²`` ended in a ValueError traceback (``"²".isdigit()`` but ``int("²")`` fails);
    ``flow٣`` and ``flow01`` were second names, and columns, for flow 3 and flow 1."""
    with pytest.raises(ScenarioError, match=rf"metrics: .*{agg}.* has the aggregate .*flowN"):
        load_sweep({"scenario": SCENARIO, "metrics": [f"{agg}:goodput_kbps"]})

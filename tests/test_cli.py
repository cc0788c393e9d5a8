"""The ``hopsim`` command: help, table output, JSON output, --set and --seed (happy paths;
bad input is in test_bad_input.py)."""

from __future__ import annotations

import json

from simhelpers import (
    assert_no_traceback,
    chain_scenario,
    check_result,
    run_cli,
    udp_flow,
    write_scenario,
)


def small_chain() -> dict:
    return chain_scenario(2, [udp_flow(0, 2, interval_s=0.02)], duration_s=3.0, warmup_s=0.5)


def test_help_explains_the_commands_and_options():
    top = run_cli("--help")
    assert top.returncode == 0, top.stderr
    assert "run" in top.stdout
    sub = run_cli("run", "--help")
    assert sub.returncode == 0, sub.stderr
    for opt in ("--set", "--seed", "--json"):
        assert opt in sub.stdout, opt


def test_run_prints_a_table(tmp_path):
    path = write_scenario(tmp_path / "chain.toml", small_chain())
    proc = run_cli("run", str(path))
    assert proc.returncode == 0, proc.stderr
    assert_no_traceback(proc)
    assert "goodput" in proc.stdout.lower()


def test_run_json_is_the_result_document(tmp_path):
    path = write_scenario(tmp_path / "chain.toml", small_chain())
    proc = run_cli("run", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    raw = json.loads(proc.stdout)
    check_result(raw)
    assert raw["flows"][0]["hops"] == 2


def test_set_and_seed_change_the_resolved_scenario(tmp_path):
    path = write_scenario(tmp_path / "chain.toml", small_chain())
    proc = run_cli(
        "run",
        str(path),
        "--json",
        "--seed",
        "42",
        "--set",
        "mac.data_rate_mbps=5.5",
        "--set",
        "topology.hops=3",
    )
    assert proc.returncode == 0, proc.stderr
    raw = json.loads(proc.stdout)
    check_result(raw)
    assert raw["seed"] == 42
    assert raw["scenario"]["mac"]["data_rate_mbps"] == 5.5
    assert raw["scenario"]["topology"]["hops"] == 3
    assert len(raw["nodes"]) == 4

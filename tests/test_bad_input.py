"""Bad input is rejected before the run, with one clear message naming the key.

Contract (issue 2, docs/interfaces.md): unknown keys, wrong types and impossible values are
rejected before the run with a message that names the (dotted) key, the value and what is
allowed -- never a panic, a Python traceback or a silent default.

* Python API: ``hopsim.run`` raises ``hopsim.ScenarioError`` (a ``ValueError``) whose message
  contains the key.
* CLI: ``hopsim run FILE`` exits with status 2 and prints the message on stderr, without a
  traceback.
"""

from __future__ import annotations

import copy

import pytest

from simhelpers import (
    assert_no_traceback,
    chain_scenario,
    mac_section,
    run_cli,
    udp_flow,
    write_scenario,
)


def base() -> dict:
    """A small valid scenario: 3-hop chain, one paced UDP flow, 2 s."""
    return chain_scenario(
        3, [udp_flow(0, 3, interval_s=0.05)], duration_s=2.0, warmup_s=0.5, mac=mac_section()
    )


def _set(path: str, value):
    """Mutation that sets a dotted path (``flows.0.dst`` indexes the list) to ``value``."""

    def mutate(scn: dict) -> None:
        *parents, leaf = path.split(".")
        node = scn
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node.setdefault(p, {})
        if isinstance(node, list):
            node[int(leaf)] = value
        else:
            node[leaf] = value

    return mutate


def _delete(path: str):
    def mutate(scn: dict) -> None:
        *parents, leaf = path.split(".")
        node = scn
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node[p]
        del node[leaf]

    return mutate


def _both(*mutations):
    def mutate(scn: dict) -> None:
        for m in mutations:
            m(scn)

    return mutate


def _malformed_positions(scn: dict) -> None:
    scn["topology"] = {"kind": "positions", "positions": [[0.0, 0.0], [100.0]]}
    scn["flows"] = [udp_flow(0, 1, interval_s=0.05)]


def _unconnected(scn: dict) -> None:
    scn["topology"] = {"kind": "positions", "positions": [[0.0, 0.0], [1000.0, 0.0]]}
    scn["flows"] = [udp_flow(0, 1, interval_s=0.05)]


# (id, mutation, names, value).  ``names``: what the message must name -- every string in the
# list, and for a tuple at least one of its strings (when either of two keys may fairly be
# blamed).  ``value``: a rendering of the offending value the message must contain, or None.
CASES = [
    # Unknown keys: top level and nested (the key and the table it is in are named).
    ("unknown-top-level-key", _set("durration_s", 10.0), ["durration_s"], None),
    ("unknown-mac-key", _set("mac.cw_minimum", 15), ["mac", "cw_minimum"], None),
    ("unknown-topology-key", _set("topology.hopz", 3), ["topology", "hopz"], None),
    ("unknown-radio-key", _set("radio.tx_power_mw", 20.0), ["radio", "tx_power_mw"], None),
    ("unknown-flow-key", _set("flows.0.rate_kbps", 100.0), ["flows", "rate_kbps"], None),
    ("unknown-section", _set("phy", {"x": 1}), ["phy"], None),
    # Wrong types.
    ("hops-is-a-string", _set("topology.hops", "seven"), ["topology.hops"], "seven"),
    ("duration-is-a-string", _set("duration_s", "long"), ["duration_s"], "long"),
    ("queue-is-a-string", _set("mac.queue_packets", "fifty"), ["mac.queue_packets"], "fifty"),
    ("hops-is-fractional", _set("topology.hops", 2.5), ["topology.hops"], "2.5"),
    ("dst-is-a-string", _set("flows.0.dst", "three"), ["dst"], "three"),
    ("mac-is-not-a-table", _set("mac", 5), ["mac"], None),
    # Impossible values.
    ("negative-spacing", _set("topology.spacing_m", -200.0), ["topology.spacing_m"], "-200"),
    ("zero-spacing", _set("topology.spacing_m", 0.0), ["topology.spacing_m"], None),
    ("dst-out-of-range", _set("flows.0.dst", 9), ["dst"], "9"),
    ("src-out-of-range", _set("flows.0.src", 12), ["src"], "12"),
    ("negative-dst", _set("flows.0.dst", -1), ["dst"], "-1"),
    ("src-equals-dst", _set("flows.0.dst", 0), [("src", "dst")], None),
    ("unconnected-nodes", _unconnected, ["flow"], None),
    (
        "duration-equals-warmup",
        _both(_set("duration_s", 5.0), _set("warmup_s", 5.0)),
        [("warmup_s", "duration_s")],
        None,
    ),
    (
        "duration-below-warmup",
        _both(_set("duration_s", 5.0), _set("warmup_s", 8.0)),
        [("warmup_s", "duration_s")],
        None,
    ),
    ("negative-duration", _set("duration_s", -1.0), ["duration_s"], "-1"),
    ("negative-seed", _set("seed", -1), ["seed"], None),
    ("negative-interval", _set("flows.0.interval_s", -0.01), ["interval_s"], None),
    ("unsupported-data-rate", _set("mac.data_rate_mbps", 3.0), ["mac.data_rate_mbps"], "3"),
    ("unsupported-basic-rate", _set("mac.basic_rate_mbps", 11.0), ["mac.basic_rate_mbps"], "11"),
    ("unknown-topology-kind", _set("topology.kind", "hexagon"), ["topology.kind"], "hexagon"),
    (
        "unknown-propagation",
        _set("radio.propagation", "rayleigh"),
        ["radio.propagation"],
        "rayleigh",
    ),
    ("unknown-transport", _set("flows.0.transport", "sctp"), ["transport"], "sctp"),
    ("unknown-routing", _set("routing.protocol", "ospf"), ["routing.protocol"], "ospf"),
    ("missing-topology", _delete("topology"), ["topology"], None),
    ("missing-topology-kind", _delete("topology.kind"), ["topology", "kind"], None),
    ("malformed-position", _malformed_positions, ["topology", "positions"], None),
]
IDS = [c[0] for c in CASES]


def bad_scenario(mutation) -> dict:
    scn = copy.deepcopy(base())
    mutation(scn)
    return scn


def check_message(message: str, names: list, value: str | None) -> None:
    assert message.strip(), "empty error message"
    for name in names:
        alternatives = name if isinstance(name, tuple) else (name,)
        assert any(a in message for a in alternatives), (
            f"message does not name {' or '.join(alternatives)!r}: {message!r}"
        )
    if value is not None:
        assert value in message, f"message does not name the value {value!r}: {message!r}"


def test_base_scenario_is_valid(run_scenario):
    raw = run_scenario(base()).raw
    assert raw["flows"][0]["packets_delivered"] > 0


# ---------------------------------------------------------------------------------------
# Python API
# ---------------------------------------------------------------------------------------


def test_scenario_error_is_a_value_error(hopsim_mod):
    assert issubclass(hopsim_mod.ScenarioError, ValueError)


@pytest.mark.parametrize("case_id,mutation,names,value", CASES, ids=IDS)
def test_api_rejects(hopsim_mod, case_id, mutation, names, value):
    with pytest.raises(hopsim_mod.ScenarioError) as err:
        hopsim_mod.run(bad_scenario(mutation))
    check_message(str(err.value), names, value)


@pytest.mark.parametrize(
    "overrides,names",
    [
        ({"mac.no_such_key": 1}, ["mac", "no_such_key"]),
        ({"topology.spacing_m": -5.0}, ["topology.spacing_m"]),
        ({"mac.data_rate_mbps": 54.0}, ["mac.data_rate_mbps"]),
        ({"duration_s": 0.1, "warmup_s": 0.5}, [("warmup_s", "duration_s")]),
    ],
    ids=["unknown-key", "negative-spacing", "bad-rate", "duration-below-warmup"],
)
def test_api_rejects_bad_overrides(hopsim_mod, overrides, names):
    with pytest.raises(hopsim_mod.ScenarioError) as err:
        hopsim_mod.run(base(), overrides=overrides)
    check_message(str(err.value), names, None)


@pytest.mark.parametrize(
    "given, error, says",
    [
        ("", "ScenarioError", "the path is empty"),
        ("duration_s = 10\n", "FileNotFoundError", "looks like TOML text"),
        ("duration_s = 10\n" * 30, "ScenarioError", "looks like TOML text"),
        ("x" * 300, "ScenarioError", "cannot be read (File name too long)"),
    ],
)
def test_api_rejects_a_path_that_is_no_file_by_name(hopsim_mod, given, error, says):
    # A string is a path: TOML text, an empty string or a name too long for the filesystem
    # is refused with the path shown, never an OSError from the filesystem.
    with pytest.raises(Exception) as info:
        hopsim_mod.validate(given)
    assert type(info.value).__name__ == error and says in str(info.value), info.value


def test_api_rejects_a_scenario_that_is_not_a_table(hopsim_mod):
    with pytest.raises((hopsim_mod.ScenarioError, TypeError)):
        hopsim_mod.run(["not", "a", "scenario"])


# ---------------------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------------------


def assert_cli_rejects(proc, names: list, value: str | None = None) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert_no_traceback(proc)
    # The message may be wrapped to the terminal width: compare with line breaks removed.
    check_message(" ".join(proc.stderr.split()), names, value)


@pytest.mark.parametrize("case_id,mutation,names,value", CASES, ids=IDS)
def test_cli_rejects(tmp_path, case_id, mutation, names, value):
    path = write_scenario(tmp_path / f"{case_id}.toml", bad_scenario(mutation))
    assert_cli_rejects(run_cli("run", str(path)), names, value)


def test_cli_accepts_the_base_scenario(tmp_path):
    path = write_scenario(tmp_path / "base.toml", base())
    proc = run_cli("run", str(path))
    assert proc.returncode == 0, proc.stderr
    assert_no_traceback(proc)


def test_cli_missing_file(tmp_path):
    missing = tmp_path / "no_such_scenario.toml"
    proc = run_cli("run", str(missing))
    assert_cli_rejects(proc, ["no_such_scenario.toml"])


def test_cli_toml_syntax_error(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("duration_s = = 3\n[topology\n", encoding="utf-8")
    proc = run_cli("run", str(path))
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert_no_traceback(proc)
    assert proc.stderr.strip()


@pytest.mark.parametrize(
    "assignment",
    ["mac.data_rate_mbps", "=11", "mac.data_rate_mbps=", "mac..data_rate_mbps=11"],
    ids=["no-equals", "no-key", "no-value", "empty-path-part"],
)
def test_cli_bad_set_syntax(tmp_path, assignment):
    path = write_scenario(tmp_path / "base.toml", base())
    proc = run_cli("run", str(path), "--set", assignment)
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert_no_traceback(proc)
    assert proc.stderr.strip()


@pytest.mark.parametrize(
    "assignment,names",
    [
        ("mac.no_such_key=1", ["mac", "no_such_key"]),
        ("topology.spacing_m=-5", ["topology.spacing_m"]),
        ("mac.data_rate_mbps=3", ["mac.data_rate_mbps"]),
        ("topology.hops=seven", ["topology.hops"]),
    ],
    ids=["unknown-key", "negative-spacing", "bad-rate", "wrong-type"],
)
def test_cli_bad_set_value(tmp_path, assignment, names):
    path = write_scenario(tmp_path / "base.toml", base())
    assert_cli_rejects(run_cli("run", str(path), "--set", assignment), names)


def test_cli_bad_seed(tmp_path):
    path = write_scenario(tmp_path / "base.toml", base())
    proc = run_cli("run", str(path), "--seed", "abc")
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert_no_traceback(proc)
    assert "seed" in proc.stderr

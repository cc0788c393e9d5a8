"""Documents of the wrong shape (issue 30): nested too deep or too big, refused by name
before any parser that recurses sees them (never a RecursionError or "internal error ...
this is a bug"); a section or a flow written as a list, refused instead of read by
position."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import hopsim
from hopsim import ScenarioError
from hopsim.limits import MAX_DEPTH, MAX_FILE_BYTES, check_depth, check_text_depth
from hopsim.sweeps import load_sweep

SCENARIO: dict[str, Any] = {
    "duration_s": 2.0,
    "topology": {"kind": "chain", "hops": 2, "spacing_m": 200.0},
    "flows": [{"src": 0, "dst": 2, "transport": "udp", "interval_s": 0.1}],
}


def _hopsim(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "hopsim", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def _nested(levels: int) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    node = doc
    for _ in range(levels):
        node["a"] = {}
        node = node["a"]
    return doc


DEEP_TOML = {
    "arrays-3000": "x = " + "[" * 3000 + "]" * 3000 + "\n",
    "tables-500": "[" + ".".join(["a"] * 500) + "]\nb = 1\n",
    "inline-400": "x = " + "{a = " * 400 + "1" + "}" * 400 + "\n",
    "inline-300": "x = " + "{a = " * 300 + "1" + "}" * 300 + "\n",
    "arrays-200": "x = " + "[" * 200 + "]" * 200 + "\n",
    "dotted-100": ".".join(["a"] * 100) + " = 1\n",
}


@pytest.mark.parametrize("name", sorted(DEEP_TOML))
@pytest.mark.parametrize("command", ["validate", "run", "sweep"])
def test_deep_toml_file_is_refused_by_name(tmp_path: Path, name: str, command: str) -> None:
    path = tmp_path / f"{name}.toml"
    path.write_text(DEEP_TOML[name])
    args = [command, str(path)] + (["-o", str(tmp_path / "out")] if command == "sweep" else [])
    proc = _hopsim(*args)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "internal error" not in proc.stderr and "Recursion" not in proc.stderr
    assert str(path) in proc.stderr
    assert f"deeper than {MAX_DEPTH} levels" in proc.stderr, proc.stderr


def test_deep_dict_in_the_api() -> None:
    with pytest.raises(ScenarioError, match=rf"a\.a\.a.*deeper than {MAX_DEPTH} levels"):
        hopsim.validate(_nested(600))
    with pytest.raises(ScenarioError, match=r"override x: .*deeper than"):
        hopsim.validate(SCENARIO, {"x": _nested(600)})
    with pytest.raises(ScenarioError, match=r"override topology.hops: .*deeper than"):
        hopsim.validate(SCENARIO, ["topology.hops=" + "[" * 3000 + "]" * 3000])
    with pytest.raises(ScenarioError, match=r"with its overrides.*deeper than"):
        hopsim.validate(SCENARIO, {".".join(["a"] * 100): 1})
    with pytest.raises(ScenarioError, match=r"^sweep: .*deeper than"):
        load_sweep({"scenario": _nested(600)})


def test_deep_set_on_the_command_line(tmp_path: Path) -> None:
    from hopsim.scenario import dumps_toml

    path = tmp_path / "s.toml"
    path.write_text(dumps_toml(SCENARIO))
    proc = _hopsim("validate", str(path), "--set", "topology.hops=" + "[" * 2000 + "]" * 2000)
    assert proc.returncode == 2, proc.stderr
    assert "override topology.hops" in proc.stderr and "deeper than" in proc.stderr


def test_the_limit_itself() -> None:
    check_depth(_nested(MAX_DEPTH), "x")
    with pytest.raises(ScenarioError, match=r"\(65 keys deep\)"):
        check_depth(_nested(MAX_DEPTH + 1), "x")
    check_text_depth("x = " + "[" * MAX_DEPTH + "]" * MAX_DEPTH, "x")
    with pytest.raises(ScenarioError, match="line 2"):
        check_text_depth("y = 1\nx = " + "[" * (MAX_DEPTH + 1), "x")


@pytest.mark.parametrize(
    "text",
    [
        'x = "[[[[[[" # [[[[[[',
        "x = '''[[[['''''",
        'x = """a\\"""[[[["""',
        "# [[[[[[\nx = 1",
        'x = [[1], {a = [2]}]\n[[flows]]\n["q.[[[["]\n',
    ],
)
def test_brackets_in_strings_and_comments_do_not_count(text: str) -> None:
    check_text_depth(text, "x", limit=3)


def test_file_too_big(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    with path.open("wb") as fh:
        fh.write(b"# padding\n")
        fh.truncate(MAX_FILE_BYTES + 1)  # zeros: what matters is the size
    proc = _hopsim("validate", str(path))
    assert proc.returncode == 2, proc.stderr
    assert str(path) in proc.stderr and "larger than 16 MiB" in proc.stderr, proc.stderr


SECTIONS_AS_LISTS = {
    "topology": ('topology = ["chain", 5, 100.0]\n', "`topology`", "[topology] in TOML"),
    "flows": (
        'flows = [[0, 5, "tcp"]]\n[topology]\nkind = "chain"\nhops = 5\n',
        "`flows.0`",
        "[[flows]] in TOML",
    ),
    "mac": ('mac = []\n[topology]\nkind = "chain"\nhops = 1\n', "`mac`", "[mac] in TOML"),
    "radio": ('radio = []\n[topology]\nkind = "chain"\nhops = 1\n', "`radio`", "[radio]"),
}


@pytest.mark.parametrize("name", sorted(SECTIONS_AS_LISTS))
def test_section_written_as_a_list_is_refused(tmp_path: Path, name: str) -> None:
    text, key, how = SECTIONS_AS_LISTS[name]
    path = tmp_path / "s.toml"
    path.write_text(text)
    proc = _hopsim("validate", str(path))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert key in proc.stderr and how in proc.stderr, proc.stderr
    assert "must be a table" in proc.stderr


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"radio": []}, "radio"),
        ({"mac": [2.0]}, "mac"),
        ({"flows": [[0, 2, "udp"]]}, "flows.0"),
        ({"flows": [{"src": 0, "dst": 2, "transport": "tcp", "tcp": ["vegas"]}]}, "flows.0.tcp"),
        ({"traffic": [1]}, "traffic"),
    ],
)
def test_section_as_a_list_in_the_api(change: dict[str, Any], key: str) -> None:
    with pytest.raises(ScenarioError, match=rf"`{key}`: not allowed, .*must be a table"):
        hopsim.validate({**SCENARIO, **change})
    with pytest.raises(ScenarioError, match=rf"`{key}`: .*must be a table"):
        load_sweep({"scenario": {**SCENARIO, **change}})


@pytest.mark.parametrize(
    ("change", "key", "says"),
    [
        ({"mac": "fast"}, "mac", "must be a table ([mac] in TOML)"),
        ({"radio": 1}, "radio", "must be a table ([radio] in TOML)"),
        ({"tcp": True}, "tcp", "must be a table ([tcp] in TOML)"),
        ({"flows": [{"src": 0, "dst": 2, "tcp": "vegas"}]}, "flows.0.tcp", "[flows.tcp] in"),
        ({"flows": [1]}, "flows.0", "must be a table ([[flows]] in TOML)"),
        ({"flows": {"src": 0, "dst": 2}}, "flows", "must be an array of tables"),
        ({"flows": "udp"}, "flows", "must be an array of tables"),
    ],
)
def test_section_as_a_single_value_in_the_api(change: dict[str, Any], key: str, says: str) -> None:
    """Not only a list: a section given as any other value, or ``flows`` given as one table,
    is refused naming it and saying a table is expected (it was "expected struct Mac",
    "invalid type: map, expected a list")."""
    with pytest.raises(ScenarioError, match=rf"`{key}`: not allowed, it is ") as caught:
        hopsim.validate({**SCENARIO, **change})
    assert says in str(caught.value)


def test_flows_as_one_table_in_a_file(tmp_path: Path) -> None:
    """``[flows]`` instead of ``[[flows]]``: the commonest way to write it."""
    path = tmp_path / "s.toml"
    path.write_text('[topology]\nkind = "chain"\nhops = 2\n[flows]\nsrc = 0\ndst = 2\n')
    proc = _hopsim("validate", str(path))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "`flows`: not allowed, it is a table" in proc.stderr, proc.stderr
    assert "[[flows]] in TOML" in proc.stderr


def test_a_parser_that_recurses_out_is_refused_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should the TOML parser recurse out on a document the depth checks let through, the
    file is refused by name (as too deep), not a RecursionError."""
    import hopsim.scenario as scenario

    class Recursing:
        TOMLDecodeError = scenario.tomllib.TOMLDecodeError

        @staticmethod
        def loads(text: str) -> Any:
            raise RecursionError("maximum recursion depth exceeded")

    path = tmp_path / "s.toml"
    path.write_text("x = [[1]]\n")
    monkeypatch.setattr(scenario, "tomllib", Recursing)
    with pytest.raises(ScenarioError, match=rf"^{path}: not allowed, it is nested deeper"):
        scenario.load(path)
    with pytest.raises(ScenarioError, match=r"^value '\[\[1\]\]': not allowed, it is nested"):
        scenario.parse_value("[[1]]")

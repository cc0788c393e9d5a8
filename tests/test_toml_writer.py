"""hopsim.scenario.dumps_toml, the package's one TOML writer (the CLI's ``hopsim validate``
and the tests' scenario files use it): what it writes reads back the same with tomllib."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from hopsim import validate
from hopsim.scenario import dumps_toml

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def test_every_resolved_scenario_round_trips() -> None:
    files = sorted(SCENARIOS.glob("*.toml"))
    assert files, SCENARIOS
    for path in files:
        resolved = validate(path)
        text = dumps_toml(resolved)
        assert tomllib.loads(text) == {k: v for k, v in resolved.items() if v is not None}, path
        assert "[[flows]]" in text and "[topology]" in text, path


def test_awkward_values_round_trip() -> None:
    doc = {
        "name": 'quote " and ü',
        "weird key": 1,
        "x": {"inf": math.inf, "list": [1.5, -2.0], "empty": {}, "skip": None},
        "flows": [{"src": 0, "tcp": {"variant": "sack"}}, {"src": 1, "path": Path("a/b")}],
    }
    back = tomllib.loads(dumps_toml(doc))
    assert back["name"] == doc["name"] and back["weird key"] == 1
    assert back["x"] == {"inf": math.inf, "list": [1.5, -2.0], "empty": {}}
    assert back["flows"] == [{"src": 0, "tcp": {"variant": "sack"}}, {"src": 1, "path": "a/b"}]


@pytest.mark.parametrize("bad", [{"a": [1, None]}, {"a": object()}, {"t": {"b": {1, 2}}}])
def test_values_toml_cannot_hold_are_refused(bad: dict) -> None:
    with pytest.raises(TypeError, match="None|cannot write"):
        dumps_toml(bad)

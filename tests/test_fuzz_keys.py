"""The fuzzing grows with the code (issue 30): every key a scenario has is one the fuzz
generator (fuzz/src/) can write, so a new key is fuzzed from its first day. The keys are the
core's own: every leaf of a resolved scenario with every optional section present (the core
fills in each default); a key the generator never names fails here, naming it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

FUZZ_SRC = Path(__file__).resolve().parents[1] / "fuzz" / "src"

#: A scenario with every optional section, so that resolving it lists every key.
EVERY_SECTION = {
    "duration_s": 10.0,
    "topology": {"kind": "random", "nodes": 20, "area_m": [500.0, 500.0]},
    "flows": [{"src": 0, "dst": 2, "transport": "tcp", "tcp": {"variant": "vegas"}}],
    "queue": {"discipline": "red"},
    "mobility": {"model": "random_waypoint", "speed_max_mps": 1.0},
    "traffic": {"random_flows": 1, "transport": "tcp", "tcp": {"variant": "reno"}},
}


def _leaves(value: Any, path: list[str], out: set[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _leaves(v, [*path, k], out)
    elif isinstance(value, list) and value and isinstance(value[0], dict):
        _leaves(value[0], [*path, "0"], out)
    else:
        out.add(".".join(path))


def test_every_scenario_key_is_one_the_fuzz_generator_writes(hopsim_mod):
    resolved = json.loads(hopsim_mod._core.validate_json(json.dumps(EVERY_SECTION)))
    keys: set[str] = set()
    _leaves(resolved, [], keys)
    assert len(keys) > 150, "every optional section resolved"
    source = "".join(p.read_text() for p in FUZZ_SRC.rglob("*.rs"))
    written = set(re.findall(r'"([a-z_0-9]+)"', source))
    missing = sorted(k for k in keys if k.split(".")[-1] not in written)
    assert not missing, (
        f"scenario keys the fuzz generator never writes: {missing}; give each a range in "
        "fuzz/src/tables.rs (or lib.rs)"
    )

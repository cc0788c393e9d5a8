"""Property tests of issue 35's surfaces (issue 30, item 3): mid-run changes and forks on
generated scenarios (TCP, UDP, AODV, DSR, OLSR, HWMP, CoDel, ns2 profile), and window
environments given actions and calls outside their contract.

Whatever the input: a change is applied or refused with a ScenarioError naming what was
wrong, never another exception; a fork continued unchanged gives, bit for bit, what the
original gives, whatever was changed before the fork; an environment's observation is always
in its space, an action outside the action space is clipped (or, not a number, refused), and
a step after the end asks for a reset. Examples per test: HOPSIM_FUZZ_EXAMPLES (default 300,
`make fuzz` 2000); outcomes per class in fuzz/artifacts/python-test_fuzz_steer.json.
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hopsim
from hopsim import ScenarioError

EXAMPLES = int(os.environ.get("HOPSIM_FUZZ_EXAMPLES", "300"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
ARTIFACTS = Path(__file__).resolve().parent.parent / "fuzz" / "artifacts"

CHAIN = {"kind": "chain", "hops": 3, "spacing_m": 200.0}
SCENARIOS: list[dict[str, Any]] = [
    {"duration_s": 4.0, "topology": CHAIN, "flows": [{"src": 0, "dst": 3, "transport": "tcp"}]},
    {
        "duration_s": 4.0,
        "topology": CHAIN,
        "routing": {"protocol": "aodv"},
        "flows": [
            {"src": 0, "dst": 3, "transport": "tcp", "start_s": 1.0},
            {"src": 3, "dst": 0, "transport": "udp", "interval_s": 0.05, "bytes": 20000},
        ],
    },
    {
        "duration_s": 4.0,
        "topology": {"kind": "grid", "rows": 3, "cols": 3, "spacing_m": 200.0},
        "routing": {"protocol": "dsr"},
        "queue": {"discipline": "codel"},
        "flows": [
            {"src": 0, "dst": 8, "transport": "tcp", "tcp": {"variant": "vegas"}},
            {"src": 2, "dst": 6, "transport": "udp", "interval_s": 0.0},
        ],
    },
    {
        "duration_s": 4.0,
        "topology": {"kind": "grid", "rows": 2, "cols": 3, "spacing_m": 200.0},
        "routing": {"protocol": "olsr", "olsr_hello_interval_s": 0.5, "olsr_tc_interval_s": 1.0},
        "flows": [
            {"src": 0, "dst": 5, "transport": "tcp", "start_s": 1.5},
            {"src": 3, "dst": 2, "transport": "udp", "interval_s": 0.02},
        ],
    },
    {
        "duration_s": 4.0,
        "topology": {"kind": "grid", "rows": 2, "cols": 3, "spacing_m": 200.0},
        "radio": {"reception": "sinr"},
        "routing": {"protocol": "hwmp", "hwmp_fail_average": "time"},
        "flows": [
            {"src": 0, "dst": 5, "transport": "tcp"},
            {"src": 5, "dst": 0, "transport": "udp", "interval_s": 0.05, "bytes": 20000},
        ],
    },
    {
        "duration_s": 4.0,
        "profile": "ns2",
        "topology": CHAIN,
        "tcp": {"pacing": True, "max_window": 3.0},
        "flows": [{"src": 0, "dst": 3, "transport": "tcp", "bytes": 30000}],
    },
]

NUMBERS = st.one_of(
    st.floats(0.5, 60.0),
    st.integers(1, 60),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-5, 70),
    st.sampled_from([0, 0.5, 1, 2, 3.5, 50, 1e6, 1e7, 2e7, -1]),
    st.none(),
    st.text(max_size=3),
    st.booleans(),
)
INDICES = st.one_of(
    st.integers(0, 1), st.integers(-2, 12), st.none(), st.text(max_size=2), st.floats()
)
NAMES = st.sampled_from(
    ["set_window_limit", "set_cwnd", "set_pacing_rate", "start_flow", "stop_flow",
     "set_queue_limit", "route", "change"]
)  # fmt: skip
#: Half the changes within what is allowed (so that they apply), half anything.
CHANGES = st.one_of(
    st.tuples(NAMES, st.integers(0, 1), st.one_of(st.floats(0.5, 60.0), st.integers(1, 60))),
    st.tuples(NAMES, INDICES, NUMBERS),
)


@pytest.fixture(scope="module")
def outcomes(request: pytest.FixtureRequest) -> Any:
    counts: Counter[str] = Counter()
    yield counts
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = request.module.__name__.rsplit(".", 1)[-1]
    (ARTIFACTS / f"python-{name}.json").write_text(json.dumps(dict(counts), indent=1) + "\n")


def apply(sim: hopsim.Simulation, name: str, index: Any, value: Any) -> None:
    if name in ("start_flow", "stop_flow"):
        getattr(sim, name)(index)
    elif name == "set_queue_limit":
        sim.set_queue_limit(value, node=index)
    elif name == "route":
        sim.route(index, value)
    elif name == "change":
        sim.change(str(value), (index, value))
    else:
        getattr(sim, name)(index, value)


@FUZZ
@given(
    which=st.integers(0, len(SCENARIOS) - 1),
    pause_s=st.floats(0.0, 3.9),
    changes=st.lists(CHANGES, max_size=5),
)
def test_changes_are_applied_or_refused_and_a_fork_is_the_original(
    outcomes: Counter[str], which: int, pause_s: float, changes: list[tuple[str, Any, Any]]
) -> None:
    sim = hopsim.Simulation(SCENARIOS[which], seed=which + 1, max_events=2_000_000)
    sim.run_until(pause_s)
    for name, index, value in changes:
        try:
            apply(sim, name, index, value)
            outcomes[f"{name}: applied"] += 1
        except ScenarioError as exc:
            assert str(exc).strip() and "Traceback" not in str(exc)
            outcomes[f"{name}: refused"] += 1
    fork = sim.fork()
    a, b = sim.run().raw, fork.run().raw
    assert a == b, "a fork continued unchanged is the original"
    assert not a["invariants"]["violations"], a["invariants"]["violations"]
    outcomes["fork equal"] += 1


ACTIONS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(st.floats(-100, 1e9), min_size=1, max_size=3),
    st.sampled_from([0.0, -1.0, 1e30, 64.0, 65.0, 0.999]),
)


@FUZZ
@given(
    action=st.sampled_from(["window_limit", "cwnd"]),
    step=st.sampled_from(["fixed", "rtt"]),
    seed=st.one_of(st.none(), st.integers(0, 2**63 - 1)),
    actions=st.lists(ACTIONS, min_size=1, max_size=40),
)
def test_an_environment_keeps_its_contract_whatever_the_actions(
    outcomes: Counter[str], action: str, step: str, seed: int | None, actions: list[Any]
) -> None:
    gym = pytest.importorskip("gymnasium")
    import hopsim.gym as hg

    env = hg.WindowEnv(hg.chain_scenario(3, duration_s=0.3), action=action, step=step)
    obs, _ = env.reset(seed=seed)
    assert env.observation_space.contains(obs)
    ended = False
    for a in actions:
        value = np.asarray(a, dtype=np.float64).reshape(-1)[0]
        try:
            with np.errstate(over="ignore"):  # 1e30 as float32 is inf: clipped like any
                sent = np.asarray(a, dtype=np.float32)
            obs, reward, terminated, truncated, _ = env.step(sent)
        except ScenarioError as exc:
            assert math.isnan(value), f"refused {a!r}: {exc}"
            outcomes["env: NaN refused"] += 1
            continue
        except gym.error.ResetNeeded:
            assert ended
            outcomes["env: step after the end refused"] += 1
            continue
        assert not math.isnan(value), "NaN accepted"
        assert env.observation_space.contains(obs), obs
        assert math.isfinite(reward)
        outcomes["env: stepped"] += 1
        ended = ended or terminated or truncated
    if ended:
        assert env.result().flows[0].hops == 3
        outcomes["env: result read"] += 1

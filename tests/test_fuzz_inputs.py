"""Property tests of the Python side (issue 12): generated scenario dicts and command lines.

Whatever the input, hopsim answers with a result or one clean error: a ScenarioError from the
API, exit code 0 or 2 from the CLI, never another exception, a traceback, a hang or a runaway
run. The number of examples per test is HOPSIM_FUZZ_EXAMPLES (default 300; `make fuzz` runs
2000); each test's outcomes per class are written to fuzz/artifacts/python-<test>.json.
"""

from __future__ import annotations

import copy
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.main import get_command
from typer.testing import CliRunner

import hopsim
from hopsim.cli import app

EXAMPLES = int(os.environ.get("HOPSIM_FUZZ_EXAMPLES", "300"))
FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
ARTIFACTS = Path(__file__).resolve().parent.parent / "fuzz" / "artifacts"
#: A fuzzed run may take this many events: milliseconds of work.
MAX_EVENTS = 200_000

BASE: dict[str, Any] = {
    "duration_s": 1.0,
    "topology": {"kind": "chain", "hops": 2, "spacing_m": 200.0},
    "flows": [{"src": 0, "dst": 2, "transport": "tcp"}],
}

#: Keys to mutate (dotted), and made-up ones.
KEYS = [
    "duration_s", "warmup_s", "seed", "profile", "topology.kind", "topology.hops",
    "topology.spacing_m", "topology.nodes", "topology.area_m", "radio.frequency_hz",
    "radio.tx_power_w", "radio.antenna_height_m", "radio.reception", "radio.propagation",
    "radio.standard", "radio.weak_frames",
    "radio.frame_error_rate", "mac.data_rate_mbps", "mac.queue_packets", "mac.cw_min",
    "mac.rts_threshold_bytes", "routing.protocol", "routing.hello", "tcp.variant",
    "tcp.max_window", "tcp.min_rto_s", "tcp.delayed_ack_timeout_s", "tcp.receiver_window",
    "flows.0.src", "flows.0.dst", "flows.0.transport", "flows.0.interval_s",
    "flows.0.payload_bytes", "flows.0.start_s", "flows.0.stop_s", "flows.0.bytes",
    "mobility.model", "mobility.speed_max_mps", "mobility.pause_s", "traffic.random_flows",
    "routing.olsr_hello_interval_s", "routing.olsr_tc_interval_s", "routing.olsr_willingness",
    "routing.olsr_link_layer_feedback", "routing.olsr_spread_start", "routing.hwmp_root_mode",
    "routing.hwmp_root", "routing.hwmp_active_path_timeout_s", "routing.hwmp_max_preq_retries",
    "routing.hwmp_fail_average", "routing.hwmp_path_refresh_s", "mac.erp_protection",
    "mac.edca.VO.cw_min", "radio.gauss_markov.sigma_db", "radio.gilbert_elliott.good_mean_s",
    "radio.gilbert_elliott.drawn_from", "radio.link_trace.file", "interference",
    "nonsense", "topology.bogus", "flows.7.src",
]  # fmt: skip

VALUES = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from(
        [0, 1, 2, 3, 0.5, 1e-9, 1e300, -1, 2**64]
        + ["tcp", "udp", "aodv", "sinr", "80211a", "80211g", "sense", "olsr", "hwmp"]
        + ["proactive", "time", "attempts", "roofnet_1mbps", "cts_to_self"]
    ),
    st.text(max_size=8),
    st.booleans(),
    st.none(),
    st.lists(st.integers(-3, 3), max_size=3),
    st.dictionaries(st.sampled_from(["a", "kind"]), st.integers(0, 3), max_size=2),
)


def _set(doc: dict[str, Any], key: str, value: Any) -> None:
    parts = key.split(".")
    at: Any = doc
    for p in parts[:-1]:
        if isinstance(at, list):
            i = int(p)
            if i >= len(at):
                return
            at = at[i]
        else:
            at = at.setdefault(p, {})
            if not isinstance(at, (dict, list)):
                return
    if isinstance(at, dict):
        at[parts[-1]] = value


@pytest.fixture(scope="module")
def outcomes(request: pytest.FixtureRequest) -> Any:
    counts: Counter[str] = Counter()
    yield counts
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = request.module.__name__.rsplit(".", 1)[-1]
    (ARTIFACTS / f"python-{name}.json").write_text(json.dumps(dict(counts), indent=1) + "\n")


@FUZZ_SETTINGS
@given(st.lists(st.tuples(st.sampled_from(KEYS), VALUES), min_size=1, max_size=4))
def test_any_scenario_dict_gives_a_result_or_a_clean_error(
    outcomes: Counter[str], mutations: list[tuple[str, Any]]
) -> None:
    doc = copy.deepcopy(BASE)
    for key, value in mutations:
        _set(doc, key, value)
    try:
        hopsim.run(doc, max_events=MAX_EVENTS, max_memory_mb=256)
    except hopsim.ScenarioError as exc:
        message = str(exc)
        assert message.strip(), "an error without a message"
        assert "Traceback" not in message
        stopped = "run stopped" in message
        outcomes["scenario: stopped by budget" if stopped else "scenario: clean error"] += 1
        return
    outcomes["scenario: ok"] += 1


# --------------------------------------------------------------------------- command lines

TINY_SCENARIO = """duration_s = 0.5
[topology]
kind = "chain"
hops = 1
spacing_m = 200.0
[[flows]]
src = 0
dst = 1
"""

TINY_SWEEP = """name = "fz"
metrics = ["goodput_kbps"]
replications = 1
[base]
duration_s = 0.5
[base.topology]
kind = "chain"
hops = 1
spacing_m = 200.0
[[base.flows]]
src = 0
dst = 1
[sweep]
"topology.hops" = [1, 2]
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("fuzzcli")
    (d / "ok.toml").write_text(TINY_SCENARIO)
    (d / "sweep.toml").write_text(TINY_SWEEP)
    (d / "empty.toml").write_text("")
    (d / "garbage.toml").write_bytes(bytes(range(256)) * 4)
    (d / "bad.toml").write_text("[topology\nkind = chain\n")
    (d / "adir").mkdir()
    (d / "results.sqlite").write_bytes(b"not a database" * 10)
    probes = [f"{s},{1 - s},{i * 0.5},{int(i % 5 != 0)}" for s in (0, 1) for i in range(40)]
    (d / "trace.csv").write_text("src,dst,time_s,delivered\n" + "\n".join(probes) + "\n")
    return {
        "ok": str(d / "ok.toml"),
        "sweep": str(d / "sweep.toml"),
        "empty": str(d / "empty.toml"),
        "garbage": str(d / "garbage.toml"),
        "bad": str(d / "bad.toml"),
        "dir": str(d / "adir"),
        "store": str(d),
        "missing": str(d / "missing.toml"),
        "out": str(d / "out"),
        "dev": "/proc/nonexistent/x",
        "trace": str(d / "trace.csv"),
    }


#: Commands drawn (advise, crosscheck and the studies of reproduce run minutes of
#: simulations: their option checking is tested in their own files).
COMMANDS = ["run", "validate", "sweep", "results", "plot", "reproduce", "show", "view", "fit-links"]
TOKENS = [
    "", "0", "1", "2", "-1", "1e9", "1e300", "nan", "inf", "x", "--", "-", "1.5",
    "topology.hops=3", "topology.hops=x", "duration_s=1e-3", "nope=1", "=", "a=b=c",
    "goodput_kbps", "topology.hops", "csv", "out.png", "/proc/nonexistent/y",
]  # fmt: skip
FILES = ["ok", "sweep", "empty", "garbage", "bad", "dir", "store", "missing", "dev", "trace"]


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    name = draw(st.sampled_from(COMMANDS))
    command = get_command(app).commands[name]  # type: ignore[attr-defined]
    options = [o for p in command.params for o in p.opts if o.startswith("-")]
    argv = [name]
    if name != "reproduce":
        argv.append("@" + draw(st.sampled_from(FILES)))
    else:
        argv += draw(st.sampled_from([["--list"], ["no-such-study"], [], ["x", "--quick"]]))
    for _ in range(draw(st.integers(0, 4))):
        opt = draw(st.sampled_from([*options, "--bogus"]))
        argv.append(opt)
        if opt in ("--jobs", "-j"):
            argv.append(draw(st.sampled_from(["1", "0", "-2", "x", "1.5"])))
        elif draw(st.booleans()):
            token = draw(st.sampled_from(TOKENS + ["@" + f for f in FILES] + ["@out"]))
            argv.append(token)
    return argv


@FUZZ_SETTINGS
@given(argv=command_lines())
def test_any_command_line_exits_0_or_2_without_a_traceback(
    outcomes: Counter[str], files: dict[str, str], argv: list[str], monkeypatch: Any
) -> None:
    resolved = [files[a[1:]] if a.startswith("@") and a[1:] in files else a for a in argv]
    monkeypatch.chdir(files["out"] if Path(files["out"]).is_dir() else files["store"])
    result = CliRunner().invoke(app, ["--", *resolved][1:], catch_exceptions=True)
    output = result.output
    assert "Traceback" not in output, f"{resolved}: {output}"
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{resolved}: {result.exception!r}"
    )
    assert result.exit_code in (0, 2), f"{resolved}: exit {result.exit_code}: {output[-600:]}"
    outcomes[f"cli: exit {result.exit_code}"] += 1

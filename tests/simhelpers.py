"""Helpers shared by the hopsim tests: run a scenario and check its invariants, build
scenarios, write TOML, call the CLI.

Every test that runs the simulator goes through :func:`run_checked` (exposed to tests as the
``run_scenario`` fixture of conftest.py), which runs a scenario through the public Python API
(``hopsim.run``) and asserts the model invariants on the result before the test looks at any
number:

* the simulator's own invariant checks (``invariants.violations`` is empty: a radio never
  transmits two frames at once, nothing is sent while NAV or carrier sense forbids it, ...);
* packet conservation per flow: ``packets_sent == packets_delivered + packets_dropped +
  packets_in_flight``;
* the counters are consistent: totals are the sums over nodes, ``mac_attempts`` is RTS +
  DATA frames sent, probabilities are probabilities, goodput is backed by delivered packets.

``hopsim`` is imported lazily, so the pure-theory tests (which check the analytical models
against published evaluations) run even where the extension is not built.

Scenario builders produce plain dicts with the public shape of docs/interfaces.md.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# ---------------------------------------------------------------------------------------
# Running scenarios
# ---------------------------------------------------------------------------------------

#: Counters that appear per node and, summed, in ``totals`` (docs/interfaces.md).
NODE_COUNTERS = (
    "mac_attempts",
    "mac_retries",
    "retry_limit_drops",
    "collisions",
    "queue_drops",
    "no_route_drops",
    "link_failures",
    "rts_sent",
    "cts_sent",
    "data_sent",
    "ack_sent",
)
FLOW_COUNTERS = ("packets_sent", "packets_delivered", "packets_dropped", "packets_in_flight")


def import_hopsim():
    import hopsim  # noqa: PLC0415  (lazy on purpose, see module docstring)

    return hopsim


def check_result(raw: dict) -> None:
    """Assert every invariant that must hold for any result document."""
    violations = raw["invariants"]["violations"]
    assert violations == [], f"simulator invariant violations: {violations[:10]}"
    assert raw["invariants"].get("violation_count", 0) == 0, raw["invariants"]

    window_s = raw["duration_s"] - raw["warmup_s"]
    assert window_s > 0

    for f in raw["flows"]:
        for k in FLOW_COUNTERS:
            assert isinstance(f[k], int) and f[k] >= 0, f"flow {f['id']}: {k} = {f[k]!r}"
        assert f["packets_sent"] == (
            f["packets_delivered"] + f["packets_dropped"] + f["packets_in_flight"]
        ), f"packets not conserved: {f}"
        assert f["goodput_kbps"] >= 0.0 and math.isfinite(f["goodput_kbps"])
        # Goodput counts payload of packets delivered in the window, so it can never exceed
        # the payload of all delivered packets.
        delivered_bits = f["packets_delivered"] * f["payload_bytes"] * 8
        assert f["goodput_kbps"] * 1e3 * window_s <= delivered_bits * (1 + 1e-9) + 1e-6, (
            f"flow {f['id']}: goodput {f['goodput_kbps']} kbps exceeds what "
            f"{f['packets_delivered']} delivered packets carry"
        )
        if f["goodput_kbps"] > 0:
            assert f["mean_delay_ms"] is not None and f["mean_delay_ms"] > 0, f
        if f["packets_delivered"] == 0:
            assert f["goodput_kbps"] == 0 and f["mean_delay_ms"] is None, f

    nodes = raw["nodes"]
    totals = raw["totals"]
    # The contract's counters, plus any other integer counter the core adds to both.
    extra = [
        k
        for k, v in totals.items()
        if isinstance(v, int) and k not in NODE_COUNTERS and nodes and k in nodes[0]
    ]
    for k in (*NODE_COUNTERS, *extra):
        for n in nodes:
            assert isinstance(n[k], int) and n[k] >= 0, f"node {n['id']}: {k} = {n[k]!r}"
        assert totals[k] == sum(n[k] for n in nodes), f"totals.{k} != sum over nodes"
    for n in nodes + [totals]:
        # docs/interfaces.md: mac_attempts = RTS and DATA frames transmitted.
        assert n["mac_attempts"] == n["rts_sent"] + n["data_sent"], n
        assert n["mac_retries"] <= n["mac_attempts"], n
        assert 0.0 <= n["link_drop_probability"] <= 1.0, n
    assert [n["id"] for n in nodes] == list(range(len(nodes)))


def run_checked(scenario: dict, overrides: dict | None = None, seed: int | None = None):
    """Run ``scenario`` through ``hopsim.run`` and assert the invariants; return the result."""
    hopsim = import_hopsim()
    res = hopsim.run(scenario, overrides=overrides, seed=seed)
    check_result(res.raw)
    return res


# ---------------------------------------------------------------------------------------
# Scenario builders (public scenario shape, docs/interfaces.md)
# ---------------------------------------------------------------------------------------


def udp_flow(
    src: int, dst: int, payload_bytes: int = 1460, interval_s: float = 0.0, **extra
) -> dict:
    flow = {
        "src": src,
        "dst": dst,
        "transport": "udp",
        "payload_bytes": payload_bytes,
        "interval_s": float(interval_s),
    }
    flow.update(extra)
    return flow


def mac_section(data_rate_mbps: float = 2.0, rts_threshold_bytes: int = 0, **extra) -> dict:
    """MAC settings with the values the analytical models assume stated explicitly."""
    mac = {
        "data_rate_mbps": float(data_rate_mbps),
        "basic_rate_mbps": 1.0,
        "rts_threshold_bytes": rts_threshold_bytes,
        "short_retry_limit": 7,
        "long_retry_limit": 4,
        "cw_min": 31,
        "cw_max": 1023,
    }
    mac.update(extra)
    return mac


def chain_scenario(
    hops: int,
    flows: list[dict],
    *,
    spacing_m: float = 200.0,
    duration_s: float = 20.0,
    warmup_s: float = 1.0,
    seed: int = 1,
    mac: dict | None = None,
    radio: dict | None = None,
) -> dict:
    scn = {
        "duration_s": float(duration_s),
        "warmup_s": float(warmup_s),
        "seed": seed,
        "topology": {"kind": "chain", "hops": hops, "spacing_m": float(spacing_m)},
        "mac": mac if mac is not None else mac_section(),
        "routing": {"protocol": "static"},
        "flows": flows,
    }
    if radio is not None:
        scn["radio"] = radio
    return scn


def positions_scenario(
    positions: list[list[float]],
    flows: list[dict],
    *,
    duration_s: float = 20.0,
    warmup_s: float = 1.0,
    seed: int = 1,
    mac: dict | None = None,
    radio: dict | None = None,
) -> dict:
    scn = {
        "duration_s": float(duration_s),
        "warmup_s": float(warmup_s),
        "seed": seed,
        "topology": {
            "kind": "positions",
            "positions": [[float(x), float(y)] for x, y in positions],
        },
        "mac": mac if mac is not None else mac_section(),
        "routing": {"protocol": "static"},
        "flows": flows,
    }
    if radio is not None:
        scn["radio"] = radio
    return scn


def circle_positions(n: int, radius_m: float) -> list[list[float]]:
    """Node 0 at the origin, nodes 1..n evenly spaced on a circle around it."""
    pts = [[0.0, 0.0]]
    for k in range(n):
        a = 2.0 * math.pi * k / n
        pts.append([radius_m * math.cos(a), radius_m * math.sin(a)])
    return pts


def total_goodput_kbps(raw: dict) -> float:
    return sum(f["goodput_kbps"] for f in raw["flows"])


# ---------------------------------------------------------------------------------------
# TOML (the tests write scenario files for the CLI; tomllib can only read)
# ---------------------------------------------------------------------------------------


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            raise ValueError("non-finite float in test scenario")
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a JSON string is a valid TOML basic string
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def to_toml(doc: dict) -> str:
    """Serialise a scenario dict (scalars, one level of tables, arrays of tables) to TOML."""
    lines: list[str] = []
    tables, arrays = [], []
    for k, v in doc.items():
        if isinstance(v, dict):
            tables.append((k, v))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            arrays.append((k, v))
        else:
            lines.append(f"{k} = {_toml_value(v)}")
    for k, v in tables:
        lines.append("")
        lines.append(f"[{k}]")
        for kk, vv in v.items():
            lines.append(f"{kk} = {_toml_value(vv)}")
    for k, items in arrays:
        for item in items:
            lines.append("")
            lines.append(f"[[{k}]]")
            for kk, vv in item.items():
                lines.append(f"{kk} = {_toml_value(vv)}")
    return "\n".join(lines) + "\n"


def write_scenario(path: Path, scenario: dict) -> Path:
    path.write_text(to_toml(scenario), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------------------


def hopsim_executable() -> str:
    """The ``hopsim`` console script of the environment running the tests."""
    exe_dir = Path(sys.executable).parent
    for name in ("hopsim", "hopsim.exe"):
        cand = exe_dir / name
        if cand.exists():
            return str(cand)
    found = shutil.which("hopsim")
    if found:
        return found
    pytest.fail(
        f"no 'hopsim' command next to {sys.executable} nor on PATH "
        "(is the package installed in this environment?)"
    )


def run_cli(*args: str, timeout: float = 300.0) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.setdefault("PYTHONIOENCODING", "utf-8")
    return subprocess.run(
        [hopsim_executable(), *args], capture_output=True, text=True, timeout=timeout, env=env
    )


def assert_no_traceback(proc: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stdout, proc.stdout
    assert "panicked" not in proc.stderr, proc.stderr

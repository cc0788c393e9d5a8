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
  DATA frames sent, probabilities are probabilities, goodput is backed by delivered packets;
* TCP flows (:func:`check_tcp_flow`): every TCP packet is a data segment or an ACK, no byte is
  delivered that was not sent as new data, a finished fixed-size transfer delivered exactly its
  bytes, each fast retransmit and timeout retransmitted, the window stayed within its limits,
  the RTT statistics are ordered; (exactly once and in order is checked by the simulator
  itself, and reported through ``invariants.violations``);
* a time series, when recorded (:func:`check_series`): equal columns, one row per flow per
  sample, cumulative bytes that never decrease and goodput that matches them.

``hopsim`` is imported lazily, so the pure-theory tests (which check the analytical models
against published evaluations) run even where the extension is not built.

Scenario builders produce plain dicts with the public shape of docs/interfaces.md.
"""

from __future__ import annotations

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


def node_counters() -> tuple[str, ...]:
    """Integer counters that appear per node and, summed, in ``totals`` in every run (the
    core's result schema; read lazily, see the module docstring). Those present only with
    some setting (``[queue]``) are checked where present."""
    from hopsim.schema import fields  # noqa: PLC0415

    return tuple(f.name for f in fields("totals") if f.kind == "int" and not f.present)


def tcp_keys() -> tuple[str, ...]:
    """Keys every TCP flow of the result document has (the core's result schema)."""
    from hopsim.schema import fields  # noqa: PLC0415

    return tuple(f.name for f in fields("flow") if f.present == "tcp flows" and "." not in f.name)


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
    # The schema's counters, plus any other integer counter the core adds to both.
    counters = node_counters()
    extra = [
        k
        for k, v in totals.items()
        if isinstance(v, int) and k not in counters and nodes and k in nodes[0]
    ]
    for k in (*counters, *extra):
        for n in nodes:
            assert isinstance(n[k], int) and n[k] >= 0, f"node {n['id']}: {k} = {n[k]!r}"
        assert totals[k] == sum(n[k] for n in nodes), f"totals.{k} != sum over nodes"
    for n in nodes + [totals]:
        # docs/interfaces.md: mac_attempts = RTS and DATA frames transmitted.
        assert n["mac_attempts"] == n["rts_sent"] + n["data_sent"], n
        assert n["mac_retries"] <= n["mac_attempts"], n
        assert 0.0 <= n["link_drop_probability"] <= 1.0, n
    assert [n["id"] for n in nodes] == list(range(len(nodes)))

    scenario_flows = raw.get("scenario", {}).get("flows", [])
    for f in raw["flows"]:
        if f["transport"] == "tcp":
            spec = scenario_flows[f["id"]] if f["id"] < len(scenario_flows) else {}
            check_tcp_flow(f, spec, raw)
    if raw.get("series") is not None:
        check_series(raw)


def check_tcp_flow(f: dict, spec: dict, raw: dict) -> None:
    """Invariants of one TCP flow; ``spec`` is the flow's resolved scenario entry."""
    fid = f["id"]
    missing = [k for k in tcp_keys() if k not in f]
    assert not missing, f"flow {fid}: TCP keys missing: {missing}"
    for k in ("segments_sent", "retransmissions", "timeouts", "fast_retransmits", "acks_sent"):
        assert isinstance(f[k], int) and f[k] >= 0, f"flow {fid}: {k} = {f[k]!r}"
    # Every network-layer packet of a TCP flow is a data segment (sender) or an ACK (receiver).
    assert f["packets_sent"] == f["segments_sent"] + f["acks_sent"], (
        f"flow {fid}: packets_sent {f['packets_sent']} != segments_sent {f['segments_sent']} "
        f"+ acks_sent {f['acks_sent']}"
    )
    # Each fast retransmit and each timeout resends at least one segment; but ns-2's Vegas
    # agent keeps its timer running with nothing outstanding and counts its expiry as a
    # timeout (tcp-vegas.cc `timeout`; docs/models.md 17.4), after a finished transfer too.
    ns2_vegas = (
        raw.get("scenario", {}).get("profile") == "ns2"
        and f["variant"] == "vegas"
        and spec.get("tcp", {}).get("host", "ns2") == "ns2"
    )
    resent_by_timeouts = 0 if ns2_vegas else f["timeouts"]
    assert f["retransmissions"] >= f["fast_retransmits"] + resent_by_timeouts, f
    assert f["retransmissions"] <= f["segments_sent"], f
    # Nothing is delivered that was not sent as new data.
    mss = f["payload_bytes"]
    new_segments = f["segments_sent"] - f["retransmissions"]
    assert 0 <= f["bytes_delivered"] <= new_segments * mss, (
        f"flow {fid}: {f['bytes_delivered']} bytes delivered, only {new_segments} new "
        f"segments of {mss} B sent"
    )
    size = spec.get("bytes", 0) or 0
    done = f["transfer_completed_s"]
    if size > 0:
        assert f["bytes_delivered"] <= size, f"flow {fid}: more than the {size}-byte transfer"
        if done is not None:
            assert f["bytes_delivered"] == size, f"flow {fid}: finished but not intact: {f}"
            assert 0 < done <= raw["duration_s"], f
    else:
        assert done is None, f"flow {fid}: a bulk transfer cannot finish: {f}"
    assert f["throughput_pps"] >= 0 and math.isfinite(f["throughput_pps"]), f
    # The window: positive, and never above the CWL nor the receiver's window.
    tcp = spec.get("tcp") or {}
    caps = [float(tcp.get("receiver_window", math.inf))]
    if tcp.get("max_window", 0) > 0:
        caps.append(float(tcp["max_window"]))
    if f["avg_cwnd"] is not None:
        assert 0 < f["avg_cwnd"] <= min(caps) + 1e-9, f"flow {fid}: avg_cwnd {f['avg_cwnd']}"
    if f["slow_start_fraction"] is not None:
        assert 0.0 <= f["slow_start_fraction"] <= 1.0, f
    rtt = f["rtt_ms"]
    if rtt["samples"] == 0:
        assert all(rtt[k] is None for k in ("mean", "min", "max", "p50", "p95")), rtt
    else:
        assert 0 < rtt["min"] <= rtt["p50"] <= rtt["p95"] <= rtt["max"], rtt
        assert rtt["min"] <= rtt["mean"] * (1 + 1e-12) and rtt["mean"] <= rtt["max"] * (1 + 1e-12)


def check_series(raw: dict) -> None:
    """The optional time series: a long table, one row per flow per sample time."""
    series = raw["series"]
    cols = ("time_s", "flow", "cwnd", "goodput_kbps", "delivered_bytes")
    assert set(cols) <= set(series), sorted(series)
    n = len(series["time_s"])
    assert all(len(series[c]) == n for c in series), {c: len(series[c]) for c in series}
    flows = {f["id"]: f for f in raw["flows"]}
    times = series["time_s"]
    assert all(a <= b for a, b in zip(times, times[1:], strict=False)), "time_s not sorted"
    assert all(0 < t <= raw["duration_s"] + 1e-9 for t in times), "sample outside the run"
    per_flow: dict[int, list[int]] = {}
    for i in range(n):
        per_flow.setdefault(series["flow"][i], []).append(i)
    assert set(per_flow) <= set(flows), "series names unknown flows"
    if n:
        assert set(per_flow) == set(flows), "every flow is sampled"
        counts = {len(rows) for rows in per_flow.values()}
        assert len(counts) == 1, f"flows have different numbers of samples: {counts}"
    for fid, rows in per_flow.items():
        tcp = flows[fid]["transport"] == "tcp"
        last_t, last_b = 0.0, 0
        for i in rows:
            t, b = series["time_s"][i], series["delivered_bytes"][i]
            cwnd = series["cwnd"][i]
            assert (cwnd is not None) == tcp, f"flow {fid}: cwnd {cwnd!r} at {t} s"
            if tcp:
                assert cwnd > 0, f"flow {fid}: cwnd {cwnd} at {t} s"
            assert t > last_t and b >= last_b, f"flow {fid}: sample {t} s, {b} B"
            expected = (b - last_b) * 8 / (t - last_t) / 1000
            assert math.isclose(series["goodput_kbps"][i], expected, rel_tol=1e-6, abs_tol=1e-6), (
                f"flow {fid} at {t} s: goodput {series['goodput_kbps'][i]} != {expected}"
            )
            last_t, last_b = t, b
        if tcp:
            assert last_b <= flows[fid]["bytes_delivered"], (fid, last_b)


def run_checked(scenario: dict, overrides: dict | None = None, seed: int | None = None, **options):
    """Run ``scenario`` through ``hopsim.run`` and assert the invariants; return the result.

    ``options`` are passed on to ``hopsim.run`` (``series_interval_s``, ``pcap_dir``,
    ``pcap_ip_dir``).
    """
    hopsim = import_hopsim()
    res = hopsim.run(scenario, overrides=overrides, seed=seed, **options)
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


def tcp_flow(
    src: int, dst: int, payload_bytes: int = 1460, bytes: int = 0, tcp: dict | None = None, **extra
) -> dict:
    """A TCP flow (``bytes`` = 0: bulk); ``tcp`` becomes the flow's ``[flows.tcp]`` table."""
    flow = {"src": src, "dst": dst, "transport": "tcp", "payload_bytes": payload_bytes}
    if bytes:
        flow["bytes"] = bytes
    if tcp:
        flow["tcp"] = dict(tcp)
    flow.update(extra)
    return flow


def mac_section(data_rate_mbps: float | str = 2.0, rts_threshold_bytes: int = 0, **extra) -> dict:
    """MAC settings with the values the analytical models assume stated explicitly (a rate in
    Mbit/s, or an 802.11n MCS such as ``"mcs7"``)."""
    rate = data_rate_mbps if isinstance(data_rate_mbps, str) else float(data_rate_mbps)
    mac = {
        "data_rate_mbps": rate,
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
# TOML (the tests write scenario files for the CLI with the package's own writer)
# ---------------------------------------------------------------------------------------


def write_scenario(path: Path, scenario: dict) -> Path:
    from hopsim.scenario import dumps_toml

    path.write_text(dumps_toml(scenario), encoding="utf-8")
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


def data_fates(trace: Path, node: int = 1) -> list[bool]:
    """The DATA frames ``node`` received or lost, in time order, from an event trace
    (received: True); the one-hop link tests read a link's fates this way."""
    import pyarrow.parquet as pq

    rows = pq.read_table(trace, columns=["node", "event", "frame_kind", "time_ns"]).to_pylist()
    seen = [
        (r["time_ns"], r["event"] == "rx_ok")
        for r in rows
        if r["node"] == node and r["frame_kind"] == "data" and r["event"] in ("rx_ok", "rx_error")
    ]
    return [ok for _, ok in sorted(seen)]

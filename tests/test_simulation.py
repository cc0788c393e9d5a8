"""Pause, continue and fork a run from Python (issue 35, item 1; hopsim.Simulation).

A run paused anywhere and resumed, and a fork continued unchanged, give the document of the
uninterrupted run bit for bit (the engine copies every state and random stream): checked on
scenarios that exercise AODV, DSR with moving nodes, SINR with fading, 802.11n A-MPDUs and the
time series. Misuse is refused with a message.
"""

from __future__ import annotations

import math

import pytest

import hopsim
from hopsim import _core

CHAIN_AODV = {
    "duration_s": 30.0,
    "warmup_s": 5.0,
    "topology": {"kind": "chain", "hops": 5, "spacing_m": 200.0},
    "routing": {"protocol": "aodv"},
    "tcp": {"variant": "vegas"},
    "flows": [{"src": 0, "dst": 5, "transport": "tcp", "start_s": 1.0}],
}
MOVING_DSR = {
    "duration_s": 40.0,
    "topology": {"kind": "random", "nodes": 20, "area_m": [800.0, 600.0]},
    "mobility": {"model": "random_waypoint", "speed_max_mps": 10.0, "pause_s": 2.0},
    "routing": {"protocol": "dsr"},
    "flows": [
        {"src": 0, "dst": 9, "transport": "tcp"},
        {"src": 3, "dst": 17, "transport": "udp", "interval_s": 0.05},
    ],
}
SINR_FADING = {
    "duration_s": 20.0,
    "topology": {"kind": "chain", "hops": 3, "spacing_m": 180.0},
    "radio": {"reception": "sinr", "fading": "rayleigh"},
    "mac": {"data_rate_mbps": "auto", "rate_control": "aarf"},
    "flows": [{"src": 0, "dst": 3, "transport": "tcp"}],
}
HT_AMPDU = {
    "duration_s": 5.0,
    "topology": {"kind": "chain", "hops": 2, "spacing_m": 40.0},
    "radio": {"standard": "80211n"},
    "mac": {"data_rate_mbps": "mcs7", "ampdu_max_bytes": 65535},
    "flows": [{"src": 0, "dst": 2, "transport": "tcp"}],
}
CASES = {
    "chain-aodv": CHAIN_AODV,
    "moving-dsr": MOVING_DSR,
    "sinr-fading": SINR_FADING,
    "ht-ampdu": HT_AMPDU,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_paused_and_forked_runs_equal_the_uninterrupted_one(name: str) -> None:
    scenario = CASES[name]
    want = hopsim.run(scenario, seed=4, series_interval_s=1.0).raw
    sim = hopsim.Simulation(scenario, seed=4, series_interval_s=1.0)
    end = sim.end_s
    assert sim.now_s == 0.0 and not sim.done
    fork0 = sim.fork()  # before anything ran
    assert sim.run_until(end / 3) is False
    assert sim.now_s == pytest.approx(end / 3, abs=1e-9), "paused at the time asked"
    fork1 = sim.fork()
    sim.run_until(end / 7)  # a time already passed runs nothing
    for t in (end / 2, 2 * end / 3, 0.9 * end):
        sim.run_until(t)
    fork2 = fork1.fork()  # a fork of a fork
    assert sim.run().raw == want
    for f in (fork0, fork1, fork2):
        assert f.run().raw == want


def test_run_until_past_the_end_ends_the_run() -> None:
    sim = hopsim.Simulation(CHAIN_AODV, seed=1)
    assert sim.run_until(1e9) is True
    assert sim.done and sim.now_s == sim.end_s
    assert sim.run().raw == hopsim.run(CHAIN_AODV, seed=1).raw


@pytest.mark.parametrize("bad", [math.nan, math.inf, -1.0, "10", True, None])
def test_run_until_refuses_what_is_no_time(bad) -> None:
    sim = hopsim.Simulation(CHAIN_AODV, seed=1)
    with pytest.raises(hopsim.ScenarioError, match="time_s"):
        sim.run_until(bad)
    assert sim.now_s == 0.0


def test_a_finished_run_cannot_go_on_and_the_core_wants_an_end() -> None:
    sim = hopsim.Simulation(CHAIN_AODV, seed=1)
    sim.run()
    with pytest.raises(ValueError, match="result was taken"):
        sim.fork()
    with pytest.raises(ValueError, match="result was taken"):
        sim.run_until(1.0)
    core = _core.Simulation(hopsim.to_json(hopsim.prepare(CHAIN_AODV)))
    core.run_until(3.0)
    with pytest.raises(ValueError, match="run it to its end first"):
        core.result_json()
    with pytest.raises(ValueError, match="a simulated time"):
        core.run_until(-2.0)


def test_a_bad_scenario_is_refused_when_built() -> None:
    with pytest.raises(hopsim.ScenarioError, match="topology.hops"):
        hopsim.Simulation({**CHAIN_AODV, "topology": {"kind": "chain", "hops": 0}})


def test_the_live_state_agrees_with_the_result_and_reading_it_changes_nothing() -> None:
    scenario = {
        **CHAIN_AODV,
        "flows": [*CHAIN_AODV["flows"], MOVING_DSR["flows"][1] | {"src": 5, "dst": 0}],
    }
    want = hopsim.run(scenario, seed=2).raw
    sim = hopsim.Simulation(scenario, seed=2)
    before = None
    for t in (5.0, 10.0, 20.0, sim.end_s):
        sim.run_until(t)
        state = sim.state()
        assert state == sim.state(), "reading twice gives the same"
        assert state["now_s"] <= t
        tcp, udp = state["flows"]
        assert udp["cwnd_segments"] is None and udp["retransmissions"] is None
        assert tcp["cwnd_segments"] >= 1.0 and tcp["rto_ms"] >= 200.0
        assert all(n["queue_packets"] >= 0 for n in state["nodes"])
        if before is not None:
            for key in ("delivered_bytes", "segments_sent", "retransmissions", "timeouts"):
                assert tcp[key] >= before["flows"][0][key], key
        before = state
    result = sim.run().raw
    assert result == want, "reading the state changed the run"
    tcp, udp = before["flows"]
    f0, f1 = result["flows"]
    for key in ("segments_sent", "retransmissions", "timeouts", "fast_retransmits"):
        assert tcp[key] == f0[key], key
    assert tcp["delivered_bytes"] == f0["bytes_delivered"]
    assert udp["delivered_bytes"] == f1["packets_delivered"] * f1["payload_bytes"]
    assert sum(n["mac_retries"] for n in before["nodes"]) == result["totals"]["mac_retries"]
    assert (
        sum(n["retry_limit_drops"] for n in before["nodes"])
        == result["totals"]["retry_limit_drops"]
    )


CHAIN7 = {
    "duration_s": 60.0,
    "warmup_s": 10.0,
    "topology": {"kind": "chain", "hops": 7, "spacing_m": 200.0},
    "routing": {"protocol": "static"},
    "flows": [
        {"src": 0, "dst": 7, "transport": "tcp"},
        {"src": 7, "dst": 4, "transport": "udp", "interval_s": 0.5},
    ],
}


def _without_label(doc: dict) -> dict:
    # The result names the scenario's window_limit setting; a limit set mid-run shows in
    # avg_window_limit and the rest.
    return {
        **doc,
        "flows": [{k: v for k, v in f.items() if k != "window_limit"} for f in doc["flows"]],
        "scenario": None,
    }


def test_a_window_limit_set_at_time_0_is_the_configured_one() -> None:
    configured = hopsim.run({**CHAIN7, "tcp": {"max_window": 2.0}}, seed=1).raw
    sim = hopsim.Simulation(CHAIN7, seed=1)
    sim.set_window_limit(0, 2.0)
    got = sim.run().raw
    assert _without_label(got) == _without_label(configured)
    assert got["flows"][0]["avg_window_limit"] == 2.0


def test_a_window_limit_changed_in_a_fork_changes_the_fork_only() -> None:
    plain = hopsim.run(CHAIN7, seed=3).raw
    sim = hopsim.Simulation(CHAIN7, seed=3)
    sim.run_until(20.0)
    limited = sim.fork()
    limited.set_window_limit(0, 1.0)
    limited.run_until(40.0)
    assert limited.state()["flows"][0]["cwnd_segments"] <= 1.0
    lifted = limited.fork()
    lifted.set_window_limit(0, None)
    a, b, c = sim.run().raw, limited.run().raw, lifted.run().raw
    assert a == plain, "the original is untouched"
    wa, wb, wc = (d["flows"][0]["avg_window_limit"] for d in (a, b, c))
    # 20 s of the receiver's 20 segments, then 1 segment to the end (or to 40 s, then 20).
    assert wb == pytest.approx((10 * 20 + 40 * 1) / 50, rel=0.01), wb
    assert wc == pytest.approx((10 * 20 + 20 * 1 + 20 * 20) / 50, rel=0.01), wc
    assert wa == pytest.approx(20.0)
    assert b["flows"][0]["goodput_kbps"] < a["flows"][0]["goodput_kbps"]


@pytest.mark.parametrize(
    "flow, segments, says",
    [
        (5, 2.0, "flow"),
        (1, 2.0, "udp"),
        (0, -1.0, "tcp.max_window"),
        (0, math.nan, "tcp.max_window"),
        (0, 2e6, "tcp.max_window"),
        (0, "2", "segments"),
        (True, 2.0, "flow"),
        (-1, 2.0, "flow"),
    ],
)
def test_window_limits_that_cannot_be_set_are_refused(flow, segments, says) -> None:
    sim = hopsim.Simulation(CHAIN7, seed=1)
    with pytest.raises(hopsim.ScenarioError, match=says):
        sim.set_window_limit(flow, segments)
    assert sim.run().raw == hopsim.run(CHAIN7, seed=1).raw

"""The changes a paused run accepts (issue 35: hopsim.Simulation's set_cwnd,
set_pacing_rate, start_flow/stop_flow, set_queue_limit, route, change), each against the
arithmetic of what it sets, and every other key refused by name."""

from __future__ import annotations

import itertools

import pytest

import hopsim
from hopsim import ScenarioError

ONE_HOP = {
    "duration_s": 40.0,
    "seed": 1,
    "topology": {"kind": "chain", "hops": 1, "spacing_m": 200.0},
    "mac": {"data_rate_mbps": 2.0, "basic_rate_mbps": 1.0},
    "routing": {"protocol": "static"},
}
UDP = dict(
    ONE_HOP,
    flows=[{"src": 0, "dst": 1, "transport": "udp", "payload_bytes": 500, "interval_s": 0.1}],
)
TCP = dict(ONE_HOP, flows=[{"src": 0, "dst": 1, "transport": "tcp", "payload_bytes": 1460}])


def delivered(sim: hopsim.Simulation, flow: int = 0) -> int:
    return sim.state()["flows"][flow]["delivered_bytes"]


def test_a_paced_udp_rate_change_sets_the_interval() -> None:
    sim = hopsim.Simulation(UDP)
    sim.run_until(10.0)
    before = delivered(sim)
    # (500 + 28 bytes) * 8 bits every 50 ms: 84.48 kbit/s, twice the scenario's rate.
    sim.set_pacing_rate(0, 84.48)
    sim.run_until(20.0)
    packets = (delivered(sim) - before) / 500
    assert abs(packets - 200) <= 1, packets


def test_a_maximum_pacing_rate_caps_tcp() -> None:
    sim = hopsim.Simulation(TCP)
    sim.run_until(10.0)
    free = delivered(sim) * 8 / 10.0 / 1e3
    sim.set_pacing_rate(0, 200.0)
    sim.run_until(20.0)
    mid = delivered(sim)
    sim.run_until(30.0)
    segments = (delivered(sim) - mid) / 1460
    capped_kbps = segments * 1460 * 8 / 10.0 / 1e3
    # 1500 bytes with headers every 60 ms: 166.7 segments in 10 s, one more at its edges.
    assert segments <= 10.0 / 0.06 + 1
    assert segments > 0.95 * 10.0 / 0.06, "paced, not starved"
    assert free > 2 * capped_kbps
    sim.set_pacing_rate(0, None)
    sim.run_until(40.0)
    assert (delivered(sim) - mid) * 8 / 20.0 / 1e3 > capped_kbps * 1.4, "lifted"


def test_a_flow_stopped_sends_nothing_new_and_starts_again() -> None:
    for doc in (UDP, TCP):
        sim = hopsim.Simulation(doc)
        sim.run_until(5.0)
        sim.stop_flow(0)
        sim.run_until(8.0)
        stopped = delivered(sim)
        sim.run_until(12.0)
        assert delivered(sim) == stopped, doc["flows"][0]["transport"]
        with pytest.raises(ScenarioError, match="sending already"):
            other = hopsim.Simulation(doc)
            other.run_until(1.0)
            other.start_flow(0)
        sim.start_flow(0)
        sim.run_until(16.0)
        assert delivered(sim) > stopped


def test_a_flow_started_early_and_one_timer_chain() -> None:
    late = dict(UDP, flows=[dict(UDP["flows"][0], start_s=20.0)])
    sim = hopsim.Simulation(late)
    sim.run_until(5.0)
    assert delivered(sim) == 0
    sim.start_flow(0)
    sim.run_until(35.0)
    # 10 packets a second from 5 s: 300 packets by 35 s, not more (the stale start at 20 s
    # must not start a second chain).
    assert abs(delivered(sim) / 500 - 300) <= 1


def test_a_cwnd_set_is_the_window_now() -> None:
    sim = hopsim.Simulation(TCP)
    sim.run_until(5.0)
    sim.set_cwnd(0, 1.5)
    assert sim.state()["flows"][0]["cwnd_segments"] == 1.5
    sim.set_window_limit(0, 3.0)
    sim.set_cwnd(0, 10.0)
    assert sim.state()["flows"][0]["cwnd_segments"] == 3.0, "held under the limit"


def test_a_queue_limit_holds_from_when_it_drains() -> None:
    chain = dict(
        TCP,
        topology={"kind": "chain", "hops": 4, "spacing_m": 200.0},
        flows=[dict(TCP["flows"][0], dst=4)],
        tcp={"receiver_window": 64},
    )
    sim = hopsim.Simulation(chain)
    sim.run_until(5.0)
    sim.set_queue_limit(2)
    sim.run_until(8.0)
    worst = 0
    for k in range(200):
        sim.run_until(8.0 + k * 0.05)
        worst = max(worst, max(n["queue_packets"] for n in sim.state()["nodes"]))
    assert 0 < worst <= 2


def test_the_route_is_read_not_refreshed() -> None:
    sim = hopsim.Simulation(
        dict(
            TCP,
            routing={"protocol": "aodv"},
            topology={"kind": "chain", "hops": 3, "spacing_m": 200.0},
            flows=[dict(TCP["flows"][0], dst=3)],
        )
    )
    assert sim.route(0, 3) == [], "no route before discovery"
    sim.run_until(5.0)
    assert sim.route(0, 3) == [0, 1, 2, 3]
    assert sim.route(2, 2) == [2], "a node's route to itself, whatever the protocol"
    assert sim.state()["flows"][0]["route"] == [0, 1, 2, 3]
    fork = sim.fork()
    for _ in range(3):
        fork.route(0, 3)
    assert fork.run().flows[0].goodput_kbps == sim.run().flows[0].goodput_kbps


def test_an_olsr_route_read_is_what_routing_would_use() -> None:
    # A 3 x 3 grid under TCP: nodes that forward nothing for a while keep an old table; a
    # read gives the route from the tuples that hold now, the same at every node of it (each
    # node's own read continues the route), and every hop is one grid step.
    grid = {"kind": "grid", "rows": 3, "cols": 3, "spacing_m": 200.0}
    flow = {"src": 0, "dst": 8, "transport": "tcp", "start_s": 1.0}
    sim = hopsim.Simulation(
        dict(duration_s=30.0, topology=grid, routing={"protocol": "olsr"}, flows=[flow])
    )
    seen = 0
    for t in range(6, 30, 2):
        sim.run_until(float(t))
        for a in range(8):
            route = sim.route(a, 8)
            seen += bool(route)
            if route:
                assert route[0] == a and route[-1] == 8
                assert sim.route(route[1], 8) == route[1:], f"{a} at {t} s"
                for x, y in itertools.pairwise(route):
                    assert abs(x // 3 - y // 3) + abs(x % 3 - y % 3) == 1, route
    assert seen > 60, seen


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda s: s.set_pacing_rate(0, 0.0), "pacing_rate_kbps"),
        (lambda s: s.set_cwnd(0, -1.0), "cwnd_segments"),
        (lambda s: s.set_cwnd(3, 2.0), "flow"),
        (lambda s: s.set_queue_limit(0), "mac.queue_packets"),
        (lambda s: s.set_queue_limit(2.5), "whole number"),
        (lambda s: s.set_queue_limit(5, node=9), "node"),
        (lambda s: s.route(0, 9), "node ids"),
        (lambda s: s.change("mac.data_rate_mbps", 11), "cannot change mid-run"),
        (lambda s: s.change("cwnd", 3), r"\(flow, value\)"),
    ],
)
def test_what_cannot_change_is_refused_by_name(call, says: str) -> None:
    sim = hopsim.Simulation(TCP)
    sim.run_until(1.0)
    with pytest.raises(ScenarioError, match=says):
        call(sim)


def test_udp_refusals() -> None:
    sim = hopsim.Simulation(dict(UDP, flows=[dict(UDP["flows"][0], interval_s=0.0)]))
    with pytest.raises(ScenarioError, match="saturated"):
        sim.set_pacing_rate(0, 100.0)
    with pytest.raises(ScenarioError, match="TCP"):
        sim.set_cwnd(0, 2.0)


def test_a_finished_transfer_does_not_start_again() -> None:
    for doc in (UDP, TCP):
        fixed = dict(doc, flows=[dict(doc["flows"][0], bytes=5000)])
        sim = hopsim.Simulation(fixed)
        sim.run_until(20.0)
        assert delivered(sim) == 5000
        with pytest.raises(ScenarioError, match="fixed-size transfer"):
            sim.start_flow(0)


def test_run_for_is_run_until_the_sum() -> None:
    a, b = hopsim.Simulation(TCP), hopsim.Simulation(TCP)
    a.run_until(2.5)
    for _ in range(5):
        b.run_for(0.5)
    assert b.now_s == pytest.approx(2.5) and b.state() == a.state()
    for bad in (-1.0, float("nan"), "1", True):
        with pytest.raises(ScenarioError, match="duration_s"):
            b.run_for(bad)

"""The buffer of packets waiting for a route (docs/models.md 17.1): when it is full, and
how ns-2 sends its packets when the route is found.

A source sending 5,000 datagrams a second over a 4-hop AODV chain fills the 64-packet buffer
(ns-2 `AODV_RTQ_MAX_LEN`) before its first route discovery ends. ns-2's agents then drop the
packet that has waited longest and keep the newcomer (aodv_rqueue.cc `enque`, dsragent.cc
`stickPacketInSendBuffer`), so the drops are the first datagrams, in order; the standard
profile drops the newcomers instead, so the first 64 all wait and none of them is dropped.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow.csv as pacsv
import pytest

from simhelpers import chain_scenario, run_checked, udp_flow

WAITING_MAX = 64  # ns-2 aodv_rqueue.h AODV_RTQ_MAX_LEN


def route_wait_drops(profile: str, tmp_path: Path) -> tuple[list[int], int]:
    scn = chain_scenario(4, [udp_flow(0, 4, interval_s=0.0002)], duration_s=0.3, warmup_s=0.1)
    scn["routing"] = {"protocol": "aodv"}
    scn["profile"] = profile
    trace = tmp_path / f"{profile}.csv"
    res = run_checked(scn, trace=trace)
    rows = pacsv.read_csv(trace).to_pylist()
    drops = [r["seq"] for r in rows if r["event"] == "drop" and r["reason"] == "no_route"]
    assert len(drops) == res.raw["totals"]["no_route_drops"]
    return drops, res.raw["totals"]["no_route_drops"]


def test_ns2_drops_the_oldest_waiting_packet(tmp_path: Path) -> None:
    drops, n = route_wait_drops("ns2", tmp_path)
    assert n > 10, "the buffer overflowed"
    assert drops == list(range(n)), "the oldest go first, in order"


def test_the_standard_profile_drops_the_newcomer(tmp_path: Path) -> None:
    drops, n = route_wait_drops("standard", tmp_path)
    assert n > 10, "the buffer overflowed"
    assert min(drops) >= WAITING_MAX, "the first 64 all waited"
    assert drops == sorted(drops)


@pytest.mark.parametrize("profile", ["ns2", "standard"])
def test_the_buffer_never_holds_more_than_its_limit(profile: str, tmp_path: Path) -> None:
    scn = chain_scenario(4, [udp_flow(0, 4, interval_s=0.0002)], duration_s=0.3, warmup_s=0.1)
    scn["routing"] = {"protocol": "aodv"}
    scn["profile"] = profile
    trace = tmp_path / "t.csv"
    run_checked(scn, trace=trace)
    waiting = peak = 0
    for r in pacsv.read_csv(trace).to_pylist():
        if r["event"] == "hold":
            waiting += 1
        elif r["event"] == "release" or (r["event"] == "drop" and r["reason"] == "no_route"):
            waiting -= 1
        peak = max(peak, waiting)
    assert peak == WAITING_MAX


def test_ns2_sends_the_released_packets_to_the_next_hop_routed_when_the_reply_came(
    tmp_path: Path,
) -> None:
    # aodv.cc `recvReply` routes every waiting packet at once and hands each to the link
    # layer ARP_DELAY after the one before (`forward(rt, p, delay)`): a link failure at the
    # source meanwhile does not stop them. A saturated 10-hop chain fails often at its source.
    scn = chain_scenario(10, [udp_flow(0, 10, interval_s=0.01)], duration_s=20.0, warmup_s=1.0)
    scn["routing"] = {"protocol": "aodv"}
    scn["profile"] = "ns2"
    trace = tmp_path / "t.csv"
    run_checked(scn, trace=trace)
    rows = [r for r in pacsv.read_csv(trace).to_pylist() if r["node"] == 0]
    failures = [r["time_ns"] for r in rows if r["event"] == "link_failure"]
    held: dict[int, int] = {}
    carried_over = 0
    for i, r in enumerate(rows):
        if r["event"] == "hold":
            held[r["packet"]] = r["time_ns"]
        elif r["event"] == "release" and r["packet"] in held:
            since = held.pop(r["packet"])
            if any(since < t < r["time_ns"] for t in failures):
                # Routed before the failure, released after it: queued for node 1 at once.
                nxt = next(x for x in rows[i + 1 :] if x["packet"] == r["packet"])
                assert (nxt["layer"], nxt["event"], nxt["peer"]) == ("ifq", "enqueue", 1)
                carried_over += 1
    assert failures and carried_over > 10

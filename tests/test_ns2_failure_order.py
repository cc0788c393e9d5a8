"""What leaves a node first after a MAC failure (docs/models.md 17.1, 17.2).

ns-2's MAC calls the routing agent's failure callback (the packet dropped, the queue filtered,
a Route Error or repair request sent), then takes its next packet from the interface queue
(mac-802_11.cc `RetransmitRTS`/`RetransmitDATA` -> `tx_resume` -> the queue's `resume`). What
the callback sent reaches the queue only after that: aodv.cc `sendError`/`sendRequest` and
dsragent.cc `sendOutPacketWithRoute` schedule it 0 s ahead. So in the ns2 profile a packet
already queued for another next hop leaves before the Route Error; in the standard profile the
Route Error, queued at the head, leaves first.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow.csv as pacsv

from simhelpers import chain_scenario, run_checked, tcp_flow


def first_out_after_failures(profile: str, tmp_path: Path) -> tuple[int, int]:
    """At each MAC failure followed by a dequeue at the same instant: how often the packet
    that left was one queued at that instant (the Route Error), and how often an older one."""
    scn = chain_scenario(7, [tcp_flow(0, 7)], duration_s=60.0, warmup_s=1.0)
    scn["routing"] = {"protocol": "aodv"}
    scn["profile"] = profile
    trace = tmp_path / f"{profile}.csv"
    run_checked(scn, trace=trace)
    rows = pacsv.read_csv(trace).to_pylist()
    failures = {(r["time_ns"], r["node"]) for r in rows if r["event"] == "link_failure"}
    at: dict[tuple[int, int], list[dict]] = {}
    for r in rows:
        key = (r["time_ns"], r["node"])
        if key in failures:
            at.setdefault(key, []).append(r)
    new = old = 0
    for events in at.values():
        queued_now = {r["packet"] for r in events if r["event"] == "enqueue"}
        out = [r["packet"] for r in events if r["event"] == "dequeue"]
        if out and queued_now:
            new += out[0] in queued_now
            old += out[0] not in queued_now
    return new, old


def test_ns2_sends_the_queued_packet_before_the_route_error(tmp_path: Path) -> None:
    new, old = first_out_after_failures("ns2", tmp_path)
    assert old >= 5, (new, old)  # an ACK queued for the previous hop went first


def test_the_standard_profile_sends_the_route_error_first(tmp_path: Path) -> None:
    new, old = first_out_after_failures("standard", tmp_path)
    assert new >= 5 and old == 0, (new, old)

"""Invariants and determinism.

Every simulator run in this suite already goes through ``simhelpers.check_result`` (via the
``run_scenario`` fixture): no invariant violation reported by the core (a radio never sends
two frames at once, nothing is sent while NAV or physical carrier sense forbids it, ...),
packets conserved per flow, counters consistent.  This file adds scenarios chosen to stress
those invariants (contention, hidden terminals, queue overflow, retry-limit drops, routes
through relays, start/stop times) and the determinism contract of DESIGN.md: same scenario
+ same seed = bit-identical results, different seeds differ, and a run does not depend on
what ran before it in the same process.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import dot11b_timing as t
from hopsim.schema import RESULT_SCHEMA, fields
from simhelpers import (
    chain_scenario,
    circle_positions,
    mac_section,
    positions_scenario,
    run_cli,
    udp_flow,
    write_scenario,
)

ROOT = Path(__file__).resolve().parents[1]


def canonical(raw: dict) -> str:
    return json.dumps(raw, sort_keys=True, separators=(",", ":"))


def contended_scenario(seed: int = 1) -> dict:
    """Four saturated senders around one receiver plus a paced multihop flow that starts late
    and stops early, relayed through the contended area."""
    pos = circle_positions(4, 20.0) + [[220.0, 0.0], [420.0, 0.0]]
    flows = [udp_flow(k, 0, payload_bytes=1000, interval_s=0.0) for k in range(1, 5)]
    flows.append(udp_flow(6, 2, payload_bytes=512, interval_s=0.02, start_s=1.0, stop_s=6.0))
    return positions_scenario(
        pos,
        flows,
        duration_s=8.0,
        warmup_s=1.0,
        seed=seed,
        mac=mac_section(data_rate_mbps=2.0, rts_threshold_bytes=0),
    )


# ---------------------------------------------------------------------------------------
# Result document shape (docs/interfaces.md)
# ---------------------------------------------------------------------------------------


#: The condition of the A-MPDU keys, as the schema words it (one home: observe/schema).
AGGREGATION = next(f.present for f in RESULT_SCHEMA if f.name == "ampdus_sent")
QUEUE = next(f.present for f in RESULT_SCHEMA if f.name == "aqm_drops")


def test_result_document_has_the_contract_fields(run_scenario):
    scn = chain_scenario(2, [udp_flow(0, 2, interval_s=0.01)], duration_s=5.0, warmup_s=1.0)
    res = run_scenario(scn)
    raw = res.raw
    # Every key the schema says is always there (a UDP flow: no TCP keys; no route table).
    always = {level: [f.name for f in fields(level) if not f.present] for level in ("run", "flow")}
    for key in always["run"]:
        assert key in raw, key
    assert raw["seed"] == 1 and raw["duration_s"] == 5.0 and raw["warmup_s"] == 1.0
    flow = raw["flows"][0]
    for key in always["flow"]:
        assert key in flow, key
    assert (flow["src"], flow["dst"], flow["hops"], flow["transport"]) == (0, 2, 2, "udp")
    node = raw["nodes"][1]
    for f in RESULT_SCHEMA:
        if f.level in ("node", "totals") and not f.present:
            assert f.name in node, f.name
        if f.level == "totals" and not f.present:
            assert f.name in raw["totals"], f.name
    # The queue keys only with a [queue] table.
    assert "aqm_drops" not in node and "queue_delay_mean_ms" not in raw["totals"]
    queued = run_scenario({**scn, "queue": {"discipline": "droptail"}}).raw
    for f in RESULT_SCHEMA:
        if f.level == "totals" and f.present == QUEUE:
            assert f.name in queued["totals"] and f.name in queued["nodes"][1], f.name
    # The aggregation keys only where 802.11n aggregates (its default).
    assert "ampdus_sent" not in queued["totals"]
    assert "internal_collisions" not in queued["totals"]  # no flow outside best effort
    ht = {"radio": {"standard": "80211n"}, "mac": {"data_rate_mbps": "mcs0"}}
    topology = {**scn["topology"], "spacing_m": 30.0}
    n = run_scenario({**scn, **ht, "topology": topology, "flows": [udp_flow(0, 2)]}).raw
    for f in RESULT_SCHEMA:
        if f.level == "totals" and f.present == AGGREGATION:
            assert f.name in n["totals"] and f.name in n["nodes"][1], f.name
    assert (node["x_m"], node["y_m"]) == (200.0, 0.0)
    assert "link_drop_probability" in raw["totals"]
    assert raw["engine"]["events"] > 0
    assert raw["engine"]["sim_time_s"] <= raw["duration_s"] + 1e-9
    # The Python object mirrors the document.
    assert res.flows[0].goodput_kbps == flow["goodput_kbps"]
    assert res.flows[0].packets_delivered == flow["packets_delivered"]


def test_resolved_scenario_carries_the_documented_defaults(run_scenario):
    """Only topology and flows given: every other key resolves to the ns-2 default
    (docs/models.md)."""
    scn = {
        "duration_s": 2.0,
        "topology": {"kind": "chain", "hops": 1, "spacing_m": 200.0},
        "flows": [{"src": 0, "dst": 1, "transport": "udp"}],
    }
    raw = run_scenario(scn).raw
    s = raw["scenario"]
    assert s["warmup_s"] == 0.0 and s["seed"] == 1
    mac = s["mac"]
    assert (mac["data_rate_mbps"], mac["basic_rate_mbps"]) == (2.0, 1.0)
    assert mac["rts_threshold_bytes"] == 0
    assert (mac["short_retry_limit"], mac["long_retry_limit"]) == (7, 4)
    assert mac["queue_packets"] == 50
    assert (mac["cw_min"], mac["cw_max"]) == (31, 1023)
    radio = s["radio"]
    assert radio["propagation"] == "two_ray_ground" and radio["reception"] == "capture"
    assert radio["tx_power_w"] == pytest.approx(0.28183815)
    assert radio["frequency_hz"] == pytest.approx(914e6)
    assert radio["antenna_height_m"] == pytest.approx(1.5)
    assert radio["rx_threshold_w"] == pytest.approx(3.652e-10)
    assert radio["cs_threshold_w"] == pytest.approx(1.559e-11)
    assert radio["capture_threshold_db"] == pytest.approx(10.0)
    assert s["routing"]["protocol"] == "static"
    flow = s["flows"][0]
    assert flow["payload_bytes"] == 1460
    assert flow["interval_s"] == 0.0 and flow["start_s"] == 0.0 and flow["stop_s"] == 2.0


# ---------------------------------------------------------------------------------------
# Invariants under stress
# ---------------------------------------------------------------------------------------

STRESS = {
    "contended": contended_scenario(),
    # Hidden terminals on a saturated chain, basic access.
    "chain5-basic-saturated": chain_scenario(
        5,
        [udp_flow(0, 5, interval_s=0.0)],
        duration_s=10.0,
        mac=mac_section(data_rate_mbps=11.0, rts_threshold_bytes=t.RTS_NEVER),
    ),
    # Two flows in opposite directions on a chain, tiny queues (queue drops), low retry
    # limits (retry-limit drops, link failures).
    "chain4-bidirectional-small-queue": chain_scenario(
        4,
        [udp_flow(0, 4, interval_s=0.004), udp_flow(4, 0, interval_s=0.004)],
        duration_s=10.0,
        mac=mac_section(
            data_rate_mbps=2.0,
            rts_threshold_bytes=0,
            queue_packets=3,
            short_retry_limit=2,
            long_retry_limit=1,
        ),
    ),
    # A grid with crossing flows that start and stop during the run.
    "grid-crossing": {
        "duration_s": 10.0,
        "warmup_s": 1.0,
        "seed": 3,
        "topology": {"kind": "grid", "rows": 3, "cols": 3, "spacing_m": 200.0},
        "mac": mac_section(data_rate_mbps=5.5, rts_threshold_bytes=500),
        "flows": [
            udp_flow(0, 8, payload_bytes=1000, interval_s=0.01, start_s=0.5, stop_s=8.0),
            udp_flow(2, 6, payload_bytes=200, interval_s=0.0, start_s=2.0, stop_s=9.0),
        ],
    },
    # A random topology (positions drawn from the seed); flows between nodes 0..3 of a
    # dense area so that routes exist.
    "random-dense": {
        "duration_s": 5.0,
        "warmup_s": 1.0,
        "seed": 7,
        "topology": {"kind": "random", "nodes": 20, "area_m": [200.0, 200.0]},
        "flows": [udp_flow(0, 1, interval_s=0.005), udp_flow(2, 3, interval_s=0.0)],
    },
}


@pytest.mark.parametrize("name", list(STRESS))
def test_invariants_hold_under_stress(run_scenario, name):
    raw = run_scenario(STRESS[name]).raw  # run_scenario asserts the invariants
    assert raw["engine"]["events"] > 0
    assert sum(f["packets_delivered"] for f in raw["flows"]) > 0


@pytest.mark.slow
def test_a_frame_taken_for_a_duplicate_is_a_counted_loss(run_scenario):
    """802.11-2007 9.2.9: a receiver drops a frame with the Retry bit and the sequence number it
    last had from that transmitter. Sequence numbers wrap at 4096, so after a lost first attempt
    a new packet can match an old one: the frame is acknowledged and the packet lost. In this
    Chen MANET run (replication 2 of the study's 10-flow hop-based point, found by `hopsim
    reproduce chen-manet`) one packet of flow 9 was: it was freed as delivered and the flow's
    packets were not conserved."""
    from hopsim.sweeps import load_sweep

    spec = load_sweep(ROOT / "python/hopsim/studies/sweeps/chen-manet.toml")
    point = next(
        p
        for p in spec.points
        if p.params == {"traffic.random_flows": 10, "tcp.window_limit": "hop_based"}
    )
    raw = run_scenario(spec.task(point, 2).scenario).raw  # asserts conservation
    flow = raw["flows"][9]
    assert flow["packets_dropped"] > 0


def test_queue_and_retry_limit_drops_are_counted(run_scenario):
    raw = run_scenario(STRESS["chain4-bidirectional-small-queue"]).raw
    tot = raw["totals"]
    assert tot["queue_drops"] > 0
    assert tot["retry_limit_drops"] > 0
    # A retry-limit drop is reported to routing as a link failure.
    assert tot["link_failures"] == tot["retry_limit_drops"]
    assert sum(f["packets_dropped"] for f in raw["flows"]) > 0
    assert 0.0 < tot["link_drop_probability"] < 1.0


def test_flow_stopped_early_has_nothing_left_in_flight_much_later(run_scenario):
    scn = chain_scenario(
        3, [udp_flow(0, 3, interval_s=0.01, start_s=1.0, stop_s=3.0)], duration_s=10.0, warmup_s=0.5
    )
    f = run_scenario(scn).raw["flows"][0]
    assert f["packets_in_flight"] == 0
    # 2 s at one packet per 10 ms.
    assert 199 <= f["packets_sent"] <= 201
    assert f["packets_delivered"] == f["packets_sent"] - f["packets_dropped"]


# ---------------------------------------------------------------------------------------
# Determinism
# ---------------------------------------------------------------------------------------


def test_same_scenario_and_seed_give_identical_results(run_scenario):
    a = run_scenario(contended_scenario(seed=11)).raw
    b = run_scenario(contended_scenario(seed=11)).raw
    assert canonical(a) == canonical(b)


def test_seed_argument_overrides_the_scenario_seed(run_scenario):
    a = run_scenario(contended_scenario(seed=1), seed=5).raw
    b = run_scenario(contended_scenario(seed=5)).raw
    assert a["seed"] == 5
    assert canonical(a) == canonical(b)


def test_different_seeds_give_different_results(run_scenario):
    results = [run_scenario(contended_scenario(), seed=s).raw for s in (1, 2, 3)]
    per_flow = [tuple(f["packets_delivered"] for f in r["flows"]) for r in results]
    counters = [
        (r["totals"]["collisions"], r["totals"]["mac_retries"], r["engine"]["events"])
        for r in results
    ]
    assert len(set(per_flow)) > 1 or len(set(counters)) > 1, (per_flow, counters)
    assert (
        len(
            {
                canonical({k: v for k, v in r.items() if k not in ("seed", "scenario")})
                for r in results
            }
        )
        == 3
    )


def test_run_does_not_depend_on_earlier_runs_in_the_process(run_scenario):
    first = canonical(run_scenario(contended_scenario(seed=4)).raw)
    # Unrelated runs in between: other topologies, sizes, seeds and rates.
    for name in ("chain5-basic-saturated", "grid-crossing"):
        run_scenario(STRESS[name])
    run_scenario(contended_scenario(seed=9))
    again = canonical(run_scenario(contended_scenario(seed=4)).raw)
    assert first == again


def test_api_and_cli_in_a_fresh_process_agree(run_scenario, tmp_path):
    """A fresh process (the CLI) gives the same document as this long-lived process."""
    scn = contended_scenario(seed=4)
    in_process = run_scenario(scn).raw
    path = write_scenario(tmp_path / "contended.toml", scn)
    proc = run_cli("run", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == in_process


def test_cli_json_output_is_byte_identical_across_runs(tmp_path):
    path = write_scenario(tmp_path / "contended.toml", contended_scenario(seed=2))
    outs = [run_cli("run", str(path), "--json", "--seed", "3") for _ in range(2)]
    for p in outs:
        assert p.returncode == 0, p.stderr
    assert outs[0].stdout == outs[1].stdout
    assert json.loads(outs[0].stdout)["seed"] == 3


def test_input_dict_is_not_modified(run_scenario):
    scn = contended_scenario(seed=1)
    before = canonical(scn)
    run_scenario(scn, overrides={"mac.data_rate_mbps": 11.0}, seed=2)
    assert canonical(scn) == before


def test_overrides_apply_to_the_resolved_scenario(run_scenario):
    scn = chain_scenario(2, [udp_flow(0, 2, interval_s=0.01)], duration_s=3.0, warmup_s=0.5)
    raw = run_scenario(scn, overrides={"mac.data_rate_mbps": 11.0, "topology.spacing_m": 150.0}).raw
    assert raw["scenario"]["mac"]["data_rate_mbps"] == 11.0
    assert raw["scenario"]["topology"]["spacing_m"] == 150.0
    assert raw["nodes"][2]["x_m"] == 300.0

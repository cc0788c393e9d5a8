"""The scenarios of the speed benchmark (benches/speed.py), as JSON-ready dicts.

Each builder takes the simulated duration so that BENCH_QUICK / --quick can shorten a row
without changing what it is.
"""

from __future__ import annotations

import copy
import json
import math
import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
CHAIN_TCP = ROOT / "scenarios" / "chain-tcp.toml"
CHEN_MANET = ROOT / "python" / "hopsim" / "studies" / "sweeps" / "chen-manet.toml"

#: Full-length simulated durations of the rows (s); --quick divides them (see speed.py).
FULL_DURATION_S = {
    "chain4-80211n": 100.0,
    "chain7-vegas-aodv": 1000.0,
    "manet-chen": 1000.0,
    "random100": 200.0,
    "large1000": 100.0,
}


def chain4_80211n(duration_s: float) -> dict[str, Any]:
    """One TCP NewReno bulk flow over a 4-hop 802.11n chain (MCS 4, 20 MHz, 30 m apart: the
    nodes two hops apart hidden), A-MPDU aggregation with Block Ack (the 802.11n defaults),
    static routes: the set-up tests/test_ns3_ofdm.py runs beside ns-3.44."""
    return {
        "duration_s": duration_s,
        "warmup_s": 2.0,
        "topology": {"kind": "chain", "hops": 4, "spacing_m": 30.0},
        "routing": {"protocol": "static"},
        "radio": {"standard": "80211n"},
        "mac": {"data_rate_mbps": "mcs4", "rts_threshold_bytes": 65535},
        "tcp": {"variant": "newreno"},
        "flows": [{"src": 0, "dst": 4, "transport": "tcp", "payload_bytes": 1460}],
    }


def chain7_vegas_aodv(duration_s: float) -> dict[str, Any]:
    """One TCP Vegas bulk flow over the 7-hop chain (200 m, 2 Mbit/s, RTS/CTS), AODV, ns2
    profile: scenarios/chain-tcp.toml with the DSN study's Vegas as the crosscheck set
    sweeps/crosscheck/aodv-chains.toml writes it (alpha = beta = 2, flow from 1 s)."""
    s = tomllib.loads(CHAIN_TCP.read_text())
    s["duration_s"] = duration_s
    s["profile"] = "ns2"
    s["routing"] = {"protocol": "aodv"}
    s["tcp"].update({"variant": "vegas", "alpha": 2.0, "beta": 2.0})
    s["flows"][0]["start_s"] = 1.0
    return s


def manet_chen(duration_s: float, flows: int = 25) -> dict[str, Any]:
    """Chen et al.'s MANET (50 nodes in 1500 m x 300 m, random waypoint 0..5 m/s without
    pauses, DSR, TCP Reno between random pairs), the scenario of the study's sweep
    chen-manet.toml with its largest flow count and no window limit."""
    doc = tomllib.loads(CHEN_MANET.read_text())
    s = copy.deepcopy(doc["scenario"])
    s["duration_s"] = duration_s
    s["traffic"]["random_flows"] = flows
    s["traffic"]["start_s"] = 1.0  # as the crosscheck set manet-dsr.toml starts its flows
    return s


def random100_candidates(duration_s: float) -> dict[str, Any]:
    """crates/hopsim-core/benches/engine.rs `random100`: 100 static nodes uniform in
    1 km x 1 km (seed 3), static routing, 40 candidate UDP flows i -> 99 - i (512 B every
    0.1 s); :func:`random100` keeps the first ten whose ends are connected, as engine.rs does."""
    return {
        "duration_s": duration_s,
        "seed": 3,
        "topology": {"kind": "random", "nodes": 100, "area_m": [1000.0, 1000.0]},
        "flows": [
            {"src": i, "dst": 99 - i, "interval_s": 0.1, "payload_bytes": 512} for i in range(40)
        ],
    }


def random100(duration_s: float) -> dict[str, Any]:
    """The first ten candidate flows of :func:`random100_candidates` the core accepts (a flow
    between unconnected nodes under static routing is refused when the world is built)."""
    from hopsim import _core

    s = random100_candidates(duration_s)
    candidates = s["flows"]
    s["flows"] = []
    for f in candidates:
        s["flows"].append(f)
        probe = dict(s, duration_s=1e-3)
        try:
            _core.run_json(json.dumps(probe))
        except _core.ScenarioError:
            s["flows"].pop()
        if len(s["flows"]) == 10:
            return s
    raise RuntimeError("random100: fewer than ten connected pairs among the candidates")


def large_random(nodes: int, flows: int, duration_s: float) -> dict[str, Any]:
    """``nodes`` static nodes uniform in a square holding 1,000 nodes per 9 km^2 (3 km x 3 km
    for 1,000 nodes), AODV, ``flows`` CBR/UDP flows between random connected pairs.

    Paced UDP rather than TCP: the classic large-MANET workload of routing studies (ns-2's
    cbrgen.tcl, 512 B at 4 packets/s), whose offered load grows with the number of flows, so
    the row measures the engine on a loaded but not saturated network; 100 bulk TCP flows
    would saturate every contention region and mostly measure back-off and collapse."""
    side_m = 3000.0 * math.sqrt(nodes / 1000.0)
    return {
        "duration_s": duration_s,
        "seed": 1,
        "topology": {"kind": "random", "nodes": nodes, "area_m": [side_m, side_m]},
        "routing": {"protocol": "aodv"},
        "traffic": {
            "random_flows": flows,
            "transport": "udp",
            "payload_bytes": 512,
            "interval_s": 0.25,
            "start_s": 1.0,
        },
    }

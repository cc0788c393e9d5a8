"""The scenarios of the registered environments (as dicts: nothing to load from disk)."""

from __future__ import annotations

from typing import Any


def chain_scenario(
    hops: int = 7, duration_s: float = 20.0, variant: str = "newreno"
) -> dict[str, Any]:
    """One TCP bulk flow over a chain of ``hops`` hops, 200 m apart, 802.11 DCF at 2 Mbit/s
    with RTS/CTS and static routes: scenarios/chain-tcp.toml's set-up, the seed studies'."""
    return {
        "duration_s": duration_s,
        "seed": 1,
        "topology": {"kind": "chain", "hops": hops, "spacing_m": 200.0},
        "mac": {"data_rate_mbps": 2.0, "basic_rate_mbps": 1.0, "rts_threshold_bytes": 0},
        "routing": {"protocol": "static"},
        "tcp": {"variant": variant},
        "flows": [{"src": 0, "dst": hops, "transport": "tcp", "payload_bytes": 1460}],
    }


def grid_scenario(duration_s: float = 20.0) -> dict[str, Any]:
    """Crossing TCP flows on the 5x5 grid (200 m, AODV) of sweeps/crosscheck/
    grid-crossing-4flows.toml: the flows' agents share the air (``FlowsParallelEnv``)."""
    pairs = [(0, 24, 10.0), (4, 20, 10.1), (2, 22, 10.2), (10, 14, 10.3)]
    return {
        "duration_s": duration_s,
        "seed": 1,
        "topology": {"kind": "grid", "rows": 5, "cols": 5, "spacing_m": 200.0},
        "mac": {"data_rate_mbps": 2.0, "basic_rate_mbps": 1.0, "rts_threshold_bytes": 3000},
        "routing": {"protocol": "aodv"},
        "flows": [
            {"src": s, "dst": d, "transport": "tcp", "payload_bytes": 1460, "start_s": t - 10.0}
            for s, d, t in pairs
        ],
    }

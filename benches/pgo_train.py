"""Training runs of the profile-guided build of the extension (Makefile `PGO`, docs/speed.md).

    .venv/bin/python benches/pgo_train.py

Runs a broad, short mix of scenarios through the instrumented extension so that the compiler
learns which branches are hot: both reception modes, static, AODV, DSR and ETX routing,
moving and static nodes, UDP and every TCP family (loss-based, delay-based, CUBIC, BBR),
RTS/CTS on and off, an AQM, fading and frame errors, and a large network. The benchmark's
workloads are among them, as the studies' workloads are what hopsim runs most; each is cut
short. It prints what it ran; the profile itself is written by the instrumented module.
"""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import speed_scenarios as sc


def chain(variant: str, **over: Any) -> dict[str, Any]:
    """The 7-hop chain with one TCP flow of `variant` (ns2 profile off unless asked)."""
    s = sc.chain7_vegas_aodv(60.0)
    s["profile"] = over.pop("profile", "standard")
    s["routing"] = {"protocol": over.pop("routing", "static")}
    s["tcp"] = {"variant": variant}
    s.update(over)
    return s


def scenarios() -> list[tuple[str, dict[str, Any]]]:
    from hopsim import _core

    runs: list[tuple[str, dict[str, Any]]] = [
        ("chain7-vegas-aodv ns2", sc.chain7_vegas_aodv(200.0)),
        ("manet-chen dsr reno", sc.manet_chen(60.0)),
        ("random100 udp static", sc.random100(40.0)),
        ("large300 aodv udp", sc.large_random(300, 30, 15.0)),
    ]
    # Every variant of the core; Vegas already ran above (chain7-vegas-aodv).
    for variant in (v for v in _core.tcp_variants() if v != "vegas"):
        runs.append((f"chain7 {variant}", chain(variant)))
    runs.append(("chain7 newreno dsr ns2", chain("newreno", routing="dsr", profile="ns2")))
    runs.append(("chain7 newreno etx", chain("newreno", routing="etx")))
    sinr = chain("newreno", radio={"reception": "sinr"})
    runs.append(("chain7 sinr", sinr))
    fading = chain("sack", radio={"fading": "rayleigh", "frame_error_rate": 0.01})
    runs.append(("chain7 fading errors", fading))
    codel = chain("cubic", queue={"discipline": "codel", "ecn": True})
    runs.append(("chain7 codel ecn", codel))
    no_rts = chain("newreno")
    no_rts["mac"] = dict(no_rts.get("mac", {}), rts_threshold_bytes=3000)
    runs.append(("chain7 no rts", no_rts))
    manet_sinr = copy.deepcopy(sc.manet_chen(30.0))
    manet_sinr["profile"] = "standard"
    manet_sinr["radio"] = {"reception": "sinr"}
    manet_sinr["routing"] = {"protocol": "aodv"}
    runs.append(("manet sinr aodv", manet_sinr))
    return runs


def main() -> None:
    from hopsim import _core

    total = time.perf_counter()
    for name, s in scenarios():
        t0 = time.perf_counter()
        doc = json.loads(_core.run_json(json.dumps(s)))
        events = doc["engine"]["events"]
        print(f"  {name:28s} {events:>9d} events {time.perf_counter() - t0:6.2f} s")
    print(f"training runs done in {time.perf_counter() - total:.1f} s")


if __name__ == "__main__":
    main()

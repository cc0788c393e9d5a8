"""Saturated UDP over a static chain, in hopsim and in ns-3.44 (``ns3/wifi_udp.cc``): the
side-by-side check of the PHY standards (802.11b, a, g, n; docs/validation.md, "Side by
side with ns-3").

:func:`wifi_udp_arguments` translates a resolved hopsim scenario into the ns-3 program's
command line, refusing (:class:`Ns3Untranslatable`, naming the key) what the program cannot
express; :func:`run_ns3_udp` and :func:`run_hopsim_udp` give the same fields for both.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .ns3build import build_wifi_udp, run_program
from .ns3translate import (
    Ns3Untranslatable,
    ht_arguments,
    reference_loss_db,
    require,
    static_chain_phy,
)

__all__ = [
    "edca_pairs_arguments",
    "run_hopsim_udp",
    "run_ns3_udp",
    "wifi_udp_arguments",
]


def _dbm(w: float) -> float:
    return 10 * math.log10(w * 1e3)


def wifi_udp_arguments(s: Mapping[str, Any], run: int) -> list[str]:
    """The command line of ``wifi_udp.cc`` for the resolved scenario ``s`` and ns-3 run
    number ``run``. Raises :class:`Ns3Untranslatable`."""
    require("profile", s["profile"], "standard", 'only the "standard" profile is translated')
    topo, radio, mac = s["topology"], s["radio"], s["mac"]
    require("radio.propagation", radio["propagation"], "log_distance", '"log_distance" only')
    require("radio.reception", radio["reception"], "sinr", '"sinr" only (ns-3 has no capture)')
    for key in ("rx_range_m", "cs_range_m"):
        require(f"radio.{key}", radio.get(key), None, "unset (give thresholds)")
    require("radio.antenna_gain", radio["antenna_gain"], 1.0, "1 only")
    standard, modes = static_chain_phy(s, ideal=True)
    flows = s["flows"]
    if len(flows) != 1:
        raise Ns3Untranslatable("flows", f"{len(flows)} flows", "exactly one UDP flow")
    f = flows[0]
    require("flows.0.transport", f["transport"], "udp", '"udp" only')
    require("flows.0.src", f["src"], 0, "the chain's first node, 0")
    require("flows.0.dst", f["dst"], topo["hops"], "the chain's last node")
    require("flows.0.interval_s", float(f["interval_s"]), 0.0, "0 only (saturated)")
    ref = reference_loss_db(radio)
    d0 = float(radio["reference_distance_m"])
    tx_dbm = radio.get("tx_power_dbm")
    tx = float(tx_dbm) if tx_dbm is not None else _dbm(float(radio["tx_power_w"]))
    # The ns-3 chain routes hop by hop; hopsim's static routes take the fewest hops over
    # links within decode range, which skips nodes once two spacings are in range.
    spacing = float(topo["spacing_m"])
    two_hops_dbm = (
        tx - ref - 10 * float(radio["path_loss_exponent"]) * math.log10(max(2 * spacing / d0, 1.0))
    )
    if int(topo["hops"]) > 1 and two_hops_dbm >= _dbm(float(radio["rx_threshold_w"])):
        raise Ns3Untranslatable(
            "topology.spacing_m",
            spacing,
            "far enough apart that nodes two hops apart cannot decode each other "
            f"({two_hops_dbm:.1f} dBm at {2 * spacing:g} m reaches the receive threshold): "
            "hopsim's static routes would skip nodes, ns-3's chain does not",
        )
    args = {
        "hops": int(topo["hops"]),
        "spacingM": float(topo["spacing_m"]),
        "durationS": float(s["duration_s"]),
        "warmupS": float(s["warmup_s"]),
        "run": int(run),
        "standard": standard,
        "dataMode": modes.get("data_rate_mbps", "unused"),
        "rateManager": "constant"
        if "data_rate_mbps" in modes
        else {"ideal": "ideal", "minstrel_ht": "minstrelht"}[mac["rate_control"]],
        "controlMode": modes["basic_rate_mbps"],
        "rtsThresholdBytes": int(mac["rts_threshold_bytes"]),
        "retryLimit": int(mac["short_retry_limit"]),
        "queuePackets": int(mac["queue_packets"]),
        "payloadBytes": int(f["payload_bytes"]),
        "txPowerDbm": tx,
        "exponent": float(radio["path_loss_exponent"]),
        "referenceDistanceM": d0,
        "referenceLossDb": float(ref),
        "rxThresholdDbm": _dbm(float(radio["rx_threshold_w"])),
        "ccaEdThresholdDbm": _dbm(float(radio["cs_threshold_w"])),
        "preambleSnrDb": float(radio["preamble_snr_db"]),
        "noiseFigureDb": float(radio["noise_figure_db"]),
    }
    if mac.get("erp_protection", "none") != "none":
        # ns-3.44 sends a CTS-to-self at its default mode (DSSS 1 Mbit/s for 802.11g),
        # hopsim at the basic rate: the two agree at 1 Mbit/s.
        require(
            "mac.basic_rate_mbps", float(mac["basic_rate_mbps"]), 1.0, "1 (ns-3's default mode)"
        )
        args["erpProtection"] = mac["erp_protection"]
    if standard in ("80211n", "80211ac"):
        args.update(ht_arguments(radio, mac))
        # Above what HT (600 Mbit/s) or VHT (3.5 Gbit/s) carries: the source must saturate
        # the link.
        args["offeredMbps"] = 4000.0 if standard == "80211ac" else 1000.0
        if edca := mac.get("edca"):
            args["edca"] = edca_argument(edca)
    return [f"--{k}={v!r}" if isinstance(v, float) else f"--{k}={v}" for k, v in args.items()]


def edca_argument(table: Mapping[str, Mapping[str, int]]) -> str:
    """``mac.edca`` as ``wifi_udp.cc --edca``: AC:aifsn:cwMin:cwMax:txopUs per category, an
    empty field where the scenario keeps the default (both take Table 9-137's)."""
    keys = ("aifsn", "cw_min", "cw_max", "txop_limit_us")
    return ",".join(
        ":".join([ac, *(str(o[k]) if k in o else "" for k in keys)]) for ac, o in table.items()
    )


def edca_pairs_arguments(s: Mapping[str, Any], run: int) -> list[str]:
    """The command line of ``wifi_udp.cc --acs`` for a resolved scenario of saturated UDP
    flows between pairs of nodes (flow j from node 2j at (0, j * gap) to node 2j + 1 at
    (spacing, j * gap)), each of its own access category: EDCA side by side. Raises
    :class:`Ns3Untranslatable`."""
    topo, flows = s["topology"], s["flows"]
    require("topology.kind", topo["kind"], "positions", '"positions" (pairs of nodes)')
    pos = [tuple(map(float, p[:2])) for p in topo["positions"]]
    if len(flows) < 1 or len(pos) != 2 * len(flows):
        raise Ns3Untranslatable("topology.positions", f"{len(pos)} nodes", "two per flow")
    spacing = pos[1][0] - pos[0][0]
    gap = pos[2][1] - pos[0][1] if len(pos) > 2 else 1.0
    for j, f in enumerate(flows):
        require(f"flows.{j}.src", f["src"], 2 * j, f"node {2 * j}")
        require(f"flows.{j}.dst", f["dst"], 2 * j + 1, f"node {2 * j + 1}")
        for key in ("transport", "payload_bytes", "interval_s"):
            require(f"flows.{j}.{key}", f[key], flows[0][key], "the same for every flow")
        want = [(0.0, j * gap), (spacing, j * gap)]
        if [pos[2 * j], pos[2 * j + 1]] != want:
            raise Ns3Untranslatable(
                f"topology.positions.{2 * j}", pos[2 * j], f"the pair layout {want}"
            )
    one = dict(s)
    one["topology"] = {"kind": "chain", "hops": 1, "spacing_m": spacing}
    one["flows"] = [dict(flows[0], src=0, dst=1)]
    acs = ",".join(f.get("access_category", "BE") for f in flows)
    return [*wifi_udp_arguments(one, run), f"--acs={acs}", f"--pairGapM={gap!r}"]


def run_ns3_udp(
    resolved: dict[str, Any],
    run: int,
    binary: Path | None = None,
    timeout_s: float = 3600.0,
    *,
    pairs: bool = False,
) -> dict[str, Any]:
    """One ns-3 run of the resolved scenario (``pairs``: of :func:`edca_pairs_arguments`):
    its JSON line, parsed."""
    args = edca_pairs_arguments(resolved, run) if pairs else wifi_udp_arguments(resolved, run)
    binary = binary or build_wifi_udp()
    return run_program(binary, args, timeout_s)


def run_hopsim_udp(scenario: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """One hopsim run of ``scenario`` with ``seed``: the fields of :func:`run_ns3_udp`."""
    from ..api import run as hopsim_run

    r = hopsim_run(dict(scenario), seed=seed)
    return {
        "simulator": "hopsim",
        "goodput_kbps": r.flows[0].goodput_kbps,
        "goodput_kbps_by_flow": [f.goodput_kbps for f in r.flows],
        "mac_retries": r.totals.mac_retries,
        "retry_limit_drops": r.totals.retry_limit_drops,
        "events": r.raw["engine"]["events"],
        "wall_s": r.wall_time_s,
    }

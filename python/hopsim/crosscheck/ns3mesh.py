"""Several TCP flows over static nodes anywhere (a grid with crossing flows), hopsim beside
ns-3.

    python -m hopsim.crosscheck.ns3mesh sweeps/crosscheck/grid-crossing-4flows.toml --seeds 10

builds ``ns3/mesh_tcp.cc`` once, runs the resolved scenario in ns-3 (RngSeedManager run = the
seed; AODV = ns-3's, or host routes equal to hopsim's static ones) and in hopsim with each
reception mode, and prints total and per-flow goodput with Student-t 95% intervals. The radio,
MAC and TCP are translated as for the chain (:func:`.ns3translate.wifi_tcp_arguments`); what
differs between the two AODVs is in docs/validation.md, "Crossing flows on a grid".
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .._core import ScenarioError
from ..sweeps.stats import Summary, summarize_values
from .args import output_file, seed_count
from .ns3build import Ns3Missing, build_mesh_tcp, run_program
from .ns3translate import Ns3Untranslatable, command_line, decodes, wifi_tcp_arguments

__all__ = [
    "HOPSIM_AODV",
    "HOPSIM_MESH_OPTIONS",
    "HOPSIM_PEERING",
    "aodv_attributes",
    "hwmp_attributes",
    "load_scenario",
    "main",
    "markdown_table",
    "mesh_arguments",
    "positions_m",
    "run_hopsim",
    "run_ns3",
    "side_by_side",
    "static_routes",
    "summaries",
    "total_kbps",
]

#: hopsim's AODV constants (docs/models.md section 10) as ns-3 attributes of
#: ns3::aodv::RoutingProtocol; ns-3's own defaults differ (ActiveRouteTimeout 3 s,
#: NodeTraversalTime 40 ms, NetDiameter 35, RreqRetries 2, TtlStart 1).
HOPSIM_AODV = {
    "ActiveRouteTimeout": "10s",
    "NodeTraversalTime": "30ms",
    "NetDiameter": "30",
    "RreqRetries": "3",
    "TtlIncrement": "2",
    "TtlThreshold": "7",
    "MaxQueueLen": "64",
    "MaxQueueTime": "30s",
}


def positions_m(topology: Mapping[str, Any]) -> list[tuple[float, float]]:
    """The nodes' places of a chain, grid or positions topology (node ids in order, as
    scenario/positions.rs lays them out). Raises :class:`Ns3Untranslatable` for the others."""
    kind = topology["kind"]
    if kind == "chain":
        d = float(topology["spacing_m"])
        return [(i * d, 0.0) for i in range(int(topology["hops"]) + 1)]
    if kind == "grid":
        d = float(topology["spacing_m"])
        rows, cols = int(topology["rows"]), int(topology["cols"])
        return [(c * d, r * d) for r in range(rows) for c in range(cols)]
    if kind == "positions":
        return [(float(x), float(y)) for x, y in topology["positions"]]
    raise Ns3Untranslatable("topology.kind", kind, '"chain", "grid" or "positions"')


def static_routes(
    positions: Sequence[tuple[float, float]],
    radio: Mapping[str, Any],
    destinations: Sequence[int],
) -> list[tuple[int, int, int]]:
    """hopsim's static routes (net/routing.rs ``bfs_towards``) towards each destination, as
    (node, destination, next hop): a breadth-first search from the destination over the links
    whose frames reach the decode threshold, neighbours visited in node-id order, each node's
    next hop the neighbour that reached it first."""
    n = len(positions)

    def near(a: int, b: int) -> bool:
        (xa, ya), (xb, yb) = positions[a], positions[b]
        return decodes(radio, math.hypot(xa - xb, ya - yb))

    out = []
    for dst in sorted(set(destinations)):
        seen = {dst}
        queue = [dst]
        for v in queue:  # grows as it goes: a FIFO
            for u in range(n):
                if u not in seen and near(u, v):
                    seen.add(u)
                    out.append((u, dst, v))
                    queue.append(u)
    return out


def aodv_attributes(routing: Mapping[str, Any], constants: str = "hopsim") -> dict[str, str]:
    """ns-3's AODV attributes for hopsim's ``[routing]``: HELLOs as the scenario says, and
    hopsim's constants (``constants = "hopsim"``) or ns-3's defaults (``"ns3"``)."""
    if constants not in ("hopsim", "ns3"):
        raise ValueError(f'constants = {constants!r}: "hopsim" or "ns3"')
    out = dict(HOPSIM_AODV) if constants == "hopsim" else {}
    if constants == "hopsim":
        # Without an expanding ring the first request covers the network (TTL = NET_DIAMETER).
        out["TtlStart"] = "5" if routing["expanding_ring"] else HOPSIM_AODV["NetDiameter"]
    out["EnableHello"] = "true" if routing["hello"] else "false"
    out["HelloInterval"] = f"{float(routing['hello_interval_s'])!r}s"
    out["AllowedHelloLoss"] = str(int(routing["allowed_hello_loss"]))
    return out


#: RFC 3626 willingness values by name, as ns3::olsr::RoutingProtocol's Willingness takes them.
OLSR_WILLINGNESS = {0: "never", 1: "low", 3: "default", 6: "high", 7: "always"}


def olsr_attributes(routing: Mapping[str, Any]) -> dict[str, str]:
    """ns3::olsr::RoutingProtocol attributes for hopsim's OLSR keys (the hold times follow
    the intervals in both: three of them, RFC 3626 section 18)."""
    w = int(routing["olsr_willingness"])
    if w not in OLSR_WILLINGNESS:
        raise Ns3Untranslatable(
            "routing.olsr_willingness", w, "one of ns-3's named values: 0, 1, 3, 6, 7"
        )
    if routing["olsr_link_layer_feedback"]:
        raise Ns3Untranslatable(
            "routing.olsr_link_layer_feedback", True, "false: ns-3's OLSR has no such notification"
        )
    if routing["olsr_spread_start"]:
        raise Ns3Untranslatable(
            "routing.olsr_spread_start",
            True,
            "false: ns-3 starts every node's OLSR (its first HELLO and TC) at 0 s",
        )
    return {
        "HelloInterval": f"{float(routing['olsr_hello_interval_s'])!r}s",
        "TcInterval": f"{float(routing['olsr_tc_interval_s'])!r}s",
        "Willingness": OLSR_WILLINGNESS[w],
    }


def hwmp_attributes(routing: Mapping[str, Any]) -> dict[str, str]:
    """ns3::dot11s::HwmpProtocol attributes for hopsim's HWMP keys. Refuses what ns-3's HWMP
    does not do: a root (translated only as on-demand discovery), path refresh, and failures
    averaged over attempts."""
    if routing["hwmp_root_mode"] != "off":
        raise Ns3Untranslatable(
            "routing.hwmp_root_mode",
            routing["hwmp_root_mode"],
            '"off": the translation builds on-demand HWMP (no root)',
        )
    if float(routing["hwmp_path_refresh_s"]) != 0.0:
        raise Ns3Untranslatable(
            "routing.hwmp_path_refresh_s",
            routing["hwmp_path_refresh_s"],
            "0: ns-3's HWMP never refreshes a path before it expires",
        )
    if routing["hwmp_fail_average"] != "time":
        raise Ns3Untranslatable(
            "routing.hwmp_fail_average",
            routing["hwmp_fail_average"],
            '"time": ns-3 averages a link\'s failures over time (WifiRemoteStationInfo)',
        )
    us = round(float(routing["hwmp_active_path_timeout_s"]) * 1e6)
    return {
        "Dot11MeshHWMPactivePathTimeout": f"{us}us",
        "Dot11MeshHWMPmaxPREQretries": str(int(routing["hwmp_max_preq_retries"])),
        "DoFlag": "true" if routing["hwmp_target_only"] else "false",
        "RfFlag": "true" if routing["hwmp_reply_and_forward"] else "false",
    }


#: ns-3 attribute defaults that make its mesh peerings stand as hopsim's do (they are taken as
#: established at start, docs/models.md 15.2): a peer link is closed by failed frames
#: (PeerLink MaxPacketFailure, as hopsim's link failures), never by lost beacons (ns-3 closes
#: it after MaxBeaconLoss = 2 beacons missed, then sends PERRs and peers anew).
HOPSIM_PEERING = {"ns3::dot11s::PeerLink::MaxBeaconLoss": "65535"}
#: With them, group-addressed management frames (PREQs) contend as voice, as the standard
#: sends management frames (AC_VO) and Linux mac80211 does, where ns-3's mesh MAC queues them
#: as background (mesh_tcp.cc --groupMgmtAsVo); hopsim's routing control goes first too.
HOPSIM_MESH_OPTIONS = {"groupMgmtAsVo": "true"}


def mesh_arguments(s: Mapping[str, Any], run: int, constants: str = "hopsim") -> list[str]:
    """mesh_tcp.cc's command line for the resolved scenario ``s`` and ns-3 run ``run``: AODV
    with ``constants`` (:func:`aodv_attributes`), OLSR, HWMP (with ``constants = "hopsim"``,
    peerings and PREQs' access category as hopsim's: :data:`HOPSIM_PEERING`,
    :data:`HOPSIM_MESH_OPTIONS`; ``"ns3"``: ns-3's), or hopsim's static routes as host
    routes. Raises :class:`Ns3Untranslatable`."""
    positions = positions_m(s["topology"])
    routing = s["routing"]
    protocol = routing["protocol"]
    if protocol not in ("static", "aodv", "olsr", "hwmp"):
        raise Ns3Untranslatable("routing.protocol", protocol, '"static", "aodv", "olsr" or "hwmp"')
    flows = s["flows"]
    tcp = [f for f in flows if f["transport"] != "udp"]
    udp = [f for f in flows if f["transport"] == "udp"]
    for i, f in enumerate(flows):
        if f["transport"] == "udp" and f.get("interval_s") is None:
            raise Ns3Untranslatable(f"flows.{i}.interval_s", None, "a paced UDP flow's interval")
    if udp and tcp and flows.index(udp[0]) < len(tcp):
        raise Ns3Untranslatable(
            "flows", "UDP before TCP", "the TCP flows first, then the UDP ones (ns-3's order)"
        )
    args: dict[str, Any] = {
        "positions": ";".join(f"{x!r},{y!r}" for x, y in positions),
        "flows": ";".join(
            f"{int(f['src'])},{int(f['dst'])},{float(f.get('start_s', 0.0))!r}" for f in tcp
        ),
        "udpFlows": ";".join(
            f"{int(f['src'])},{int(f['dst'])},{float(f.get('start_s', 0.0))!r},"
            f"{float(f['interval_s'])!r},{int(f['payload_bytes'])}"
            for f in udp
        ),
        "routing": protocol,
        "durationS": float(s["duration_s"]),
        "warmupS": float(s["warmup_s"]),
        "run": int(run),
        **wifi_tcp_arguments(s, udp=True),
    }
    # ns-3's command line refuses an empty value: a kind of flow without any is left out.
    args = {k: v for k, v in args.items() if v != ""}
    if protocol == "aodv":
        args["aodv"] = ";".join(f"{k}={v}" for k, v in aodv_attributes(routing, constants).items())
    elif protocol == "olsr":
        args["olsr"] = ";".join(f"{k}={v}" for k, v in olsr_attributes(routing).items())
    elif protocol == "hwmp":
        args["hwmp"] = ";".join(f"{k}={v}" for k, v in hwmp_attributes(routing).items())
        if constants == "hopsim":
            args["defaults"] = ";".join(f"{k}={v}" for k, v in HOPSIM_PEERING.items())
            args.update(HOPSIM_MESH_OPTIONS)
    else:
        ends = [int(f[k]) for f in flows for k in ("src", "dst")]
        rows = static_routes(positions, s["radio"], ends)
        args["routes"] = ";".join(f"{a},{b},{c}" for a, b, c in rows)
    return command_line(args)


def run_ns3(
    resolved: Mapping[str, Any],
    run: int,
    binary: Path | None = None,
    constants: str = "hopsim",
    timeout_s: float = 3600.0,
) -> dict[str, Any]:
    """One ns-3 run: mesh_tcp.cc's JSON line, parsed, with the wall time of the process.

    Raises:
        Ns3Untranslatable, Ns3Missing; RuntimeError when the build or run fails.
    """
    args = mesh_arguments(resolved, run, constants)
    binary = binary or build_mesh_tcp()
    return run_program(binary, args, timeout_s)


def run_hopsim(
    scenario: Mapping[str, Any], seed: int, overrides: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """One hopsim run with ``overrides`` (``{"radio.reception": "sinr"}``, say): the fields
    of :func:`run_ns3`."""
    from ..api import run as hopsim_run

    r = hopsim_run(dict(scenario), dict(overrides or {}), seed=seed)
    return {
        "simulator": "hopsim",
        "flows": [_flow_fields(raw) for raw in r.raw["flows"]],
        "mac_retries": r.totals.mac_retries,
        "retry_limit_drops": r.totals.retry_limit_drops,
        "queue_drops": r.totals.queue_drops,
        "routing_packets": r.raw.get("routing_packets", 0),
        "routing_messages": r.raw.get("routing_messages", []),
        "events": r.raw["engine"]["events"],
        "wall_s": r.wall_time_s,
    }


def _flow_fields(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A hopsim result's flow in the fields of mesh_tcp.cc's (a UDP flow: its packets)."""
    out = {k: raw[k] for k in ("src", "dst", "goodput_kbps")}
    if raw["transport"] == "udp":
        out.update(transport="udp", packets_sent=raw["packets_sent"])
        out["packets_delivered"] = raw["packets_delivered"]
        return out
    out.update({k: raw[k] for k in ("bytes_delivered", "segments_sent", "retransmissions")})
    out.update({k: raw[k] for k in ("fast_retransmits", "timeouts")})
    out["rtt_ms_mean"] = raw["rtt_ms"]["mean"]
    return out


def side_by_side(
    scenario: Mapping[str, Any],
    seeds: Sequence[int],
    hopsim_sides: Mapping[str, Mapping[str, Any]],
    ns3_sides: Sequence[str] = ("hopsim",),
    progress: Callable[[str], None] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Every seed of ``scenario`` in ns-3 (once per AODV ``constants`` in ``ns3_sides``) and in
    hopsim (once per named set of overrides in ``hopsim_sides``): runs by side name."""
    from ..api import validate

    resolved = validate(dict(scenario))
    binary = build_mesh_tcp()
    out: dict[str, list[dict[str, Any]]] = {}
    for seed in seeds:
        for constants in ns3_sides:
            name = "ns-3" if constants == "hopsim" else f"ns-3/{constants} constants"
            out.setdefault(name, []).append(run_ns3(resolved, seed, binary, constants))
        for name, overrides in hopsim_sides.items():
            out.setdefault(f"hopsim/{name}", []).append(run_hopsim(scenario, seed, overrides))
        if progress:
            progress(
                f"seed {seed}: " + ", ".join(f"{k} {total_kbps(v[-1]):.0f}" for k, v in out.items())
            )
    return out


def total_kbps(run: Mapping[str, Any]) -> float:
    """A run's goodput summed over its flows."""
    return sum(f["goodput_kbps"] for f in run["flows"])


def summaries(runs: Sequence[Mapping[str, Any]]) -> dict[str, Summary]:
    """Total goodput, each flow's, and the totals' counters, over ``runs``."""
    out = {"total": summarize_values([total_kbps(r) for r in runs])}
    for i in range(len(runs[0]["flows"])):
        out[f"flow {i}"] = summarize_values([r["flows"][i]["goodput_kbps"] for r in runs])
    for key in ("retry_limit_drops", "routing_packets", "queue_drops", "mac_retries"):
        out[key] = summarize_values([float(r[key]) for r in runs])
    out["timeouts"] = summarize_values(
        [float(sum(f["timeouts"] for f in r["flows"])) for r in runs]
    )
    for kind in message_kinds([runs]):
        out[kind] = summarize_values([float(messages(r, kind)) for r in runs])
    return out


def messages(run: Mapping[str, Any], kind: str) -> int:
    """Routing messages of ``kind`` (``olsr_hello``, ...) a run sent (0 if none)."""
    return sum(m["messages"] for m in run.get("routing_messages", []) if m["kind"] == kind)


def message_kinds(sides: Iterable[Sequence[Mapping[str, Any]]]) -> list[str]:
    """Every routing message kind any run of ``sides`` counted, sorted."""
    return sorted(
        {m["kind"] for runs in sides for r in runs for m in r.get("routing_messages", [])}
    )


def markdown_table(report: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
    """One row per side: total and per-flow goodput (mean ± 95% half-width, kbit/s), the
    total's difference from ns-3's, and the counters' means."""
    sums = {name: summaries(runs) for name, runs in report.items()}
    first = next(iter(report.values()))[0]
    flows = [f"{f['src']}→{f['dst']}" for f in first["flows"]]
    kinds = message_kinds(report.values())
    head = ["side", "total", "vs ns-3", *flows, "timeouts", "retry-limit drops", "routing pkts"]
    head += [f"{k} msgs" for k in kinds]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    base = sums.get("ns-3", {}).get("total")
    for name, s in sums.items():
        diff = "—"
        if base is not None and base.mean and name != "ns-3":
            diff = f"{(s['total'].mean - base.mean) / base.mean:+.0%}"
        cells = [name, _cell(s["total"]), diff]
        cells += [_cell(s[f"flow {i}"]) for i in range(len(flows))]
        cells += [f"{s[k].mean:.0f}" for k in ("timeouts", "retry_limit_drops", "routing_packets")]
        cells += [f"{s[k].mean:.0f}" if k in s else "—" for k in kinds]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def _cell(s: Summary) -> str:
    return f"{s.mean:.0f}" if s.n < 2 else f"{s.mean:.0f} ± {s.half_width:.0f}"


def load_scenario(path: Path, quick: bool = False) -> tuple[dict[str, Any], int]:
    """A scenario file or a crosscheck set without swept keys (``sweeps/crosscheck/*.toml``,
    ``[quick]`` applied when ``quick``): its scenario and replications."""
    from .compare import load_crosscheck

    spec = load_crosscheck(path, quick=quick)
    if spec.swept_keys:
        raise ScenarioError(
            f"{path}: sweeps {', '.join(spec.swept_keys)}; the ns-3 side by side takes one "
            "scenario (a set without [sweep])"
        )
    return dict(spec.base), spec.replications


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m hopsim.crosscheck.ns3mesh",
        description="hopsim's TCP flows over a grid (or any static nodes) beside ns-3's.",
    )
    p.add_argument("scenario", type=Path, help="a hopsim scenario file or crosscheck set")
    p.add_argument(
        "--seeds",
        type=seed_count,
        help="replications, seeds 1..N (default: the set's, else 1)",
    )
    p.add_argument("--quick", action="store_true", help="a set's [quick] replications")
    p.add_argument(
        "--reception",
        nargs="+",
        default=["capture", "sinr"],
        help="hopsim's radio.reception modes to run (ns-3's PHY is SINR-based)",
    )
    p.add_argument(
        "--ns3-constants",
        nargs="+",
        default=["hopsim"],
        choices=["hopsim", "ns3"],
        help="AODV constants in ns-3: hopsim's (models.md 10) and/or ns-3's defaults; HWMP: "
        "peerings never closed by lost beacons and PREQs sent as voice (as hopsim's) and/or "
        "ns-3's own",
    )
    p.add_argument("--json", type=output_file, help="write every run here")
    a = p.parse_args(argv)
    try:
        scenario, replications = load_scenario(a.scenario, a.quick)
        seeds = a.seeds if a.seeds is not None else replications
        report = side_by_side(
            scenario,
            list(range(1, seeds + 1)),
            {rec: {"radio.reception": rec} for rec in a.reception},
            a.ns3_constants,
            progress=lambda s: print(s, file=sys.stderr),
        )
    except (Ns3Missing, ScenarioError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except RuntimeError as e:  # the build or an ns-3 run failed (its last lines quoted)
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(markdown_table(report), end="")
    if a.json:
        try:
            a.json.write_text(json.dumps(report, indent=1) + "\n")
        except OSError as e:
            print(f"error: --json {a.json}: cannot write it ({e.strerror})", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

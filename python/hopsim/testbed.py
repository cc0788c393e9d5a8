"""Testbed helpers: measure a topology's links with ETX probes, compute its ETX routes, and
pick sender/receiver pairs whose route has a given number of hops.

A testbed study (Koutsonikolas et al., WiNTECH'07, seed 003) chooses its flows among the
pairs of a fixed deployment: routes are the shortest-ETX paths that OLSR-ETX settled on
before the runs (S003:83), and only pairs that carried non-zero TCP throughput were kept
(S003:160, S003:195). Here the deployment is a ``[topology] kind = "testbed"`` scenario with
``[routing] protocol = "etx"``: :func:`measure_links` runs its probing phase alone,
:func:`etx_routes` recomputes the routes the core would freeze (same Dijkstra, same ties),
and :func:`pick_pairs` keeps the pairs at the wanted hop count that a short TCP run shows to
be usable.
"""

from __future__ import annotations

import copy
import functools
import heapq
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from .api import run

__all__ = ["Pair", "etx_routes", "measure_links", "pick_pairs", "probe_scenario"]

#: (src, dst, path): a sender/receiver pair and its ETX route, node ids from src to dst.
Pair = tuple[int, int, list[int]]

# The core's tolerance when two path costs count as equal (crates/hopsim-core/src/net/etx.rs).
_EPS = 1e-12


def _warmup_s(scenario: Mapping[str, Any]) -> float:
    return float(scenario.get("routing", {}).get("etx_warmup_s", 20.0))


def probe_scenario(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """``scenario`` as a probing run: ETX routing, no flows, ending just after the routes are
    frozen (at ``routing.etx_warmup_s``)."""
    s = copy.deepcopy(dict(scenario))
    s.setdefault("routing", {})["protocol"] = "etx"
    s["flows"] = []
    s.pop("traffic", None)
    s["duration_s"] = _warmup_s(s) + 0.5
    s["warmup_s"] = 0.0
    return s


def measure_links(scenario: Mapping[str, Any], seed: int) -> list[dict[str, Any]]:
    """The links the ETX probes of ``scenario`` measured with run seed ``seed``: a list of
    ``{"from", "to", "delivery", "reverse_delivery", "etx"}`` (links heard both ways)."""
    result = run(probe_scenario(scenario), seed=seed)
    links: list[dict[str, Any]] = result.raw["etx_links"]
    return links


def _towards(dst: int, n: int, etx: Mapping[tuple[int, int], float]) -> list[int | None]:
    """Next hops towards ``dst`` from every node, as the core computes them: Dijkstra from
    the destination over the reversed links, a min-heap on (cost, hops, node id); a node's
    next hop changes only for a cost lower by more than 1e-12, or an equal cost with fewer
    hops, and neighbours are relaxed in increasing id."""
    into: dict[int, list[tuple[int, float]]] = {}
    for (u, v), w in etx.items():
        into.setdefault(v, []).append((u, w))
    for lst in into.values():
        lst.sort()
    cost = [float("inf")] * n
    hops = [n + 1] * n
    nxt: list[int | None] = [None] * n
    done = [False] * n
    cost[dst], hops[dst], nxt[dst] = 0.0, 0, dst
    heap = [(0.0, 0, dst)]
    while heap:
        c, h, v = heapq.heappop(heap)
        if done[v]:
            continue
        done[v] = True
        for u, w in into.get(v, []):
            if u == v or done[u]:
                continue
            cu, hu = c + w, h + 1
            if cu < cost[u] - _EPS or (abs(cu - cost[u]) <= _EPS and hu < hops[u]):
                cost[u], hops[u], nxt[u] = cu, hu, v
                heapq.heappush(heap, (cu, hu, u))
    return nxt


def etx_routes(
    links: Sequence[Mapping[str, Any]], n: int
) -> dict[tuple[int, int], tuple[list[int], float]]:
    """Shortest-ETX routes between every ordered pair of ``n`` nodes over measured ``links``
    (as :func:`measure_links` returns them): ``(src, dst) -> (path, etx)`` with ``path`` the
    node ids from src to dst and ``etx`` the sum of the links' ETX along it. Pairs without a
    route are left out. Ties are broken as in the core, so the paths are the ones a run with
    these measurements freezes."""
    etx = {(int(lk["from"]), int(lk["to"])): float(lk["etx"]) for lk in links}
    routes: dict[tuple[int, int], tuple[list[int], float]] = {}
    for dst in range(n):
        nxt = _towards(dst, n, etx)
        for src in range(n):
            if src == dst or nxt[src] is None:
                continue
            path, total = [src], 0.0
            while path[-1] != dst:
                hop = nxt[path[-1]]
                assert hop is not None  # every node with a next hop has one all the way
                total += etx[(path[-1], hop)]
                path.append(hop)
            routes[(src, dst)] = (path, total)
    return routes


def _nodes(scenario: Mapping[str, Any]) -> int:
    return int(scenario["topology"]["nodes"])


Routes = dict[tuple[int, int], tuple[list[int], float]]


@functools.lru_cache(maxsize=64)
def _routes_cached(probe_json: str, seed: int, n: int) -> Routes:
    return etx_routes(measure_links(json.loads(probe_json), seed), n)


def _routes(scenario: Mapping[str, Any], seed: int) -> Routes:
    """ETX routes measured with run seed ``seed`` (cached: several hop counts share them;
    callers must not change them)."""
    probe = json.dumps(probe_scenario(scenario), sort_keys=True)
    return _routes_cached(probe, seed, _nodes(scenario))


def pick_pairs(
    scenario: Mapping[str, Any],
    hops: int,
    count: int,
    seed: int,
    min_goodput_kbps: float = 10.0,
    *,
    stable_seeds: Sequence[int] = (),
    check_s: float = 10.0,
    max_checks: int = 20,
) -> list[Pair]:
    """Up to ``count`` sender/receiver pairs of ``scenario``'s topology whose ETX route has
    exactly ``hops`` hops and carries TCP traffic.

    The links are measured with run seed ``seed``; a candidate's route must come out the
    same when the probes run with each of ``stable_seeds`` too (pass a sweep's replication
    seeds, so that every replication freezes the picked path: the study measured on routes
    that had "stabilized", S003:83). Candidates are tried in an order shuffled from ``seed``,
    a pair's reverse is skipped once the pair is picked. Each is checked with one TCP bulk
    flow of ``check_s`` seconds after the ETX warm-up under ``scenario``'s MAC and TCP
    settings (its first flow's too, if it has one), with run seed ``seed``: it is kept if the
    run froze the predicted path and its goodput reached ``min_goodput_kbps`` (the study kept
    pairs "which gave non-zero throughput", S003:160). At most ``max_checks`` candidates are
    run. Deterministic for a scenario and seeds.
    """
    routes = _routes(scenario, seed)
    others = [_routes(scenario, s) for s in stable_seeds if s != seed]
    candidates = sorted(
        (s, d)
        for (s, d), (path, _) in routes.items()
        if len(path) - 1 == hops and all(r.get((s, d), ([], 0.0))[0] == path for r in others)
    )
    random.Random(seed).shuffle(candidates)
    warm = _warmup_s(scenario)
    flow = dict(scenario["flows"][0]) if scenario.get("flows") else {}
    flow.pop("interval_s", None)  # a UDP flow's; the check flow is TCP
    picked: list[Pair] = []
    checks = 0
    for src, dst in candidates:
        if len(picked) >= count or checks >= max_checks:
            break
        if any((dst, src) == (p[0], p[1]) for p in picked):
            continue
        checks += 1
        s = copy.deepcopy(dict(scenario))
        s["flows"] = [
            {
                **flow,
                "src": src,
                "dst": dst,
                "transport": "tcp",
                "start_s": warm,
                "stop_s": warm + check_s,
            }
        ]
        s.pop("traffic", None)
        s["duration_s"], s["warmup_s"] = warm + check_s, warm
        f = run(s, seed=seed).raw["flows"][0]
        path = routes[(src, dst)][0]
        if f.get("path") == path and f["goodput_kbps"] >= min_goodput_kbps:
            picked.append((src, dst, list(path)))
    return picked

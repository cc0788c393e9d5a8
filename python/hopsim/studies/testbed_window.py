"""Koutsonikolas, Dyaberi, Garimella, Fahmy, Hu (seed 003): TCP-SACK on the 32-node MAP
802.11b mesh testbed; maximum window 1..6 MSS or unclamped x RTS/CTS on/off x 2, 5.5 Mbit/s
or auto rate, for flows of 1..4 ETX hops (docs/research/paper-values.md section 5,
radio-sources.md section 6).

Two sweeps, built by functions because the flows depend on measured routes:
``testbed-window`` runs the paper's grid on pairs picked with :func:`hopsim.testbed.pick_pairs`
(one pair per hop count per topology seed), ``testbed-survey`` runs random ETX pairs of each
hop count under the cards' defaults, for the share of near-zero paths. Besides the figures,
``table3.md`` / ``table3.csv`` set our recommendation table beside the paper's Table 3 and
``pairs.csv`` lists the flows.
"""

from __future__ import annotations

import copy
import csv
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from statistics import median
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from .. import _core
from ..scenario import RTS_NEVER_BYTES
from ..sweeps.spec import derive_seed
from ..testbed import etx_routes, measure_links, pick_pairs
from .common import SWEEP_DIR, Claim, Study, StudyContext, Verdict, check, pct

HOPS = (1, 2, 3, 4)
RATES: tuple[float | str, ...] = (2.0, 5.5, "auto")
WINDOWS = (1, 2, 3, 4, 5, 6, 0)  # max CWND in MSS; 0 = unclamped (S003:98)
ON, OFF = 0, RTS_NEVER_BYTES  # rts_threshold_bytes: RTS/CTS for every frame / never
TOL = 0.05  # a pair "prefers" an RTS/CTS setting when its best goodput is > 5% higher
# Table 3 (S003:216-225): hops -> rate -> (RTS/CTS, CWND); "on/off, 1/4 MSS" = 1 MSS with
# RTS/CTS on, 4 MSS with it off (paper-values.md 5.2).
PAPER_T3: dict[int, dict[float | str, tuple[str, str]]] = {
    1: {2.0: ("off", "2"), 5.5: ("off", "2"), "auto": ("off", "2")},
    2: {2.0: ("on/off", "1/2"), 5.5: ("off", "3"), "auto": ("off", "2")},
    3: {2.0: ("on/off", "1/4"), 5.5: ("on", "1"), "auto": ("on/off", "1/5")},
    4: {2.0: ("on/off", "1/6"), 5.5: ("on", "6"), "auto": ("on", "1")},
}
SWEEP_FILE = SWEEP_DIR / "testbed-window.toml"
ZIP_KEYS = ("topology.seed", "flows.0.src", "flows.0.dst")
NEAR_ZERO_KBPS = 50.0  # our reading of the survey's "close to zero" (S003:160)


def _doc(quick: bool, links: str = "") -> tuple[dict[str, Any], int]:
    """The sweep file and its replications in this mode; with ``links``, the name of a set of
    fitted links each link draws its losses from, instead of per-frame fading."""
    with SWEEP_FILE.open("rb") as fh:
        doc = tomllib.load(fh)
    if links:
        doc["scenario"]["radio"].update(fading="none", gilbert_elliott={"drawn_from": links})
    reps = doc.get("quick", {}).get("replications", 1) if quick else doc["replications"]
    return doc, reps


def _topologies(quick: bool) -> list[int]:
    return [1, 2] if quick else [1, 2, 3, 4]


def _base(doc: dict[str, Any], topology_seed: int) -> dict[str, Any]:
    s = copy.deepcopy(doc["scenario"])
    s["topology"]["seed"] = topology_seed
    return s


@lru_cache(maxsize=4)
def picked_pairs(
    quick: bool, links: str = ""
) -> tuple[tuple[int, int, int, int, tuple[int, ...]], ...]:
    """(topology seed, hops, src, dst, path) of the window sweep's flows: one pair per hop
    count per topology seed whose route is the same in every replication and carries TCP
    under the cards' defaults (auto rate, RTS/CTS off, unclamped)."""
    doc, reps = _doc(quick, links)
    seeds = [derive_seed(doc["seed"], r) for r in range(reps)]
    out = []
    for topo in _topologies(quick):
        for h in HOPS:
            for src, dst, path in pick_pairs(_base(doc, topo), h, 1, seeds[0], stable_seeds=seeds):
                out.append((topo, h, src, dst, tuple(path)))
    return tuple(out)


def window_sweep(quick: bool, links: str = "") -> dict[str, Any]:
    """The sweep file with the picked pairs as a zip group (20 s after the ETX warm-up)."""
    doc, _ = _doc(quick, links)
    rows = [(topo, src, dst) for topo, _, src, dst, _ in picked_pairs(quick, links)]
    doc["sweep"]["zip"] = dict(zip(ZIP_KEYS, map(list, zip(*rows, strict=True)), strict=True))
    return doc


def survey_sweep(quick: bool, links: str = "") -> dict[str, Any]:
    """Random ETX pairs per hop count under the cards' defaults (auto rate, RTS/CTS off,
    unclamped), one run with the seed the routes were measured with (so the hops hold)."""
    doc, _ = _doc(quick, links)
    seed, n = derive_seed(doc["seed"], 0), doc["scenario"]["topology"]["nodes"]
    rows: list[tuple[int, int, int]] = []
    for topo in _topologies(quick):
        routes = etx_routes(measure_links(_base(doc, topo), seed), n)
        rng = random.Random(topo)
        for h in HOPS:
            pairs = sorted(k for k, (path, _) in routes.items() if len(path) - 1 == h)
            rows += [(topo, *k) for k in rng.sample(pairs, min(4 if quick else 8, len(pairs)))]
    doc.update(name="testbed-survey", replications=1, metrics=["goodput_kbps", "hops"])
    doc["sweep"] = {"zip": dict(zip(ZIP_KEYS, map(list, zip(*rows, strict=True)), strict=True))}
    doc.pop("quick", None)
    return doc


Key = tuple[int, int, int]  # (topology seed, src, dst): one flow, a "topology" of the paper


def window_of(params: dict[str, Any]) -> int:
    """The max window of a point: the cwnd clamp, or (a sweep of the receive window) the
    receiver's window, whose values above the largest of WINDOWS stand for "unclamped" (0)."""
    if "tcp.max_window" in params:
        return int(params["tcp.max_window"])
    w = int(params["tcp.receiver_window"])
    return 0 if w > max(WINDOWS) else w


@dataclass
class Grid:
    """The window sweep by pair: point means per (pair, rate, RTS, window), each pair's hop
    count (its runs' frozen routes), and what is read from the result documents."""

    cells: dict[tuple[Key, Any, int, int], dict[str, float | None]] = field(default_factory=dict)
    hops: dict[Key, int] = field(default_factory=dict)
    run_hops: dict[Key, list[float]] = field(default_factory=dict)
    paths: dict[Key, tuple[int, ...]] = field(default_factory=dict)
    eleven: dict[str, float] = field(default_factory=dict)

    @classmethod
    def load(cls, ctx: StudyContext, sweep: str) -> Grid:
        g = cls()
        eleven: dict[str, list[float]] = {}
        for p in ctx.points(sweep):
            pr = p.params
            key = (pr["topology.seed"], pr["flows.0.src"], pr["flows.0.dst"])
            cell = (key, pr["mac.data_rate_mbps"], pr["mac.rts_threshold_bytes"])
            stats = {m: (None if s is None else s.mean) for m, s in p.stats.items()}
            g.cells[(*cell, window_of(pr))] = stats
        for run in ctx.store.runs(sweep):
            pr = run.params
            key = (pr["topology.seed"], pr["flows.0.src"], pr["flows.0.dst"])
            if run.metrics.get("hops") is not None:
                g.run_hops.setdefault(key, []).append(float(run.metrics["hops"]))
            if pr["mac.data_rate_mbps"] == "auto" and pr["mac.rts_threshold_bytes"] == OFF:
                doc = ctx.store.result(run.run_key)
                path = tuple(doc["flows"][0].get("path") or ())
                g.paths.setdefault(key, path)
                if len(path) == 2:  # the sender's ACKed DATA frames at 11 Mbit/s (S003:127)
                    stats = [s for s in doc["nodes"][path[0]]["rate_stats"] if s["dst"] == path[1]]
                    acked = sum(s["acked"] for s in stats)
                    at11 = sum(s["acked"] for s in stats if s["rate_mbps"] == 11.0)
                    if acked:
                        eleven.setdefault(f"{key[1]}->{key[2]} (topology {key[0]})", []).append(
                            at11 / acked
                        )
        g.hops = {k: round(median(v)) for k, v in g.run_hops.items()}
        g.eleven = {k: sum(v) / len(v) for k, v in eleven.items()}
        return g

    def hop_agreement(self, key: Key) -> str:
        runs = self.run_hops.get(key, [])
        return f"{sum(round(h) == self.hops[key] for h in runs)}/{len(runs)}"

    def route_agreement(self) -> tuple[int, int]:
        runs = [(k, h) for k, v in self.run_hops.items() for h in v]
        return sum(round(h) == self.hops[k] for k, h in runs), len(runs)

    def values(self, metric: str, h: int, rate: Any, rts: int | None, w: int | None) -> list:
        """Point means of the h-hop pairs; None in rate/rts/w: every value of it."""
        want = (rate, rts, w)
        return [
            s[metric]
            for (key, *cell), s in self.cells.items()
            if self.hops.get(key) == h and s.get(metric) is not None
            if all(x is None or x == y for x, y in zip(want, cell, strict=True))
        ]

    def mean(self, metric: str, h: int, rate: Any, rts: int | None, w: int | None) -> float | None:
        v = self.values(metric, h, rate, rts, w)
        return sum(v) / len(v) if v else None

    def curve(self, h: int, rate: Any, rts: int) -> dict[int, float]:
        c = {w: self.mean("goodput_kbps", h, rate, rts, w) for w in WINDOWS}
        return {w: v for w, v in c.items() if v is not None}

    def spread(self, h: int, rate: Any, rts: int) -> float | None:
        c = list(self.curve(h, rate, rts).values())
        return (max(c) - min(c)) / max(c) if c and max(c) > 0 else None

    def best(self, h: int, rate: Any, rts: int) -> int | None:
        """The window with the highest mean goodput; ties go to the smaller (unclamped last)."""
        c = self.curve(h, rate, rts)
        return min(c, key=lambda w: (-c[w], w or 99)) if c else None

    def top(self, h: int, rate: Any, rts: int | None) -> float | None:
        """The highest mean goodput over windows (and over rates / RTS settings if None)."""
        tops = [
            max(c.values())
            for r in RATES
            for t in (ON, OFF)
            if rate in (None, r) and rts in (None, t) and (c := self.curve(h, r, t))
        ]
        return max(tops) if tops else None

    def prefs(self, hs: Sequence[int], rate: Any = None) -> tuple[int, int, int]:
        """Per pair and rate, its best goodput over windows with RTS/CTS off vs on: how many
        are (off better, on better, within TOL)."""
        n = [0, 0, 0]
        for key in (k for k, h in self.hops.items() if h in hs):
            for r in RATES if rate is None else (rate,):
                off, on = (
                    max(
                        (
                            s["goodput_kbps"] or 0.0
                            for (k, rr, t, _), s in self.cells.items()
                            if (k, rr, t) == (key, r, x)
                        ),
                        default=0.0,
                    )
                    for x in (OFF, ON)
                )
                n[0 if off > on * (1 + TOL) else 1 if on > off * (1 + TOL) else 2] += 1
        return n[0], n[1], n[2]


def _w(window: int | None) -> str:
    return "n/a" if window is None else ("unclamped" if window == 0 else str(window))


def table3(g: Grid) -> dict[int, dict[Any, tuple[str, str]]]:
    """Our Table 3: per hop count and rate, RTS/CTS on, off, or on/off (helps some pairs,
    harms others) and the best max window for it (on/off: with RTS/CTS on / off)."""
    out: dict[int, dict[Any, tuple[str, str]]] = {}
    for h in HOPS:
        out[h] = {}
        for r in RATES:
            off_better, on_better, _ = g.prefs((h,), r)
            if off_better and on_better:
                out[h][r] = ("on/off", f"{_w(g.best(h, r, ON))}/{_w(g.best(h, r, OFF))}")
                continue
            better_on = (g.top(h, r, ON) or 0) > (g.top(h, r, OFF) or 0)  # all within TOL
            rts = ON if on_better or (not off_better and better_on) else OFF
            out[h][r] = ("on" if rts == ON else "off", _w(g.best(h, r, rts)))
    return out


def write_table3(ctx: StudyContext, ours: dict[int, dict[Any, tuple[str, str]]]) -> None:
    head = ["hops", "source"] + [
        f"{r} {c}" for r in ("2 Mbps", "5.5 Mbps", "auto") for c in ("RTS/CTS", "CWND (MSS)")
    ]
    rows = [
        [h, src] + [x for r in RATES for x in tab[h][r]]
        for h in HOPS
        for src, tab in (("paper", PAPER_T3), ("hopsim", ours))
    ]
    with (ctx.out_dir / "table3.csv").open("w", newline="") as fh:
        csv.writer(fh).writerows([head, *rows])
    lines = [
        "# Table 3 (S003:216-225) beside ours",
        "",
        "on/off: RTS/CTS helped some pairs but not others (by more than 5% of the best "
        "goodput over windows); its CWND cell is then the best window with RTS/CTS on / "
        "off. Best window: the highest mean goodput over the pairs of the hop count.",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    lines += ["| " + " | ".join(map(str, r)) + " |" for r in rows]
    (ctx.out_dir / "table3.md").write_text("\n".join(lines) + "\n")


def _pairs_csv(ctx: StudyContext, g: Grid) -> None:
    with (ctx.out_dir / "pairs.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["topology_seed", "hops", "src", "dst", "path", "runs_with_these_hops"])
        for key, h in sorted(g.hops.items(), key=lambda kv: (kv[1], kv[0])):
            path = " ".join(map(str, g.paths.get(key, ())))
            w.writerow([key[0], h, key[1], key[2], path, g.hop_agreement(key)])


def _fmt(values: Sequence[tuple[Any, float | None]], spec: str = "+.0%") -> str:
    return ", ".join(f"{k}: {'n/a' if v is None else format(v, spec)}" for k, v in values)


def _pp(ours: float | None, paper: float) -> str:
    """A gain beside the paper's, in percentage points (relative error is meaningless near 0)."""
    if ours is None:
        return "n/a"
    return "as the paper" if abs(ours - paper) <= 0.05 else f"{(ours - paper) * 100:+.0f} points"


def analyse(
    ctx: StudyContext, window: str = "testbed-window", survey_name: str = "testbed-survey"
) -> list[Claim]:
    """The claims, from the sweeps called `window` and `survey_name`."""
    from .testbed_window_figures import rate_figure, survey_figure  # late: they import this

    g = Grid.load(ctx, window)
    survey = ctx.points(survey_name)
    for rate in RATES:
        rate_figure(ctx, g, rate)
    survey_figure(ctx, survey, NEAR_ZERO_KBPS)
    ours = table3(g)
    write_table3(ctx, ours)
    _pairs_csv(ctx, g)
    m = g.mean
    cases = [(f"{r}/{'on' if t == ON else 'off'}", r, t) for r in RATES for t in (ON, OFF)]
    claims: list[Claim] = []

    def c(claim: str, paper: str, ours: str, ok: bool, why: str, src: str) -> None:
        claims.append(Claim(claim, paper, ours, check(ok, why), src))

    # fmt: off
    sp1 = [(k, g.spread(1, r, t)) for k, r, t in cases]
    top1 = max((v for _, v in sp1 if v is not None), default=math.nan)
    c("1 hop: throughput spread over max windows 1..6/unclamped, (max-min)/max (rate/RTS)",
      "< 5%, no clear winner", _fmt(sp1, ".0%"), top1 < 0.05, f"up to {top1:.0%}", "S003:129")
    rtt1 = [(_w(w), m("rtt_ms.mean", 1, None, None, w)) for w in WINDOWS]
    small = [w for w, v in rtt1 if v is not None and v < 20.0]
    c("1 hop: RTT below 20 ms for every max window (mean over rates, RTS, pairs; ms)",
      "< 20 ms", _fmt(rtt1, ".0f"), len(small) == len(WINDOWS),
      f"only windows {', '.join(small) or 'none'}; larger ones queue at the sender", "S003:129")
    gains = [(r, pct(m("goodput_kbps", 1, r, OFF, None), m("goodput_kbps", 1, r, ON, None)))
             for r in RATES]
    v = [x if x is not None else -1.0 for _, x in gains]
    sizes = " / ".join(_pp(x, p) for (_, x), p in zip(gains, (0.04, 0.12, 0.23), strict=True))
    ok = min(v) > 0 and min(v[1:]) > v[0]
    claims.append(Claim(
        "1 hop: disabling RTS/CTS raises throughput, most at the higher rates (off vs on, "
        "mean over windows; 2 / 5.5 / auto)", "+4% / +12% / +23%", _fmt(gains),
        check(ok, "not positive, or not larger at 5.5 and auto")
        + ("" if "points" not in sizes else f"; the sizes differ: {sizes}"), "S003:122"))
    ratio = [(k, _div(m("goodput_kbps", 2, r, t, None), m("goodput_kbps", 1, r, t, None)))
             for k, r, t in cases]
    c("2 hops vs 1 hop: throughput ratio (mean over windows and pairs; rate/RTS)",
      "< 0.5 in all 6 cases", _fmt(ratio, ".2f"),
      all(x is not None and x < 0.5 for _, x in ratio), "some ratio >= 0.5", "S003:143")
    auto = [(h, pct(m("goodput_kbps", h, "auto", None, None),
                    m("goodput_kbps", h, 5.5, None, None))) for h in HOPS]
    bad = [str(h) for h, x in auto if x is None or (x > 0) != (h != 3)]
    c("Auto rate vs fixed 5.5 Mbit/s (mean over windows, RTS, pairs), 1 / 2 / 3 / 4 hops",
      "higher / higher / lower / higher", _fmt(auto), not bad,
      f"other sign at {', '.join(bad)} hops", "S003:127, 143, 170, 197")
    sp2 = [(k, g.spread(2, r, t)) for k, r, t in cases]
    c("2 hops: the window matters: spread over max windows (rate/RTS)",
      "18/17/27% (on), 8/12/25% (off)", _fmt(sp2, ".0%"),
      all(x is not None and x >= 0.08 for _, x in sp2), "a spread below 8%, the paper's least",
      "S003:154")
    best_on = [(f"h={h} {r}", g.best(h, r, ON)) for h in (2, 3, 4) for r in RATES]
    ones = sum(b == 1 for _, b in best_on)
    c("RTS/CTS on: the best max window is 1 MSS (2-4 hops x 3 rates)",
      "1 MSS in 8 of 9 cells", ", ".join(f"{k}: {_w(b)}" for k, b in best_on),
      ones > len(best_on) / 2, f"1 MSS in {ones} of {len(best_on)} cells", "S003:229")
    kk = [(f"h={h} {r}", g.best(h, r, OFF), math.floor(_core.KAWADIA_SEGMENTS_PER_HOP * h + 0.5))
          for h in HOPS for r in RATES]
    hits = sum(b == k for _, b, k in kk)
    c("RTS/CTS off: 3/2 h MSS (2, 3, 5, 6; Kawadia & Kumar) is the best max window",
      "in most, not all, cases", ", ".join(f"{k}: {_w(b)}" for k, b, _ in kk),
      hits > len(kk) / 2, f"{hits} of {len(kk)} cells", "S003:229")
    g3 = pct(m("goodput_kbps", 3, 5.5, ON, None), m("goodput_kbps", 3, 5.5, OFF, None))
    g4 = pct(g.top(4, 5.5, ON), g.top(4, 5.5, OFF))
    c("5.5 Mbit/s: RTS/CTS on vs off at 3 hops (average) / 4 hops (best average)",
      "+24% / +27%", f"{_fmt([(3, g3), (4, g4)])} ({_pp(g3, 0.24)} / {_pp(g4, 0.27)})",
      (g3 or -1) > 0 and (g4 or -1) > 0, "RTS/CTS does not help", "S003:172, S003:199")
    off_b, on_b, same = g.prefs((3, 4))
    c("3-4 hops: disabling RTS/CTS helps some pairs and harms others (pair x rate, each at "
      "its best window)", "helps some, harms others",
      f"off better {off_b}, on better {on_b}, within 5% {same}", off_b > 0 and on_b > 0,
      "one-sided", "S003:58, S003:172")
    rtt = [(h, pct(m("rtt_ms.mean", h, None, ON, None), m("rtt_ms.mean", h, None, OFF, None)))
           for h in HOPS]
    c("RTT with RTS/CTS on vs off (mean over rates, windows, pairs), 1 / 2 / 3 / 4 hops",
      "higher / higher / lower / lower", _fmt(rtt),
      all(x is not None and (x > 0) == (h <= 2) for h, x in rtt), "other signs",
      "S003:58, S003:229")
    low = [(h, g.top(h, None, None)) for h in (3, 4)]
    c("3-4 hops: highest average throughput of any rate/RTS/window (kbit/s)",
      "< 300 (3 hops), <= 390 (4 hops)", _fmt(low, ".0f"),
      all(x is not None and x <= cap for (_, x), cap in zip(low, (300, 390), strict=True)),
      "above the paper's", "S003:170, S003:197")
    near = [(h, _share([p.stats["goodput_kbps"].mean for p in survey
                        if round(p.stats["hops"].mean) == h])) for h in HOPS]
    tail = [x for h, x in near if h >= 3 and x is not None]
    c(f"Random ETX pairs under the cards' defaults: share below {NEAR_ZERO_KBPS:.0f} kbit/s, "
      "1 / 2 / 3 / 4 hops", "most 3-4-hop paths close to zero", _fmt(near, ".0%"),
      bool(tail) and min(tail) > 0.5, "a minority", "S003:160, S003:195")
    c("Auto rate sends at 11 Mbit/s on some 1-hop links (share of ACKed DATA at 11)",
      "yes (23->1, 5->28)", ", ".join(f"{k}: {x:.0%}" for k, x in g.eleven.items()) or "n/a",
      any(x > 0.5 for x in g.eleven.values()), "no 1-hop pair mostly at 11", "S003:127")
    # fmt: on
    claims += _table_claims(g, ours)
    agree = g.route_agreement()
    c(
        "Routes frozen alike in every run of a pair (hop count as picked)",
        "routes stabilised, then frozen",
        f"{agree[0]} of {agree[1]} runs",
        agree[0] == agree[1],
        "routes moved",
        "S003:83",
    )
    return claims


def _div(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None or b == 0 else a / b


def _share(values: Sequence[float]) -> float | None:
    return sum(v < NEAR_ZERO_KBPS for v in values) / len(values) if values else None


def _table_claims(g: Grid, ours: dict[int, dict[Any, tuple[str, str]]]) -> list[Claim]:
    out = []
    for h in HOPS:
        diff = [str(r) for r in RATES if ours[h][r] != PAPER_T3[h][r]]
        row = " / ".join
        out.append(
            Claim(
                f"Table 3, {h} hop{'s' * (h > 1)}: RTS/CTS and CWND (MSS) at 2 / 5.5 / auto",
                row(" ".join(PAPER_T3[h][r]) for r in RATES),
                row(" ".join(ours[h][r]) for r in RATES),
                Verdict.DIFFERS.says(f" in {len(diff)} of 3 cells ({', '.join(diff)})")
                if diff
                else Verdict.HOLDS.says(),
                "S003:216-225",
            )
        )
    # The window column alone: our best window under the paper's RTS/CTS setting(s).
    exact = near = n = 0
    for h in HOPS:
        for r in RATES:
            rts, cwnd = PAPER_T3[h][r]
            for setting, want in zip(
                {"on": [ON], "off": [OFF], "on/off": [ON, OFF]}[rts], cwnd.split("/"), strict=True
            ):
                b, n = g.best(h, r, setting), n + 1
                exact += b == int(want)
                near += b is not None and b != 0 and abs(b - int(want)) <= 1
    ours_text = f"equal in {exact}, within 1 MSS in {near}"
    verdict = check(exact > n / 2, f"equal in {exact} of {n}")
    claim = "Table 3, CWND column: our best window under the paper's RTS/CTS setting"
    return [*out, Claim(claim, f"{n} windows of 1-6 MSS", ours_text, verdict, "S003:216-225")]


NOTES = """\
Set-up as stated (S003:74-110): 32 nodes in 4 buildings, 802.11b, 18 dBm, 2 dBi antennas,
10 MAC retries after the first attempt (retry limits of 11 attempts: hopsim counts attempts,
as ns-2), TCP-SACK, MSS 1460 B, ETX routes frozen after 20 s of probing, 20 s transfers,
3 runs per configuration, max window 1-6 MSS or unclamped, RTS/CTS on (threshold 0: every
frame, TCP ACKs too) or off, 2 / 5.5 Mbit/s or auto rate. Chosen where the paper is silent
(scenarios/testbed.toml has the sources): a 2 x 2 block of 120 m x 60 m buildings 150 m
apart, so that every topology seed has ETX routes of 1-4 hops (MAP's layout is only in its
Figure 1); log-distance exponent 3 and 7 dB static shadowing (Rappaport: office, hard
partitions), 10 dB more between buildings; Rayleigh fading drawn per frame (S003:81:
multipath, walls); ns-3's 802.11b SINR receiver (-82 dBm preamble detection and carrier
sense, noise figure 7 dB); auto rate = SampleRate (madwifi's algorithm of the time; the paper
does not name it); ns-2's 50-packet queue, 1 Mbit/s basic rate and immediate ACKs (Linux's
delayed ACKs and BIC congestion control are not modelled); a 64-segment receiver window, so
that "unclamped" is limited by the network, not by ns-2's 20 segments. A "topology" of the
paper is one sender/receiver pair: one pair per hop count in each of 4 topology seeds (quick:
2 seeds, 1 replication), picked by hopsim.testbed.pick_pairs: its shortest-ETX route is the
same in every replication and carried > 10 kbit/s in a 10 s check under the cards' defaults
(the paper kept pairs "which gave non-zero throughput", S003:160). Averages are over pairs and
replications, as the paper's over 3 x 4 runs; spread = (max - min) / max of those averages
over the windows; a pair prefers an RTS/CTS setting when its best goodput is > 5% higher.
Known model limits: fading is independent from frame to frame, so the DATA frame after a
successful RTS/CTS exchange fades as often as any, which penalises RTS/CTS on weak links;
the SampleRate of the core sends a sample with one try and its retries at the best rate, as
madwifi's multi-rate retry chain does, but has no other rate in that chain."""

STUDY = Study(
    name="testbed-window",
    title="Koutsonikolas et al.: TCP window, RTS/CTS and data rate on a 32-node mesh testbed",
    source="D. Koutsonikolas, J. Dyaberi, P. Garimella, S. Fahmy, Y. C. Hu, On TCP throughput "
    "and window size in a multihop wireless network testbed, ACM WiNTECH 2007",
    sweeps=[window_sweep, survey_sweep],
    analyse=analyse,
    notes=NOTES,
)

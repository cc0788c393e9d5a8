"""Ding et al., Vegas-W (seed 004): legacy Vegas, Vegas-W and FeW with 1, 2, 4 and 8 TCP flows
from node 0 to node h of an h-hop chain, DSR routing (S004:159-180; docs/research/
paper-values.md section 4).

Four sweep files (``vegas-w-{1flow,2flows,4flows,8flows}.toml``), one per number of flows
because the flow list itself differs; each sweeps the variant and the chain length. Here they
are joined into points with the parameter ``flows``, and the flow-0 window distributions
(the paper's Fig. 2) are read from the stored result documents.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..sweeps import PointSummary
from ..sweeps.stats import Summary
from .common import NO_VALUE, Claim, Study, StudyContext, Verdict, check, compare_value, pct, remap

SWEEPS = {1: "vegas-w-1flow", 2: "vegas-w-2flows", 4: "vegas-w-4flows", 8: "vegas-w-8flows"}
FLOWS = (1, 2, 4, 8)
TABLE_HOPS = 7  # Table I: "Throughput over 7 hops chain topology" (S004:70)
# Table I rows (S004:72-75), kbit/s, legacy Vegas; row 4 = Vegas with min window = ssthresh = 1.
TABLE_TOTAL = {1: 206.8, 2: 165.3, 4: 102.4, 8: 79.4}
TABLE_FLOW0 = {1: 206.8, 2: 81.62, 4: 25.51, 8: 10.16}
TABLE_MODIFIED = {1: 192.6, 2: 197.2, 4: 177.8, 8: 138.1}
# Fig. 4(a) text, averages over the 4..16-hop chains: Vegas-W's gain over Vegas and over FeW
# (0 where the paper says "almost same" / "similar"); S004:169, 171, 175, 177.
GAIN_VS_VEGAS = {1: 0.0, 2: 0.27, 4: 0.87, 8: 0.62}
GAIN_VS_FEW = {1: 0.07, 2: 0.0, 4: 0.0, 8: 0.22}
GAIN_SOURCE = {1: "S004:177", 2: "S004:175", 4: "S004:171", 8: "S004:169"}
# A gain "holds" within max(5 points, 25% of the paper's gain) of the paper's gain.
GAIN_POINTS, GAIN_RELATIVE = 0.05, 0.25
MAX_WINDOW_SHOWN = 8  # window-distribution figures: bins 0..7 and ">= 8"
W1_STAR = 3.0  # "we approximate the optimal window size W_1^* for 1 flow is 3" (S004:81)


@dataclass
class _Data:
    """The four sweeps joined: points keyed (flows, variant, hops), flow 0's window
    distribution of every run, and the chain lengths present."""

    points: dict[tuple[int, str, int], PointSummary] = field(default_factory=dict)
    windows: dict[tuple[int, str, int], list[list[float]]] = field(default_factory=dict)
    hops: list[int] = field(default_factory=list)

    def mean(self, metric: str, n: int, variant: str, hops: int = TABLE_HOPS) -> float | None:
        p = self.points.get((n, variant, hops))
        s = None if p is None else p.stats.get(metric)
        return None if s is None else s.mean

    def share(self, n: int, variant: str, windows: Iterable[int], hops: int = TABLE_HOPS) -> float:
        """Flow 0's mean share of time with floor(window) in ``windows`` (0 = below one)."""
        runs = self.windows.get((n, variant, hops), [])
        want = list(windows)
        vals = [sum(d[i] for i in want if i < len(d)) for d in runs]
        return sum(vals) / len(vals) if vals else float("nan")

    def gain(self, n: int, over: str, hops: int) -> float | None:
        return pct(
            self.mean("sum:goodput_kbps", n, "vegas_w", hops),
            self.mean("sum:goodput_kbps", n, over, hops),
        )


def _collect(ctx: StudyContext) -> _Data:
    data = _Data()
    for n, sweep in SWEEPS.items():
        for p in ctx.points(sweep):
            v, h = p.params["tcp.variant"], p.params["topology.hops"]
            params = {"flows": n, "tcp.variant": v, "topology.hops": h}
            data.points[(n, v, h)] = PointSummary(len(data.points), params, p.runs, p.stats)
        for run, doc in ctx.store.iter_results(sweep):
            key = (n, run.params["tcp.variant"], run.params["topology.hops"])
            data.windows.setdefault(key, []).append(doc["flows"][0]["window_distribution"])
    data.hops = sorted({h for (_, _, h) in data.points})
    return data


def _nf(n: int) -> str:
    return f"{n} flow" if n == 1 else f"{n} flows"


def _fmt(x: float | None, spec: str = ".1f") -> str:
    return "n/a" if x is None else format(x, spec)


def _gain_verdict(ours: float | None, paper: float) -> str:
    if ours is None:
        return NO_VALUE
    if abs(ours - paper) <= max(GAIN_POINTS, GAIN_RELATIVE * abs(paper)):
        return Verdict.HOLDS.says()
    return Verdict.DOES_NOT_HOLD.says(f" ({ours:+.0%} vs {paper:+.0%})")


def _figures(ctx: StudyContext, d: _Data) -> None:
    at7 = remap(
        [p for (_, _, h), p in d.points.items() if h == TABLE_HOPS],
        lambda q: {"flows": q["flows"], "tcp.variant": q["tcp.variant"]},
    )
    xs = list(FLOWS)
    flows_label = f"TCP flows, all from node 0 to node {TABLE_HOPS}"
    if at7:
        ctx.figure(
            "total-goodput-vs-flows", at7, "flows", "sum:goodput_kbps", series="tcp.variant",
            xlabel=flows_label, ylabel="total goodput of all flows (kbit/s)",
            title="7-hop chain, DSR: total goodput (paper: Table I)",
            extra=[("paper Table I: legacy Vegas", xs, [TABLE_TOTAL[n] for n in xs]),
                   ("paper Table I: Vegas, min window = ssthresh = 1", xs,
                    [TABLE_MODIFIED[n] for n in xs])],
        )  # fmt: skip
        ctx.figure(
            "flow0-goodput-vs-flows", at7, "flows", "flow0:goodput_kbps", series="tcp.variant",
            xlabel=flows_label, ylabel="goodput of flow 0 (kbit/s)",
            title="7-hop chain, DSR: goodput of one flow (paper: Table I)",
            extra=[("paper Table I: legacy Vegas, flow 0", xs, [TABLE_FLOW0[n] for n in xs])],
        )  # fmt: skip
        ctx.figure(
            "cwnd-vs-flows", at7, "flows", "avg_cwnd", series="tcp.variant",
            xlabel=flows_label, ylabel="time-average cwnd per flow (segments)",
            title="7-hop chain, DSR: window per flow",
            extra=[("paper: optimal window W* = 3 / flows (S004:81)", xs,
                    [W1_STAR / n for n in xs])],
        )  # fmt: skip
    for variant, name in (("vegas", "legacy Vegas (paper: Fig. 2)"), ("vegas_w", "Vegas-W")):
        pts = []
        for n in FLOWS:
            runs = d.windows.get((n, variant, TABLE_HOPS), [])
            for i in range(MAX_WINDOW_SHOWN + 1) if runs else ():
                # The mean share over the runs, without error bars (a distribution's shares
                # are not independent, and quick mode has two runs); the last bin holds the rest.
                vals = [sum(r[i:]) if i == MAX_WINDOW_SHOWN else (r[i] if i < len(r) else 0.0)
                        for r in runs]  # fmt: skip
                s = Summary(len(vals), sum(vals) / len(vals), 0.0, math.nan)
                params = {"window": i, "flows": n}
                pts.append(PointSummary(len(pts), params, len(runs), {"time_share": s}))
        if pts:
            ctx.figure(
                f"window-distribution-{variant.replace('_', '-')}", pts, "window", "time_share",
                series="flows",
                xlabel=f"window allowed in flight (segments; 0 = below one, "
                f"{MAX_WINDOW_SHOWN} = {MAX_WINDOW_SHOWN} or more)",
                ylabel="share of time, flow 0 (mean over runs)",
                title=f"7-hop chain, DSR: {name}",
            )  # fmt: skip
    if len(d.hops) > 1:  # Fig. 4(a): throughput against the chain length
        for n in FLOWS:
            pts = [p for (m, _, _), p in d.points.items() if m == n]
            if pts:
                pts = remap(pts, lambda q: {"tcp.variant": q["tcp.variant"],
                                            "topology.hops": q["topology.hops"]})  # fmt: skip
                ctx.figure(
                    f"goodput-vs-hops-{_nf(n).replace(' ', '')}", pts, "topology.hops",
                    "sum:goodput_kbps", series="tcp.variant",
                    xlabel="chain length (hops)", ylabel="total goodput of all flows (kbit/s)",
                    title=f"{_nf(n)} (TCP) from node 0 to node h, DSR "
                    "(paper: Fig. 4(a))",
                )  # fmt: skip


def _table_claims(d: _Data) -> list[Claim]:
    claims = []
    total = {n: d.mean("sum:goodput_kbps", n, "vegas") for n in FLOWS}
    flow0 = {n: d.mean("flow0:goodput_kbps", n, "vegas") for n in FLOWS}
    for n in FLOWS:
        claims.append(Claim(
            f"Table I: legacy Vegas, {_nf(n)} on 7 hops: total goodput (kbit/s)",
            f"{TABLE_TOTAL[n]}", _fmt(total[n]), compare_value(total[n], TABLE_TOTAL[n]),
            "S004:72-73",
        ))  # fmt: skip
    for n in FLOWS[1:]:
        claims.append(Claim(
            f"Table I: legacy Vegas, {n} flows on 7 hops: goodput of flow 0 (kbit/s)",
            f"{TABLE_FLOW0[n]}", _fmt(flow0[n]), compare_value(flow0[n], TABLE_FLOW0[n]),
            "S004:74",
        ))  # fmt: skip
    vals = [total[n] for n in FLOWS]
    f0 = [flow0[n] for n in FLOWS]
    if None in vals or None in f0:
        verdict = NO_VALUE
    else:
        falls = all(a > b for a, b in zip(vals, vals[1:], strict=False)) and all(
            a > b for a, b in zip(f0, f0[1:], strict=False))  # fmt: skip
        drop = 1 - vals[-1] / vals[0]
        verdict = check(falls and drop >= 0.31, f"total falls by only {drop:.0%}, paper 62%")
    claims.append(Claim(
        "legacy Vegas, 7 hops: total and flow-0 goodput decrease as the flows grow 1 -> 8",
        "206.8 -> 79.4 kbit/s (-62%)", " / ".join(_fmt(v) for v in vals), verdict,
        "S004:77-79",
    ))  # fmt: skip
    modified = [d.mean("sum:goodput_kbps", n, "vegas_w") for n in FLOWS]
    claims.append(Claim(
        "Table I row 4: Vegas with minimum window = ssthresh = 1, total goodput (kbit/s)",
        " / ".join(f"{TABLE_MODIFIED[n]}" for n in FLOWS),
        "Vegas-W (minimum window 1): " + " / ".join(_fmt(v) for v in modified),
        Verdict.NOT_COMPARABLE.says(": hopsim has no such Vegas (Vegas-W is ")
        + " / ".join(_fmt(pct(m, TABLE_MODIFIED[n]), "+.0%") for n, m in zip(FLOWS, modified,
                                                                              strict=False))
        + " off this row)",
        "S004:75, S004:85",
    ))  # fmt: skip
    claims.append(Claim(
        "only the joint change of minimum window and reset ssthresh to 1 restores goodput",
        "min window 1 alone: window distribution similar", "-",
        Verdict.NOT_COMPARABLE.says(": hopsim has no Vegas with only the minimum window changed"),
        "S004:85",
    ))  # fmt: skip
    shares = []
    for n in FLOWS:
        f, t = d.mean("flow0:goodput_kbps", n, "vegas"), d.mean("sum:goodput_kbps", n, "vegas")
        shares.append(None if f is None or not t else f / t)
    ok = all(s is not None and abs(s * n - 1) <= 0.25 for s, n in zip(shares, FLOWS, strict=False))
    jain = [d.mean("jain:goodput_kbps", n, "vegas") for n in FLOWS]
    claims.append(Claim(
        "legacy Vegas shares the chain fairly: flow 0 gets about 1/n of the total (derived)",
        "flow-0 share 1 / 0.49 / 0.25 / 0.13",
        "share " + " / ".join(_fmt(s, ".2f") for s in shares)
        + "; Jain " + " / ".join(_fmt(j, ".2f") for j in jain),
        check(ok, "flow 0's share is more than 25% off 1/n"), "derived from S004:72-74",
    ))  # fmt: skip
    return claims


def _window_claims(d: _Data) -> list[Claim]:
    p3, p4 = d.share(1, "vegas", [3]), d.share(1, "vegas", [4])
    p34 = [d.share(n, "vegas", [3, 4]) for n in FLOWS[1:]]
    p3_8 = d.share(8, "vegas", [3])
    below2 = max(d.share(n, "vegas", [0, 1]) for n in FLOWS)
    frac8 = d.share(8, "vegas_w", [0])
    to1 = {v: d.mean("timeouts", 1, v) for v in ("vegas", "vegas_w")}
    ge3 = {v: d.share(1, v, range(3, 64)) for v in ("vegas", "vegas_w")}
    return [
        Claim(
            "legacy Vegas, 1 flow, 7 hops: flow 0 spends about 99% of the time at w = 3",
            "P(w=3) = 0.99",
            f"P(w=3) = {p3:.2f}, P(w=4) = {p4:.2f}",
            check(p3 >= 0.9, f"our Vegas settles at 3-4 segments, P(3) = {p3:.2f}"),
            "S004:81",
        ),
        Claim(
            "legacy Vegas never runs at w = 1 (minimum window 2)",
            "P(w=1) = 0",
            f"P(w<2) <= {below2:.3f}",
            check(below2 == 0.0),
            "S004:81",
        ),
        Claim(
            "legacy Vegas, 8 flows, 7 hops: flow 0 at w = 3 about half of the time",
            "P(w=3) ~ 0.5",
            f"P(w=3) = {p3_8:.2f}",
            check(0.35 <= p3_8 <= 0.65, f"P(3) = {p3_8:.2f}"),
            "S004:83",
        ),
        Claim(
            "legacy Vegas, 2/4/8 flows: much time at w = 3 and 4 although W* <= 1.5",
            "'much time' (Fig. 2)",
            "P(w in {3,4}) = " + " / ".join(f"{x:.2f}" for x in p34),
            check(all(x >= 0.3 for x in p34), "below 0.3"),
            "S004:90",
        ),
        Claim(
            "1 flow: Vegas and Vegas-W stabilise at a window >= 3 with few timeouts",
            "W1* = 3 > W_th^r = 2, stable",
            f"P(w>=3): Vegas {ge3['vegas']:.2f}, Vegas-W {ge3['vegas_w']:.2f}; timeouts: "
            f"{_fmt(to1['vegas'])}, {_fmt(to1['vegas_w'])}",
            check(
                min(ge3.values()) >= 0.5 and max(t or 0 for t in to1.values()) <= 2,
                "Vegas-W spends most of its time at w = 2" if ge3["vegas_w"] < 0.5 else "",
            ),
            "S004:177",
        ),  # fmt: skip
        Claim(
            "8 flows: Vegas-W's fractional window (w = 0.5) comes into play",
            "W8* < 1; w < 1 used",
            f"P(w<1) = {frac8:.3f}",
            check(frac8 > 0, "never below one segment")
            + (f", but only {frac8:.1%} of the time" if 0 < frac8 < 0.05 else ""),
            "S004:169",
        ),  # fmt: skip
    ]


def _gain_claims(d: _Data) -> list[Claim]:
    claims = []
    best: dict[str, float] = {}
    for over, paper, what in (("vegas", GAIN_VS_VEGAS, "Vegas"), ("few", GAIN_VS_FEW, "FeW")):
        for n in FLOWS:
            gains = [g for h in d.hops if (g := d.gain(n, over, h)) is not None]
            best[over] = max([best.get(over, -1.0), *gains])
            ours = sum(gains) / len(gains) if gains else None
            said = (
                "almost same as"
                if paper[n] == 0 and over == "vegas"
                else ("similar to" if paper[n] == 0 else f"{paper[n]:+.0%} over")
            )
            claims.append(Claim(
                f"{_nf(n)}: Vegas-W total goodput {said} {what} (mean over chain lengths)",
                f"{paper[n]:+.0%}", "n/a" if ours is None else
                f"{ours:+.1%} (hops {', '.join(map(str, d.hops))})",
                _gain_verdict(ours, paper[n]), GAIN_SOURCE[n],
            ))  # fmt: skip
    claims.append(Claim(
        "Vegas-W gains up to 87% over Vegas and up to 27% over FeW",
        "+87% / +27%", f"max {best.get('vegas', 0):+.0%} / {best.get('few', 0):+.0%}",
        check(_gain_verdict(best.get("vegas"), 0.87) == Verdict.HOLDS
              and _gain_verdict(best.get("few"), 0.27) == Verdict.HOLDS,
              "the largest gains differ from the paper's"),
        "S004:13, S004:186",
    ))  # fmt: skip
    return claims


def analyse(ctx: StudyContext) -> list[Claim]:
    d = _collect(ctx)
    _figures(ctx, d)
    return _table_claims(d) + _window_claims(d) + _gain_claims(d)


NOTES = """\
Set-up as the paper states it (S004:163, 167): chain with DSR, 802.11 at 2 Mbit/s (data and
basic rate), 250 m receive / 500 m carrier-sense range, two-ray ground, 1024 B segments, Vegas
alpha/beta/gamma = 1/3/1, Vegas-W p = 1/8, N_fw/N_s/N_CA/NS_CA/TO_ss = 2/10/100/100/2, 500 s
long-lived flows, all flows from node 0 to node h, goodput over the whole run. Not stated in
the paper, so ns-2 defaults: RTS/CTS always, interface queue 50, receiver window 20, initial
window 2; node spacing 200 m; all flows start at 0 s. Chain lengths 4, 7, 10, 13, 16 (the
paper says "from 4 to 16" without the set); 10 replications (the paper gives 95% CIs, not its
number of runs). Quick mode: chains of 4, 7 and 16 hops, 150 s, 2 replications. FeW's
increase of 0.01 segment per RTT could not be checked against its paper (docs/models.md 8.10).
A gain holds within max(5 points, 25% of the paper's gain); a Table I value within 10%.

What differs and the likely cause (ns2 profile, docs/models.md section 17): with ns-2's DSR
mechanisms (forward-only route learning, salvaging, its discovery cycles and send buffer, its
interface queue) and ns-2's Vegas agent, legacy Vegas now collapses as flows are added, as in
Table I (7 hops: ~201 / 138 / 72 / 82 kbit/s with 1 / 2 / 4 / 8 flows, paper 206.8 / 165.3 /
102.4 / 79.4; ns-2.35 run side by side by `hopsim crosscheck` gives 209 / 153 / 79 / 82), and
Vegas-W recovers most of it. With the standard profile (RFC 4728 DSR) the collapse does not
happen: every node relearns a broken link from the next ACK's source route. Our 2- and 4-flow
totals stay below Table I's as ns-2.35's own do (docs/validation.md). Our one-flow Vegas
settles at 3-4 segments rather than 99% at 3, and times out more often than ns-2.35's (more
RTS-limit drops on this chain; docs/validation.md, "Points still off").
"""

STUDY = Study(
    name="vegas-w",
    title="Vegas vs Vegas-W vs FeW on a DSR chain with 1, 2, 4, 8 flows (Ding et al.)",
    source="Ding, Wang, Xu, Zhang, Chen: Vegas-W, an enhanced TCP-Vegas for wireless ad hoc "
    "networks (seed 004)",
    sweeps=[f"{name}.toml" for name in SWEEPS.values()],
    analyse=analyse,
    notes=NOTES,
    ns2=True,
)

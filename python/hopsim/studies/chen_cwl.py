"""Chen, Xue, Shah, Nahrstedt (seed 001), Sections 3.2 and 4.2: the optimal congestion window
limit (CWL) of one TCP-Reno flow on a 250 m chain (Fig. 5-8, Table 1; docs/research/
paper-values.md section 1).

Two sweeps: ``chen-cwl`` (receiver node h x fixed CWL 1..20) gives the throughput curves and
the optimal CWL per h; ``chen-cwl-policy`` runs the hop-based (Table 1) and the delay-based
(Corollary 2) CWL, and no CWL, on the same chains. Besides the figures, ``optimal_cwl.csv``
lists our optimal CWL per h beside Table 1.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from dataclasses import dataclass

from .. import _core
from ..sweeps import PointSummary
from ..sweeps.stats import Summary
from .common import Claim, Study, StudyContext, Verdict, check, pct, pivot, remap

# Table 1 (S001:153-162): (largest round-trip hop count N of the row, optimal CWL), from
# the core, where the hop_based window limit uses it.
TABLE1 = tuple((top, int(cwl)) for top, cwl in _core.chen_table1())
K_EMPIRICAL = 1 / 5  # S001:166
K_RANGE = (1 / 8, 1 / 4)  # Corollary 1, S001:123
FLAT = 0.05  # "unchanged (or very minimally changed)" (S001:148): spread <= 5%
CLOSE = 0.10  # "very close" / "almost identical" (S001:209, 227): within 10%
SHOWN_HOPS = (2, 4, 7, 10, 15)  # chain lengths drawn in the throughput-vs-CWL figures
THR = "throughput_pps"
HOP, DELAY, NONE = "hop-based", "delay-based", "none (window_ 20)"
RULE = {"hop_based": HOP, "delay_based": DELAY, "none": NONE}


def table1(n: int) -> int | None:
    """Chen et al.'s optimal CWL for ``n`` round-trip hops (None beyond the table)."""
    for top, cwl in TABLE1:
        if n <= top:
            return cwl
    return None


@dataclass(frozen=True)
class Optimum:
    """The optimal CWL of one chain: the argmax of the mean throughput, and the CWLs whose
    mean lies within the 95% CI of the best (just the argmax with one replication)."""

    h: int
    best: int
    near: tuple[int, ...]
    best_mean: float
    spread: float  # (max - min) / max of the mean throughput over the CWLs run

    @property
    def n(self) -> int:
        return 2 * self.h

    def near_text(self) -> str:
        lo, hi = min(self.near), max(self.near)
        return str(lo) if lo == hi else f"{lo}-{hi}"


def optimum(h: int, curve: dict[int, Summary]) -> Optimum:
    """The optimum of ``curve`` (CWL -> throughput summary); ties go to the smaller CWL."""
    best = min(curve, key=lambda c: (-curve[c].mean, c))
    s = curve[best]
    floor = s.mean if math.isnan(s.half_width) else s.ci_low
    near = tuple(sorted(c for c, v in curve.items() if v.mean >= floor))
    means = [v.mean for v in curve.values()]
    top = max(means)
    return Optimum(h, best, near, s.mean, (top - min(means)) / top if top > 0 else 0.0)


def _remap(points: Sequence[PointSummary], key: str, name: str) -> list[PointSummary]:
    """Points keyed ``h`` (the receiver node = the chain length) and ``name`` (the value of
    ``key``; a window-limit policy by its label in RULE), for readable legends."""
    return remap(points, lambda q: {"h": q["flows.0.dst"], name: RULE.get(q[key], q[key])})


def _curves(points: Sequence[PointSummary], metric: str) -> dict[int, dict[int, Summary]]:
    """h -> CWL -> summary of ``metric``."""
    return pivot(points, "h", metric, columns="tcp.max_window", stat=None)


def _by_policy(points: Sequence[PointSummary], metric: str) -> dict[tuple[str, int], float]:
    """(CWL rule, h) -> mean of ``metric``."""
    return pivot(points, ("CWL", "h"), metric)


def _close(gap: float) -> str:
    """Verdict on "very close": the largest relative gap within CLOSE."""
    return Verdict.HOLDS.says() if gap <= CLOSE else Verdict.DIFFERS.says(f" by up to {gap:.0%}")


def _pcts(pairs: Sequence[tuple[int, float | None]]) -> str:
    return ", ".join(f"h={h}: {'n/a' if v is None else f'{v:+.0%}'}" for h, v in pairs)


def _optimal_figure(ctx: StudyContext, opts: Sequence[Optimum]) -> None:
    """Fig. 6: optimal CWL vs round-trip hops N, with Table 1, N/5, Corollary 1's band and
    Theorem 1's bound N beside ours."""
    fig, ax = ctx.subplots(figsize=(6.4, 4.4))
    grid = list(range(2, 31))
    lo, hi = ([n * k for n in grid] for k in K_RANGE)
    ax.fill_between(grid, lo, hi, color="tab:green", alpha=0.15, label="Corollary 1: kN, 1/8<k<1/4")
    ax.plot(grid, grid, color="grey", linestyle=":", label="Theorem 1 bound: N")
    ax.plot(grid, [n * K_EMPIRICAL for n in grid], color="tab:green", label="N/5 (paper's k)")
    t1 = [table1(n) for n in grid]
    ax.step(grid, t1, where="post", color="black", linestyle="--", label="Table 1 (paper)")
    # On a flat curve (short chains) the argmax is noise: name those chains, draw the rest.
    peaked = [o for o in opts if o.spread > FLAT] or list(opts)
    bars = [[o.best - min(o.near) for o in peaked], [max(o.near) - o.best for o in peaked]]
    label = "hopsim: argmax (bars: CWLs within the CI of the best)"
    ax.errorbar(
        [o.n for o in peaked],
        [o.best for o in peaked],
        yerr=bars,
        marker="o",
        capsize=3,
        linestyle="none",
        color="tab:blue",
        label=label,
    )
    if flat := [o.h for o in opts if o not in peaked]:
        note = f"h = {', '.join(map(str, flat))}: flat over CWL (spread <= {FLAT:.0%}), not drawn"
        ax.text(0.98, 0.03, note, transform=ax.transAxes, ha="right", fontsize=8)
    ax.set_xlabel("round-trip hops N = 2h")
    ax.set_ylabel("optimal CWL (segments)")
    ax.set_ylim(0, max(8.0, max(max(o.near) for o in peaked) + 1.0))
    ax.set_xlim(0, max(31, max(o.n for o in opts) + 1))
    ax.set_title("Optimal CWL on a 250 m chain (Theorem 1's N leaves the plot)", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    ctx.save_figure(fig, "chen-cwl-optimal")


def _write_table(ctx: StudyContext, opts: Sequence[Optimum], curves: dict) -> None:
    head = "h N optimal_cwl within_ci_of_best throughput_pps_at_optimum throughput_pps_at_cwl20"
    with (ctx.out_dir / "optimal_cwl.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow([*head.split(), "table1_cwl", "n_over_5"])
        for o in opts:
            at20 = curves[o.h].get(20)
            near = " ".join(map(str, o.near))
            at20_text = "" if at20 is None else f"{at20.mean:.3f}"
            w.writerow(
                [o.h, o.n, o.best, near, f"{o.best_mean:.3f}", at20_text, table1(o.n), o.n / 5]
            )


def _table_claims(opts: Sequence[Optimum]) -> list[Claim]:
    """One row per chain: our optimum beside Table 1 (at 15 hops also the prose, S001:141)."""
    claims = []
    for o in opts:
        paper = table1(o.n)
        ours = f"{o.best} (within CI: {o.near_text()}; spread over CWL {o.spread:.1%})"
        if paper is None:
            verdict = Verdict.NOT_COMPARABLE.says(": Table 1 stops at N = 30")
        elif o.h <= 2:  # the paper *chose* 2 on a flat curve (S001:164)
            verdict = check(o.spread <= FLAT or paper in o.near, f"not flat; ours {o.best}")
            if verdict == Verdict.HOLDS:
                verdict = Verdict.HOLDS.says(" (paper chose 2 on a flat curve)")
        elif paper == o.best:
            verdict = Verdict.HOLDS.says()
        elif paper in o.near:
            verdict = Verdict.HOLDS.says(f" ({paper} is within the CI of our best, {o.best})")
        else:
            verdict = Verdict.DIFFERS.says(f" by {o.best - paper:+d} segments (ours {o.best})")
        src = "S001:141, S001:162" if o.h == 15 else "S001:153-164"
        claims.append(
            Claim(f"Table 1: optimal CWL, h = {o.h} (N = {o.n})", str(paper), ours, verdict, src)
        )
    return claims


def analyse(ctx: StudyContext) -> list[Claim]:
    fixed = _remap(ctx.points("chen-cwl"), "tcp.max_window", "tcp.max_window")
    policy = _remap(ctx.points("chen-cwl-policy"), "tcp.window_limit", "CWL")
    curves = _curves(fixed, THR)
    opts = [optimum(h, curves[h]) for h in sorted(curves)]
    hs = [o.h for o in opts]
    shown = hs if len(hs) <= len(SHOWN_HOPS) else [h for h in SHOWN_HOPS if h in hs] or hs
    sub = [p for p in fixed if p.params["h"] in shown]
    title = "TCP Reno, one flow over h hops of a 250 m chain, 2 Mbit/s"
    pps = "throughput (acknowledged packets/s)"
    ctx.figure(
        "chen-cwl-throughput", sub, "tcp.max_window", THR, series="h", title=title, ylabel=pps
    )
    ctx.figure("chen-cwl-cwnd", sub, "tcp.max_window", "avg_cwnd", series="h", title=title)
    _optimal_figure(ctx, opts)
    _write_table(ctx, opts, curves)
    limited = [p for p in policy if p.params["CWL"] != NONE]
    by_h = {"series": "CWL", "xlabel": "chain length h (hops)"}
    t1 = ("Table 1 (hop-based CWL)", hs, [table1(2 * h) or math.nan for h in hs])
    ctx.figure(
        "chen-cwl-policy-limit",
        limited,
        "h",
        "avg_window_limit",
        extra=[t1],
        title="Average CWL, hop-based vs delay-based (paper Fig. 8a)",
        **by_h,
    )
    best = ("best fixed CWL (chen-cwl sweep)", hs, [o.best_mean for o in opts])
    ctx.figure(
        "chen-cwl-policy-throughput",
        policy,
        "h",
        THR,
        extra=[best],
        ylabel=pps,
        title="Hop-based vs delay-based CWL vs none (paper Fig. 8b)",
        **by_h,
    )
    ctx.figure(
        "chen-cwl-policy-cwnd",
        limited,
        "h",
        "avg_cwnd",
        title="Average cwnd (paper Fig. 8c)",
        **by_h,
    )

    claims = _table_claims(opts)

    def add(*fields: str) -> None:
        claims.append(Claim(*fields))

    long = [o for o in opts if o.h >= 3 and 20 in curves[o.h]]
    drops = _pcts([(o.h, pct(curves[o.h][20].mean, o.best_mean)) for o in long])
    falls = bool(long) and all(
        curves[o.h][20].mean < o.best_mean and 20 not in o.near for o in long
    )
    add(
        "Throughput falls when CWL exceeds the optimum (3-15 hops): optimum -> CWL 20",
        "falls (Fig. 5, no numbers)",
        drops or "no chain of 3+ hops",
        check(falls, "CWL 20 is as good as the optimum on some chain"),
        "S001:141, S001:148",
    )
    short = [o for o in opts if o.h <= 2]
    if short:
        add(
            "Short chains (1-2 hops): throughput (almost) unchanged over CWL 1..20",
            "minimal change",
            ", ".join(f"h={o.h}: spread {o.spread:.1%}" for o in short),
            check(all(o.spread <= FLAT for o in short), f"spread above {FLAT:.0%}"),
            "S001:148",
        )
    ks = [(o.h, o.best / o.n) for o in opts if o.h >= 7]
    above = [o.h for o in opts if o.h >= 7 and o.best > math.ceil(o.n * K_EMPIRICAL)]
    add(
        "BDP-UB <= kN, k = 1/5, esp. on long chains (h >= 7): optimal CWL / N; integer CWL "
        "<= ceil(N/5)",
        "k = 0.2",
        ", ".join(f"h={h}: {k:.2f}" for h, k in ks) or "no chain of 7+ hops",
        check(bool(ks) and not above, f"above ceil(N/5) at h = {above}"),
        "S001:166",
    )
    k3 = [(o.h, o.best / o.n) for o in opts if o.h >= 3]
    over = [o.h for o in opts if o.h >= 3 and o.best > math.ceil(o.n * K_RANGE[1])]
    add(
        "Corollary 1: BDP-UB <= kN, 1/8 < k < 1/4: optimal CWL / N (3+ hops); integer CWL "
        "<= ceil(N/4)",
        "1/8 < k < 1/4",
        ", ".join(f"h={h}: {k:.2f}" for h, k in k3) or "n/a",
        check(bool(k3) and not over, f"above ceil(N/4) at h = {over}"),
        "S001:123",
    )
    peaked = [o for o in opts if o.spread > FLAT]  # on a flat curve the argmax is noise
    top = max(peaked, key=lambda o: o.best / o.n) if peaked else None
    add(
        "Theorem 1: optimal CWL <= N (round-trip hops); chains whose curve is not flat",
        "CWL <= N",
        "n/a" if top is None else f"largest optimal CWL / N = {top.best / top.n:.2f} (h={top.h})",
        check(top is not None and top.best <= top.n, "an optimum above N"),
        "S001:79, S001:100",
    )
    cw = _curves(fixed, "avg_cwnd")
    grow = [(o.h, cw[o.h][o.best].mean, cw[o.h][20].mean) for o in long if o.best < 20]
    add(
        "cwnd keeps growing past the optimal CWL (average cwnd at optimum -> CWL 20)",
        "grows, then flattens (Fig. 7)",
        ", ".join(f"h={h}: {a:.1f} -> {b:.1f}" for h, a, b in grow) or "n/a",
        check(bool(grow) and all(b > a for _, a, b in grow), "no growth past the optimum"),
        "S001:168",
    )
    rd = sum(p.stats["totals.retry_limit_drops"].mean for p in fixed)
    qd = sum(p.stats["totals.queue_drops"].mean for p in fixed)
    add(
        "With a 25-packet queue, losses are MAC contention losses, not queue overflows",
        "mainly MAC losses",
        f"retry-limit drops {rd:.0f}, queue drops {qd:.0f} (all points)",
        check(rd > qd, "queue drops dominate"),
        "S001:168",
    )
    return claims + _policy_claims(policy)


def _policy_claims(policy: Sequence[PointSummary]) -> list[Claim]:
    """Sec. 4.2, Fig. 8: the hop-based vs the delay-based CWL on the chain."""
    lim, thr = _by_policy(policy, "avg_window_limit"), _by_policy(policy, THR)
    cwnd = _by_policy(policy, "avg_cwnd")
    ph = sorted({h for _, h in lim})
    out: list[Claim] = []
    if {rule for rule, _ in thr} != {NONE, HOP, DELAY}:
        # A simulator without both rules (ns-2.35: a fixed window_ only) has none of these
        # claims (studies/threeway.py gives them the cause).
        return out

    def add(*fields: str) -> None:
        out.append(Claim(*fields))

    def lims(sel: Sequence[int]) -> str:
        return ", ".join(f"h={h}: {lim[(HOP, h)]:.2f} / {lim[(DELAY, h)]:.2f}" for h in sel)

    if long := [h for h in ph if 9 <= h <= 15]:
        gap = max(abs(pct(lim[(DELAY, h)], lim[(HOP, h)]) or 0.0) for h in long)
        add(
            "Fig. 8a, N = 18-30: average CWL hop-based ~ delay-based (hop / delay)",
            "very close",
            lims(long),
            _close(gap),
            "S001:209",
        )
    if medium := [h for h in ph if 4 <= h <= 8]:
        not_larger = [h for h in medium if lim[(HOP, h)] <= lim[(DELAY, h)]]
        add(
            "Fig. 8a, N = 8-16: hop-based CWL slightly larger than delay-based (hop / delay)",
            "slightly larger",
            lims(medium),
            check(not not_larger, f"delay-based is the larger at h = {not_larger}"),
            "S001:209",
        )
    if short := [h for h in ph if h <= 2]:
        ok = all(lim[(HOP, h)] >= 1.5 * lim[(DELAY, h)] for h in short)
        add(
            "Fig. 8a, N = 2, 4: hop-based CWL (2) much larger than delay-based (hop / delay)",
            "2 vs ~1",
            lims(short),
            check(ok, "less than 1.5 times"),
            "S001:209",
        )
    gaps = [(h, pct(thr[(DELAY, h)], thr[(HOP, h)])) for h in ph]
    worst = max((abs(g or 0.0) for _, g in gaps), default=0.0)
    add(
        "Fig. 8b: throughput with hop-based ~ delay-based CWL (delay vs hop)",
        "very close",
        _pcts(gaps),
        _close(worst),
        "S001:227",
    )
    ratios = [cwnd[(p, h)] / lim[(p, h)] for p in (HOP, DELAY) for h in ph]
    add(
        "Fig. 8c: average cwnd ~ average CWL under both rules (cwnd / CWL)",
        "almost identical",
        f"{min(ratios):.2f}..{max(ratios):.2f} over h and rule",
        check(min(ratios) >= 1 - CLOSE, f"cwnd down to {min(ratios):.0%} of the CWL"),
        "S001:227",
    )
    gain = [
        (h, pct(thr[(HOP, h)], thr[(NONE, h)]) or 0.0, pct(thr[(DELAY, h)], thr[(NONE, h)]) or 0.0)
        for h in ph
        if h >= 3
    ]
    if gain:
        add(
            "Both CWL rules mitigate overshooting and improve TCP (vs no CWL, "
            "3+ hops; hop / delay)",
            "improve",
            ", ".join(f"h={h}: {a:+.0%} / {b:+.0%}" for h, a, b in gain),
            check(all(a > 0 and b > 0 for _, a, b in gain), "no gain on some chain"),
            "S001:227",
        )
    if rem := [(h, lim[(DELAY, h)]) for h in ph if h >= 3]:
        add(
            "Remark 5: Theorem 1 (N) > Corollary 1 (N/5) > Corollary 2 (average "
            "delay-based CWL), 3+ hops",
            "ordered",
            ", ".join(f"h={h}: {2 * h} > {2 * h / 5:.1f} > {v:.2f}" for h, v in rem),
            check(all(v < 2 * h / 5 for h, v in rem), "delay-based CWL above N/5"),
            "S001:195",
        )
    return out


NOTES = """\
Set-up as the paper states it (S001:137-168): 16-node chain 250 m apart (= the 250 m decode
range; 550 m carrier sense), 2 Mbit/s with RTS/CTS (ns-2 default), TCP Reno, 1460 B, one flow
0 -> h, 1000 s runs, throughput over the whole run in acknowledged packets/s, queue 25.
Routing is not stated for the chain: AODV (ns-2's usual reactive protocol, and what earlier
measurements of this chain in the project used), so false route failures on long chains
break and rebuild the route as in an ns-2 run; with static routes the drop beyond the
optimum is smaller. The paper implies one run per point; we run 5 replications for CIs.
"Optimal CWL" is the argmax of the mean throughput; "within CI" lists the CWLs whose mean
lies in the 95% CI of the best (the curve is flat near its maximum); quick mode has one
replication, so no CI. Thresholds of our own: "flat" = spread <= 5%, "very close" = within
10%; a CWL is an integer, so the bounds kN are checked as optimum <= ceil(kN). The no-CWL
baseline keeps ns-2's window_ of 20 segments. avg_window_limit includes the start of each
run, before the first ACK, when only window_ (20) limits the window. Pacing (Sec. 5.3) is
not rerun here. The runs use profile = "ns2": ns-2.35's AODV, MAC and TCP-agent mechanisms
where they depart from the RFCs (docs/models.md section 17)."""

STUDY = Study(
    name="chen-cwl",
    title="Chen et al.: optimal congestion window limit on a 250 m chain",
    source="K. Chen, Y. Xue, S. H. Shah, K. Nahrstedt, Understanding bandwidth-delay product "
    "in mobile ad hoc networks, Computer Communications 27 (2004), Sec. 3.2 and 4.2",
    sweeps=["chen-cwl.toml", "chen-cwl-policy.toml"],
    analyse=analyse,
    notes=NOTES,
    ns2=True,
)

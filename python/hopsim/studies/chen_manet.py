"""Chen, Xue, Shah, Nahrstedt (seed 001), Section 5.2: the hop-based and the delay-based CWL
against a large CWL (256 packets) in a 50-node random-waypoint network with DSR and 5..25 TCP
flows (Fig. 9; docs/research/paper-values.md section 2).

Within a replication the three CWL rules run the same scenario (placement, movement, flow
pairs: the same seed), so the gains are paired: per replication the difference of total
goodput, over the mean of the large-CWL runs. Its mean is the gain of the means, its
Student-t interval the 95% CI of the gain.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..sweeps import PointSummary
from ..sweeps.stats import Summary, summarize_values
from .common import Claim, Study, StudyContext, Verdict, check, remap

SWEEP = "chen-manet"
RULES = ("none", "hop_based", "delay_based")
# Gains over TCP with a CWL of 256 packets, over the flow counts 5..25 (S001:247).
PAPER_GAIN = {"hop_based": (0.08, 0.16), "delay_based": (0.03, 0.12)}
LABEL = {"none": "CWL 256", "hop_based": "hop-based CWL", "delay_based": "delay-based CWL"}
LARGE_CWND = 8.0  # the chain where "TCP's window size can open up to eight packets" (S001:259)
SHORT = {"none": "256", "hop_based": "hop-based", "delay_based": "delay-based"}
G = "goodput_kbps"
DELAY = "segment_delay_ms"


def _remap(points: Sequence[PointSummary]) -> list[PointSummary]:
    """Points keyed ``flows`` and ``CWL`` (256, hop-based, delay-based), for the legends."""
    return remap(
        points, lambda q: {"flows": q["traffic.random_flows"], "CWL": SHORT[q["tcp.window_limit"]]}
    )


def paired_gains(ctx: StudyContext) -> dict[tuple[str, int], Summary]:
    """(rule, flows) -> summary of (G_rule - G_none) / mean(G_none) over the replications
    where both ran; its mean is the relative gain of the mean total goodput."""
    runs: dict[tuple[int, int], dict[str, float]] = {}
    for run in ctx.store.runs(SWEEP):
        value = run.metrics.get(G)
        if value is not None:
            key = (run.params["traffic.random_flows"], run.replication)
            runs.setdefault(key, {})[run.params["tcp.window_limit"]] = float(value)
    out = {}
    for n in sorted({n for n, _ in runs}):
        reps = [v for (m, _), v in runs.items() if m == n and "none" in v]
        base = sum(v["none"] for v in reps) / len(reps) if reps else 0.0
        for rule in RULES[1:]:
            diffs = [(v[rule] - v["none"]) / base for v in reps if rule in v and base > 0]
            s = summarize_values(diffs)
            if s is not None:
                out[(rule, n)] = s
    return out


def _gain_text(s: Summary) -> str:
    ci = "" if math.isnan(s.half_width) else f" [{s.ci_low:+.0%}, {s.ci_high:+.0%}]"
    return f"{s.mean:+.0%}{ci}"


def _gain_verdict(gains: dict[int, Summary], lo: float, hi: float) -> str:
    if not gains:
        return Verdict.NOT_COMPARABLE.says(": no paired runs")
    means = {n: s.mean for n, s in gains.items()}
    if all(lo <= g <= hi for g in means.values()):
        return Verdict.HOLDS.says()
    span = f"ours {min(means.values()):+.0%} to {max(means.values()):+.0%}"
    losers = [n for n, g in means.items() if g <= 0]
    if losers:
        no_gain = ", ".join(map(str, losers))
        return Verdict.DOES_NOT_HOLD.says(f" ({span}; no gain with {no_gain} flows)")
    return Verdict.DIFFERS.says(f" ({span}, paper {lo:+.0%} to {hi:+.0%})")


def _gain_figure(ctx: StudyContext, gains: dict[tuple[str, int], Summary]) -> None:
    """Gain of total goodput over CWL 256 per flow count, with the paper's ranges."""
    fig, ax = ctx.subplots(figsize=(6.4, 4.4))
    colours = {"hop_based": "tab:blue", "delay_based": "tab:orange"}
    for k, rule in enumerate(RULES[1:]):
        ns = sorted(n for r, n in gains if r == rule)
        if not ns:
            continue
        lo, hi = PAPER_GAIN[rule]
        ax.axhspan(
            100 * lo,
            100 * hi,
            color=colours[rule],
            alpha=0.12,
            label=f"paper, {LABEL[rule]}: {lo:+.0%} to {hi:+.0%}",
        )
        errs = [
            0.0 if math.isnan(gains[(rule, n)].half_width) else 100 * gains[(rule, n)].half_width
            for n in ns
        ]
        ax.errorbar(
            [n + (k - 0.5) * 0.4 for n in ns],
            [100 * gains[(rule, n)].mean for n in ns],
            yerr=errs,
            marker="o",
            capsize=3,
            color=colours[rule],
            label=f"hopsim, {LABEL[rule]}",
        )
    ax.axhline(0.0, color="black", linewidth=0.8)
    ax.set_xlabel("TCP flows")
    ax.set_ylabel("total goodput gain over CWL 256 (%)")
    ax.set_title("CWL rules vs a large CWL, 50 mobile nodes, DSR (95% CI, paired)", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    ctx.save_figure(fig, "chen-manet-gain")


def segment_delay(ctx: StudyContext) -> list[PointSummary]:
    """Per point: the mean one-way delay of the data segments of all flows, each flow's mean
    weighted by its delivered segments (as a trace average over packets would be; a plain
    mean over flows is dominated by flows that delivered a handful of late segments)."""
    runs: dict[tuple[int, str], list[float | None]] = {}
    for run, doc in ctx.store.iter_results(SWEEP):
        num = den = 0.0
        for f in doc["flows"]:
            if f.get("mean_delay_ms") is not None:
                w = f["bytes_delivered"] / f["payload_bytes"]
                num, den = num + w * f["mean_delay_ms"], den + w
        key = (run.params["traffic.random_flows"], run.params["tcp.window_limit"])
        runs.setdefault(key, []).append(num / den if den > 0 else None)
    out = []
    order = sorted(runs, key=lambda k: (k[0], RULES.index(k[1])))
    for i, (n, rule) in enumerate(order):
        values = runs[(n, rule)]
        stats = {DELAY: summarize_values(values)}
        out.append(PointSummary(i, {"flows": n, "CWL": SHORT[rule]}, len(values), stats))
    return out


def analyse(ctx: StudyContext) -> list[Claim]:
    points = _remap(ctx.points(SWEEP))
    title = "50 nodes, random waypoint <= 5 m/s, DSR, TCP Reno, max RTO 2 s"
    for stem, metric, ylabel in (
        ("chen-manet-goodput", G, "total goodput (kbit/s)"),
        ("chen-manet-dropped", "packets_dropped", "dropped TCP packets (data + ACK)"),
        ("chen-manet-timeouts", "timeouts", "retransmission timeouts (all flows)"),
        ("chen-manet-route-failures", "totals.link_failures", "route (link) failures"),
    ):
        ctx.figure(
            stem,
            points,
            "flows",
            metric,
            series="CWL",
            title=title,
            xlabel="TCP flows",
            ylabel=ylabel,
        )
    delays = segment_delay(ctx)
    ylabel = "end-to-end delay of data segments (ms)"
    ctx.figure(
        "chen-manet-delay",
        delays,
        "flows",
        DELAY,
        series="CWL",
        title=title,
        xlabel="TCP flows",
        ylabel=ylabel,
    )
    gains = paired_gains(ctx)
    _gain_figure(ctx, gains)

    def mean(metric: str, rule: str, n: int) -> float:
        v = ctx.mean(delays if metric == DELAY else points, metric, flows=n, CWL=SHORT[rule])
        return math.nan if v is None else v

    flows = sorted({p.params["flows"] for p in points})
    claims = []
    for rule, (lo, hi), src in (
        ("hop_based", PAPER_GAIN["hop_based"], "S001:247"),
        ("delay_based", PAPER_GAIN["delay_based"], "S001:247"),
    ):
        mine = {n: s for (r, n), s in gains.items() if r == rule}
        claims.append(
            Claim(
                f"{LABEL[rule]}: total goodput gain over CWL 256, per flow count (95% CI)",
                f"{lo:+.0%} to {hi:+.0%}",
                ", ".join(f"{n}: {_gain_text(s)}" for n, s in sorted(mine.items())),
                _gain_verdict(mine, lo, hi),
                src,
            )
        )
    best = {n: max(RULES, key=lambda r, n=n: mean(G, r, n)) for n in flows}
    claims.append(
        Claim(
            "Hop-based CWL has the best total goodput, delay-based second",
            "hop > delay > CWL 256",
            ", ".join(f"{n}: {LABEL[b]}" for n, b in best.items()),
            check(
                all(
                    mean(G, "hop_based", n) > mean(G, "delay_based", n) > mean(G, "none", n)
                    for n in flows
                ),
                "the order differs at some flow count",
            ),
            "S001:247-249",
        )
    )
    for metric, what, src in (
        (DELAY, "end-to-end delay (ms)", "S001:251, Fig. 9(b)"),
        ("packets_dropped", "dropped packets", "S001:251, Fig. 9(c)"),
    ):
        rows = [
            (
                n,
                mean(metric, "none", n),
                mean(metric, "hop_based", n),
                mean(metric, "delay_based", n),
            )
            for n in flows
        ]
        claims.append(
            Claim(
                f"Both CWL rules give smaller {what} than CWL 256 (256 / hop / delay)",
                "smaller",
                ", ".join(f"{n}: {a:.0f} / {b:.0f} / {c:.0f}" for n, a, b, c in rows),
                check(all(b < a and c < a for _, a, b, c in rows), "not at every flow count"),
                src,
            )
        )
    cw = [(n, mean("avg_cwnd", "none", n)) for n in flows]
    claims.append(
        Claim(
            f"The congestion window never opens up to a large size (mean < {LARGE_CWND:g}), "
            "read for CWL 256 (the CWL rules keep it small by construction)",
            "small (no number)",
            ", ".join(f"{n}: {c:.1f}" for n, c in cw),
            check(all(c < LARGE_CWND for _, c in cw), "the mean cwnd reaches 8 at some count"),
            "S001:259",
        )
    )
    return claims


NOTES = """\
Set-up as the paper states it (S001:239-247): 50 nodes in 1500 m x 300 m, random waypoint
with speeds uniform in [0, 5] m/s ("maximum speed of 5 m/s", ns-2 setdest) and pause 0,
DSR, TCP Reno with a maximum RTO of 2 s, 1000 s runs, 5..25 bulk TCP flows between random
pairs, all starting at 0 s. Not restated for Sec. 5 and taken from Sec. 3.2: 1460 B
segments, 2 Mbit/s, a 25-packet queue. The "large CWL of 256 packets" is ns-2's window_
(our receiver_window = 256, window_limit = none); the hop- and delay-based rules are capped
by the same 256. The network is connected at time 0 (placements redrawn until it is); the
paper made sure it is never partitioned, which we do not enforce later in the run. Each
replication is a new scenario; the paper does not say how many it averaged: 10 in full
mode, 1 in quick mode (150 s runs), so quick verdicts are noise-level. Hop counts come
from the IP TTL (docs/models.md 8.11), not from the DSR source route; the two agree. The
runs use profile = "ns2" (ns-2.35's DSR, MAC and TCP-agent mechanisms, docs/models.md
section 17). ns-2.35 itself, run beside hopsim by `hopsim crosscheck` on 10 flows for 200 s,
shows no gain from limiting the window either (CWL 2 vs none: +1%, docs/validation.md)."""

STUDY = Study(
    name="chen-manet",
    title="Chen et al.: hop-based and delay-based CWL in a mobile ad hoc network",
    source="K. Chen, Y. Xue, S. H. Shah, K. Nahrstedt, Understanding bandwidth-delay product "
    "in mobile ad hoc networks, Computer Communications 27 (2004), Sec. 5.2",
    sweeps=["chen-manet.toml"],
    analyse=analyse,
    notes=NOTES,
    ns2=True,
)

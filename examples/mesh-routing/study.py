"""TCP NewReno and Vegas over AODV, DSR, OLSR and HWMP, with and without a window limit, on
the 5 x 5 grid and the 50-node random-waypoint MANET (examples/mesh-routing/README.md).

    python examples/mesh-routing/study.py [--grid DIR] [--manet DIR] [--out PNG] [--table MD]

Reads the stores of grid-sweep.toml and manet-sweep.toml and prints, as Markdown (also
written to --table):

1. per network, protocol, variant and window limit: goodput (summed over the flows), delay
   (the mean one-way delay of the data segments, each flow's mean weighted by its goodput)
   and control overhead (routing packets sent per second of the whole run and their
   kbit/s, every hop counted), each the mean ± the 95% CI half-width over the replications;
2. each protocol's goodput minus AODV's, paired by replication (replication r is the same
   network, moving the same way, under every protocol: common random numbers);
3. what the hop-based window limit does: goodput with it minus without (paired), delay
   without and with it, the limit in force;
4. the control traffic by message kind, the share of time a flow's source had no route, the
   route changes per flow, the length of the routes in use and the goodput per flow by its
   hops at time 0 (NewReno, no window limit);
5. Vegas' goodput minus NewReno's, paired.

Draws a figure of 4 x 2 panels: goodput, goodput minus AODV's (paired), delay and control
overhead (rows) on the grid and the MANET (columns), by protocol, for NewReno and Vegas with
and without the limit.
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from pathlib import Path

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from hopsim.sweeps import ResultStore, Summary, summarize_values  # noqa: E402

PROTOCOLS = ("aodv", "dsr", "olsr", "hwmp")
VARIANTS = ("newreno", "vegas")
LIMITS = ("none", "hop_based")
NETWORKS = {"grid": "5 x 5 grid, 2 crossing flows", "manet": "50-node RWP MANET, 5 flows"}
#: (variant, limit) -> how the figure draws it
STYLE = {
    ("newreno", "none"): ("tab:blue", "o", "NewReno, no limit"),
    ("newreno", "hop_based"): ("tab:blue", "s", "NewReno, hop-based limit"),
    ("vegas", "none"): ("tab:orange", "o", "Vegas, no limit"),
    ("vegas", "hop_based"): ("tab:orange", "s", "Vegas, hop-based limit"),
}
#: the per-run measures: name -> (column title, format)
MEASURES = {
    "goodput": ("goodput kbit/s", "{:,.0f}"),
    "delay": ("delay ms", "{:,.0f}"),
    "control": ("control pkt/s", "{:,.1f}"),
    "control_kbps": ("control kbit/s", "{:,.1f}"),
}
#: the classes of flows by hops (shortest path at time 0) of table 4
HOP_CLASSES = ("1", "2-3", "4+")


def hop_class(hops: int) -> str:
    return "1" if hops <= 1 else "2-3" if hops <= 3 else "4+"


def per_flow(runs: dict[int, dict], cls: str) -> str:
    """Mean goodput per flow of a hop class over every run (its flows, not its runs)."""
    total = sum(r.get("gsum:" + cls) or 0.0 for r in runs.values())
    n = sum(r.get("n:" + cls) or 0.0 for r in runs.values())
    return f"{total / n:,.0f} ({n:.0f})" if n else "-"


#: the ticks of the log-scale overhead axis
LOG_TICKS = [1, 2, 5, 10, 20, 50, 100, 200, 500]
#: the order of the message kinds in table 4 (by their suffix)
KIND_ORDER = ["hello", "tc", "rreq", "preq", "rrep", "prep", "rerr", "perr", "rann"]

Key = tuple[str, str, str]  # (protocol, variant, window limit)


def kind_order(name: str) -> tuple[int, str]:
    """Sort key of a "msg:KIND" measure: HELLO, TC, requests, replies, errors."""
    suffix = name.rsplit("_", 1)[-1]
    return (KIND_ORDER.index(suffix) if suffix in KIND_ORDER else len(KIND_ORDER), name)


def run_measures(doc: dict) -> dict[str, float | None]:
    """The measures of one result document."""
    flows = doc["flows"]
    goodput = sum(f["goodput_kbps"] for f in flows)
    weighted = [(f["goodput_kbps"], f["mean_delay_ms"]) for f in flows if f["mean_delay_ms"]]
    weight = sum(g for g, _ in weighted)
    no_route = [sum(p["time_share"] for p in f["paths"] if not p["nodes"]) for f in flows]
    route_hops = []  # per flow: the hops of its routes, weighted by their time in use
    for f in flows:
        used = [(len(p["nodes"]) - 1, p["time_share"]) for p in f["paths"] if p["nodes"]]
        share = sum(t for _, t in used)
        if share > 0:
            route_hops.append(sum(h * t for h, t in used) / share)
    out: dict[str, float | None] = {
        "goodput": goodput,
        "delay": sum(g * d for g, d in weighted) / weight if weight > 0 else None,
        "control": doc["totals"]["routing_packets"] / doc["duration_s"],
        "control_kbps": doc["totals"]["routing_bytes"] * 8 / doc["duration_s"] / 1000,
        "no_route": sum(no_route) / len(flows),
        "route_changes": sum(f["route_changes"] for f in flows) / len(flows),
        "route_hops": _mean(route_hops),
        "cwl": _mean([f["avg_window_limit"] for f in flows]),
        "timeouts": sum(f["timeouts"] for f in flows),
    }
    for f in flows:  # goodput per flow by the flow's shortest path at time 0
        cls = hop_class(f["hops"])
        out["gsum:" + cls] = (out.get("gsum:" + cls) or 0.0) + f["goodput_kbps"]
        out["n:" + cls] = (out.get("n:" + cls) or 0.0) + 1
    for m in doc.get("routing_messages", []):
        out["msg:" + m["kind"]] = m["messages"] / doc["duration_s"]
    return out


def _mean(values: list) -> float | None:
    xs = [v for v in values if v is not None]
    return sum(xs) / len(xs) if xs else None


def load(folder: str) -> dict[Key, dict[int, dict[str, float | None]]]:
    """(protocol, variant, limit) -> replication -> measures."""
    runs: dict[Key, dict[int, dict[str, float | None]]] = defaultdict(dict)
    with ResultStore(folder, create=False) as store:
        for run, doc in store.iter_results():
            p = run.params
            key = (p["routing.protocol"], p["tcp.variant"], p["tcp.window_limit"])
            runs[key][run.replication] = run_measures(doc)
    return runs


def summary(runs: dict[int, dict], name: str) -> Summary | None:
    return summarize_values(r.get(name) for r in runs.values())


def paired(a: dict[int, dict], b: dict[int, dict], name: str) -> Summary | None:
    """a - b, replication by replication (the replications both have)."""
    reps = sorted(set(a) & set(b))
    return summarize_values(
        a[r][name] - b[r][name]
        for r in reps
        if a[r].get(name) is not None and b[r].get(name) is not None
    )


def fmt(s: Summary | None, spec: str = "{:,.0f}", sign: bool = False) -> str:
    if s is None:
        return "-"
    value = s.mean if spec.format(s.mean).strip("-0.,") else 0.0  # no "-0"
    mean = ("+" if sign and value >= 0 else "") + spec.format(value)
    if math.isnan(s.half_width):
        return mean
    return f"{mean} ± {spec.format(s.half_width)}"


def table(rows: list[list[str]], header: list[str], right_from: int) -> str:
    align = ["---"] * right_from + ["--:"] * (len(header) - right_from)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def report(data: dict[str, dict[Key, dict[int, dict]]]) -> str:
    out: list[str] = []
    reps = {net: sorted({len(v) for v in runs.values()}) for net, runs in data.items() if runs}
    out.append(
        "Table 1. Mean ± 95% CI half-width over the replications ("
        + ", ".join(f"{net}: {'/'.join(map(str, n))}" for net, n in reps.items())
        + "); delay: one-way, data segments, flows weighted by goodput; control: routing "
        "packets (HWMP: action frames) sent per second of the whole run, and their bytes, "
        "every hop counted.\n"
    )
    rows = []
    for net, runs in data.items():
        for p in PROTOCOLS:
            for v in VARIANTS:
                for lim in LIMITS:
                    r = runs.get((p, v, lim))
                    if not r:
                        continue
                    rows.append(
                        [net, p.upper(), v, lim]
                        + [fmt(summary(r, m), spec) for m, (_, spec) in MEASURES.items()]
                    )
    header = ["network", "routing", "TCP", "window limit"] + [t for t, _ in MEASURES.values()]
    out.append(table(rows, header, 4))

    out.append(
        "\nTable 2. Goodput minus AODV's (kbit/s), paired by replication (the same network and "
        "movement under each protocol), mean ± 95% CI.\n"
    )
    rows = []
    for net, runs in data.items():
        for v in VARIANTS:
            for lim in LIMITS:
                base = runs.get(("aodv", v, lim))
                if not base:
                    continue
                cells = [
                    fmt(paired(runs[(p, v, lim)], base, "goodput"), sign=True)
                    if (p, v, lim) in runs
                    else "-"
                    for p in PROTOCOLS[1:]
                ]
                rows.append([net, v, lim, fmt(summary(base, "goodput")), *cells])
    out.append(
        table(
            rows,
            ["network", "TCP", "window limit", "AODV", "DSR - AODV", "OLSR - AODV", "HWMP - AODV"],
            3,
        )
    )

    out.append(
        "\nTable 3. The hop-based window limit: goodput with it minus without (kbit/s, paired), "
        "delay (ms) and timeouts (per run) without → with it, and the limit in force "
        "(segments, mean over the flows).\n"
    )
    rows = []
    for net, runs in data.items():
        for p in PROTOCOLS:
            for v in VARIANTS:
                none, hop = runs.get((p, v, "none")), runs.get((p, v, "hop_based"))
                if not none or not hop:
                    continue
                d0, d1 = summary(none, "delay"), summary(hop, "delay")
                t0, t1 = summary(none, "timeouts"), summary(hop, "timeouts")
                cwl = summary(hop, "cwl")
                rows.append(
                    [
                        net,
                        p.upper(),
                        v,
                        fmt(paired(hop, none, "goodput"), sign=True),
                        f"{fmt(d0)} → {fmt(d1)}",
                        f"{t0.mean:.0f} → {t1.mean:.0f}" if t0 and t1 else "-",
                        "-" if cwl is None else f"{cwl.mean:.1f}",
                    ]
                )
    out.append(
        table(rows, ["network", "routing", "TCP", "Δ goodput", "delay", "timeouts", "limit"], 3)
    )

    out.append(
        "\nTable 4. Control messages sent per second by kind (every hop counted; OLSR packs "
        "several in a packet), the share of time a flow's source had no route, route "
        "changes per flow, the hops of the routes in use (per flow, weighted by time), and "
        "the mean goodput per flow (kbit/s) by the flow's shortest path at time 0 (1, 2-3, "
        "4 or more hops; in brackets the flows over all replications); NewReno without a "
        "window limit.\n"
    )
    rows = []
    for net, runs in data.items():
        for p in PROTOCOLS:
            r = runs.get((p, "newreno", "none"))
            if not r:
                continue
            kinds = sorted(
                {k for m in r.values() for k in m if k.startswith("msg:")}, key=kind_order
            )
            msgs = ", ".join(
                f"{k[4:]} {summary(r, k).mean:,.1f}" for k in kinds if summary(r, k) is not None
            )
            no_route = summary(r, "no_route")
            rows.append(
                [
                    net,
                    p.upper(),
                    msgs or "-",
                    "-" if no_route is None else f"{no_route.mean:.0%}",
                    fmt(summary(r, "route_changes"), "{:,.0f}"),
                    fmt(summary(r, "route_hops"), "{:,.2f}"),
                    *(per_flow(r, c) for c in HOP_CLASSES),
                ]
            )
    header = ["network", "routing", "messages/s", "no route", "route changes", "route hops"]
    header += [f"{c} hop{'s' if c != '1' else ''}" for c in HOP_CLASSES]
    out.append(table(rows, header, 3))

    out.append(
        "\nTable 5. Vegas' goodput minus NewReno's (kbit/s), paired by replication, mean ± 95% "
        "CI.\n"
    )
    rows = []
    for net, runs in data.items():
        for lim in LIMITS:
            cells = [
                fmt(
                    paired(runs[(p, "vegas", lim)], runs[(p, "newreno", lim)], "goodput"), sign=True
                )
                if (p, "vegas", lim) in runs and (p, "newreno", lim) in runs
                else "-"
                for p in PROTOCOLS
            ]
            rows.append([net, lim, *cells])
    out.append(table(rows, ["network", "window limit", *(p.upper() for p in PROTOCOLS)], 2))
    return "\n".join(out) + "\n"


def draw(data: dict[str, dict[Key, dict[int, dict]]], path: Path) -> None:
    nets = [n for n in NETWORKS if data.get(n)]
    rows = [
        ("goodput", "goodput, all flows (kbit/s)"),
        ("vs_aodv", "goodput − AODV's, paired (kbit/s)"),
        ("delay", "one-way delay (ms)"),
        ("control", "routing packets/s (log scale)"),
    ]
    fig, axes = plt.subplots(
        len(rows), len(nets), figsize=(5.6 * len(nets), 3.3 * len(rows)), squeeze=False
    )
    offsets = {k: -0.27 + 0.18 * i for i, k in enumerate(STYLE)}
    for col, net in enumerate(nets):
        runs = data[net]
        for row, (measure, label) in enumerate(rows):
            ax = axes[row][col]
            for (v, lim), (color, marker, name) in STYLE.items():
                xs, ys, err = [], [], []
                for i, p in enumerate(PROTOCOLS):
                    r = runs.get((p, v, lim), {})
                    if measure == "vs_aodv":
                        s = (
                            None
                            if p == "aodv"
                            else paired(r, runs.get(("aodv", v, lim), {}), "goodput")
                        )
                    else:
                        s = summary(r, measure)
                    if s is None:
                        continue
                    xs.append(i + offsets[(v, lim)])
                    ys.append(s.mean)
                    err.append(0.0 if math.isnan(s.half_width) else s.half_width)
                ax.errorbar(
                    xs,
                    ys,
                    yerr=err,
                    color=color,
                    marker=marker,
                    markerfacecolor=color if lim == "none" else "white",
                    markersize=6,
                    capsize=3,
                    linestyle="none",
                    label=name,
                )
            ax.set_xticks(range(len(PROTOCOLS)), [p.upper() for p in PROTOCOLS])
            ax.set_xlim(-0.6, len(PROTOCOLS) - 0.4)
            for i in range(1, len(PROTOCOLS)):
                ax.axvline(i - 0.5, color="0.85", linewidth=0.8)
            ax.set_ylabel(label)
            if measure == "control":
                ax.set_yscale("log")
                ax.yaxis.set_major_locator(matplotlib.ticker.FixedLocator(LOG_TICKS))
                ax.yaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
                ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
            elif measure == "vs_aodv":
                ax.axhline(0.0, color="0.4", linewidth=0.8)
                ax.text(0, 0, "AODV = 0", ha="center", va="bottom", fontsize=8, color="0.4")
            else:
                ax.set_ylim(bottom=0)
            ax.grid(axis="y", color="0.92")
            if row == 0:
                ax.set_title(f"{NETWORKS[net]}; 95% CIs")
    axes[0][0].legend(fontsize=8, loc="lower left")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grid", default="results/mesh-routing-grid", help="store of grid-sweep.toml")
    ap.add_argument(
        "--manet", default="results/mesh-routing-manet", help="store of manet-sweep.toml"
    )
    ap.add_argument("--out", default="results/mesh-routing/mesh-routing.png", help="figure")
    ap.add_argument("--table", default=None, help="also write the tables to this Markdown file")
    args = ap.parse_args()

    data = {"grid": load(args.grid), "manet": load(args.manet)}
    text = report(data)
    print(text)
    if args.table:
        Path(args.table).parent.mkdir(parents=True, exist_ok=True)
        Path(args.table).write_text(text, encoding="utf-8")
    out = Path(args.out)
    draw(data, out)
    print(f"figure: {out}")


if __name__ == "__main__":
    main()

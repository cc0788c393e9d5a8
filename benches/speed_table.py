"""The speed benchmark's table, plain text (copyable into Markdown as is)."""

from __future__ import annotations

from typing import Any

HEADERS = (
    "row",
    "sim s",
    "wall s",
    "sim s/wall s",
    "events",
    "M events/s",
    "peak RSS MB",
    "ns-2 traced s",
    "ns-2 off s",
    "ns-2/hopsim traced",
    "ns-2/hopsim off",
    "notes",
)


def _notes(r: dict[str, Any]) -> str:
    notes = []
    if "mem_per_node_kb" in r and r.get("nodes", 0) >= 1000:
        notes.append(f"{r['mem_per_node_kb']:.1f} kB/node over the import")
    if "ns2_mem_per_node_kb" in r:
        notes.append(f"ns-2.35 {r['ns2_mem_per_node_kb']:.0f} kB/node (its peak RSS / nodes)")
    if "ratio_ns3" in r:
        notes.append(f"ns-3.44 {r['ns3_wall_s']:.2f} s: {r['ratio_ns3']:.0f}x")
    elif "ns3" in r:
        notes.append(str(r["ns3"]))
    if "fork_wall_s" in r:
        share = r["fork_wall_s"] / r["run_to_fork_wall_s"]
        notes.append(
            f"fork at {r['fork_at_s']:g} s: {r['fork_wall_s'] * 1e3:.2f} ms, {share:.2%} of the run"
        )
    if "validate_wall_s" in r:
        notes.append(f"validate_json {r['validate_wall_s']:.2f} s")
    if r.get("nodes", 0) >= 100:
        notes.insert(0, f"{r['nodes']} nodes, {r['flows']} flows")
    if r["row"] == "cli-run":
        notes.append(f"median of {len(r['walls_s'])}, process start to exit")
        if "help_wall_s" in r:
            notes.append(f"--help {r['help_wall_s']:.3f} s")
    if "speedup" in r:
        same = "identical" if r["identical"] else "DIFFERENT"
        notes.append(f"{r['runs']} runs, speed-up {r['speedup']:.2f}x, store {same}")
    if "walls_s" in r and r["row"] != "cli-run" and len(r["walls_s"]) > 1:
        notes.append(f"best of {len(r['walls_s'])}")
    return "; ".join(notes)


def cells(r: dict[str, Any]) -> list[str]:
    """One row of the table."""
    if "error" in r:
        return [r["row"], *["-"] * (len(HEADERS) - 2), r["error"][:200]]
    wall = float(r["wall_s"])
    events = int(r["events"])
    rss = f"{r['peak_rss_kb'] / 1024:.1f}" if "peak_rss_kb" in r else "-"
    # A build row (a 0.001 s run) has no meaningful rates.
    build = "validate_wall_s" in r
    out = [
        r["row"],
        f"{r['duration_s']:g}",
        f"{wall:.3f}",
        "-" if build else f"{r['duration_s'] / wall:,.0f}",
        f"{events:,}",
        "-" if build else f"{events / wall / 1e6:.2f}",
        rss,
    ]
    if "traced_wall_s" in r:
        out += [
            f"{r['traced_wall_s']:.2f}",
            f"{r['off_wall_s']:.2f}",
            f"{r['ratio_traced']:.1f}x",
            f"{r['ratio_off']:.1f}x",
        ]
    elif "ns2" in r:  # not installed, skipped or failed: every ns-2 column says which
        out += [str(r["ns2"]).splitlines()[0]] * 4
    else:
        out += ["-"] * 4
    return [*out, _notes(r)]


def print_table(rows: list[dict[str, Any]]) -> None:
    """The rows under a header, columns padded (numbers right-aligned)."""
    table = [list(HEADERS), *(cells(r) for r in rows)]
    widths = [max(len(line[i]) for line in table) for i in range(len(HEADERS))]
    for k, line in enumerate(table):
        parts = []
        for i, cell in enumerate(line):
            left = i in (0, len(HEADERS) - 1) or k == 0
            parts.append(cell.ljust(widths[i]) if left else cell.rjust(widths[i]))
        print(" | ".join(parts).rstrip())
        if k == 0:
            print("-+-".join("-" * w for w in widths))

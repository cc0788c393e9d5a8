"""hopsim's static TCP chain side by side with ns-3 (TcpNewReno, TcpCubic, TcpBbr).

    python -m hopsim.crosscheck.ns3run --hops 1 4 7 --variants newreno cubic bbr --seeds 5

builds ``ns3/chain_tcp.cc`` once (:mod:`.ns3build`), runs every hops x variant x seed in ns-3
(RngSeedManager run = the seed) and in hopsim (the same chain, :func:`.ns3translate.chain_scenario`,
seed = the seed), and prints the means with Student-t 95% intervals per side (``--json`` keeps
every run). A variant hopsim does not accept is run in ns-3 only, and the table says so.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._core import ScenarioError
from ..limits import check_text_depth, read_limited
from ..sweeps.stats import Summary, summarize_values
from .args import hop_count, output_file, seconds, seed_count
from .ns3build import Ns3Missing, build_chain_tcp, run_program
from .ns3translate import NS3_VARIANTS, chain_scenario, ns3_arguments

__all__ = [
    "METRICS",
    "SideBySide",
    "hopsim_refusal",
    "main",
    "markdown_table",
    "run_hopsim",
    "run_ns3",
    "side_by_side",
]

#: Per run, both sides: goodput over the window; the rest over the whole run.
METRICS = (
    "goodput_kbps",
    "segments_sent",
    "retransmissions",
    "fast_retransmits",
    "timeouts",
    "rtt_ms_mean",
    "mac_retries",
    "retry_limit_drops",
    "queue_drops",
    "events",
    "wall_s",
)


def run_ns3(
    resolved: dict[str, Any], run: int, binary: Path | None = None, timeout_s: float = 3600.0
) -> dict[str, Any]:
    """One run of the resolved chain scenario in ns-3: the scenario's JSON line, parsed.

    Raises:
        Ns3Untranslatable: the scenario has a key the ns-3 scenario cannot express.
        Ns3Missing: no ns-3 wheel or compiler.
        RuntimeError: the build or the run failed (the last lines quoted).
    """
    args = ns3_arguments(resolved, run)
    binary = binary or build_chain_tcp()
    return run_program(binary, args, timeout_s)


def run_hopsim(scenario: dict[str, Any], seed: int, reception: str = "capture") -> dict[str, Any]:
    """One hopsim run of ``scenario`` with ``seed`` and ``radio.reception``: the same fields
    as :func:`run_ns3`."""
    from ..api import run as hopsim_run

    r = hopsim_run(scenario, {"radio.reception": reception}, seed=seed)
    f = r.flows[0]
    return {
        "simulator": "hopsim",
        "goodput_kbps": f.goodput_kbps,
        "bytes_delivered": f.bytes_delivered,
        "segments_sent": f.segments_sent,
        "retransmissions": f.retransmissions,
        "fast_retransmits": f.fast_retransmits,
        "timeouts": f.timeouts,
        "rtt_ms_mean": f.rtt_ms.mean,
        "rtt_samples": f.rtt_ms.samples,
        "mac_retries": r.totals.mac_retries,
        "retry_limit_drops": r.totals.retry_limit_drops,
        "queue_drops": r.totals.queue_drops,
        "events": r.raw["engine"]["events"],
        "wall_s": r.wall_time_s,
    }


def hopsim_refusal(variant: str) -> str | None:
    """Why hopsim cannot run ``variant`` (its scenario error), or None if it can."""
    from ..api import validate

    try:
        validate(chain_scenario(1, variant, duration_s=1.0, warmup_s=0.0))
    except ScenarioError as e:
        return str(e)
    return None


@dataclass
class SideBySide:
    """Every run of a side-by-side comparison, and the variants hopsim skipped (with why).
    hopsim's runs are under the simulator name ``hopsim/<reception>``."""

    hops: list[int]
    variants: list[str]
    seeds: list[int]
    duration_s: float
    warmup_s: float
    receptions: list[str]
    runs: list[dict[str, Any]] = field(default_factory=list)
    hopsim_skipped: dict[str, str] = field(default_factory=dict)

    def values(self, simulator: str, hops: int, variant: str, metric: str) -> list[Any]:
        return [
            r[metric]
            for r in self.runs
            if r["simulator"] == simulator and r["hops"] == hops and r["variant"] == variant
        ]

    def summary(self, simulator: str, hops: int, variant: str, metric: str) -> Summary | None:
        return summarize_values(self.values(simulator, hops, variant, metric))

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> SideBySide:
        """The comparison :meth:`to_json` wrote (its summaries are recomputed from the runs)."""
        return cls(
            doc["hops"],
            doc["variants"],
            doc["seeds"],
            doc["duration_s"],
            doc["warmup_s"],
            doc["receptions"],
            doc["runs"],
            doc["hopsim_skipped"],
        )

    @property
    def simulators(self) -> list[str]:
        """hopsim's sides: one per reception mode."""
        return [f"hopsim/{r}" for r in self.receptions]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hops": self.hops,
            "variants": self.variants,
            "seeds": self.seeds,
            "duration_s": self.duration_s,
            "warmup_s": self.warmup_s,
            "receptions": self.receptions,
            "hopsim_skipped": self.hopsim_skipped,
            "runs": self.runs,
            "summary": [],
        }
        for h in self.hops:
            for v in self.variants:
                for sim in ("ns-3", *self.simulators):
                    for m in METRICS:
                        s = self.summary(sim, h, v, m)
                        if s is not None:
                            out["summary"].append(
                                {"simulator": sim, "hops": h, "variant": v, "metric": m,
                                 "n": s.n, "mean": s.mean, "half_width": s.half_width}
                            )  # fmt: skip
        return out


def side_by_side(
    hops: Sequence[int] = (1, 4, 7),
    variants: Sequence[str] = ("newreno", "cubic", "bbr"),
    seeds: Sequence[int] = (1, 2, 3),
    duration_s: float = 100.0,
    warmup_s: float = 10.0,
    receptions: Sequence[str] = ("capture", "sinr"),
    progress: Callable[[str], None] | None = None,
) -> SideBySide:
    """Run every hops x variant x seed in ns-3 and in hopsim with each reception mode (hopsim
    only where it accepts the variant). Raises what :func:`run_ns3` raises.

    ns-3's PHY is SINR-based: ``"sinr"`` is hopsim's model closest to it, ``"capture"`` (ns-2's
    rules) hopsim's default."""
    for v in variants:
        if v not in NS3_VARIANTS:
            raise ScenarioError(
                f"variant {v!r}: not in the ns-3 scenario; one of {', '.join(NS3_VARIANTS)}"
            )
    out = SideBySide(
        list(hops), list(variants), list(seeds), duration_s, warmup_s, list(receptions)
    )
    for v in variants:
        why = hopsim_refusal(v)
        if why is not None:
            out.hopsim_skipped[v] = why
    binary = build_chain_tcp()
    from ..api import validate

    for h in hops:
        for v in variants:
            scenario = chain_scenario(h, v, duration_s, warmup_s)
            resolved = None if v in out.hopsim_skipped else validate(scenario)
            if resolved is None:
                # ns-3 alone: resolve the same chain with a variant hopsim knows, then name it.
                resolved = validate(chain_scenario(h, "newreno", duration_s, warmup_s))
                resolved["flows"][0]["tcp"]["variant"] = v
            for seed in seeds:
                n3 = run_ns3(resolved, seed, binary)
                n3.update(simulator="ns-3", hops=h, variant=v, seed=seed)
                out.runs.append(n3)
                line = f"{h} hops {v} seed {seed}: ns-3 {n3['goodput_kbps']:.1f} kbit/s"
                for rec in [] if v in out.hopsim_skipped else receptions:
                    hs = run_hopsim(scenario, seed, rec)
                    hs.update(simulator=f"hopsim/{rec}", hops=h, variant=v, seed=seed)
                    out.runs.append(hs)
                    line += f", hopsim {rec} {hs['goodput_kbps']:.1f}"
                if progress:
                    progress(line)
    return out


def _cell(s: Summary | None, digits: int) -> str:
    if s is None:
        return "—"
    if s.n < 2:
        return f"{s.mean:.{digits}f}"
    return f"{s.mean:.{digits}f} ± {s.half_width:.{digits}f}"


def _disjoint(a: Summary | None, b: Summary | None) -> bool:
    if a is None or b is None or a.n < 2 or b.n < 2:
        return False
    return a.ci_high < b.ci_low or b.ci_high < a.ci_low


def markdown_table(report: SideBySide) -> str:
    """Goodput and retransmissions per side (mean ± 95% half-width), each hopsim goodput's
    difference (hopsim − ns-3) / ns-3 marked ✗ where the intervals are disjoint, and the mean
    wall time per run of each side."""
    sims = report.simulators
    names = [s.split("/", 1)[1] for s in sims]
    head = ["hops", "variant", "goodput ns-3"]
    for n in names:
        head += [f"goodput hopsim {n}", "diff"]
    head += ["retransmissions ns-3", *(f"retransmissions hopsim {n}" for n in names)]
    head += ["wall s ns-3", *(f"wall s hopsim {n}" for n in names)]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for h in report.hops:
        for v in report.variants:
            skipped = v in report.hopsim_skipped
            g3 = report.summary("ns-3", h, v, "goodput_kbps")
            cells = [str(h), v, _cell(g3, 1)]
            for sim in sims:
                gh = report.summary(sim, h, v, "goodput_kbps")
                cells += ["not in hopsim" if skipped else _cell(gh, 1), _diff(g3, gh)]
            cells.append(_cell(report.summary("ns-3", h, v, "retransmissions"), 1))
            cells += [_cell(report.summary(sim, h, v, "retransmissions"), 1) for sim in sims]
            cells.append(_mean(report.summary("ns-3", h, v, "wall_s"), 2))
            cells += [_mean(report.summary(sim, h, v, "wall_s"), 3) for sim in sims]
            rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def _diff(ns3: Summary | None, hopsim: Summary | None) -> str:
    if ns3 is None or hopsim is None or not ns3.mean:
        return "—"
    mark = " ✗" if _disjoint(ns3, hopsim) else ""
    return f"{(hopsim.mean - ns3.mean) / ns3.mean:+.1%}{mark}"


def _mean(s: Summary | None, digits: int) -> str:
    return "—" if s is None else f"{s.mean:.{digits}f}"


#: A --json comparison (hundreds of runs' numbers: a few MB at most).
MAX_TABLE_BYTES = 64 * 1024 * 1024


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m hopsim.crosscheck.ns3run",
        description="hopsim's static TCP chain side by side with ns-3 (the ns3 wheel).",
    )
    p.add_argument("--hops", type=hop_count, nargs="+", default=[1, 4, 7])
    p.add_argument("--variants", nargs="+", default=["newreno", "cubic", "bbr"])
    p.add_argument("--seeds", type=seed_count, default=3, help="replications (seeds 1..N)")
    p.add_argument("--duration", type=seconds, default=100.0, help="seconds per run")
    p.add_argument("--warmup", type=float, default=10.0, help="goodput from this time on")
    p.add_argument(
        "--reception",
        nargs="+",
        default=["capture", "sinr"],
        help="hopsim's radio.reception modes to run (ns-3's PHY is SINR-based)",
    )
    p.add_argument("--json", type=output_file, help="write every run and the summaries here")
    p.add_argument("--table", type=Path, help="print the table of a --json file; run nothing")
    a = p.parse_args(argv)
    if a.table:
        try:
            text = read_limited(a.table, "comparison file", MAX_TABLE_BYTES).decode()
            check_text_depth(text, str(a.table))
            table = markdown_table(SideBySide.from_json(json.loads(text)))
        except ScenarioError as e:
            print(f"error: --table {e}", file=sys.stderr)
            return 2
        except OSError as e:
            print(f"error: --table {a.table}: cannot read it ({e.strerror})", file=sys.stderr)
            return 2
        except (ValueError, KeyError, TypeError, IndexError, AttributeError, ArithmeticError) as e:
            print(
                f"error: --table {a.table}: not a comparison written by --json ({e!r})",
                file=sys.stderr,
            )
            return 2
        print(table, end="")
        return 0
    try:
        report = side_by_side(
            a.hops,
            a.variants,
            list(range(1, a.seeds + 1)),
            a.duration,
            a.warmup,
            a.reception,
            progress=lambda s: print(s, file=sys.stderr),
        )
    except (Ns3Missing, ScenarioError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for v, why in report.hopsim_skipped.items():
        print(f"hopsim skipped {v}: {why}", file=sys.stderr)
    print(markdown_table(report), end="")
    if a.json:
        try:
            a.json.write_text(json.dumps(report.to_json(), indent=1) + "\n")
        except OSError as e:
            print(f"error: --json {a.json}: cannot write it ({e.strerror})", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

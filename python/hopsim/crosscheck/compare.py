"""``hopsim crosscheck``: the same runs in ns-2.35 and in hopsim, side by side.

A crosscheck is a sweep run once per simulator (and per hopsim profile) into one result
store, so it is as robust as a sweep: every finished run is stored at once, a rerun resumes,
runs go to local processes or a Dask cluster. Replication ``r`` of a point has the same seed
and the same layout (positions, moves, random flows, start times) in both simulators; the
random streams inside each simulator differ, so the comparison is statistical: means with
Student-t 95% intervals over the replications.
"""

from __future__ import annotations

import copy
import csv
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from .._core import ScenarioError
from ..scenario import apply_overrides, load, read_toml
from ..sweeps import folder_lock, run_sweep, summarize
from ..sweeps.simulators import HOPSIM
from ..sweeps.spec import SweepSpec, check_count_option, load_sweep, name_from_file
from ..sweeps.stats import Summary
from .ns2run import NS2, find_ns, layout_of
from .translate import translate

__all__ = [
    "CROSSCHECK_METRICS",
    "PROFILES",
    "CrosscheckReport",
    "Row",
    "crosscheck",
    "load_crosscheck",
]

#: What is compared (names of hopsim's metrics; ns-2's are read to the same definitions).
CROSSCHECK_METRICS = (
    "goodput_kbps",
    "segments_sent",
    "retransmissions",
    "timeouts",
    "avg_cwnd",
    "mean_delay_ms",
    "totals.retry_limit_drops",
    "totals.routing_packets",
    "totals.no_route_drops",
)
PROFILES = ("standard", "ns2")


@dataclass(frozen=True)
class Row:
    """One point and metric: ns-2's statistics and hopsim's per profile."""

    point: int
    params: dict[str, Any]
    metric: str
    ns2: Summary | None
    hopsim: dict[str, Summary | None]

    def difference(self, profile: str) -> float | None:
        """(hopsim − ns-2) / ns-2 of the means; None when ns-2's mean is 0 or missing."""
        h, n = self.hopsim.get(profile), self.ns2
        if h is None or n is None or n.mean == 0:
            return None
        return (h.mean - n.mean) / abs(n.mean)

    def overlap(self, profile: str) -> bool | None:
        """Do the two 95% intervals overlap (None without intervals)?"""
        h, n = self.hopsim.get(profile), self.ns2
        if h is None or n is None or h.n < 2 or n.n < 2:
            return None
        return h.ci_low <= n.ci_high and n.ci_low <= h.ci_high


@dataclass
class CrosscheckReport:
    name: str
    out_dir: Path
    profiles: tuple[str, ...]
    rows: list[Row] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    runs: dict[str, int] = field(default_factory=dict)  # sweep name -> runs done now
    scripts: list[Path] = field(default_factory=list)

    def metric_rows(self, metric: str) -> list[Row]:
        return [r for r in self.rows if r.metric == metric]


def _is_sweep(doc: Mapping[str, Any]) -> bool:
    return any(k in doc for k in ("sweep", "base", "scenario", "replications"))


def load_crosscheck(
    source: str | PathLike[str],
    replications: int | None = None,
    overrides: Sequence[str] | None = None,
    seed: int | None = None,
    quick: bool = False,
    budget: Mapping[str, Any] | None = None,
) -> SweepSpec:
    """A scenario file (one point) or a sweep file, as the sweep a crosscheck runs;
    ``budget``: each hopsim run's budget (``max_events``, ``max_memory_mb``)."""
    _check_options(replications, seed)
    path = Path(source)
    doc = read_toml(path, "scenario or sweep file")
    if _is_sweep(doc):
        if overrides:
            raise ScenarioError(
                "--set applies to a scenario file; in a sweep file, change its base or [sweep]"
            )
        spec = load_sweep(path, quick=quick, budget=budget)
        if seed is not None:
            spec.seed = seed
    else:
        base = apply_overrides(load(path), list(overrides or []))
        spec = SweepSpec(
            name=name_from_file(path),
            base=base,
            axes=[],
            values={},
            replications=1,
            seed=seed if seed is not None else int(base.get("seed", 1)),
            metrics=CROSSCHECK_METRICS,
            source=str(path),
            quick=quick,
            budget=dict(budget or {}),
        )
    if replications is not None:
        spec.replications = replications
    spec.metrics = tuple(dict.fromkeys(CROSSCHECK_METRICS + tuple(spec.metrics)))
    return spec


def _check_options(replications: int | None, seed: int | None) -> None:
    """--replications 1..MAX_REPLICATIONS (a huge number built its tasks for minutes before
    anything ran), --seed 0..2^64-1 as a sweep file's ``seed``."""
    if replications is not None:
        check_count_option("--replications", replications, "runs per point and simulator")
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64
    ):
        raise ScenarioError(f"--seed {seed!r}: not allowed, give an integer 0..2^64-1")


def _variant(spec: SweepSpec, simulator: str, profile: str | None) -> SweepSpec:
    s = copy.copy(spec)
    s.base = copy.deepcopy(spec.base)
    s.points = list(spec.points)
    s.simulator = simulator
    if profile is not None:
        s.base["profile"] = profile
        s.name = f"{spec.name}@hopsim-{profile}"
    else:
        s.base.pop("profile", None)
        s.name = f"{spec.name}@ns2"
    return s


def translate_runs(spec: SweepSpec) -> list[tuple[str, str]]:
    """Every run as ns-2 Tcl: ``(file name, script)``, ``point<P>-rep<R>.tcl`` (traces next
    to them). Raises ScenarioError for a key ns-2 cannot express, before anything is written."""
    import json

    from .. import _core
    from ..scenario import to_json

    scripts = []
    for task in spec.tasks():
        resolved = json.loads(_core.validate_json(to_json(task.scenario)))
        stem = f"point{task.point}-rep{task.replication}"
        scripts.append((f"{stem}.tcl", translate(resolved, layout_of(resolved), f"{stem}.tr")))
    return scripts


def write_scripts(spec: SweepSpec, folder: Path) -> list[Path]:
    """The Tcl script of every run, written into ``folder`` (see :func:`translate_runs`)."""
    return _write(translate_runs(spec), folder)


def _write(scripts: list[tuple[str, str]], folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in scripts:
        (folder / name).write_text(text)
    return [folder / name for name, _ in scripts]


def crosscheck(
    spec: SweepSpec,
    out_dir: str | PathLike[str],
    profiles: Sequence[str] = ("ns2",),
    jobs: int | None = None,
    scheduler: str | None = None,
    progress: str | None = None,
) -> CrosscheckReport:
    """Run ``spec`` in ns-2 and in hopsim (each profile); compare per point and metric.

    Raises ScenarioError before any run when a key cannot be expressed in ns-2, when ns is
    missing, or when a profile is unknown.
    """
    for p in profiles:
        if p not in PROFILES:
            raise ScenarioError(f"--profile {p!r}: allowed: {', '.join(PROFILES)}, both")
    find_ns()
    out = Path(out_dir)
    ns2_spec = _variant(spec, NS2.name, None)
    # Translate every run first: an untranslatable key fails here, before anything is written.
    tcl = translate_runs(ns2_spec)
    with folder_lock(out):  # scripts, runs and table: one writer at a time
        return _crosscheck_held(
            spec, ns2_spec, tcl, out, tuple(profiles), jobs, scheduler, progress
        )


def _crosscheck_held(
    spec: SweepSpec,
    ns2_spec: SweepSpec,
    tcl: list[tuple[str, str]],
    out: Path,
    profiles: tuple[str, ...],
    jobs: int | None,
    scheduler: str | None,
    progress: str | None,
) -> CrosscheckReport:
    scripts = _write(tcl, out / "ns2")
    report = CrosscheckReport(spec.name, out, profiles, scripts=scripts)
    specs = [ns2_spec] + [_variant(spec, HOPSIM.name, p) for p in profiles]
    for s in specs:
        r = run_sweep(s, out, jobs=jobs, scheduler=scheduler, progress=progress)
        report.runs[s.name] = r.done
        report.failures.extend(f"{s.name}: {f}" for f in r.failures)
    metrics = list(spec.metrics)
    ns2 = {p.point: p for p in summarize(out, ns2_spec.name, metrics)}
    hop = {
        p: {q.point: q for q in summarize(out, s.name, metrics)}
        for p, s in zip(profiles, specs[1:], strict=True)
    }
    for point in spec.points:
        n = ns2.get(point.index)
        for m in metrics:
            report.rows.append(
                Row(
                    point.index,
                    dict(point.params),
                    m,
                    n.stats.get(m) if n else None,
                    {
                        p: (hop[p][point.index].stats.get(m) if point.index in hop[p] else None)
                        for p in profiles
                    },
                )
            )
    write_table(report, out / "crosscheck.csv")
    return report


def write_table(report: CrosscheckReport, path: Path) -> None:
    """Every row as CSV: point, params, metric, ns-2 and each profile's mean, CI, n."""
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        head = ["point", "params", "metric", "ns2_mean", "ns2_low", "ns2_high", "ns2_n"]
        for p in report.profiles:
            head += [f"{p}_mean", f"{p}_low", f"{p}_high", f"{p}_n", f"{p}_diff", f"{p}_overlap"]
        w.writerow(head)
        for r in report.rows:
            label = "; ".join(f"{k}={v}" for k, v in r.params.items())
            row: list[Any] = [r.point, label, r.metric, *_stat(r.ns2)]
            for p in report.profiles:
                row += [*_stat(r.hopsim.get(p)), r.difference(p), r.overlap(p)]
            w.writerow(row)


def _stat(s: Summary | None) -> list[Any]:
    if s is None:
        return [None, None, None, 0]
    return [s.mean, s.ci_low, s.ci_high, s.n]

"""What every catalogue entry shares: running its sweeps, and writing its points, figures
and the table that sets the paper's values and claims beside ours.

A study module defines ``STUDY = Study(...)``: its sweep files (TOML, in
``hopsim/studies/sweeps/``) and an ``analyse(ctx)`` function that draws the figures through
``ctx.figure(...)`` (or draws its own on ``ctx.subplots(...)`` and writes it with
``ctx.save_figure``) and returns the claims, each with a :class:`Verdict`.

The point helpers (:func:`remap`, :func:`mean_at`, :func:`pivot`, :func:`best_points`) are
the lookups every study needs on its sweeps' points: new parameter names for legends, the
mean of a metric at a point, a metric as a table keyed by swept keys, the best point per key.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from .._core import ScenarioError
from ..sweeps import PointSummary, ResultStore, folder_lock, load_sweep, run_sweep, summarize
from ..sweeps.plot import plot_points

__all__ = [
    "SWEEP_DIR",
    "Claim",
    "Study",
    "StudyContext",
    "StudyReport",
    "Verdict",
    "best_points",
    "check",
    "compare_value",
    "mean_at",
    "pct",
    "pivot",
    "remap",
    "reproduce_study",
]

SWEEP_DIR = Path(__file__).parent / "sweeps"


class Verdict(str, Enum):
    """The kinds of verdict a claim gets; its text starts with one and may say more
    ("differs by +23%", "not comparable: Table 1 stops at N = 30")."""

    HOLDS = "holds"
    PARTLY = "partly"
    DIFFERS = "differs"
    DOES_NOT_HOLD = "does not hold"
    NOT_COMPARABLE = "not comparable"

    @classmethod
    def of(cls, text: str) -> Verdict:
        """The kind of a verdict text.

        Raises:
            ValueError: the text starts with no kind.
        """
        for kind in sorted(cls, key=lambda k: -len(k.value)):
            if text.startswith(kind.value):
                return kind
        kinds = ", ".join(repr(k.value) for k in cls)
        raise ValueError(f"verdict {text!r} starts with none of {kinds}")

    def says(self, detail: str = "") -> str:
        """The verdict text: this kind's word, then ``detail`` as written (``" by +23%"``,
        ``": Table 1 stops at N = 30"``, ``" (why)"``)."""
        return self.value + detail


@dataclass(frozen=True)
class Claim:
    """One reported number or qualitative finding of the paper, beside ours."""

    claim: str  # what the paper says, briefly
    paper: str  # the paper's value(s), as printed
    ours: str  # our value(s)
    verdict: str  # a Verdict's word, then details: "differs by +23%", "not comparable: why"
    source: str = ""  # where in the paper (seed file and line)

    def __post_init__(self) -> None:
        if isinstance(self.verdict, Verdict):  # a bare kind: its word, as plain text
            object.__setattr__(self, "verdict", self.verdict.value)
        Verdict.of(self.verdict)  # every verdict names its kind

    @property
    def kind(self) -> Verdict:
        return Verdict.of(self.verdict)

    @property
    def holds(self) -> bool:
        return self.kind is Verdict.HOLDS


def compare_value(ours: float | None, paper: float, tolerance: float = 0.10) -> str:
    """``holds`` when ``ours`` is within ``tolerance`` (relative) of ``paper``, else
    ``differs by +X%``."""
    if ours is None or (isinstance(ours, float) and math.isnan(ours)):
        return NO_VALUE
    if paper == 0:
        return Verdict.HOLDS.says() if ours == 0 else Verdict.DIFFERS.says(f" ({ours:g} vs 0)")
    diff = (ours - paper) / abs(paper)
    return (
        Verdict.HOLDS.says() if abs(diff) <= tolerance else Verdict.DIFFERS.says(f" by {diff:+.0%}")
    )


#: The verdict of a claim we have no number for.
NO_VALUE = Verdict.NOT_COMPARABLE.says(": no value of ours")


def check(condition: bool, why_not: str = "") -> str:
    """``holds`` or ``does not hold`` (with the reason, if given)."""
    if condition:
        return Verdict.HOLDS.value
    no = Verdict.DOES_NOT_HOLD.value
    return f"{no} ({why_not})" if why_not else no


def pct(new: float | None, old: float | None) -> float | None:
    """Relative change (new - old) / old, or None when it cannot be computed."""
    if new is None or old is None or old == 0:
        return None
    return (new - old) / abs(old)


# ---------------------------------------------------------------------------- points


def remap(
    points: Sequence[PointSummary], params: Callable[[dict[str, Any]], dict[str, Any]]
) -> list[PointSummary]:
    """The points with their params replaced by ``params(point.params)``: readable names for
    legends and axes (``{"h": ..., "CWL": "hop-based"}``); ids, runs and stats kept."""
    return [PointSummary(p.point, params(p.params), p.runs, p.stats) for p in points]


def mean_at(points: Sequence[PointSummary], metric: str, params: Mapping[str, Any]) -> float | None:
    """The mean of ``metric`` at the first point whose params include ``params``; None when
    there is no such point or it has no value of the metric."""
    for p in points:
        if all(p.params.get(k) == v for k, v in params.items()):
            s = p.stats.get(metric)
            return None if s is None else s.mean
    return None


def _key(p: PointSummary, keys: str | tuple[str, ...]) -> Any:
    return p.params[keys] if isinstance(keys, str) else tuple(p.params[k] for k in keys)


def pivot(
    points: Sequence[PointSummary],
    index: str | tuple[str, ...],
    metric: str,
    columns: str | None = None,
    stat: str | None = "mean",
) -> dict[Any, Any]:
    """``metric`` as a table keyed by swept keys: ``{index value: value}``, or with
    ``columns`` ``{index value: {column value: value}}`` (a tuple of keys indexes by tuples).
    The value is the metric's ``Summary`` attribute ``stat``, or the ``Summary`` itself for
    ``stat=None``; points without the metric are left out, in the points' order."""
    out: dict[Any, Any] = {}
    for p in points:
        s = p.stats.get(metric)
        if s is None:
            continue
        value = s if stat is None else getattr(s, stat)
        if columns is None:
            out[_key(p, index)] = value
        else:
            out.setdefault(_key(p, index), {})[p.params[columns]] = value
    return out


def best_points(
    points: Sequence[PointSummary],
    by: Callable[[PointSummary], Hashable],
    metric: str,
    where: Callable[[PointSummary], bool] = lambda p: True,
) -> dict[Any, PointSummary]:
    """Per value of ``by(point)``, the point ``where`` accepts with the highest mean of
    ``metric`` (the first of equals), in the order the values first win."""
    best: dict[Any, PointSummary] = {}
    for p in points:
        s = p.stats.get(metric)
        if s is None or not where(p):
            continue
        k = by(p)
        if k not in best or s.mean > best[k].stats[metric].mean:
            best[k] = p
    return best


#: A table: its title, column names, and rows of cell texts.
Headline = tuple[str, list[str], list[list[str]]]


@dataclass
class Study:
    name: str
    title: str
    source: str  # the paper, as cited
    # Sweep file names in SWEEP_DIR, or functions quick -> sweep dict (for sweeps that
    # depend on measurements, e.g. the sender/receiver pairs of a testbed), run in order.
    sweeps: list[str | Callable[[bool], dict[str, Any]]]
    analyse: Callable[[StudyContext], list[Claim]]
    notes: str = ""  # what differs from the paper's set-up, and why
    # The study's main comparison as a table (title, column names, rows of text), printed
    # first by `hopsim reproduce` and written to headline.csv.
    headline: Callable[[StudyContext], Headline] | None = None
    #: The paper ran ns-2: its claims are also judged on ns-2.35's runs (``ns2side.py``).
    ns2: bool = False


@dataclass
class StudyContext:
    """What ``analyse`` works with: the sweeps' summaries and a place for figures."""

    study: Study
    out_dir: Path
    quick: bool
    store: ResultStore
    figures: list[Path] = field(default_factory=list)

    def points(self, sweep: str, metrics: Sequence[str] | None = None) -> list[PointSummary]:
        """The points of sweep ``sweep`` (its ``name``) with replication statistics."""
        return summarize(self.store, sweep, list(metrics) if metrics else None)

    def mean(self, points: Sequence[PointSummary], metric: str, **params: Any) -> float | None:
        """The mean of ``metric`` at the point whose params match ``params`` (keys with the
        dots written as ``__``: ``topology__hops=4``), or None."""
        return mean_at(points, metric, {k.replace("__", "."): v for k, v in params.items()})

    def figure(self, stem: str, points: Sequence[PointSummary], x: str, y: str, **kw: Any) -> None:
        """Draw a figure (see :func:`hopsim.sweeps.plot.plot_points`) into ``figures/``."""
        self.figures.extend(plot_points(points, x, y, self.out_dir / "figures" / stem, **kw))

    def subplots(self, *args: Any, **kw: Any) -> tuple[Any, Any]:
        """A matplotlib figure and axes (``plt.subplots``, off screen) for a figure the study
        draws itself; write it with :meth:`save_figure`."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        return plt.subplots(*args, **kw)

    def save_figure(self, fig: Any, stem: str, dpi: int = 120) -> None:
        """Write a matplotlib figure the study drew itself as ``figures/STEM.png`` and
        ``.pdf``, list them among the study's figures and close it."""
        import matplotlib.pyplot as plt

        folder = self.out_dir / "figures"
        folder.mkdir(parents=True, exist_ok=True)
        for suffix in (".png", ".pdf"):
            path = folder / f"{stem}{suffix}"
            fig.savefig(path, dpi=dpi)
            self.figures.append(path)
        plt.close(fig)


@dataclass
class StudyReport:
    name: str
    title: str
    out_dir: Path
    claims: list[Claim]
    figures: list[Path]
    points_csv: Path
    table_md: Path
    runs_done: int
    runs_skipped: int
    runs_failed: int
    headline: Headline | None = None
    #: What the precision allows (quick mode: intervals too wide), one line per sweep.
    notes: list[str] = field(default_factory=list)
    #: Every claim beside ns-2.35's (``threeway.py``); None without an ns-2.35 column.
    three_way: list[Any] | None = None
    ns2_source: str = ""


def reproduce_study(
    study: Study,
    out_dir: Path,
    quick: bool = False,
    jobs: int | None = None,
    scheduler: str | None = None,
    progress: str | None = None,
    budget: Mapping[str, Any] | None = None,
    ns2: str = "auto",
    write_reference: bool = False,
) -> StudyReport:
    """Run (or resume) the study's sweeps into ``out_dir`` and write its outputs there:
    ``points.csv``, ``figures/*.png|pdf``, ``claims.md`` and ``claims.csv``. ``budget``:
    each run's budget (``max_events``, ``max_memory_mb``).

    For a study the paper ran in ns-2 (``Study.ns2``), ``ns2`` says where ns-2.35's column
    comes from: ``"auto"`` the reference results shipped with hopsim (none if the study has
    none), ``"live"`` its sweeps run in ns-2.35 now (into ``out_dir/ns2``), ``"off"`` none.
    ``write_reference`` (with ``"live"``) makes the shipped reference of this mode from them."""
    if ns2 not in ("auto", "live", "off"):
        raise ValueError(f"ns2={ns2!r}: not one of 'auto', 'live', 'off'")
    if write_reference and ns2 != "live":
        raise ScenarioError("--write-reference needs --ns2: the reference is made from live runs")
    # Every sweep is checked before the first run.
    specs = [
        load_sweep(f(quick) if callable(f) else SWEEP_DIR / f, quick=quick, budget=budget)
        for f in study.sweeps
    ]
    done = skipped = failed = 0
    notes = []
    with folder_lock(out_dir):  # its sweeps and outputs, one writer at a time
        for spec in specs:
            report = run_sweep(spec, out_dir, jobs=jobs, scheduler=scheduler, progress=progress)
            done += report.done
            skipped += report.skipped
            failed += report.failed
            notes += [f"{spec.name}: {n}" for n in report.notes(quick)]
        with ResultStore(out_dir) as store:
            ctx = StudyContext(study, out_dir, quick, store)
            points_csv = _write_points(ctx, [s.name for s in specs])
            claims = study.analyse(ctx)
            headline = study.headline(ctx) if study.headline else None
        if headline is not None:
            with (out_dir / "headline.csv").open("w", newline="") as fh:
                writer = csv.writer(fh)
                writer.writerow(headline[1])
                writer.writerows(headline[2])
        column = None
        if study.ns2 and ns2 != "off":
            from .ns2side import ns2_column

            def run(spec: Any, folder: Path) -> Any:
                return run_sweep(spec, folder, jobs=jobs, scheduler=scheduler, progress=progress)

            column = ns2_column(study, specs, out_dir, quick, ns2 == "live", run, claims)
        three_way = None
        if column is None:
            table_md = _write_claims(study, out_dir, claims, quick)
        else:
            from .threeway import pair_claims, write_three_way

            done += column.done
            notes += column.notes
            three_way = pair_claims(claims, column.claims, column.cannot_express)
            table_md = write_three_way(
                out_dir, study.title, _claims_header(study, quick), three_way, column.source
            )
            if write_reference:
                from .ns2ref import write_reference as write_ref
                from .ns2side import ns2_sides

                with ResultStore(out_dir / "ns2") as st:
                    path = write_ref(study.name, quick, ns2_sides(specs), st)
                notes.append(f"ns-2.35 reference results written: {path}")
    return StudyReport(
        study.name,
        study.title,
        out_dir,
        claims,
        ctx.figures,
        points_csv,
        table_md,
        done,
        skipped,
        failed,
        headline,
        notes,
        three_way,
        column.source if column else "",
    )


def _write_points(ctx: StudyContext, sweeps: list[str]) -> Path:
    path = ctx.out_dir / "points.csv"
    rows = []
    for sweep in sweeps:
        for p in ctx.points(sweep):
            row: dict[str, Any] = {"sweep": sweep, "point": p.point, "runs": p.runs}
            row.update(p.params)
            for metric, s in p.stats.items():
                if s is None:
                    continue
                row[f"{metric}.mean"] = s.mean
                row[f"{metric}.std"] = s.std
                row[f"{metric}.ci95_low"] = s.ci_low
                row[f"{metric}.ci95_high"] = s.ci_high
            rows.append(row)
    columns = list(dict.fromkeys(k for row in rows for k in row))
    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    return path


def _write_claims(study: Study, out_dir: Path, claims: list[Claim], quick: bool) -> Path:
    with (out_dir / "claims.csv").open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["claim", "paper", "hopsim", "verdict", "source"])
        for c in claims:
            writer.writerow([c.claim, c.paper, c.ours, c.verdict, c.source])
    path = out_dir / "claims.md"
    lines = [f"# {study.title}", "", *_claims_header(study, quick)]
    lines += ["| claim | paper | hopsim | verdict |", "|---|---|---|---|"]
    for c in claims:
        cells = [c.claim, c.paper, c.ours, c.verdict]
        lines.append("| " + " | ".join(x.replace("|", "/") for x in cells) + " |")
    path.write_text("\n".join(lines) + "\n")
    return path


def _claims_header(study: Study, quick: bool) -> list[str]:
    """The lines of claims.md above its table: the paper, the mode, the study's notes."""
    mode = "quick (short runs, fewer points and replications)" if quick else "full"
    lines = [f"Paper: {study.source}", f"Mode: {mode}", ""]
    if study.notes:
        lines += [study.notes, ""]
    return lines

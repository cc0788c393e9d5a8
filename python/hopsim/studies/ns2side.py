"""ns-2.35 beside hopsim in a study: its sweeps as ns-2.35 runs them, live or from the
reference results that ship with hopsim.

The ns-2.35 version of a sweep has the same points, replications and seeds, run through
crosscheck's translation (same layout, movements, flows and start times). A point ns-2.35
cannot express (a key its agents or MAC lack) is left out with the reason, and the claims
that need it are then marked "ns-2.35 cannot express it". Live runs go to ``DIR/ns2/``
(a result store like any other: resumable, parallel, Dask); the reference results are read
into ``DIR/ns2-reference/`` (``ns2ref.py``).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .._core import ScenarioError
from ..sweeps import SweepSpec
from .common import Claim, StudyContext, Verdict

__all__ = ["Ns2Column", "Ns2Side", "ns2_column", "ns2_spec", "ns2_sides", "resolved_tasks"]


@dataclass
class Ns2Side:
    """One sweep as ns-2.35 runs it."""

    spec: SweepSpec | None  # None: ns-2.35 can express none of its points
    #: (point params, why ns-2.35 cannot run it), for the points left out.
    skipped: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    #: The sweep as hopsim runs it (every point).
    source: SweepSpec | None = None

    def cannot_express(self) -> str:
        """What ns-2.35 lacks, once per reason (empty: it runs every point)."""
        reasons = dict.fromkeys(reason for _, reason in self.skipped)
        return "; ".join(reasons)


def _resolve(scenario: dict[str, Any]) -> dict[str, Any]:
    from .. import _core
    from ..scenario import to_json

    resolved: dict[str, Any] = json.loads(_core.validate_json(to_json(scenario)))
    return resolved


def ns2_spec(spec: SweepSpec) -> Ns2Side:
    """``spec`` for ns-2.35: the points it can express (checked without running ``ns``)."""
    from ..crosscheck.ns2run import layout_of
    from ..crosscheck.translate import translate

    kept, skipped = [], []
    for point in spec.points:
        resolved = _resolve(spec.task(point, 0).scenario)
        try:
            translate(resolved, layout_of(resolved), "run.tr")
        except ScenarioError as exc:
            skipped.append((dict(point.params), str(exc)))
        else:
            kept.append(point)
    if not kept:
        return Ns2Side(None, skipped, spec)
    return Ns2Side(dataclasses.replace(spec, simulator="ns2", points=kept), skipped, spec)


def ns2_sides(specs: Sequence[SweepSpec]) -> list[Ns2Side]:
    return [ns2_spec(s) for s in specs]


def resolved_tasks(spec: SweepSpec) -> list[tuple[int, int, int, dict[str, Any]]]:
    """Every run of the sweep: (point, replication, seed, resolved scenario)."""
    return [(t.point, t.replication, t.seed, _resolve(t.scenario)) for t in spec.tasks()]


@dataclass
class Ns2Column:
    """ns-2.35's side of a study: its claims and where they come from."""

    claims: list[Any] | None  # Claim, as the study's analysis gave them on ns-2.35's runs
    source: str
    cannot_express: str
    notes: list[str] = field(default_factory=list)
    done: int = 0  # runs made now


def _fresh_store_dir(folder: Any) -> None:
    """The reference's store is made again from the file each time (it is derived data)."""
    from ..sweeps.store import STORE_FILE

    for suffix in ("", "-wal", "-shm"):
        path = folder / (STORE_FILE + suffix)
        if path.exists():
            path.unlink()


def ns2_column(
    study: Any,
    specs: Sequence[SweepSpec],
    out_dir: Any,
    quick: bool,
    live: bool,
    run: Any,
    hopsim_claims: Sequence[Claim],
) -> Ns2Column | None:
    """Run (``live``) or read the study's sweeps as ns-2.35 gives them and analyse them;
    None when there is no ns-2.35 column (no reference for the study and not live).
    ``run(spec, folder)`` runs one sweep (the study's own runner: jobs, Dask, progress).

    Where ns-2.35 leaves points out, a claim that needs them would be judged on part of its
    data: hopsim's analysis is run again on only the points ns-2.35 runs, and each claim
    whose value or verdict then changes is marked as needing points ns-2.35 cannot run."""
    from ..sweeps import ResultStore
    from .ns2ref import failure_note, import_reference, load_reference, ns2_failures

    sides = ns2_sides(specs)
    cannot = "; ".join(dict.fromkeys(s.cannot_express() for s in sides if s.skipped))
    left_out = sum(len(s.skipped) for s in sides)
    total = left_out + sum(len(s.spec.points) for s in sides if s.spec is not None)
    notes = [f"ns-2.35 leaves out {left_out} of the {total} points: {cannot}"] if left_out else []
    done = 0
    if live:
        from ..crosscheck.ns2run import find_ns, ns2_version

        find_ns()  # a clear error before any run
        folder = out_dir / "ns2"
        for side in sides:
            if side.spec is not None:
                done += run(side.spec, folder).done
        source = f"ns-2 {ns2_version()}, run here (its runs: {folder})"
        with ResultStore(folder) as store:
            for side in sides:
                if side.spec is not None and (failed := ns2_failures(store, side.spec)):
                    want = len(side.spec.points) * side.spec.replications
                    notes.append(failure_note(side.spec.name, failed, want))
    else:
        ref = load_reference(study.name)
        if ref is None:
            return None
        folder = out_dir / "ns2-reference"
        folder.mkdir(parents=True, exist_ok=True)
        _fresh_store_dir(folder)
        with ResultStore(folder) as store:
            notes += import_reference(ref, quick, sides, store)
        source = ref.source()
    with ResultStore(folder) as store:
        claims = _analyse(study, _Ns2Context(study, folder, quick, store))
    claims = _lacking_values(claims, hopsim_claims)
    if left_out:
        subset = {
            c.claim: (c.ours, c.verdict) for c in _on_ns2_points(study, out_dir, quick, sides)
        }
        needs = {c.claim for c in hopsim_claims if subset.get(c.claim) != (c.ours, c.verdict)}
        why = Verdict.NOT_COMPARABLE.says(": needs points ns-2.35 cannot run")
        claims = [
            Claim(c.claim, c.paper, c.ours, why, c.source) if c.claim in needs else c
            for c in claims
        ]
    return Ns2Column(claims, source, cannot, notes, done)


_MISSING = re.compile(r"\b(?:n/a|nan)\b")


def _lacking_values(claims: Sequence[Claim], hopsim_claims: Sequence[Claim]) -> list[Claim]:
    """A claim whose value on ns-2.35's runs has a gap ("n/a", "nan") where hopsim's has
    numbers was judged on a metric ns-2.35's results lack (per-node counters, false route
    failures): not comparable, whatever verdict the gap led to."""
    has_gap = {c.claim for c in hopsim_claims if _MISSING.search(c.ours)}
    why = Verdict.NOT_COMPARABLE.says(": ns-2.35's results lack a value it needs")
    return [
        Claim(c.claim, c.paper, c.ours, why, c.source)
        if _MISSING.search(c.ours) and c.claim not in has_gap
        else c
        for c in claims
    ]


def _on_ns2_points(study: Any, out_dir: Any, quick: bool, sides: Sequence[Ns2Side]) -> list[Claim]:
    """hopsim's claims from its runs of only the points ns-2.35 runs (a copy of those runs
    in ``DIR/hopsim-on-ns2-points``)."""
    from ..sweeps import ResultStore

    folder = out_dir / "hopsim-on-ns2-points"
    folder.mkdir(parents=True, exist_ok=True)
    _fresh_store_dir(folder)
    with ResultStore(out_dir) as full, ResultStore(folder) as sub:
        for side in sides:
            spec = side.source
            assert spec is not None
            kept = {p.index for p in side.spec.points} if side.spec is not None else set()
            sub.record_sweep(spec.name, spec.digest(), spec.to_doc())
            members = []
            for r in full.runs(spec.name):
                if r.point in kept:
                    doc = json.dumps(full.result(r.run_key))
                    sub.add_run(r.run_key, r.seed, {}, r.metrics, doc, r.wall_s, r.hopsim_version)
                    members.append((r.run_key, r.point, r.replication, r.params))
            sub.add_members(spec.name, spec.digest(), members)
        return _analyse(study, _Ns2Context(study, folder, quick, sub))


def _analyse(study: Any, ctx: StudyContext) -> list[Claim]:
    """The study's analysis with figures that are not kept: matplotlib's warnings about
    them (an empty legend where a rule has no points) are not the user's business."""
    import warnings

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning, module="matplotlib")
        warnings.filterwarnings("ignore", category=UserWarning, module=r"hopsim\.studies")
        claims: list[Claim] = study.analyse(ctx)
    return claims


class _Ns2Context(StudyContext):
    """The analysis on ns-2.35's runs draws no figures: the study's figures show hopsim's
    runs (ns-2.35's numbers are in the claims), and ns-2.35 has no value of some plotted
    metrics (per-node counters, dropped packets)."""

    def figure(self, stem: str, points: Any, x: str, y: str, **kw: Any) -> None:
        pass

    def save_figure(self, fig: Any, stem: str, dpi: int = 120) -> None:
        import matplotlib.pyplot as plt

        plt.close(fig)

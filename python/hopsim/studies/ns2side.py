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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .._core import ScenarioError
from ..sweeps import SweepSpec

__all__ = ["Ns2Column", "Ns2Side", "ns2_column", "ns2_spec", "ns2_sides", "resolved_tasks"]


@dataclass
class Ns2Side:
    """One sweep as ns-2.35 runs it."""

    spec: SweepSpec | None  # None: ns-2.35 can express none of its points
    #: (point params, why ns-2.35 cannot run it), for the points left out.
    skipped: list[tuple[dict[str, Any], str]] = field(default_factory=list)

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
        return Ns2Side(None, skipped)
    return Ns2Side(dataclasses.replace(spec, simulator="ns2", points=kept), skipped)


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
) -> Ns2Column | None:
    """Run (``live``) or read the study's sweeps as ns-2.35 gives them and analyse them;
    None when there is no ns-2.35 column (no reference for the study and not live).
    ``run(spec, folder)`` runs one sweep (the study's own runner: jobs, Dask, progress)."""
    from ..sweeps import ResultStore
    from .common import StudyContext
    from .ns2ref import import_reference, load_reference

    sides = ns2_sides(specs)
    cannot = "; ".join(dict.fromkeys(s.cannot_express() for s in sides if s.skipped))
    notes = [
        f"ns-2.35 leaves out {len(s.skipped)} point(s) of a sweep: {s.cannot_express()}"
        for s in sides
        if s.skipped
    ]
    done = 0
    if live:
        from ..crosscheck.ns2run import find_ns, ns2_version

        find_ns()  # a clear error before any run
        folder = out_dir / "ns2"
        for side in sides:
            if side.spec is not None:
                done += run(side.spec, folder).done
        source = f"ns-2 {ns2_version()}, run here (its runs: {folder})"
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
        ctx = StudyContext(study, folder, quick, store)
        claims = study.analyse(ctx)
    return Ns2Column(claims, source, cannot, notes, done)

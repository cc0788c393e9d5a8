"""Running a sweep: skip what is stored, execute the rest, store each run as it finishes.

The calling process is the only writer of the store. Runs go to a local process pool or a
Dask cluster; each finished run is written in its own transaction before the next outcome
is looked at, so stopping at any moment loses no finished run, and rerunning the same
command resumes where it stopped.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from .._core import ScenarioError
from ..scenario import to_json
from . import shared
from .checks import check_flow_metrics
from .errors import StoreError, SweepInterrupted
from .execute import DaskExecutor, LocalExecutor, default_jobs
from .lock import folder_lock
from .metrics import check_metric_name, metric_value
from .progress import SweepProgress
from .simulators import HOPSIM, get_simulator
from .spec import RunTask, SweepSpec, check_count_option, derive_seed
from .stats import Summary, summarize_values
from .store import ResultStore, StoredRun, run_key

__all__ = ["PointSummary", "SweepInterrupted", "SweepReport", "run_sweep", "summarize"]

#: --until-ci stops adding replications to a point at this many, unless told otherwise.
DEFAULT_MAX_REPLICATIONS = 30
#: Quick mode warns above this median relative CI half-width (differences of a few percent,
#: typical between TCP variants, are then lost in the noise).
QUICK_WIDE = 0.10


@dataclass
class SweepReport:
    """What a call of :func:`run_sweep` did."""

    name: str
    out_dir: Path
    total: int = 0  # runs the sweep consists of
    skipped: int = 0  # already in the store
    done: int = 0  # run and stored now
    failed: int = 0
    executor: str = ""
    failures: list[str] = field(default_factory=list)
    rounds: int = 1  # --until-ci rounds
    #: --until-ci: the points whose CI is still wider than the target (label, relative
    #: half-width) and how many points there are; None without --until-ci.
    unconverged: list[tuple[str, float]] | None = None
    points: int = 0
    #: The median relative 95% CI half-width of the first metric over the points (NaN when
    #: no point has two replications): how much a difference between points can mean.
    median_rel_half_width: float = math.nan
    ci_metric: str = ""
    ci_target: float | None = None

    def notes(self, quick: bool = False) -> list[str]:
        """What the precision of the results allows: whether --until-ci converged, and in
        quick mode a warning when the intervals are too wide to tell points apart."""
        out = []
        if self.unconverged is not None and self.ci_target is not None:
            goal = f"±{self.ci_target:.0%} of its mean"
            if not self.unconverged:
                out.append(
                    f"--until-ci: converged, every point's 95% CI of {self.ci_metric} is within "
                    f"{goal} ({self.rounds} round(s))"
                )
            else:
                worst = ", ".join(
                    f"{label} (±{r:.0%})" if math.isfinite(r) else f"{label} (no CI)"
                    for label, r in self.unconverged[:5]
                )
                more = (
                    "" if len(self.unconverged) <= 5 else f" and {len(self.unconverged) - 5} more"
                )
                out.append(
                    f"--until-ci: NOT converged: {len(self.unconverged)} of {self.points} points "
                    f"have a 95% CI of {self.ci_metric} wider than {goal} at the cap "
                    f"(--max-replications): {worst}{more}"
                )
        if quick:
            r = self.median_rel_half_width
            if math.isnan(r):
                out.append(
                    "quick mode: one replication per point, so no confidence intervals; "
                    "differences between points may be noise (run without --quick)"
                )
            elif r > QUICK_WIDE:
                out.append(
                    f"quick mode: the 95% CIs are wide (median ±{r:.0%} of the mean of "
                    f"{self.ci_metric}); differences smaller than that mean little (run "
                    "without --quick)"
                )
        return out


@dataclass(frozen=True)
class PointSummary:
    """One sweep point: its parameters and each metric's replication statistics."""

    point: int
    params: dict[str, Any]
    runs: int
    stats: dict[str, Summary | None]


def _resolve(task: RunTask, budget: Mapping[str, Any]) -> tuple[str, dict[str, Any], str]:
    from .. import _core
    from .._core import __version__

    simulator = get_simulator(task.simulator)
    text = to_json(task.scenario)
    options = json.dumps(dict(budget)) if budget and simulator.takes_budget else None
    resolved = json.loads(_core.validate_json(text, options))
    return run_key(simulator.key_document(resolved), __version__), resolved, text


def _open_executor(jobs: int | None, scheduler: str | None) -> LocalExecutor | DaskExecutor:
    if scheduler:
        return DaskExecutor(scheduler)
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise ScenarioError(f"--jobs {jobs!r}: not allowed, give a number of processes >= 1")
    return LocalExecutor(jobs or default_jobs())


def run_sweep(
    spec: SweepSpec,
    out_dir: str | PathLike[str],
    jobs: int | None = None,
    scheduler: str | None = None,
    until_ci: float | None = None,
    max_replications: int = DEFAULT_MAX_REPLICATIONS,
    ci_metric: str | None = None,
    progress: str | None = None,
) -> SweepReport:
    """Run every run of ``spec`` that ``out_dir``'s store does not hold yet.

    ``until_ci``: after the sweep's replications, keep adding replications to each point
    whose relative 95% CI half-width of ``ci_metric`` (default: the first metric) is above
    this target, up to ``max_replications``. ``progress``: ``"bar"``, ``"lines"``, ``"off"``
    or None (bar on a terminal).

    Raises:
        ScenarioError: a bad option or an unreachable scheduler, before any run.
        SweepInterrupted: Ctrl-C; every finished run is stored.
        FolderBusy: another process is writing ``out_dir`` (a StoreError).
        StoreError: the store cannot be written (finished runs are kept).
    """
    if until_ci is not None and not (isinstance(until_ci, (int, float)) and 0 < until_ci < 1):
        raise ScenarioError(
            f"--until-ci {until_ci!r}: not allowed, give a relative half-width in (0, 1), e.g. 0.05"
        )
    check_count_option("--max-replications", max_replications, "replications")
    metric = ci_metric or spec.metrics[0]
    check_metric_name(metric)
    for point, flows in zip(spec.points, spec.flow_counts, strict=False):
        check_flow_metrics([metric], point.label, flows, "--ci-metric")
    if until_ci is not None and max_replications < spec.replications:
        raise ScenarioError(
            f"--max-replications {max_replications}: below the sweep's replications "
            f"({spec.replications})"
        )
    out = Path(out_dir)
    executor = _open_executor(jobs, scheduler)  # connects first: fail before any run or file
    try:
        with folder_lock(out):  # one writer per folder: a second sweep here is refused
            return _run_held(spec, out, executor, until_ci, max_replications, metric, progress)
    except BaseException:
        executor.close(cancel=True)  # closed already unless the lock was refused
        raise


def _run_held(
    spec: SweepSpec,
    out: Path,
    executor: LocalExecutor | DaskExecutor,
    until_ci: float | None,
    max_replications: int,
    metric: str,
    progress: str | None,
) -> SweepReport:
    report = SweepReport(spec.name, out, executor=executor.description)
    store = ResultStore(out)
    try:
        store.record_sweep(spec.name, spec.digest(), spec.to_doc())
        bar = SweepProgress(0, spec.name, progress)
        try:
            reps = {p.index: spec.replications for p in spec.points}
            _run_round(spec, spec.tasks(), store, executor, bar, report)
            while until_ci is not None:
                extra = _more_replications(spec, store, metric, until_ci, max_replications, reps)
                if not extra:
                    break
                report.rounds += 1
                _run_round(spec, extra, store, executor, bar, report)
        finally:
            bar.close()
        _precision(spec, store, metric, until_ci, report)
    except KeyboardInterrupt:
        executor.close(cancel=True)
        stored = store.count()
        store.close()
        raise SweepInterrupted(stored, store.path) from None
    except StoreError as exc:  # e.g. a full disk: say how far the sweep got
        executor.close(cancel=True)
        store.close()
        if type(exc) is not StoreError:  # its subclasses say all there is to say
            raise
        raise StoreError(
            f"{exc}; this command stored {report.done} finished runs before it "
            f"({report.skipped} were stored already)"
        ) from exc
    except BaseException:
        executor.close(cancel=True)
        store.close()
        raise
    executor.close()
    store.close()
    return report


def _run_round(
    spec: SweepSpec,
    tasks: list[RunTask],
    store: ResultStore,
    executor: LocalExecutor | DaskExecutor,
    bar: SweepProgress,
    report: SweepReport,
) -> None:
    finished = store.finished_keys()
    by_key: dict[str, tuple[RunTask, dict[str, Any]]] = {}
    members = []
    todo = []
    groups: dict[int, list[tuple[str, list[Any]]]] = {}
    base_resolved = _shared_base(spec)
    for task in tasks:
        key, resolved, text = _resolve(task, spec.budget)
        change_list: list[shared.Change] = []
        if base_resolved is not None:
            # The warm-up of this replication: the base with the replication's seed.
            warm = dict(base_resolved, seed=resolved["seed"])
            change_list = shared.changes(warm, resolved, _label(task.params))
            resolved = shared.key_document(resolved, spec.shared_warmup_s or 0.0, warm)
            key = run_key(HOPSIM.key_document(resolved), _version())
        members.append((key, task.point, task.replication, task.params))
        report.total += 1
        if key in finished or key in by_key:
            report.skipped += 1
            continue
        by_key[key] = (task, resolved)
        if base_resolved is not None:
            groups.setdefault(task.replication, []).append((key, [list(c) for c in change_list]))
            continue
        payload: dict[str, Any] = {"scenario_json": text, "metrics": list(task.metrics)}
        simulator = get_simulator(task.simulator)
        if simulator is not HOPSIM:
            payload["simulator"] = simulator
        if spec.budget and simulator.takes_budget:
            payload["options"] = dict(spec.budget)
        todo.append((key, payload))
    store.add_members(spec.name, spec.digest(), members)
    group_of: dict[str, list[str]] = {}
    for rep, group in groups.items():
        warmup = to_json(dict(spec.base, seed=derive_seed(spec.seed, rep)))
        payload = {
            "shared": {"scenario_json": warmup, "at_s": spec.shared_warmup_s, "members": group},
            "metrics": list(spec.metrics),
        }
        if spec.budget:
            payload["options"] = dict(spec.budget)
        group_key = f"shared-warmup:{rep}:{group[0][0]}"
        group_of[group_key] = [k for k, _ in group]
        todo.append((group_key, payload))
    bar.add_total(len(by_key))
    __version__ = _version()

    for key, payload in todo:
        executor.submit(key, payload)
    for key, outcome, error in _expand(executor.results(), group_of):
        task, resolved = by_key[key]
        if outcome is not None and outcome.get("violations"):
            error = "invariant violated: " + "; ".join(outcome["violations"][:3])
        if error is not None or outcome is None:
            store.add_failure(key, spec.name, task.params, task.replication, task.seed, error or "")
            report.failed += 1
            report.failures.append(f"{_label(task.params)} rep {task.replication}: {error}")
            bar.advance(False)
            continue
        store.add_run(
            key,
            task.seed,
            resolved,
            outcome["metrics"],
            outcome["result_json"],
            outcome["wall_s"],
            __version__,
            outcome.get("host"),
        )
        report.done += 1
        bar.advance(True)


def _version() -> str:
    from .._core import __version__

    return __version__


def _shared_base(spec: SweepSpec) -> dict[str, Any] | None:
    """The resolved base of a sweep sharing its warm-up (None: it does not)."""
    if spec.shared_warmup_s is None:
        return None
    if spec.simulator != "hopsim":
        raise ScenarioError(f"{shared.KEY}: {spec.simulator} cannot fork a run")
    from .. import _core

    doc = dict(spec.base, seed=derive_seed(spec.seed, 0))
    resolved: dict[str, Any] = json.loads(_core.validate_json(to_json(doc)))
    return resolved


def _expand(
    results: Iterator[tuple[str, dict[str, Any] | None, str | None]],
    group_of: Mapping[str, list[str]],
) -> Iterator[tuple[str, dict[str, Any] | None, str | None]]:
    """Each run's outcome; a shared warm-up's group gives one per member (its error, if it
    failed, is every member's)."""
    for key, outcome, error in results:
        if key not in group_of:
            yield key, outcome, error
            continue
        runs = (outcome or {}).get("runs", {})
        for member in group_of[key]:
            got = runs.get(member)
            yield member, got, None if got is not None else (error or "the group gave no result")


def _precision(
    spec: SweepSpec, store: ResultStore, metric: str, target: float | None, report: SweepReport
) -> None:
    """How wide the CIs of ``metric`` ended up (and, for --until-ci, which points missed)."""
    rel = {}
    for s in summarize(store, spec.name, [metric]):
        stat = s.stats.get(metric)
        rel[s.point] = (_label(s.params), stat.relative_half_width if stat else math.inf)
    report.points = len(spec.points)
    report.ci_metric = metric
    report.ci_target = target
    finite = sorted(r for _, r in rel.values() if not math.isinf(r))
    if finite:
        report.median_rel_half_width = finite[len(finite) // 2]
    if target is not None:
        report.unconverged = [
            rel.get(p.index, (_label(p.params), math.inf))
            for p in spec.points
            if rel.get(p.index, ("", math.inf))[1] > target
        ]


def _label(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items()) or "(base)"


def _more_replications(
    spec: SweepSpec,
    store: ResultStore,
    metric: str,
    target: float,
    cap: int,
    reps: dict[int, int],
) -> list[RunTask]:
    """The next replications of every point whose CI is still too wide (none at the cap)."""
    summaries = {s.point: s for s in summarize(store, spec.name, [metric])}
    extra: list[RunTask] = []
    for point in spec.points:
        have = reps[point.index]
        s = summaries.get(point.index)
        stat = s.stats.get(metric) if s else None
        if have >= cap or (stat is not None and stat.relative_half_width <= target):
            continue
        if stat is None or stat.n < 2 or math.isinf(stat.relative_half_width):
            want = have + 1
        else:
            # n grows with the square of the width ratio; at most double per round.
            ratio = stat.relative_half_width / target
            want = min(2 * have, math.ceil(stat.n * ratio * ratio))
        want = max(have + 1, min(want, cap))
        extra.extend(spec.task(point, r) for r in range(have, want))
        reps[point.index] = want
    return extra


def summarize(
    store: ResultStore | str | PathLike[str],
    sweep: str | None = None,
    metrics: list[str] | tuple[str, ...] | None = None,
    confidence: float = 0.95,
) -> list[PointSummary]:
    """Per point of a sweep (the only one in the store if ``sweep`` is None): the number of
    runs and, per metric, mean, std and Student-t CI over the replications.

    Metrics not stored with the runs are computed from their result documents.
    """
    own = not isinstance(store, ResultStore)
    st = ResultStore(store, create=False) if own else store
    try:
        if sweep is None:
            names = list(st.sweeps())
            if len(names) != 1:
                raise ScenarioError(
                    f"the store holds {len(names)} sweeps ({', '.join(names) or 'none'}); name one"
                )
            sweep = names[0]
        runs = st.runs(sweep)
        if metrics is None:
            spec = st.sweeps().get(sweep, {}).get("spec", {})
            metrics = spec.get("metrics") or sorted({m for r in runs for m in r.metrics})
        groups: dict[int, list[StoredRun]] = {}
        for run in runs:
            groups.setdefault(run.point, []).append(run)
        out = []
        for point in sorted(groups):
            members = groups[point]
            stats = {}
            for m in metrics:
                values = [_metric(st, r, m) for r in members]
                stats[m] = summarize_values(values, confidence)
            out.append(PointSummary(point, members[0].params, len(members), stats))
        return out
    finally:
        if own:
            st.close()


def _metric(store: ResultStore, run: StoredRun, name: str) -> float | None:
    if name in run.metrics:
        value = run.metrics[name]
        return None if value is None else float(value)
    return metric_value(store.result(run.run_key), name)

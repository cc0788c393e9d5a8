"""The experiment commands: ``hopsim sweep``, ``results`` and ``plot`` (``reproduce``: its own
module), and the options they share with ``reproduce``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from .. import tables
from ..sweeps.errors import (
    FolderBusy,
    FolderUnusable,
    StoreError,
    StoreUnreadable,
    SweepInterrupted,
)
from .common import Commands, MaxEventsOpt, MaxMemoryOpt, _fail, _guarded, err, out, parse_budget

if TYPE_CHECKING:
    from ..sweeps import PointSummary, ResultStore

commands = Commands()

EXIT_INTERRUPTED = 130

JobsOpt = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        "-j",
        metavar="N",
        help="Local worker processes (default: every core this process may use).",
        show_default=False,
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDR",
        help=(
            "Run on an existing Dask cluster instead of local processes, e.g. "
            "tcp://host:8786 (workers need hopsim installed). Failed tasks are retried; "
            "results stream back to this process, the one writer of the store."
        ),
        show_default=False,
    ),
]
OutOpt = Annotated[
    str | None,
    typer.Option(
        "--out",
        "-o",
        metavar="DIR",
        help="Output folder with the result store (default: results/<name>[-quick]).",
        show_default=False,
    ),
]
QuickOpt = Annotated[
    bool,
    typer.Option("--quick", help="Apply the sweep's \\[quick] table: shorter, fewer runs."),
]
ProgressOpt = Annotated[
    str | None,
    typer.Option(
        "--progress",
        metavar="MODE",
        help="bar | lines | off (default: a bar on a terminal, else a line every 10 s).",
        show_default=False,
    ),
]


def out_folder(value: str | None, default: Path, option: str = "--out") -> Path:
    """The output folder of a command that writes a store: ``value`` (the --out option) or
    ``default``. The obvious mistakes end the command here (exit 2); a folder that cannot be
    created fails when the command takes it, still before any run (FolderUnusable)."""
    if value is not None and not value.strip():
        _fail(f"{option} {value!r}: not allowed, give a folder path (e.g. {option} results/x)")
    folder = Path(value) if value is not None else default
    shown = f"{option} {str(folder)!r}" if value is not None else f"output folder {str(folder)!r}"
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        what = "exists and is not a folder" if probe == folder else f"{str(probe)!r} is a file"
        _fail(f"{shown}: {what}; give a folder path")
    return folder


def _check_progress(mode: str | None) -> None:
    if mode is not None and mode not in ("bar", "lines", "off"):
        _fail(f"--progress {mode!r}: not allowed; allowed: bar, lines, off")


#: More local processes than this is a typo, not a machine (a cluster: --scheduler).
MAX_JOBS = 1024


def _check_run_options(jobs: int | None, scheduler: str | None, progress: str | None) -> None:
    """The options of every command that runs a sweep: --jobs, --scheduler, --progress."""
    _check_progress(progress)
    if jobs is not None and not 1 <= jobs <= MAX_JOBS:
        _fail(
            f"--jobs {jobs}: not allowed, give a number of local processes 1..{MAX_JOBS} "
            "(for more, a cluster: --scheduler)"
        )
    if scheduler is not None and jobs is not None:
        _fail("--jobs and --scheduler exclude each other: the cluster has its own workers")


def _check_until_ci(
    until_ci: float | None, max_replications: int | None, ci_metric: str | None
) -> None:
    """--until-ci in (0, 1); --max-replications 1..MAX_REPLICATIONS; both of its options
    only with it (alone they would be silently ignored)."""
    from ..sweeps.spec import MAX_REPLICATIONS

    if until_ci is not None and not 0 < until_ci < 1:
        _fail(
            f"--until-ci {until_ci}: not allowed, give a relative half-width in (0, 1), e.g. 0.05"
        )
    if max_replications is not None and not 1 <= max_replications <= MAX_REPLICATIONS:
        _fail(
            f"--max-replications {max_replications}: not allowed, give a number of "
            f"replications 1..{MAX_REPLICATIONS}"
        )
    for option, value in (("--max-replications", max_replications), ("--ci-metric", ci_metric)):
        if value is not None and until_ci is None:
            _fail(f"{option} {value}: it only applies with --until-ci, which is not given")


def print_points(points: list[PointSummary], title: str) -> None:
    """The per-point table of a sweep (hopsim.tables.print_points) on standard output."""
    tables.print_points(out, points, title)


def _interrupted(exc: SweepInterrupted) -> None:
    err.print(
        f"interrupted: {exc.stored} finished runs are in {exc.store_path}; "
        "rerun the same command to resume",
        soft_wrap=True,
    )
    raise typer.Exit(EXIT_INTERRUPTED)


def _shielded(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call ``fn``: Ctrl-C and store errors end the command with their own message."""
    try:
        return fn(*args, **kwargs)
    except SweepInterrupted as exc:
        _interrupted(exc)
    except (StoreUnreadable, FolderBusy, FolderUnusable) as exc:
        _fail(str(exc))
    except StoreError as exc:
        _fail(str(exc), code=1)


@commands.command(
    "sweep",
    help=(
        "Run a sweep file: every combination of its \\[sweep] lists (\\[\\[sweep.zip]] groups vary "
        "together) times its replications (seeds derived from `seed`). Each finished run is "
        "stored at once in DIR/results.sqlite, keyed by its resolved scenario: rerunning "
        "the same command resumes and never runs a finished run twice. Prints the "
        "per-point means with 95% confidence intervals at the end."
    ),
)
def sweep_cmd(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="Sweep file (TOML).")],
    jobs: JobsOpt = None,
    scheduler: SchedulerOpt = None,
    out_dir: OutOpt = None,
    quick: QuickOpt = False,
    until_ci: Annotated[
        float | None,
        typer.Option(
            "--until-ci",
            metavar="REL",
            help=(
                "Add replications until every point's 95% CI half-width of the first metric "
                "(or --ci-metric) is below REL times its mean, e.g. 0.05; at most "
                "--max-replications."
            ),
            show_default=False,
        ),
    ] = None,
    max_replications: Annotated[
        int | None,
        typer.Option(
            "--max-replications",
            metavar="N",
            help="Cap of --until-ci (default 30).",
            show_default=False,
        ),
    ] = None,
    ci_metric: Annotated[
        str | None,
        typer.Option("--ci-metric", metavar="METRIC", help="Metric of --until-ci."),
    ] = None,
    progress: ProgressOpt = None,
    max_events: MaxEventsOpt = None,
    max_memory_mb: MaxMemoryOpt = None,
) -> None:
    from ..sweeps import load_sweep, run_sweep, summarize
    from ..sweeps.runner import DEFAULT_MAX_REPLICATIONS

    _check_run_options(jobs, scheduler, progress)
    _check_until_ci(until_ci, max_replications, ci_metric)
    budget = parse_budget(max_events, max_memory_mb)
    spec = _guarded(load_sweep, file, quick=quick, budget=budget)
    folder = out_folder(out_dir, Path("results") / (spec.name + ("-quick" if quick else "")))
    report = _guarded(
        _shielded,
        run_sweep,
        spec,
        folder,
        jobs=jobs,
        scheduler=scheduler,
        until_ci=until_ci,
        max_replications=DEFAULT_MAX_REPLICATIONS if max_replications is None else max_replications,
        ci_metric=ci_metric,
        progress=progress,
    )
    err.print(
        f"{report.name}: {report.total} runs, {report.skipped} already stored, "
        f"{report.done} run now, {report.failed} failed ({report.executor}); store: "
        f"{folder / 'results.sqlite'}",
        soft_wrap=True,
    )
    for line in report.failures[:10]:
        err.print(f"  failed: {escape(line)}")
    print_points(summarize(folder, spec.name), f"{spec.name} ({folder})")
    for note in report.notes(quick):
        err.print(escape(note), soft_wrap=True)
    if report.failed:
        raise typer.Exit(1)


def _open_store(folder: Path) -> ResultStore:
    from ..sweeps import ResultStore

    if not (folder / "results.sqlite").exists():
        _fail(f"{folder}: no result store here (results.sqlite); run `hopsim sweep` first")
    try:
        return ResultStore(folder, create=False)
    except (StoreUnreadable, FolderBusy, FolderUnusable) as exc:
        _fail(str(exc))


@commands.command(
    "results",
    help=(
        "Summarise the result store in DIR: per sweep and point, the runs and each metric's "
        "mean ± 95% CI; runs that failed. --parquet FILE exports one row per flow per run "
        "(run_id, the swept parameters, the flow's metrics and the network totals), --runs "
        "FILE one row per run (the swept parameters, the sweep's metrics, the totals), for "
        "polars or pandas (a .csv name writes CSV). From Python: hopsim.results(DIR)."
    ),
)
def results_cmd(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="Output folder of a sweep.")],
    sweep: Annotated[
        str | None, typer.Option("--sweep", metavar="NAME", help="Only this sweep.")
    ] = None,
    parquet: Annotated[
        Path | None,
        typer.Option("--parquet", metavar="FILE", help="Export flows per run to FILE."),
    ] = None,
    runs_file: Annotated[
        Path | None,
        typer.Option("--runs", metavar="FILE", help="Export one row per run to FILE."),
    ] = None,
) -> None:
    from ..sweeps import summarize
    from ..sweeps.export import write_flows, write_runs

    with _open_store(folder) as store:
        names = list(_guarded(store.sweeps))  # a damaged store: refused, exit 2
        if sweep is not None and sweep not in names:
            _fail(f"--sweep {sweep!r}: not in this store; sweeps: {', '.join(names) or 'none'}")
        for name in [sweep] if sweep else names:
            print_points(_guarded(summarize, store, name), name)
        failures = [f for f in _guarded(store.failures) if sweep is None or f["sweep"] == sweep]
        if failures:
            out.print(f"[bold red]{len(failures)} failed run(s)[/] (rerun the sweep to retry):")
            for f in failures[:20]:
                out.print(f"  {escape(str(f['params']))} rep {f['replication']}: {f['error']}")
        if parquet is not None:
            path, rows = _guarded(write_flows, store, parquet, sweep)
            out.print(f"wrote {rows} rows (one per flow per run) to {path}", soft_wrap=True)
        if runs_file is not None:
            path, rows = _guarded(write_runs, store, runs_file, sweep)
            out.print(f"wrote {rows} rows (one per run) to {path}", soft_wrap=True)


def _metric_help() -> str:
    from ..sweeps.metrics import AGGREGATES, FLOW_FIELDS, TOTAL_FIELDS

    return (
        "Metric on the y axis: a per-flow field, combined over the flows by its natural "
        f"aggregate ({', '.join(sorted(FLOW_FIELDS))}); AGG:field with AGG one of "
        f"{', '.join(AGGREGATES)}, flowN (e.g. jain:goodput_kbps); or totals.FIELD "
        f"({', '.join(sorted(TOTAL_FIELDS))})."
    )


_METRIC_HELP = _metric_help()


@commands.command(
    "plot",
    help=(
        "Plot METRIC against a swept KEY from the store in DIR, one line per value of "
        "--series (or per combination of the other swept keys), with 95% CI error bars; "
        "a KEY of names (tcp.variant, routing.protocol) gets points per name, the groups "
        "side by side. Writes PNG and PDF; exit 2 when there is nothing to draw."
    ),
)
def plot_cmd(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="Output folder of a sweep.")],
    x: Annotated[str, typer.Option("--x", metavar="KEY", help="Swept key on the x axis.")],
    y: Annotated[str, typer.Option("--y", metavar="METRIC", help=_METRIC_HELP)],
    series: Annotated[
        str | None,
        typer.Option("--series", metavar="KEY", help="Swept key: one line (or group) each."),
    ] = None,
    sweep: Annotated[
        str | None, typer.Option("--sweep", metavar="NAME", help="Sweep in the store.")
    ] = None,
    out_stem: Annotated[
        str | None,
        typer.Option("--out", "-o", metavar="STEM", help="Output path without suffix."),
    ] = None,
) -> None:
    from ..sweeps import summarize
    from ..sweeps.metrics import check_metric_name

    _guarded(check_metric_name, y)
    if out_stem is not None and (not out_stem.strip() or out_stem.endswith(("/", "."))):
        _fail(
            f"--out {out_stem!r}: not allowed, give a file path without suffix (e.g. fig/goodput)"
        )
    with _open_store(folder) as store:
        names = list(_guarded(store.sweeps))  # a damaged store: refused, exit 2
        if sweep is None and len(names) != 1:
            _fail(f"the store holds {len(names)} sweeps; name one with --sweep: {', '.join(names)}")
        name = sweep or names[0]
        if name not in names:
            _fail(f"--sweep {name!r}: not in this store; sweeps: {', '.join(names)}")
        points = _guarded(summarize, store, name, [y])
        stem = (
            Path(out_stem)
            if out_stem is not None
            else folder / "figures" / f"{name}-{y.replace(':', '-')}-vs-{x}"
        )
        paths = _guarded(_draw, points, x, y, stem, series=series, title=name)
    for path in paths:
        out.print(f"wrote {path}", soft_wrap=True)


def _draw(points: list[PointSummary], x: str, y: str, stem: Path, **kwargs: Any) -> list[Path]:
    from ..sweeps.plot import plot_points

    try:
        return plot_points(points, x, y, stem, **kwargs)
    except OSError as exc:
        _fail(f"cannot write the figure {str(stem)!r} (.png, .pdf): {exc.strerror or exc}")

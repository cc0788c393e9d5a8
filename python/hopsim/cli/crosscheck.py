"""``hopsim crosscheck``: a scenario (or sweep) in ns-2.35 and in hopsim, side by side."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from ..tables import Column, fmt_stat, print_fitted, short_names
from .common import Commands, MaxEventsOpt, MaxMemoryOpt, _fail, _guarded, err, out, parse_budget
from .sweep import (
    JobsOpt,
    ProgressOpt,
    QuickOpt,
    SchedulerOpt,
    _check_run_options,
    _shielded,
    out_folder,
)

commands = Commands()


def _diff(d: float | None, overlap: bool | None) -> str:
    if d is None:
        return "-"
    mark = " (CIs overlap)" if overlap else ""
    return f"{d * 100:+.1f}%{mark}"


def print_report(report: Any) -> None:
    """One table per metric: each point, ns-2 and hopsim (per profile), their difference."""
    from ..crosscheck.compare import CROSSCHECK_METRICS

    metrics = [m for m in CROSSCHECK_METRICS if report.metric_rows(m)]
    for m in metrics:
        rows = report.metric_rows(m)
        keys = list(rows[0].params)
        names = short_names(keys)
        columns: list[Column] = [(names[k], "left") for k in keys] + [("ns-2", "right")]
        for p in report.profiles:
            columns += [(f"hopsim ({p})", "right"), ("diff", "right")]
        cells = []
        for r in rows:
            row = [escape(str(r.params[k])) for k in keys] + [fmt_stat(r.ns2)]
            for p in report.profiles:
                row += [fmt_stat(r.hopsim.get(p)), _diff(r.difference(p), r.overlap(p))]
            cells.append(row if keys else ["all", *row])
        if not keys:
            columns.insert(0, ("point", "left"))
        print_fitted(out, columns, cells, title=escape(m))
    out.print(
        "mean ± half-width of the 95% confidence interval (Student t) over replications; "
        "diff = (hopsim − ns-2) / ns-2"
    )


@commands.command(
    "crosscheck",
    help=(
        "Run a scenario (or every point of a sweep file) in ns-2.35 and in hopsim with the "
        "same layout, flows and seeds, and print the metrics side by side: each simulator's "
        "mean and 95% CI over the replications and the relative difference. The ns-2 Tcl "
        "scripts are written to DIR/ns2/ (rerun them with `ns`); runs are stored in "
        "DIR/results.sqlite like a sweep's (resumable, parallel, Dask). Needs ns-2.35 "
        "(Debian package ns2)."
    ),
)
def crosscheck_cmd(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="Scenario or sweep file (TOML).")],
    replications: Annotated[
        int | None,
        typer.Option(
            "--replications",
            "-r",
            metavar="N",
            help="Runs per point and simulator (default: 1, or the sweep file's).",
            show_default=False,
        ),
    ] = None,
    out_dir: Annotated[
        str | None,
        typer.Option(
            "--out",
            "-o",
            metavar="DIR",
            help="Output folder (default: results/crosscheck-<name>).",
            show_default=False,
        ),
    ] = None,
    profile: Annotated[
        str,
        typer.Option(
            "--profile",
            metavar="PROFILE",
            help="hopsim's profile to compare: ns2, standard or both.",
        ),
    ] = "ns2",
    overrides: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            metavar="KEY=VALUE",
            help="Override a scenario key (repeatable).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", metavar="N", help="Base seed of the replications.", show_default=False
        ),
    ] = None,
    figure: Annotated[
        bool, typer.Option("--figure", help="Also draw DIR/crosscheck.png and .pdf.")
    ] = False,
    jobs: JobsOpt = None,
    scheduler: SchedulerOpt = None,
    quick: QuickOpt = False,
    progress: ProgressOpt = None,
    max_events: MaxEventsOpt = None,
    max_memory_mb: MaxMemoryOpt = None,
) -> None:
    from ..crosscheck.compare import crosscheck, load_crosscheck

    _check_run_options(jobs, scheduler, progress)
    if profile not in ("ns2", "standard", "both"):
        _fail(f"--profile {profile!r}: not allowed; allowed: ns2, standard, both")
    profiles = ("standard", "ns2") if profile == "both" else (profile,)
    budget = parse_budget(max_events, max_memory_mb)
    spec = _guarded(load_crosscheck, file, replications, overrides, seed, quick, budget)
    default = Path("results") / f"crosscheck-{spec.name}{'-quick' if quick else ''}"
    folder = out_folder(out_dir, default)
    report = _guarded(
        _shielded,
        crosscheck,
        spec,
        folder,
        profiles,
        jobs=jobs,
        scheduler=scheduler,
        progress=progress,
    )
    print_report(report)
    err.print(
        f"store: {folder / 'results.sqlite'}; table: {folder / 'crosscheck.csv'}; "
        f"ns-2 scripts: {folder / 'ns2'}",
        soft_wrap=True,
    )
    if figure:
        from ..crosscheck.figure import draw

        for p in draw(report, folder / "crosscheck"):
            err.print(f"figure: {p}", soft_wrap=True)
    for line in report.failures[:10]:
        err.print(f"  failed: {escape(line)}")
    if report.failures:
        raise typer.Exit(1)

"""``hopsim reproduce``: re-run a study of the catalogue and set hopsim's numbers beside the
paper's and, for the studies the paper ran in ns-2, beside ns-2.35's."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from ..studies import CATALOGUE
from .common import Commands, MaxEventsOpt, MaxMemoryOpt, _fail, _guarded, out, parse_budget
from .sweep import (
    JobsOpt,
    OutOpt,
    ProgressOpt,
    QuickOpt,
    SchedulerOpt,
    _check_progress,
    _shielded,
    out_folder,
)

commands = Commands()

#: Claims that do not hold printed by `reproduce` without --claims (the rest: claims.md).
SHOWN_CLAIMS = 5


def _print_two_way(title: str, report: Any, every: bool) -> None:
    claims = report.claims
    held = [c for c in claims if c.holds]
    if every:
        table = Table(title=f"{title}: the paper beside hopsim", title_justify="left")
        for col in ("claim", "paper", "hopsim", "verdict"):
            table.add_column(col, overflow="fold")
        for c in claims:
            style = "green" if c.holds else "yellow"
            table.add_row(c.claim, c.paper, c.ours, f"[{style}]{escape(c.verdict)}[/]")
        out.print(table)
    out.print(f"[bold]{title}[/]: {len(held)} of {len(claims)} claims hold", soft_wrap=True)
    if not every:
        others = [c for c in claims if not c.holds]
        for c in others[:SHOWN_CLAIMS]:
            out.print(
                f"  [yellow]{escape(c.verdict)}[/]: {escape(c.claim)} (paper {escape(c.paper)}, "
                f"hopsim {escape(c.ours)})",
                soft_wrap=True,
            )
        if len(others) > SHOWN_CLAIMS:
            out.print(f"  ... and {len(others) - SHOWN_CLAIMS} more (--claims, or claims.md)")


def _print_three_way(title: str, report: Any, every: bool) -> None:
    from ..studies.threeway import tally

    rows = report.three_way
    if every:
        table = Table(title=f"{title}: the paper, ns-2.35 and hopsim", title_justify="left")
        for col in ("claim", "paper", "ns-2.35", "hopsim", "agrees", "cause"):
            table.add_column(col, overflow="fold")
        for r in rows:
            style = "green" if r.hopsim.holds else "yellow"
            ns2 = f"{r.ns2.ours} ({r.ns2.verdict})" if r.ns2 else "-"
            agree = "" if r.agrees is None else ("yes" if r.agrees else "[red]no[/]")
            cause = f"{r.cause.value}: {r.detail}" if r.cause else ""
            table.add_row(
                escape(r.hopsim.claim),
                escape(r.hopsim.paper),
                escape(ns2),
                f"{escape(r.hopsim.ours)} ([{style}]{escape(r.hopsim.verdict)}[/])",
                agree,
                escape(cause),
            )
        out.print(table)
    out.print(f"[bold]{title}[/]: {escape(tally(rows).line())}", soft_wrap=True)
    out.print(f"ns-2.35: {escape(report.ns2_source)}", soft_wrap=True)
    if not every:
        failing = [r for r in rows if r.cause is not None]
        for r in failing[:SHOWN_CLAIMS]:
            assert r.cause is not None
            out.print(
                f"  [yellow]{escape(r.cause.value)}[/]: {escape(r.hopsim.claim)} (paper "
                f"{escape(r.hopsim.paper)}, hopsim {escape(r.hopsim.ours)}; {escape(r.detail)})",
                soft_wrap=True,
            )
        if len(failing) > SHOWN_CLAIMS:
            out.print(f"  ... and {len(failing) - SHOWN_CLAIMS} more (--claims, or claims.md)")


def _print_claims(title: str, report: Any, every: bool) -> None:
    """N of M claims hold (three ways where ns-2.35 has a column); the ones that do not (or
    all, with --claims); where the files are."""
    if report.three_way is None:
        _print_two_way(title, report, every)
    else:
        _print_three_way(title, report, every)
    for note in report.notes:
        out.print(escape(note), soft_wrap=True)
    out.print(
        f"runs: {report.runs_done} run now, {report.runs_skipped} from the store, "
        f"{report.runs_failed} failed"
    )
    pngs = [p for p in report.figures if p.suffix == ".png"]
    if pngs:
        out.print(f"figures: {pngs[0].parent} ({len(pngs)}, PNG and PDF)", soft_wrap=True)
    out.print(f"claims: {report.table_md} (every claim, the paper's value, ours)", soft_wrap=True)
    out.print(f"points: {report.points_csv}", soft_wrap=True)


def _print_catalogue() -> None:
    from ..studies import get_study
    from ..studies.common import SWEEP_DIR

    table = Table(title="hopsim reproduce: the catalogue", title_justify="left")
    table.add_column("name", no_wrap=True)
    table.add_column("study", overflow="fold")
    table.add_column("sweep files", overflow="fold")
    for key in CATALOGUE:
        study = _guarded(get_study, key)
        files = [f for f in study.sweeps if isinstance(f, str)]
        built = len(study.sweeps) - len(files)
        shown = ", ".join(files + ([f"{built} built in code"] if built else []))
        table.add_row(key, study.title, shown)
    out.print(table)
    out.print(
        f"The sweep files are in {SWEEP_DIR}: copy one as the start of your own sweep "
        "(hopsim sweep FILE --quick runs it).",
        soft_wrap=True,
    )


@commands.command(
    "reproduce",
    help=(
        "Re-run a published study of the catalogue and set our numbers beside the paper's: "
        "writes figures (PNG, PDF), points.csv and claims.md (the paper's values and claims, "
        "ours, and a verdict per claim) into DIR (default results/<name>[-quick]). For the "
        "studies the paper ran in ns-2, each claim is also judged on ns-2.35's runs (from the "
        "reference results shipped with hopsim, or run now with --ns2) and each claim hopsim "
        "does not reproduce gets its cause. Resumable like `hopsim sweep`. --list shows the "
        "catalogue."
    ),
)
def reproduce_cmd(
    name: Annotated[
        str | None,
        typer.Argument(metavar="NAME", help=f"Study name: {', '.join(CATALOGUE)}."),
    ] = None,
    quick: QuickOpt = False,
    jobs: JobsOpt = None,
    scheduler: SchedulerOpt = None,
    out_dir: OutOpt = None,
    list_: Annotated[bool, typer.Option("--list", help="List the catalogue.")] = False,
    all_claims: Annotated[
        bool,
        typer.Option(
            "--claims",
            help="Print every claim (default: those that do not hold; all in claims.md).",
        ),
    ] = False,
    ns2: Annotated[
        bool,
        typer.Option(
            "--ns2",
            help="Run the study's sweeps in ns-2.35 too (into DIR/ns2; needs `ns`, Debian "
            "package ns2) instead of reading ns-2.35's shipped reference results.",
        ),
    ] = False,
    no_ns2: Annotated[
        bool, typer.Option("--no-ns2", help="No ns-2.35 column: the paper beside hopsim only.")
    ] = False,
    write_reference: Annotated[
        bool,
        typer.Option(
            "--write-reference",
            help="With --ns2: make the reference results hopsim ships for this study and "
            "mode from the ns-2.35 runs (a developer's command).",
        ),
    ] = False,
    progress: ProgressOpt = None,
    max_events: MaxEventsOpt = None,
    max_memory_mb: MaxMemoryOpt = None,
) -> None:
    from ..studies import get_study, reproduce_study

    _check_progress(progress)
    if list_ or name is None:
        _print_catalogue()
        if name is None and not list_:
            _fail("give a study NAME (see the list above)")
        return
    if scheduler is not None and jobs is not None:
        _fail("--jobs and --scheduler exclude each other: the cluster has its own workers")
    if ns2 and no_ns2:
        _fail("--ns2 and --no-ns2 exclude each other")
    if write_reference and not ns2:
        _fail("--write-reference needs --ns2: the reference is made from runs made now")
    budget = parse_budget(max_events, max_memory_mb)
    study = _guarded(get_study, name)
    if (ns2 or write_reference) and not study.ns2:
        _fail(f"--ns2: study {name!r} was not run in ns-2 by its paper (no ns-2.35 column)")
    folder = out_folder(out_dir, Path("results") / (name + ("-quick" if quick else "")))
    report = _guarded(
        _shielded,
        reproduce_study,
        study,
        folder,
        quick=quick,
        jobs=jobs,
        scheduler=scheduler,
        progress=progress,
        budget=budget,
        ns2="live" if ns2 else ("off" if no_ns2 else "auto"),
        write_reference=write_reference,
    )
    if report.headline is not None:
        title, columns, rows = report.headline
        head = Table(title=title, title_justify="left")
        for col in columns:
            head.add_column(col, justify="right")
        for row in rows:
            head.add_row(*row)
        out.print(head)
    _print_claims(study.title, report, all_claims)
